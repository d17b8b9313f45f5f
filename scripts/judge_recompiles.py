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
4. *live == log*: the log's recompile of that id has the same cause, user line and fix (not
   counted where torch names no line and only a live capture can know it: the line that called
   a compiled function, which torch's log drops, and the line of a mark, which it never logs);
5. *break lines*: the lines symdebug says the graph broke at (a library's line inside one) are
   those torch names ("Graph break in user code at ..."), live and from the log;
6. *prediction*: for each call a program's ``next_calls()`` returns, symdebug's prediction
   (live and from the log) is what torch then did (compiled the frame again or not, by torch's
   compilation metrics); an unsure prediction abstains, counted apart with what it could not
   check.  The live session stays open over the calls, so each is predicted from every compile
   before it; the log holds ``main()``'s alone, so it is judged only up to the first call that
   compiled.

Usage::

    .venv/bin/python scripts/judge_recompiles.py [--json out.json] [--only NAME ...]
        [--programs DIR ...] [--jobs 2] [--baseline FILE [--record]]

``make judge`` runs it on ``tests/data/unseen`` and ``tests/data/classes`` against
``tests/data/judge-baseline.json``: exit 1 on any check the baseline passed that now misses.

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
CHECKS = ("found", "cause_known", "line_agrees", "live_eq_log", "break_lines", "prediction")

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


def _break_where(graph_break: Any) -> str:
    """Where symdebug says a break happened: the library's line inside one, else the user's."""
    frame = getattr(graph_break, "library_frame", None) or getattr(graph_break, "user_frame", None)
    return f"{frame.filename}:{frame.lineno}" if frame is not None else "(unknown line)"


def _session_dict(session: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"recompiles": [], "graph_breaks": None, "error": None}
    try:
        out["recompiles"] = [_recompile_dict(r) for r in session.recompiles]
    except Exception as exc:
        out["error"] = f"reading recompiles: {_error_text(exc)}"
    try:
        breaks = list(session.graph_breaks)
        out["graph_breaks"] = len(breaks)
        out["break_lines"] = sorted({_break_where(b) for b in breaks})
    except Exception as exc:
        out["graph_breaks"] = f"error: {_error_text(exc)}"
    return out


def _frame_name(compiled: Any) -> str:
    """The compiled frame's code name, as predictions take it (``forward`` for a module)."""
    from symdebug._torch.compiled import original_callable

    original = original_callable(compiled)
    code = getattr(getattr(original, "forward", original), "__code__", None)
    return code.co_name if code is not None else ""


def _predicted(session: Any, call: tuple[Any, ...]) -> dict[str, Any]:
    compiled, args, kwargs = call
    try:
        found = session.predict(*args, frame=_frame_name(compiled), **kwargs)
    except Exception as exc:
        return {"error": _error_text(exc)}
    return {
        "outcome": "recompile" if found.recompiles else "no compile",
        "certain": bool(found.certain),
        "unchecked": [str(u) for u in found.unchecked],
    }


def _frame_compiles(name: str) -> int:
    """Torch's own count of the frame compiles of a code name (its compilation metrics)."""
    from torch._dynamo import utils as dynamo_utils

    return sum(
        1
        for m in dynamo_utils.get_compilation_metrics()
        if getattr(m, "co_name", None) == name and m.is_forward is not False
    )


def _torch_outcome(call: tuple[Any, ...]) -> str:
    """What torch did with the call: compiled the frame again, or not (served or eager)."""
    compiled, args, kwargs = call
    name = _frame_name(compiled)
    before = _frame_compiles(name)
    try:
        compiled(*args, **kwargs)
    except Exception as exc:
        return f"raised {_error_text(exc)}"
    return "recompile" if _frame_compiles(name) > before else "no compile"


def _predictions(module: ModuleType, live: Any, log: Any) -> list[dict[str, Any]]:
    """Each next call's prediction, live and from the log, then torch's outcome.

    The live session sees each call's compiles before the next is predicted; the log holds
    ``main()``'s alone, so after a call that compiled it no longer says what torch holds.
    """
    rows: list[dict[str, Any]] = []
    for call in module.next_calls():
        row: dict[str, Any] = {"frame": _frame_name(call[0]), "live": _predicted(live, call)}
        if any(r["torch"] == "recompile" for r in rows):
            row["log"] = {"stale": "the log predates an earlier next call's compile"}
        else:
            row["log"] = _predicted(log, call) if log is not None else {"error": "no log"}
        row["torch"] = _torch_outcome(call)
        rows.append(row)
    return rows


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
    loaded = _load_log(trace_dir, result)
    session: Any = None
    from torch._dynamo import utils as dynamo_utils

    dynamo_utils.set_compilation_metrics_limit(100_000)
    try:
        module = _load_program(program)
        # Open across the next calls: each is predicted from every compile before it.
        with symdebug.capture() as session:
            try:
                module.main()
            except Exception as exc:
                result["program_error"] = _error_text(exc)
            result["live"] = _session_dict(session)  # what torch's run did too: main() only
            if hasattr(module, "next_calls") and not result["program_error"]:
                result["predictions"] = _predictions(module, session, loaded)
    except Exception as exc:
        live = result["live"] or _session_dict(session) if session is not None else {}
        live = {"recompiles": [], **live, "error": f"live capture: {_error_text(exc)}"}
        result["live"] = live
    return result


def _load_log(trace_dir: Path, result: dict[str, Any]) -> Any:
    """The torch run's log as a session (its answers into ``result``), or None."""
    import symdebug

    if not any(trace_dir.iterdir()):
        result["log"] = {"error": f"no log written in {trace_dir}", "recompiles": []}
        return None
    try:
        loaded = symdebug.load_trace(str(trace_dir))
        ranks = getattr(loaded, "ranks", None)
        if ranks:  # a MultiRankSession: one process, so one rank
            loaded = next(iter(ranks.values()))
        result["log"] = _session_dict(loaded)
    except Exception as exc:
        result["log"] = {"error": f"load_trace: {_error_text(exc)}", "recompiles": []}
        return None
    return loaded


def worker_main(mode: str, program: Path, trace_dir: Path, out: Path) -> int:
    result = _worker_torch(program) if mode == "torch" else _worker_symdebug(program, trace_dir)
    out.write_text(json.dumps(result, indent=1))
    return 0


# ---------------------------------------------------------------------------------------------
# torch's truth: the recompile blocks of TORCH_LOGS=recompiles.
# ---------------------------------------------------------------------------------------------

LOG_LINE = re.compile(  # under a process group torch starts each line with ``[rank0]:``
    r"^(?:\[rank\d+\]:)?[VIWEDC]\d{4} [\d:.]+ +\d+ \S+:\d+\] "
    r"\[(?P<cid>[^\]]*)\] \[__(?P<art>\w+)\] ?(?P<msg>.*)$"
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


BREAK_AT = re.compile(r"Graph break in user code at (?P<where>\S+:\d+)")


def torch_break_lines(text: str) -> list[str]:
    """Where torch says each graph break happened (``file:line``), once each."""
    found = set()
    for raw in text.splitlines():
        m = LOG_LINE.match(raw)
        if m is not None and m["art"] == "graph_breaks":
            at = BREAK_AT.search(m["msg"])
            if at:
                found.add(at["where"])
    return sorted(found)


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

        report["breaks"] = _judge_breaks(torch_break_lines(log_text), live_s, log_s)
        report["predictions"] = [_judge_prediction(row) for row in sd.get("predictions") or []]
        if not truth and not report["breaks"]["torch"]:
            report["errors"].append("torch logged no recompile and no graph break")
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
        if differs == ["user_frame"] and row.torch_line is None and _live_only(live, log, program):
            row.checks["live_eq_log"] = None
            row.notes.append("not counted: torch's log lacks the call's or the mark's line")
    else:
        row.checks["live_eq_log"] = False
        row.notes.append(
            f"missing in {'live' if live is None else ''}"
            f"{' and ' if live is None and log is None else ''}"
            f"{'log' if log is None else ''}"
        )
    return row


def _judge_breaks(
    torch_lines: list[str], live: dict[str, Any], log: dict[str, Any]
) -> dict[str, Any]:
    """symdebug's break lines (live and from the log) against torch's, as sets of lines."""
    checks = {
        kind: sorted(session.get("break_lines") or []) == torch_lines
        for kind, session in (("live", live), ("log", log))
    }
    return {
        "torch": torch_lines,
        "live": live.get("break_lines"),
        "log": log.get("break_lines"),
        "checks": checks,
    }


def _judge_prediction(row: dict[str, Any]) -> dict[str, Any]:
    """A sure prediction must be what torch did; an unsure one abstains, saying why."""
    if "error" in row:
        return {**row, "checks": {"live": False, "log": False}, "abstained": []}
    checks: dict[str, bool | None] = {}
    abstained = []
    for kind in ("live", "log"):
        said = row.get(kind) or {}
        if "stale" in said:
            checks[kind] = None  # not counted: the log does not hold the earlier call's compile
        elif "error" in said:
            checks[kind] = False
        elif not said.get("certain"):
            checks[kind] = None  # an abstention: counted apart, with what it could not check
            abstained.append(f"{kind}: {'; '.join(said.get('unchecked') or []) or '?'}")
        else:
            checks[kind] = said.get("outcome") == row.get("torch")
    return {**row, "checks": checks, "abstained": abstained}


def _live_only(live: dict[str, Any], log: dict[str, Any], program: Path) -> bool:
    """A line only a live capture can know, where torch names none.

    Torch's own log drops the line that called a compiled function (its ``dynamo_start``
    stack skips one frame too many), and records no call of ``mark_static``
    (tests/unit/test_conformance_releases.py, ``LIVE_ONLY``).
    """
    marked = live.get("cause") in ("mark_static", "mark_dynamic_range")
    return marked or not _same_file(log, program)


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


def _print_extras(rep: dict[str, Any], by_check: dict[str, list[int]]) -> None:
    """A program's graph-break lines and predictions, each counted as a check."""
    breaks = rep.get("breaks") or {"checks": {}}
    for kind, ok in breaks["checks"].items():
        if breaks["torch"] or breaks.get(kind):
            by_check["break_lines"][1] += 1
            by_check["break_lines"][0] += bool(ok)
            if not ok:
                print(f"{rep['program']:24} breaks {kind}: MISS torch {breaks['torch']}")
                print(" " * 31 + f"symdebug {breaks.get(kind)}")
    for number, row in enumerate(rep.get("predictions", [])):
        for kind, ok in row["checks"].items():
            said = row.get(kind) or {}
            mark = _mark(ok) if ok is not None else ("stale" if "stale" in said else "unsure")
            print(
                f"{rep['program']:24} next call {number} ({kind}): {mark:6} torch "
                f"{row.get('torch', row.get('error'))}; symdebug {said.get('outcome', said)}"
            )
            if ok is not None:
                by_check["prediction"][1] += 1
                by_check["prediction"][0] += bool(ok)


def print_report(reports: list[dict[str, Any]]) -> dict[str, Any]:
    header = (
        f"{'program':24} {'id':5} {'torch reason':46} {'torch line':12} "
        f"{'cause (live)':22} {'sd line (from)':34} {'line':4} {'log cause':22} "
        f"{'l==l':4}"
    )
    print(header)
    print("-" * len(header))
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
                by_check[check][0] += bool(value)
        _print_extras(rep, by_check)
    print()
    for check, (ok, n) in by_check.items():
        print(f"  {check:12} {ok} of {n}")
    abstentions = [a for rep in reports for p in rep.get("predictions", []) for a in p["abstained"]]
    print(f"  abstentions {len(abstentions)}" + "".join(f"\n    {a}" for a in abstentions))
    passed = sum(ok for ok, _ in by_check.values())
    total = sum(n for _, n in by_check.values())
    print(f"Score: {passed} of {total} checks")
    return {
        "passed": passed,
        "total": total,
        "by_check": {c: {"passed": ok, "total": n} for c, (ok, n) in by_check.items()},
    }


def outcomes(reports: list[dict[str, Any]]) -> dict[str, dict[str, bool]]:
    """Every check's outcome, by program and check name: what a baseline records."""
    found: dict[str, dict[str, bool]] = {}
    for rep in reports:
        mine = found.setdefault(rep["program"], {})
        for error in rep["errors"]:
            mine[f"error {error[:60]}"] = False
        for row in rep["rows"]:
            for check, ok in row["checks"].items():
                if ok is not None:
                    mine[f"{row['compile_id']} {check}"] = bool(ok)
        for kind, ok in (rep.get("breaks") or {"checks": {}})["checks"].items():
            mine[f"breaks {kind}"] = bool(ok)
        for number, row in enumerate(rep.get("predictions", [])):
            for kind, ok in row["checks"].items():
                if ok is not None:
                    mine[f"next call {number} {kind}"] = bool(ok)
    return found


def regressions(now: dict[str, dict[str, bool]], baseline: dict[str, Any]) -> list[str]:
    """Each check the baseline passed that now misses or is gone, and each new miss."""
    lost = []
    for program, checks in now.items():
        before = baseline.get(program, {})
        lost += [
            f"{program}: {name}"
            for name, ok in checks.items()
            if not ok and before.get(name) is not False
        ]
        lost += [
            f"{program}: {name} (gone)" for name, ok in before.items() if ok and name not in checks
        ]
    return lost


def _judge_all(programs: list[Path], args: argparse.Namespace) -> list[dict[str, Any]]:
    """Every program, ``args.jobs`` at a time (each is two subprocesses)."""
    from concurrent.futures import ThreadPoolExecutor

    def one(program: Path) -> dict[str, Any]:
        print(f"... {program.parent.name}/{program.stem}", file=sys.stderr, flush=True)
        try:
            report = judge_program(program, args.timeout, args.keep_logs, args.symdebug_root)
        except Exception as exc:  # the judge itself must not stop on one program
            report = {"program": program.stem, "rows": [], "errors": [f"judge failed: {exc}"]}
        report["set"] = program.parent.name
        return report

    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        return list(pool.map(one, programs))


def _print_sets(reports: list[dict[str, Any]]) -> None:
    """Agreement per program set (the corpus each folder is)."""
    for name in sorted({r.get("set", "") for r in reports}):
        now = outcomes([r for r in reports if r.get("set") == name])
        checks = [ok for program in now.values() for ok in program.values()]
        print(f"  set {name:20} {sum(checks)} of {len(checks)} checks")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", type=Path, help="write the full results here")
    parser.add_argument("--only", nargs="*", default=None, help="program names (file stems)")
    parser.add_argument("--programs", type=Path, nargs="+", default=[PROGRAMS])
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds per subprocess")
    parser.add_argument("--jobs", type=int, default=1, help="programs judged at once")
    parser.add_argument(
        "--baseline",
        type=Path,
        default=None,
        help="fail (exit 1) on any check this recorded baseline passed that now misses",
    )
    parser.add_argument("--record", action="store_true", help="write --baseline from this run")
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

    programs = sorted(
        p for folder in args.programs for p in folder.glob("*.py") if not p.name.startswith("_")
    )
    if args.only:
        programs = [p for p in programs if p.stem in set(args.only)]
    reports = _judge_all(programs, args)
    used = {r.get("symdebug_file") for r in reports if r.get("symdebug_file")}
    print(f"symdebug imported from: {', '.join(sorted(used)) or '?'}")
    score = print_report(reports)
    _print_sets(reports)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(
            json.dumps({"score": score, "programs": reports}, indent=1, default=str)
        )
    return _against_baseline(outcomes(reports), args)


def _against_baseline(now: dict[str, dict[str, bool]], args: argparse.Namespace) -> int:
    """Record the baseline, or hold this run to it (1 on a regression, or none to read)."""
    if args.baseline is None:
        return 0
    if args.record:
        args.baseline.write_text(json.dumps(now, indent=1, sort_keys=True) + "\n")
        return 0
    try:
        baseline = json.loads(args.baseline.read_text())
    except (OSError, ValueError) as exc:
        print(f"cannot read the baseline {args.baseline}: {exc}", file=sys.stderr)
        return 1
    lost = regressions(now, baseline)
    for line in lost:
        print(f"REGRESSION {line}")
    print(f"{len(lost)} regressions against {args.baseline.name}")
    return 1 if lost else 0


if __name__ == "__main__":
    sys.exit(main())
