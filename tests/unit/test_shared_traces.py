"""Every real log in tests/data/traces builds into a Session holding the facts the log records.

What is expected is read here from the log's own records, by a small reader of this test's
(the JSON after each line's glog prefix, a payload in the tab lines under it; not symdebug's
reader), never from symdebug's output:

- compiles: the distinct compile ids of ``dynamo_start`` and ``compilation_metrics`` records,
  the frame from the metrics' ``co_name`` (else the last frame of ``dynamo_start``'s stack),
  failed when the metrics carry a ``fail_type``; and one ``export/N`` per ``exported_program``;
- recompiles: the ``artifact: recompile_reasons`` records, the entry that failed being the
  compile id torch writes at the head of the reason; their cause from the Dynamo config the
  compile's metrics record (``automatic_dynamic_shapes: false``: a size never became dynamic);
- guards: the ``guard_added_fast`` and ``guard_added`` records;
- graph breaks: the ``artifact: dynamo_graph_break_reason`` records;
- specializations: every static size of the ``TENSOR_MATCH`` lines of
  ``dynamo_cpp_guards_str`` (``size=[1, 320, 128, 128]``), per compile and source;
- problems: the payloads whose MD5 is not the ``has_payload`` of their record.

None of these logs has ``guard_added_fast`` (see the README there): only the export log's
``guard_added`` is a guard.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

import symdebug
from symdebug.model.words import totals

TRACES = Path(__file__).resolve().parents[1] / "data" / "traces"
LOGS = sorted(
    p.relative_to(TRACES).as_posix() for p in TRACES.rglob("*.log*") if p.stat().st_size > 0
)
#: Why a size stayed static, by the run's ``automatic_dynamic_shapes`` (None: not recorded).
CAUSE_BY_AUTOMATIC_DYNAMIC = {False: "dynamic_false", True: "static_by_default", None: "unknown"}
GUARD_RECORDS = ("guard_added_fast", "guard_added")
#: ``TENSOR_MATCH: check_tensor(L['x'], Tensor, DispatchKeySet(...), ..., size=[2, 2], ...)``
TENSOR_MATCH = re.compile(
    r"TENSOR_MATCH: check_tensor\((?P<source>.+?), \w+, DispatchKeySet\("
    r".*?size=\[(?P<size>[^\]]*)\]"
)
CONTEXT_KEYS = {
    "frame_id", "frame_compile_id", "attempt", "has_payload", "rank", "compiled_autograd_id",
    "stack",
}  # fmt: skip


@dataclass
class Record:
    """One record of the log: its name, body, compile id ("" without one) and payload."""

    name: str
    body: Any
    compile_id: str
    envelope: dict[str, Any]
    payload_lines: list[str] = field(default_factory=list)

    @property
    def payload(self) -> str:
        return "\n".join(self.payload_lines)

    @property
    def artifact(self) -> str:
        """The artifact's name (``recompile_reasons``), "" for any other record."""
        return str(self.body.get("name", "")) if self.name == "artifact" else ""


@dataclass(frozen=True)
class Facts:
    """The facts both sides are compared on."""

    compiles: list[tuple[str, str, str]]  # (compile id, frame, status), in the log's order
    recompiles: list[tuple[str, str, str]]  # (compile id, failed entry, cause)
    specializations: list[tuple[str, str, int, str]]  # (compile id, source, size, cause)
    guards: int
    graph_breaks: int
    problems: dict[str, int]


# ---------------------------------------------------------------- the test's own reader


def log_lines(path: Path) -> list[str]:
    """The log's lines, a gzip-compressed one read through gzip."""
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as handle:
        return handle.read().splitlines()


def record_of(line: str) -> Record | None:
    """The record of one line (``V0403 07:28:48.051000 1 file.py:19] {...}``), None if none."""
    if "] {" not in line:
        return None
    envelope = json.loads(line.split("] ", 1)[1])
    name = next(key for key in envelope if key not in CONTEXT_KEYS)
    frame, count = envelope.get("frame_id"), envelope.get("frame_compile_id")
    compile_id = f"{frame}/{count}" if frame is not None and count is not None else ""
    return Record(name, envelope[name], compile_id, envelope)


def records(path: Path) -> list[Record]:
    """Every record of the log, each with the tab lines under it as its payload."""
    found: list[Record] = []
    for line in log_lines(path):
        if line.startswith("\t"):
            found[-1].payload_lines.append(line[1:])
        elif (record := record_of(line)) is not None:
            found.append(record)
    return found


