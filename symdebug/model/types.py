"""Typed facts of a session.  Plain dataclasses: no torch objects, all JSON-able.

Attribute names listed in docs/architecture.md ("Public names") are a contract: add, never
rename.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, get_args

from symdebug.model.code_types import FxNode, GraphCode, Kernel

# Frame lives in its own module, below both this one and the hunt's rows (which hold frames
# and are held by Facts); it is still a name of this module, as it always was.
from symdebug.model.frame import Frame as Frame  # noqa: PLC0414
from symdebug.model.hunt_types import HuntRow
from symdebug.model.library_paths import library_path
from symdebug.model.values import (
    Cause,
    CompileId,
    CompileKind,
    CompileStatus,
    FixKind,
    GuardStatus,
    Phase,
    Source,
    SpecializationKind,
    SymbolState,
    WhyStepKind,
)

#: Cause values (docs/architecture.md has the evidence and the fix of each).
CAUSES: tuple[Cause, ...] = get_args(Cause)
GUARD_STATUSES: tuple[GuardStatus, ...] = get_args(GuardStatus)
SYMBOL_STATES: tuple[SymbolState, ...] = get_args(SymbolState)


@dataclass(slots=True)
class Fix:
    """One way to keep an input dynamic (or to stop a recompile), as code a user can paste.

    Attributes
    ----------
    code
        Python that parses, in the user's own names (``torch._dynamo.mark_dynamic(x, 0)``,
        ``x.select(1, -1)``); never sympy's printing, never Dynamo-internal names.
    kind
        ``setting`` (a torch config value), ``mark`` (an input marked before the call) or
        ``code`` (a change to the user's code).
    explanation
        What it does and what it costs.
    settings
        The torch settings that express it, ``{dotted config name: value}``, so a replay can
        try it without editing the program; empty for code changes.
    verified
        None when not tried; True when replaying the user's calls with it gave fewer
        compiles, no new error and the same outputs; False when it did not.
    effect
        The measured effect of the replay (``f: 4 -> 1 compiles``), when tried; for a fix
        no replay could apply, why it was not tried.
    diff
        For a change to the code, the diff of the rewrite the replay swapped in.
    needs
        The torch release the fix needs (``"2.15"`` for ``static_sources``); ``""``: any.
        It is suggested only where the session's torch has it, and replayed only where the
        replaying process's torch does.
    saved
        The compiles a replay with it saved (the run's compiles before minus after), when a
        replay measured it; None when none did.
    """

    code: str
    kind: FixKind
    explanation: str = ""
    settings: dict[str, Any] = field(default_factory=dict)
    verified: bool | None = None
    effect: str = ""
    diff: str = ""
    needs: str = ""
    saved: int | None = None

    def __str__(self) -> str:
        return f"{self.code}  # {self.explanation}" if self.explanation else self.code


@dataclass(slots=True)
class Guard:
    """A shape guard torch added while compiling, with its provenance."""

    id: str
    expr: str
    compile_id: CompileId
    status: GuardStatus = "installed"
    cause: Cause = "unknown"
    user_stack: list[Frame] = field(default_factory=list)
    framework_stack: list[Frame] = field(default_factory=list)
    fx_node: str | None = None
    phase: Phase = "unknown"
    symbols: list[str] = field(default_factory=list)
    sources: list[Source] = field(default_factory=list)
    instruction: str | None = None
    aot_graph: str | None = None
    fix: str | None = None
    origin: str = "event"
    fx_node_target: str | None = None
    fx_node_inferred: bool = False
    aot_node: str | None = None
    backward_trace: bool = False
    inductor_node: str | None = None
    line_nodes: list[str] = field(default_factory=list)
    kernel: str | None = None
    #: What would stop this guard from specializing or recompiling, best first; ``fix``
    #: is the first one's text.
    fixes: list[Fix] = field(default_factory=list)
    #: The guard as Python in the user's names, shown beside ``expr`` (``x.shape[0] > 4``
    #: for ``s77 > 4``); ``""`` when some symbol has no such name (an unbacked ``u0``).
    user_expr: str = ""

    def __post_init__(self) -> None:
        if type(self.compile_id) is not CompileId:  # a builder's already is: no call then
            self.compile_id = CompileId(self.compile_id)
        if self.sources:
            self.sources = [Source(s) for s in self.sources]

    @property
    def user_frame(self) -> Frame | None:
        """Innermost user frame, or None when the compiler itself raised the guard."""
        return self.user_stack[-1] if self.user_stack else None

    @property
    def framework_frame(self) -> Frame | None:
        """The innermost framework frame that explains the guard (below the guard plumbing)."""
        return self.framework_stack[-1] if self.framework_stack else None


@dataclass(slots=True)
class Symbol:
    """A symbolic size (or a dimension that stayed a constant) in one compile."""

    name: str
    sources: list[Source]
    compile_id: CompileId
    hint: int | None = None
    range: tuple[int | str, int | str] | None = None
    state: SymbolState = "dynamic"
    cause: Cause | None = None
    user_frame: Frame | None = None
    range_locs: dict[str, str] = field(default_factory=dict)
    #: What would keep it dynamic, when it is not (set with the other fixes): the first
    #: of ``fixes``, as text.
    fix: str | None = None
    fixes: list[Fix] = field(default_factory=list)
    #: What made an unbacked symbol (``the result of .item()``, ``the size of nonzero()``,
    #: ``an input size marked unbacked``); its line is ``user_frame``.  Empty otherwise.
    origin: str = ""
    #: What the compiled graph checks of an unbacked symbol at run time (``u0 >= 0``,
    #: ``u0 <= 3``): its ``_assert_scalar`` nodes; a call that breaks one raises.
    runtime_asserts: list[str] = field(default_factory=list)
    #: Each source the user's way, shown beside it (``x.shape[0]`` for ``L['x'].size()[0]``
    #: and for a wrapper's ``L['args'][0].size()[0]``), ``""`` where only Dynamo names it
    #: (``L['___stack0']``); empty when none has such a name.
    user_names: list[str] = field(default_factory=list)
    #: The library (``transformers``) whose model-configuration constant this specialized
    #: int is: expected, so views group it with its kin instead of listing it as a problem.
    expected: str | None = None

    def __post_init__(self) -> None:
        self.compile_id = CompileId(self.compile_id)
        self.sources = [Source(s) for s in self.sources]


@dataclass(slots=True)
class Specialization:
    """A source whose value was baked into a compile as a constant."""

    source: Source
    value: int | str
    compile_id: CompileId
    cause: Cause = "unknown"
    guards: list[Guard] = field(default_factory=list)
    user_frame: Frame | None = None
    reason: str = ""
    kind: SpecializationKind = "size"
    #: The first of ``fixes``, as text.
    fix: str | None = None
    fixes: list[Fix] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.compile_id = CompileId(self.compile_id)
        self.source = Source(self.source)


@dataclass(slots=True)
class Recompile:
    """Why a frame was compiled again: the cached entry that failed, and its check."""

    compile_id: CompileId
    failed_entry: CompileId | None
    reasons: list[str]
    guard: Guard | None = None
    cause: Cause = "unknown"
    specialization: Specialization | None = None
    failed_entries: list[CompileId] = field(default_factory=list)
    fix: str | None = None
    #: The inputs whose check failed (``L['x'].size()[0]``): of the specialization, the
    #: guard, or the range bound.  Every view finds a source's recompiles by this.
    sources: list[Source] = field(default_factory=list)
    #: What would have avoided this recompile, best first; ``fix`` is the first one's text.
    fixes: list[Fix] = field(default_factory=list)
    #: The user's line behind the failed check: the guard's, the specialization's, the line
    #: that marked the input, or the line torch's reason names when no guard has a stack.
    user_frame: Frame | None = None
    #: Each of ``sources`` the user's way (``x.shape[0]``, ``self.k``), ``""`` where only
    #: Dynamo names it; empty when none has such a name.
    user_names: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.compile_id = CompileId(self.compile_id)
        self.failed_entry = CompileId(self.failed_entry) if self.failed_entry else None
        self.failed_entries = _compile_ids(self.failed_entries)
        self.sources = [Source(s) for s in self.sources]


def _compile_ids(ids: list[CompileId]) -> list[CompileId]:
    """As compile ids; a list of them already (a recompile's, a thousand long) is kept."""
    if set(map(type, ids)) <= {CompileId}:
        return ids
    return [CompileId(c) for c in ids]


@dataclass(frozen=True, slots=True)
class InputDim:
    """One dimension of a graph input tensor, or an int input, as a compile saw it.

    Immutable: the compiles of a frame share their equal dims.
    """

    source: Source
    value: int | str
    symbolic: bool

    def __post_init__(self) -> None:
        object.__setattr__(self, "source", Source(self.source))


@dataclass(slots=True)
class TensorCheck:
    """What Dynamo's ``TENSOR_MATCH`` checks of a tensor beyond its sizes and strides.

    A call's tensor must match each of these exactly, or the entry fails: its Python type
    (``Tensor``, ``Parameter``), dispatch keys (with the thread's modes applied: under
    ``inference_mode`` the same tensor has others), dtype, device index (None on the CPU)
    and ``requires_grad``; its static strides; and the ``mark_dynamic`` attributes it must
    not carry.
    """

    source: Source
    type_name: str
    dispatch_keys: str
    dtype: str
    device: int | None = None
    requires_grad: bool = False
    #: The strides as checked: an int where static, None where dynamic.
    strides: list[int | None] = field(default_factory=list)
    #: ``_dynamo_dynamic_indices`` and the like: a ``hasattr(...) == False`` guard each.
    absent_marks: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.source = Source(self.source)


@dataclass(frozen=True, slots=True)
class ShapeCheck:
    """An installed shape check as Dynamo runs it (Python code), with torch's note.

    Immutable: one is made per distinct guard tree line and shared by the compiles that
    hold the line.
    """

    code: str
    note: str = ""


@dataclass(slots=True)
class TensorMeta:
    """How a tensor input looked when compiled: enough to build one like it at new sizes."""

    dtype: str
    device: str
    requires_grad: bool = False
    size: list[int] = field(default_factory=list)
    stride: list[int] = field(default_factory=list)


@dataclass(slots=True)
class Signature:
    """Parameters of a compiled frame, to bind call arguments to sources."""

    names: list[str] = field(default_factory=list)
    positional: int = 0
    varargs: str | None = None
    varkw: str | None = None


@dataclass(slots=True)
class Callee:
    """What the user compiled, when Dynamo compiled a frame around it (or its own name).

    Attributes
    ----------
    qualname
        ``MyModule.forward`` for a compiled module (also behind torch's ``inner`` wrapper or
        a library decorator), else the frame's qualified name.
    filename, lineno
        Where the callee is defined; empty and 0 when it is the compiled frame itself.
    names
        A wrapper's inputs by the callee's parameter names: ``{"L['args'][0]": "x"}``.
        Sources stay Dynamo's (settings match them); this is what a user calls them.
    """

    qualname: str = ""
    filename: str = ""
    lineno: int = 0
    names: dict[str, str] = field(default_factory=dict)


@dataclass(slots=True)
class Compile:
    """One Dynamo frame compile (the last attempt after restarts)."""

    compile_id: CompileId
    frame_id: int
    frame_compile_id: int
    attempt: int = 0
    torch_id: str = ""
    generation: int = 0
    name: str = ""
    filename: str = ""
    lineno: int = 0
    status: CompileStatus = "ok"
    fail_type: str | None = None
    fail_reason: str | None = None
    recompile_reasons: list[str] = field(default_factory=list)
    restart_reasons: list[str] = field(default_factory=list)
    graphs: list[str] = field(default_factory=list)
    dynamic: bool | None = None
    inputs: list[InputDim] = field(default_factory=list)
    marked_dynamic: list[Source] = field(default_factory=list)
    #: Dims the user marked static (``torch._dynamo.mark_static``): a new size recompiles.
    marked_static: list[Source] = field(default_factory=list)
    #: Dynamo's ``automatic_dynamic_shapes``: False under ``torch.compile(dynamic=False)``,
    #: where a size that changes is never made dynamic.  None when the log does not say.
    automatic_dynamic: bool | None = None
    #: Dynamo's ``recompile_limit`` and ``accumulated_recompile_limit`` as this compile ran
    #: (``torch.compile(recompile_limit=N)`` sets the first for its frames); None: not logged.
    recompile_limit: int | None = None
    accumulated_recompile_limit: int | None = None
    shape_checks: list[ShapeCheck] = field(default_factory=list)
    #: Checks on the call's other values, as Dynamo runs them: ``L['mask'] is None``,
    #: ``L['flag'] == True``, ``L['mode'] == 'a'`` (a string or float; ints are ``inputs``).
    value_checks: list[ShapeCheck] = field(default_factory=list)
    #: Per source of a ``type(...) is`` value check, the class id torch compared
    #: (``___check_type_id``): ``id(type(obj))`` in the process that compiled.
    type_ids: dict[str, int] = field(default_factory=dict)
    #: What each tensor is checked for beyond sizes: type, dispatch keys, dtype, device,
    #: ``requires_grad``, static strides, marks.
    tensor_checks: list[TensorCheck] = field(default_factory=list)
    signature: Signature | None = None
    tensors: dict[str, TensorMeta] = field(default_factory=dict)
    global_state: dict[str, Any] = field(default_factory=dict)
    guard_count: int | None = None
    shape_env_guard_count: int | None = None
    seconds: float | None = None
    rank: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    #: What the user declared for this compile: the non-empty source lists of
    #: ``torch.compiler.config`` (``static_sources``, ``dynamic_sources``,
    #: ``unbacked_sources``, ``dynamic_values``: their text) and the spec of
    #: ``torch.compile(dynamic_shapes=...)`` (``dynamic_shapes``: its JSON, torch 2.14).
    declared: dict[str, Any] = field(default_factory=dict)
    #: ``export`` for a ``torch.export`` call (id ``export/<n>``); its failure is torch's
    #: ``UserError`` text with the suggested fixes.
    kind: CompileKind = "compile"
    #: What the user compiled (``MyModule.forward``): recorded by live capture, read back
    #: from a log's guard tree and the source (:mod:`symdebug.torchtext.log_callee`).
    callee: Callee | None = None
    #: The user's own line that called the compiled frame (from torch's stack above it).
    caller: Frame | None = None
    #: One line per library whose configuration constants this compile specialized
    #: (``12 model-configuration constants of transformers (layer_idx, ...) — expected``).
    expected_constants: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.compile_id = CompileId(self.compile_id)
        self.marked_dynamic = [Source(s) for s in self.marked_dynamic]
        self.marked_static = [Source(s) for s in self.marked_static]

    @property
    def title(self) -> str:
        """The name a user knows the frame by: ``MyModule.forward``, else torch's name."""
        return self.callee.qualname if self.callee and self.callee.qualname else self.name

    @property
    def frame_key(self) -> tuple[int, int]:
        """Sort key: frame, then compile number."""
        return (self.frame_id, self.frame_compile_id)


@dataclass(slots=True)
class LostDynamism:
    """A size (or int) dynamic before a graph break, a constant in a resume frame after it.

    The resume frame receives a new tensor (or a plain int): a ``mark_dynamic`` on the
    caller's tensor does not follow it, so its first compile is static and a new size
    recompiles it.  The resume frame's input is found by value (the hint of the size's
    symbol), so ``resume_sources`` may name more than one.
    """

    source: Source
    symbol: str
    value: int | str
    resume_compile: CompileId
    resume_sources: list[Source] = field(default_factory=list)
    #: Whether the broken frame's input was marked (``mark_dynamic``), not only symbolic.
    marked: bool = False

    def __post_init__(self) -> None:
        self.source = Source(self.source)
        self.resume_compile = CompileId(self.resume_compile)
        self.resume_sources = [Source(s) for s in self.resume_sources]


@dataclass(slots=True)
class GraphBreak:
    """Where Dynamo stopped tracing a frame, why, and what the rest of the frame lost.

    Attributes
    ----------
    compile_id
        The compile the break ended (its graph holds the code before the break).
    reason
        Torch's headline (``Failed to trace builtin operator``).
    explanation
        Torch's explanation and hints, as it wrote them.
    user_frame
        The user's own line inside the compiled frame that broke the graph, or that called
        into the library where it broke; None when the compiled frame holds no line of the
        user's (a compiled DDP module, ``torch.compile(opt.step)``).  Never a line of the
        code that called the compiled frame.
    user_stack
        Torch's user-code traceback of the break, outermost first: the calls that led to the
        compiled frame, then the frames traced inside it (the user's, libraries', torch's).
    framework_frame
        The innermost Dynamo frame that gave up (``symbolic_convert.py ... CALL``).
    library_frame
        The innermost traced frame, where torch says the graph broke, when it lies in a
        library (torch's Python code such as ``torch/optim/optimizer.py``, a package, the
        standard library's ``contextlib``); None when the break is in the user's own code.
    skipped
        True when torch skipped the whole frame for good (it runs eagerly, no resume frame).
    resume_frames, resume_compiles
        The resume functions the break created (``torch_dynamo_resume_in_f_at_13``) and
        their compiles.
    lost
        The dynamic sizes of the broken compile that are constants in a resume compile.
    fixes
        What would avoid the break or its cost, best first.
    expression
        For a data-dependent break or error, the expression torch could not decide
        (``Eq(u0, 1)``): it holds an unbacked symbol, which has no value at compile time.
    failed
        True when the compile raised instead of breaking (``fullgraph=True``): the call
        failed, nothing of the frame ran compiled.
    """

    compile_id: CompileId
    reason: str
    explanation: str = ""
    user_frame: Frame | None = None
    user_stack: list[Frame] = field(default_factory=list)
    framework_frame: Frame | None = None
    skipped: bool = False
    resume_frames: list[str] = field(default_factory=list)
    resume_compiles: list[CompileId] = field(default_factory=list)
    lost: list[LostDynamism] = field(default_factory=list)
    fixes: list[Fix] = field(default_factory=list)
    expression: str = ""
    failed: bool = False
    library_frame: Frame | None = None

    def __post_init__(self) -> None:
        self.compile_id = CompileId(self.compile_id)
        self.resume_compiles = [CompileId(c) for c in self.resume_compiles]

    @property
    def where(self) -> str:
        """``file:line`` of the user line, then the library's line when it broke in one.

        ``/src/train.py:12, in torch/optim/optimizer.py:79 (library)``; the library's line
        alone when the compiled frame holds no line of the user's; ``(unknown line)``.
        """
        frame, library = self.user_frame, self.library_frame
        user = f"{frame.filename}:{frame.lineno}" if frame is not None else ""
        if library is None:
            return user or "(unknown line)"
        inside = f"{library_path(library.filename)}:{library.lineno} (library)"
        return f"{user}, in {inside}" if user else inside


@dataclass(slots=True)
class WhyStep:
    """One step of an explanation, as every view shows it."""

    kind: WhyStepKind
    text: str
    #: The id of the guard the step is about (views link to it).
    guard: str | None = None
    #: The user line of the step (views jump to it).
    frame: Frame | None = None


@dataclass(slots=True)
class SourceExplanation:
    """Why one input is dynamic or a constant in its latest compile.

    Computed once, for every input, and stored in the document: ``why`` and every viewer
    read this.
    """

    source: Source
    compile_id: CompileId
    state: SymbolState
    cause: Cause | None
    value: int | str | None
    symbol: str | None = None
    guards: list[Guard] = field(default_factory=list)
    #: Compile ids of the recompiles whose failed check was on this input.
    recompiles: list[CompileId] = field(default_factory=list)
    fixes: list[Fix] = field(default_factory=list)
    user_frame: Frame | None = None
    steps: list[WhyStep] = field(default_factory=list)
    #: The input the user's way where a wrapper frame renamed it (``x.shape[0]``), else "".
    user_name: str = ""

    def __post_init__(self) -> None:
        self.compile_id = CompileId(self.compile_id)
        self.source = Source(self.source)
        self.recompiles = [CompileId(c) for c in self.recompiles]


@dataclass(slots=True)
class TorchRun:
    """The torch that compiled: its version, the release whose tables read it, how known.

    ``known`` is ``running`` (the torch of a live capture), ``recorded`` (the log's own
    version record), ``inferred`` (from torch's frames in the log) or ``assumed`` (none of
    those: the oldest release symdebug knows); ``""`` for a document written before it.
    """

    version: str = ""
    release: str = ""
    known: str = ""


@dataclass(slots=True)
class Change:
    """One distinct change to make: the best fix of one or more recompiles, said once.

    Attributes
    ----------
    fixes
        The change, as every record holds its fixes (one): its code, kind and explanation,
        and once a replay tried it, its verdict, measured effect and ``saved`` compiles.
    recompiles
        The recompiles whose best fix it is, in order: those it is expected to remove.
    causes
        Their causes, each once, in order.
    lines
        The user's lines of those recompiles, each once, in order.
    """

    fixes: list[Fix]
    recompiles: list[CompileId] = field(default_factory=list)
    causes: list[Cause] = field(default_factory=list)
    lines: list[Frame] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.recompiles = [CompileId(c) for c in self.recompiles]


@dataclass(slots=True)
class Facts:
    """Everything one session knows, as built from one event stream."""

    compiles: list[Compile] = field(default_factory=list)
    guards: list[Guard] = field(default_factory=list)
    symbols: list[Symbol] = field(default_factory=list)
    specializations: list[Specialization] = field(default_factory=list)
    recompiles: list[Recompile] = field(default_factory=list)
    fx_nodes: list[FxNode] = field(default_factory=list)
    kernels: list[Kernel] = field(default_factory=list)
    graph_code: list[GraphCode] = field(default_factory=list)
    explanations: list[SourceExplanation] = field(default_factory=list)
    graph_breaks: list[GraphBreak] = field(default_factory=list)
    sweeps: list[dict[str, Any]] = field(default_factory=list)
    problems: dict[str, int] = field(default_factory=dict)
    problem_examples: list[str] = field(default_factory=list)
    capture_errors: int = 0
    source: str = "live"
    #: The oldest compiles a live capture dropped to bound its memory (``max_compiles``).
    dropped_compiles: int = 0
    rank: int | None = None
    #: The overspecialization hunt's rows (``s.hunt()``), most compiles saved first.
    hunt: list[HuntRow] = field(default_factory=list)
    #: The marks (``torch._dynamo.mark_static`` ...) a live capture saw made, in order.
    marks: list[MarkSite] = field(default_factory=list)
    #: Which torch compiled, and which release's tables read its records.
    torch: TorchRun = field(default_factory=TorchRun)
    #: What to change, one per distinct fix, most recompiles first (the overview's lead).
    changes: list[Change] = field(default_factory=list)


@dataclass(slots=True)
class MarkSite:
    """One call of ``torch._dynamo.mark_*`` seen while capturing: where, and on what."""

    function: str
    dim: int
    shape: list[int]
    frame: Frame
    min: int | None = None
    max: int | None = None

    @staticmethod
    def from_dict(data: dict[str, Any]) -> MarkSite:
        """A site as the capture records it (and a document stores it)."""
        return MarkSite(**dict(data, frame=Frame(**data["frame"]), shape=list(data["shape"])))
