"""A client of the Dask scheduler at an address a user gave: a bounded wait, a one-line error.

distributed's connect timeout does not cover the handshake after the connect: a peer that
accepts and never answers hangs ``Client(address)`` for good, and one that sends garbage
raises whatever its bytes decode to (a MemoryError for a frame length of exabytes).  So the
handshake is tried here first, in a thread of its own (a notebook's thread already runs an
event loop), under the deadline; only then does the client connect.

Every command line and ``import symdebug`` import this module for its constants, and only
``--dask`` connects: asyncio, the thread pool and distributed are imported when it does
(asyncio alone costs a tenth of ``import symdebug``).
"""

from __future__ import annotations

import time
from typing import Any

__all__ = ["DASK_CONNECT_SECONDS", "DaskConnectError", "connect_dask"]

#: How long to wait for a Dask scheduler to answer, unless told (seconds).
DASK_CONNECT_SECONDS = 30.0
#: What a scheme needs that an address alone does not give.
_HINTS = {
    "tls": "a tls:// address needs the TLS settings of Dask's configuration (distributed.comm.tls)",
    "inproc": "an inproc:// address is reachable only inside the process that made it; "
    "give the scheduler's tcp:// address",
}
_DETAIL_MAX = 200


class DaskConnectError(ValueError):
    """No Dask scheduler answered at the address (a usage error: status 2 on the CLI)."""


def connect_dask(address: str, timeout: float = DASK_CONNECT_SECONDS) -> Any:
    """A ``distributed.Client`` of the scheduler at ``address``, waiting at most ``timeout``.

    Raises
    ------
    DaskConnectError
        If nothing answered in time, the peer is no Dask scheduler, or the address cannot
        be reached from here (a ``tls://`` one without TLS settings, an ``inproc://`` one).
    """
    if not timeout > 0:  # NaN too
        raise DaskConnectError(f"the Dask connect timeout must be positive, not {timeout:g}")
    # lazy: only --dask connects (see the module's docstring)
    import asyncio  # noqa: PLC0415
    from concurrent.futures import ThreadPoolExecutor  # noqa: PLC0415

    deadline = time.monotonic() + timeout
    with ThreadPoolExecutor(1, thread_name_prefix="symdebug-dask-probe") as probe:
        failure = probe.submit(asyncio.run, _handshake(address, timeout)).result()
    if failure is not None:
        raise _error(address, timeout, failure)
    from distributed import Client  # noqa: PLC0415 - after the handshake said why it cannot

    connect: Any = Client  # distributed ships no type hints
    try:
        return connect(address, timeout=f"{max(deadline - time.monotonic(), 1.0)}s")
    except Exception as error:  # noqa: BLE001 - the scheduler went away after the handshake
        raise _error(address, timeout, error) from None


async def _handshake(address: str, timeout: float) -> BaseException | None:
    """Connect and shake hands as a client would; the error instead of raising it."""
    # lazy: only --dask connects (see the module's docstring)
    import asyncio  # noqa: PLC0415

    from distributed.comm.core import connect as untyped_connect  # noqa: PLC0415
    from distributed.security import Security as UntypedSecurity  # noqa: PLC0415

    connect: Any = untyped_connect  # distributed ships no type hints
    settings: Any = UntypedSecurity
    try:
        arguments = settings().get_connection_args("client")  # TLS from Dask's configuration
        comm = await asyncio.wait_for(connect(address, timeout, **arguments), timeout)
        await comm.close()
    except Exception as error:  # noqa: BLE001 - a hostile peer may raise anything
        return error
    return None


def _error(address: str, timeout: float, error: BaseException) -> DaskConnectError:
    """The one line that says why, with a hint where the address's scheme needs one."""
    said = f"no Dask scheduler answered at {address}"
    if isinstance(error, TimeoutError):
        return DaskConnectError(f"{said} within {timeout:g} s")
    lines = str(error).strip().splitlines()
    detail = f"{type(error).__name__}: {lines[0] if lines else ''}".rstrip(": ")
    detail = detail if len(detail) <= _DETAIL_MAX else detail[:_DETAIL_MAX] + "..."
    hint = _HINTS.get(address.partition("://")[0].lower())
    if isinstance(error, MemoryError | UnicodeError) or "deserializ" in detail.lower():
        hint = "what it sent is no Dask message"  # a frame length of exabytes, say
    return DaskConnectError(f"{said}: {hint} ({detail})" if hint else f"{said} ({detail})")
