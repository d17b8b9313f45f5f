"""Issue 47, class 6: of the entries a call failed, the one it matched best names the cause."""

from __future__ import annotations

from symdebug.torchtext.reasons import closest_reason, parse_reason

DTYPE = "0/1: tensor 'x' dtype mismatch. expected Double, actual Float"
STRIDES = "0/0: tensor 'x' stride mismatch at index 0. expected 6, actual 1"
SIZE = "0/0: tensor 'x' size mismatch at index 0. expected 4, actual 6"


def _closest(*texts: str) -> str:
    reasons = [parse_reason(text) for text in texts]
    return texts[closest_reason(reasons)]


def test_a_later_check_of_the_same_tensor_is_closer() -> None:
    assert _closest(DTYPE, STRIDES) == STRIDES  # the strides' entry passed the dtype
    assert _closest(DTYPE, SIZE) == SIZE
    assert _closest(SIZE, DTYPE) == SIZE


def test_torch_first_where_the_checks_cannot_be_ranked() -> None:
    other_tensor = "0/0: tensor 'y' stride mismatch at index 0. expected 6, actual 1"
    assert _closest(DTYPE, other_tensor) == DTYPE  # another tensor: no order between them
    branch = "0/0: x.size()[0] <= 8  # if x.shape[0] > 8:  # prog.py:3 in f"
    assert _closest(DTYPE, branch) == DTYPE
    assert _closest(STRIDES, STRIDES.replace("0/0", "0/1")) == STRIDES  # a tie: torch's first
