"""A 1 GB TORCH_TRACE log summarised and reported (issue 13, point 2: <= 60 s, <= 1 GB RSS).

The log is synthetic.  Generating 1 GB of real compiles takes hours here, so it is one real
log (``many_graphs.py``'s 90 graphs, 25 MB, from ``bench_tlparse.py``) repeated about 40
times: each copy is new frames of the same real events.  By default (``BENCH_BIG_KIND=
renamed``) each copy after the first also renames the program: ``graph_7`` becomes
``graph_7_c3`` in every record and payload (file names, function names, guard-tree notes,
kernels' comments), its interned file names get ids of their own, and each changed payload
its MD5 anew (the copies read with no problem).  No line naming one of the program's
functions then recurs across copies, so the reader's memos of such lines gain only what they
would on one copy; what still recurs is the program's structure (the same guard expressions,
sizes, kernels and framework stacks), which a log of many distinct programs would not repeat
so often.  ``BENCH_BIG_KIND=repeated`` writes the copies
unrenamed (frames renumbered only): the memos' best case.  ``BENCH_BIG_MB`` sets the size
(default 1024).

``symdebug summary`` and ``report`` then run as child processes; their CPU time, wall time
and peak RSS are printed and recorded.  Targets (a miss exits 1): each within 60 s of CPU
and 1,000 MB of peak RSS.
"""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_tlparse import LOGS, log_of
from figures import Recorder, knob, main_of

SECONDS_TARGET, RSS_TARGET_MB = 60.0, 1000.0
KINDS = ("renamed", "repeated")
#: What the log is, printed with the figures.
SAID = {
    "renamed": "synthetic: one real 90-graph log repeated, each copy's frames renumbered and"
    " its functions renamed (no line naming one recurs across copies)",
    "repeated": "synthetic: one real 90-graph log repeated, frames renumbered only (the memos'"
    " best case)",
}
_FRAME = re.compile(r'("frame_id": )(\d+)')
_FILENAME = re.compile(r'("filename": )(\d+)')
_INTERNED = re.compile(r'(\{"str": \[[^\n]*, )(\d+)(?=\]\}\n)')
_GRAPH = re.compile(r"\bgraph_(\d+)\b")
_MD5 = re.compile(r'"has_payload": "[0-9a-f]*"')
#: A record starts at a line that is not a payload line (those start with a tab).
_RECORD = re.compile(r"\n(?=[^\t])")


def _shifted(pattern: re.Pattern[str], text: str, shift: int) -> str:
    """``text`` with each number ``pattern`` captures (its second group) moved by ``shift``."""
    return pattern.sub(lambda match: f"{match[1]}{int(match[2]) + shift}", text)


def _with_md5(record: str) -> str:
    """A record whose ``has_payload`` is the MD5 of the payload it now holds."""
    end = "\n" if record.endswith("\n") else ""  # the log's last record ends the file
    header, _, payload = record.removesuffix(end).partition("\n")
    text = "\n".join(line[1:] for line in payload.split("\n"))
    digest = hashlib.md5(text.encode("utf-8"), usedforsecurity=False).hexdigest()
    return _MD5.sub(f'"has_payload": "{digest}"', header, count=1) + "\n" + payload + end


def _changed_payloads(records: list[str]) -> list[int]:
    """Which records have a payload that a copy's renaming or renumbering changes."""
    patterns = (_FRAME, _FILENAME, _GRAPH)
    return [
        index
        for index, record in enumerate(records)
        if "\n" in record and any(p.search(record.partition("\n")[2]) for p in patterns)
    ]


