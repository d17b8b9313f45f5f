"""Held-out judge for issue 31 ("every recompile named"): symdebug against torch's own logs.

For each program in ``tests/data/heldout/`` (each defines ``main()``), two subprocesses run:

- **torch**: the program under ``TORCH_LOGS=recompiles,guards,graph_breaks`` and
  ``TORCH_TRACE=<tmpdir>``, without symdebug.  Its stderr is torch's truth: each
  "Recompiling function ... triggered by the following guard failure(s): - 0/0: ..." block,
  with the user line torch names (``# code  # file.py:NN in fn``, or the "User stack trace").
- **symdebug**: the same program under ``symdebug.capture()`` (live), then
  ``symdebug.load_trace(<tmpdir>)`` of the log the torch run wrote (log).

Checks, per recompile torch logged (a miss counts against every check of the row):

1. *found*: the live session has a recompile with that compile id;
2. *cause known*: its ``cause`` is not ``unknown``;
3. *line agrees*: where torch names a line in the program, symdebug's user line is that line
   (reasons without one, such as dtype or global state: "torch names none", not counted);
4. *live == log*: the log's recompile of that id has the same cause, user line and fix.

Usage::

    .venv/bin/python scripts/judge_recompiles.py [--json out.json] [--only NAME ...]

It never stops on a failing program: the error is reported in that program's row.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import subprocess
import sys
import tempfile
import textwrap
import time
import traceback
from dataclasses import asdict, dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PROGRAMS = ROOT / "tests" / "data" / "heldout"
CHECKS = ("found", "cause_known", "line_agrees", "live_eq_log")

# ---------------------------------------------------------------------------------------------
# Worker side: runs inside the subprocesses.
# ---------------------------------------------------------------------------------------------


def _load_program(path: Path) -> ModuleType:
    """Import a program by path, under the same module name in every run."""
    name = f"heldout_{path.stem}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _error_text(exc: BaseException) -> str:
    last = traceback.format_exception_only(type(exc), exc)[-1].strip()
    return last[:500]


def _frame_dict(frame: Any) -> dict[str, Any] | None:
    if frame is None:
        return None
    return {
        "filename": str(getattr(frame, "filename", "") or ""),
        "lineno": getattr(frame, "lineno", None),
        "name": str(getattr(frame, "name", "") or ""),
        "line": str(getattr(frame, "line", "") or ""),
    }


def _user_frame_of(recompile: Any) -> tuple[Any, str]:
    """symdebug's user line for a recompile, and which attribute gave it."""
    own = getattr(recompile, "user_frame", None)
    if own is not None:
        return own, "recompile.user_frame"
    guard = getattr(recompile, "guard", None)
    if guard is not None and getattr(guard, "user_frame", None) is not None:
        return guard.user_frame, "guard.user_frame"
    spec = getattr(recompile, "specialization", None)
    if spec is not None and getattr(spec, "user_frame", None) is not None:
        return spec.user_frame, "specialization.user_frame"
    return None, "none"


def _recompile_dict(recompile: Any) -> dict[str, Any]:
    frame, source = _user_frame_of(recompile)
    fix = getattr(recompile, "fix", None)
    failed = getattr(recompile, "failed_entry", None)
    return {
        "compile_id": str(getattr(recompile, "compile_id", "")),
        "failed_entry": str(failed) if failed is not None else None,
        "cause": str(getattr(recompile, "cause", None)),
        "reasons": [str(r) for r in (getattr(recompile, "reasons", None) or [])],
        "user_frame": _frame_dict(frame),
        "user_frame_source": source,
        "fix": str(fix) if fix is not None else None,
    }


def _session_dict(session: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"recompiles": [], "graph_breaks": None, "error": None}
    try:
        out["recompiles"] = [_recompile_dict(r) for r in session.recompiles]
    except Exception as exc:
        out["error"] = f"reading recompiles: {_error_text(exc)}"
    try:
        out["graph_breaks"] = len(list(session.graph_breaks))
    except Exception as exc:
        out["graph_breaks"] = f"error: {_error_text(exc)}"
    return out


def _worker_torch(program: Path) -> dict[str, Any]:
    """Run the program plainly; TORCH_LOGS and TORCH_TRACE come from the environment."""
    result: dict[str, Any] = {"error": None}
    try:
        _load_program(program).main()
    except Exception as exc:
        result["error"] = _error_text(exc)
    return result


