"""Model-configuration constants of a library: specialized ints that are expected.

A Hugging Face model reads ``layer_idx``, ``head_dim``, ``num_key_value_groups`` from its
modules and config as Python ints; Dynamo makes each a constant in every compile, with the
same fix each time.  They are what the model is, not a problem: views group them in one
line per library instead of listing each.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from symdebug.model.types import Compile, Symbol
from symdebug.torchtext.own_code import library_of

_DEFAULTS = re.compile(r"(\w+)['\"\]]*\.__defaults__")
#: In every match of ``_DEFAULTS``: a source without it needs no regex scan (which tries
#: every word position of a long attribute chain).
_DEFAULTS_LITERAL = ".__defaults__"
_LAST_ATTRIBUTE = re.compile(r"\.(\w+)$")
#: How many constant names a grouped line lists before ``...``.
NAMES_SHOWN = 4


def library_constant(symbol: Symbol, compile_: Compile) -> str | None:
    """The library whose configuration constant this specialized int is, or None.

    An int (no size) specialized as an int, read by a library's line (or by torch inside
    a compiled callable a library defines); never one the user's own code reads.
    """
    if symbol.state != "specialized" or symbol.cause != "int_specialized":
        return None
    if not symbol.sources or any(source.is_size for source in symbol.sources):
        return None
    frame = symbol.user_frame
    library = library_of(frame.filename) if frame is not None else "torch"
    if library == "torch":
        callee = compile_.callee
        library = library_of(callee.filename if callee and callee.filename else compile_.filename)
    return library if library not in (None, "torch") else None


@lru_cache(maxsize=8192)
def constant_name(source: str) -> str:
    """``head_dim`` for ``L['self']...self_attn.head_dim``; ``f default`` for a default.

    Remembered: every recompile of a model reads the same configuration.
    """
    found = _DEFAULTS.search(source) if _DEFAULTS_LITERAL in source else None
    if found is not None:
        name = found[1]
        return "a default argument" if name == "cell_contents" else f"{name} default"
    last = _LAST_ATTRIBUTE.search(source)
    return last[1] if last is not None else source


def grouped_line(library: str, symbols: Iterable[Symbol]) -> str:
    """``12 model-configuration constants of transformers (layer_idx, ...) — expected``."""
    items = list(symbols)
    names = list(dict.fromkeys(constant_name(s.sources[0]) for s in items))
    shown = ", ".join(names[:NAMES_SHOWN]) + (", ..." if len(names) > NAMES_SHOWN else "")
    count = len(items)
    plural = "constant" if count == 1 else "constants"
    return f"{count} model-configuration {plural} of {library} ({shown}) — expected"
