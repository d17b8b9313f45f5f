"""Checks on the values a call passes beyond sizes, as Dynamo runs them.

``None``, bools, strings and floats (``NONE_MATCH``, ``TRUE_MATCH``, ``EQUALS_MATCH``), which
keywords (``DICT_CONTAINS``) and which objects (``a is b``, an aliasing guard).

What a call passes is bound by :func:`symdebug.predict.arguments.bind`, the object itself
under ``object:<source>``; a tensor given by its shape is a tensor, but not which one.
"""

from __future__ import annotations

import ast
import math
import operator
import re
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from symdebug.model.types import Compile
from symdebug.predict.arguments import (
    CLASS_PREFIX,
    RECEIVER,
    GivenByShape,
    frame_signature,
    identity_key,
    receiver_of,
)
from symdebug.predict.check import PROGRAM_PARTS, Check
from symdebug.predict.check_eval import (
    Evaluator,
    Values,
    equals_column,
    equals_one,
    per_value_column,
    typed_equals_column,
)
from symdebug.torchtext.reasons import parse_reason

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


_CONTAINS = re.compile(
    r"^(?P<negated>not )?___dict_contains\("
    r"(?P<key>'[^']*'|\"[^\"]*\"|-?\d+), (?P<source>[LG]\[.+)\)$"
)


def contains_check(code: str, note: str = "") -> Check | None:
    """``not ___dict_contains('use_cache', L['kwargs'])``: whether a call passes that key.

    Known when the call gives the dict (its length is bound): each key it passes is bound.
    """
    found = _CONTAINS.match(code)
    if found is None:
        return None
    container = found["source"]
    item = identity_key(f"{container}[{ast.literal_eval(found['key'])!r}]")
    negated = bool(found["negated"])

    def evaluate(values: Values) -> bool:
        return (item in values) != negated

    read_in = parse_reason(f"{code}  # {note}").user_file
    return Check("value", readable(code), [f"len:{container}"], evaluate, read_in=read_in)


def readable(code: str) -> str:
    """Dynamo's ``not ___dict_contains('k', d)`` as Python: ``'k' not in d``."""
    found = _CONTAINS.match(code)
    if found is None:
        return code
    return f"{found['key']} {'not in' if found['negated'] else 'in'} {found['source']}"


_CLASS = re.compile(r"^type\((?P<source>L\[.+?)\) is (?P<name>[\w.<>]+)$")


def class_check(
    code: str, note: str = "", type_ids: Mapping[str, int] | None = None
) -> Check | None:
    """``type(L['xs']) is list``: the class of an object the call passes, as ``TYPE_MATCH``.

    Compared by name; ``type_ids`` (the compile's) keep the id torch compared, for a live
    session to compare (:mod:`symdebug.predict.recorded_ids`).
    """
    found = _CLASS.match(code)
    if found is None:
        return None
    key, name = CLASS_PREFIX + found["source"], found["name"]
    read_in = parse_reason(f"{code}  # {note}").user_file
    # A tensor given by its shape tells no class: like the recorded one, listed as assumed.
    return Check(
        "value",
        code,
        [key],
        equals_column(key, name),
        evaluate_one=equals_one(key, name),
        read_in=read_in,
        like_recorded=True,
        assumption=f"{found['source']} is a {name}, as recorded",
        cause="identity",  # as torch's reason for a failed ``___check_type_id`` is classed
        recorded_id=(type_ids or {}).get(found["source"]),
    )


def value_check(code: str, note: str = "") -> Check | None:
    """A check on a value a call passes, as Dynamo's ``NONE_MATCH`` and ``TRUE_MATCH`` run it.

    ``is None`` and ``== True`` compare the object itself (``1`` is not ``True``); a string or
    float is compared by type and value; ``___dict_contains`` asks for a key.
    """
    found = _VALUE.match(code)
    if found is None:
        return contains_check(code, note)
    literal = None if found["none"] else ast.literal_eval(found["literal"])
    source = found["source"]
    read_in = parse_reason(f"{code}  # {note}").user_file
    if literal is None or isinstance(literal, bool):
        key = identity_key(source)
        one, many = _is_object(key, literal), _is_object_column(key, literal)
    else:
        key = source
        one, many = _equals_typed(key, literal), typed_equals_column(key, literal)
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


def value_checks(compile_: Compile, unparsed: list[str]) -> list[Check]:
    """The checks on values: those the call passes, and the program's own.

    A module's flag (``L['self']._modules['drop'].training == True``) or a global is a
    value like a module's int: given by name (or read from a live module), or taken as
    recorded where only a library reads it.  What no call can give (a library's registry,
    a closure, a wrapper's free variable) is taken as recorded.
    """
    checks = []
    for item in compile_.value_checks:
        modelled = (
            nan_check(item.code, item.note)
            or aliasing_check(item.code)
            or attribute_check(item.code)
        )
        if modelled is not None:
            checks.append(modelled)
            continue
        typed = class_check(item.code, item.note, compile_.type_ids)
        if typed is not None and not _of_another_frame(item.code, compile_):
            checks.append(typed)
            continue
        program = _reaches(item.code) or _of_another_frame(item.code, compile_)
        check = None if program else _parsed_value_check(item.code, item.note)
        if check is not None:
            checks.append(check)
        elif _of_the_call(item.code, compile_):
            unparsed.append(item.code)
        else:
            checks.append(_as_recorded(item.code))
    return checks


_NAN = re.compile(r"^\(type\((?P<source>[LG]\[.+?)\) is float and __math_isnan\((?P=source)\)\)$")


