"""pytest plugin: compile budgets for tests, and a report of each failing test that compiled.

Installing symdebug is enough (entry point ``pytest11``); pytest loads this module in every
run, so it imports neither torch nor symdebug's live capture until a test asks for one.

``compile_budget`` fixture
    ``with compile_budget(recompiles=0, compiles=None, graph_breaks=None,
    specializations=None) as s:`` captures the compiles made inside the block (``s`` is
    the :class:`~symdebug.LiveSession`); more than a limit fails the test with a
    :class:`CompileBudgetError` that explains the first excess of each count.  None: no
    limit.  What each count counts is said in :mod:`symdebug.queries.budget`.
``@pytest.mark.compile_budget(recompiles=0, ...)``
    The same for the test's call (its body; fixtures' setup is not counted, so a fixture
    may warm a model up).
``--symdebug-report DIR``
    Captures the call of every test (once torch is imported) and writes ``DIR/<test id>.html``
    for each test whose call failed and compiled, whatever failed it; none for a test that
    passed.  Under pytest-xdist each worker writes its own tests' reports into ``DIR``.

Only the compiles made while a capture is held are counted: Dynamo is not reset, so what a
test (or an earlier test) compiled before stays compiled, and a call it serves is no compile.
An error the test raises itself is never replaced by a budget's failure.
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
import sys
from collections.abc import Callable, Generator, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING

import pytest

from symdebug.queries.budget import Budget
from symdebug.queries.budget_text import budget_message
from symdebug.runs.compile_threads import TRACE_LOGGER, CompileThreads

if TYPE_CHECKING:
    from symdebug.live import LiveSession

MARKER = "compile_budget"
_MARKER_HELP = (
    f"{MARKER}(recompiles=0, compiles=None, graph_breaks=None, specializations=None): fail "
    "the test when its call compiles more than this (symdebug)"
)
_REPORT_DIR = pytest.StashKey[Path]()
_SESSION = pytest.StashKey["LiveSession"]()

#: What the fixture gives: called with the limits, a context manager yielding the session.
BudgetFactory = Callable[..., "BudgetBlock"]


class CompileBudgetError(AssertionError):
    """A test, or a block of one, compiled more than its budget (the message says how)."""


def pytest_addoption(parser: pytest.Parser) -> None:
    """``--symdebug-report DIR``: an HTML report of each failing test that compiled."""
    group = parser.getgroup("symdebug", "symdebug: torch.compile budgets and reports")
    group.addoption(
        "--symdebug-report",
        dest="symdebug_report",
        metavar="DIR",
        default=None,
        help="capture each test's compiles; write DIR/<test>.html for each failing test "
        "that compiled",
    )


def pytest_configure(config: pytest.Config) -> None:
    """Register the marker (``--strict-markers``) and resolve the report folder."""
    config.addinivalue_line("markers", _MARKER_HELP)
    directory = config.getoption("symdebug_report", None)
    if directory:
        config.stash[_REPORT_DIR] = config.invocation_params.dir / directory


@pytest.fixture
def compile_budget() -> BudgetFactory:
    """Hold a block to a compile budget: ``with compile_budget(recompiles=0) as s: ...``.

    Returns
    -------
    callable
        ``compile_budget(recompiles=0, compiles=None, graph_breaks=None,
        specializations=None)``: a context manager that captures the block's compiles,
        yields the :class:`~symdebug.LiveSession`, and raises
        :class:`CompileBudgetError` at the block's end when a count is over its limit
        (not when the block raised: that error goes on).
    """
    return budget_held


def budget_held(
    recompiles: int | None = 0,
    compiles: int | None = None,
    graph_breaks: int | None = None,
    specializations: int | None = None,
) -> BudgetBlock:
    """A block held to a budget: ``with budget_held(recompiles=0) as s: ...``.

    Parameters
    ----------
    recompiles, compiles, graph_breaks, specializations
        The most of each the block may make (None: no limit); see
        :mod:`symdebug.queries.budget` for what each counts.

    Returns
    -------
    BudgetBlock
        Its ``with`` yields the block's :class:`~symdebug.LiveSession`.
    """
    return BudgetBlock(
        Budget(
            recompiles=recompiles,
            compiles=compiles,
            graph_breaks=graph_breaks,
            specializations=specializations,
        )
    )


class BudgetBlock:
    """Captures a block; at its end, fails when the block compiled more than the budget.

    A block that raises keeps its own error: the budget is then not checked.
    """

    def __init__(self, budget: Budget) -> None:
        self.budget = budget
        self._capture: AbstractContextManager[LiveSession] | None = None
        self._session: LiveSession | None = None
        self._threads: CompileThreads | None = None

    def __enter__(self) -> LiveSession:
        if self._capture is not None:  # a second capture would stop the first one's count
            raise RuntimeError(
                "this compile budget block is already held: enter it once; for a nested "
                "budget, make another (compile_budget(...))"
            )
        self._threads = CompileThreads().__enter__()
        self._capture = captured()
        self._session = self._capture.__enter__()
        return self._session

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        __tracebackhide__ = True
        capture, session, threads = self._capture, self._session, self._threads
        assert capture is not None and session is not None and threads is not None, "not entered"
        self._capture = self._session = self._threads = None
        capture.__exit__(kind, error, trace)
        threads.__exit__()
        if kind is None:
            check_budget(session, self.budget, threads.notes())


def check_budget(session: LiveSession, budget: Budget, notes: Sequence[str] = ()) -> None:
    """Raise :class:`CompileBudgetError` when ``session`` holds more than ``budget``.

    ``notes``: what else the failure says (the other threads that compiled in the block).
    """
    __tracebackhide__ = True
    message = budget_message(session.facts, budget)
    if message is not None:
        raise CompileBudgetError(_relative("\n".join([message, *notes])))


def _relative(message: str) -> str:
    """File paths under the folder pytest runs in said from there, as pytest says its own."""
    return message.replace(str(Path.cwd()) + os.sep, "")


@contextmanager
def captured() -> Iterator[LiveSession]:
    """``symdebug.capture()``, its trace records kept out of pytest's captured logs."""
    # lazy: pytest loads this plugin in every run; torch loads when a test asks for a budget
    from symdebug.live import capture  # noqa: PLC0415

    with _trace_records_dropped(), capture() as session:
        yield session


