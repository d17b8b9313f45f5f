"""Fixtures of the real-torch tier."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from truth import Tally


@pytest.fixture
def tally() -> Iterator[Tally]:
    """Predictions and torch's outcomes of one test; no certain prediction may be wrong."""
    result = Tally()
    yield result
    assert not result.confident_wrong(), "\n".join(result.confident_wrong())
