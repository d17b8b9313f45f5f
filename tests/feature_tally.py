"""The conformance tier's record: which features passed on this torch, for the README.

Each test of a feature (``tests/features.py``) is marked ``feature``; when a run ends, the counts
per feature are written to ``out/conformance/torch-<version>.json``, from which
``scripts/compat_table.py`` writes the README's table (version x feature).  No torch import:
the version is the installed distribution's.
"""

from __future__ import annotations

import json
from importlib import metadata
from pathlib import Path

import pytest

OUT = Path(__file__).resolve().parents[1] / "out" / "conformance"


def torch_version() -> str:
    """The installed torch's version (``2.15.0``, its local label left out)."""
    try:
        return metadata.version("torch").split("+")[0]
    except metadata.PackageNotFoundError:
        return "none"


def tag_features(items: list[pytest.Item]) -> None:
    """Mark each test of a feature (``tests/features.py``) and say the feature in its report
    (``user_properties``: xdist carries them to the controller)."""
    from features import features_of

    for item in items:
        for name in features_of(item.nodeid):
            item.add_marker(pytest.mark.feature(name))
            item.user_properties.append(("feature", name))


class FeatureTally:
    """Passed and failed tests per feature, as the reports come."""

    def __init__(self) -> None:
        self.counts: dict[str, dict[str, int]] = {}

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        """Count a test's outcome under each feature it proves."""
        if report.when != "call" and not report.failed:
            return
        outcome = "passed" if report.passed else "failed" if report.failed else "skipped"
        if hasattr(report, "wasxfail"):  # a known difference, a strict xfail: not a skip
            outcome = "xfailed"
        for key, value in report.user_properties:
            if key == "feature":
                counts = self.counts.setdefault(str(value), dict.fromkeys(("passed", "failed"), 0))
                counts[outcome] = counts.get(outcome, 0) + 1

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        """Write the counts (the controller does, not an xdist worker)."""
        if hasattr(session.config, "workerinput") or not self.counts:
            return
        OUT.mkdir(parents=True, exist_ok=True)
        result = {"torch": torch_version(), "features": dict(sorted(self.counts.items()))}
        path = OUT / f"torch-{torch_version()}.json"
        path.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
