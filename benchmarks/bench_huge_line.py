"""Peak memory reading a log with one huge line (issue 33, point 8: 500 MB on one line
peaked at 2 GB).

The log is tests/data/traces/simple.log, one record line of ``BENCH_HUGE_MB`` MB (default
500) half way, then simple.log again.  Each row is a child process reading a log with
``read_trace_file``; its peak RSS is printed beside the others:

- the log without the huge line (what reading costs anyway);
- the log with it (the line is past ``MAX_LINE_CHARS``: a problem, read in pieces, skipped);
- a plain ``for line in file`` over the log with it: what any reader holding whole lines
  needs (the reader before issue 33 read so, then parsed the line, which took more).

Target: the huge line adds at most 3 x ``MAX_LINE_CHARS`` bytes to the peak, whatever its
size.  Run with ``PYTHONPATH`` at an older symdebug to measure that one the same way.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from figures import Recorder, knob, main_of

import symdebug
from symdebug.tracefile.reader import MAX_LINE_CHARS

SIMPLE = Path(__file__).resolve().parents[1] / "tests" / "data" / "traces" / "simple.log"
PREFIX = "V1206 15:18:20.253000 1500233 torch/_logging/structured.py:22] "
MB = 1_000_000
READ = """
import resource, sys
from symdebug.tracefile import read_trace_file
stream = read_trace_file(sys.argv[1])
kinds = sorted({p.kind for p in stream.problems})
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
print(peak, len(stream.events), len(stream.problems), ",".join(kinds))
"""
PLAIN = """
import resource, sys
longest = 0
with open(sys.argv[1], encoding="utf-8", errors="replace", newline="\\n") as handle:
    for line in handle:
        longest = max(longest, len(line))
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024, longest)
"""


def write_logs(folder: Path, megabytes: int) -> tuple[Path, Path]:
    """simple.log twice, and the same with one huge record line between the copies."""
    simple = SIMPLE.read_text(encoding="utf-8").rstrip("\n") + "\n"  # it ends without one
    plain, huge = folder / "plain.log", folder / "huge.log"
    plain.write_text(simple + simple, encoding="utf-8")
    head = PREFIX + '{"huge": {"x": "'
    with huge.open("w", encoding="utf-8") as out:
        out.write(simple + head)
        block = "a" * MB
        for _ in range(megabytes):
            out.write(block)
        out.write('"}}\n' + simple)
    return plain, huge


def child(code: str, path: Path) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", code, str(path)], capture_output=True, text=True, check=True
    )
    return done.stdout.split()


def run(recorder: Recorder) -> None:
    megabytes = int(knob("BENCH_HUGE_MB", 500))
    print(f"symdebug at {Path(symdebug.__file__).parent}; MAX_LINE_CHARS = {MAX_LINE_CHARS:,}")
    with tempfile.TemporaryDirectory() as folder:
        plain, huge = write_logs(Path(folder), megabytes)
        rows = {"without the line": child(READ, plain), "with the line": child(READ, huge)}
        unbounded = child(PLAIN, huge)
    for name, (peak, events, problems, *kinds) in rows.items():
        said = f"{events} events, {problems} problems {kinds[0] if kinds else ''}"
        print(f"  read_trace_file, {name:<16}: peak RSS {int(peak) / MB:8.0f} MB  ({said})")
    print(f"  for line in file, with the line : peak RSS {int(unbounded[0]) / MB:8.0f} MB")
    added = int(rows["with the line"][0]) - int(rows["without the line"][0])
    target = 3 * MAX_LINE_CHARS
    print(f"a {megabytes} MB line adds {added / MB:.0f} MB (target <= {target / MB:.0f} MB)")
    same = rows["with the line"][1] == rows["without the line"][1]
    print(f"  events read: {'the same as' if same else 'NOT the same as'} without the line")
    recorder.add("line_mb", megabytes, "MB")
    recorder.add("peak_without_mb", int(rows["without the line"][0]) / MB, "MB")
    recorder.add("peak_with_mb", int(rows["with the line"][0]) / MB, "MB")
    recorder.add("plain_for_line_mb", int(unbounded[0]) / MB, "MB")
    recorder.add("added_mb", added / MB, "MB", target=("<=", target / MB))
    if not same:
        recorder.fail("the events read with the huge line differ from those without it")


if __name__ == "__main__":
    main_of(run, "huge_line", __file__)
