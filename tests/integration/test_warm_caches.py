"""Capture with warm compile caches (issue 33 item 14): what a cache hit loses is said.

With ``capture(disable_caches=False)`` a compile whose graph Inductor finds in its cache
replays the guards it stored: no user line.  Those guards are marked as replayed from the
cache in the facts, in ``why()`` and in the viewer's words; the default capture turns the
caches off, and its session's repr says so.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

import symdebug
from symdebug.model.compiler_guards import FROM_CACHE, FROM_CACHE_SAID
from symdebug.model.types import Guard

VIEWER_WORDS = Path(__file__).resolve().parents[2] / "extension" / "src" / "compiler_guards.ts"


def head(images: torch.Tensor) -> torch.Tensor:
    # Inductor's lowering of adaptive pooling needs each image size: guards of its own.
    return torch.nn.functional.adaptive_avg_pool2d(images, (3, 3)).flatten(1)


def _compiled_afresh() -> None:
    """The workload in a fresh Dynamo state: Dynamo traces again, the caches may hit."""
    torch._dynamo.reset()
    compiled = torch.compile(head, backend="inductor")
    for n in (9, 10):
        compiled(torch.ones(1, 2, n, n + 1))


def _compiler_guards(session: symdebug.Session) -> list[Guard]:
    return [g for g in session.guards if g.phase in ("aot", "inductor")]


@pytest.mark.slow
def test_guards_a_warm_cache_replayed_are_marked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TORCHINDUCTOR_CACHE_DIR", str(tmp_path / "inductor"))
    with symdebug.capture(disable_caches=False) as cold:
        _compiled_afresh()
    with symdebug.capture(disable_caches=False) as warm:
        _compiled_afresh()
    traced = _compiler_guards(cold)
    assert traced and all(g.origin != FROM_CACHE for g in cold.guards)
    replayed = [g for g in warm.guards if g.origin == FROM_CACHE]
    assert sorted(g.expr for g in replayed) == sorted(g.expr for g in traced)
    assert all(g.origin != FROM_CACHE for g in warm.guards if g.phase == "dynamo")
    text = str(warm.why("images", 2))
    assert f"({FROM_CACHE_SAID})" in text
    assert "compile caches on" in repr(warm)


def test_the_capture_says_its_caches_are_off_by_default() -> None:
    with symdebug.capture() as session:
        pass
    assert "compile caches off (the default" in repr(session)


def test_viewer_says_the_same_words_of_a_cached_guard() -> None:
    assert f'"{FROM_CACHE_SAID}"' in VIEWER_WORDS.read_text()
