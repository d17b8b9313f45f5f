"""What a cache entry checks, rebuilt from the facts of its compile.

Mirrors Dynamo's guards for shapes: each tensor's rank and static dims (``TENSOR_MATCH``),
specialized ints (``EQUALS_MATCH``), and the installed shape checks (duck-sizing
equalities, range bounds, ShapeEnv guards) exactly as the guard tree prints them.
"""

from __future__ import annotations

import ast
import operator
import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from symdebug.model.index import FactIndex
from symdebug.model.own_code import library_of
from symdebug.model.reasons import Reason, parse_reason
from symdebug.model.specializations_builder import is_module_state
from symdebug.model.types import Compile, Guard, Specialization
from symdebug.model.values import Source
from symdebug.processors.bounds import bound_guard, parse_range
from symdebug.processors.recompiles import guard_for_reason
from symdebug.queries.arguments import (
    OBJECT_PREFIX,
    GivenByShape,
    identity_key,
    is_call_argument,
)
from symdebug.queries.check_eval import Evaluator, Values, compile_check, compile_scalar_check


@dataclass(slots=True)
class Check:
    """One check of an entry: what it reads, how to evaluate it, and where it came from."""

    kind: str
    text: str
    sources: list[str]
    evaluate: Evaluator
    guard: Guard | None = None
    specialization: Specialization | None = None
    cause: str = "unknown"
    #: The same check on one call's Python ints (no arrays); None: ``evaluate`` serves both.
    evaluate_one: Evaluator | None = None
    #: The file of the line that made the check, as torch noted it beside the check.
    read_in: str | None = None
    #: Whether the compiled frame is a library's code (``GPT2LMHeadModel.forward``).
    library_frame: bool = False

    @property
    def program_state(self) -> bool:
        """Whether the check reads the program rather than a value a call passes.

        Module parameters and buffers (their sizes), functions' defaults and closures,
        classes and object identity (``a is b``) stay as recorded unless the program itself
        changes: a prediction for the same program takes them as they were.
        """
        if self.kind in ("identity", "value") and any(map(is_call_argument, self.sources)):
            return False  # which object, or value, a call passes is a fact of the call
        if self.kind == "identity" or " is " in self.text:
            return True
        if any(part in self.text for part in _PROGRAM_PARTS):
            return True
        if self.sources and all(map(is_module_state, self.sources)):
            return True
        return self._library_configuration()

    def _library_configuration(self) -> bool:
        """A module's setting that only a library's own code reads.

        ``conv.groups`` or ``len(conv.stride)``, read in ``torch/nn/modules/conv.py``; a
        Hugging Face model's ``config.n_layer`` read in ``transformers``: what the model was
        built as, like its parameters' sizes.  A module attribute the user's own code reads
        (``self.chunk``) may change between calls and stays a value to give, as does every
        argument of the call.
        """
        found = self.guard or self.specialization
        frame = found.user_frame if found is not None else None
        read_in = self.read_in or (frame.filename if frame is not None else None)
        if read_in is None or library_of(read_in) is None:
            return False
        return bool(self.sources) and all(
            _module_setting(source, own=self.library_frame) for source in self.sources
        )


def _module_setting(source: str, *, own: bool) -> bool:
    """Whether a source is a module's setting, never a size.

    A submodule's (``len(L['self']._modules['c1'].stride)``), or, when ``own`` (the frame
    is a library's), the module's own (``L['self'].config.n_layer``).
    """
    read = source.removeprefix("len:").removeprefix(OBJECT_PREFIX)
    if not read.startswith(_MODULE) or Source(read).is_size:
        return False
    return read.startswith(_SUBMODULE) or (own and len(read) > len(_MODULE))


_MODULE = "L['self']"
_SUBMODULE = "L['self']._modules["
#: Parts of a source that reach into code, not data (Dynamo guards them as ``ID_MATCH``,
#: ``EQUALS_MATCH`` on ``__defaults__``, ``len(...__defaults__)``).
_PROGRAM_PARTS = (
    "__defaults__",
    "__kwdefaults__",
    "__closure__",
    "cell_contents",
    "__code__",
    "__class__",
    "__dict__",
    "__mro__",
    "__globals__",
    "type(",
)


@dataclass(slots=True)
class EntryModel:
    """All checks of one compile (one cache entry), in the order Dynamo runs them."""

    compile_id: str
    checks: list[Check] = field(default_factory=list)
    unparsed: list[str] = field(default_factory=list)


def _equals(source: str, value: int | str) -> Evaluator:
    return lambda values: np.asarray(values[source]) == value


def _equals_one(source: str, value: int | str) -> Evaluator:
    return lambda values: values[source] == value


