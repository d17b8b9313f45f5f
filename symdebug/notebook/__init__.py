"""Notebook integration: ``%load_ext symdebug`` and the ``%symdebug`` magics."""

from __future__ import annotations

from typing import Any


def load_extension(ipython: Any) -> None:
    """Register the magics and start capturing for the following cells."""
    from symdebug.notebook.magics import SymdebugMagics

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