def _worker_symdebug(program: Path, trace_dir: Path) -> dict[str, Any]:
    """Run the program under a live capture, then read the torch run's log."""
    result: dict[str, Any] = {"live": None, "log": None, "program_error": None}
    try:
        import symdebug

        result["symdebug_file"] = symdebug.__file__
    except Exception as exc:
        result["live"] = {"error": f"import symdebug: {_error_text(exc)}", "recompiles": []}
        return result
    session: Any = None
    try:
        module = _load_program(program)
        with symdebug.capture() as session:
            try:
                module.main()
            except Exception as exc:
                result["program_error"] = _error_text(exc)
        result["live"] = _session_dict(session)
    except Exception as exc:
        live = _session_dict(session) if session is not None else {"recompiles": []}
        live["error"] = f"live capture: {_error_text(exc)}"
        result["live"] = live
    if not any(trace_dir.iterdir()):
        result["log"] = {"error": f"no log written in {trace_dir}", "recompiles": []}
        return result
    try:
        loaded = symdebug.load_trace(str(trace_dir))
        ranks = getattr(loaded, "ranks", None)
        if ranks:  # a MultiRankSession: one process, so one rank
            loaded = next(iter(ranks.values()))
        result["log"] = _session_dict(loaded)
    except Exception as exc:
        result["log"] = {"error": f"load_trace: {_error_text(exc)}", "recompiles": []}
    return result


def worker_main(mode: str, program: Path, trace_dir: Path, out: Path) -> int:
    result = _worker_torch(program) if mode == "torch" else _worker_symdebug(program, trace_dir)
    out.write_text(json.dumps(result, indent=1))
    return 0


# ---------------------------------------------------------------------------------------------
# torch's truth: the recompile blocks of TORCH_LOGS=recompiles.
# ---------------------------------------------------------------------------------------------

LOG_LINE = re.compile(
    r"^[VIWEDC]\d{4} [\d:.]+ +\d+ \S+:\d+\] \[(?P<cid>[^\]]*)\] \[__(?P<art>\w+)\] ?(?P<msg>.*)$"
)
RECOMPILING = re.compile(r"Recompiling function (?P<fn>\S+) in (?P<where>\S+)")
FAILURE = re.compile(r"^\s*- (?P<entry>!?\d+/\d+(?:_\d+)?(?:@\d+)?): (?P<text>.*)$")
STACK_FILE = re.compile(r'^\s*-\s+File "(?P<file>[^"]+)", line (?P<line>\d+), in (?P<fn>\S+)')
NAMED = re.compile(r"#\s(?P<code>.*?)\s+#\s(?P<file>\S+):(?P<line>\d+) in (?P<fn>\S+)")


@dataclass
class TorchFailure:
    """One cache entry's failed check, as torch words it, with the line it names."""

    entry: str
    text: str
    named: dict[str, Any] | None = None  # from "# code  # file:NN in fn"
    stack: list[dict[str, Any]] = field(default_factory=list)  # "User stack trace" frames


@dataclass
class TorchRecompile:
    compile_id: str
    function: str
    where: str
    failures: list[TorchFailure] = field(default_factory=list)


def parse_torch_log(text: str) -> tuple[dict[str, TorchRecompile], int]:
    """Torch's recompiles by compile id, and how many graph-break lines it logged."""
    recompiles: dict[str, TorchRecompile] = {}
    breaks = 0
    current: TorchRecompile | None = None
    in_stack = False
    for raw in text.splitlines():
        m = LOG_LINE.match(raw)
        if m is None:
            continue
        art, msg, cid = m["art"], m["msg"], m["cid"]
        if art == "graph_breaks" and "Graph break" in msg:
            breaks += 1
        if art != "recompiles":
            continue
        head = RECOMPILING.search(msg)
        if head:
            current = TorchRecompile(cid, head["fn"], head["where"])
            recompiles[cid] = current
            in_stack = False
            continue
        if current is None or current.compile_id != cid:
            continue
        if re.match(r"^\s*- User stack trace:", msg):
            in_stack = True
            continue
        frame = STACK_FILE.match(msg)
        if frame and in_stack and current.failures:
            current.failures[-1].stack.append(
                {"filename": frame["file"], "lineno": int(frame["line"]), "name": frame["fn"]}
            )
            continue
        fail = FAILURE.match(msg)
        if fail:
            in_stack = False
            failure = TorchFailure(fail["entry"], fail["text"].strip())
            named = NAMED.search(failure.text)
            if named:
                failure.named = {
                    "code": named["code"],
                    "file": named["file"],
                    "lineno": int(named["line"]),
                    "name": named["fn"],
                }
            current.failures.append(failure)
    return recompiles, breaks


