"""The unit tier imports no torch (its import costs seconds): not when pytest collects it
(``test_torch_free.py`` checks that in a process of its own) and not in a test either.

A test that needs torch, or symdebug code that imports it (``symdebug.live``,
``symdebug.hooks``, ``symdebug._torch``), belongs in ``tests/integration``.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True)
def no_torch_imported() -> Iterator[None]:
    """Fails a test that imports torch.  Only where torch was not imported before it: when the
    unit tier runs alone (``make test-fast``), not beside the tiers that import it."""
    before = "torch" in sys.modules
    yield
    if not before and "torch" in sys.modules:
        pytest.fail(
            "this unit test imported torch (itself or through symdebug code): "
            "move it to tests/integration",
            pytrace=False,
        )
