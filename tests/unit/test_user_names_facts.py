"""Names a user can act on, on hand-built values: wrapper inputs by parameter name, the
user's own code against libraries, a library's configuration constants grouped."""

from __future__ import annotations

from pathlib import Path

from symdebug.model.names import frame_title, sources_named, user_name
from symdebug.model.types import Callee, Compile, Frame, Symbol
from symdebug.torchtext.constants import constant_name, grouped_line, library_constant
from symdebug.torchtext.log_callee import log_callee
from symdebug.torchtext.own_code import call_site, library_of, own_frame

SITE = "/venv/lib/python3.11/site-packages"
NAMES = {"L['args'][0]": "x", "L['kwargs']['x']": "x", "L['args'][1]": "self"}


def test_user_name_replaces_a_wrapper_root() -> None:
    assert user_name("L['args'][0].size()[1]", NAMES) == "x.shape[1]"
    assert user_name("L['kwargs']['x']", NAMES) == "x"
    assert user_name("L['args'][10]", NAMES) == "args[10]"  # no parameter of that position
    module = "L['args'][1]._modules['layers']._modules['0'].head_dim"
    assert user_name(module, NAMES) == "self.layers[0].head_dim"
    assert sorted(sources_named(NAMES, "x")) == ["L['args'][0]", "L['kwargs']['x']"]


def test_frame_title_prefers_the_callee() -> None:
    inner = Compile("0/0", 0, 0, name="inner", filename=f"{SITE}/torch/x.py", lineno=67)
    assert frame_title(inner) == f"inner ({SITE}/torch/x.py:67)"
    inner.callee = Callee("MyModule.forward", "/home/me/model.py", 7)
    assert frame_title(inner) == "MyModule.forward (/home/me/model.py:7)"


def test_library_of() -> None:
    assert library_of(f"{SITE}/transformers/models/llama/modeling_llama.py") == "transformers"
    assert library_of("/usr/lib/python3/dist-packages/six.py") == "six"
    assert library_of(f"{SITE}/torch/nn/modules/linear.py") == "torch"
    assert library_of("/home/me/train.py") is None


def test_own_frame_is_the_deepest_own_line_else_the_call_site() -> None:
    mine = Frame("/home/me/model.py", 9, "forward", "return self.lin(x)")
    torch_line = Frame(f"{SITE}/torch/nn/modules/linear.py", 134, "forward")
    caller = Frame("/home/me/run.py", 3, "<module>", "out = model(x)")
    assert own_frame([mine, torch_line]) is mine
    assert own_frame([torch_line], caller) is caller
    assert call_site([Frame(f"{SITE}/a/b.py", 1, "f"), caller, torch_line]) is caller


def _constant(source: str, filename: str) -> Symbol:
    return Symbol(
        "16",
        [source],
        "0/0",
        state="specialized",
        cause="int_specialized",
        user_frame=Frame(filename, 1, "forward"),
    )


def test_library_constants_are_grouped_and_own_ones_are_not() -> None:
    compile_ = Compile("0/0", 0, 0, name="forward", filename=f"{SITE}/transformers/m.py")
    library = _constant("L['self'].attn.head_dim", f"{SITE}/transformers/m.py")
    own = _constant("L['self'].chunk", "/home/me/model.py")
    read_by_torch = _constant("L['self'].config.n", f"{SITE}/torch/nn/modules/container.py")
    size = _constant("L['x'].size()[0]", f"{SITE}/transformers/m.py")
    assert library_constant(library, compile_) == "transformers"
    assert library_constant(read_by_torch, compile_) == "transformers"  # the callee's library
    assert library_constant(own, compile_) is None
    assert library_constant(size, compile_) is None
    line = grouped_line("transformers", [library, read_by_torch])
    assert line == "2 model-configuration constants of transformers (head_dim, n) — expected"


def test_constant_name() -> None:
    assert constant_name("L['self']._modules['a'].layer_idx") == "layer_idx"
    assert constant_name("G['m'].apply_rotary_pos_emb.__defaults__[0]") == (
        "apply_rotary_pos_emb default"
    )
    assert constant_name("L['func'].__closure__[0].cell_contents.__defaults__[7]") == (
        "a default argument"
    )


