"""Cell names in torch's text and per compile (issue 46, point 22)."""

from __future__ import annotations

from symdebug.events import EventStream
from symdebug.processors.cells import cell_names, in_text

#: A kernel's cell file (ipykernel names it by a hash of the cell's text).
CELL = "kernel_tmp/ipykernel_7/3065211413.py"


def test_torch_text_names_the_cell_for_the_path_or_its_end() -> None:
    aliases = {CELL: "Cell [2]"}
    said = "5 <= x.size()[0]  # if x.shape[0] > 4:  # mp/ipykernel_7/3065211413.py:3 in score"
    assert in_text(said, aliases).endswith("# Cell [2]:3 in score")
    assert in_text(f"# File: {CELL}:4 in score", aliases) == "# File: Cell [2]:4 in score"


def test_another_file_of_the_same_name_is_left_as_it_is() -> None:
    other = "# elsewhere/3065211413.py:3 in score"  # not an end of the cell's path
    assert in_text(other, {CELL: "Cell [2]"}) == other


def test_each_generation_of_a_compile_id_keeps_the_names_it_started_under() -> None:
    first, again = {CELL: "Cell [2]"}, {CELL: "Cell [5]"}
    stream = EventStream(file_aliases=again)
    stream.cell_names_at_start = [("0/0", first), ("0/1", first), ("0/0", again)]
    names = cell_names(stream)
    assert names.of("0/0") == first and names.of("0/1") == first
    assert names.of("0/0@1") == again
    assert names.of("1/0") == again  # not seen starting: the newest names