def _rank_checks(compile_: Compile) -> list[Check]:
    ranks: dict[str, int] = {}
    for dim in compile_.inputs:
        if ".size()[" in dim.source:
            base = dim.source.rsplit(".size()[", 1)[0]
            ranks[base] = ranks.get(base, 0) + 1
    return [
        Check(
            "ndim",
            f"{base}.dim() == {rank}",
            [f"ndim:{base}"],
            _equals(f"ndim:{base}", rank),
            evaluate_one=_equals_one(f"ndim:{base}", rank),
        )
        for base, rank in ranks.items()
    ]


def _static_checks(compile_: Compile, specs: dict[str, Specialization]) -> list[Check]:
    checks = []
    for dim in compile_.inputs:
        if dim.symbolic:
            continue
        spec = specs.get(dim.source)
        kind = "static_dim" if ".size()[" in dim.source else "int_equals"
        check = Check(
            kind,
            f"{dim.source} == {dim.value}",
            [dim.source],
            _equals(dim.source, dim.value),
            evaluate_one=_equals_one(dim.source, dim.value),
        )
        check.specialization, check.cause = spec, spec.cause if spec else "unknown"
        checks.append(check)
    return checks


def _range_checks(code: str, kind: str, guards: list[Guard]) -> list[Check] | None:
    """``lo <= src <= hi`` as two checks, each with the cause of its own bound.

    The middle can be an expression (Inductor's ``s0*s1 <= 4096`` prints as
    ``L['x'].size()[1]*L['x'].size()[0] <= 4096``): it is evaluated like any shape check.
    """
    parsed = parse_range(code)
    if parsed is None:
        return None
    source, lower, upper = parsed
    try:
        value, sources = compile_check(source)
        value_one = compile_scalar_check(source)
    except SyntaxError:
        return None
    checks = []
    for bound, is_lower in ((lower, True), (upper, False)):
        if bound is None:
            continue
        guard = bound_guard(guards, source, bound, lower=is_lower)
        guard = guard or _expression_guard(guards, sources, bound)
        text = f"{bound} <= {source}" if is_lower else f"{source} <= {bound}"
        cause = guard.cause if guard else "unknown"
        if is_lower and kind == "zero_one" and bound == 2:
            cause, guard = "zero_one", None
        evaluate = _at_least(value, bound) if is_lower else _at_most(value, bound)
        one = _at_least_one(value_one, bound) if is_lower else _at_most_one(value_one, bound)
        checks.append(Check("range", text, sources, evaluate, guard, cause=cause, evaluate_one=one))
    return checks


def _expression_guard(guards: list[Guard], sources: list[str], bound: int) -> Guard | None:
    """The guard that bounds an expression (``s27*s77 <= 4096``): on all its sources."""
    wanted = set(sources)
    for guard in guards:
        names = set(guard.sources) | {s.stripped for s in guard.sources}
        if (
            len(wanted) > 1
            and wanted <= names
            and re.search(rf"(?<![\d.]){bound}(?!\d)", guard.expr)
        ):
            return guard
    return None


def _at_least(value: Evaluator, bound: int) -> Evaluator:
    return lambda values: np.asarray(value(values)) >= bound


def _at_most(value: Evaluator, bound: int) -> Evaluator:
    return lambda values: np.asarray(value(values)) <= bound


def _at_least_one(value: Evaluator, bound: int) -> Evaluator:
    return lambda values: value(values) >= bound


def _at_most_one(value: Evaluator, bound: int) -> Evaluator:
    return lambda values: value(values) <= bound


def _shape_checks(compile_: Compile, guards: list[Guard], unparsed: list[str]) -> list[Check]:
    checks = []
    for shape_check in compile_.shape_checks:
        reason = parse_reason(f"{shape_check.code}  # {shape_check.note}")
        ranges = _range_checks(shape_check.code, reason.kind, guards)
        if ranges is not None:
            checks += [_with_reason_guard(check, reason, guards) for check in ranges]
            continue
        identity = identity_check(shape_check.code)
        if identity is not None:
            checks.append(identity)
            continue
        try:
            evaluate, sources = compile_check(shape_check.code)
            one = compile_scalar_check(shape_check.code)
        except SyntaxError:
            unparsed.append(shape_check.code)
            continue
        guard = guard_for_reason(reason, guards)
        kind = "duck_sizing" if reason.kind == "duck_sizing" else "shape_guard"
        cause = guard.cause if guard else ("duck_sizing" if kind == "duck_sizing" else "unknown")
        checks.append(
            Check(
                kind,
                shape_check.code,
                sources,
                evaluate,
                guard,
                cause=cause,
                evaluate_one=one,
                read_in=reason.user_file,
            )
        )
    return checks


_IDENTITY = re.compile(r"^(?P<left>[LG]\[.+?) is (?P<negated>not )?(?P<right>[LG]\[.+)$")


