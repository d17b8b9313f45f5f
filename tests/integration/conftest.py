"""Fixtures of the real-torch tier, and a clean Dynamo for every test (``fresh_dynamo``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from torch_fixtures import fresh_dynamo  # noqa: F401  (autouse: every test of the tier)
from truth import Tally


@pytest.fixture
def tally() -> Iterator[Tally]:
    """Predictions and torch's outcomes of one test; no certain prediction may be wrong."""
    result = Tally()
    yield result
    assert not result.confident_wrong(), "\n".join(result.confident_wrong())