def nan_check(code: str, note: str = "") -> Check | None:
    """``FLOAT_IS_NAN``: a float argument compiled as NaN serves only a float NaN."""
    found = _NAN.match(code)
    if found is None:
        return None
    source = found["source"]

    def holds(value: Any) -> bool:
        plain = value.item() if isinstance(value, np.generic) else value
        return type(plain) is float and math.isnan(plain)

    text = f"type({source}) is float and math.isnan({source})"
    read_in = parse_reason(f"{code}  # {note}").user_file
    one = per_value_one(source, holds)
    return Check(
        "value", text, [source], per_value_column(source, holds), evaluate_one=one, read_in=read_in
    )


_ALIASING = re.compile(r"^check_no_aliasing\((?P<sources>[LG]\[.+)\)$")


def aliasing_check(code: str) -> Check | None:
    """``NO_TENSOR_ALIASING``: the entry's tensors are distinct objects, as when compiled.

    Tensors the call passes tell it; each shape given describes a tensor of its own (a call
    passing one tensor twice gives it twice, and an entry compiled so checks ``a is b``); a
    module's tensor that is not given (a session from a log) is taken as recorded.
    """
    found = _ALIASING.match(code)
    if found is None:
        return None
    keys = [identity_key(source) for source in found["sources"].split(", ")]

    def distinct(values: Values) -> bool:
        objects = [values[key] for key in keys]
        return len({id(obj) for obj in objects}) == len(objects)

    text = f"the tensors {', '.join(found['sources'].split(', '))} are distinct objects"
    # A module's tensor a log cannot show (not given): distinct from the call's, as recorded.
    each = once_for_every_call(keys, distinct)
    return Check(
        "identity", text, keys, each, evaluate_one=distinct, like_recorded=True, assumption=text
    )


_HASATTR = re.compile(r"^(?P<negated>not )?hasattr\((?P<source>L\[.+?), (?P<name>'\w+')\)$")


def attribute_check(code: str) -> Check | None:
    """``HASATTR`` and ``NO_HASATTR`` on an object the call passes (``not hasattr(x, 'jax')``).

    Read on the object itself; a tensor given by its shape is taken to be like the recorded
    one (listed as assumed).
    """
    found = _HASATTR.match(code)
    if found is None or found["source"].startswith(RECEIVER):
        return None
    key, name = identity_key(found["source"]), ast.literal_eval(found["name"])
    negated = bool(found["negated"])

    def holds(values: Values) -> bool:
        return hasattr(_known(values[key]), name) != negated

    text = f"{'not ' if negated else ''}hasattr({found['source']}, {found['name']})"
    each = once_for_every_call([key], holds)
    return Check(
        "value", text, [key], each, evaluate_one=holds, like_recorded=True, assumption=text
    )


def once_for_every_call(keys: list[str], one: Evaluator) -> Evaluator:
    """A check on objects, over many calls: evaluated once where every call passes the same.

    Objects that vary between the calls are not evaluated (``LookupError``: not given).
    """

    def evaluate(values: Values) -> Any:
        columns = [np.asarray(values[key], dtype=object) for key in keys]
        if any(column.ndim and column.size > 1 and any(column.strides) for column in columns):
            raise LookupError("objects that vary between the calls")
        return np.asarray(one({k: c.flat[0] for k, c in zip(keys, columns, strict=True)}))

    return evaluate


def per_value_one(source: str, holds: Callable[[Any], bool]) -> Evaluator:
    """``holds`` of one call's value of ``source``."""
    return lambda values: holds(values[source])


def _parsed_value_check(code: str, note: str) -> Check | None:
    try:
        return value_check(code, note)
    except (ValueError, SyntaxError, TypeError):
        return None


def _reaches(code: str) -> bool:
    """Whether a check reaches into code or a class (defaults, closures), not data."""
    return any(part in code for part in PROGRAM_PARTS)


def _as_recorded(code: str) -> Check:
    """A check on the program that no call gives: listed with what is taken as recorded."""
    return Check("value", readable(code), [f"program:{code}"], _never, program=True)


def _never(values: Values) -> Any:  # noqa: ARG001 - an evaluator's signature
    raise LookupError("the program's own state is taken as recorded")


_ROOT_NAME = re.compile(r"(?<![\w\]])L\[(?P<quote>['\"])(?P<name>\w+)(?P=quote)\]")


def _of_another_frame(code: str, compile_: Compile) -> bool:
    """A local that is no parameter (a wrapper's free variable, ``L['func']``)."""
    root = _ROOT_NAME.search(code)
    signature = frame_signature(compile_)
    if root is None or root["name"] == "self" or signature is None:
        return False
    return root["name"] not in (*signature.names, signature.varargs, signature.varkw)


def _of_the_call(code: str, compile_: Compile) -> bool:
    """Whether a check reads a parameter's value, not code the frame reaches through one.

    ``L['mask'] is None`` is; ``L['func'].__closure__[1]...`` (a wrapper's free variable)
    and ``L['self'].training`` (the module) are not.
    """
    root = _ROOT_NAME.search(code)
    if root is None or root["name"] == "self" or any(p in code for p in PROGRAM_PARTS):
        return False
    receiver = receiver_of(compile_)
    if receiver != RECEIVER and code.startswith(receiver, root.start()):
        return False  # a wrapper's module, read as ``L['self']`` would be
    signature = frame_signature(compile_)
    if signature is None:
        return True
    return root["name"] in (*signature.names, signature.varargs, signature.varkw)
