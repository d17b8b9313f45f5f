"""One default timeout for every replay (issue 46, point 19): the Python API's is the
command line's (``tests/unit/test_cli_help.py``)."""

from __future__ import annotations

import inspect

from symdebug.live.fix_plan import fix_plan
from symdebug.live.session import LiveSession
from symdebug.model.values import REPLAY_TIMEOUT_S


def test_the_python_api_has_the_same_default() -> None:
    for function in (fix_plan, LiveSession.fix_plan, LiveSession.hunt):
        assert inspect.signature(function).parameters["timeout"].default == REPLAY_TIMEOUT_S
