"""The sections of one torch release's adapter: what symdebug knows of that release, by area.

Each section is plain data (names, paths, texts), read by the code of its area: the cause
classifier reads :class:`CauseFrames`, the guard-tree reader :class:`GuardText`, the trace
reader :class:`LogRecords`, the live adapters :class:`CacheEntryApi` and
:class:`ShapeEnvHooks`, the fixes :class:`Knobs`.  Nothing here imports torch: a log is read
with the tables of the release that wrote it, on a machine with any torch, or none.
"""

from __future__ import annotations

from dataclasses import dataclass

#: A release, as ``(major, minor)``: ``(2, 15)``.
Version = tuple[int, int]


@dataclass(frozen=True)
class CauseFrames:
    """Torch's own functions and files whose frames on a guard's stack are evidence of a cause.

    Attributes
    ----------
    int_use
        Functions that take a symbolic int's value as a Python int (``range(n)``,
        ``__index__``): the guard they add is ``int_specialized``.
    value_asked
        Functions through which Python code asks a symbolic value (``if x.shape[0] > 4``).
    op_files
        Path parts of operators' meta functions and decompositions (``op_requirement``).
    node_runner
        ``(path suffix, function)``: Dynamo running an FX node on fake tensors.
    autograd_grad
        ``(function, path part)``: AOT tracing the joint graph (``backward``).
    inductor
        The path part of Inductor's files (``inductor``).
    sequence_compare
        Functions through which Dynamo compares two sequences for Python
        (``a.shape[2:] != b.shape[2:]``): no operator, so a branch when Python asks.
    """

    int_use: frozenset[str]
    value_asked: frozenset[str]
    op_files: tuple[str, ...]
    node_runner: tuple[str, str]
    autograd_grad: tuple[str, str]
    inductor: str
    sequence_compare: frozenset[str]


@dataclass(frozen=True)
class GuardText:
    """How Dynamo's guard tree and recompile reasons word what symdebug reads.

    Attributes
    ----------
    aliasing_kinds
        Guard kinds whose line is ``L['a'] is L['b']`` (two arguments one object).
    hint_note
        A regular expression for the note torch appends to some guards and reasons
        (``(HINT: type list)``, ``(HINT: Dictionary ... must contain key 'k'; ...)``), or
        ``""`` when it appends none.
    """

    aliasing_kinds: tuple[str, ...]
    hint_note: str


@dataclass(frozen=True)
class LogRecords:
    """The structured trace records, as this release writes them.

    Attributes
    ----------
    version_artifact
        The artifact that opens a log with the version (``{"pytorch_version": ...}``).
    export_in_compile_context
        Whether a non-strict ``torch.export`` logs inside a Dynamo compile context (its
        records carry a compile id and take a frame id) rather than outside any compile.
    unread_payloads
        Artifacts and records no fact reads: a live capture lets torch skip building them.
    """

    version_artifact: str
    export_in_compile_context: bool
    unread_payloads: frozenset[str]


@dataclass(frozen=True)
class CacheEntryApi:
    """Where Dynamo's cache entries and lookups are read (``module:attribute``)."""

    entry_list: str
    guard_complete_hook: str
    stance: str


@dataclass(frozen=True)
class ShapeEnvHooks:
    """The ShapeEnv attributes read at the end of a compile (``symbolic_shapes.py``).

    Attributes
    ----------
    backed_values
        Symbol -> the value it was compiled with (its hint).
    ignored_counter
        The counter key of guards a frozen ShapeEnv ignored (a lazy backward's).
    """

    backed_values: str
    ignored_counter: str


@dataclass(frozen=True)
class Knobs:
    """What a fix may ask of this release: settings, ``torch.compile`` keywords, mark bounds.

    Attributes
    ----------
    settings
        Dotted config names a fix may set (``torch.compiler.config.dynamic_sources``).
    compile_keywords
        Keywords of ``torch.compile`` that declare dynamism (``dynamic_shapes``, 2.14).
    mark_bounds
        Whether ``maybe_mark_dynamic(t, i, min=, max=)`` takes bounds (2.15).
    """

    settings: frozenset[str]
    compile_keywords: frozenset[str]
    mark_bounds: bool


@dataclass(frozen=True)
class Fingerprint:
    """Frames on every guard's stack in this release, ``(path suffix, function, line)``.

    How a log without its version record is matched to a release.
    """

    frames: frozenset[tuple[str, str, int]]


@dataclass(frozen=True)
class Release:
    """Everything symdebug knows of one torch release (``2.15``), a section per torch area."""

    version: Version
    #: The exact version CI proves it on (``make test``; the Makefile reads ``TESTED``).
    tested: str
    frames: CauseFrames
    guard_text: GuardText
    records: LogRecords
    cache_entries: CacheEntryApi
    shape_env: ShapeEnvHooks
    knobs: Knobs
    fingerprint: Fingerprint

    @property
    def name(self) -> str:
        """``"2.15"``."""
        return f"{self.version[0]}.{self.version[1]}"