def metrics_of(log: list[Record]) -> dict[str, dict[str, Any]]:
    """Each compile's ``compilation_metrics`` body, by compile id."""
    return {r.compile_id: r.body for r in log if r.name == "compilation_metrics"}


def automatic_dynamic(metrics: dict[str, Any]) -> bool | None:
    """The run's ``automatic_dynamic_shapes``, from the Dynamo config its metrics record."""
    config = metrics.get("dynamo_config")
    return json.loads(config).get("automatic_dynamic_shapes") if config else None


def frame_name(record: Record, metrics: dict[str, Any]) -> str:
    """The compiled frame: the metrics' ``co_name``, else the last frame that started Dynamo."""
    if metrics.get("co_name"):
        return str(metrics["co_name"])
    stack = record.body.get("stack", []) if record.name == "dynamo_start" else []
    return str(stack[-1]["name"]) if stack else ""


def compiles_of(log: list[Record]) -> list[tuple[str, str, str]]:
    """(compile id, frame, status) of every compile the log started or measured, and exports."""
    metrics, seen = metrics_of(log), {}
    for record in log:
        if record.name in ("dynamo_start", "compilation_metrics") and record.compile_id:
            seen.setdefault(record.compile_id, record)
    found = []
    for compile_id, record in seen.items():
        measured = metrics.get(compile_id, {})
        status = "failed" if measured.get("fail_type") else "ok"
        found.append((compile_id, frame_name(record, measured), status))
    exports = sum(1 for r in log if r.name == "exported_program")
    return found + [(f"export/{n}", "export", "ok") for n in range(exports)]


def recompiles_of(log: list[Record]) -> list[tuple[str, str, str]]:
    """(compile id, failed entry, cause) of each ``recompile_reasons`` artifact."""
    metrics = metrics_of(log)
    found = []
    for record in log:
        if record.artifact == "recompile_reasons":
            failed = json.loads(record.payload)[0].split(":", 1)[0]  # "0/0: tensor 'x' size ..."
            cause = CAUSE_BY_AUTOMATIC_DYNAMIC[automatic_dynamic(metrics[record.compile_id])]
            found.append((record.compile_id, failed, cause))
    return found


def static_sizes(guards_text: str) -> list[tuple[str, int]]:
    """``(L['x'].size()[0], 5)`` for every static size of the guard tree's ``TENSOR_MATCH``."""
    found: dict[tuple[str, int], None] = {}
    for match in TENSOR_MATCH.finditer(guards_text):
        for dim, size in enumerate(match["size"].split(", ")):
            if size.isdigit():
                found[(f"{match['source']}.size()[{dim}]", int(size))] = None
    return list(found)


def specializations_of(log: list[Record]) -> list[tuple[str, str, int, str]]:
    """(compile id, source, size, cause) of every static size in each compile's guards."""
    metrics = metrics_of(log)
    found = []
    for record in log:
        if record.name == "dynamo_cpp_guards_str":
            dynamic = automatic_dynamic(metrics.get(record.compile_id, {}))
            cause = CAUSE_BY_AUTOMATIC_DYNAMIC[dynamic]
            found += [(record.compile_id, s, n, cause) for s, n in static_sizes(record.payload)]
    return found


def bad_payloads(log: list[Record]) -> int:
    """Records whose payload's MD5 is not their ``has_payload``."""
    return sum(
        1
        for r in log
        if "has_payload" in r.envelope
        and hashlib.md5(r.payload.encode(), usedforsecurity=False).hexdigest()
        != r.envelope["has_payload"]
    )


def recorded(path: Path) -> Facts:
    """What the log's own records say."""
    log = records(path)
    bad = bad_payloads(log)
    return Facts(
        compiles=compiles_of(log),
        recompiles=recompiles_of(log),
        specializations=specializations_of(log),
        guards=sum(1 for r in log if r.name in GUARD_RECORDS),
        graph_breaks=sum(1 for r in log if r.artifact == "dynamo_graph_break_reason"),
        problems={"payload_md5": bad} if bad else {},
    )


# ---------------------------------------------------------------- symdebug's side


