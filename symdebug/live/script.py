"""The child side of a script replay: apply settings, then run the script.

``python -m symdebug.live.script SETTINGS_JSON script.py ARGS`` applies the settings, as
anyone could with ``setattr``, and runs the script as ``python script.py ARGS`` would.  The
parent side (:mod:`symdebug.scripts`) measures each run from the trace the child wrote.
"""

from __future__ import annotations

import json
import runpy
import sys
from collections.abc import Sequence
from pathlib import Path


def child_main(arguments: Sequence[str]) -> None:
    """Apply the settings (JSON), then run the script as ``python script.py ARGS`` would."""
    from symdebug._torch.settings import apply_settings

    settings, script, *rest = arguments
    apply_settings(json.loads(settings))
    sys.argv = [script, *rest]
    sys.path.insert(0, str(Path(script).resolve().parent))
    runpy.run_path(script, run_name="__main__")


if __name__ == "__main__":
    child_main(sys.argv[1:])