class Copier:
    """Copies of one real log: frames and interned ids renumbered, the program renamed."""

    def __init__(self, source: str, kind: str) -> None:
        self.source, self.kind = source, kind
        self.frames = 1 + max(int(m[2]) for m in _FRAME.finditer(source))
        self.strings = 1 + max(int(m[2]) for m in _INTERNED.finditer(source))
        self.changed = _changed_payloads(_RECORD.split(source))

    def copy(self, number: int) -> str:
        """The ``number``-th copy (the first is the log itself)."""
        if number == 0:
            return self.source
        text = _shifted(_FRAME, self.source, number * self.frames)
        if self.kind == "repeated":  # payloads naming frames get their MD5 below too
            return self._md5_fixed(text)
        text = _shifted(_FILENAME, text, number * self.strings)
        text = _shifted(_INTERNED, text, number * self.strings)
        return self._md5_fixed(_GRAPH.sub(rf"graph_\1_c{number}", text))

    def _md5_fixed(self, text: str) -> str:
        records = _RECORD.split(text)
        for index in self.changed:
            records[index] = _with_md5(records[index])
        return "\n".join(records)


def big_log(megabytes: int, kind: str = "renamed") -> Path:
    """The synthetic log of ``kind`` (see the module), ``megabytes`` long; written once.

    It is written by a child process: a child's peak RSS counts its parent's at the fork
    (Linux keeps the high-water mark across ``exec``), so the process that measures children
    must not hold the log's copies itself.
    """
    suffix = "" if kind == "repeated" else f"-{kind}"
    path = LOGS / f"big-{megabytes}mb{suffix}.log"
    if not path.exists():
        command = [sys.executable, __file__, "--write", str(megabytes), kind, str(path)]
        subprocess.run(command, check=True)
    return path


def write_big_log(megabytes: int, kind: str, path: Path) -> None:
    """Write the log of ``kind``: copies of the 90-graph log until ``megabytes`` long."""
    copier = Copier(log_of(90).read_text(encoding="utf-8").rstrip("\n") + "\n", kind)
    print(f"  writing {path} from {copier.frames} real frames, {kind} per copy ...", flush=True)
    partial = path.with_suffix(".partial")
    with partial.open("w", encoding="utf-8") as out:
        number = 0
        while out.tell() < megabytes * 1_000_000:
            out.write(copier.copy(number))
            number += 1
    partial.replace(path)


def measured(command: list[str]) -> tuple[float, float, float]:
    """CPU seconds, wall seconds and peak RSS (MB) of one child process."""
    start = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError(f"failed: {command}")
    return usage.ru_utime + usage.ru_stime, wall, usage.ru_maxrss / 1024


def commands(log: Path, work: str) -> dict[str, list[str]]:
    """The two commands measured, by name."""
    symdebug = str(Path(sys.executable).with_name("symdebug"))
    return {
        "summary": [symdebug, "summary", str(log)],
        "report": [symdebug, "report", str(log), "-o", f"{work}/big.html"],
    }


def run(recorder: Recorder) -> None:
    megabytes = int(knob("BENCH_BIG_MB", 1024))
    kind = knob("BENCH_BIG_KIND", "renamed")
    if kind not in KINDS:
        sys.exit(f"BENCH_BIG_KIND={kind}: one of {', '.join(KINDS)}")
    log = big_log(megabytes, kind)
    size = log.stat().st_size / 1e6
    print(f"a {size:,.0f} MB log, {SAID[kind]}")
    print(f"  (targets: each <= {SECONDS_TARGET:.0f} s CPU, peak RSS <= {RSS_TARGET_MB:,.0f} MB)")
    recorder.add("log_mb", size, "MB", note=SAID[kind])
    with tempfile.TemporaryDirectory() as work:
        for name, command in commands(log, work).items():
            cpu, wall, rss = measured(command)
            print(f"  {name:8} CPU {cpu:6.1f} s  wall {wall:6.1f} s  peak RSS {rss:7,.0f} MB")
            recorder.add(f"{name}.cpu_s", cpu, "s", target=("<=", SECONDS_TARGET))
            recorder.add(f"{name}.wall_s", wall, "s")
            recorder.add(f"{name}.peak_rss_mb", rss, "MB", target=("<=", RSS_TARGET_MB))


if __name__ == "__main__":
    if sys.argv[1:2] == ["--write"]:
        write_big_log(int(sys.argv[2]), sys.argv[3], Path(sys.argv[4]))
        sys.exit(0)
    main_of(run, "big_log", __file__)
