"""Fixes that are torch settings or marks on an input: what ``fix_plan`` can replay."""

from __future__ import annotations

import re
from collections.abc import Callable

from symdebug.fixes.fix_code import module_attribute, size_expression, user_name
from symdebug.fixes.fix_evidence import (
    DEFAULT_RECOMPILE_LIMIT,
    DUCK_SHAPE,
    DYNAMIC_SOURCES,
    RECOMPILE_LIMIT,
    SIZE_OBLIVIOUS,
    STATIC_BY_DEFAULT,
    UNSPEC_INT_ON_MODULE,
    Evidence,
    make_fix,
    mark_call,
    markable,
    setting,
)
from symdebug.model.index import FactIndex
from symdebug.model.types import Fix, Recompile
from symdebug.model.values import Source
from symdebug.torchtext.reasons import Reason, identity_change, parse_reason


def whole_program(why: str) -> Fix:
    """``dynamic=True`` for every frame, after ``why`` (which may be empty)."""
    return setting(
        STATIC_BY_DEFAULT,
        False,
        f"{why}every size and int is dynamic from the first compile (what "
        "torch.compile(dynamic=True) does); costs: guards and general kernels for sizes that "
        "never change too.",
    )


_GLOBAL = re.compile(r"^G\[['\"](?P<name>\w+)['\"]\]$")


def _global_name(source: Source) -> str | None:
    """``SEQ`` for Dynamo's ``G['SEQ']``: a global of the compiled function's module."""
    found = _GLOBAL.match(source)
    return found["name"] if found else None


def _global_int(source: Source, name: str) -> Fix:
    return setting(
        DYNAMIC_SOURCES,
        str(source),
        f"{name} is a global of the function's module, and each of its values compiles anew "
        "(automatic dynamic does not make a global dynamic); this makes it a dynamic int (the "
        "setting names it as Dynamo does). No help where the code uses it as a Python int "
        "(a loop count, a size in a list).",
    )


def internal_name(source: Source) -> str:
    """Why a Dynamo-internal source (``___stack0``) cannot be marked by the user."""
    return (
        f"{source} is Dynamo's name for an intermediate value at a graph break: marks do not "
        "cross the eager code between graphs, so it cannot be marked; remove the graph break, "
        "or: "
    )


def static_fixes(evidence: Evidence) -> list[Fix]:
    """A size or int that was a constant on the first compile: mark it, or dynamic=True."""
    source = evidence.source
    if source is None:
        return [whole_program("")]
    if not source.is_size:
        return _static_int(source)
    marked = markable(source)
    if marked is None:
        return [whole_program(internal_name(source))]
    name, tensor, dim = marked
    mark = make_fix(
        mark_call("torch._dynamo.maybe_mark_dynamic", name, dim),
        "mark",
        f"before the first call: if nothing else forces {name}.shape[{dim}] (a branch on it, "
        "an op that needs one value), it is dynamic from the first compile and its first "
        "change needs no recompile; where the code needs one value, torch specializes it as "
        "before and the compiles stay (mark_dynamic would raise instead).",
        dynamic=f"{tensor}:{dim}",
    )
    return [mark, whole_program("")]


def _unnamed(source: Source) -> str:
    """Why no fix can name ``source``: Dynamo's own variable, or read inside an object."""
    if "___" in source:
        return internal_name(source)
    return (
        f"{source} has no name a caller can write (it is read inside an object: a config, a "
        "closure cell, a default): "
    )


def _static_int(source: Source) -> list[Fix]:
    if (global_name := _global_name(source)) is not None:
        return [_global_int(source, global_name), whole_program("")]
    name = user_name(source)
    if name is None:
        return [whole_program(_unnamed(source))]
    owned = source.attributes and module_attribute(source)
    why = (
        f"an nn.Module's int attribute stays a constant: each value of {name} compiles anew"
        if owned
        else f"ints are constants on the first compile, and automatic dynamic makes {name} "
        "dynamic after it first changes"
    )
    named = setting(
        DYNAMIC_SOURCES,
        str(source),
        f"{why}; this makes it dynamic from the first compile (the setting names the input as "
        "Dynamo does). No help when the code uses it as a Python int.",
    )
    return [named, _unspec_module_int(source) if owned else whole_program("")]


def _unspec_module_int(source: Source) -> Fix:
    name = user_name(source) or "the attribute"
    return setting(
        UNSPEC_INT_ON_MODULE,
        True,
        f"nn.Module int attributes are constants: each value of {name} compiles anew. This "
        "makes every module's int attributes dynamic ints; no help where the code uses the int "
        "as a Python int (a loop count, a size in a list).",
    )


