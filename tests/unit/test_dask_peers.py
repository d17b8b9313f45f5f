"""``--dask`` at a peer that is no Dask scheduler: one line, status 2, within the timeout.

Real sockets on this machine: a server that accepts and never answers (distributed's own
timeout does not cover its handshake, so this hung), one that answers with random bytes
(which distributed read as a frame length of exabytes: a MemoryError traceback), and
addresses that cannot work from a command line (``tls://`` without TLS settings,
``inproc://``).  The real command runs in a process of its own, as a user runs it.
"""

from __future__ import annotations

import random
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

# Timeouts by design (seconds each): left out of `make test-fast`, run by `make test`.
pytestmark = pytest.mark.slow

RANKS = Path(__file__).resolve().parents[1] / "data" / "traces" / "multi_rank_logs"
#: Seconds each command waits for the peer (``--dask-timeout``), and at most runs.
WAIT = 2
LIMIT = 120


def _serve(answer: bytes | None) -> Iterator[str]:
    """A TCP server on a free port: each connection gets ``answer``, or nothing at all."""
    server = socket.create_server(("127.0.0.1", 0))
    held: list[socket.socket] = []

    def accept() -> None:
        while True:
            try:
                connection, _ = server.accept()
            except OSError:  # the server was closed: the test is over
                return
            held.append(connection)  # kept open: the client must not see a closed socket
            if answer is not None:
                connection.sendall(answer)

    threading.Thread(target=accept, daemon=True).start()
    try:
        yield f"127.0.0.1:{server.getsockname()[1]}"
    finally:
        server.close()
        for connection in held:
            connection.close()


@pytest.fixture
def silent_peer() -> Iterator[str]:
    yield from _serve(None)


@pytest.fixture
def garbage_peer() -> Iterator[str]:
    yield from _serve(random.Random(33).randbytes(4096))


def _command(*argv: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "symdebug", *argv, "--dask-timeout", str(WAIT)]
    return subprocess.run(command, capture_output=True, text=True, timeout=LIMIT, check=False)


def _one_line_error(result: subprocess.CompletedProcess[str], *said: str) -> None:
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    (line,) = result.stderr.splitlines()  # one line, nothing logged around it
    assert line.startswith("symdebug: "), line
    for words in said:
        assert words in line, line


def test_a_silent_peer_is_a_timeout(silent_peer: str) -> None:
    address = f"tcp://{silent_peer}"
    result = _command("summary", str(RANKS), "--dask", address)
    _one_line_error(result, f"no Dask scheduler answered at {address} within {WAIT} s")


def test_a_peer_sending_garbage_is_no_scheduler(garbage_peer: str) -> None:
    address = f"tcp://{garbage_peer}"
    result = _command("summary", str(RANKS), "--dask", address)
    _one_line_error(result, f"no Dask scheduler answered at {address}")


def test_tls_without_settings_says_what_it_needs(silent_peer: str) -> None:
    result = _command("summary", str(RANKS), "--dask", f"tls://{silent_peer}")
    _one_line_error(result, "tls:// address needs the TLS settings")


def test_inproc_says_it_is_not_reachable_from_here() -> None:
    result = _command("why", str(RANKS), "L['x']", "--dask", "inproc://127.0.0.1/1/1")
    _one_line_error(result, "inproc:// address is reachable only inside the process")


def test_the_suite_waits_as_long_as_told(silent_peer: str, tmp_path: Path) -> None:
    workloads = tmp_path / "workloads.py"
    workloads.write_text("WORKLOADS = {'nothing': lambda: None}\n")
    address = f"tcp://{silent_peer}"
    result = _command("suite", str(workloads), "-o", str(tmp_path / "out"), "--dask", address)
    _one_line_error(result, f"no Dask scheduler answered at {address} within {WAIT} s")