def test_guard_line_is_the_users_own_with_the_library_line_as_context() -> None:
    from symdebug.model.types import Facts, Guard
    from symdebug.renderers.console import render_summary

    mine = Frame("/home/me/model.py", 9, "forward", "return self.lin(x)")
    linear = Frame(f"{SITE}/torch/nn/modules/linear.py", 134, "forward", "return F.linear(x)")
    caller = Frame("/home/me/run.py", 3, "<module>", "out = model(x)")
    guard = Guard("g0", "Eq(s0, 3)", "0/0", user_stack=[mine, linear], cause="op_requirement")
    hf = Frame(f"{SITE}/transformers/cache_utils.py", 12, "update")
    hf_guard = Guard("g1", "Eq(s1, 4)", "0/0", user_stack=[hf], cause="op_requirement")
    compile_ = Compile("0/0", 0, 0, name="forward", filename="/home/me/model.py", caller=caller)
    text = render_summary(Facts(compiles=[compile_], guards=[guard, hf_guard]))
    assert "Eq(s0, 3)  @ model.py:9 (in torch: linear.py:134)" in text
    assert "Eq(s1, 4)  @ run.py:3 (in transformers: cache_utils.py:12)" in text


def test_why_steps_name_the_users_line_then_the_library_line() -> None:
    from symdebug.model.types import Guard
    from symdebug.processors.explanations import guard_steps

    hf = Frame(f"{SITE}/transformers/cache_utils.py", 12, "update", "k = cat(k, new)")
    caller = Frame("/home/me/run.py", 3, "<module>", "out = model(x)")
    guard = Guard("g1", "Eq(s1, 4)", "0/0", user_stack=[hf], cause="op_requirement")
    lines = [step for step in guard_steps(guard, caller) if step.kind == "line"]
    assert [step.frame for step in lines] == [caller, hf]
    assert lines[1].text.startswith("in transformers: ")
    assert [step.frame for step in guard_steps(guard) if step.kind == "line"] == [hf]


WRAPPER = Frame(f"{SITE}/torch/_dynamo/external_utils.py", 67, "inner")
TREE = (
    "| | | | +- GuardManager: source=L['fn'].__closure__[0].cell_contents, accessed_by="
    "GetAttrGuardAccessor(cell_contents), type=<class '__main__.Encoder'>, tag_safe=(F, F)\n"
    "| +- GuardManager: source=L['args'][0], accessed_by=TupleGetItemGuardAccessor(0), "
    "type=<class 'torch.Tensor'>, tag_safe=(False, False)\n"
    "| +- GuardManager: source=L['kwargs']['mask'], accessed_by=DictGetItemGuardAccessor"
    "('mask'), type=<class 'torch.Tensor'>, tag_safe=(False, False)\n"
)
SCRIPT = """
import torch

class Base(torch.nn.Module):
    @torch.no_grad()
    def forward(self, x, mask=None, /, *rest):
        return x


class Encoder(Base):
    pass
"""


def test_log_callee_reads_the_class_and_forward_from_the_script(tmp_path: Path) -> None:
    script = tmp_path / "train.py"
    script.write_text(SCRIPT, encoding="utf-8")
    start = [Frame(str(script), 20, "<module>"), WRAPPER]
    callee = log_callee(TREE, [str(script)], start)
    assert callee == Callee(
        "Encoder.forward",
        str(script),
        5,  # the decorator's line, as co_firstlineno says
        {
            "L['args'][0]": "x",
            "L['args'][1]": "mask",
            "L['kwargs']['x']": "x",
            "L['kwargs']['mask']": "mask",
        },
    )


def test_log_callee_without_the_source_keeps_dynamos_names(tmp_path: Path) -> None:
    start = [Frame(str(tmp_path / "gone.py"), 20, "<module>"), WRAPPER]
    assert log_callee(TREE, [], start) == Callee("Encoder.forward")
    own = Frame(str(tmp_path / "gone.py"), 3, "wrapper")  # the user's own wrapper: no callee
    assert log_callee(TREE, [], [start[0], own]) is None
    assert log_callee(TREE.replace("__main__.Encoder", "torch.nn.Linear"), [], start) is None
