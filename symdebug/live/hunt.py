"""The overspecialization hunt: for each constant, was it needed.

Each input that some compile held constant is replayed with the one change that keeps it
symbolic (a mark for a size, ``dynamic_sources`` for an int, the whole program dynamic
for a float, a setting the evidence names for a 0/1 or duck-sized one).  The replay's own
compiles answer: still a constant there means the code needs it (the cause and line are
the replay's); symbolic with no new error and equal outputs means it was avoidable.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from symdebug.live.candidates import FLOATS, frame_ref
from symdebug.live.changes import Change, Mark, setting_change
from symdebug.live.replay import TIMEOUT_S, Replay, Workload
from symdebug.live.replay_search import Search
from symdebug.live.replayer import Replayer, Start
from symdebug.live.trials import Candidate
from symdebug.model.hunt_types import HuntRow
from symdebug.model.types import Facts
from symdebug.queries.constants import (
    PINNED_BY_CODE,
    Constant,
    constants,
    forced_constant,
    varied,
)
from symdebug.queries.hunt import Hunt, needed, new_row, ordered, unreplayed

DYNAMIC_SOURCES = "torch.compiler.config.dynamic_sources"
#: What keeps a constant symbolic beyond a mark, by how it became one.
EVIDENCE_SETTINGS = {
    "zero_one": {"torch.fx.experimental._config.backed_size_oblivious": True},
    "duck_sizing": {"torch.fx.experimental._config.use_duck_shape": False},
}
#: A constant whose value never changed: it cost no compile, so it is neither needed nor avoidable.
NEVER_VARIED = "never varied in this run: it cost no compile, and no replay can say more"
MODULE_INTS = {"torch._dynamo.config.allow_unspec_int_on_nn_module": True}


def keep_symbolic(constant: Constant) -> Change | str:
    """The change that keeps ``constant`` symbolic, or why no change can name it."""
    source = constant.source
    if "___" in source:
        return "Dynamo's name for a value between graphs: no mark or setting reaches it"
    frame = frame_ref(constant.compile_)
    extra = EVIDENCE_SETTINGS.get(str(constant.cause), {})
    if source.is_size and source.tensor is not None and source.dim is not None:
        marks = [Mark("maybe_mark_dynamic", source.tensor, source.dim, frame)]
        if constant.why_constant == "mark_static":
            marks.insert(0, Mark("unmark_static", source.tensor, source.dim, frame))
        tensor = constant.user_name.split(".shape[")[0]
        code = f"torch._dynamo.maybe_mark_dynamic({tensor}, {source.dim})"
        return Change("mark", code, dict(extra), tuple(marks))
    if constant.kind == "float":
        return setting_change(FLOATS)
    settings = {DYNAMIC_SOURCES: str(source), **extra}
    if source.attributes:
        settings.update(MODULE_INTS)
    return setting_change(settings)


def _still_constant(replay: Replay, constant: Constant) -> Constant | bool | None:
    """The replay's own constant for the source; False when its compiles never take it."""
    facts = replay.facts
    if facts is None:
        return False
    again = {c.source: c for c in constants(facts)}
    if constant.source in again:
        return again[constant.source]
    pinned = forced_constant(facts, constant.source)
    if pinned is not None:
        return pinned
    inputs = (d.source for c in facts.compiles for d in c.inputs)
    symbols = (source for s in facts.symbols for source in s.sources)
    seen = constant.source in {*inputs, *symbols}
    return None if seen else False


def _forced_by(constant: Constant, still: Constant) -> Constant:
    """The replay's reason, unless the run's own is the code asking for the value.

    A replay keeps one input symbolic: an operator may then tie it to another input's
    constant (``x @ w``), where the run shows what pinned them both (``range(x.shape[1])``).
    """
    asked = constant.cause in PINNED_BY_CODE and still.cause not in PINNED_BY_CODE
    return constant if asked else still


def _verdict(row: HuntRow, constant: Constant, search: Search, trial_why: str) -> None:
    """Set the row's verdict from what the replay with its change measured."""
    run = search.tried[-1].replay
    row.after, row.compiles = run.total, max(search.baseline.total - run.total, 0)
    new_errors = [e for e in run.errors if e not in search.baseline.errors]
    still = _still_constant(run, constant)
    if new_errors:
        row.verdict, row.note = "untested", f"the replay raised: {new_errors[0]}"
    elif isinstance(still, Constant):
        needed(row, _forced_by(constant, still), "replayed: it stayed a constant")
    elif still is False:
        row.verdict, row.note = "untested", "the replay's compiles do not take this input"
    elif trial_why.startswith("outputs"):
        row.verdict, row.note = "untested", f"symbolic in the replay, but {trial_why}"
    elif row.compiles == 0:  # symbolic, yet no compile saved: no evidence either way
        row.verdict = "untested"
        row.note = (
            f"symbolic in the replay, but it saved no compile ({row.before} -> {row.after}):"
            " the constant did not cost the compiles, or the replay did not test it"
        )
    else:
        row.verdict, row.outputs_equal = "avoidable", search.compare or None
        row.note = f"symbolic in the replay: {row.before} -> {row.after} compiles"


