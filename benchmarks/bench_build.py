"""Build and text summary of a large session from EVENTS: 1,000 compiles, ~20,000 guards.

The event stream replicates real compiles.  Templates are the compiles of real
``TORCH_TRACE`` logs that carry ``guard_added_fast`` events (``tests/data/triton/*.log.gz``,
recorded with the pinned torch); every real log of ``tests/data/traces`` also lends its
real recompile reasons.  Each template's events
are cloned under renumbered compile keys: FRAMES frames of COMPILES_PER_FRAME compiles, each
compile after a frame's first opened by a ``recompile_reasons`` artifact naming the earlier
entries newest first, as torch writes it.  Compiles with few guards get copies of their own
``guard_added_fast`` events (another constant, another user line) up to GUARDS_PER_COMPILE
distinct guards.  Interned filenames are merged into one string table.

Measured side by side in one run, best of REPEATS: ``build(stream)`` (split into per-compile
fact building and the processors), the text summary, and the JSON document.
``--profile`` prints cProfile's top functions for the build and the summary instead.
Targets (a miss exits 1): the build, the build with no line shared across frames, and the
text summary, each under :data:`TARGET_S`.
"""

from __future__ import annotations

import cProfile
import dataclasses
import json
import pstats
import re
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson
from figures import Recorder, knob, main_of
from machine_speed import reference_seconds

from symdebug.events import CompileKey, Event, EventStream
from symdebug.model.serialize import facts_to_json
from symdebug.renderers.console import render_summary
from symdebug.tracefile import read_trace_file

ROOT = Path(__file__).resolve().parents[1]
TRACES = ROOT / "tests" / "data" / "traces"
GUARD_LOGS = ROOT / "tests" / "data" / "triton"
FRAMES, COMPILES_PER_FRAME, GUARDS_PER_COMPILE = 100, 10, 20
REPEATS = int(knob("BENCH_REPEATS", 3))
TARGET_S = 1.0
#: What the machine reference is for, printed beside it.
MACHINE_NOTE = "grown as much as a build: the machine slowed down"
REASONS = "artifact:recompile_reasons"
GUARD = "guard_added_fast"
_NOT_CODE = frozenset({"chromium_event", REASONS})
_ENTRY = re.compile(r"^!?\d+/\d+(?:/\d+)?: ")
_LAST_NUMBER = re.compile(r"(\d+)(\)?)$")
_USER_LINE = re.compile(r"(\.py:)(\d+)")


def load_build() -> Callable[..., Any]:
    """The pipeline's ``build``."""
    from symdebug.pipeline import build

    return build


# --- the stream -----------------------------------------------------------------------------


@dataclass
class Template:
    """The events of one real compile, filename ids already moved into the merged table."""

    events: list[Event]
    reasons: list[str]
    log: str


@dataclass
class Corpus:
    """Every template, every real recompile reason, and the merged string table."""

    templates: list[Template] = field(default_factory=list)
    reasons: list[str] = field(default_factory=list)
    strings: dict[int, str] = field(default_factory=dict)
    logs: list[str] = field(default_factory=list)
    events_read: int = 0


def real_logs() -> list[Path]:
    """The real trace logs: the tests' copy of the shared ones, and the guard-rich ones."""
    found = sorted(TRACES.rglob("*.log")) + sorted(TRACES.rglob("*.log.gz"))
    return [p for p in found if p.stat().st_size] + sorted(GUARD_LOGS.glob("*.log*"))


