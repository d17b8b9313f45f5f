"""The command line on the log of a scenario run: ``symdebug summary``, ``why``, ``report``
and ``run`` (the real logs of tests/data/traces: ``unit/test_cli_logs.py``)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from scenarios import ScenarioRun

from symdebug.cli import main


@pytest.fixture(scope="module")
def trace_dir(scenario_run: ScenarioRun) -> Path:
    return scenario_run.trace


def test_summary(trace_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["summary", str(trace_dir)]) == 0
    out = capsys.readouterr().out
    assert "frame branch" in out and "frame loop" in out
    assert "recompiled because (user_branch)" in out
    assert "recompiled because (int_specialized)" in out


def test_why_by_source(trace_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["why", str(trace_dir), "L['n']"]) == 0
    out = capsys.readouterr().out
    assert "n (L['n']) is specialized = 4" in out
    assert "cause: int_specialized" in out
    assert "for _ in range(n):" in out
    assert "fix:" in out


def test_why_by_argument_and_dim(trace_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["why", str(trace_dir), "b", "0"]) == 0
    assert "b.shape[0] (L['b'].size()[0]) is dynamic" in capsys.readouterr().out


def test_why_unknown_source_is_a_clear_error(
    trace_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["why", str(trace_dir), "nope", "3"]) == 1
    assert "no input source matches" in capsys.readouterr().err


def test_console_script_runs(trace_dir: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "symdebug", "summary", str(trace_dir)],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    assert "compiles" in result.stdout


def test_report_writes_html(
    trace_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "report.html"
    assert main(["report", str(trace_dir), "-o", str(out)]) == 0
    html = out.read_text()
    assert '<script type="application/json" id="symdebug-data">' in html
    assert "http://" not in html.split("<script>", 1)[0] and "https://" not in html
    assert f"wrote {out}" in capsys.readouterr().out


def test_run_captures_a_script(tmp_path: Path) -> None:
    script = tmp_path / "script.py"
    script.write_text(
        "import sys, torch\n"
        "def f(x):\n"
        "    if x.shape[0] > 4:\n"
        "        return x * 2\n"
        "    return x + 1\n"
        "cf = torch.compile(f, backend='eager', dynamic=True)\n"
        "for n in map(int, sys.argv[1:]):\n"
        "    cf(torch.randn(n))\n"
    )
    out = tmp_path / "run.html"
    result = subprocess.run(
        [sys.executable, "-m", "symdebug", "run", "-o", str(out), str(script), "8", "3"],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    assert "recompiled because (user_branch)" in result.stdout
    assert out.exists() and "symdebug-data" in out.read_text()


@pytest.mark.parametrize(
    ("ending", "status", "said"),
    [
        ("raise RuntimeError('the script failed')", 1, "RuntimeError: the script failed"),
        ("sys.exit('stopped early')", 1, "stopped early"),
        ("sys.exit(3)", 3, ""),
        ("sys.exit()", 0, ""),  # no status is success, as python says
    ],
)
def test_run_keeps_the_capture_whatever_the_script_does(
    tmp_path: Path, ending: str, status: int, said: str
) -> None:
    script = tmp_path / "script.py"
    script.write_text(
        "import sys, torch\n"
        "cf = torch.compile(lambda x: x * 2, backend='eager')\n"
        "cf(torch.ones(3))\n"
        f"{ending}\n"
    )
    out = tmp_path / "run.html"
    result = subprocess.run(
        [sys.executable, "-m", "symdebug", "run", "-o", str(out), str(script)],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert result.returncode == status
    assert said in result.stderr
    assert "1 compile, " in result.stdout  # the compile before the failure is reported
    assert out.exists() and "symdebug-data" in out.read_text()


def test_run_gives_the_script_everything_after_its_name(tmp_path: Path) -> None:
    script = tmp_path / "train.py"
    script.write_text(
        "import json, sys, torch\n"
        "torch.compile(lambda x: x * 2, backend='eager')(torch.ones(3))\n"
        f"open({str(tmp_path / 'argv.json')!r}, 'w').write(json.dumps(sys.argv))\n"
    )
    out = tmp_path / "report.html"
    argv = [str(script), "--epochs", "1", "-o", "theirs.txt", "--redact"]
    subprocess.run(  # after --, even an option of symdebug's own (issue 46, point 15)
        [sys.executable, "-m", "symdebug", "run", "-o", str(out), argv[0], "--", *argv[1:]],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    assert json.loads((tmp_path / "argv.json").read_text()) == argv
    assert out.exists() and not (tmp_path / "theirs.txt").exists()
