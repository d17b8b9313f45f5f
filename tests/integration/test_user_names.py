"""Names a user can act on (issue 12, point 5): a compiled module by its class and
``forward``, its inputs by ``forward``'s parameter names, the user line in the user's own
file, and a library's model-configuration constants grouped as expected."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import pytest
import torch
from programs import captured, traced

import symdebug
from symdebug._torch.callee import callee_of


class MyModule(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.lin = torch.nn.Linear(3, 4)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if x.shape[0] > 4:  # a branch on a size
            x = x * 2
        return self.lin(x)


def run_module(*, wrap: bool) -> symdebug.Session:
    # wrap_top_frame: torch compiles its own `inner(*args, **kwargs)` around the module (as
    # for a torch.nn module): Dynamo names the input L['args'][0].
    model = MyModule()
    with symdebug.capture() as session, torch._dynamo.config.patch(wrap_top_frame=wrap):
        compiled = torch.compile(model, backend="eager")
        for rows in (8, 6, 5):
            compiled(torch.randn(rows, 3))
    return session


@pytest.mark.parametrize("wrap", [False, True])
def test_compiled_module_named_by_class_and_forward(wrap: bool) -> None:
    session = run_module(wrap=wrap)
    assert {c.title for c in session.compiles} == {"MyModule.forward"}
    text = str(session)
    assert "frame MyModule.forward (" in text
    assert f"{Path(__file__).name}:" in text.splitlines()[2]
    explanation = session.why("x", 0)
    assert explanation.state == "dynamic"
    assert explanation.user_frame is not None
    assert explanation.user_frame.filename == __file__
    assert "x.shape[0] > 4" in explanation.user_frame.line


def test_wrapper_inputs_shown_by_parameter_name() -> None:
    session = run_module(wrap=True)
    compile_ = session.compiles[-1]
    assert compile_.name == "inner"  # torch's frame, kept as it is
    assert compile_.callee is not None
    assert compile_.callee.names["L['args'][0]"] == "x"
    explanation = session.why("x", 0)
    assert explanation.source == "L['args'][0].size()[0]"  # Dynamo's name stays
    assert explanation.user_name == "x.shape[0]"
    assert str(explanation).startswith("x.shape[0] (L['args'][0].size()[0]) is dynamic")
    assert "x.shape[0] (L['args'][0].size()[0])" in str(session)


def test_callee_and_caller_survive_save_and_load(tmp_path: Path) -> None:
    session = run_module(wrap=True)
    path = tmp_path / "run.symdebug.json"
    session.save(path)
    loaded = symdebug.load(path)
    assert loaded.compiles[-1].callee == session.compiles[-1].callee
    assert loaded.compiles[-1].caller == session.compiles[-1].caller
    assert loaded.compiles[-1].caller is not None
    assert loaded.compiles[-1].caller.filename == __file__
    assert loaded.why("x", 0).user_name == "x.shape[0]"


def test_hugging_face_decode_loop_groups_config_constants() -> None:
    transformers = pytest.importorskip("transformers")
    torch.manual_seed(0)
    config = transformers.LlamaConfig(
        num_hidden_layers=2,
        hidden_size=32,
        num_attention_heads=2,
        num_key_value_heads=2,
        intermediate_size=64,
        vocab_size=100,
        max_position_embeddings=128,
    )
    model = transformers.LlamaForCausalLM(config).eval()
    with symdebug.capture() as session, torch.no_grad():
        compiled = torch.compile(model, backend="eager")
        out = compiled(input_ids=torch.randint(0, 100, (1, 5)), use_cache=True)
        for _ in range(3):  # decode: one new token at a time
            token = out.logits[:, -1:].argmax(-1)
            out = compiled(input_ids=token, past_key_values=out.past_key_values, use_cache=True)
    text = str(session)
    assert "frame LlamaForCausalLM.forward (" in text
    grouped = [line for line in text.splitlines() if "model-configuration constants" in line]
    assert len(grouped) == len(session.compiles)  # one line per compile, not one each
    assert "of transformers (" in grouped[0]
    assert "head_dim" in grouped[0]
    assert grouped[0].endswith("— expected")
    assert "head_dim (" not in text and ".layer_idx (" not in text
    explanation = session.why("input_ids", 1)  # a parameter name of forward
    assert explanation.user_frame is not None
    assert explanation.user_frame.filename == __file__  # the user's own call site
    assert explanation.library_frame is not None  # the library line, kept as context
    assert "transformers" in explanation.library_frame.filename
    assert "library line (transformers)" in str(explanation)


def test_wrapped_module_named_from_a_log(tmp_path: Path) -> None:
    # A TORCH_TRACE log has no callee record: the guard tree types the module torch's
    # `inner` calls, and forward's parameters come from the script's source (read on opt-in).
    logged = traced("wrapped_module", tmp_path, sources=True)
    alone = symdebug.load_trace(tmp_path / "trace")  # the log alone: the title, Dynamo's names
    assert isinstance(alone, symdebug.Session)
    assert {c.title for c in alone.compiles} == {"Encoder.forward"}
    assert all(c.callee is not None and not c.callee.names for c in alone.compiles)
    live = captured("wrapped_module")
    assert [c.name for c in logged.compiles] == ["inner"] * len(logged.compiles)
    assert {c.title for c in logged.compiles} == {"Encoder.forward"}
    for log, run in zip(logged.compiles, live.compiles, strict=True):
        assert log.callee is not None and run.callee is not None
        assert (log.callee.qualname, log.callee.lineno) == (run.callee.qualname, 11)
        assert log.callee.filename == run.callee.filename
        # The log names what its guards reach; live capture also the keywords not passed.
        assert log.callee.names.items() <= run.callee.names.items()
        assert log.callee.names["L['args'][0]"] == "x"
    assert "frame Encoder.forward (" in str(logged)
    explanation = logged.why("x", 0)
    assert explanation.user_name == "x.shape[0]"
    assert str(explanation).startswith("x.shape[0] (L['args'][0].size()[0]) is")
    assert explanation.state == live.why("x", 0).state


def test_hugging_face_log_names_keywords_as_passed(tmp_path: Path) -> None:
    pytest.importorskip("transformers")
    session = traced("hf_gpt2", tmp_path, sources=True)  # forward's parameters: its source
    assert {c.title for c in session.compiles} == {"GPT2LMHeadModel.forward"}
    assert session.why("input_ids", 1).user_name == "input_ids.shape[1]"


class _Model:
    def forward(self, x: Any, mask: Any = None) -> Any:
        return x


def test_callee_of_a_decorator_wrapper() -> None:
    def decorate(func: Any) -> Any:
        @functools.wraps(func)
        def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
            return func(self, *args, **kwargs)

        return wrapper

    wrapper = decorate(_Model.forward)
    model = _Model()
    found = callee_of(wrapper.__code__, {"self": model, "func": _Model.forward})
    assert found["qualname"] == "_Model.forward"
    assert found["names"]["L['args'][0]"] == "x"
    assert found["names"]["L['kwargs']['mask']"] == "mask"
    plain = callee_of(_Model.forward.__code__, {})
    assert plain == {"qualname": "_Model.forward", "names": {}}
