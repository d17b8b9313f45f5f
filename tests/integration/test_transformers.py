"""Hugging Face models built from config (random weights, no download): every recompile
that changing sequence length and batch size causes is explained.

``test_every_recompile_is_explained`` compares each recompile with Dynamo's own
``recompiles`` log of the same run (``tests/dynamo_recompiles.py``): torch's reasons and
failed entries, the input and constant of the check torch says failed, and the kind of that
check (a constant size, a bound, an identity, a length) against the cause.  The other tests
compare predictions with what torch then does (its cache and lookups)."""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import torch
from dynamo_recompiles import DynamoLog, DynamoRecompile, TorchCheck, dynamo_recompiles, torch_check
from truth import assert_plans_agree

import symdebug
from symdebug.model.types import CAUSES, Recompile
from symdebug.torchtext.source_text import log_sources_read
from symdebug.tracefile import discover_trace_files

transformers = pytest.importorskip("transformers")

CALLS = [(1, 8), (1, 12), (2, 12), (2, 20), (4, 33), (4, 1)]


def tiny_gpt2() -> torch.nn.Module:
    config = transformers.GPT2Config(
        n_layer=2,
        n_embd=32,
        n_head=2,
        vocab_size=100,
        n_positions=128,
        bos_token_id=0,
        eos_token_id=0,
    )
    return transformers.GPT2LMHeadModel(config).eval()


def tiny_bert() -> torch.nn.Module:
    config = transformers.BertConfig(
        num_hidden_layers=2,
        hidden_size=32,
        num_attention_heads=2,
        intermediate_size=64,
        vocab_size=100,
        max_position_embeddings=128,
    )
    return transformers.BertModel(config).eval()


def drive(
    model: torch.nn.Module, dynamic: bool | None, log: DynamoLog | None = None
) -> symdebug.Session:
    """Call the model at each of ``CALLS`` under capture (``log`` is told each call's number)."""
    torch.manual_seed(0)
    with symdebug.capture() as session, torch.no_grad():
        compiled = torch.compile(model, backend="eager", dynamic=dynamic)
        for number, (batch, length) in enumerate(CALLS):
            if log is not None:
                log.call = number
            ids = torch.randint(0, 100, (batch, length))
            mask = torch.ones(batch, length, dtype=torch.long)
            compiled(ids, attention_mask=mask)
    return session


#: The causes of a guard that bounded a size or made it a constant (not a rule of torch's).
GUARD_CAUSES = {"user_branch", "op_requirement", "int_specialized", "inductor", "backward"}


def _sizes_until(entry: str, dim: int, compiled_at: dict[str, int]) -> set[int]:
    """The sizes dim ``dim`` had in the calls up to the one that compiled ``entry``.

    Both inputs are ``(batch, length)``: a dim's size is the call's ``CALLS`` item.
    """
    return {CALLS[number][dim] for number in range(compiled_at[entry] + 1)}


def _causes_of_a_constant(check: TorchCheck, dynamic: bool | None, seen: set[int]) -> set[str]:
    """The causes that agree with torch's ``size mismatch``: the entry held the size at
    ``expected``: by default when the size had not changed yet (``dynamic=None``), as 0 or 1,
    or because a guard or duck sizing made it a constant."""
    zero_one = {"zero_one"} if check.expected in (0, 1) else set()
    if dynamic is None and len(seen) == 1:
        return {"static_by_default"} | zero_one
    return zero_one or GUARD_CAUSES | {"duck_sizing"}


def _causes_of_a_bound(check: TorchCheck, size: int) -> set[str]:
    """The causes that agree with torch's range check at the call's new size: below torch's
    own lower bound of 2 a size of 0 or 1 was specialized, else a guard set the bound."""
    if check.lower == 2 and size < 2:
        return {"zero_one"}
    return GUARD_CAUSES | {"mark_dynamic_range"}


def expected_causes(said: DynamoRecompile, dynamic: bool | None, log: DynamoLog) -> set[str]:
    """The causes that agree with the kind of check Dynamo says failed."""
    check = torch_check(said.first_check)
    # The models compile as one frame (transformers' ``wrapper``): its first entry is 0/0.
    compiled_at = {"0/0": 0} | {c: r.call for c, r in log.found.items()}
    if check.kind == "size" and check.dim is not None:
        seen = _sizes_until(said.entries[0], check.dim, compiled_at)
        return _causes_of_a_constant(check, dynamic, seen)
    if check.kind == "range" and check.dim is not None:
        return _causes_of_a_bound(check, CALLS[said.call][check.dim])
    return {check.kind} if check.kind in ("identity", "length") else set(CAUSES) - {"unknown"}


