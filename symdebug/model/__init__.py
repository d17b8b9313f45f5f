"""The Session model: one set of typed facts that every query and view reads."""

from symdebug.model.types import (
    Compile,
    Frame,
    Guard,
    InputDim,
    Recompile,
    Specialization,
    Symbol,
)

__all__ = ["Compile", "Frame", "Guard", "InputDim", "Recompile", "Specialization", "Symbol"]
