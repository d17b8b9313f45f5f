"""Fixes in the user's names where Dynamo compiled a wrapper around what the user compiled.

Behind torch's ``inner(*args, **kwargs)`` or a library decorator, an input is
``L['args'][0]`` and a fix's code reads ``maybe_mark_dynamic(args[0], 0)``; the user
passed ``x`` (``Callee.names``).  This pass gives such facts fixes whose code and
explanation say ``x``; the settings stay Dynamo's (``dynamic_sources`` matches them).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from functools import lru_cache

from symdebug.fixes.fix_code import user_name
from symdebug.model.names import shown_name
from symdebug.model.types import Facts, Fix, Symbol
from symdebug.processors.writes import Writes
from symdebug.torchtext.constants import grouped_line, library_constant


@lru_cache(maxsize=1024)
def _pattern(spelling: str) -> re.Pattern[str]:
    """``args[0]`` as a whole name: not inside ``xargs[0]`` or Dynamo's ``L['args'][0]``."""
    return re.compile(r"(?<![\w.'\"\]])" + re.escape(spelling))


def _spellings(names: Mapping[str, str]) -> list[tuple[re.Pattern[str], str]]:
    """How fix code writes each wrapper input (``args[0]``), and the user's name for it."""
    found = [(user_name(root), name) for root, name in names.items()]
    ordered = sorted((s, n) for s, n in found if s is not None and s != n)
    return [(_pattern(spelling), name) for spelling, name in reversed(ordered)]


def _said(text: str, spellings: list[tuple[re.Pattern[str], str]]) -> str:
    for pattern, name in spellings:
        text = pattern.sub(name, text)
    return text


class _Renamer:
    """One renamed copy per fix and frame, so equal fixes stay one object."""

    def __init__(self) -> None:
        self._made: dict[tuple[int, int], Fix] = {}

    def fixes(
        self, fixes: list[Fix], frame: int, spellings: list[tuple[re.Pattern[str], str]]
    ) -> list[Fix]:
        return [self._fix(fix, frame, spellings) for fix in fixes]

    def _fix(self, fix: Fix, frame: int, spellings: list[tuple[re.Pattern[str], str]]) -> Fix:
        key = (id(fix), frame)
        if key not in self._made:
            code = fix.code if fix.kind == "setting" else _said(fix.code, spellings)
            explanation = _said(fix.explanation, spellings)
            same = code == fix.code and explanation == fix.explanation
            self._made[key] = fix if same else replace(fix, code=code, explanation=explanation)
        return self._made[key]


def rename_fix_inputs(facts: Facts) -> Writes:
    """Fixes of wrapper frames' facts in the names of the compiled callable's parameters."""
    spellings = {
        c.compile_id: (c.frame_id, _spellings(c.callee.names))
        for c in facts.compiles
        if c.callee is not None and c.callee.names
    }
    writes = Writes()
    if not spellings:
        return writes
    renamer = _Renamer()
    for items in (facts.guards, facts.symbols, facts.specializations, facts.recompiles):
        renamed = [
            (item, renamer.fixes(item.fixes, *found))
            for item in items
            if (found := spellings.get(item.compile_id)) is not None and item.fixes
        ]
        rows = [(fixes, fixes[0].code) for _, fixes in renamed]
        writes.rows(("fixes", "fix"), [item for item, _ in renamed], rows)
    return writes


def name_symbols(facts: Facts) -> Writes:
    """Each symbol's sources in the user's names, and a library's constants grouped.

    ``L['x'].size()[0]`` is ``x.shape[0]``, a wrapper's ``L['args'][0].size()[0]`` the
    parameter's name; every view shows the name beside Dynamo's source.

    A library's model-configuration constants (``layer_idx``, ``head_dim``) are marked
    ``expected`` and said in one line per library on their compile, for every view.
    """
    compiles = {c.compile_id: c for c in facts.compiles}
    groups: dict[str, dict[str, list[Symbol]]] = {}  # compile id -> library -> constants
    named: list[Symbol] = []
    rows: list[tuple[list[str], str | None]] = []  # user names, expected
    for symbol in facts.symbols:
        compile_ = compiles.get(symbol.compile_id)
        if compile_ is None:
            continue
        names = compile_.callee.names if compile_.callee is not None else {}
        said = [shown_name(source, names) for source in symbol.sources]
        library = library_constant(symbol, compile_)
        named.append(symbol)
        rows.append((said if any(said) else [], library))
        if library is not None:
            groups.setdefault(symbol.compile_id, {}).setdefault(library, []).append(symbol)
    lines = [
        [grouped_line(k, v) for k, v in groups.get(c.compile_id, {}).items()]
        for c in facts.compiles
    ]
    writes = Writes().rows(("user_names", "expected"), named, rows)
    return writes.set("expected_constants", facts.compiles, lines)
