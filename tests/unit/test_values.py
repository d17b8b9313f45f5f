"""Sources and compile ids are parsed once, into typed values that still are strings."""

from __future__ import annotations

import orjson

from symdebug.model.values import CompileId, Source


def test_source_parts() -> None:
    size = Source("L['x'].size()[1]")
    assert size == "L['x'].size()[1]" and isinstance(size, str)
    assert (size.stripped, size.tensor, size.dim, size.shape) == (
        "x.size()[1]",
        "L['x']",
        1,
        "x.shape[1]",
    )
    assert size.same_input("x.size()[1]") and not size.same_input("x.size()[0]")
    attribute = Source("L['self'].chunk")
    assert attribute.attributes == ("chunk",) and not attribute.is_size
    assert Source("L['n']").attributes == () and Source("L['n']").dim is None
    nested = Source("L['kwargs']['input_ids'].size()[1]")
    assert (nested.tensor, nested.dim) == ("L['kwargs']['input_ids']", 1)
    assert Source.size("L['w']", 0) == "L['w'].size()[0]"


def test_compile_id_parts_and_order() -> None:
    plain, reset, autograd = CompileId("0/1"), CompileId("0/1@1"), CompileId("!2/0/3")
    assert (plain.frame_id, plain.number, plain.generation) == (0, 1, 0)
    assert (reset.torch_id, reset.generation) == ("0/1", 1)
    assert (autograd.frame_id, autograd.number) == (0, 3)
    assert sorted(["0/1@1", "1/0", "0/10", "0/2"], key=lambda c: CompileId(c).sort_key) == [
        "0/2",
        "0/10",
        "1/0",
        "0/1@1",
    ]
    assert CompileId("0/1").in_generation(2) == "0/1@2"
    assert CompileId.of(3, 4, generation=1) == "3/4@1"


def test_values_serialise_as_plain_strings() -> None:
    document = {"source": Source("L['x'].size()[0]"), "id": CompileId("0/0")}
    assert orjson.loads(orjson.dumps(document)) == {"source": "L['x'].size()[0]", "id": "0/0"}
    assert {Source("L['x']"): 1}["L['x']"] == 1  # hashes like the string it is
