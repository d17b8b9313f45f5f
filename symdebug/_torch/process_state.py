"""What of torch's process-wide state a fresh replay process must share with this one.

A replay started by spawn begins from torch's defaults: the settings the user changed in
this process (``torch._dynamo.config.capture_scalar_outputs = True``), the default dtype,
grad mode, deterministic algorithms, matmul precision and the random generators' state are
read here and set again there, so the workload runs as it would have in a fork.  Settings
whose value does not pickle (a callable) are named, never silently dropped.
"""

from __future__ import annotations

import importlib
import pickle
import sys
from dataclasses import dataclass, field
from typing import Any

import torch

from symdebug._torch.process_group import group_world_size

#: The config modules whose user-set values a replay process takes (those imported here).
CONFIG_MODULES = (
    "torch._dynamo.config",
    "torch.compiler.config",
    "torch._inductor.config",
    "torch._functorch.config",
    "torch.fx.experimental._config",
)


@dataclass
class TorchState:
    """Torch's process-wide state, as plain data a fresh process can set again."""

    #: Per config module, ``{setting: value}`` (a nested one dotted: ``trace.enabled``).
    settings: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: Settings set here whose values could not be sent (they do not pickle).
    unsent: list[str] = field(default_factory=list)
    default_dtype: str = "float32"
    grad_enabled: bool = True
    deterministic: tuple[bool, bool] = (False, False)
    matmul_precision: str = "highest"
    cpu_rng: bytes = b""
    #: The size of the process group the user's process holds (None: none): a replay's
    #: child makes its own group of one (:mod:`symdebug._torch.process_group`).
    process_group_world: int | None = None


def _set_here() -> tuple[dict[str, dict[str, Any]], list[str]]:
    """Every setting the user changed from its default, in each imported config module."""
    settings: dict[str, dict[str, Any]] = {}
    unsent: list[str] = []
    for name in CONFIG_MODULES:
        module = sys.modules.get(name)
        if module is None:
            continue  # never imported: at its defaults (importing Inductor costs a second)
        for key, value in module._get_dict(skip_default=True).items():
            try:
                pickle.dumps(value)
            except Exception:  # noqa: BLE001 - any failure: said, not sent
                unsent.append(f"{name}.{key}")
                continue
            settings.setdefault(name, {})[key] = value
    return settings, unsent


def torch_state() -> TorchState:
    """The torch state of the process asking (the CPU generator's random state included)."""
    settings, unsent = _set_here()
    return TorchState(
        settings=settings,
        unsent=unsent,
        default_dtype=str(torch.get_default_dtype()).removeprefix("torch."),
        grad_enabled=torch.is_grad_enabled(),
        deterministic=(
            torch.are_deterministic_algorithms_enabled(),
            torch.is_deterministic_algorithms_warn_only_enabled(),
        ),
        matmul_precision=torch.get_float32_matmul_precision(),
        cpu_rng=bytes(torch.get_rng_state().numpy().tobytes()),
        process_group_world=group_world_size(),
    )


def restore_torch_state(state: TorchState) -> None:
    """Set ``state`` in this (fresh) process."""
    for module_name, values in state.settings.items():
        importlib.import_module(module_name).load_config(values)
    torch.set_default_dtype(getattr(torch, state.default_dtype))
    torch.set_grad_enabled(state.grad_enabled)
    enabled, warn_only = state.deterministic
    torch.use_deterministic_algorithms(enabled, warn_only=warn_only)
    torch.set_float32_matmul_precision(state.matmul_precision)
    if state.cpu_rng:
        torch.set_rng_state(torch.frombuffer(bytearray(state.cpu_rng), dtype=torch.uint8))
