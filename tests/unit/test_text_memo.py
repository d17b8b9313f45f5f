"""What each distinct text holds, remembered: read once, bounded, and emptied on request."""

from __future__ import annotations

from symdebug.torchtext.text_memo import TextMemo, forget


def test_a_text_is_read_once_until_the_memo_is_full_or_forgotten() -> None:
    reads: list[str] = []

    def read(text: str) -> int:
        reads.append(text)
        return len(text)

    memo = TextMemo(read, limit=2)
    assert [memo.get("ab"), memo.get("ab"), memo.get("abc")] == [2, 2, 3]
    assert reads == ["ab", "abc"]
    assert memo.get("abcd") == 4 and len(memo.facts) == 1  # full: it started again
    forget()
    assert memo.facts == {}
    assert memo.get("ab") == 2 and reads == ["ab", "abc", "abcd", "ab"]


def test_all_of_answers_in_order_and_reads_each_new_text_once() -> None:
    reads: list[str] = []

    def read(text: str) -> int:
        reads.append(text)
        return len(text)

    memo = TextMemo(read)
    assert memo.all_of(["a", "bb", "a", "ccc"]) == [1, 2, 1, 3]
    assert reads == ["a", "bb", "ccc"]
    assert memo.all_of(["ccc", "dddd", "a"]) == [3, 4, 1]  # only the new one is read
    assert reads == ["a", "bb", "ccc", "dddd"]


def test_all_of_a_memo_that_fills_midway_still_answers_every_text() -> None:
    memo = TextMemo(len, limit=2)
    texts = ["a", "bb", "ccc", "dddd", "a", "bb"]
    assert memo.all_of(texts) == [1, 2, 3, 4, 1, 2]
    assert len(memo.facts) <= 2