def identity_check(code: str) -> Check | None:
    """``L['a'] is L['b']`` (Dynamo's aliasing check) as a check on the objects a call passes.

    Which objects a call passes is a fact of the call: tensors given as tensors tell it,
    tensors given by their shapes do not (the check then stays unknown).
    """
    found = _IDENTITY.match(code)
    if found is None:
        return None
    left, right = identity_key(found["left"]), identity_key(found["right"])
    negated = bool(found["negated"])

    def evaluate_one(values: Values) -> bool:
        return (_known(values[left]) is _known(values[right])) != negated

    def evaluate(values: Values) -> Any:
        same = _SAME(_objects(values[left]), _objects(values[right]))
        return np.asarray(same, dtype=bool) != negated

    return Check("identity", code, [left, right], evaluate, evaluate_one=evaluate_one)


def _known(value: Any) -> Any:
    """The object a call passes; a tensor given by its shape is none in particular."""
    if isinstance(value, GivenByShape):
        raise LookupError("which tensor a shape stands for is not known")  # noqa: TRY004
    return value


def _objects(column: Any) -> np.ndarray:
    objects = np.asarray(column, dtype=object)
    for value in objects.flat:
        _known(value)
    return objects


#: ``a is b`` element by element, for columns of the objects many calls pass.
_SAME = np.frompyfunc(operator.is_, 2, 1)
_VALUE = re.compile(r"^(?P<source>[LG]\[.+?) (?:is (?P<none>None)|== (?P<literal>.+))$")


def value_check(code: str, note: str = "") -> Check | None:
    """A check on a value a call passes, as Dynamo's ``NONE_MATCH`` and ``TRUE_MATCH`` run it.

    ``is None`` and ``== True`` compare the object itself (``1`` is not ``True``); a string or
    float is compared by type and value.
    """
    found = _VALUE.match(code)
    if found is None:
        return None
    literal = None if found["none"] else ast.literal_eval(found["literal"])
    source = found["source"]
    read_in = parse_reason(f"{code}  # {note}").user_file
    if literal is None or isinstance(literal, bool):
        key = identity_key(source)
        one, many = _is_object(key, literal), _is_object_column(key, literal)
    else:
        key = source
        one, many = _equals_typed(key, literal), _equals(key, literal)
    return Check("value", code, [key], many, evaluate_one=one, read_in=read_in)


def _is_object(key: str, wanted: object) -> Evaluator:
    return lambda values: values[key] is wanted


def _is_object_column(key: str, wanted: object) -> Evaluator:
    def evaluate(values: Values) -> Any:
        held = np.empty((), dtype=object)
        held[()] = wanted
        return np.asarray(_SAME(np.asarray(values[key], dtype=object), held), dtype=bool)

    return evaluate


def _equals_typed(key: str, wanted: object) -> Evaluator:
    return lambda values: type(values[key]) is type(wanted) and values[key] == wanted


def _with_reason_guard(check: Check, reason: Reason, guards: list[Guard]) -> Check:
    """A bound on an expression names no single source: find its guard by torch's note."""
    if check.guard is None and check.cause == "unknown":
        check.guard = guard_for_reason(reason, guards)
        check.cause = check.guard.cause if check.guard else "unknown"
    return check


def _value_checks(compile_: Compile, unparsed: list[str]) -> list[Check]:
    """The checks on values the call passes.

    Those on the program's own objects (a module's flag, a library's registry) are left as
    recorded, as they were before torch's value checks were read.
    """
    checks = []
    for item in compile_.value_checks:
        if not _of_the_call(item.code, compile_):
            continue
        try:
            check = value_check(item.code, item.note)
        except (ValueError, SyntaxError, TypeError):
            check = None
        if check is None:
            unparsed.append(item.code)
        else:
            checks.append(check)
    return checks


_ROOT_NAME = re.compile(r"^L\[(?P<quote>['\"])(?P<name>\w+)(?P=quote)\]")


def _of_the_call(code: str, compile_: Compile) -> bool:
    """Whether a check reads a parameter's value, not code the frame reaches through one.

    ``L['mask'] is None`` is; ``L['func'].__closure__[1]...`` (a wrapper's free variable)
    and ``L['self'].training`` (the module) are not.
    """
    root = _ROOT_NAME.match(code)
    if root is None or root["name"] == "self" or any(p in code for p in _PROGRAM_PARTS):
        return False
    signature = compile_.signature
    if signature is None:
        return True
    return root["name"] in (*signature.names, signature.varargs, signature.varkw)


def entry_model(index: FactIndex, compile_: Compile) -> EntryModel:
    """The checks of one compiled entry."""
    cid = compile_.compile_id
    specs: dict[str, Specialization] = {s.source: s for s in index.specializations_of(cid)}
    guards = [g for g in index.guards_of(cid) if g.status == "installed"]
    model = EntryModel(cid)
    model.checks = _rank_checks(compile_) + _static_checks(compile_, specs)
    model.checks += _shape_checks(compile_, guards, model.unparsed)
    model.checks += _value_checks(compile_, model.unparsed)
    defined_in = compile_.callee.filename if compile_.callee else None
    library = library_of(defined_in or compile_.filename) not in (None, "torch")
    for check in model.checks:
        check.library_frame = library
    return model