def assert_the_check_is_torchs(recompile: Recompile, said: str) -> None:
    """The failing check symdebug names is on the input torch names, with torch's constant."""
    check = torch_check(said)
    if check.source is None:
        return
    assert check.source in {s.stripped for s in recompile.sources}, (said, recompile.sources)
    special, guard = recompile.specialization, recompile.guard
    if check.kind == "size":  # a constant: the specialization (or guard) that made it
        assert special is not None or guard is not None, said
    if special is not None:
        assert special.source.stripped == check.source, (said, special.source)
        assert check.kind != "size" or special.value == check.expected, (said, special.value)
    if guard is not None:
        assert check.source in {s.stripped for s in guard.sources}, (said, guard.expr)


@pytest.mark.parametrize(
    ("build", "dynamic"),
    [(tiny_gpt2, None), (tiny_gpt2, True), (tiny_bert, None), (tiny_bert, True)],
)
def test_every_recompile_is_explained(build: object, dynamic: bool | None) -> None:
    """Each recompile against Dynamo's own ``recompiles`` log of the same run: the same
    reasons and failed entries, the failing check on the input torch names (with the
    constant it expected), and a cause that agrees with the kind of that check."""
    with dynamo_recompiles() as log:
        session = drive(build(), dynamic, log)  # type: ignore[operator]
    assert session.recompiles, "the run should recompile at least once"
    assert sorted(r.compile_id for r in session.recompiles) == sorted(log.found)
    for recompile in session.recompiles:
        said = log.found[recompile.compile_id]
        assert recompile.reasons == said.failures
        assert recompile.failed_entry == said.entries[0]
        assert recompile.failed_entries == said.entries
        assert_the_check_is_torchs(recompile, said.first_check)
        causes = expected_causes(said, dynamic, log)
        assert recompile.cause in causes, (said.first_check, recompile.cause, causes)
        assert recompile.fix


def test_wrapper_frame_sources_resolve() -> None:
    session = drive(tiny_gpt2(), None)
    # Hugging Face compiles a decorator `wrapper`; sources are args/kwargs of that frame.
    explanation = session.why("L['kwargs']['attention_mask'].size()[1]")
    assert explanation.state in ("dynamic", "static-by-default", "specialized")
    assert any(c.name == "wrapper" for c in session.compiles)


def test_rerun_at_three_new_sequence_lengths() -> None:
    torch.manual_seed(0)
    model = tiny_gpt2()
    with symdebug.capture() as session, torch.no_grad():
        compiled = torch.compile(model, backend="eager")
        for length in (8, 12):  # the second call makes the sequence length dynamic
            ids = torch.randint(0, 100, (1, length))
            compiled(ids, attention_mask=torch.ones(1, length, dtype=torch.long))
    results = []
    with torch.no_grad():
        for batch, length in ((1, 20), (1, 57), (3, 20)):
            predicted = session.predict((batch, length), attention_mask=(batch, length))
            assert_plans_agree(
                session, None, ((batch, length),), {"attention_mask": (batch, length)}
            )
            result = session.rerun(compiled, (batch, length), attention_mask=(batch, length))
            assert result.prediction.entry == predicted.entry
            assert result.prediction_held, (str(predicted), str(result))
            assert result.allclose
            results.append(result)
    assert [r.recompiled for r in results] == [False, False, True]  # batch 3: static batch dim
    assert results[2].prediction.failures[0].kind == "static_dim"


def test_the_models_configuration_is_taken_as_built_and_predictions_are_sure() -> None:
    """``L['self'].config.n_layer``, read by transformers' own forward, is what the model was
    built as: predictions say it is assumed, are certain, and torch agrees with each."""
    torch.manual_seed(0)
    model = tiny_gpt2()
    with symdebug.capture() as session, torch.no_grad():
        compiled = torch.compile(model, backend="eager")
        for batch, length in ((1, 8), (1, 12), (2, 16)):
            compiled(input_ids=torch.randint(0, 100, (batch, length)))
        assumed: list[str] = []
        for batch, length in ((2, 20), (1, 5), (3, 64), (2, 1)):
            from_log = symdebug.Session(session.facts).predict(input_ids=(batch, length))
            predicted = session.predict(input_ids=(batch, length))  # live: reads the model
            assert_plans_agree(session, None, (), {"input_ids": (batch, length)})
            assumed += from_log.assumed
            before = len(session.compiles)
            compiled(input_ids=torch.randint(0, 100, (batch, length)))
            assert predicted.certain and from_log.certain, str(from_log)
            assert predicted.recompiles == (len(session.compiles) > before), (batch, length)
            assert from_log.recompiles == predicted.recompiles
        assert any("L['self'].config.n_layer" in text for text in assumed)


