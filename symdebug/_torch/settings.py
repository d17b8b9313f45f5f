"""Compiler settings that capture changes for its duration, and restores exactly."""

from __future__ import annotations

import importlib
import os
import sys
import warnings
from collections.abc import Callable, Iterator, Mapping
from contextlib import AbstractContextManager, contextmanager
from typing import Any, cast

import torch

from symdebug._torch.holds import Held

#: torch warns that the caches we turned off include profile-guided dynamism
#: (torch/_dynamo/pgo.py); that is what capture asked for, so the user need not see it.
PGO_WARNING = "dynamo_pgo force disabled by torch.compiler.config"


def _caches_off() -> Callable[[], None]:
    """Turn off every compile cache and silence torch's note about it; return the undo.

    Cache hits replay guards from stored expressions, so their provenance points at
    ``autograd_cache.py``/``codecache.py`` instead of the user's code.  Only the one filter
    added here is removed again: the user's own filters are never touched.
    """
    config = torch.compiler.config
    previous = config.force_disable_caches
    config.force_disable_caches = True
    warnings.filterwarnings("ignore", message=PGO_WARNING, category=UserWarning)
    added = warnings.filters[0]

    def undo() -> None:
        config.force_disable_caches = previous
        filters = cast("list[Any]", warnings.filters)  # typeshed says Sequence; it is a list
        if added in filters:
            filters.remove(added)
            getattr(warnings, "_filters_mutated", lambda: None)()  # CPython's filter cache

    return undo


_CACHES_OFF = Held(_caches_off)


def compile_caches_disabled() -> AbstractContextManager[None]:
    """Every compile cache off for the block; restored when the last holder leaves."""
    return _CACHES_OFF.held()


def _provenance_on() -> Callable[[], None]:
    """Have Inductor log which FX nodes each kernel computes (``provenance_tracking_level``).

    The mapping reaches the trace as ``inductor_provenance_tracking_node_mappings``; it is
    the only record of kernel -> node on CPU, where kernels carry no origin comments.
    Level 2 ("basic") writes the same mapping as level 1 without having ``make_fx`` and FX
    record every node's stack trace (``record_stack_traces``, ``preserve_node_meta``), which
    cost 15% of an ``aot_eager`` compile: ``benchmarks/bench_capture.py``.
    Importing Inductor's config costs about a second: when nothing imported it yet (an
    ``aot_eager`` or ``eager`` run), its environment variable asks for the level instead,
    so a capture that never reaches Inductor never pays for it.
    """
    if _INDUCTOR_CONFIG not in sys.modules:
        return _provenance_by_environment()
    from torch._inductor import config as inductor_config

    previous = inductor_config.trace.provenance_tracking_level
    inductor_config.trace.provenance_tracking_level = previous or _BASIC

    def undo() -> None:
        inductor_config.trace.provenance_tracking_level = previous

    return undo


_PROVENANCE_ON = Held(_provenance_on)


def inductor_provenance_enabled() -> AbstractContextManager[None]:
    """Kernel provenance on for the block; restored when the last holder leaves."""
    return _PROVENANCE_ON.held()


_INDUCTOR_CONFIG = "torch._inductor.config"
_PROVENANCE_VARIABLE = "INDUCTOR_PROVENANCE"
#: Inductor's "basic" provenance level: the kernel -> node mapping, no node stack traces.
_BASIC = 2


def _level(text: str) -> int:
    """The level Inductor would read from its environment (0 for what is no number)."""
    try:
        return int(text)
    except ValueError:
        return 0


def _provenance_by_environment() -> Callable[[], None]:
    """``INDUCTOR_PROVENANCE=1`` while held; Inductor reads it if it is first imported."""
    before = os.environ.get(_PROVENANCE_VARIABLE)
    default = _level(before or os.environ.get("TORCH_COMPILE_DEBUG", "0"))
    os.environ[_PROVENANCE_VARIABLE] = before if before and before != "0" else str(_BASIC)

    def undo() -> None:
        if before is None:
            os.environ.pop(_PROVENANCE_VARIABLE, None)
        else:
            os.environ[_PROVENANCE_VARIABLE] = before
        config = sys.modules.get(_INDUCTOR_CONFIG)
        if config is not None:  # imported while capturing: back to what it would have read
            config.trace.provenance_tracking_level = default

    return undo


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


def fork_safe_torch() -> None:
    """Make torch safe to use in a forked child: one intra-op thread, compiles in-process.

    A child forked after the parent ran OpenMP kernels or started Inductor's compile workers
    hangs in its first parallel region or compile (measured with torch 2.13: both hang, and
    both settings together run); the parent's threads and worker pipes are not the child's.
    """
    os.environ["TORCHINDUCTOR_COMPILE_THREADS"] = "1"
    torch.set_num_threads(1)
    if _INDUCTOR_CONFIG in sys.modules:
        config: Any = sys.modules[_INDUCTOR_CONFIG]
        config.compile_threads = 1