def _remap(value: Any, offset: int) -> Any:
    """A copy of an event body whose interned ``filename`` ids are moved by ``offset``."""
    if isinstance(value, dict):
        return {
            k: v + offset if k == "filename" and isinstance(v, int) else _remap(v, offset)
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [_remap(item, offset) for item in value]
    return value


def reason_texts(payload: str | None) -> list[str]:
    """A ``recompile_reasons`` payload's reasons, without the ``<entry>: `` torch puts first."""
    text = (payload or "").strip()
    items = json.loads(text) if text.startswith("[") else [text]
    return [_ENTRY.sub("", str(item)) for item in items if item]


def _by_compile(events: list[Event]) -> dict[tuple[int, int], list[Event]]:
    groups: dict[tuple[int, int], list[Event]] = {}
    for event in events:
        if event.key is not None:
            groups.setdefault((event.key.frame_id, event.key.frame_compile_id), []).append(event)
    return groups


def _add_log(corpus: Corpus, path: Path) -> None:
    stream = read_trace_file(path)
    offset = max(corpus.strings, default=-1) + 1
    corpus.strings.update({offset + k: v for k, v in stream.strings.items()})
    corpus.events_read += len(stream.events)
    corpus.logs.append(str(path.relative_to(path.parents[1])))
    reasons = [r for e in stream.events if e.name == REASONS for r in reason_texts(e.payload)]
    corpus.reasons += reasons
    for events in _by_compile(stream.events).values():
        if any(e.name == GUARD for e in events):
            kept = [
                dataclasses.replace(e, body=_remap(e.body, offset), rank=None)
                for e in events
                if e.name != REASONS
            ]
            corpus.templates.append(Template(kept, reasons, path.name))


def load_corpus() -> Corpus:
    corpus = Corpus()
    for path in real_logs():
        _add_log(corpus, path)
    if not corpus.templates or not corpus.reasons:
        sys.exit(f"no real compile with {GUARD} events or no recompile reasons in {real_logs()}")
    return corpus


def _varied(expr: str, copy: int) -> str:
    """Another guard of the same shape: its last constant moved, or a term added."""
    match = _LAST_NUMBER.search(expr)
    if match is None:
        return f"{expr} + {copy}"
    return f"{expr[: match.start()]}{int(match[1]) + copy}{match[2]}"


def _fresh(body: dict[str, Any]) -> dict[str, Any]:
    """A body with objects of its own, as the reader parses one per event.

    Its stacks' frames are then replaced by the stream's one copy of each, as the reader
    does for every event it reads (:meth:`EventStream.share_frames`, in :func:`make_stream`).
    """
    return orjson.loads(orjson.dumps(body))


def _guard_copy(event: Event, expr: str, copy: int) -> Event:
    body = _fresh(dict(event.body, expr=expr))
    user = body.get("user_stack") or []
    if user:  # the same check written a few lines further down
        body["user_stack"] = [*user[:-1], dict(user[-1], line=user[-1]["line"] + copy)]
    return dataclasses.replace(event, body=body)


def extra_guards(events: list[Event]) -> list[Event]:
    """Copies of a compile's guard events until it holds GUARDS_PER_COMPILE distinct ones."""
    guards = [e for e in events if e.name == GUARD]
    seen = {e.body.get("expr") for e in guards}
    extra: list[Event] = []
    copy = 0
    while len(seen) < GUARDS_PER_COMPILE:
        copy += 1
        source = guards[copy % len(guards)]
        expr = _varied(str(source.body.get("expr", "")), copy)
        if expr not in seen:
            seen.add(expr)
            extra.append(_guard_copy(source, expr, copy))
    return extra


def reason_lines(key: CompileKey, pool: list[str]) -> list[str]:
    """Why each earlier entry of the frame failed, newest first, as torch words it."""
    return [
        f"{key.frame_id}/{entry}: {pool[(key.frame_id + entry) % len(pool)]}"
        for entry in reversed(range(key.frame_compile_id))
    ]


def _marker(frame: int) -> str:
    """Seven blanks, spaces and tabs, that spell ``frame`` in binary: one width for all."""
    return "".join("\t" if frame >> bit & 1 else " " for bit in range(7))


def _frame_text(payload: str, frame: int) -> str:
    """The payload as another function's: user lines moved, lines indented by the frame's own.

    Every ``file.py:<line>`` (guard-tree notes, graph comments) names a line of this frame's,
    and every line the parsers find after blanks, or anywhere (a tree line's ``+- ...``), gets
    the frame's blanks.  Lines that must start a line (a kernel's definition) keep their
    text; the kernel's body, indented, does not.  The parsers read the same kinds of facts.
    """
    moved = _USER_LINE.sub(lambda m: f"{m[1]}{int(m[2]) + 1000 * frame}", payload)
    marker = _marker(frame)
    return "\n".join(
        marker + line if line[:1] in (" ", "\t", "|") else line for line in moved.split("\n")
    )


def _own_payload(event: Event, key: CompileKey, own_text: bool) -> str | None:
    """A code payload with a trailing comment naming its compile; any other, a copy.

    No two real compiles share a code payload, so no two clones do: a cache keyed on payload
    text gains here what it would on a real log, nothing more.  A JSON payload (provenance
    tables) may recur, but the reader makes a string object of its own for each line, whose
    hash is worked out anew: so does each clone's.  With ``own_text``, each frame's lines
    are its own as well (JSON gets leading blanks).
    """
    if not event.payload:
        return event.payload
    if event.body.get("encoding") != "json" and event.name not in _NOT_CODE:
        text = _frame_text(event.payload, key.frame_id) if own_text else event.payload
        return f"{text}\n# {key.compile_id}"
    text = _marker(key.frame_id) + event.payload if own_text else event.payload
    return text.encode().decode()


def _own_stacks(body: dict[str, Any], frame: int) -> None:
    """Each stack's outermost frame, the program's own, on a line of this frame's."""
    for name in ("stack", "user_stack"):
        stack = body.get(name)
        if isinstance(stack, list) and stack and isinstance(stack[0], dict):
            stack[0] = dict(stack[0], line=int(stack[0].get("line") or 0) + 1000 * frame)


def _rekeyed(event: Event, key: CompileKey, lines: list[str], own_text: bool) -> Event:
    """A copy under ``key``; its metrics name the newest failed entry, as torch's do."""
    body, extra = _fresh(event.body), dict(event.extra)
    if own_text:
        _own_stacks(body, key.frame_id)
    payload = _own_payload(event, key, own_text)
    copy = dataclasses.replace(event, key=key, body=body, extra=extra, payload=payload)
    if copy.name == "compilation_metrics":
        copy.body["recompile_reason"] = lines[0] if lines else None
    return copy


def clone(
    template: Template, key: CompileKey, reasons: list[str], *, own_text: bool = False
) -> list[Event]:
    """One compile: the template's events under ``key``, with its guards and recompile."""
    lines = reason_lines(key, template.reasons or reasons)
    events = [_rekeyed(e, key, lines, own_text) for e in template.events]
    last_guard = max(i for i, e in enumerate(events) if e.name == GUARD)
    events[last_guard + 1 : last_guard + 1] = extra_guards(events)
    if lines:  # torch logs the artifact before the compile starts
        body = {"name": "recompile_reasons", "encoding": "json"}
        events.insert(0, Event(REASONS, body, key, payload=json.dumps(lines, indent=0)))
    return events


def make_stream(corpus: Corpus, *, own_text: bool = False) -> EventStream:
    """The cloned compiles as the reader would hand them over (frames shared per stream).

    Frames cycle through the templates, so the compiles of two frames of one template
    repeat each other's lines; with ``own_text`` they do not (as two functions' would not),
    and only a frame's own recompiles repeat its lines.
    """
    stream = EventStream([], dict(corpus.strings), source="bench_build (cloned real events)")
    for frame in range(FRAMES):
        template = corpus.templates[frame % len(corpus.templates)]
        for number in range(COMPILES_PER_FRAME):
            key = CompileKey(frame, number)
            stream.events += clone(template, key, corpus.reasons, own_text=own_text)
    for event in stream.events:
        stream.share_frames(event.body)
    return stream


# --- measuring ------------------------------------------------------------------------------


@dataclass
class BuildTiming:
    total: float
    processors: float | None
    facts: Any


class _Stopwatch:
    """Wraps a function so the seconds spent in it add up, however often it is called."""

    def __init__(self, fn: Callable[..., Any]) -> None:
        self.fn, self.seconds = fn, 0.0

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return self.fn(*args, **kwargs)
        finally:
            self.seconds += time.perf_counter() - start


def timed_build(build: Callable[..., Any], stream: EventStream) -> BuildTiming:
    """One build; the processors' share is timed by wrapping the ``enrich`` its module calls."""
    module = sys.modules[build.__module__]
    original = getattr(module, "enrich", None)
    watch = _Stopwatch(original) if original is not None else None
    if watch is not None:
        module.enrich = watch
    try:
        start = time.perf_counter()
        facts = build(stream)
        total = time.perf_counter() - start
    finally:
        if original is not None:
            module.enrich = original
    return BuildTiming(total, watch.seconds if watch else None, facts)


def best_of(fn: Callable[[], Any]) -> float:
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def counts(facts: Any, stream: EventStream) -> str:
    names = ("compiles", "guards", "symbols", "specializations", "recompiles", "fx_nodes")
    found = ", ".join(f"{len(getattr(facts, name))} {name}" for name in names)
    return f"{found} (from {len(stream.events)} events)"


def _row(label: str, seconds: float | None, target: bool = False) -> str:
    if seconds is None:
        return f"  {label:<36} {'n/a':>8}"
    verdict = ("  met" if seconds < TARGET_S else "  MISSED (< 1 s)") if target else ""
    return f"  {label:<36} {seconds:8.3f} s{verdict}"


def _recorded(recorder: Recorder, rows: dict[str, tuple[str, float | None, bool]]) -> None:
    """Print each row and record its figure (a target of :data:`TARGET_S` where marked)."""
    for name, (label, seconds, target) in rows.items():
        print(_row(label, seconds, target=target))
        if seconds is not None:
            recorder.add(name, seconds, "s", target=("<", TARGET_S) if target else None)


def report(build: Callable[..., Any], stream: EventStream, recorder: Recorder) -> None:
    runs = [timed_build(build, stream) for _ in range(REPEATS)]
    best = min(runs, key=lambda run: run.total)
    facts = best.facts
    summary = best_of(lambda: render_summary(facts))
    document = best_of(lambda: facts_to_json(facts))
    per_compile = best.total - best.processors if best.processors is not None else None
    print(f"build from events, best of {REPEATS} ({build.__module__}.build):")
    print(f"  {counts(facts, stream)}")
    rows = {
        "build_s": ("build(stream), total", best.total, True),
        "per_compile_s": ("  per-compile facts", per_compile, False),
        "processors_s": ("  processors (enrich)", best.processors, False),
        "summary_s": ("text summary (render_summary)", summary, True),
        "document_s": ("JSON document (facts_to_json)", document, False),
        "rebuild_s": ("live rebuild after one more compile", incremental_rebuild(stream), False),
    }
    _recorded(recorder, rows)


def incremental_rebuild(stream: EventStream) -> float:
    """A live session's rebuild when one compile joined 999 built ones (best of 3)."""
    from symdebug.incremental import IncrementalBuilder

    last = max(i for i, e in enumerate(stream.events) if e.name == "compilation_metrics")
    start = max(i for i, e in enumerate(stream.events[:last]) if e.name == "compilation_metrics")
    before = EventStream(stream.events[: start + 1], stream.strings, source=stream.source)
    times = []
    for _ in range(3):
        builder = IncrementalBuilder()
        builder.build(before)
        began = time.perf_counter()
        builder.build(stream)
        times.append(time.perf_counter() - began)
    return min(times)


def _print_top(label: str, profiler: cProfile.Profile, top: int) -> None:
    for order in ("cumulative", "tottime"):
        print(f"=== {label}: top {top} by {order} time")
        stats = pstats.Stats(profiler, stream=sys.stdout)
        stats.strip_dirs().sort_stats(order).print_stats(top)


def profile(build: Callable[..., Any], stream: EventStream, top: int = 25) -> None:
    """CProfile's view of one build, then of one summary of its facts."""
    profiler = cProfile.Profile()
    facts = profiler.runcall(build, stream)
    _print_top("build(stream)", profiler, top)
    profiler = cProfile.Profile()
    profiler.runcall(render_summary, facts)
    _print_top("render_summary(facts)", profiler, top)


def stream_lines(corpus: Corpus) -> Iterator[str]:
    yield f"stream: {FRAMES} frames x {COMPILES_PER_FRAME} compiles cloned from real events"
    yield f"  {corpus.events_read} events read from {len(corpus.logs)} logs"
    sources = sorted({t.log for t in corpus.templates})
    yield f"  {len(corpus.templates)} template compiles with {GUARD} from {', '.join(sources)}"
    yield f"  {len(corpus.reasons)} real recompile reasons, {len(corpus.strings)} interned names"


def cold_builds(build: Callable[..., Any], stream: EventStream) -> float:
    """Best of REPEATS builds, each with every memo of text emptied first."""
    from symdebug.torchtext.text_memo import forget

    times = []
    for _ in range(REPEATS):
        forget()
        times.append(timed_build(build, stream).total)
    return min(times)


def report_own_text(build: Callable[..., Any], corpus: Corpus, recorder: Recorder) -> None:
    """The build when no line recurs across frames, memos empty: a first build's worst case."""
    stream = make_stream(corpus, own_text=True)
    label = "build, no line shared across frames"
    print(f"  (each frame's text its own, memos emptied before each build, best of {REPEATS})")
    _recorded(recorder, {"own_text_build_s": (label, cold_builds(build, stream), True)})


def run(recorder: Recorder) -> None:
    corpus = load_corpus()
    stream = make_stream(corpus)
    print("\n".join(stream_lines(corpus)))
    build = load_build()
    before = reference_seconds(REPEATS)
    report(build, stream, recorder)
    del stream
    report_own_text(build, corpus, recorder)
    after = reference_seconds(REPEATS)
    print(f"machine reference, fixed work with no symdebug code, best of {REPEATS}:")
    print(f"  {before:.3f} s before the builds, {after:.3f} s after ({MACHINE_NOTE})")
    recorder.add("machine_reference_before_s", before, "s")
    recorder.add("machine_reference_after_s", after, "s")


def main() -> None:
    if "--profile" not in sys.argv[1:]:
        main_of(run, "build", __file__)
    corpus = load_corpus()
    profile(load_build(), make_stream(corpus))


if __name__ == "__main__":
    main()