def zero_one_fixes(evidence: Evidence) -> list[Fix]:
    """A size of 0 or 1: size-oblivious reasoning first, then a mark, then unbacked."""
    oblivious = setting(
        SIZE_OBLIVIOUS,
        True,
        "a dynamic size of 0 or 1 stays symbolic: torch reasons as if it were >= 2 wherever "
        "the result is the same, so sizes of 1 share the general graph. Costs: where the "
        "program broadcasts a size of 1 or branches on it, torch may compile again or fail "
        "at run time.",
    )
    marked = markable(evidence.source) if evidence.source is not None else None
    if marked is None:
        return [oblivious]
    name, tensor, dim = marked
    return [oblivious, _oblivious_mark(name, tensor, dim), _unbacked(name, tensor, dim)]


def _oblivious_mark(name: str, tensor: str, dim: int) -> Fix:
    return make_fix(
        f"{SIZE_OBLIVIOUS} = True\n{mark_call('torch._dynamo.maybe_mark_dynamic', name, dim)}",
        "mark",
        f"the setting, and {name}.shape[{dim}] dynamic from the first call: a mark alone does "
        "nothing for a size of 0 or 1 (the 0/1 rule specializes it anyway).",
        oblivious=True,
        dynamic=f"{tensor}:{dim}",
    )


def _unbacked(name: str, tensor: str, dim: int) -> Fix:
    return make_fix(
        mark_call("torch._dynamo.decorators.mark_unbacked", name, dim),
        "mark",
        f"{name}.shape[{dim}] gets no value at compile time at all: every branch, broadcast "
        "or op that asks whether it is 1 raises a data-dependent error or breaks the graph "
        "(on a Llama decode loop it added compiles). Try the setting first.",
        unbacked=f"{tensor}:{dim}",
    )


def duck_fixes(evidence: Evidence) -> list[Fix]:  # noqa: ARG001 - a builder's signature
    """Duck sizing: one symbol per input, not one per equal size."""
    return [
        setting(
            DUCK_SHAPE,
            False,
            "sizes that are equal on the first call get one symbol each, so a later call "
            "where they differ does not recompile; costs: torch no longer assumes they are "
            "equal (more guards where an op needs them equal).",
        )
    ]


def int_specialized_fixes(evidence: Evidence) -> list[Fix]:
    """An int used as a Python value: a module setting, or pass it as a tensor."""
    source = evidence.source
    if source is None or source.is_size:
        return []
    if source.attributes:  # an object's: a setting, not code that changes its type
        return _static_int(source)
    if (global_name := _global_name(source)) is not None:
        return [_global_int(source, global_name)]
    name = user_name(source)
    if name is None or not name.isidentifier():
        return []
    return [
        Fix(
            f"{name} = torch.as_tensor({name})",
            "code",
            f"in the caller, before the compiled call: the code uses {name} as a Python int "
            "(a loop count, an index), so each value compiles anew; pass it as a tensor and "
            "compute with tensor ops (its value is then data, not a constant). A Python loop "
            "over it cannot stay a loop: write it without one.",
        )
    ]


def _maybe_mark_instead(evidence: Evidence, why: Callable[[str, int], str]) -> list[Fix]:
    """``maybe_mark_dynamic`` in place of a mark the user wrote; ``why(name, dim)`` explains."""
    marked = markable(evidence.source) if evidence.source is not None else None
    if marked is None:
        return []
    name, _, dim = marked
    return [Fix(mark_call("torch._dynamo.maybe_mark_dynamic", name, dim), "code", why(name, dim))]


def violated_fixes(evidence: Evidence) -> list[Fix]:
    """mark_dynamic on a size the code fixes: maybe_mark_dynamic, or change the line."""
    return _maybe_mark_instead(
        evidence,
        lambda name, dim: (
            f"instead of mark_dynamic: the user line fixes {name}.shape[{dim}] to one value, "
            "which mark_dynamic turns into an error; maybe_mark_dynamic lets torch specialize "
            "it (one compile per value). Or change that line so it needs no fixed size."
        ),
    )


