"""The rank matrix of a multi-rank job as one self-contained HTML file (no script at all).

Frames by ranks, each cell the compiles of that frame on that rank; the cells of the odd
ranks of a frame are marked, and each frame's first difference is said below the table.
Every text is escaped here, once: frame names, reasons and paths are the user's.  A
redacted page shows each text as a redacted report would: no directory, source line,
stack text of torch's or compared string.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from html import escape

from symdebug.queries.ranks import Divergence, RankDifference, rank_name
from symdebug.renderers.document import redacted_text

#: How a text of the user's or of torch's is shown: as it is, or redacted.
Shown = Callable[[str], str]

_STYLE = """
body { font: 14px system-ui, sans-serif; margin: 1.5em; color: #222; }
table { border-collapse: collapse; } th, td { border: 1px solid #ccc; padding: 4px 8px; }
td.count { text-align: right; } td.odd { background: #fde2e1; font-weight: bold; }
li { margin: 0.4em 0; } code { background: #f4f4f4; padding: 0 3px; white-space: pre-wrap; }
"""
_HEAD = (
    '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
    '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
    "style-src 'unsafe-inline'\">\n<title>symdebug: ranks compared</title>\n"
    f"<style>{_STYLE}</style>\n</head>\n<body>\n"
)


def _rank_header(rank: int, reports: dict[int, str], labels: dict[int, str]) -> str:
    link = reports.get(rank)
    label = escape(rank_name(rank, labels))
    return f'<th><a href="{escape(link)}">{label}</a></th>' if link else f"<th>{label}</th>"


def _row(frame: str, counts: dict[int, int], odd: set[int], ranks: list[int]) -> str:
    cells = "".join(
        f'<td class="count{" odd" if rank in odd else ""}" data-rank="{rank}">'
        f"{counts.get(rank, 0)}</td>"
        for rank in ranks
    )
    return f'<tr><th scope="row">{escape(frame)}</th>{cells}</tr>'


def _difference(d: RankDifference, shown: Shown) -> str:
    values = "".join(
        f"<li>{escape(rank_name(rank, d.labels))}{' (odd)' if rank in d.odd_ranks else ''}: "
        f"<code>{escape(shown(v))}</code></li>"
        for rank, v in sorted(d.values.items())
    )
    return (
        f'<li class="difference"><b>{escape(shown(d.frame))}</b>: first differs at compile '
        f"#{d.number} ({escape(d.aspect)})<ul>{values}</ul></li>"
    )


def _notes(notes: Sequence[str], shown: Shown) -> str:
    """What the folder held besides one log per rank (logs not read, second logs)."""
    if not notes:
        return ""
    items = "".join(f'<li class="note">{escape(shown(note))}</li>' for note in notes)
    return f"<h2>Notes</h2>\n<ul>{items}</ul>\n"


def _as_it_is(text: str) -> str:
    return text


def render_ranks(
    divergence: Divergence,
    reports: dict[int, str],
    notes: Sequence[str] = (),
    *,
    redact: bool = False,
) -> str:
    """The page; ``reports`` links each rank's own report (rank -> relative path).

    ``notes`` says what the folder held besides one log per rank; ``redact`` shows every
    text as :func:`~symdebug.renderers.document.redacted_text` does.
    """
    shown: Shown = redacted_text if redact else _as_it_is
    odd = {d.frame: set(d.odd_ranks) for d in divergence.differences}
    header = "".join(_rank_header(r, reports, divergence.labels) for r in divergence.ranks)
    rows = "".join(
        _row(shown(frame), counts, odd.get(frame, set()), divergence.ranks)
        for frame, counts in divergence.compiles.items()
    )
    items = "".join(_difference(d, shown) for d in divergence.differences)
    summary = escape(str(divergence).splitlines()[0])
    return (
        f'{_HEAD}<h1>Ranks compared</h1>\n<p class="summary">{summary}</p>\n'
        f"<table><thead><tr><th>compiles per frame</th>{header}</tr></thead>"
        f"<tbody>{rows}</tbody></table>\n<h2>Where they differ</h2>\n"
        f"<ul>{items or '<li>nowhere</li>'}</ul>\n{_notes(notes, shown)}</body>\n</html>\n"
    )
