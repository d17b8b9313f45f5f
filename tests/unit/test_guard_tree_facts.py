"""The guard tree's facts, remembered per line: shared between trees, never changed by one."""

from __future__ import annotations

import dataclasses

import pytest

from symdebug.torchtext import guard_tree
from symdebug.torchtext.guard_tree import parse_guard_tree
from symdebug.torchtext.text_memo import TextMemo

TEXT = (
    "TREE_GUARD_MANAGER:\n"
    "+- RootGuardManager\n"
    '| +- GLOBAL_STATE: ___check_global_state() against {"grad_mode":true}\n'
    "| +- GuardManager: source=L['x'], accessed_by=FrameLocalsGuardAccessor(key='x')\n"
    "| | +- TENSOR_MATCH: check_tensor(L['x'], Tensor, DispatchKeySet(CPU), torch.float32, "
    "device=None, requires_grad=False, size=[None, 8], stride=[8, 1])  # y = x  # f.py:2 in f\n"
    "| | +- NONE_MATCH: L['mask'] is None  # if mask is None:  # f.py:3 in f\n"
    "| | +- EQUALS_MATCH: L['n'] == 3  # x * n  # f.py:6 in f\n"
    "| | +- ID_MATCH: ___check_obj_id(L['m'], 1407)  # m  # f.py:7 in f\n"
    "| +- LAMBDA_GUARD: 2 <= L['x'].size()[0]  # y = x  # f.py:2 in f\n"
    "| +- LENGTH_CHECK: not L['args']  # f(*args)  # f.py:9 in f\n"
)


def test_trees_of_the_same_text_are_equal_and_hold_lists_of_their_own() -> None:
    first, second = parse_guard_tree(TEXT), parse_guard_tree(TEXT + "# another compile\n")
    assert first == second
    assert first.tensors is not second.tensors
    assert first.value_lines is not second.value_lines
    assert [line.code for line in first.shape_lines] == [
        "2 <= L['x'].size()[0]",
        "len(L['args']) == 0",
    ]
    assert first.ints == {"L['n']": (3, "x * n  # f.py:6 in f")}
    assert first.global_state == {"grad_mode": True}


def test_a_shared_check_line_cannot_be_changed() -> None:
    tree = parse_guard_tree(TEXT)
    with pytest.raises(dataclasses.FrozenInstanceError):
        tree.value_lines[0].code = "changed"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        tree.tensors[0].sizes = (1, 8)  # type: ignore[misc]


def test_a_full_memory_of_lines_starts_again(monkeypatch: pytest.MonkeyPatch) -> None:
    expected = parse_guard_tree(TEXT)
    monkeypatch.setattr(guard_tree, "_FACTS", TextMemo(guard_tree.line_fact, limit=2))
    for _ in range(3):
        assert parse_guard_tree(TEXT) == expected
        assert len(guard_tree._FACTS.facts) <= 2


def test_a_line_is_read_by_its_own_kind_not_by_the_user_code_it_quotes() -> None:
    # The note is the user's line; one printing a guard's text must not become that guard.
    quoted = (
        "TREE_GUARD_MANAGER:\n"
        "| | +- NONE_MATCH: L['mask'] is None  # ok = 1  # LENGTH_CHECK: len(xs) == 2"
        "  # f.py:3 in f\n"
        "| | +- FALSE_MATCH: L['flag'] == False  # ok = 2  # EQUALS_MATCH: L['n'] == 3"
        "  # f.py:4 in f\n"
    )
    tree = parse_guard_tree(quoted)
    assert tree.shape_lines == [] and tree.ints == {}
    assert [line.code for line in tree.value_lines] == ["L['mask'] is None", "L['flag'] == False"]