def _in_program(filename: str, program: Path) -> bool:
    """Whether a (possibly truncated, as torch prints it) file name is the program's."""
    if not filename:
        return False
    full = str(program.resolve())
    return (
        full == filename
        or full.endswith("/" + filename.lstrip("/"))
        or (full.endswith(filename) and Path(filename).name == program.name)
    )


def torch_user_line(failure: TorchFailure, program: Path) -> tuple[int | None, str]:
    """The program line torch names for a failure, and how torch named it."""
    named = failure.named
    if named and _in_program(named["file"], program):
        return named["lineno"], "named"
    for frame in reversed(failure.stack):  # innermost first
        if _in_program(frame["filename"], program):
            return frame["lineno"], "user stack"
    if named:
        return None, f"library line {named['file']}:{named['lineno']}"
    return None, "none"


# ---------------------------------------------------------------------------------------------
# Running and judging.
# ---------------------------------------------------------------------------------------------


@dataclass
class Row:
    program: str
    compile_id: str
    torch_entry: str = ""
    torch_reason: str = ""
    torch_line: int | None = None
    torch_line_kind: str = ""
    other_failures: list[str] = field(default_factory=list)
    live: dict[str, Any] | None = None
    log: dict[str, Any] | None = None
    checks: dict[str, bool | None] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    error: str | None = None


def _run(cmd: list[str], env: dict[str, str], timeout: float, stderr_path: Path) -> str | None:
    """Run a worker; None when it finished, else what went wrong."""
    try:
        with stderr_path.open("w") as err:
            proc = subprocess.run(  # noqa: PLW1510 - the return code is read below
                cmd,
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=err,
                timeout=timeout,
                cwd=ROOT,
            )
    except subprocess.TimeoutExpired:
        return f"timed out after {timeout:.0f}s"
    except OSError as exc:
        return f"could not start: {exc}"
    if proc.returncode != 0:
        tail = stderr_path.read_text(errors="replace").strip().splitlines()[-3:]
        return f"exit {proc.returncode}: {' | '.join(tail)[:400]}"
    return None


def _base_env(cache_dir: Path, symdebug_root: Path | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("TORCH_LOGS", "TORCH_TRACE")}
    # The same compile ids in every run: no compile cache or profile (PGO) from an earlier run.
    env["TORCHINDUCTOR_FORCE_DISABLE_CACHES"] = "1"
    env["TORCHINDUCTOR_CACHE_DIR"] = str(cache_dir)
    # symdebug_root (a copy of another revision's tree) comes first: PYTHONPATH wins over the
    # editable install's finder, which sits at the end of sys.meta_path.
    first = [str(symdebug_root)] if symdebug_root else []
    env["PYTHONPATH"] = os.pathsep.join([*first, str(ROOT), *filter(None, [env.get("PYTHONPATH")])])
    return env


def _read_json(path: Path) -> dict[str, Any] | None:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None


def _line_of(record: dict[str, Any] | None) -> int | None:
    frame = (record or {}).get("user_frame")
    return frame.get("lineno") if frame else None


def _where(record: dict[str, Any] | None) -> str:
    frame = (record or {}).get("user_frame")
    if not frame:
        return "-"
    return f"{Path(frame['filename']).name}:{frame['lineno']}"


def _same_file(record: dict[str, Any] | None, program: Path) -> bool:
    frame = (record or {}).get("user_frame")
    return bool(frame) and _in_program(frame["filename"], program)


