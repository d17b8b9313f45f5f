"""Predict which cache entry serves a call at new sizes, or which check makes it recompile.

Works from the facts alone (live sessions and trace logs alike), so it needs no compiled
function and runs nothing: each entry's checks (see :mod:`entry_model`) are evaluated in
cache lookup order, vectorised over many sizes at once, and the frame's state (skipped for
good, recompile limit; see :mod:`frame_state`) decides what a miss does.

A prediction never guesses: a check it cannot evaluate (a module attribute the call does
not give, an expression it cannot run) makes it uncertain, and says what would change it.
"""

from __future__ import annotations

import contextlib
import gc
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from symdebug.model.definitions import definition_note, frame_key
from symdebug.model.index import FactIndex
from symdebug.model.readable import pretty_text, short_repr
from symdebug.model.types import Compile, Facts, Frame, Guard, Specialization
from symdebug.predict.arguments import (
    DISPATCH_PREFIX,
    FACT_PREFIXES,
    GLOBAL_PREFIX,
    OBJECT_PREFIX,
    RECEIVER,
    GivenByShape,
    bind,
    defaulted_parameters,
    defaults_from_source,
    frame_signature,
    missing_item,
    receiver_of,
    short_name,
    source_base,
)
from symdebug.predict.check import Check
from symdebug.predict.check_eval import SOURCE_ROOTS
from symdebug.predict.check_program import ALL_HOLD, EntryPlan, entry_plan, unparsed_texts
from symdebug.predict.entry_model import EntryModel, entry_model
from symdebug.predict.frame_state import FrameState, frame_state
from symdebug.predict.missing_arguments import (
    MISSING,
    about_missing,
    missing_condition,
    missing_note,
    missing_parameters,
    missing_texts,
    read_parameters,
)
from symdebug.predict.object_paths import object_paths
from symdebug.predict.recorded_ids import compare_ids
from symdebug.predict.tensor_checks import GLOBAL_CHECK, ambient_assumption

Outcome = Literal["served", "recompile", "eager"]
#: Reads, for a call (its bound values), the sources on the compiled module as it is now,
#: torch's global state and the dispatch keys of the call's tensors: ``{source: value}``,
#: unreadable left out, and under :data:`READ_FROM` which module was read.
ProgramReader = Callable[[Sequence[str], Mapping[str, Any]], dict[str, Any]]
#: The key of a call's values that names the module a live session read (no source).
READ_FROM = "read from:"
#: Where the module the state was read from sits in the frame, when not ``L['self']``.
RECEIVER_AT = "receiver at:"
#: ``Predictor.answers``: no entry serves and torch compiles again, or runs the call eagerly.
RECOMPILE, EAGER = -1, -2


@dataclass(slots=True)
class Failure:
    """The first check of one entry that the new sizes fail, with its provenance."""

    entry: str
    kind: str
    check: str
    cause: str
    values: dict[str, Any]
    guard: Guard | None = None
    specialization: Specialization | None = None

    @property
    def user_frame(self) -> Frame | None:
        """The user line behind the check, when torch recorded one."""
        if self.guard is not None and self.guard.user_frame is not None:
            return self.guard.user_frame
        return self.specialization.user_frame if self.specialization is not None else None

    def __str__(self) -> str:
        got = ", ".join(f"{k} = {_shown(v)}" for k, v in self.values.items())
        where = (
            f"  [{self.user_frame.filename}:{self.user_frame.lineno}]" if self.user_frame else ""
        )
        return f"{self.entry}: {self.kind} {self.check} fails ({got}; {self.cause}){where}"


def _shown(value: Any) -> str:
    """A value a check read; an object a call passes (a tensor) by its type, shape and id."""
    if isinstance(value, int | float | str | bool | GivenByShape) or value is None:
        return str(value)
    shape = tuple(getattr(value, "shape", ()))
    return f"<{type(value).__name__} {shape} at {id(value):#x}>"


