"""Fixes for a ``Dim`` an export was asked to keep dynamic and the model made a constant.

``torch.export`` refuses the program (``Constraints violated (T)!``) and prints "Suggested
fixes:" (``T = 16``: the size is one value; ``T = Dim('T', max=15)``: a range).  Its fix is in
``dynamic_shapes``, not ``mark_dynamic``: the suggested ``Dim`` range, or ``Dim.AUTO`` (export
may specialize it), or a change to the line that fixed the size.
"""

from __future__ import annotations

import re

from symdebug.fixes.fix_code import user_name
from symdebug.model.types import Compile, Facts, Fix, Guard, Specialization, Symbol
from symdebug.model.values import Source
from symdebug.processors.fixes import first_line
from symdebug.processors.writes import Writes

_SUGGESTION = re.compile(r"^\s*(?P<name>\w+) = (?P<value>.+?)\s*$")
#: torch names the source of a ``Dim`` whose range the model narrowed.
_NARROWED = re.compile(r"Not all values of (?P<name>\w+) = (?P<source>\S+) in the specified range")


def suggested_fixes(reason: str) -> dict[str, str]:
    """``{Dim name: what torch suggests}`` from a ``UserError``'s "Suggested fixes:" block."""
    _, found, block = reason.partition("Suggested fixes:")
    suggestions: dict[str, str] = {}
    for line in block.splitlines() if found else []:
        match = _SUGGESTION.match(line)
        if match is None and suggestions:
            break
        if match is not None:
            suggestions[match["name"]] = match["value"]
    return suggestions


def _suggestion(spec: Specialization, suggestions: dict[str, str]) -> tuple[str, str] | None:
    """The suggestion about this size: the only one, or the one naming its value."""
    if len(suggestions) == 1:
        return next(iter(suggestions.items()))
    same = [(k, v) for k, v in suggestions.items() if v == str(spec.value)]
    return same[0] if len(same) == 1 else None


def _where(source: Source) -> tuple[str, str] | None:
    """``dynamic_shapes={"x": {1: `` and ``x.shape[1]`` for a size source, else None."""
    name = user_name(source.tensor) if source.tensor is not None else None
    if name is None or source.dim is None:
        return None
    return f'dynamic_shapes={{"{name}": {{{source.dim}: ', f"{name}.shape[{source.dim}]"


def dim_fixes(spec: Specialization, reason: str) -> list[Fix]:
    """``dynamic_shapes`` for this size: torch's suggested range, else ``Dim.AUTO``."""
    found = _where(spec.source)
    if found is None:
        return []
    where, size = found
    suggestion = _suggestion(spec, suggested_fixes(reason))
    told = f" (torch suggests {suggestion[0]} = {suggestion[1]})" if suggestion else ""
    if suggestion is not None and suggestion[1].startswith("Dim("):
        return [Fix(f"{where}{suggestion[1]}}}}}", "code", _range_text(size, told))]
    return [Fix(f"{where}Dim.AUTO}}}}", "code", _auto_text(size, spec.value, told))]


def _auto_text(size: str, value: int | str, told: str) -> str:
    return (
        f"the model fixes {size} to {value}, so export refuses a Dim for it{told}. Dim.AUTO "
        f"lets export specialize it: the exported program then accepts only {size} == "
        f"{value}. To keep it dynamic, change the line that fixed it (torch.cond for a branch)."
    )


def _range_text(size: str, told: str) -> str:
    return (
        f"the model works only for part of the sizes of {size}{told}: the exported program "
        "checks this range at every call and rejects other sizes."
    )


#: A record whose fixes change, by id: the record and its new fixes.
_Changed = dict[int, tuple[Specialization | Symbol | Guard, list[Fix]]]


def suggest_export_fixes(facts: Facts) -> Writes:
    """Replace ``mark_dynamic`` fixes by ``dynamic_shapes`` ones on exports' violated dims."""
    exports = {c.compile_id: c for c in facts.compiles if c.kind == "export"}
    changed: _Changed = {}
    for spec in facts.specializations:
        compile_ = exports.get(spec.compile_id)
        if compile_ is None or spec.cause != "mark_dynamic_violated":
            continue
        fixes = dim_fixes(spec, compile_.fail_reason or "")
        changed[id(spec)] = (spec, fixes)
        for symbol in _symbols_of(facts, compile_, spec.source):
            changed[id(symbol)] = (symbol, list(fixes))
    for compile_ in exports.values():
        _range_fixes(facts, compile_, changed)
    writes = Writes()
    for kind in (Specialization, Symbol, Guard):  # a column sets a field of one kind
        records = [(r, f) for r, f in changed.values() if type(r) is kind]
        rows = [(f, first_line(f)) for _, f in records]
        writes.rows(("fixes", "fix"), [r for r, _ in records], rows)
    return writes


def narrowed_ranges(reason: str) -> dict[Source, tuple[str, str]]:
    """``{source: (Dim name, torch's suggested Dim)}`` of each range the model narrowed."""
    suggestions = suggested_fixes(reason)
    found = {}
    for match in _NARROWED.finditer(reason):
        suggestion = suggestions.get(match["name"], "")
        if suggestion.startswith("Dim("):
            found[Source(match["source"])] = (match["name"], suggestion)
    return found


def _range_fixes(facts: Facts, compile_: Compile, changed: _Changed) -> None:
    """A narrowed ``Dim``: torch's range, first on its symbol and on the guards that narrowed it."""
    for source, (name, suggestion) in narrowed_ranges(compile_.fail_reason or "").items():
        found = _where(source)
        if found is None:
            continue
        told = f" (torch suggests {name} = {suggestion})"
        fix = Fix(f"{found[0]}{suggestion}}}}}", "code", _range_text(found[1], told))
        for record in _records_of(facts, compile_, source):
            before = changed.get(id(record), (record, record.fixes))[1]
            changed[id(record)] = (record, [fix, *before])


def _records_of(facts: Facts, compile_: Compile, source: Source) -> list[Symbol | Guard]:
    cid = compile_.compile_id
    guards = [g for g in facts.guards if g.compile_id == cid and source in g.sources]
    return [*_symbols_of(facts, compile_, source), *guards]


def _symbols_of(facts: Facts, compile_: Compile, source: Source) -> list[Symbol]:
    cid = compile_.compile_id
    return [s for s in facts.symbols if s.compile_id == cid and source in s.sources]
