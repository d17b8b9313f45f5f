"""The overspecialization hunt's rows: each constant of a compile, and whether it was needed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from symdebug.model.frame import Frame
from symdebug.model.values import Cause, Source

#: ``needed``: the code forces the constant; ``avoidable``: a replay kept it symbolic with no
#: new error and equal outputs; ``untested``: no workload, or the replay failed.
HuntVerdict = Literal["needed", "avoidable", "untested"]
#: What was a constant: a tensor's size, an int, a float.
ConstantKind = Literal["size", "int", "float"]


@dataclass(slots=True)
class HuntRow:
    """One input dimension, int or float that was a constant in some compile.

    Attributes
    ----------
    source
        Dynamo's name of the input (``L['x'].size()[1]``).
    user_name
        As the user's code writes it (``x.shape[1]``).
    kind
        ``size``, ``int`` or ``float``.
    why_constant
        How it became one: ``static_by_default``, a specialization's cause, ``mark_static``.
    compiles
        Compiles the constant cost: the unchanged run's minus the replay's (0 when none).
    verdict
        ``needed``, ``avoidable`` or ``untested``.
    cause, user_frame
        For ``needed``: the cause class and the user line that forced it.
    change
        For ``avoidable``: the setting, mark or rewrite that kept it symbolic (its code).
    before, after
        Compiles of the unchanged run and of the replay with ``change``.
    outputs_equal
        Whether the replay's outputs equalled the unchanged run's (None: not compared).
    note
        One sentence: the verdict's evidence, or why it is untested.
    """

    source: Source
    user_name: str
    kind: ConstantKind
    why_constant: str
    verdict: HuntVerdict
    compiles: int = 0
    cause: Cause | None = None
    user_frame: Frame | None = None
    change: str = ""
    before: int = 0
    after: int = 0
    outputs_equal: bool | None = None
    note: str = ""

    def __post_init__(self) -> None:
        self.source = Source(self.source)
