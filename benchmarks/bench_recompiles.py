"""One frame recompiled 200 and 1,000 times (issue 33, item 11): the log grows with the
square of the recompiles (torch writes each recompile's reasons against every earlier
entry); what symdebug makes of it must not.

The logs are ``many_recompiles.py`` run under ``TORCH_TRACE`` (generated once into
``out/bench-logs``; a minute or two for 1,000).  Each size is measured in a process of its
own, side by side in one run: the log's size, the seconds to read it (``load_trace``), the
HTML report's size, the CPU seconds of the first ``predict`` on the frame (its entry
models built; one-time imports included), and those of linking the recompiles again
(``link_recompiles``).  Targets: the report's bytes per recompile at 1,000 within 1.5x of
those at 200 (it grows linearly), linking's CPU per recompile within 3x (quadratic, it
was 5.3x: 1.04 s at 1,000), and the first predict under 0.5 s at 1,000 (it was 2.3 s: torch
imported, each entry's checks compiled alone).  A target missed exits non-zero.
"""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from figures import Recorder, main_of

ROOT = Path(__file__).resolve().parents[1]
LOGS = ROOT / "out" / "bench-logs"
SIZES = (200, 1000)
HTML_GROWTH = 1.5
LINK_GROWTH = 3.0
FIRST_PREDICT_S = 0.5


def log_of(recompiles: int) -> Path:
    """The log of a frame recompiled ``recompiles`` times, generated once."""
    folder = LOGS / f"recompiles-{recompiles}"
    found = sorted(folder.glob("*.log")) if folder.exists() else []
    if found:
        return found[0]
    print(f"  generating the log of {recompiles} recompiles (once; kept in {folder}) ...")
    env = dict(os.environ, TORCH_TRACE=str(folder), TORCHINDUCTOR_FORCE_DISABLE_CACHES="1")
    script = ROOT / "benchmarks" / "many_recompiles.py"
    subprocess.run([sys.executable, str(script), str(recompiles)], env=env, check=True)
    return sorted(folder.glob("*.log"))[0]


def measure(log: str, recompiles: int) -> dict[str, float]:
    """In this (fresh) process: read the log, write its report, predict once."""
    import symdebug
    from symdebug.processors.recompiles import link_recompiles

    start = time.perf_counter()
    session = symdebug.load_trace(log)
    read = time.perf_counter() - start
    assert isinstance(session, symdebug.Session)
    gc.collect()  # what reading left for the collector is not linking's
    cpu = time.process_time()
    link_recompiles(session.facts)  # again: a pass returns its writes, the session's unchanged
    link = time.process_time() - cpu
    with tempfile.TemporaryDirectory() as folder:
        html = session.to_html(Path(folder) / "report.html").stat().st_size
    cpu = time.process_time()
    prediction = session.predict((4,), recompiles + 5, frame="scaled")
    first_predict = time.process_time() - cpu
    assert prediction.outcome == "recompile", prediction
    return {"read_s": read, "html_mb": html / 1e6, "predict_s": first_predict, "link_s": link}


def run(recorder: Recorder) -> None:
    print("one frame recompiled N times: each size in a fresh process")
    figures = {}
    for recompiles in SIZES:
        log = log_of(recompiles)
        child = [sys.executable, __file__, "--child", str(log), str(recompiles)]
        done = subprocess.run(child, capture_output=True, text=True, check=True)
        figures[recompiles] = found = json.loads(done.stdout.splitlines()[-1])
        print(
            f"  {recompiles:5} recompiles: log {log.stat().st_size / 1e6:6.1f} MB  "
            f"read {found['read_s']:5.2f} s  report {found['html_mb']:6.2f} MB "
            f"({found['html_mb'] * 1e6 / recompiles:7.0f} B/recompile)  "
            f"first predict CPU {found['predict_s']:5.2f} s  "
            f"link CPU {found['link_s']:5.2f} s "
            f"({found['link_s'] * 1e6 / recompiles:5.0f} us/recompile)"
        )
        recorder.add(f"r{recompiles}.log_mb", log.stat().st_size / 1e6, "MB")
        units = {"read_s": "s", "html_mb": "MB", "predict_s": "s", "link_s": "s"}
        for key, unit in units.items():
            recorder.add(f"r{recompiles}.{key}", found[key], unit)
    small, large = (figures[n]["html_mb"] / n for n in SIZES)
    link_small, link_large = (figures[n]["link_s"] / n for n in SIZES)
    print(f"  report bytes per recompile, {SIZES[-1]} / {SIZES[0]}: {large / small:.2f}x")
    print(f"  link CPU per recompile, {SIZES[-1]} / {SIZES[0]}: {link_large / link_small:.2f}x")
    recorder.add("html_growth_x", large / small, "x", target=("<=", HTML_GROWTH))
    recorder.add("link_growth_x", link_large / link_small, "x", target=("<=", LINK_GROWTH))
    predict = figures[SIZES[-1]]["predict_s"]
    recorder.add(f"r{SIZES[-1]}.first_predict_s", predict, "s", target=("<", FIRST_PREDICT_S))


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        print(json.dumps(measure(sys.argv[2], int(sys.argv[3]))))
        sys.exit(0)
    main_of(run, "recompiles", __file__)