def judge_program(
    program: Path, timeout: float, keep: Path | None, symdebug_root: Path | None = None
) -> dict[str, Any]:
    report: dict[str, Any] = {
        "program": program.stem,
        "doc": (_load_doc(program) or "").strip().splitlines()[0:1],
        "rows": [],
        "errors": [],
    }
    with tempfile.TemporaryDirectory(prefix=f"judge_{program.stem}_") as tmp_name:
        tmp = Path(tmp_name)
        trace_dir, cache_dir = tmp / "trace", tmp / "cache"
        trace_dir.mkdir()
        cache_dir.mkdir()
        me = [sys.executable, str(Path(__file__).resolve())]
        common = ["--program", str(program), "--trace-dir", str(trace_dir)]

        env = _base_env(cache_dir)
        env["TORCH_LOGS"] = "recompiles,guards,graph_breaks"
        env["TORCH_TRACE"] = str(trace_dir)
        started = time.perf_counter()
        torch_err = tmp / "torch.stderr"
        failed = _run(
            [*me, "--worker", "torch", *common, "--out", str(tmp / "torch.json")],
            env,
            timeout,
            torch_err,
        )
        if failed:
            report["errors"].append(f"torch run: {failed}")
        torch_result = _read_json(tmp / "torch.json") or {}
        if torch_result.get("error"):
            report["errors"].append(f"program raised (torch run): {torch_result['error']}")
        log_text = torch_err.read_text(errors="replace") if torch_err.exists() else ""
        truth, breaks = parse_torch_log(log_text)
        report["torch_graph_breaks"] = breaks

        sd_err = tmp / "symdebug.stderr"
        failed = _run(
            [*me, "--worker", "symdebug", *common, "--out", str(tmp / "sd.json")],
            _base_env(tmp / "cache2", symdebug_root),
            timeout,
            sd_err,
        )
        if failed:
            report["errors"].append(f"symdebug run: {failed}")
        sd = _read_json(tmp / "sd.json") or {}
        report["seconds"] = round(time.perf_counter() - started, 1)
        report["symdebug_file"] = sd.get("symdebug_file")
        if sd.get("program_error"):
            report["errors"].append(f"program raised (live run): {sd['program_error']}")
        live_s = sd.get("live") or {"recompiles": [], "error": "no live result"}
        log_s = sd.get("log") or {"recompiles": [], "error": "no log result"}
        for kind, sess in (("live", live_s), ("log", log_s)):
            if sess.get("error"):
                report["errors"].append(f"{kind}: {sess['error']}")
        report["symdebug_graph_breaks"] = {
            "live": live_s.get("graph_breaks"),
            "log": log_s.get("graph_breaks"),
        }
        if keep is not None:
            keep.mkdir(parents=True, exist_ok=True)
            (keep / f"{program.stem}.torch.log").write_text(log_text)
        live_by = {r["compile_id"]: r for r in live_s.get("recompiles", [])}
        log_by = {r["compile_id"]: r for r in log_s.get("recompiles", [])}

        if not truth:
            report["errors"].append("torch logged no recompile")
        for cid, rec in sorted(truth.items(), key=lambda kv: _cid_key(kv[0])):
            report["rows"].append(asdict(_judge_row(program, cid, rec, live_by, log_by)))
        for cid in sorted(set(live_by) - set(truth), key=_cid_key):
            row = Row(program.stem, cid, live=live_by[cid], log=log_by.get(cid))
            row.notes.append("extra: symdebug has this recompile, torch logged none")
            report["rows"].append(asdict(row))
    return report


def _judge_row(
    program: Path, cid: str, rec: TorchRecompile, live_by: dict[str, Any], log_by: dict[str, Any]
) -> Row:
    live, log = live_by.get(cid), log_by.get(cid)
    row = Row(program.stem, cid, live=live, log=log)
    # Compare with the failure of the entry symdebug says failed, else the newest entry's.
    chosen = rec.failures[0] if rec.failures else None
    wanted = (live or {}).get("failed_entry")
    for failure in rec.failures:
        if wanted and failure.entry == wanted:
            chosen = failure
    if chosen is not None:
        row.torch_entry, row.torch_reason = chosen.entry, chosen.text
        row.torch_line, row.torch_line_kind = torch_user_line(chosen, program)
        row.other_failures = [f"{f.entry}: {f.text}" for f in rec.failures if f is not chosen]
    else:
        row.torch_line_kind = "none"
        row.notes.append("torch logged no failure line")
    if live is not None and live.get("user_frame") and not _same_file(live, program):
        row.notes.append(
            f"symdebug's user line {_where(live)} is outside the program (not counted)"
        )
    row.checks["found"] = live is not None
    row.checks["cause_known"] = live is not None and live.get("cause") not in (
        None,
        "None",
        "unknown",
        "",
    )
    if row.torch_line is not None:
        row.checks["line_agrees"] = (
            live is not None and _line_of(live) == row.torch_line and _same_file(live, program)
        )
    else:
        row.checks["line_agrees"] = None  # torch names none: not counted
    keys = ("cause", "user_frame", "fix")
    if live is not None and log is not None:
        differs = [k for k in keys if _comparable(k, live.get(k)) != _comparable(k, log.get(k))]
        row.checks["live_eq_log"] = not differs
        if differs:
            row.notes.append("live != log on " + ", ".join(differs))
    else:
        row.checks["live_eq_log"] = False
        row.notes.append(
            f"missing in {'live' if live is None else ''}"
            f"{' and ' if live is None and log is None else ''}"
            f"{'log' if log is None else ''}"
        )
    return row


def _comparable(key: str, value: Any) -> Any:
    if key == "user_frame" and value:
        return (Path(value["filename"]).name, value["lineno"])
    return value


