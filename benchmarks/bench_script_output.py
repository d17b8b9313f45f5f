"""What a script's large standard output costs the process that compares replays.

Issue 33: ``symdebug fix`` compares each replay's standard output with the unchanged run's.
A script that prints 400 MB once cost the comparing process 1.9 GB.  Here one replay
(``run_script``) of a script printing ``MB`` megabytes runs in a fresh measuring process,
which prints its peak resident memory after importing symdebug and after the replay, side by
side.  The target: the replay adds under ``TARGET_MB`` however much the script prints.
Exits 1 when the target is missed.

Usage: ``python benchmarks/bench_script_output.py [MB]`` (default ``BENCH_OUTPUT_MB``, else
400).
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from figures import Recorder, knob, main_of

TARGET_MB = 100

#: The script replayed: ``MB`` megabytes of standard output, no compile.
SCRIPT = """\
import sys
line = b"0123456789abcdef" * 64 + b"\\n"
for _ in range({mb} * 1024):
    sys.stdout.buffer.write(line[:1024])
"""

#: The measuring process: peak memory after the imports, then after one replay.
MEASURE = """\
import resource, sys
from symdebug.scripts import run_script

def peak_mb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

before = peak_mb()
run_script([sys.argv[1]], ())
print(f"{before:.0f} {peak_mb():.0f}")
"""


def run(recorder: Recorder) -> None:
    """Measure one replay of a script printing the given megabytes, against the target."""
    mb = int(knob("BENCH_OUTPUT_MB", 400, sys.argv[1] if len(sys.argv) > 1 else None))
    with tempfile.TemporaryDirectory(prefix="symdebug-bench-") as folder:
        script = Path(folder, "loud.py")
        script.write_text(SCRIPT.format(mb=mb))
        measured = subprocess.run(
            [sys.executable, "-c", MEASURE, str(script)],
            capture_output=True,
            text=True,
            check=True,
            cwd=folder,
        )
    before, after = map(float, measured.stdout.split()[-2:])
    print(f"a replay of a script printing {mb} MB (peak resident memory of the comparing process)")
    print(f"  after importing symdebug      {before:8.0f} MB")
    print(f"  after the replay              {after:8.0f} MB")
    print(f"  added by the replay           {after - before:8.0f} MB   (target: under {TARGET_MB})")
    recorder.add("output_mb", mb, "MB")
    recorder.add("added_mb", after - before, "MB", target=("<", TARGET_MB))


if __name__ == "__main__":
    main_of(run, "script_output", __file__)