def test_a_keyword_call_of_a_model_compiled_positionally_recompiles_as_predicted() -> None:
    """The wrapper compiled for ``model(ids)`` checks ``len(args) == 1``: ``model(input_ids=)``
    passes none, so it recompiles; the prediction says so for sure, as torch does."""
    torch.manual_seed(0)
    model = tiny_gpt2()
    with symdebug.capture() as session, torch.no_grad():
        compiled = torch.compile(model, backend="eager")
        for batch, length in ((1, 8), (1, 12), (2, 16)):
            compiled(torch.randint(0, 100, (batch, length)))
        by_position = session.predict((2, 20))
        by_keyword = session.predict(input_ids=(2, 20))
        assert by_position.outcome == "served" and by_position.certain, str(by_position)
        assert by_keyword.outcome == "recompile" and by_keyword.certain, str(by_keyword)
        before = len(session.compiles)
        compiled(torch.randint(0, 100, (2, 20)))
        assert len(session.compiles) == before
        compiled(input_ids=torch.randint(0, 100, (2, 20)))
        assert len(session.compiles) == before + 1


def _outcome(session: symdebug.LiveSession, call: object, frame: str) -> str:
    """What torch did with the call: served (by which entry), recompiled, or ran eagerly."""
    from symdebug._torch.dynamo_cache import cache_lookups
    from symdebug.predict.frame_state import limit_hit

    seen = {c.compile_id for c in session.compiles}
    with cache_lookups() as lookups:
        call()  # type: ignore[operator]
    new = [c for c in session.compiles if c.compile_id not in seen and c.name == frame]
    if new:
        return "eager" if all(limit_hit(c) for c in new) else "recompile"
    order = session.lookup_order(frame) or []
    return f"served {order[0]}" if lookups and lookups[0] and order else "eager"


def _decode(compiled: object, step: torch.Tensor, cache: object, outputs: list[object]) -> None:
    outputs.append(compiled(input_ids=step, past_key_values=cache))  # type: ignore[operator]


def test_decode_steps_are_predicted_from_the_cache_object_they_pass() -> None:
    """A decode step passes ``past_key_values``, a ``DynamicCache``: the entries check its
    layers' tensors and flags (``...layers[0].keys.size()[2]``, ``...is_initialized``), read
    from the cache object itself, so every answer is sure, and right."""
    torch.manual_seed(0)
    model = tiny_gpt2()
    with symdebug.capture() as session, torch.no_grad():
        compiled = torch.compile(model, backend="eager")
        for length in (8, 12):  # prefill, then decode steps: both become dynamic
            out = compiled(input_ids=torch.randint(0, 100, (1, length)), use_cache=True)
            for _ in range(2):
                step = torch.randint(0, 100, (1, 1))
                out = compiled(input_ids=step, past_key_values=out.past_key_values)
        frame = session.compiles[0].name
        for batch, length in ((1, 20), (2, 5)):
            out = compiled(input_ids=torch.randint(0, 100, (batch, length)), use_cache=True)
            for _ in range(2):
                cache, step = out.past_key_values, torch.randint(0, 100, (batch, 1))
                shapes = {"input_ids": (batch, 1), "past_key_values": cache}
                predicted = session.predict(frame=frame, **shapes)
                assert_plans_agree(session, frame, (), shapes)
                assert predicted.certain, str(predicted)
                said = f"served {predicted.entry}" if predicted.entry else predicted.outcome
                outputs: list[object] = []
                call = functools.partial(_decode, compiled, step, cache, outputs)
                assert said == _outcome(session, call, frame), str(predicted)
                out = outputs[0]


def test_bert_with_and_without_its_mask_and_after_train_is_predicted_as_torch_does() -> None:
    """Keyword calls that leave ``attention_mask`` out or pass it (torch's ``DICT_LENGTH``
    and ``DICT_CONTAINS`` on ``kwargs``), library globals (``_is_torch_available``) taken as
    recorded, and ``model.train()`` read from the live model: every answer sure and right."""
    torch.manual_seed(0)
    model = tiny_bert()
    calls = [(2, 8, True), (2, 8, False), (1, 5, False), (3, 9, True), (3, 9, False)]
    with symdebug.capture() as session, torch.no_grad():
        compiled = torch.compile(model, backend="eager")
        compiled(input_ids=torch.randint(0, 100, (2, 8)))
        frame = session.compiles[0].name
        for index, (batch, length, masked) in enumerate(calls * 2):
            if index == len(calls):
                model.train()
            shapes = {"input_ids": (batch, length)}
            given = {"input_ids": torch.randint(0, 100, (batch, length))}
            if masked:
                shapes["attention_mask"] = (batch, length)
                given["attention_mask"] = torch.ones(batch, length, dtype=torch.long)
            predicted = session.predict(frame=frame, **shapes)
            assert_plans_agree(session, frame, (), shapes)
            said = f"served {predicted.entry}" if predicted.entry else predicted.outcome
            assert predicted.certain, str(predicted)
            call = functools.partial(compiled, **given)
            assert said == _outcome(session, call, frame), str(predicted)


