"""Notebook integration: ``%load_ext symdebug`` and the ``%symdebug`` magics.

Imported only in a notebook (by ``%load_ext symdebug`` and :func:`symdebug.explorer`):
IPython and the live capture load with it.
"""

from __future__ import annotations

from typing import Any

from IPython import get_ipython

from symdebug.notebook.magics import SymdebugMagics


def session() -> Any:
    """The session that ``%load_ext symdebug`` is filling (None before it is loaded)."""
    shell = get_ipython()
    magics = shell.magics_manager.registry.get("SymdebugMagics") if shell else None
    return magics.session if magics is not None else None


def load_extension(ipython: Any) -> None:
    """Register the magics and start capturing for the following cells."""
    magics = SymdebugMagics(ipython)
    ipython.register_magics(magics)
    magics.start()
    print(
        "symdebug: capturing torch.compile shape guards for the following cells "
        "(%symdebug to explore, %symdebug off to stop)"
    )


def unload_extension(ipython: Any) -> None:
    """Stop capturing."""
    magics = ipython.magics_manager.registry.get("SymdebugMagics")
    if magics is not None:
        magics.stop()
