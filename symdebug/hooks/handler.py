"""The logging handler that turns torch's structured trace records into our events.

It sits on torch's trace logger and runs synchronously on the compiling thread, so it can
read the live compiler context.  It must never disturb the compile: every failure in it
is caught, counted, and reported once.
"""

from __future__ import annotations

import contextlib
import logging
import traceback
import warnings
import weakref
from collections.abc import Callable
from typing import Any

from symdebug._torch import compiler_context, dynamo_graph
from symdebug._torch.running import running_version
from symdebug._torch.shape_env import snapshot_shape_env
from symdebug.events import GRAPH_INPUTS, SHAPE_ENV, CompileKey, Event, EventStream, slim_body
from symdebug.hooks import live_context

#: Events whose provenance depends on the live context at the moment they fire.
#: (``create_symbol`` is not one: its stacks say all we use, and it is the most frequent.)
GUARD_LIKE = frozenset(
    {
        "guard_added_fast",
        "guard_added",
        "symbolic_shape_specialization",
        "create_unbacked_symbol",
        "propagate_real_tensors",
    }
)


def _compile_key(metadata: dict[str, Any]) -> CompileKey | None:
    frame_id = metadata.get("frame_id")
    if frame_id is None:
        return None
    return CompileKey(
        frame_id,
        metadata.get("frame_compile_id") or 0,
        metadata.get("attempt") or 0,
        metadata.get("compiled_autograd_id"),
    )


class CaptureHandler(logging.Handler):
    """Collects structured trace records, with live context, into an EventStream."""

    #: Reads no payload of ``UNREAD_PAYLOADS`` (:data:`symdebug._torch.trace_logger.OUR_HANDLER`):
    #: while only such handlers listen, torch does not build those payloads.
    symdebug_reads_only_what_it_parses = True

    def __init__(self) -> None:
        super().__init__(level=logging.DEBUG)
        self.stream = EventStream(source="live", torch_version=running_version())
        self.errors = 0
        self.first_error: str | None = None
        #: (torch's compile id, code object) in compile order; ids repeat after a reset.
        self.code_objects: list[tuple[str, Any]] = []
        #: (torch's compile id, a weak reference to the frame's ``self`` or None), alike.
        self.receivers: list[tuple[str, weakref.ref[Any] | None]] = []
        #: The same, read as each compile starts: also for a compile that made no graph.
        self.started_receivers: list[tuple[str, weakref.ref[Any] | None]] = []
        #: (torch's compile id, the module globals its frame reads), as each compile starts.
        self.started_globals: list[tuple[str, dict[str, Any]]] = []
        #: Returns file aliases (notebook cells), read as each compile starts.
        self.alias_provider: Callable[[], dict[str, str]] | None = None
        self._shape_envs: dict[CompileKey, Any] = {}

    def emit(self, record: logging.LogRecord) -> None:
        """Record one event; never raise into torch."""
        try:
            self._record(record)
        except Exception:  # noqa: BLE001 - a fault here must not change the user's compile
            self._fail(traceback.format_exc())

    def _fail(self, text: str) -> None:
        self.errors += 1
        if self.first_error is None:
            self.first_error = text
            # Under warnings as errors (-W error) the warning raises: the user's call must
            # still not fail; capture_errors and the summary say what happened.
            with contextlib.suppress(Exception):
                warnings.warn(
                    "symdebug: an error inside the capture hook was caught; the compile is "
                    f"unaffected, but this session may miss facts.\n{text}",
                    RuntimeWarning,
                    stacklevel=2,
                )

    def _record(self, record: logging.LogRecord) -> None:
        metadata: dict[str, Any] = getattr(record, "metadata", None) or {}
        if not metadata:
            return
        name = next(iter(metadata))
        body = metadata[name]
        if name in ("str", "chromium_event"):
            return  # filenames are resolved from torch's intern table at build time
        if name == "artifact":
            name = f"artifact:{body.get('name', '?')}"
        key = _compile_key(metadata)
        if name == "dynamo_start" and isinstance(body, dict):
            body = dynamo_graph.with_calling_line(body)
        if name == "dynamo_start" and key is not None and key.attempt == 0:
            self._remember_frame_start(key)
        body = slim_body(name, body) if isinstance(body, dict) else body
        event = Event(name, body, key, getattr(record, "payload", None), metadata.get("rank"))
        if name in GUARD_LIKE:
            event.live = live_context.snapshot()
            self._remember_shape_env(key)
        if name == "compilation_metrics" and key is not None:
            self._add_shape_env_event(key)
        self.stream.events.append(event)
        if name == "dynamo_output_graph" and key is not None:
            self._add_graph_inputs_event(key)

    def _remember_frame_start(self, key: CompileKey) -> None:
        receiver, module_globals = dynamo_graph.frame_at_compile_start()
        self.started_receivers.append((key.compile_id, _weak(receiver)))
        if module_globals is not None:  # a module's globals: it outlives the frame anyway
            self.started_globals.append((key.compile_id, module_globals))
        if self.alias_provider is not None:
            self._remember_cell_names(key.compile_id, self.alias_provider())

    def _remember_cell_names(self, compile_id: str, names: dict[str, str]) -> None:
        """The cells' names of files as this compile starts (one dict while they stay)."""
        kept = self.stream.cell_names_at_start
        same = kept and kept[-1][1] == names
        kept.append((compile_id, kept[-1][1] if same else names))

    def _remember_shape_env(self, key: CompileKey | None) -> None:
        if key is not None and key not in self._shape_envs:
            env = compiler_context.current_shape_env()
            if env is not None:
                self._shape_envs[key] = env

    def _add_graph_inputs_event(self, key: CompileKey) -> None:
        self._remember_shape_env(key)
        snapshot = dynamo_graph.graph_inputs_snapshot()
        if snapshot is not None:
            self.stream.events.append(Event(GRAPH_INPUTS, snapshot, key))
            code = dynamo_graph.code_object_of_current_frame()
            if code is not None:
                self.code_objects.append((key.compile_id, code))
                receiver = _weak(dynamo_graph.receiver_of_current_frame())
                self.receivers.append((key.compile_id, receiver))

    def _add_shape_env_event(self, key: CompileKey) -> None:
        # Read at the end of the frame compile: Inductor and AOT add guards after Dynamo.
        env = self._shape_envs.pop(key, None)
        if env is not None:
            self.stream.events.append(Event(SHAPE_ENV, snapshot_shape_env(env), key))


def _weak(value: Any) -> weakref.ref[Any] | None:
    """A weak reference (the module stays the program's to free), or None."""
    try:
        return weakref.ref(value) if value is not None else None
    except TypeError:  # an object that takes no weak reference: not remembered
        return None