def built(session: symdebug.Session) -> Facts:
    """What symdebug built from the log."""
    return Facts(
        compiles=[(c.compile_id, c.name, c.status) for c in session.compiles],
        recompiles=[(r.compile_id, r.failed_entry or "", r.cause) for r in session.recompiles],
        specializations=[
            (sp.compile_id, sp.source, sp.value, sp.cause) for sp in session.specializations
        ],
        guards=len(session.guards),
        graph_breaks=len(session.graph_breaks),
        problems=dict(session.problems),
    )


def assert_same(session: symdebug.Session, path: Path) -> None:
    """symdebug's facts are the log's, field by field (a failure names the field)."""
    mine, theirs = built(session), recorded(path)
    for name in Facts.__dataclass_fields__:
        assert getattr(mine, name) == getattr(theirs, name), name


# ---------------------------------------------------------------- the tests


def test_the_reader_reads_what_the_readme_says() -> None:
    """The test's reader is no empty agreement: the README's numbers, from the records."""
    assert all(recorded(TRACES / name).compiles for name in LOGS)
    rank1 = recorded(TRACES / "multi_rank_logs/dedicated_log_torch_trace_rank_1.log.gz")
    assert len(rank1.compiles) == 15 and len(rank1.recompiles) == 14
    assert {frame for _, frame, _ in rank1.compiles} == {"kernel"}
    assert recorded(TRACES / "export_guard_added.log").guards == 1
    assert recorded(TRACES / "simple_corrupted_json.log").problems == {"payload_md5": 1}
    assert [c[2] for c in recorded(TRACES / "comp_failure.log").compiles] == ["failed"]
    simple = recorded(TRACES / "simple.log").specializations
    assert [(s, n) for _, s, n, _ in simple] == [
        (f"L['x'].size()[{dim}]", size) for dim, size in enumerate((1, 320, 128, 128))
    ]


@pytest.mark.parametrize("name", LOGS)
def test_log_builds_with_its_recorded_facts(name: str) -> None:
    session = symdebug.load_trace(TRACES / name)
    assert isinstance(session, symdebug.Session)
    assert_same(session, TRACES / name)
    counts = totals(len(session.compiles), len(session.recompiles), len(session.guards))
    assert (counts if session.compiles else "no compiles captured") in str(session)


def rank_log(folder: str, rank: int) -> Path:
    """The log of one rank in a rank directory (compressed or not)."""
    log = TRACES / folder / f"dedicated_log_torch_trace_rank_{rank}.log"
    return log if log.exists() else log.with_name(f"{log.name}.gz")


def test_multi_rank_directory() -> None:
    loaded = symdebug.load_trace(TRACES / "multi_rank_logs")
    assert isinstance(loaded, symdebug.MultiRankSession)
    assert sorted(loaded.ranks) == [0, 1, 2, 3]
    summary = str(loaded)
    for rank in loaded.ranks:
        log = recorded(rank_log("multi_rank_logs", rank))
        assert_same(loaded[rank], rank_log("multi_rank_logs", rank))
        assert f"rank {rank}: {len(log.compiles)} compile" in summary
    # Rank 1 recompiles one frame 14 times: each time the previous entry's static batch.
    rank1 = loaded[1]
    specialized = [(r.specialization.source, r.specialization.value) for r in rank1.recompiles]
    assert specialized == [("L['x'].size()[0]", n) for n in range(2, 16)]
    assert [c.fail_type for c in loaded[0].compiles] == ["BackendCompilerFailed"]
    assert "rank 1: 15 compiles, 14 recompiles" in summary


def test_messy_directory_skips_stray_files() -> None:
    loaded = symdebug.load_trace(TRACES / "multi_rank_messy_input")
    assert isinstance(loaded, symdebug.MultiRankSession)
    assert sorted(loaded.ranks) == [0, 1]  # the empty log and the .txt file are skipped
    for rank in loaded.ranks:
        assert_same(loaded[rank], rank_log("multi_rank_messy_input", rank))


def test_corrupt_payload_changes_nothing_else() -> None:
    corrupt = symdebug.load_trace(TRACES / "simple_corrupted_json.log")
    clean = symdebug.load_trace(TRACES / "simple.log")
    assert corrupt.problems == {"payload_md5": 1} and clean.problems == {}
    assert built(corrupt).specializations == built(clean).specializations
    assert Counter(sp.cause for sp in clean.specializations) == {"static_by_default": 4}
