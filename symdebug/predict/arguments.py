"""Bind call arguments (tensors, shapes, ints, containers) to the sources Dynamo guards on."""

from __future__ import annotations

import ast
import dataclasses
import linecache
import re
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import torch

from symdebug.model.types import Compile, Signature
from symdebug.predict.object_paths import ObjectPaths, bind_inside

#: A tensor given by its shape: ``(17, 64)`` or ``torch.Size([17, 64])``.
Shape = tuple[int, ...]


def _contiguous_strides(shape: Sequence[int]) -> list[int]:
    strides, step = [], 1
    for size in reversed(shape):
        strides.append(step)
        step *= max(int(size), 1)
    return strides[::-1]


def _torch_instance(value: Any, name: str) -> bool:
    """Whether ``value`` is a ``torch.<name>``, torch left unimported where it is not yet.

    A session read from a log predicts without torch (importing it costs more than the
    answer); a tensor or a ``torch.Size`` in a call means torch is imported already.
    """
    wanted = getattr(sys.modules.get("torch"), name, None)
    return wanted is not None and isinstance(value, wanted)


def is_shape(value: Any) -> bool:
    """A tensor given by its shape: a ``torch.Size`` or a tuple of ints."""
    return _torch_instance(value, "Size") or (
        type(value) is tuple  # a namedtuple of ints is a value of its own
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    )


def _add_tensor(
    values: dict[str, Any], base: str, shape: Sequence[int], strides: Sequence[int]
) -> None:
    rank, sizes, steps, offset = _tensor_sources(base, len(shape))
    values[rank] = len(shape)
    values.update(zip(sizes, map(int, shape), strict=True))
    values.update(zip(steps, map(int, strides), strict=True))
    values[offset] = 0


@lru_cache(maxsize=1024)
def _tensor_sources(base: str, rank: int) -> tuple[str, tuple[str, ...], tuple[str, ...], str]:
    """The sources of a tensor's rank, sizes, strides and offset (named once, not per call)."""
    sizes = tuple(f"{base}.size()[{index}]" for index in range(rank))
    strides = tuple(f"{base}.stride()[{index}]" for index in range(rank))
    return f"ndim:{base}", sizes, strides, f"{base}.storage_offset()"


#: Where a binding keeps the object a call passes at a source (``object:L['mask']``).
OBJECT_PREFIX = "object:"
#: A tensor's dispatch keys (thread modes applied) and torch's global settings: read only
#: by a live session (:mod:`symdebug.live.program_state`), else taken as recorded.
DISPATCH_PREFIX, GLOBAL_PREFIX = "dispatch:", "global:"
#: The ``mark_dynamic`` attributes a tensor carries (``_dynamo_dynamic_indices``...).
MARKS_PREFIX = "marks:"
_MARKS = tuple(
    f"_dynamo_{kind}_indices"
    for kind in ("dynamic", "weak_dynamic", "unbacked", "strict_unbacked", "static")
)


def dynamo_marks(tensor: torch.Tensor) -> frozenset[str]:
    """The ``mark_dynamic`` (and ``mark_static``, ``mark_unbacked``) attributes it carries."""
    return frozenset(name for name in _MARKS if hasattr(tensor, name))


#: What Dynamo's ``TENSOR_MATCH`` compares besides sizes, each under ``<prefix><source>``,
#: as ``torch/_dynamo/guards.py`` (``get_tensor_guard_code_part``) prints it.
TENSOR_FACTS: dict[str, Callable[[torch.Tensor], Any]] = {
    "type:": lambda tensor: type(tensor).__qualname__,
    "dtype:": lambda tensor: str(tensor.dtype),
    "device:": lambda tensor: tensor.device.index,
    "requires_grad:": lambda tensor: bool(tensor.requires_grad),
    MARKS_PREFIX: dynamo_marks,
}
#: The class of an object a call passes (``TYPE_MATCH``): ``list``, ``collections.OrderedDict``.
CLASS_PREFIX = "class:"
#: Every prefix a binding puts before a source: facts of the object there, not the source.
FACT_PREFIXES = ("len:", "ndim:", OBJECT_PREFIX, DISPATCH_PREFIX, CLASS_PREFIX, *TENSOR_FACTS)


def class_name(value: Any) -> str:
    """As ``TYPE_MATCH`` prints a class: ``list``, ``collections.OrderedDict``."""
    cls = type(value)
    return (
        cls.__qualname__ if cls.__module__ == "builtins" else f"{cls.__module__}.{cls.__qualname__}"
    )


#: The compiled module, in the frame's locals: its state is the program's, not the call's.
RECEIVER = "L['self']"


