"""Compiler settings that capture changes for its duration, and restores exactly."""

from __future__ import annotations

import importlib
import os
import sys
import warnings
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

import torch

#: torch warns that the caches we turned off include profile-guided dynamism
#: (torch/_dynamo/pgo.py); that is what capture asked for, so the user need not see it.
PGO_WARNING = "dynamo_pgo force disabled by torch.compiler.config"


@contextmanager
def compile_caches_disabled() -> Iterator[None]:
    """Turn off every compile cache; restore the previous value on exit.

    Cache hits replay guards from stored expressions, so their provenance points at
    ``autograd_cache.py``/``codecache.py`` instead of the user's code.  The warning filters
    are the caller's again on exit (only torch's note about the caches is silenced inside).
    """
    config = torch.compiler.config
    previous = config.force_disable_caches
    config.force_disable_caches = True
    try:
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message=PGO_WARNING, category=UserWarning)
            yield
    finally:
        config.force_disable_caches = previous


@contextmanager
def inductor_provenance_enabled() -> Iterator[None]:
    """Have Inductor log which FX nodes each kernel computes (``provenance_tracking_level``).

    The mapping reaches the trace as ``inductor_provenance_tracking_node_mappings``; it is
    the only record of kernel -> node on CPU, where kernels carry no origin comments.
    Importing Inductor's config costs about a second: when nothing imported it yet (an
    ``aot_eager`` or ``eager`` run), its environment variable asks for the level instead,
    so a capture that never reaches Inductor never pays for it.
    """
    if _INDUCTOR_CONFIG not in sys.modules:
        with _provenance_by_environment():
            yield
        return
    from torch._inductor import config as inductor_config

    previous = inductor_config.trace.provenance_tracking_level
    inductor_config.trace.provenance_tracking_level = previous or 1
    try:
        yield
    finally:
        inductor_config.trace.provenance_tracking_level = previous


_INDUCTOR_CONFIG = "torch._inductor.config"
_PROVENANCE_VARIABLE = "INDUCTOR_PROVENANCE"


def _level(text: str) -> int:
    """The level Inductor would read from its environment (0 for what is no number)."""
    try:
        return int(text)
    except ValueError:
        return 0


@contextmanager
def _provenance_by_environment() -> Iterator[None]:
    """``INDUCTOR_PROVENANCE=1`` while capturing; Inductor reads it if it is first imported."""
    before = os.environ.get(_PROVENANCE_VARIABLE)
    default = _level(before or os.environ.get("TORCH_COMPILE_DEBUG", "0"))
    os.environ[_PROVENANCE_VARIABLE] = before if before and before != "0" else "1"
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(_PROVENANCE_VARIABLE, None)
        else:
            os.environ[_PROVENANCE_VARIABLE] = before
        config = sys.modules.get(_INDUCTOR_CONFIG)
        if config is not None:  # imported while capturing: back to what it would have read
            config.trace.provenance_tracking_level = default


#: Torch config modules a fix may set, by the dotted prefix a setting's name starts with.
#: Every one of them is a torch ``ConfigModule`` (it has ``_config`` and ``patch``).
SETTING_MODULES = (
    "torch.compiler.config",
    "torch._dynamo.config",
    "torch._inductor.config",
    "torch.fx.experimental._config",
)


def _config_module(name: str) -> tuple[Any, str]:
    """The config module and attribute a dotted setting name names; ValueError if none."""
    module_name, _, attribute = name.rpartition(".")
    if module_name not in SETTING_MODULES:
        known = ", ".join(SETTING_MODULES)
        raise ValueError(f"{name!r} is not a torch setting symdebug can apply (in: {known})")
    module = importlib.import_module(module_name)
    if attribute not in module._config:
        raise ValueError(f"torch {torch.__version__} has no setting {name!r}")
    return module, attribute


@contextmanager
def settings_applied(settings: Mapping[str, Any]) -> Iterator[None]:
    """Set each ``{dotted torch config name: value}`` for the block; restore all on exit.

    Every name is checked before any is set, so a bad name changes nothing.
    """
    targets = [(*_config_module(name), value) for name, value in settings.items()]
    previous = [(module, attribute, getattr(module, attribute)) for module, attribute, _ in targets]
    try:
        for module, attribute, value in targets:
            setattr(module, attribute, value)
        yield
    finally:
        for module, attribute, value in reversed(previous):
            setattr(module, attribute, value)


def apply_settings(settings: Mapping[str, Any]) -> None:
    """Set each ``{dotted torch config name: value}`` for good (a fresh process's plan)."""
    for module, attribute, value in [(*_config_module(n), v) for n, v in settings.items()]:
        setattr(module, attribute, value)


def reset_compiler() -> None:
    """Forget every compiled frame, as a fresh process would have none."""
    torch._dynamo.reset()
