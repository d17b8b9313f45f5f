"""Recompile reasons on the wire: each distinct text and each shared tail once."""

from __future__ import annotations

import copy

from symdebug.renderers.text_lists import pack_text_lists, unpack_text_lists


def _reasons(count: int) -> list[str]:
    """What torch writes at the ``count``-th recompile: each earlier entry, newest first."""
    return [f"0/{k}: n == {k}" for k in reversed(range(count))]


def test_growing_lists_cost_one_cell_each() -> None:
    records = [{"reasons": _reasons(n), "failed_entries": []} for n in range(1, 101)]
    document = {"recompiles": records}
    packed = copy.deepcopy(document)
    lists = pack_text_lists(packed)
    assert len(lists["texts"]) == 100 and len(lists["cells"]) == 100  # not 5,050
    unpack_text_lists(packed, lists)
    assert packed == document


def test_lists_that_share_nothing_read_back_exactly() -> None:
    document = {
        "compiles": [{"recompile_reasons": []}, {"recompile_reasons": ["a", "b", "a"]}],
        "recompiles": [{"reasons": ["b", "a", "c"], "failed_entries": ["0/1", "0/0"]}],
    }
    packed_doc = copy.deepcopy(document)
    lists = pack_text_lists(packed_doc)
    assert packed_doc["compiles"][0]["recompile_reasons"] == -1
    unpack_text_lists(packed_doc, lists)
    assert packed_doc == document


def test_frames_recompiling_in_turn_read_back_exactly() -> None:
    """Two frames' lists interleaved, and lists one longer that extend no earlier one."""
    records = []
    for n in range(1, 30):
        records.append({"reasons": _reasons(n), "failed_entries": [f"0/{n}"] * n})
        other = [f"1/{k}: m == {k}" for k in reversed(range(n))]
        records.append({"reasons": other, "failed_entries": [f"1/{n}"] * n})
        records.append({"reasons": [*_reasons(n)[:-1], "changed"], "failed_entries": []})
    document = {"recompiles": records}
    packed = copy.deepcopy(document)
    lists = pack_text_lists(packed)
    assert len(lists["cells"]) < sum(len(r["reasons"]) for r in records)
    unpack_text_lists(packed, lists)
    assert packed == document