def _made_dynamic(recompile: Recompile, index: FactIndex) -> list[Source]:
    """Inputs constant in the failed entry and dynamic in the recompile: automatic dynamic's."""
    if recompile.failed_entry is None:
        return []
    before = index.symbols_of(recompile.failed_entry)
    constant = {s for sym in before if sym.state == "static-by-default" for s in sym.sources}
    after = index.symbols_of(recompile.compile_id)
    found = [s for sym in after if sym.state == "dynamic" for s in sym.sources if s in constant]
    return list(dict.fromkeys(found))


def became_dynamic_fix(recompile: Recompile, index: FactIndex) -> Fix | None:
    """Every input this recompile made dynamic, marked from the first call (one setting).

    Torch reports only the first failing check, but automatic dynamic makes every input that
    changed dynamic at once (a KV cache's keys and values); marking one is no help.
    """
    sources = _made_dynamic(recompile, index) if recompile.cause == "static_by_default" else []
    dims = [f"{s.tensor}:{s.dim}" for s in sources if s.tensor is not None and "___" not in s]
    if len(dims) < 2:
        return None  # one input: the recompile's own mark says it
    value = ",".join(dims)
    names = ", ".join(size_expression(s) or str(s) for s in sources)
    return setting(
        DYNAMIC_SOURCES,
        value,
        f"the inputs this recompile made dynamic all at once ({names}), dynamic from the "
        "first call; costs: the first compile is general for them too.",
    )


def limit_fix(why: str, limit: int = DEFAULT_RECOMPILE_LIMIT) -> Fix:
    """A higher ``recompile_limit`` (twice ``limit``): each variant compiles once, none eager."""
    return setting(
        RECOMPILE_LIMIT,
        2 * limit,
        f"{why}torch compiles a frame at most recompile_limit times ({limit} here), then runs "
        "it eagerly; a higher limit lets each of a few variants compile once. Costs: compile "
        "time and memory per variant, and no help when every call makes a new one.",
    )


def limit_hit_fix(recompile: Recompile, index: FactIndex) -> Fix | None:
    """For the compile torch refused at the recompile limit: the limit it hit, doubled."""
    compile_ = index.compile.get(recompile.compile_id)
    if compile_ is None or "recompile limit" not in (compile_.fail_reason or ""):
        return None
    return limit_fix("this compile hit the limit: ", max(compile_.frame_compile_id, 1))


def mark_static_fixes(evidence: Evidence) -> list[Fix]:
    """A dim the user marked static: every new size compiles again; mark it dynamic instead."""
    return _maybe_mark_instead(
        evidence,
        lambda name, dim: (
            f"instead of torch._dynamo.mark_static({name}, {dim}): a static size compiles anew "
            f"for each value of {name}.shape[{dim}]; marked dynamic, one graph serves every "
            "size (torch still specializes it where the code needs one value). No setting "
            "overrides the mark: edit that call. Costs: general kernels instead of ones for "
            "each size."
        ),
    )


def dynamic_false_fixes(evidence: Evidence) -> list[Fix]:
    """``dynamic=False``: a changing size never becomes dynamic; mark it, or raise the limit."""
    why = "under torch.compile(dynamic=False) each new value compiles again: "
    mark = _dynamic_mark(evidence.source, why) if evidence.source is not None else None
    return [mark, limit_fix(why)] if mark is not None else [limit_fix(why)]


def _dynamic_mark(source: Source, why: str) -> Fix | None:
    """The input marked dynamic from the first call: a size's mark, or an int's setting."""
    marked = markable(source) if source.is_size else None
    name = marked[0] if marked is not None else user_name(source)
    if name is None or (marked is None and source.is_size):
        return None
    code = (
        mark_call("torch._dynamo.maybe_mark_dynamic", name, marked[2])
        if marked is not None
        else f"{DYNAMIC_SOURCES} = {str(source)!r}"
    )
    dynamic = f"{marked[1]}:{marked[2]}" if marked is not None else str(source)
    return make_fix(
        code,
        "mark" if marked is not None else "setting",
        f"{why}marked, {name} is dynamic from the first call even under dynamic=False (or "
        "compile without dynamic=False). Costs: a general graph for it.",
        dynamic=dynamic,
    )


_KEYWORDS = (
    "the call passed another set of keyword arguments, and each set compiles once: expected "
    "when a first call differs from the rest (a prefill before decode steps); otherwise "
    "pass the same keywords each call. "
)


def _dict_keys(name: str | None) -> str:
    return (
        f"{name or 'the dict'} came with another number of keys, and each set of keys "
        "compiles once (the graph reads them): pass the same keys each call. "
    )


