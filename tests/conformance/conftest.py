"""Fixtures of the conformance tier: a clean Dynamo for every test, and this torch's release."""

from __future__ import annotations

import pytest
import torch
from torch_fixtures import fresh_dynamo  # noqa: F401  (autouse: every test of the tier)

from symdebug._torch.releases import parse_version


@pytest.fixture(scope="session")
def release() -> str:
    """The running torch's release (``2.15``): whose recorded answers this run is held to."""
    major, minor = parse_version(torch.__version__) or (0, 0)
    return f"{major}.{minor}"