class _DropTraceRecords(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return record.name != TRACE_LOGGER


_DROP_TRACE_RECORDS = _DropTraceRecords()


@contextmanager
def _trace_records_dropped() -> Iterator[None]:
    """Keep torch's trace records out of pytest's log capture while a capture runs.

    pytest attaches its handlers to every logger that does not propagate, torch's trace
    logger too: each event the capture asks torch for would be a blank line of the
    failure's "Captured log" section.
    """
    logger = logging.getLogger(TRACE_LOGGER)
    pytests = [h for h in logger.handlers if type(h).__module__.startswith("_pytest")]
    for handler in pytests:
        handler.addFilter(_DROP_TRACE_RECORDS)
    try:
        yield
    finally:
        for handler in pytests:
            handler.removeFilter(_DROP_TRACE_RECORDS)


def _marked_budget(item: pytest.Item) -> Budget | None:
    marker = item.get_closest_marker(MARKER)
    return Budget(*marker.args, **marker.kwargs) if marker is not None else None


def _captures(item: pytest.Item, budget: Budget | None) -> bool:
    """Whether the call is captured: a budget asks, or reports do once torch is imported."""
    reporting = _REPORT_DIR in item.config.stash and "torch" in sys.modules
    return budget is not None or reporting


@pytest.hookimpl(wrapper=True, trylast=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, object, object]:
    """Capture the test's call when asked; then hold it to its marker's budget."""
    __tracebackhide__ = True
    budget = _marked_budget(item)
    if not _captures(item, budget):
        return (yield)
    with CompileThreads() as threads, captured() as session:
        item.stash[_SESSION] = session
        result = yield  # the test's own error goes on from here, unchecked
    if budget is not None:
        check_budget(session, budget, threads.notes())
    return result


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """Write the report of a failed call that compiled; say where it is."""
    report = yield
    if call.when == "call":
        session = item.stash.get(_SESSION, None)
        if session is not None:
            del item.stash[_SESSION]  # the facts are freed with the report written
        said = _report(item, session) if report.failed and session is not None else None
        if said:
            report.sections.append(("symdebug", said))
    return report


def _report(item: pytest.Item, session: LiveSession) -> str | None:
    """Write the session's HTML report for this test; what to say of it, or None."""
    directory = item.config.stash.get(_REPORT_DIR, None)
    if directory is None or not session.compiles:
        return None
    path = report_path(directory, item.nodeid, _worker(item.config))
    try:
        directory.mkdir(parents=True, exist_ok=True)
        session.to_html(path)
    except Exception as error:  # noqa: BLE001 - the test's own outcome stands; say why
        return f"symdebug report not written ({type(error).__name__}: {error})"
    return f"symdebug report: {path}"


def _worker(config: pytest.Config) -> str:
    """The xdist worker's id where every worker runs every test (``--dist each``), else ""."""
    each = getattr(config.option, "dist", None) == "each"
    return os.environ.get("PYTEST_XDIST_WORKER", "") if each else ""


_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def report_path(directory: Path, nodeid: str, worker: str = "") -> Path:
    """``DIR/tests_test_model.py_test_x_8_-1a2b3c4d.html``: the test id, made a file name.

    The digest of the whole id keeps two ids apart that read alike once sanitized or cut.
    """
    name = _UNSAFE.sub("_", nodeid).strip("._")[:120] or "test"
    digest = hashlib.sha1(f"{nodeid}\0{worker}".encode(), usedforsecurity=False).hexdigest()[:8]
    return directory / f"{name}{'-' + worker if worker else ''}-{digest}.html"


__all__ = [
    "MARKER",
    "BudgetBlock",
    "BudgetFactory",
    "CompileBudgetError",
    "budget_held",
    "captured",
    "check_budget",
    "compile_budget",
    "report_path",
]
