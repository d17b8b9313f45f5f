"""Run a script in this process as ``python script.py ARGS`` would (``symdebug run``).

What python gives a script: its folder first on ``sys.path`` (not the current folder),
``sys.argv``, ``__main__``, and ``sys.exit``'s status.  What the script does to the process
must not cost the capture (:mod:`symdebug.live.script_guards`): ``os._exit``, a closed
stdout, a fork, ``os.chdir``, threads still compiling at the end.
"""

from __future__ import annotations

import os
import runpy
import sys
import threading
import traceback
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path

from symdebug.live.script_guards import hard_exit_caught, left_running, own_streams


@dataclass
class ScriptRun:
    """How a script run in this process ended."""

    status: int = 0
    #: What python would have printed at the end (the script's error, ``sys.exit``'s text).
    said: str = ""
    #: True in a child the script forked: its parent reports, this process must not.
    forked: bool = False
    #: What the capture may be missing: threads still running, a compile not finished.
    missing: list[str] = field(default_factory=list)


def run_as_python(
    script: str, args: Sequence[str], *, before_hard_exit: Callable[[int], None]
) -> ScriptRun:
    """Run ``script`` here as ``python script ARGS`` would; how it ended.

    ``before_hard_exit(status)`` runs when the script calls ``os._exit`` in this process,
    once ``sys``, the folder and stdout are put back: the last moment to save a capture.
    """
    pid, before = os.getpid(), set(threading.enumerate())
    with ExitStack() as state:
        state.enter_context(_python_state(script, args))

        def hard_exit(status: int) -> None:
            state.close()
            before_hard_exit(status)

        state.enter_context(hard_exit_caught(hard_exit, pid))
        status, said = _ran(script)
        forked = os.getpid() != pid
        missing = [] if forked else left_running(before)  # with the script's path and folder
    return ScriptRun(status, said, forked, missing)


def _ran(script: str) -> tuple[int, str]:
    """Run the script as ``__main__``: its exit status, and what python would print."""
    try:
        runpy.run_path(script, run_name="__main__")
    except SystemExit as exit_:  # sys.exit(3), sys.exit("message"): as python reads them
        code = exit_.code
        if code is None or isinstance(code, int):
            return int(code or 0), ""
        return 1, str(code)
    except KeyboardInterrupt:
        return 130, ""
    except Exception:  # noqa: BLE001 - the script's error is shown; the capture is kept
        return 1, traceback.format_exc()
    return 0, ""


def script_path(script: str) -> list[str]:
    """``sys.path`` as ``python script`` starts: the script's folder first.

    The entry before it (the current folder under ``python -m``, the console script's
    folder) is replaced; under ``-P`` nothing was put first, so nothing is replaced.
    """
    real = Path(script).resolve()
    folder = real if real.is_dir() else real.parent
    rest = sys.path if getattr(sys.flags, "safe_path", False) else sys.path[1:]
    return [str(folder), *rest]


@contextmanager
def _python_state(script: str, args: Sequence[str]) -> Iterator[None]:
    """``sys.argv`` and ``sys.path`` as python gives them; they and the folder put back."""
    argv, path, folder = sys.argv, sys.path[:], Path.cwd()
    sys.argv, sys.path[:] = [script, *args], script_path(script)
    try:
        with own_streams():
            yield
    finally:
        sys.argv, sys.path[:] = argv, path
        with suppress(OSError):  # the script removed it: stay where it went
            os.chdir(folder)