@dataclass(slots=True)
class Prediction:
    """What torch does with one call: served, recompile, or an eager run.

    ``entry`` is the entry that serves (else None), ``eager`` says why torch would run the
    call eagerly, and ``failures`` has each failing entry's first failing check.

    ``certain`` is False when something on the way could not be known: ``unchecked`` lists
    the checks that could not be evaluated and ``conditions`` says, for each, what would make
    the answer wrong ("served by 0/2 unless L['self'].chunk != 2").  ``assumed`` lists the
    program state taken as recorded (module parameters' sizes, functions' defaults).
    """

    entry: str | None
    failures: list[Failure] = field(default_factory=list)
    order: list[str] = field(default_factory=list)
    unchecked: list[str] = field(default_factory=list)
    frame: str = ""
    notes: list[str] = field(default_factory=list)
    certain: bool = True
    eager: str | None = None
    conditions: list[str] = field(default_factory=list)
    assumed: list[str] = field(default_factory=list)

    @property
    def recompiles(self) -> bool:
        """True when no entry serves and torch would compile again."""
        return self.entry is None and self.eager is None

    @property
    def runs_eager(self) -> bool:
        """True when torch would run the call eagerly (frame skipped, recompile limit)."""
        return self.eager is not None

    @property
    def outcome(self) -> Outcome:
        """``"served"``, ``"recompile"`` or ``"eager"``."""
        if self.entry is not None:
            return "served"
        return "eager" if self.eager is not None else "recompile"

    def _head(self) -> str:
        head = {"served": f"served by {self.entry}", "recompile": "recompiles"}.get(
            self.outcome, f"runs eagerly ({self.eager})"
        )
        if self.certain:
            return head
        more = len(self.conditions) - 3
        unless = " or ".join(self.conditions[:3]) + (f" (or {more} more)" if more > 0 else "")
        return f"{head} unless {unless}"

    __repr__ = short_repr
    _repr_pretty_ = pretty_text

    def __str__(self) -> str:
        lines = [f"{self.frame}: {self._head()} (lookup order {', '.join(self.order)})"]
        lines += [f"  {failure}" for failure in self.failures]
        if self.unchecked:
            lines.append(f"  not checked ({len(self.unchecked)}): {_listed(self.unchecked, 5)}")
        if self.assumed:
            lines.append(f"  assumed as recorded ({len(self.assumed)}): {_listed(self.assumed, 3)}")
        lines += [f"  note: {note}" for note in self.notes]
        return "\n".join(lines)


def _listed(items: list[str], shown: int) -> str:
    """The first ``shown`` items, and how many more there are (``list(s.unchecked)``)."""
    more = len(items) - shown
    return ", ".join(items[:shown]) + (f" (and {more} more)" if more > 0 else "")


@dataclass(slots=True)
class _Verdict:
    """One entry on one call: its first failing check, or what could not be checked."""

    failure: Failure | None = None
    unknown: list[str] = field(default_factory=list)
    assumed: list[str] = field(default_factory=list)


def entry_compiles(compiles: list[Compile]) -> list[Compile]:
    """The compiles that left a cache entry: ok, or with guards but no graph."""
    return [
        c
        for c in compiles
        if c.status == "ok" or (c.status == "empty" and c.guard_count is not None)
    ]


def shared_code_condition(entries: list[Compile]) -> list[str]:
    """When one code object serves several functions, which one a call reaches is unknown.

    A decorator's wrapper (``wrapper(*args, **kwargs)``) is one code object for every
    function it decorates, so torch keeps their entries in one cache and tries each on every
    call; a call to one of them is bound as that one's arguments, which the sizes alone do
    not tell.
    """
    served = sorted({c.callee.qualname for c in entries if c.callee and c.callee.qualname})
    if len(served) < 2:
        return []
    return [f"the call reaches another of the functions this code serves ({', '.join(served)})"]