def _cid_key(cid: str) -> tuple[int, ...]:
    return tuple(int(n) for n in re.findall(r"\d+", cid))


def _load_doc(program: Path) -> str | None:
    import ast

    try:
        return ast.get_docstring(ast.parse(program.read_text()))
    except (OSError, SyntaxError):
        return None


# ---------------------------------------------------------------------------------------------
# Output.
# ---------------------------------------------------------------------------------------------


def _mark(value: bool | None) -> str:
    return "n/a" if value is None else ("ok" if value else "MISS")


def _cut(text: str, width: int) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= width else text[: width - 1] + "~"


def print_report(reports: list[dict[str, Any]]) -> dict[str, Any]:
    header = (
        f"{'program':24} {'id':5} {'torch reason':46} {'torch line':12} "
        f"{'cause (live)':22} {'sd line (from)':34} {'line':4} {'log cause':22} "
        f"{'l==l':4}"
    )
    print(header)
    print("-" * len(header))
    passed = total = 0
    by_check = {c: [0, 0] for c in CHECKS}
    for rep in reports:
        for err in rep["errors"]:
            print(f"{rep['program']:24} !! {err}")
        for row in rep["rows"]:
            live, log = row["live"] or {}, row["log"] or {}
            if row["torch_line"] is not None:
                tline = f"{row['torch_line']}"
            else:
                tline = "names none" if row["torch_line_kind"] == "none" else "library"
            sd_line = (
                f"{_where(live)} ({live.get('user_frame_source', '-').split('.')[0]})"
                if live
                else "-"
            )
            print(
                f"{row['program']:24} {row['compile_id']:5} {_cut(row['torch_reason'], 46):46} "
                f"{tline:12} {_cut(live.get('cause', 'MISSING'), 22):22} "
                f"{_cut(sd_line, 34):34} {_mark(row['checks'].get('line_agrees')):4} "
                f"{_cut(log.get('cause', 'MISSING'), 22):22} "
                f"{_mark(row['checks'].get('live_eq_log')):4}"
            )
            if live.get("fix"):
                print(textwrap.indent(f"fix: {_cut(live['fix'], 150)}", " " * 31))
            if row["torch_line_kind"].startswith("library"):
                print(" " * 31 + f"torch names a {row['torch_line_kind']} (not counted)")
            for note in row["notes"]:
                print(" " * 31 + note)
            for check in CHECKS:
                value = row["checks"].get(check)
                if value is None:
                    continue
                by_check[check][1] += 1
                total += 1
                if value:
                    by_check[check][0] += 1
                    passed += 1
    print()
    for check, (ok, n) in by_check.items():
        print(f"  {check:12} {ok} of {n}")
    print(f"Score: {passed} of {total} checks")
    return {
        "passed": passed,
        "total": total,
        "by_check": {c: {"passed": ok, "total": n} for c, (ok, n) in by_check.items()},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", type=Path, help="write the full results here")
    parser.add_argument("--only", nargs="*", default=None, help="program names (file stems)")
    parser.add_argument("--programs", type=Path, default=PROGRAMS)
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds per subprocess")
    parser.add_argument(
        "--keep-logs",
        type=Path,
        default=None,
        help="copy torch's TORCH_LOGS output per program here",
    )
    parser.add_argument(
        "--symdebug-root",
        type=Path,
        default=None,
        help="import symdebug from this directory (e.g. a `git archive` of another revision)",
    )
    parser.add_argument("--worker", choices=("torch", "symdebug"), help=argparse.SUPPRESS)
    parser.add_argument("--program", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--trace-dir", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        return worker_main(args.worker, args.program, args.trace_dir, args.out)

    programs = sorted(p for p in args.programs.glob("*.py") if not p.name.startswith("_"))
    if args.only:
        programs = [p for p in programs if p.stem in set(args.only)]
    reports = []
    for program in programs:
        print(f"... {program.stem}", file=sys.stderr, flush=True)
        try:
            reports.append(judge_program(program, args.timeout, args.keep_logs, args.symdebug_root))
        except Exception as exc:  # the judge itself must not stop on one program
            reports.append(
                {
                    "program": program.stem,
                    "rows": [],
                    "errors": [f"judge failed: {_error_text(exc)}"],
                }
            )
    used = {r.get("symdebug_file") for r in reports if r.get("symdebug_file")}
    print(f"symdebug imported from: {', '.join(sorted(used)) or '?'}")
    score = print_report(reports)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(
            json.dumps({"score": score, "programs": reports}, indent=1, default=str)
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
