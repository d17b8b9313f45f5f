"""Where a plan's replays run: a fresh process (spawn), or a fork where one is proven safe.

Spawn first: the workload is sent to a fresh interpreter (:mod:`.workload_ref`) with this
process's state (:mod:`.spawned`), so a parent that used CUDA, or autograd on a CUDA build of
torch, replays as well as any.  A workload no fresh process can receive (a lambda holding a
compiled function) is forked instead, only where a probe fork proves it works
(:mod:`.fork_safety`); otherwise each replay says why it could not run.  ``start="fork"``
prefers a proven fork (it skips the fresh interpreter's start-up).  A plan's spawned replays
go through one fresh process that forks a clean child for each (:mod:`.replay_server`).
"""

from __future__ import annotations

import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Literal

from symdebug._torch.process_group import refuse_many_ranks
from symdebug.live.changes import Change
from symdebug.live.fork_safety import fork_unsafe_reason
from symdebug.live.isolated import Outcome
from symdebug.live.replay import TIMEOUT_S, Replay, Workload, forked_replay, from_outcome
from symdebug.live.replay_server import ReplayServer
from symdebug.live.spawned import parent_job, run_spawned
from symdebug.live.workload_ref import workload_ref

#: Which kind of process a plan prefers for its replays.
Start = Literal["spawn", "fork"]


class Replayer:
    """Runs one workload's replays, each in a process of its own, and says how.

    Parameters
    ----------
    workload
        The no-argument callable that makes the user's calls.
    timeout
        Seconds one replay may take.
    start
        ``spawn`` (the default) or ``fork``: the kind tried first.
    """

    def __init__(
        self, workload: Workload, *, timeout: float = TIMEOUT_S, start: Start = "spawn"
    ) -> None:
        refuse_many_ranks()  # at once: never a replay that waits on ranks it does not run
        self.workload, self.timeout = workload, timeout
        self.process, self.said = self._choose(start)
        sent = workload_ref(workload) if self.process == "spawn" else None
        self._job = parent_job(sent.payload, ()) if sent is not None else None
        self._folder: tempfile.TemporaryDirectory[str] | None = None
        self._server: ReplayServer | None = None

    def _choose(self, start: Start) -> tuple[str, str]:
        """``(process, how the plan says it)``: the kind that can run here, or ``""``."""
        ref = workload_ref(self.workload)
        spawned = f"spawn: a fresh process takes the workload {ref.how}, then forks a clean child for each replay"  # noqa: E501
        if start == "spawn" and ref.sendable:
            return "spawn", spawned
        unsafe = fork_unsafe_reason()
        if not unsafe:
            why = "asked for" if start == "fork" else f"the workload: {ref.how}"
            return "fork", f"fork: each replay in a child of this process (proven safe here; {why})"
        if ref.sendable:
            return "spawn", f"{spawned}; a fork would not work here: {unsafe}"
        cannot = f"the workload cannot be replayed: {ref.how}"
        return "", f"{cannot}; and a fork would not work here: {unsafe}"

    def __call__(self, changes: tuple[Change, ...] = ()) -> Replay:
        """One replay of the workload under ``changes``."""
        if self._job is not None:
            return from_outcome(self._spawned(changes), changes, "spawn")
        if self.process == "fork":
            return forked_replay(self.workload, changes, timeout=self.timeout)
        return Replay(changes, errors=[self.said])

    def _spawned(self, changes: tuple[Change, ...]) -> Outcome:
        """Through the plan's server; a fresh process each where it cannot fork."""
        assert self._job is not None
        server = self._server_started()
        if server.unusable:
            return run_spawned(replace(self._job, changes=changes), self.timeout)
        return server.replay(changes, self.timeout)

    def _server_started(self) -> ReplayServer:
        if self._server is None:
            self._folder = tempfile.TemporaryDirectory(prefix="symdebug-replays-")
            self._server = ReplayServer(self._job, Path(self._folder.name))  # type: ignore[arg-type]
            if self._server.unusable:
                self.said += f"; instead a fresh process per replay: {self._server.unusable}"
        return self._server

    def close(self) -> None:
        """End the server and remove its files (the replays' answers were read)."""
        if self._server is not None:
            self._server.close()
        if self._folder is not None:
            self._folder.cleanup()
        self._server = self._folder = None
