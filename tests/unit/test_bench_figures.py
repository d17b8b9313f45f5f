"""The benchmarks' figures file and the README written from it (issue 35, point 7).

``benchmarks/figures.py`` records each benchmark's figures in one JSON file and says by its
exit status whether a target was missed; ``scripts/readme_figures.py`` writes the README's
marked figures from that file.  Compared: the file a recorder writes with the figures and
targets it was given, the status it returns with the targets' comparisons, and the README
text the script writes (or refuses to write) with the values in a figures file written here.
The README's own markers are checked against the benchmarks ``make bench`` runs.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _load(path: Path, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def figures() -> ModuleType:
    return _load(ROOT / "benchmarks" / "figures.py", "bench_figures_under_test")


@pytest.fixture(scope="module")
def readme() -> ModuleType:
    return _load(ROOT / "scripts" / "readme_figures.py", "readme_figures_under_test")


@pytest.fixture
def figures_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "bench-figures.json"
    monkeypatch.setenv("BENCH_FIGURES", str(path))
    return path


def _entries(path: Path) -> dict[str, Any]:
    return dict(json.loads(path.read_text())["benchmarks"])


def test_a_met_target_exits_0_and_is_recorded(figures: ModuleType, figures_file: Path) -> None:
    recorder = figures.Recorder("demo", str(ROOT / "benchmarks" / "bench_demo.py"))
    recorder.add("ratio_x", 0.1, "x", target=("<=", 0.15))
    recorder.add("count", 3, "calls")
    assert recorder.finish() == 0
    entry = _entries(figures_file)["demo"]
    assert entry["passed"] is True
    assert entry["script"] == "benchmarks/bench_demo.py"
    assert {"cpu", "cores", "memory_gib", "os", "python", "torch"} <= set(entry["machine"])
    ratio, count = entry["figures"]
    assert ratio == {
        "name": "demo.ratio_x",
        "value": 0.1,
        "unit": "x",
        "target": {"op": "<=", "value": 0.15},
        "met": True,
        "note": None,
    }
    assert count["target"] is None and count["met"] is None


@pytest.mark.parametrize(
    ("value", "target"), [(0.2, ("<=", 0.15)), (1.0, ("<", 1.0)), (99, (">=", 100)), (1, ("==", 0))]
)
def test_a_missed_target_exits_1(
    figures: ModuleType, figures_file: Path, value: float, target: tuple[str, float]
) -> None:
    recorder = figures.Recorder("demo", str(ROOT / "benchmarks" / "bench_demo.py"))
    recorder.add("figure", value, "x", target=target)
    assert recorder.finish() == 1
    entry = _entries(figures_file)["demo"]
    assert entry["passed"] is False and entry["figures"][0]["met"] is False


def test_an_entry_replaces_only_its_own(figures: ModuleType, figures_file: Path) -> None:
    for bench, value in (("one", 1.0), ("two", 2.0), ("one", 3.0)):
        recorder = figures.Recorder(bench, str(ROOT / "benchmarks" / f"bench_{bench}.py"))
        recorder.add("value", value, "s")
        recorder.finish()
    entries = _entries(figures_file)
    assert [f["value"] for f in entries["one"]["figures"]] == [3.0]
    assert [f["value"] for f in entries["two"]["figures"]] == [2.0]


def test_the_runner_adds_its_outcome_and_removes_stale_entries(
    figures: ModuleType, figures_file: Path
) -> None:
    recorder = figures.Recorder("demo", str(ROOT / "benchmarks" / "bench_demo.py"))
    recorder.add("value", 1.0, "s")
    recorder.finish()
    figures.update_entry("demo", {"exit_code": 0, "seconds": 2.5}, merge=True)
    entry = _entries(figures_file)["demo"]
    assert entry["exit_code"] == 0 and entry["seconds"] == 2.5
    assert [f["value"] for f in entry["figures"]] == [1.0]
    figures.update_entry("demo", None)
    assert _entries(figures_file) == {}


def test_a_setting_other_than_make_bench_marks_the_run_quick(
    figures: ModuleType, figures_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(figures, "_SETTINGS", {})
    monkeypatch.setenv("BENCH_DEMO_SIZE", "10")
    assert figures.knob("BENCH_DEMO_SIZE", 1000) == "10"
    figures.Recorder("demo", str(ROOT / "benchmarks" / "bench_demo.py")).finish()
    entry = _entries(figures_file)["demo"]
    assert entry["settings"] == {"BENCH_DEMO_SIZE": "10"} and entry["quick"] is True


MACHINE = {"cpu": "CPU X", "cores": 2, "memory_gib": 8.0, "os": "Linux", "python": "3.11.7"}
TEXT = (
    "ratio <!-- bench:tlparse.ratio_x .2f -->0.5<!-- /bench -->x, "
    "log <!-- bench:big_log.log_mb ,.0f -->1<!-- /bench --> MB "
    "(<!-- bench:date -->then<!-- /bench --> on <!-- bench:machine -->here<!-- /bench -->)\n"
)


def _write_figures(path: Path, **changes: Any) -> None:
    def entry(name: str, value: float, date: str) -> dict[str, Any]:
        figure = {"name": name, "value": value, "unit": "x", "target": None, "met": None}
        machine = dict(MACHINE, torch="2.13.0")
        return {"date": date, "machine": machine, "quick": False, "figures": [figure]}

    benchmarks = {
        "tlparse": entry("tlparse.ratio_x", 0.0834, "2026-12-03T10:00:00+00:00"),
        "big_log": entry("big_log.log_mb", 1044.179, "2026-12-04T01:00:00+00:00"),
    }
    for key, value in changes.items():
        benchmarks["big_log"][key] = value
    path.write_text(json.dumps({"format": 1, "benchmarks": benchmarks}))


def test_the_readme_is_written_from_the_file(readme: ModuleType, tmp_path: Path) -> None:
    figures_path, readme_path = tmp_path / "figures.json", tmp_path / "README.md"
    _write_figures(figures_path)
    readme_path.write_text(TEXT)
    paths = ["--figures", str(figures_path), "--readme", str(readme_path)]
    assert readme.main([*paths, "--check"]) == 1  # the old values differ
    assert readme.main(paths) == 0
    written = readme_path.read_text()
    assert "-->0.08<!--" in written and "-->1,044<!--" in written
    assert "-->2026-12-03 to 2026-12-04<!--" in written
    assert "-->CPU X, 2 cores, 8.0 GiB, Linux, Python 3.11.7, torch 2.13.0<!--" in written
    assert readme.main([*paths, "--check"]) == 0


@pytest.mark.parametrize(
    ("changes", "said"),
    [
        ({"quick": True}, "settings other than make bench's: big_log"),
        ({"machine": dict(MACHINE, cores=64, torch="2.13.0")}, "from 2 machines"),
        ({"figures": []}, "figures not in the file: big_log.log_mb"),
    ],
)
def test_figures_the_readme_cannot_take_are_refused(
    readme: ModuleType,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    changes: dict[str, Any],
    said: str,
) -> None:
    figures_path, readme_path = tmp_path / "figures.json", tmp_path / "README.md"
    _write_figures(figures_path, **changes)
    readme_path.write_text(TEXT)
    assert readme.main(["--figures", str(figures_path), "--readme", str(readme_path)]) == 2
    assert said in capsys.readouterr().err
    assert readme_path.read_text() == TEXT


def test_every_readme_figure_names_a_benchmark_make_bench_runs(readme: ModuleType) -> None:
    run_all = (ROOT / "benchmarks" / "run_all.py").read_text()
    markers = list(readme.MARKER.finditer((ROOT / "README.md").read_text()))
    names = {m["name"] for m in markers if m["name"] not in readme.RUN_NAMES}
    assert {m["name"] for m in markers} >= set(readme.RUN_NAMES)
    assert names, "no benchmark figure is marked in README.md"
    for name in sorted(names):
        bench = name.split(".")[0]
        assert f'"{bench}"' in run_all, f"{name}: no benchmark {bench} in run_all.py"
        assert (ROOT / "benchmarks" / f"bench_{bench}.py").exists(), name
    assert all(m["spec"] for m in markers if m["name"] not in readme.RUN_NAMES)
