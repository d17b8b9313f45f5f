"""Apply a candidate's changes for a block: settings, calls changed, functions rewritten."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack, contextmanager

from symdebug._torch.settings import settings_applied
from symdebug.live.call_changes import calls_changed
from symdebug.live.changes import Change, settings_of
from symdebug.live.code_swap import code_swapped, function_at, rewritten_code


class ChangeError(Exception):
    """A change that could not be applied (its function is gone, its rewrite does not compile)."""


def _swap(stack: ExitStack, change: Change) -> None:
    rewrite = change.rewrite
    if rewrite is None:
        return
    function = function_at(rewrite.filename, rewrite.firstlineno)
    if function is None:
        raise ChangeError(f"no function {rewrite.qualname} of {rewrite.filename} is alive")
    try:
        code = rewritten_code(function, rewrite.after, rewrite.firstlineno)
    except (SyntaxError, ValueError) as error:
        raise ChangeError(f"the rewrite of {rewrite.qualname} does not compile: {error}") from None
    stack.enter_context(code_swapped(function, code))


@contextmanager
def changes_applied(changes: tuple[Change, ...]) -> Iterator[None]:
    """Every change in force for the block; all undone after, even when the block raises."""
    with ExitStack() as stack:
        stack.enter_context(settings_applied(settings_of(changes)))
        for change in changes:
            _swap(stack, change)
        stack.enter_context(calls_changed(changes))
        yield
