"""Where a graph break lies, on hand-written tracebacks (no torch): the user line is found
inside the compiled frame only, the library line is the innermost frame when a library's,
and the standard library is a library."""

from __future__ import annotations

from symdebug.builders.compile_events import group_by_compile
from symdebug.builders.graph_breaks_builder import build_graph_breaks
from symdebug.events import CompileKey, Event
from symdebug.model.library_paths import library_path, stdlib_module
from symdebug.model.serialize import facts_from_dict, facts_to_dict
from symdebug.model.types import Compile, Facts, Frame
from symdebug.torchtext.break_frames import compiled_region, placed, traced_name
from symdebug.torchtext.own_code import library_of

SITE = "/venv/lib/python3.11/site-packages"
CALLER = Frame("/src/train.py", 40, "main", "out = ddp(x)")
MODULE = Frame(f"{SITE}/torch/nn/modules/module.py", 1789, "_call_impl")
INNER = Frame(f"{SITE}/torch/_dynamo/external_utils.py", 69, "inner")
DDP = Frame(f"{SITE}/torch/nn/parallel/distributed.py", 1757, "_pre_forward")
STEP = Frame("/src/train.py", 12, "step", "opt.step()")
OPTIM = Frame(f"{SITE}/torch/optim/optimizer.py", 79, "_use_grad")


def test_a_compiled_ddp_module_has_no_user_line_only_the_library_line() -> None:
    stack = [CALLER, MODULE, INNER, DDP]
    assert compiled_region(stack, "inner", INNER.filename) == [INNER, DDP]
    assert placed(stack, "inner", INNER.filename) == (None, DDP)  # never the caller's line


def test_the_user_line_is_the_compiled_frames_call_into_the_library() -> None:
    stack = [CALLER, STEP, OPTIM]
    assert placed(stack, "step", "/src/train.py") == (STEP, OPTIM)


def test_a_break_in_the_users_own_code_has_no_library_line() -> None:
    own = Frame("/src/train.py", 7, "announced", 'print("entering")')
    contextlib = Frame("/usr/lib/python3.11/contextlib.py", 111, "__init__")
    stack = [CALLER, STEP, contextlib, own]
    assert placed(stack, "step", "/src/train.py") == (own, None)


def test_a_resume_frame_is_found_by_the_name_torch_gives_it() -> None:
    assert traced_name("torch_dynamo_resume_in_step_at_12") == "step"
    resumed = Frame("/src/train.py", 14, "step", "opt.zero_grad()")
    stack = [CALLER, resumed, OPTIM]
    assert placed(stack, "torch_dynamo_resume_in_step_at_12", "/src/train.py") == (resumed, OPTIM)


def test_a_caller_of_the_same_name_is_not_the_compiled_frame() -> None:
    outer = Frame("/src/train.py", 30, "step", "return inner_model.step(x)")
    stack = [outer, MODULE, INNER, DDP]
    assert placed(stack, "inner", INNER.filename) == (None, DDP)
    assert compiled_region([outer, STEP, OPTIM], "step", "/src/train.py") == [STEP, OPTIM]


def test_the_standard_library_is_a_library_named_by_its_module() -> None:
    assert stdlib_module("/usr/lib/python3.11/contextlib.py") == "contextlib"
    assert stdlib_module("C:\\Python311\\Lib\\concurrent\\futures\\thread.py") == "concurrent"
    assert stdlib_module("<frozen runpy>") == "runpy"
    assert stdlib_module(f"{SITE}/tinylib/__init__.py") is None
    assert stdlib_module("/src/train.py") is None
    assert library_of("/root/.pyenv/versions/3.11.7/lib/python3.11/contextlib.py") == "contextlib"
    assert library_of("<frozen runpy>") == "runpy"


def test_library_files_are_said_inside_their_root() -> None:
    assert library_path(DDP.filename) == "torch/nn/parallel/distributed.py"
    assert library_path("/usr/lib/python3.11/contextlib.py") == "contextlib.py"
    assert library_path("/opt/src/pytorch/torch/optim/adam.py") == "torch/optim/adam.py"
    assert library_path("/src/train.py") == "/src/train.py"


PAYLOAD = f"""Graph break in user code at {DDP.filename}:1757
Graph Break Reason: Encountered graph break when attempting to trace CALL:

Unsupported method call
  Explanation: Dynamo does not know how to trace method `set_runtime_stats_and_log`

User code traceback:
  File "{CALLER.filename}", line 40, in main
    out = ddp(x)
  File "{MODULE.filename}", line 1789, in _call_impl
    return forward_call(*args, **kwargs)
  File "{INNER.filename}", line 69, in inner
    return fn(*args, **kwargs)
  File "{DDP.filename}", line 1757, in _pre_forward
    self.logger.set_runtime_stats_and_log()

Traceback (most recent call last):
  File "{SITE}/torch/_dynamo/exc.py", line 727, in unimplemented
    raise Unsupported(msg, gb_type, skip_frame)
"""


def test_the_builder_places_the_break_inside_the_compiled_frame_and_round_trips() -> None:
    event = Event("artifact:dynamo_graph_break_reason", {}, CompileKey(0, 0, 0), payload=PAYLOAD)
    (group,) = group_by_compile([event])
    compiled = Compile("0/0", 0, 0, name="inner", filename=INNER.filename)
    (brk,) = build_graph_breaks(group, compiled)
    assert brk.user_frame is None and brk.library_frame is not None
    assert (brk.library_frame.filename, brk.library_frame.lineno) == (DDP.filename, 1757)
    assert brk.where == "torch/nn/parallel/distributed.py:1757 (library)"
    assert len(brk.user_stack) == 4  # torch's traceback whole, the caller's line included
    again = facts_from_dict(facts_to_dict(Facts(graph_breaks=[brk])))
    assert again.graph_breaks == [brk]