def tiny_llama() -> torch.nn.Module:
    config = transformers.LlamaConfig(
        vocab_size=100,
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=2,
        max_position_embeddings=128,
    )
    return transformers.LlamaForCausalLM(config).eval()


def test_llama_behind_its_forward_decorator_is_predicted_as_torch_does() -> None:
    """Llama's ``forward`` is wrapped by a decorator: Dynamo compiles ``wrapped_func(*args,
    **kwargs)`` with the model first in ``args`` (``len(L['args']) == 1``, ``type(L['args'][0])
    is LlamaForCausalLM``).  A keyword call passes no positional argument, yet ``args`` holds
    the bound model: predictions counted it as missing and said "recompile" for sure where
    torch served the call."""
    torch.manual_seed(0)
    model = tiny_llama()
    with symdebug.capture() as session, torch.no_grad():
        compiled = torch.compile(model, backend="aot_eager")
        for batch, length in ((1, 8), (1, 12), (2, 16)):
            compiled(input_ids=torch.randint(0, 100, (batch, length)), use_cache=False)
        frame = session.compiles[0].name
        assert session.compiles[0].callee.names["L['args'][0]"] == "self"
        served = 0
        for batch, length in ((1, 20), (3, 5), (2, 64), (1, 1), (1, 2)):
            predicted = session.predict(input_ids=(batch, length), use_cache=False, frame=frame)
            assert_plans_agree(
                session, frame, (), {"input_ids": (batch, length), "use_cache": False}
            )
            said = f"served {predicted.entry}" if predicted.entry else predicted.outcome
            given = torch.randint(0, 100, (batch, length))
            call = functools.partial(compiled, input_ids=given, use_cache=False)
            assert said == _outcome(session, call, frame), str(predicted)
            assert predicted.certain, str(predicted)  # the model's state, read through args[0]
            served += predicted.entry is not None
        assert served == 4
        # Re-run by position what was compiled by keyword: ``input_ids`` is built as the
        # integer tensor recorded under ``L['kwargs']``, and comes after the bound model.
        result = session.rerun(compiled, (2, 30))
        assert result.prediction_held and result.allclose, str(result)
        assert result.recompiled  # a positional call fails ``len(L['args']) == 1``


LOGGED_LLAMA = textwrap.dedent(
    """
    import json, sys, torch, transformers
    from symdebug._torch.dynamo_cache import cache_lookups, cache_order
    torch.compiler.config.force_disable_caches = True
    config = transformers.LlamaConfig(
        vocab_size=100, hidden_size=32, intermediate_size=64, num_hidden_layers=2,
        num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=128,
    )
    torch.manual_seed(0)
    model = transformers.LlamaForCausalLM(config).eval()
    compiled = torch.compile(model, backend="aot_eager")
    code = type(model).forward.__code__
    served = {}
    with torch.no_grad():
        for batch, length in ((1, 8), (1, 12), (2, 16)):
            compiled(input_ids=torch.randint(0, 100, (batch, length)), use_cache=False)
        for batch, length in json.loads(sys.argv[1]):  # each served: the log gains no compile
            with cache_lookups() as lookups:
                compiled(input_ids=torch.randint(0, 100, (batch, length)), use_cache=False)
            assert lookups and lookups[0], "the probe should be served"
            served[f"{batch}x{length}"] = cache_order(code)[0]
    print(json.dumps(served))
    """
)


def test_llama_from_its_log_is_predicted_as_torch_served_it(tmp_path: Path) -> None:
    """The same decorator-wrapped forward, read from a ``TORCH_TRACE`` log: the callee the
    log names puts the model first in ``args``, so keyword calls are served, as torch did."""
    probes = [(1, 20), (3, 5), (2, 10)]
    env = {**os.environ, "TORCH_TRACE": str(tmp_path / "trace")}
    done = subprocess.run(
        [sys.executable, "-c", LOGGED_LLAMA, json.dumps(probes)],
        env=env,
        check=True,
        timeout=600,
        capture_output=True,
        text=True,
    )
    served = json.loads(done.stdout.strip().splitlines()[-1])
    (path,) = discover_trace_files(tmp_path / "trace")
    with log_sources_read():  # forward's parameters: read from transformers' source, on opt-in
        session = symdebug.load_trace(path)
    assert len(session.compiles) == 3
    frame = session.compiles[0].name
    for batch, length in probes:
        predicted = session.predict(input_ids=(batch, length), use_cache=False, frame=frame)
        assert_plans_agree(session, frame, (), {"input_ids": (batch, length), "use_cache": False})
        assert predicted.entry == served[f"{batch}x{length}"], str(predicted)
        assert predicted.certain, str(predicted)  # the model's and the wrapper's, as recorded
    assert session.predict(input_ids=(1, 1), use_cache=False, frame=frame).outcome == "recompile"
