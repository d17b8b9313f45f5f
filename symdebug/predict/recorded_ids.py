"""Which class, or which object, a call passes: compared by the id torch recorded.

Dynamo's ``___check_type_id(L['cfg'], 1402...)`` compares ``id(type(cfg))`` with the id the
class had when the entry was compiled, and ``___check_obj_id`` compares ``id(obj)``.  Ids
belong to the process that compiled: a live session compares them as torch does, so two
classes both named ``Config`` (defined twice, or again in a notebook cell) are told apart.
A session from a log or a saved file compares names: where two entries of the frame were
compiled for two classes of one name, the name cannot tell which a call passes, so the check
is not evaluated and the answer is unsure.
"""

from __future__ import annotations

import re
from collections import defaultdict
from typing import Any

import numpy as np

from symdebug.predict.arguments import CLASS_PREFIX, GivenByShape, identity_key
from symdebug.predict.check import Check
from symdebug.predict.check_eval import Evaluator, Values
from symdebug.predict.entry_model import EntryModel
from symdebug.predict.value_checks import once_for_every_call

#: ``ID_MATCH`` on what a call passes, as the guard tree prints it (kept unparsed until now).
_OBJECT_ID = re.compile(
    r"^___check_obj_id\((?P<source>L\[.+?), (?P<id>\d+)\)(?:, type=<class '(?P<name>[^']*)'>)?$"
)


def compare_ids(models: list[EntryModel], *, live: bool) -> None:
    """Make the frame's class and object checks compare ids (live) or say where names clash."""
    if not live:
        _unsure_where_names_clash(models)
        return
    for model in models:
        for check in model.checks:
            if _records_class(check):
                _by_type_id(check)
        found = [(code, object_id_check(code)) for code in model.unparsed]
        model.checks += [check for _, check in found if check is not None]
        model.unparsed = [code for code, check in found if check is None]


def _records_class(check: Check) -> bool:
    return check.recorded_id is not None and check.sources[0].startswith(CLASS_PREFIX)


def _class_named(check: Check) -> str:
    """The class name a ``type(L['cfg']) is Config`` check wants."""
    return check.text.rsplit(" is ", 1)[1]


def _object(value: Any) -> Any:
    """The object a call passes; a tensor given by its shape is none in particular."""
    if isinstance(value, GivenByShape):
        raise LookupError("which object a shape stands for is not known")  # noqa: TRY004
    return value


def _by_type_id(check: Check) -> None:
    """Compare ``id(type(obj))``, as torch does; by name where the call binds no object.

    A wrapper's ``*args`` and ``**kwargs`` are bound by their class alone (a tuple, a dict).
    """
    key, name, recorded = check.sources[0], _class_named(check), check.recorded_id
    held = identity_key(key.removeprefix(CLASS_PREFIX))
    by_name_one, by_name = check.evaluate_one or check.evaluate, check.evaluate

    def same(values: Values) -> bool:
        return id(type(_object(values[held]))) == recorded

    each = once_for_every_call([held], same)
    check.evaluate_one = lambda values: same(values) if held in values else by_name_one(values)
    check.evaluate = lambda values: each(values) if held in values else by_name(values)
    check.shown = lambda values: {key: _class_seen(values[key], name)}


def _class_seen(now: Any, name: str) -> str:
    """How a failure shows the class a call passes: another of the same name says so."""
    return f"{now}, another class of that name" if now == name else str(now)


def object_id_check(code: str) -> Check | None:
    """``___check_obj_id(L['fn'], 1407...)``: the call passes the very object compiled for."""
    found = _OBJECT_ID.match(code)
    if found is None:
        return None
    source, recorded = found["source"], int(found["id"])
    held = identity_key(source)

    def same(values: Values) -> bool:
        return id(_object(values[held])) == recorded

    text = f"{source} is the {found['name'] or 'object'} at {recorded:#x}"
    check = Check("identity", text, [held], once_for_every_call([held], same), cause="identity")
    check.evaluate_one, check.recorded_id = same, recorded
    check.shown = lambda values: {source: _object_seen(values[held])}
    return check


def _object_seen(value: Any) -> str:
    return f"another {type(value).__qualname__} at {id(value):#x}"


def _unsure_where_names_clash(models: list[EntryModel]) -> None:
    """Checks on one source and class name whose entries recorded different class ids."""
    classed = [(m.compile_id, c) for m in models for c in m.checks if _records_class(c)]
    ids: dict[tuple[str, str], set[int | None]] = defaultdict(set)
    for _, check in classed:
        ids[check.sources[0], _class_named(check)].add(check.recorded_id)
    for compile_id, check in classed:
        if len(ids[check.sources[0], _class_named(check)]) > 1:
            _unsure_by_name(check, compile_id)


def _unsure_by_name(check: Check, compile_id: str) -> None:
    """A class of the entry's name may be the entry's or the other's: not evaluated then."""
    key, name = check.sources[0], _class_named(check)
    source = key.removeprefix(CLASS_PREFIX)
    check.text = f"type({source}) is the {name} that {compile_id} was compiled for"
    check.evaluate_one, check.evaluate = _other_name(key, name), _other_names(key, name)
    check.like_recorded = False  # not assumed: the answer says it could not tell


def _other_name(key: str, name: str) -> Evaluator:
    def differs(values: Values) -> bool:
        if values[key] == name:
            raise LookupError("which class of that name the call passes")
        return False

    return differs


def _other_names(key: str, name: str) -> Evaluator:
    def differ(values: Values) -> Any:
        named = np.asarray(values[key] == name, dtype=bool)
        if named.any():
            raise LookupError("which class of that name the calls pass")
        return named

    return differ