def identity_key(source: str) -> str:
    """Where a binding keeps the object a call passes at ``source`` (for ``a is b``)."""
    return OBJECT_PREFIX + source


def is_call_argument(source: str, receiver: str = RECEIVER) -> bool:
    """Whether a source (or its ``object:`` key) is something a call passes, not the module.

    ``receiver``: where the frame holds the module (see :func:`receiver_of`).
    """
    source = source.split(":", 1)[1] if source.startswith(FACT_PREFIXES) else source
    return source.startswith("L[") and not source.startswith(receiver)


def receiver_of(compile_: Compile) -> str:
    """Where a compiled frame holds the module its method is bound to: ``L['self']``.

    Or, in a decorator's wrapper around a method (``wrapped_func(*args, **kwargs)``, as
    transformers puts around a model's ``forward``), first in ``*args``: ``L['args'][0]``,
    as the compile's callee names it.
    """
    names = compile_.callee.names if compile_.callee is not None else {}
    bound = (s for s, name in names.items() if name == "self" and s.endswith("][0]"))
    return next(bound, RECEIVER)


class GivenByShape:
    """What a call passes where a tensor is given by its shape: a tensor, but not which one.

    An ``a is b`` check on it cannot be evaluated; ``is None`` can.
    """

    __slots__ = ("shape",)

    def __init__(self, shape: Sequence[int]) -> None:
        self.shape = tuple(shape)

    def __str__(self) -> str:
        return f"a tensor {self.shape} given by its shape"


def flatten(values: dict[str, Any], base: str, value: Any, *, shapes: bool = True) -> None:
    """Record every source under ``base`` that ``value`` defines.

    The object passed is recorded too (for ``is None``, ``is True`` and ``a is b`` checks),
    and a value that is no tensor has no rank (a tensor's rank check fails on it).
    ``shapes``: a tuple of ints is a tensor given by its shape (the call as the user
    describes it); inside an object the call passes, a tuple is the tuple it holds.
    """
    if _torch_instance(value, "Tensor"):
        values[identity_key(base)] = value
        _add_tensor(values, base, value.shape, value.stride())
        values[f"{base}.storage_offset()"] = value.storage_offset()
        for prefix, read in TENSOR_FACTS.items():
            values[prefix + base] = read(value)
        values[CLASS_PREFIX + base] = class_name(value)  # a container's item is TYPE_MATCHed
        return
    if shapes and is_shape(value):
        values[identity_key(base)] = GivenByShape(value)
        _add_tensor(values, base, value, _contiguous_strides(value))
        return
    values[identity_key(base)] = value
    values[f"ndim:{base}"] = None
    values[CLASS_PREFIX + base] = class_name(value)
    if isinstance(value, bool | float | str) or value is None or isinstance(value, int):
        values[base] = value
    elif isinstance(value, Mapping):
        values[f"len:{base}"] = len(value)
        for key, item in value.items():
            flatten(values, f"{base}[{key!r}]", item, shapes=shapes)
    elif isinstance(value, list | tuple):
        values[f"len:{base}"] = len(value)
        for index, item in enumerate(value):
            flatten(values, f"{base}[{index}]", item, shapes=shapes)
        _flatten_fields(values, base, value, shapes)  # a namedtuple's items, by name too
    else:
        _flatten_fields(values, base, value, shapes)


def flatten_held(values: dict[str, Any], base: str, value: Any) -> None:
    """:func:`flatten` for what an object the call passes holds: its tuples are tuples."""
    flatten(values, base, value, shapes=False)


