"""Name notebook cells as people see them: ``Cell [3]``, not the kernel's temporary file."""

from __future__ import annotations

import sys


def cell_aliases() -> dict[str, str]:
    """The kernel's file name of each cell run so far -> ``Cell [N]`` (empty outside IPython)."""
    if "IPython" not in sys.modules:  # never import IPython just to find out
        return {}
    from IPython import get_ipython

    shell = get_ipython()
    names = getattr(getattr(shell, "compile", None), "_filename_map", None) or {}
    return {filename: f"Cell [{number}]" for filename, number in names.items()}
