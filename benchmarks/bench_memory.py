"""Peak memory of big inputs (issue 33, item 12): a 2 GB log, a session of 10^6 guards.

1. ``symdebug summary`` and ``symdebug report`` of a big log (``bench_big_log.py``'s
   synthetic one: a real log repeated, each copy renamed; ``BENCH_BIG_MB``, default 1024,
   ``BENCH_BIG_KIND``).  Target: peak RSS under 0.5 MiB per MB of log (a 2 GB log under 1 GB).
2. A saved session of ``BENCH_GUARDS`` guards (default 2 * 10^5): the real log's session with its
   guards repeated, each copy a new id.  ``Session.load``, the redacted report
   (``to_html(redact=True)``) and the redacted save (``save(redact=True)``), in one child
   process.  Target: peak RSS under ``BENCH_GUARD_KIB`` KiB per guard (default 4, the
   session file's own size per guard is about 3 KiB).  The load is streamed (a record at a
   time: about 1.4 KiB per guard at 10^5, where a whole parse took 17); the report and the
   save write a guard at a time (``symdebug/renderers/wire_stream.py``) and add next to
   nothing to the load's peak, where the whole wire document took some 8.5 KiB per guard
   more (12 KiB per guard at 10^5 in all).  ``make bench`` runs the defaults (a few
   minutes); ``BENCH_BIG_MB=2048 BENCH_GUARDS=1000000`` fits a 24 GB machine.

Each runs as a child process; its peak RSS comes from ``wait4`` (the session's load phase
from the child's own ``getrusage``).  ``BENCH_BEFORE=/path`` also runs each with that
folder first on ``PYTHONPATH`` (a copy of the old package: ``git archive HEAD~1 symdebug``),
printed side by side.  Exits 1 when a target is missed.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import orjson
from bench_big_log import SAID, big_log
from bench_tlparse import LOGS, log_of
from figures import Recorder, knob, main_of

LOG_TARGET = 0.5  # MiB of peak RSS per MB of log
SESSION_SCRIPT = """
import resource, sys, symdebug
session = symdebug.Session.load(sys.argv[1])
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
session.to_html(sys.argv[2], redact=True)
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
session.save(sys.argv[3], redact=True)
"""


def peak_rss(command: list[str], env: dict[str, str]) -> tuple[float, str]:
    """Peak RSS (MiB) and standard output of one child process."""
    child = subprocess.Popen(command, stdout=subprocess.PIPE, env=env)
    assert child.stdout is not None
    out = child.stdout.read().decode()
    _, status, usage = os.wait4(child.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError(f"failed: {command}")
    return usage.ru_maxrss / 1024, out


def versions() -> list[tuple[str, dict[str, str]]]:
    """This checkout, and the old package of ``BENCH_BEFORE`` first when given."""
    now = ("now", dict(os.environ))
    before = os.environ.get("BENCH_BEFORE")
    if not before:
        return [now]
    path = os.pathsep.join([before, os.environ.get("PYTHONPATH", "")])
    return [("before", dict(os.environ, PYTHONPATH=path)), now]


def big_session(guards: int) -> Path:
    """The real log's saved session, its guards repeated up to ``guards`` (new ids)."""
    path = LOGS / f"session-{guards}-guards.json"
    if path.exists():
        return path
    import symdebug

    print(f"  writing {path} ...", flush=True)
    document = orjson.loads(symdebug.load_trace(log_of(90)).to_json())
    real = document.pop("guards")
    with path.open("wb") as out:
        out.write(orjson.dumps(document)[:-1] + b',"guards":[')
        for index in range(guards):
            guard = real[index % len(real)]
            if index >= len(real):  # the first copy keeps its ids: records refer to them
                guard = dict(guard, id=f"{guard['id']}~{index}")
            out.write((b"," if index else b"") + orjson.dumps(guard))
        out.write(b"]}")
    return path


def inputs(megabytes: int, kind: str, guards: int) -> tuple[Path, Path]:
    """The big log and the big session, made in a child process.

    A child's peak RSS counts its parent's at the fork (Linux keeps the high-water mark
    across ``exec``): this process must stay small, so it reads no log itself.
    """
    command = [sys.executable, __file__, "--inputs", str(megabytes), kind, str(guards)]
    made = subprocess.run(command, stdout=subprocess.PIPE, check=True, text=True)
    log, session = made.stdout.split("\n")[-3:-1]
    return Path(log), Path(session)


def make_inputs(megabytes: str, kind: str, guards: str) -> None:
    log = big_log(int(megabytes), kind)
    session = big_session(int(guards))
    print(f"{log}\n{session}")


def log_figures(log: Path, work: str, recorder: Recorder) -> None:
    size = log.stat().st_size / 1e6
    symdebug = str(Path(sys.executable).with_name("symdebug"))
    print(f"a {size:,.0f} MB log (target: peak RSS < {LOG_TARGET} MiB per MB of log)")
    recorder.add("log_mb", size, "MB")
    for name, command in (
        ("summary", [symdebug, "summary", str(log)]),
        ("report", [symdebug, "report", str(log), "-o", f"{work}/big.html"]),
    ):
        for label, env in versions():
            rss, _ = peak_rss(command, env)
            print(f"  {name:8} {label:6} peak RSS {rss:7,.0f} MiB = {rss / size:.3f} MiB/MB")
            if label == "now":
                recorder.add(f"{name}.peak_rss_mib", rss, "MiB")
                recorder.add(f"{name}.mib_per_mb", rss / size, "MiB/MB", ("<", LOG_TARGET))


def session_figures(path: Path, work: str, guards: int, recorder: Recorder) -> None:
    target = float(knob("BENCH_GUARD_KIB", 4))
    size = path.stat().st_size / 2**20
    print(f"a session of {guards:,} guards, {size:,.0f} MiB (target: < {target} KiB per guard)")
    # -P: not the current folder first on the path (it would shadow BENCH_BEFORE's package)
    outputs = [f"{work}/redacted.html", f"{work}/redacted.json"]
    command = [sys.executable, "-P", "-c", SESSION_SCRIPT, str(path), *outputs]
    for label, env in versions():
        rss, out = peak_rss(command, env)
        load, report = (int(kib) / 1024 for kib in out.split()[:2])
        per_guard = rss * 1024 / guards
        print(
            f"  {label:6} load {load:7,.0f} MiB; + redacted report {report:7,.0f} MiB;"
            f" + redacted save {rss:7,.0f} MiB = {per_guard:.2f} KiB per guard"
        )
        if label == "now":
            recorder.add("session.load_mib", load, "MiB")
            recorder.add("session.peak_rss_mib", rss, "MiB")
            recorder.add("session.kib_per_guard", per_guard, "KiB", target=("<", target))


def run(recorder: Recorder) -> None:
    megabytes = int(knob("BENCH_BIG_MB", 1024))
    kind = knob("BENCH_BIG_KIND", "renamed")
    guards = int(knob("BENCH_GUARDS", 200000))
    log, session = inputs(megabytes, kind, guards)
    print(f"the log: {SAID[kind]}")
    with tempfile.TemporaryDirectory() as work:
        log_figures(log, work, recorder)
        session_figures(session, work, guards, recorder)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--inputs"]:
        make_inputs(*sys.argv[2:5])
        sys.exit(0)
    main_of(run, "memory", __file__)