def length_fixes(evidence: Evidence) -> list[Fix]:
    """A container whose length changes: one tensor for a list of tensors, else room for each.

    ``pad_sequence`` is offered only where the guards show a list (or tuple) of tensors: on
    a dict, or a list of ints, it would raise.
    """
    name = user_name(evidence.source) if evidence.source is not None else None
    if name is not None and name.endswith("kwargs"):  # a wrapper's keyword dict
        return [limit_fix(_KEYWORDS)]
    is_dict = bool(evidence.expr) and parse_reason(evidence.expr).container == "dict"
    if is_dict or evidence.container == "dict":
        return [limit_fix(_dict_keys(name))]  # no tensor holds a dict's keys
    why = f"each length of {name or 'the container'} compiles anew: "
    if name is None or not name.isidentifier() or evidence.container != "tensors":
        return [limit_fix(why)]
    stacked = Fix(
        f"{name} = torch.nn.utils.rnn.pad_sequence({name}, batch_first=True)",
        "code",
        f"in the caller: len({name}) is a constant of the graph, so each length compiles "
        "anew; one tensor makes it a size that can be dynamic. Tensors of one shape are "
        "stacked as torch.stack would; tensors of different lengths are padded with zeros "
        "(mask them where they count: a mean, a softmax), where torch.stack would raise. "
        "Costs: a copy, and the function must index the tensor instead of looping over "
        "the list.",
    )
    return [stacked, limit_fix(why)]


#: What a graph bakes in that no dynamic size covers, and what keeps it to one compile.
_BAKED_IN = {
    "value": "the graph bakes the value in, so each value compiles once; pass the same value "
    "each call (a module's training flag: call eval() or train() once, before the loop). ",
    "rank": "a graph's number of dims is fixed, so each number compiles once; pass tensors of "
    "one rank (reshape or unsqueeze before the call). ",
}


def _train_eval_fix(reason: Reason) -> Fix:
    """``self.training`` changed: train and eval each compile once, and both stay cached."""
    module = (reason.source or "self.training").removesuffix(".training")
    was = "train" if reason.key == "True" else "eval"
    now = "eval" if was == "train" else "train"
    return Fix(
        f"{module}.{now}()",
        "code",
        f"once, outside the loop of calls: {module}.training was {reason.key} when compiled "
        f"({was} mode) and {module}.{now}() changed it; each mode compiles once and both "
        "graphs stay cached, so switching back compiles nothing. Switch modes between "
        "phases (training, then evaluation), not between calls.",
    )


def _rank_fixes(reason: Reason, changed: str) -> list[Fix]:
    """A tensor of another number of dims: fold it to the compiled rank before the call.

    A higher ``recompile_limit`` fixes nothing here: each rank is a graph of its own.
    """
    source = reason.source or ""
    name, rank = user_name(Source(source)) or source, int(reason.key or 0)
    if not name or not name.isidentifier() or rank < 1:
        return []
    kept = f", *{name}.shape[-{rank - 1}:]" if rank > 1 else ""
    return [
        Fix(
            f"{name} = {name}.reshape(-1{kept})",
            "code",
            f"{changed}: {_BAKED_IN['rank']}In the caller, before the compiled call: folding "
            f"the leading dims into the first gives every call {rank} dim(s), as compiled."
            " Costs: the function sees the folded shape; unfold its output with "
            "reshape if the caller needs the leading dims.",
        )
    ]


def identity_fixes(evidence: Evidence) -> list[Fix]:
    """An object or type check failed: say what changed; the limit bounds the variants."""
    reason = parse_reason(evidence.expr) if evidence.expr else None
    changed = identity_change(reason) if reason is not None else ""
    if reason is not None and reason.identity == "keys":
        return [
            limit_fix(
                f"{changed}: each set of keys compiles once (the graph reads them); "
                "pass the same keys each call. "
            )
        ]
    if reason is not None and (reason.source or "").endswith(".training"):
        return [_train_eval_fix(reason)]
    if reason is not None and reason.identity == "rank":
        return _rank_fixes(reason, changed)  # never the limit: each rank would compile anyway
    if reason is not None and reason.identity in _BAKED_IN:
        return [limit_fix(f"{changed}: {_BAKED_IN[reason.identity]}")]
    why = f"{changed or 'an object the graph depends on changed'}; "
    return [
        limit_fix(
            why + "torch compiles once per object or type (a graph bakes it in); pass the same "
            "object each call (create a function or functools.partial once, outside the loop). "
        )
    ]
