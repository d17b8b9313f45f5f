"""Where the ranks of a distributed job diverge, frame by frame and compile by compile.

Compiles, specializations, recompiles, guards and graph breaks are compared.  Ranks that
run the same program should compile the same graphs; one that saw another batch size
recompiles, and every rank then waits for it.  For each frame this finds the first compile
where the ranks differ, what differs, and which ranks are the odd ones out (those off the
most common value).  Frames are matched by what was compiled and where
(``Encoder.forward (model.py:12)``): frame ids follow each rank's own order.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from symdebug.model.index import FactIndex
from symdebug.model.names import frame_title
from symdebug.model.types import Compile, Facts

#: What is compared of one compile, in this order: the first that differs is reported.
Aspect = Callable[[FactIndex, Compile], str]


def _recompile(index: FactIndex, compile_: Compile) -> str:
    recompile = index.recompile.get(compile_.compile_id)
    if recompile is None:
        return "first compile"
    reason = recompile.reasons[0] if recompile.reasons else ""
    return f"recompiled ({recompile.cause}): {reason}"


def _specializations(index: FactIndex, compile_: Compile) -> str:
    specs = index.specializations_of(compile_.compile_id)
    return ", ".join(sorted(f"{s.source} = {s.value}" for s in specs)) or "none"


def _dynamic(index: FactIndex, compile_: Compile) -> str:
    symbols = index.symbols_of(compile_.compile_id)
    dynamic = {str(source) for s in symbols if s.state != "specialized" for source in s.sources}
    return ", ".join(sorted(dynamic)) or "none"


def _guards(index: FactIndex, compile_: Compile) -> str:
    guards = [g for g in index.guards_of(compile_.compile_id) if g.status == "installed"]
    causes = Counter(g.cause for g in guards)
    return ", ".join(f"{cause} {n}" for cause, n in sorted(causes.items())) or "none"


def _breaks(index: FactIndex, compile_: Compile) -> str:
    breaks = index.graph_breaks.get(compile_.compile_id, [])
    return "; ".join(sorted(f"{b.reason} at {b.where}" for b in breaks)) or "none"


ASPECTS: dict[str, Aspect] = {
    "recompile": _recompile,
    "specializations": _specializations,
    "dynamic sizes": _dynamic,
    "graph breaks": _breaks,
    "installed guards": _guards,
}


@dataclass(slots=True)
class RankDifference:
    """The first compile of a frame where the ranks differ, and how."""

    frame: str
    #: The compile's number in its frame (0: the first compile, 1: the first recompile).
    number: int
    aspect: str
    #: Each rank's value (``"absent"``: the rank made no such compile).
    values: dict[int, str]
    #: The ranks off the most common value (all of them when no value is most common).
    odd_ranks: list[int]
    #: The name of each log that is no rank of its own (``rank 0 (second log)``).
    labels: dict[int, str] = field(default_factory=dict)

    def __str__(self) -> str:
        said = {r: self._said(v) for r, v in self.values.items()}
        odd = "; ".join(f"{rank_name(r, self.labels)}: {said[r]}" for r in self.odd_ranks)
        others = [r for r in sorted(said) if r not in self.odd_ranks]
        rest = f"; {_ranks_named(others, self.labels)}: {said[others[0]]}" if others else ""
        return (
            f"  {self.frame}: first differs at compile #{self.number} ({self.aspect}): {odd}{rest}"
        )

    def _said(self, value: str) -> str:
        return f"no compile #{self.number}" if value == "absent" else value


@dataclass(slots=True)
class Divergence:
    """How the ranks of one job differ (see :func:`divergence`)."""

    ranks: list[int]
    #: Frame -> rank -> compiles of that frame on that rank (the rank matrix).
    compiles: dict[str, dict[int, int]] = field(default_factory=dict)
    differences: list[RankDifference] = field(default_factory=list)
    #: The name of each log that is no rank of its own (``rank 0 (second log)``).
    labels: dict[int, str] = field(default_factory=dict)

    @property
    def odd_ones(self) -> list[int]:
        """The ranks that are odd in any frame, most often odd first."""
        counts = Counter(r for d in self.differences for r in d.odd_ranks)
        return [rank for rank, _ in counts.most_common()]

    def __str__(self) -> str:
        if not self.differences:
            return f"{_ranks_named(self.ranks, self.labels)} compiled alike (no frame differs)"
        odd = ", ".join(rank_name(r, self.labels) for r in self.odd_ones) or "none"
        head = f"ranks diverge in {len(self.differences)} frame(s); odd one(s) out: {odd}"
        return "\n".join([head, *map(str, self.differences)])


def rank_name(rank: int, labels: Mapping[int, str]) -> str:
    """``rank 2``, or the label of a log that is no rank of its own."""
    return labels.get(rank, f"rank {rank}")


def _ranks_named(ranks: list[int], labels: Mapping[int, str]) -> str:
    """``ranks 0, 1, 3``; each named when one of them is a labelled log."""
    if any(rank in labels for rank in ranks):
        return ", ".join(rank_name(rank, labels) for rank in ranks)
    return "ranks " + ", ".join(map(str, ranks))


def _frames(index: FactIndex) -> dict[str, list[Compile]]:
    """Each frame's compiles in order, by the frame's title and where it is defined."""
    frames: dict[str, list[Compile]] = {}
    for compile_ in index.facts.compiles:
        frames.setdefault(frame_title(compile_), []).append(compile_)
    return frames


def _odd(values: Mapping[int, str]) -> list[int]:
    """The ranks off the most common value.

    With no majority (two ranks, one of which recompiled), the ranks that made a compile
    the others did not make are odd; failing that, every rank is.
    """
    counts = Counter(values.values()).most_common()
    if len(counts) > 1 and counts[0][1] == counts[1][1]:
        extra = sorted(rank for rank, value in values.items() if value != "absent")
        return extra if len(extra) < len(values) else sorted(values)
    return sorted(rank for rank, value in values.items() if value != counts[0][0])


def _first_difference(
    frame: str, indexes: dict[int, FactIndex], compiles: dict[int, list[Compile]]
) -> RankDifference | None:
    for number in range(max(len(c) for c in compiles.values())):
        for aspect, read in ASPECTS.items():
            values = {
                rank: read(indexes[rank], c[number]) if number < len(c) else "absent"
                for rank, c in compiles.items()
            }
            if len(set(values.values())) > 1:
                return RankDifference(frame, number, aspect, values, _odd(values))
    return None


def divergence(ranks: Mapping[int, Facts], labels: Mapping[int, str] | None = None) -> Divergence:
    """Compare the ranks' facts frame by frame; report each frame's first difference.

    ``labels`` names the logs that are no rank of their own (``rank 0 (second log)``).
    """
    named = dict(labels or {})
    indexes = {rank: FactIndex(facts) for rank, facts in sorted(ranks.items())}
    frames = {rank: _frames(index) for rank, index in indexes.items()}
    titles = list(dict.fromkeys(t for by_title in frames.values() for t in by_title))
    result = Divergence(ranks=sorted(ranks), labels=named)
    for title in titles:
        compiles = {rank: by_title.get(title, []) for rank, by_title in frames.items()}
        result.compiles[title] = {rank: len(c) for rank, c in compiles.items()}
        found = _first_difference(title, indexes, compiles)
        if found is not None:
            found.labels = named
            result.differences.append(found)
    return result
