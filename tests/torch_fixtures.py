"""The fixture of the tiers that run torch (``integration/``, ``e2e/``): a clean Dynamo for
every test.  Their conftests import it; the unit tier never does (it imports no torch)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import torch
import torch._inductor.config  # its settings are restored after every test


@pytest.fixture(autouse=True)
def fresh_dynamo() -> Iterator[None]:
    """Every test starts and ends with an empty Dynamo cache and the Dynamo and Inductor
    settings it started with: a workload that sets one (``automatic_dynamic_shapes = False``)
    must not change how the next test's programs compile."""
    configs = (torch._dynamo.config, torch._inductor.config)
    saved = [config.get_config_copy() for config in configs]
    torch._dynamo.reset()
    yield
    for config, settings in zip(configs, saved, strict=True):
        now = config.get_config_copy()
        changed = {k: v for k, v in settings.items() if now[k] != v}
        for key, value in changed.items():  # only those: setting a deprecated one warns
            setattr(config, key, value)
    torch._dynamo.reset()
