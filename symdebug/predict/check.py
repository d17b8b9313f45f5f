"""One check of a cache entry, and whether it reads the call or the program.

A check reads values a call passes (sizes, ints, ``None``, which keywords), or the program's
own state (a module's parameters and settings, a library's globals, code): the first is
evaluated on the call, the second taken as recorded (or given by name, or read from a live
module) by :mod:`symdebug.predict.predict`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from symdebug.builders.specializations_builder import is_module_state
from symdebug.model.types import Guard, Specialization
from symdebug.model.values import Source
from symdebug.predict.arguments import OBJECT_PREFIX, RECEIVER, is_call_argument
from symdebug.predict.check_eval import Evaluator, Values
from symdebug.torchtext.own_code import library_of


@dataclass(slots=True)
class Check:
    """One check of an entry: what it reads, how to evaluate it, and where it came from."""

    kind: str
    text: str
    sources: list[str]
    evaluate: Evaluator
    guard: Guard | None = None
    specialization: Specialization | None = None
    cause: str = "unknown"
    #: The same check on one call's Python ints (no arrays); None: ``evaluate`` serves both.
    evaluate_one: Evaluator | None = None
    #: The file of the line that made the check, as torch noted it beside the check.
    read_in: str | None = None
    #: Whether the compiled frame is a library's code (``GPT2LMHeadModel.forward``).
    library_frame: bool = False
    #: Whether it reads the program's own objects through a path no call gives (a library's
    #: registry, a closure): taken as recorded, never evaluated.
    program: bool = False
    #: A tensor's type, dtype or grad, or torch's global state: where the call does not tell
    #: it (a tensor given by its shape, a session read from a log), like the recorded one.
    like_recorded: bool = False
    #: How an assumed check is listed, when checks of one object share one line.
    assumption: str | None = None
    #: What a failure shows of the values read (those that differ); None: every one.
    shown: Callable[[Values], dict[str, Any]] | None = None
    #: Where the frame holds the module (``L['args'][0]`` in a decorator's wrapper).
    receiver: str = RECEIVER
    #: The id torch compared (``___check_type_id``, ``___check_obj_id``): the compiling
    #: process's, so only a live session compares it (:mod:`recorded_ids`).
    recorded_id: int | None = None

    @property
    def taken_as_recorded(self) -> bool:
        """Whether, when what it reads is not given, the check is assumed to hold (listed)."""
        return self.like_recorded or self.program_state

    @property
    def program_state(self) -> bool:
        """Whether the check reads the program rather than a value a call passes.

        Module parameters and buffers (their sizes), functions' defaults and closures,
        classes and object identity (``a is b``) stay as recorded unless the program itself
        changes: a prediction for the same program takes them as they were.
        """
        if self.program:
            return True
        if self.kind in ("identity", "value") and any(
            is_call_argument(source, self.receiver) for source in self.sources
        ):
            return False  # which object, or value, a call passes is a fact of the call
        if self.kind == "identity" or " is " in self.text:
            return True
        if any(part in self.text for part in PROGRAM_PARTS):
            return True
        if self.sources and all(map(is_module_state, self.sources)):
            return True
        return self._library_configuration()

    def _library_configuration(self) -> bool:
        """A module's setting, or a global, that only a library's own code reads.

        ``conv.groups`` or ``len(conv.stride)``, read in ``torch/nn/modules/conv.py``; a
        Hugging Face model's ``config.n_layer`` or ``_is_torch_available`` read in
        ``transformers``: what the model and the library were built as, like its
        parameters' sizes.  A module attribute or global the user's own code reads
        (``self.chunk``) may change between calls and stays a value to give, as does every
        argument of the call.
        """
        found = self.guard or self.specialization
        frame = found.user_frame if found is not None else None
        read_in = self.read_in or (frame.filename if frame is not None else None)
        if read_in is None or library_of(read_in) is None:
            return False
        return bool(self.sources) and all(
            _module_setting(source, own=self.library_frame, receiver=self.receiver)
            or _global(source)
            for source in self.sources
        )


def _global(source: str) -> bool:
    """A global (``G['_is_torch_available']``, a library's module attribute)."""
    return source.removeprefix("len:").removeprefix(OBJECT_PREFIX).startswith("G[")


def _module_setting(source: str, *, own: bool, receiver: str = RECEIVER) -> bool:
    """Whether a source is a module's setting, never a size.

    A submodule's (``len(L['self']._modules['c1'].stride)``), or, when ``own`` (the frame
    is a library's), the module's own (``L['self'].config.n_layer``).
    """
    read = source.removeprefix("len:").removeprefix(OBJECT_PREFIX)
    if not read.startswith(receiver) or Source(read).is_size:
        return False
    return read.startswith(f"{receiver}._modules[") or (own and len(read) > len(receiver))


#: Parts of a source that reach into code, not data (Dynamo guards them as ``ID_MATCH``,
#: ``EQUALS_MATCH`` on ``__defaults__``, ``len(...__defaults__)``).
PROGRAM_PARTS = (
    "__defaults__",
    "__kwdefaults__",
    "__closure__",
    "cell_contents",
    "__code__",
    "__class__",
    "__dict__",
    "__mro__",
    "__globals__",
    "type(",
)
