"""Fixtures of the end-to-end tier: Debian's Chromium driven by Playwright, and a clean Dynamo
for every test (``fresh_dynamo``)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator

import pytest
from torch_fixtures import fresh_dynamo  # noqa: F401  (autouse: every test of the tier)

# Debian's Chromium, started as the probe of this machine kind does: no background
# networking (the sandbox's closed network refuses it), no GPU, no first-run work.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    """Headless Debian Chromium (found on PATH), driven by Playwright."""
    sync_api = pytest.importorskip("playwright.sync_api")
    executable = shutil.which("chromium")
    assert executable, "Debian's chromium is not on PATH: `make test` installs it (apt)"
    with sync_api.sync_playwright() as p:
        launched = p.chromium.launch(executable_path=executable, headless=True, args=CHROMIUM_ARGS)
        yield launched
        launched.close()
