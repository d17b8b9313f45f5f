"""``symdebug.fix_plan``: verify the suggested fixes by replaying the user's calls.

The one way in: :meth:`LiveSession.fix_plan <symdebug.live.session.LiveSession.fix_plan>`
calls it with its own session.  Each replay runs in a process of its own
(:class:`~symdebug.live.replayer.Replayer`); the search is
:mod:`symdebug.live.plan_search`; the verdicts (:mod:`symdebug.live.verdicts`) are read
from the plan once and set on the session's facts and the replays'.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from symdebug.live.plan_search import MAX_REPLAYS, search_fixes
from symdebug.live.plan_types import FixPlan
from symdebug.live.replay import TIMEOUT_S, Workload
from symdebug.live.replayer import Replayer, Start
from symdebug.live.verdicts import KeepsVerdicts, apply_verdicts, verdicts_of

if TYPE_CHECKING:
    from symdebug.api import Session


def fix_plan(
    workload: Workload,
    session: Session | None = None,
    *,
    max_replays: int = MAX_REPLAYS,
    progress: bool = True,
    timeout: float = TIMEOUT_S,
    start: Start = "spawn",
) -> FixPlan:
    """Replay ``workload`` under the settings of each suggested fix; return the best plan.

    Each replay runs in a process of its own (:mod:`symdebug.live.replayer`), from
    ``torch._dynamo.reset()`` with the compile caches off: the user's compiled functions
    keep their cache entries, and the session its facts.  Settings are set, marks made on
    each compiled call's arguments, and a fix that edits a function is applied by swapping
    in its rewritten code.  The fixes that were replayed get ``verified``, ``effect`` and
    ``diff``; the views show them.

    Parameters
    ----------
    workload
        A no-argument callable that makes the calls again; it may build the model and
        call ``torch.compile`` itself.  Its return value is compared between runs.
    session
        Any session (a live one, or one loaded from a log): its suggested fixes are
        candidates too, and get their verdicts.  None: the unchanged replay's fixes only.
    max_replays
        At most this many runs of ``workload``, the unchanged one included.
    progress
        Show progress on stderr while replaying.
    timeout
        Seconds one replay may take; a replay past it is stopped and said to be.
    start
        ``spawn`` (the default): each replay in a fresh process, given this process's
        settings and random state, the workload sent by reference or pickled by value; a
        workload that cannot be sent is forked, where a probe fork proves that works.
        ``fork``: fork first (faster to start), where proven safe.  The plan says which ran.

    Returns
    -------
    FixPlan
        ``changes`` (settings, marks, rewrites, in order), ``settings``, compiles
        ``before`` and ``after`` per frame, ``errors_before``, ``errors_after``,
        ``verified``, ``applied()`` to make the changes for a block and ``code()``.

    Examples
    --------
    >>> workload = lambda: [f(torch.randn(n, 4)) for n in (2, 3, 4)]  # doctest: +SKIP
    >>> print(symdebug.fix_plan(workload, s))                          # doctest: +SKIP
    """
    runner = Replayer(workload, timeout=timeout, start=start)
    known = [session.facts] if session is not None else []
    try:
        plan, seen = search_fixes(runner, known, max_replays=max_replays, progress=progress)
    finally:
        runner.close()
    plan.replayed_in = runner.said
    verdicts = verdicts_of(plan)
    for facts in seen:
        apply_verdicts(facts, verdicts)
    if isinstance(session, KeepsVerdicts):
        session.keep_verdicts(verdicts)
    return plan