@contextlib.contextmanager
def collection_paused() -> Iterator[None]:
    """No garbage collection inside: building a frame's entry models makes many objects.

    With a large session in memory (a frame recompiled a thousand times), the collections
    they would set off walk the whole session again and again, for no cycle to free.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


class Predictor:
    """Entry models of one frame, built once, evaluated on one or many calls.

    Parameters
    ----------
    facts
        The session's facts.
    frame
        The frame (name or id); default: the first frame called.
    order
        Torch's lookup order, when known (live); else newest first, as Dynamo inserts them.
    settings
        ``recompile_limit`` and ``suppress_errors`` when known (a live session reads them
        from torch); without them torch's defaults are assumed, or the answer is uncertain.
    """

    def __init__(
        self,
        facts: Facts,
        frame: str | int | None = None,
        order: Sequence[str] | None = None,
        settings: Mapping[str, Any] | None = None,
        program: ProgramReader | None = None,
    ) -> None:
        self.compiles = frame_compiles(facts, frame)
        entries = entry_compiles(self.compiles)
        self.notes = [
            f"{c.compile_id} failed ({c.fail_type}): it is no cache entry"
            for c in self.compiles
            # Status first: ``in`` compares whole compiles, one per entry of the frame.
            if c.status == "failed" and c not in entries
        ]
        by_id: dict[str, Compile] = {c.compile_id: c for c in entries}
        ids = list(reversed(by_id)) if order is None else [c for c in order if c in by_id]
        #: Torch's cache holds these entries, compiled before this capture began: their
        #: checks are not known, so an answer they might change is unsure.
        self.foreign = [c for c in order or () if c not in by_id]
        self.lookup = list(order or ids)
        index = FactIndex(facts)
        self.models = [entry_model(index, by_id[cid]) for cid in ids]
        _unknown_if_states_differ(self.models, [by_id[cid] for cid in ids])
        # Ids are this process's: compared where the session is live (it reads the program).
        compare_ids(self.models, live=program is not None)
        #: Per list of value names a call gives, each entry's plan (see :mod:`check_program`).
        self.plans: dict[tuple[tuple[str, ...], Any], _Plans] = {}
        self.state: FrameState = frame_state(self.compiles, len(self.models), settings)
        if isinstance(frame, str):
            named = [c for c in facts.compiles if c.name == frame]
            self.state.notes += definition_note(named, self.compiles[0])
        self.state.conditions += shared_code_condition(entries)
        self.compiles = entries or self.compiles
        first = self.compiles[0]
        self.frame = first.name
        self.signature = frame_signature(first)
        self.receiver = receiver_of(first)
        self.known = sorted({s for m in self.models for c in m.checks for s in c.sources})
        #: What the entries read inside objects a call passes (a cache object's tensors).
        self.paths = object_paths(self.known, FACT_PREFIXES, self.receiver)
        checked = {source.removeprefix(OBJECT_PREFIX) for source in self.known}
        defaults = defaults_from_source(first.filename, first.lineno, first.name)
        # Only what an entry checks: another default changes nothing the entries decide.
        self.defaults = {k: v for k, v in defaults.items() if f"L[{k!r}]" in checked}
        #: Parameters a call may leave out (None: the source is not known here).
        self.defaulted = defaulted_parameters(first.filename, first.lineno, first.name)
        self.read = read_parameters(self.known)
        #: Reads the module's state now (a live session), for the sources checked on it.
        self.program = program
        self.program_sources = [
            s
            for s in self.known
            if self.receiver in s or "G[" in s or s.startswith((GLOBAL_PREFIX, DISPATCH_PREFIX))
        ]

    def values(self, args: Sequence[Any], kwargs: Mapping[str, Any]) -> dict[str, Any]:
        """Sources of one call; keywords may also name module attributes (``"self.chunk"``)."""
        if self.signature is None:
            if args:
                raise TypeError(
                    f"the signature of {self.frame} is unknown here: pass keyword arguments"
                )
            return {k if k.startswith(("L[", "G[")) else f"L[{k!r}]": v for k, v in kwargs.items()}
        bound = bind(
            self.signature,
            args,
            kwargs,
            self.known,
            self.defaults,
            bound_first=self.bound_first,
            paths=self.paths,
        )
        missing = missing_parameters(self.signature, bound, self.defaulted, self.read, self.frame)
        if missing:  # a call Python refuses: said, never answered with confidence
            bound[MISSING] = missing
        if self.program is None or not self.program_sources:
            return bound
        return {**self._read_program(self.program, bound), **bound}  # the call's own win

    @property
    def bound_first(self) -> bool:
        """Whether the frame is a wrapper holding the module first in its ``*args``."""
        return self.receiver != RECEIVER

    def _read_program(self, program: ProgramReader, bound: Mapping[str, Any]) -> dict[str, Any]:
        """The module's state now; a wrapper's receiver is asked for as ``L['self']``."""
        if not self.bound_first:
            return program(self.program_sources, bound)
        asked = {s.replace(self.receiver, RECEIVER, 1): s for s in self.program_sources}
        read = program(list(asked), bound)
        found = {asked.get(source, source): value for source, value in read.items()}
        return {**found, RECEIVER_AT: self.receiver}

    def predict(self, values: Mapping[str, Any], *, planned: bool = True) -> Prediction:
        """One call: the serving entry, recompile or eager run, and each failing check.

        Certain only when every check on the way was evaluated.  ``planned=False`` walks
        every check the careful way, not through the entries' compiled plans (the same
        answer, slower: for checking the plans).
        """
        order = [m.compile_id for m in self.models]
        prediction = Prediction(None, order=order, frame=self.frame, notes=list(self.state.notes))
        if self.state.skipped is not None:  # torch no longer looks the entries up
            prediction.eager = self.state.skipped
        else:
            self._walk(prediction, values, planned=planned)
        prediction.unchecked = [*missing_texts(values, self.signature), *prediction.unchecked]
        prediction.notes += missing_note(values, self.frame, required=self.defaulted is not None)
        self._settle(prediction, values)
        read_from = values.get(READ_FROM)
        if read_from is not None and prediction.entry is not None:
            prediction.assumed.append(f"the call passes {read_from}, as it is now")
        ambient = ambient_assumption(values)
        if ambient is not None and prediction.entry is not None:
            prediction.assumed.append(ambient)
        return prediction

    def _walk(self, prediction: Prediction, values: Mapping[str, Any], *, planned: bool) -> None:
        given, plans = self._plans(values) if planned else ([], [None] * len(self.models))
        for model, plan in zip(self.models, plans, strict=True):
            quick = plan and _planned_verdict(model, plan, values, given)
            verdict = quick or _judge(model, values)
            if verdict.failure is not None:
                prediction.failures.append(verdict.failure)
                continue
            prediction.entry = model.compile_id
            prediction.unchecked, prediction.assumed = verdict.unknown, verdict.assumed
            return
        prediction.eager = self.state.limit

    def _plans(self, values: Mapping[str, Any]) -> _Plans:
        """The call's given sources and each entry's plan, made once per list of value names.

        Which names a call gives (in its order, which the answer's lists follow), and where
        the module sits, decide both; not the values.
        """
        key = (tuple(values), values.get(RECEIVER_AT))
        found = self.plans.get(key)
        if found is None:
            if len(self.plans) >= _MAX_PLANS:
                self.plans.clear()
            given = frozenset(key[0])
            plans = [entry_plan(model, given) for model in self.models]
            found = self.plans[key] = (_given_sources(values), plans)
        return found

    def _settle(self, prediction: Prediction, values: Mapping[str, Any]) -> None:
        """Conditions (what would change the answer), assumptions and ``certain``."""
        state = self.state
        prediction.conditions = [_negated(text) for text in prediction.unchecked]
        prediction.conditions += state.conditions
        prediction.conditions += self._foreign_conditions(prediction)
        if prediction.outcome == "recompile" or (prediction.eager and not state.skipped):
            prediction.conditions += state.miss_conditions  # a miss: compiled, or run eagerly
            prediction.assumed += state.miss_assumed
        prediction.certain = not prediction.conditions
        keywords = self.signature is not None and self.signature.varkw is not None
        named = [text for text in prediction.unchecked if not about_missing(text, values)]
        prediction.notes += _naming_hints(named, keywords=keywords)
        if any(_ALIASING.match(text) for text in prediction.unchecked):
            prediction.notes.append(_ALIASING_HINT)
        if any(text.startswith(GLOBAL_CHECK) for text in prediction.unchecked):
            prediction.notes.append(_GLOBAL_HINT)

    def _foreign_conditions(self, prediction: Prediction) -> list[str]:
        """Entries torch looks up before the answer's, compiled outside this capture."""
        stop = self.lookup.index(prediction.entry) if prediction.entry in self.lookup else None
        before = [c for c in self.lookup[:stop] if c in self.foreign]
        if not before:
            return []
        return [f"an entry compiled before this capture ({', '.join(before)}) serves the call"]

    def answers(self, columns: Mapping[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        """Many calls at once: the serving entry's index, and whether the answer is certain.

        The index is into ``self.models``; ``RECOMPILE`` or ``EAGER`` when none serves.
        """
        count = len(next(iter(columns.values()))) if columns else 0
        result = np.full(count, EAGER if self.state.limit else RECOMPILE, dtype=np.int64)
        certain = np.full(count, not self.state.miss_conditions, dtype=bool)
        if self.state.skipped is not None:
            result[:], certain[:] = EAGER, True
        else:
            for index in reversed(range(len(self.models))):
                passes, known = _passes(self.models[index], columns, count)
                result[passes], certain[passes] = index, known
        unsure = bool(self.state.conditions or self.foreign) or MISSING in columns
        return result, certain & (not unsure)

    def serving(self, columns: Mapping[str, np.ndarray]) -> np.ndarray:
        """Many calls at once: index into ``self.models`` of the serving entry, or -1."""
        served: np.ndarray = np.maximum(self.answers(columns)[0], RECOMPILE)
        return served


_INVERSE = {"==": "!=", "!=": "==", "<=": ">", ">": "<=", "<": ">=", ">=": "<", "is": "is not"}


def _unknown_if_states_differ(models: list[EntryModel], compiles: list[Compile]) -> None:
    """Entries compiled under different global states (training, then ``no_grad``).

    Taking each entry's own state as the call's would let the first one serve: where nothing
    reads the state now (a session from a log), which entry serves is not known.
    """
    if len({repr(sorted(c.global_state.items())) for c in compiles}) < 2:
        return
    for model in models:
        for check in model.checks:
            if check.kind == "global_state":
                check.like_recorded = False


def _negated(text: str) -> str:
    """What makes a check fail, in words: ``a == 2`` -> ``a != 2``."""
    missing = missing_condition(text)
    if missing is not None:
        return missing
    check, _, why = text.partition(" (")
    if why == _UNRECORDED_NOTE + ")":
        source, _, value = check.partition(" == ")
        return f"the entry's guard on {source} rejects {value}"
    parts = check.split(" ")
    ops = [part for part in parts if part in _INVERSE]
    if len(ops) == 1 and not why and " and " not in check and " or " not in check:
        left, right = check.split(f" {ops[0]} ", 1)
        return f"{left} {_INVERSE[ops[0]]} {right}"
    return f"not ({check})" + (f" ({why}" if why else "")


_GLOBAL_HINT = (
    "the entries were compiled under different global states (grad mode, autocast): a live"
    " session reads the state at the prediction, a log cannot tell the call's"
)
_ALIASING = re.compile(r"^L\[.+? is (?:not )?L\[")
_ALIASING_HINT = (
    "which objects the call passes decides an `a is b` check: give the tensors themselves,"
    " not their shapes, to check it"
)
_ITEMS = re.compile(r"(?<=\])(\[[^\]]*\])+$")  # L['xs'][0][1] -> L['xs']: give the container


def _naming_hints(unchecked: list[str], *, keywords: bool = False) -> list[str]:
    """How to give a value the call does not pass (a module attribute, a global).

    ``keywords``: the frame takes ``**kwargs``, where a bare name is a keyword of the call, so a
    global is named as torch spells it (``G['SCALE']``).
    """
    bases = [_ITEMS.sub("", source_base(text.split(" ", 1)[0])) for text in unchecked]
    named = [b for b in bases if b.startswith(("L[", "G[")) and ("." in b or b.startswith("G["))]
    if not named:
        return []
    short = short_name(named[0])
    name = named[0] if keywords and "." not in short else short
    return [f"give it by name to check it: predict(..., **{{{name!r}: value}})"]


def _evaluate(check: Check, values: Mapping[str, Any], *, one: bool = False) -> Any:
    """The check's result, or None when it cannot be evaluated (then it is not checked).

    ``one``: the values of one call, evaluated in Python's arithmetic where the check has it.
    """
    evaluate = (check.evaluate_one or check.evaluate) if one else check.evaluate
    try:
        return evaluate(values)
    except LookupError:  # what it reads is not given (which tensor a shape stands for)
        return _NOT_GIVEN
    except Exception:  # noqa: BLE001 - a check text we cannot run says nothing about the sizes
        return None


#: :func:`_evaluate`'s answer for a check that reads something the call does not say.
_NOT_GIVEN = object()


def _usable(check: Check, values: Mapping[str, Any]) -> bool:
    return all(map(values.__contains__, check.sources))


#: What a failure shows for an item the call's container does not hold.
_ABSENT = "absent: the call does not pass it"


def _seen(check: Check, values: Mapping[str, Any]) -> dict[str, Any]:
    """What a failing check read (only what differs, where the check says so)."""
    return check.shown(values) if check.shown else {s: values[s] for s in check.sources}


def _failure(model: EntryModel, check: Check, seen: dict[str, Any]) -> Failure:
    return Failure(
        model.compile_id,
        check.kind,
        check.text,
        check.cause,
        seen,
        check.guard,
        check.specialization,
    )


def _holds(result: Any) -> bool:
    """Whether a check held at every point (``np.all`` costs microseconds on one value)."""
    return bool(result.all()) if isinstance(result, np.ndarray) else bool(result)


def _planned_verdict(
    model: EntryModel, plan: EntryPlan, values: Mapping[str, Any], given: Sequence[str]
) -> _Verdict | None:
    """:func:`_judge`'s verdict from the entry's plan; None where a check raised.

    A failing check's result is taken again the careful way before it decides.
    """
    try:
        index = plan.first_failing(values)
    except Exception:  # noqa: BLE001 - the careful walk says which check, and why
        return None
    if index == ALL_HOLD:
        unknown = [*plan.unknown, *_unguarded_scalars(model, values, given)]
        return _Verdict(unknown=unknown, assumed=list(plan.assumed))
    check = model.checks[index]
    result = _evaluate(check, values, one=True)
    if result is None or result is _NOT_GIVEN or result is True or _holds(result):
        return None
    return _Verdict(_failure(model, check, _seen(check, values)))


#: Lists of value names a predictor keeps plans for (calls usually give the same names).
_MAX_PLANS = 64
#: The sources a call gives (see :func:`_given_sources`), and each entry's plan or None.
_Plans = tuple[list[str], list[EntryPlan | None]]


def _judge(model: EntryModel, values: Mapping[str, Any]) -> _Verdict:
    """Evaluate every check of one entry on one call.

    A check that fails decides, whatever the others say; else what could not be evaluated,
    or was taken as recorded, qualifies the hit.
    """
    verdict = _Verdict(unknown=unparsed_texts(model))
    for check in model.checks:
        usable = _usable(check, values)
        result = _evaluate(check, values, one=True) if usable else _NOT_GIVEN
        absent = missing_item(check.sources, values) if result is _NOT_GIVEN else None
        if absent is not None:
            return _Verdict(_failure(model, check, {absent: _ABSENT}))
        if result is _NOT_GIVEN and check.taken_as_recorded:
            text = check.assumption or check.text
            if text not in verdict.assumed:
                verdict.assumed.append(text)
        elif result is None or result is _NOT_GIVEN:
            text = check.text if result is _NOT_GIVEN else f"{check.text} (cannot be evaluated)"
            (verdict.assumed if check.program_state else verdict.unknown).append(text)
        elif not (result is True or _holds(result)):
            return _Verdict(_failure(model, check, _seen(check, values)))
    verdict.unknown += _unguarded_scalars(model, values)
    return verdict


#: Arguments whose guards the recorded facts do not hold (``TRUE_MATCH``, ``CONSTANT_MATCH``
#: and float ``EQUALS_MATCH`` lines are not kept), unlike ints and tensor sizes.
_UNRECORDED = (bool, float, str, type(None), np.bool_, np.floating, np.str_)
_UNRECORDED_NOTE = "its guard is not recorded"
#: Sources a call's values are bound to (not ``ndim:``, ``len:`` or ``object:`` facts of them).


def _unguarded_scalars(
    model: EntryModel, values: Mapping[str, Any], given_sources: Sequence[str] | None = None
) -> list[str]:
    """Values the call gives whose guards are not recorded, where no check reads them.

    ``given_sources``: :func:`_given_sources` of the values, when already known.
    """
    sources = _given_sources(values) if given_sources is None else given_sources
    given = [(s, values[s]) for s in sources if isinstance(values[s], _UNRECORDED)]
    if not given:
        return []  # sizes and ints only: every one of them is guarded where it is read
    read = {s.removeprefix(OBJECT_PREFIX) for check in model.checks for s in check.sources}
    return [f"{s} == {v!r} ({_UNRECORDED_NOTE})" for s, v in given if s not in read]


def _given_sources(values: Mapping[str, Any]) -> list[str]:
    """The sources of values the call gives (see :func:`_given`), in order."""
    live = READ_FROM in values
    receiver = str(values.get(RECEIVER_AT, RECEIVER))
    return [source for source in values if _given(source, live=live, receiver=receiver)]


def _given(source: str, *, live: bool, receiver: str = RECEIVER) -> bool:
    """A value the call gives: no ``len:`` or ``ndim:`` fact of one.

    Nor, in a live session, the module's state it read for other entries' checks.
    """
    return source.startswith(SOURCE_ROOTS) and not (live and source.startswith(receiver))


def _passes(
    model: EntryModel, columns: Mapping[str, np.ndarray], count: int
) -> tuple[np.ndarray, bool]:
    """Rows where every evaluable check passes, and whether every check was evaluable.

    Cheap checks go first; once fewer than half the rows still pass, the rest are checked on
    those rows alone (a modulo by a column costs ten comparisons).
    """
    mask, known = np.ones(count, dtype=bool), not model.unparsed
    rows: np.ndarray | None = None
    view, left = columns, mask
    for check in sorted(model.checks, key=_cost):
        result = _evaluate(check, _needed(check, view)) if _usable(check, view) else _NOT_GIVEN
        if result is not None and result is not _NOT_GIVEN:
            left &= np.broadcast_to(np.asarray(result, dtype=bool), left.shape)
        elif result is None:  # evaluated, and it raised: as ``_judge``, not known
            known = known and check.program_state
        elif missing_item(check.sources, view) is not None:
            left[:] = False
        elif not check.taken_as_recorded:
            known = False
        if rows is None and count > _FEW and np.count_nonzero(left) * 2 < count:
            rows = np.flatnonzero(left)
            view, left = _rows(columns, rows), np.ones(len(rows), dtype=bool)
    if rows is not None:
        mask[:] = False
        mask[rows[left]] = True
    scalars = {k: v[0] for k, v in columns.items() if count and isinstance(v[0], _UNRECORDED)}
    return mask, known and not _unguarded_scalars(model, scalars)


#: Below this many calls, narrowing to the passing rows costs more than it saves.
_FEW = 4096


def _cost(check: Check) -> int:
    """A guess at a check's cost on arrays: divisions dominate, then products."""
    text = check.text
    return 4 * text.count("%") + 2 * text.count("//") + text.count("*") + text.count(" and ")


def _rows(columns: Mapping[str, np.ndarray], rows: np.ndarray) -> dict[str, np.ndarray]:
    """The columns at ``rows``; a fixed value stays a zero-stride view (see :func:`_needed`)."""
    return {
        source: np.broadcast_to(column[:1], (len(rows),))
        if column.ndim == 1 and column.strides[0] == 0
        else column[rows]
        for source, column in columns.items()
    }


def _needed(check: Check, columns: Mapping[str, np.ndarray]) -> Mapping[str, np.ndarray]:
    """The columns a check reads: one row of each when none of them varies.

    A fixed value is a view with a zero stride; a check on fixed sizes then costs one
    evaluation, not millions.
    """
    read = [columns[source] for source in check.sources]
    if read and all(column.ndim == 1 and column.strides[0] == 0 for column in read):
        return {source: columns[source][:1] for source in check.sources}
    return columns


def frame_compiles(facts: Facts, frame: str | int | None) -> list[Compile]:
    """The compiles of one frame: by name, by frame id, or the first frame called."""
    known = facts.compiles
    if not known:
        raise ValueError("nothing was compiled in this session: there is no cache entry to predict")
    if frame is None:
        frame = min(c.frame_id for c in known)
    chosen = [c for c in known if frame in (c.frame_id, c.name)]
    if not chosen:
        names = sorted({c.name for c in known})
        raise ValueError(f"no compiled frame {frame!r}; frames: {', '.join(names)}")
    # torch._dynamo.reset() empties the cache and restarts frame ids: only the newest
    # generation of the frame holds entries (and an older "frame 0" may be another function).
    # A name defined again (a re-run cell) is a new frame: the newest definition answers.
    newest = frame_key(max(chosen, key=frame_key))
    return [c for c in known if frame_key(c) == newest]
