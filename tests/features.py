"""The features every supported torch release must give, each a row: the tests that prove it.

The conformance tier (``make test-torch VERSION=...``) runs exactly these tests, selected by
their ``feature`` mark (``pytest -m feature``), which the collection hook of
``tests/conftest.py`` adds from this table; ``tests/feature_tally.py`` counts their outcomes
per feature, and ``scripts/compat_table.py`` writes the README's table from the counts.
Rows are checked at import: each test file exists and each named test is defined in it.
No torch import: the unit tier checks the table.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Feature:
    """A feature (a column of the README's table) and the tests that prove it.

    ``tests`` are pytest node ids from the repository root, without parameters: a file (every
    test in it) or ``file::test_name`` (each of its parametrizations).
    """

    name: str
    tests: tuple[str, ...]


_I = "tests/integration/"
_E = "tests/e2e/"
_C = "tests/conformance/"

FEATURES = (
    Feature("live capture", (f"{_C}test_conformance_programs.py",)),
    Feature(
        "logs",
        (
            f"{_C}test_conformance_logs.py",
            f"{_I}test_live_vs_trace.py",
            f"{_I}test_tracefile_torch.py",
        ),
    ),
    Feature(
        "causes",
        (
            f"{_I}test_causes.py",
            f"{_I}test_guard_status_truth.py",
            f"{_I}test_compiler_guards.py",
        ),
    ),
    Feature("graph breaks", (f"{_I}test_graph_breaks.py",)),
    Feature("unbacked sizes", (f"{_I}test_unbacked.py",)),
    Feature("export", (f"{_I}test_export.py",)),
    Feature("why", (f"{_I}test_why_answers.py", f"{_I}test_cli.py::test_why_by_source")),
    Feature(
        "predict",
        (
            f"{_I}test_predict.py::test_prediction_matches_torch_live",
            f"{_I}test_predict_range.py::test_range_matches_torch_when_the_calls_are_made",
            f"{_I}test_transformers.py::test_rerun_at_three_new_sequence_lengths",
        ),
    ),
    Feature(
        "Hugging Face",
        (
            f"{_I}test_transformers.py::test_every_recompile_is_explained",
            f"{_I}test_transformers.py::test_bert_with_and_without_its_mask_and_after_train_is_predicted_as_torch_does",
        ),
    ),
    Feature(
        "fix_plan replays",
        (
            f"{_I}test_fix_plan.py::test_static_by_default_batch",
            f"{_I}test_fix_plan.py::test_int_used_as_loop_count_has_no_setting_fix",
            f"{_I}test_fix_plan.py::test_training_step_with_backward",
            f"{_I}test_fix_plan.py::test_cli_fix_prints_the_verified_plan",
            f"{_I}test_demo_fixes.py",
            f"{_I}test_replays.py::test_a_replay_keeps_the_users_compiled_function_and_session",
            f"{_I}test_replays.py::test_a_workload_that_never_returns_is_stopped",
        ),
    ),
    Feature(
        "hunt replays",
        (
            f"{_I}test_hunt.py::test_needed_and_avoidable_constants_agree_with_torch",
            f"{_I}test_hunt.py::test_an_avoidable_change_reapplied_in_a_fresh_process",
        ),
    ),
    Feature(
        "rerun and sweep",
        (
            f"{_I}test_sweep.py::test_sweep_over_64_sizes",
            f"{_I}test_sweep.py::test_sweep_grid_and_sample",
        ),
    ),
    Feature("pytest plugin", (f"{_I}test_pytest_plugin.py",)),
    Feature(
        "suite",
        (
            f"{_I}test_suite.py::test_rows_agree_with_torch",
            f"{_I}test_suite.py::test_dask_gives_the_same_suite_json",
        ),
    ),
    Feature(
        "diff",
        (
            f"{_C}test_conformance_upgrade.py",
            f"{_I}test_diff.py::test_a_regression_is_named_with_its_cause_and_line",
            f"{_I}test_diff.py::test_logs_under_two_torch_settings",
        ),
    ),
    Feature(
        "report",
        (
            f"{_E}test_report_browser.py::test_overview_guards_detail_why_and_deep_link",
            f"{_E}test_report_browser.py::test_demo_report_fills_every_tab",
        ),
    ),
    Feature(
        "explorer",
        (
            f"{_I}test_widget.py::test_predict_and_run_through_the_model",
            f"{_I}test_widget.py::test_verify_fixes_replays_the_workload_and_resends_the_verdicts",
            f"{_E}test_widget_frames_browser.py",
        ),
    ),
    Feature("README examples", (f"{_I}test_readme_blocks.py::test_readme_block_runs_as_written",)),
    Feature("pip keeps this torch", (f"{_C}test_conformance_install.py",)),
)
BY_NAME = {feature.name: feature for feature in FEATURES}
assert len(BY_NAME) == len(FEATURES), "two features share a name"


def _defined(node: str) -> bool:
    path, _, test = node.partition("::")
    if not (ROOT / path).is_file():
        return False
    text = (ROOT / path).read_text(encoding="utf-8")
    return not test or re.search(rf"^(async )?def {re.escape(test)}\(", text, re.M) is not None


_MISSING = [node for feature in FEATURES for node in feature.tests if not _defined(node)]
assert not _MISSING, f"feature tests that do not exist: {_MISSING}"


def features_of(nodeid: str) -> list[str]:
    """The features a collected test proves (its node id, parameters and all)."""
    bare = nodeid.partition("[")[0]
    return [
        feature.name
        for feature in FEATURES
        if any(bare == node or bare.startswith(f"{node}::") for node in feature.tests)
    ]
