"""A dim the user declared static (torch 2.14's ``dynamic_shapes``, 2.15's ``static_sources``):
the entry or spec dim that holds it is found, and the fix takes it out, as Python that parses."""

from __future__ import annotations

import ast
import json

from symdebug.fixes.declared_fixes import dynamic_shapes_fixes, static_sources_fixes
from symdebug.fixes.fix_evidence import Evidence
from symdebug.model.values import Source
from symdebug.torchtext.declared import listed, spec_code, static_in_spec, without

X0, X1, N = Source("L['x'].size()[0]"), Source("L['x'].size()[1]"), Source("L['n']")
#: ``torch.compile(f, dynamic_shapes={"x": TensorSpec([STATIC, ShapeVar("C")])})``, as the
#: compile's Dynamo config logs it (torch 2.14.1 and 2.15.0).
SPEC = {
    "assumptions": [],
    "params": {
        "params": {
            "x": {
                "dims": [
                    None,
                    {"max": None, "min": 0, "name": "C", "optimization_hint": None,
                     "type": "ShapeVar"},
                ],
                "type": "TensorSpec",
            }
        },
        "type": "ParamsSpec",
    },
    "type": "ShapesSpec",
}  # fmt: skip


def test_an_entry_names_a_dim_a_tensor_or_an_int() -> None:
    assert listed("L['y'], L['x']:0", X0) == "L['x']:0"
    assert listed("L['x']:1", X0) == ""
    assert listed("L['x']", X1) == "L['x']"  # every dim of x
    assert listed(r"L\['x.*'\]:0", X0) == r"L\['x.*'\]:0"  # a regex, matched at the start
    assert listed("L['n']", N) == "L['n']" and listed("L['n2']", N) == ""
    assert listed("L[('", X0) == ""  # a broken regex matches nothing
    assert without("L['y'], L['x']:0", "L['x']:0") == "L['y']"


def test_the_list_without_the_entry_is_the_fix() -> None:
    (fix,) = static_sources_fixes(Evidence("static_sources", X0, detail="L['x']:0,L['y']"))
    assert fix.code == "torch.compiler.config.static_sources = \"L['y']\""
    assert fix.settings == {"torch.compiler.config.static_sources": "L['y']"}
    assert fix.kind == "setting" and fix.needs == "2.15"
    ast.parse(fix.code)
    assert "L['x']:0" in fix.explanation
    assert static_sources_fixes(Evidence("static_sources", X0, detail="L['y']")) == []


def test_a_static_spec_dim_becomes_a_shape_var() -> None:
    assert static_in_spec(SPEC, X0) and not static_in_spec(SPEC, X1)
    assert not static_in_spec(SPEC, N) and not static_in_spec({}, X0)
    assert spec_code(SPEC, X0) == '{"x": TensorSpec([ShapeVar("x_0"), ShapeVar("C", min=0)])}'
    (fix,) = dynamic_shapes_fixes(Evidence("dynamic_shapes", X0, detail=json.dumps(SPEC)))
    assert fix.kind == "code" and fix.needs == "2.14" and fix.settings == {}
    ast.parse(fix.code)
    assert fix.code.startswith("dynamic_shapes = {") and "STATIC" in fix.explanation
