"""What each distinct text holds, remembered: read once, bounded, and emptied on request."""

from __future__ import annotations

from symdebug.model.text_memo import TextMemo, forget


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