def _flatten_fields(values: dict[str, Any], base: str, value: Any, shapes: bool = True) -> None:
    """A namedtuple's or a dataclass's fields, as Dynamo reads them: ``L['p'].a``."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        names = [field.name for field in dataclasses.fields(value)]
    else:
        names = list(getattr(type(value), "_fields", ()))
    for name in names:
        flatten(values, f"{base}.{name}", getattr(value, name), shapes=shapes)


def bind(
    signature: Signature,
    args: Sequence[Any],
    kwargs: Mapping[str, Any],
    known: Iterable[str] = (),
    defaults: Mapping[str, Any] | None = None,
    *,
    bound_first: bool = False,
    paths: ObjectPaths | None = None,
) -> dict[str, Any]:
    """``{source: value}`` for a call ``f(*args, **kwargs)`` of a frame with ``signature``.

    A keyword that names no parameter but a module attribute or another non-argument source
    (``"self.chunk"``, ``"self.lin.weight"``, ``"L['self'].chunk"``) sets that source; ``known``
    (the sources the entries check) resolves the short spelling to torch's.  A parameter the
    call leaves out takes its value from ``defaults`` (its literal default), if there.
    ``bound_first``: the frame is a decorator's wrapper around a method, so the module the
    method is bound to comes first in ``*args`` (the call's own positional arguments after it).
    ``paths``: what the entries read inside objects the call passes (see :mod:`object_paths`).
    """
    names = list(signature.names)
    positional = names[: signature.positional]
    if positional and positional[0] == "self" and "self" not in kwargs:
        positional = positional[1:]  # a method: the module is bound, not passed
    if len(args) > len(positional) and signature.varargs is None:
        raise TypeError(f"too many positional arguments: the frame takes {positional}")
    values: dict[str, Any] = {}
    for name, value in zip(positional, args, strict=False):
        flatten(values, f"L[{name!r}]", value)
    skipped = int(bound_first and signature.varargs is not None)
    for index, value in enumerate(args[len(positional) :], start=skipped):
        flatten(values, f"L[{signature.varargs!r}][{index}]", value)
    extra = 0
    for name, value in kwargs.items():
        source = _keyword_source(signature, name, known)
        extra += source.startswith(f"L[{signature.varkw!r}][")
        flatten(values, source, value)
    passed = {*positional[: len(args)], *kwargs}
    for name, value in (defaults or {}).items():
        if name not in passed:
            flatten(values, f"L[{name!r}]", value)
    # How many the call passes through *args and **kwargs is a fact of the call too: a
    # wrapper compiled for f(x) checks len(args) == 1, which f(x=...) fails.
    if signature.varargs is not None:
        values[f"len:L[{signature.varargs!r}]"] = max(0, len(args) - len(positional)) + skipped
        values[f"{CLASS_PREFIX}L[{signature.varargs!r}]"] = "tuple"
    if signature.varkw is not None:
        values[f"len:L[{signature.varkw!r}]"] = extra
        values[f"{CLASS_PREFIX}L[{signature.varkw!r}]"] = "dict"
    if paths:
        bind_inside(values, paths, OBJECT_PREFIX, flatten_held)
    return values


def _keyword_source(signature: Signature, name: str, known: Iterable[str]) -> str:
    if name in signature.names:
        return f"L[{name!r}]"
    if is_named_source(name):
        return source_for(name, known, signature.names)
    if signature.varkw is not None:
        return f"L[{signature.varkw!r}][{name!r}]"
    glob = f"G[{name!r}]"
    if any(source_base(s).startswith(glob) for s in known):  # a global the entries check
        return glob
    raise TypeError(f"unknown argument {name!r}: the frame takes {signature.names}")


def is_named_source(name: str) -> bool:
    """Whether a keyword names a source (``self.chunk``, ``L['self'].chunk``), not a parameter."""
    return name.startswith(("L[", "G[")) or "." in name or "[" in name


_MODULE_PART = re.compile(r"\._(?:modules|parameters|buffers)\[(?P<key>'[^']*'|\"[^\"]*\")\]")
_ROOT = re.compile(r"^[LG]\[(?P<key>'[^']*'|\"[^\"]*\")\]")
_ITEM = re.compile(r"\[(?P<key>-?\d+|'[^']*'|\"[^\"]*\")\]")


def _key(match: re.Match[str]) -> str:
    return "." + str(ast.literal_eval(match["key"]))


def short_name(source: str) -> str:
    """How a user writes a source.

    ``L['self']._modules['lin']._parameters['weight']`` -> ``self.lin.weight``,
    ``L['xs'][0]`` -> ``xs.0``.
    """
    text = _MODULE_PART.sub(_key, source)
    text = _ROOT.sub(lambda m: str(ast.literal_eval(m["key"])), text)
    return _ITEM.sub(_key, text)


def source_base(source: str) -> str:
    """The object a source reads from: ``len:``, ``ndim:``, sizes and strides stripped."""
    source = source.split(":", 1)[1] if source.startswith(FACT_PREFIXES) else source
    for suffix in (".size()[", ".stride()[", ".storage_offset()"):
        if suffix in source:
            return source.rsplit(suffix, 1)[0]
    return source


_LAST_ITEM = re.compile(r"^(?P<container>.+)\[(?P<key>-?\d+|'[^']*'|\"[^\"]*\")\]$")


def missing_item(sources: Iterable[str], values: Mapping[str, Any]) -> str | None:
    """An item a check reads from a container the call passes without it, or None.

    ``L['kwargs']['attention_mask']`` when the call's ``**kwargs`` hold no such key: Dynamo's
    guard reads the key and fails (``DictGetItemGuardAccessor``), so the entry misses.
    """
    for source in sources:
        if "][" not in source:
            continue  # a root (``L['x']``) and what is read of it: no item of a container
        item = source_base(source)
        while (found := _LAST_ITEM.match(item)) is not None:
            container, key = found["container"], found["key"]
            if _absent(item, f"len:{container}", key, values):
                return item
            item = container
    return None


def _absent(item: str, length: str, key: str, values: Mapping[str, Any]) -> bool:
    """Whether a container the call passes (its length known) lacks ``item``.

    A tuple's index below its length is there, whatever the call gave for it: a wrapper's
    ``L['args'][0]`` is the module its method is bound to, known to the frame, not the call.
    """
    if length not in values or identity_key(item) in values:
        return False
    count = values[length]
    return not (key.lstrip("-").isdigit() and isinstance(count, int) and -count <= int(key) < count)


def source_for(name: str, known: Iterable[str], parameters: Sequence[str]) -> str:
    """The torch source that ``name`` (given by the caller) stands for."""
    if name.startswith(("L[", "G[")):
        return name
    wanted = short_name(name)
    for source in dict.fromkeys(map(source_base, known)):
        if short_name(source) == wanted:
            return source
    # No entry checks it: spell it as torch would an attribute chain (then nothing reads it).
    root, dot, rest = name.partition(".")
    scope = "L" if root in parameters else "G"
    return f"{scope}[{root!r}]{dot}{rest}"


def _definition(filename: str, lineno: int, name: str) -> ast.arguments | None:
    """The parameters of the function ``name`` defined at ``lineno`` of a source file."""
    lines = linecache.getlines(filename)
    if not lines:
        return None
    try:
        tree = ast.parse("".join(lines))
    except SyntaxError:
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name == name:
            first = node.decorator_list[0].lineno if node.decorator_list else node.lineno
            if lineno in (node.lineno, first):
                return node.args
    return None


@lru_cache(maxsize=256)
def signature_from_source(filename: str, lineno: int, name: str) -> Signature | None:
    """Read a frame's signature from its source file (for sessions loaded from logs).

    Remembered: every entry of a frame asks (read only, like the recorded one).
    """
    arguments = _definition(filename, lineno, name)
    return _signature(arguments) if arguments is not None else None


def frame_signature(compile_: Compile) -> Signature | None:
    """The compiled frame's parameters: as recorded live, else from its source file."""
    if compile_.signature is not None:
        return compile_.signature
    return signature_from_source(compile_.filename, compile_.lineno, compile_.name)


def defaults_from_source(filename: str, lineno: int, name: str) -> dict[str, Any]:
    """Each parameter's default, where the source writes a literal (``None``, ``False``, 2)."""
    arguments = _definition(filename, lineno, name)
    if arguments is None:
        return {}
    positional = arguments.posonlyargs + arguments.args
    with_default = positional[len(positional) - len(arguments.defaults) :]
    pairs = [
        *zip(with_default, arguments.defaults, strict=True),
        *zip(arguments.kwonlyargs, arguments.kw_defaults, strict=True),
    ]
    literals = ((p.arg, _literal(default)) for p, default in pairs if default is not None)
    return {name: value for name, value in literals if value is not _NOT_LITERAL}


def defaulted_parameters(filename: str, lineno: int, name: str) -> frozenset[str] | None:
    """The parameters the source gives a default (any, literal or not); None: source unread."""
    arguments = _definition(filename, lineno, name)
    if arguments is None:
        return None
    positional = arguments.posonlyargs + arguments.args
    with_default = positional[len(positional) - len(arguments.defaults) :]
    pairs = zip(arguments.kwonlyargs, arguments.kw_defaults, strict=True)
    keywords = [parameter for parameter, default in pairs if default is not None]
    return frozenset(parameter.arg for parameter in [*with_default, *keywords])


_NOT_LITERAL = object()


def _literal(node: ast.expr) -> Any:
    """A default's value where the source writes a literal; else :data:`_NOT_LITERAL`."""
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError):  # a call, a name: its value is not known here
        return _NOT_LITERAL


def _signature(arguments: ast.arguments) -> Signature:
    positional = [a.arg for a in arguments.posonlyargs + arguments.args]
    names = positional + [a.arg for a in arguments.kwonlyargs]
    return Signature(
        names=names,
        positional=len(positional),
        varargs=arguments.vararg.arg if arguments.vararg else None,
        varkw=arguments.kwarg.arg if arguments.kwarg else None,
    )