def run_hunt(
    facts: Facts | None,
    runner: Callable[[Candidate], Replay] | None,
    *,
    max_replays: int = 25,
    progress: bool = True,
) -> Hunt:
    """Replay each constant's change (within the budget); the rows with their verdicts.

    The constants are the unchanged replay's; ``facts``' (the session's) when there is no
    workload, or when the unchanged replay failed (then each is untested, saying so).
    """
    if runner is None:
        return Hunt(ordered([unreplayed(c) for c in constants(facts or Facts())]))
    search = Search(runner, budget=max_replays, progress=progress, compare=True)
    failed = _failure(search.baseline)
    if failed:  # nothing to compare a change with: the session's constants, untested
        search.close()
        why = f"untested: the unchanged replay {failed}"
        rows = [unreplayed(c, why) for c in constants(facts or Facts())]
        return Hunt(ordered(rows), replays=1, failed=failed)
    found = constants(search.baseline.facts or Facts())
    search.progress.total = min(max_replays, 1 + len(found))
    tried: dict[str, Change] = {}
    rows = [_hunted(search, constant, tried) for constant in found]
    search.close()
    replays = 1 + search.extra_runs + len(search.tried)
    return Hunt(ordered(rows), replays=replays, changes=tried)


def _failure(baseline: Replay) -> str:
    """How the unchanged replay failed: it raised, or never returned; "" when it finished."""
    if baseline.finished:
        return ""
    error = baseline.errors[0] if baseline.errors else "did not return (stopped)"
    return error if error.startswith("did not") else f"raised {error}"  # a timeout says so


def _tried(search: Search, row: HuntRow, constant: Constant, change: Change) -> None:
    """Replay one change for the constant; the row gets its verdict."""
    row.change = change.code.replace("\n", "; ")
    trial = search.trial((change,), search.baseline.total + 1)
    _verdict(row, constant, search, trial.why_not)


def _with_evidence(change: Change, extra: dict[str, Any]) -> Change:
    """The change with the setting torch's own rule asks for (0/1, duck sizing)."""
    said = "; ".join(f"{name} = {value!r}" for name, value in extra.items())
    return Change(change.kind, f"{said}\n{change.code}", {**change.settings, **extra}, change.marks)


def _hunted(search: Search, constant: Constant, tried: dict[str, Change]) -> HuntRow:
    """The constant's row: its change replayed, then once more with a rule's setting.

    A size the replay still finds constant by torch's 0/1 or duck-sizing rule (not by the
    code) is tried again with the setting that lifts the rule.
    """
    change = keep_symbolic(constant)
    row = new_row(constant)
    row.before = search.baseline.total
    if not varied(search.baseline.facts or Facts(), constant.source):
        row.note = NEVER_VARIED
        return row
    if isinstance(change, str) or search.left <= 0:
        row.note = change if isinstance(change, str) else "not replayed: the budget was spent"
        return row
    tried[str(constant.source)] = change
    _tried(search, row, constant, change)
    extra = EVIDENCE_SETTINGS.get(str(row.cause), {})
    if (
        row.verdict == "needed"
        and extra
        and search.left > 0
        and not extra.keys() & change.settings.keys()
    ):
        tried[str(constant.source)] = change = _with_evidence(change, extra)
        _tried(search, row, constant, change)
    return row


def hunt_session(
    facts: Facts,
    workload: Workload | None,
    *,
    max_replays: int = 25,
    progress: bool = True,
    timeout: float = TIMEOUT_S,
    start: Start = "spawn",
) -> Hunt:
    """The hunt of a live session: each replay in a process of its own (:func:`run_hunt`).

    ``start``: as :func:`symdebug.live.fix_plan.fix_plan` takes it.
    """
    if workload is None:
        return run_hunt(facts, None)

    runner = Replayer(workload, timeout=timeout, start=start)
    try:
        return run_hunt(facts, runner, max_replays=max_replays, progress=progress)
    finally:
        runner.close()
