"""The child side of a script replay: apply the changes, then run the script.

``python -m symdebug.live.script CHANGES_PICKLE script.py ARGS`` applies the changes (settings
set, compiled calls marked, the script's own functions rewritten in its source) and runs the
script as ``python script.py ARGS`` would.  The parent side (:mod:`symdebug.scripts`)
measures each run from the trace the child wrote.
"""

from __future__ import annotations

import pickle
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from symdebug._torch.settings import apply_settings
from symdebug.live.call_changes import calls_changed
from symdebug.live.changes import Change, settings_of


def rewritten_script(script: str, changes: Sequence[Change]) -> str:
    """The script's source with each rewrite of one of its functions made in place."""
    source = Path(script).read_text()
    for change in changes:
        rewrite = change.rewrite
        if rewrite is None:
            continue
        if Path(rewrite.filename).resolve() != Path(script).resolve():
            sys.exit(
                f"symdebug: a rewrite of {rewrite.filename} (not the script) cannot be replayed"
            )
        source = source.replace(rewrite.before, rewrite.after, 1)
    return source


def child_main(arguments: Sequence[str]) -> None:
    """Apply the changes, then run the script as ``python script.py ARGS`` would."""
    changes_file, script, *rest = arguments
    changes: tuple[Change, ...] = pickle.loads(Path(changes_file).read_bytes())  # noqa: S301
    apply_settings(settings_of(changes))
    sys.argv = [script, *rest]
    sys.path.insert(0, str(Path(script).resolve().parent))
    code = compile(rewritten_script(script, changes), script, "exec")
    namespace: dict[str, Any] = {"__name__": "__main__", "__file__": script}
    with calls_changed(changes):
        exec(code, namespace)  # noqa: S102 - the user's own script, as they asked


if __name__ == "__main__":
    child_main(sys.argv[1:])
