"""What the entries read inside an object a call passes, followed from the object itself."""

from __future__ import annotations

from types import SimpleNamespace

import torch

from symdebug.model.types import Signature
from symdebug.predict.arguments import FACT_PREFIXES, RECEIVER, bind
from symdebug.predict.object_paths import object_paths

SOURCES = [
    "L['cache'].layers[0].keys.size()[2]",
    "ndim:L['cache'].layers[0].keys",
    "len:L['cache'].layers",
    "L['cache'].offloading",
    "object:L['cache'].spare",
    "L['self'].training",
    "G['WIDTH']",
    "dict(type(L['cache']).__dict__)['f'].__defaults__[0]",
]


def test_the_steps_under_each_argument_are_indexed_by_parent() -> None:
    paths = object_paths(SOURCES, FACT_PREFIXES, RECEIVER)
    assert {name for _, name, _ in paths["L['cache']"]} == {"layers", "offloading", "spare"}
    assert paths["L['cache'].layers"] == ((True, 0, "L['cache'].layers[0]"),)
    assert paths["L['cache'].layers[0]"] == ((False, "keys", "L['cache'].layers[0].keys"),)
    # The module and the globals are the program's state, read elsewhere; a call is no step.
    assert not [parent for parent in paths if parent.startswith(("L['self']", "G[", "dict("))]
    assert "L['cache'].layers[0].keys.size()" not in paths


def test_a_bound_object_is_read_along_the_paths_and_what_it_lacks_is_left_out() -> None:
    paths = object_paths(SOURCES, FACT_PREFIXES, RECEIVER)
    layer = SimpleNamespace(keys=torch.zeros(1, 2, 7, 4))
    cache = SimpleNamespace(layers=[layer], offloading=False)  # no ``spare``
    signature = Signature(names=["x", "cache"], positional=2)
    values = bind(signature, [(3,), cache], {}, SOURCES, paths=paths)
    assert values["L['cache'].layers[0].keys.size()[2]"] == 7
    assert values["ndim:L['cache'].layers[0].keys"] == 4
    assert values["len:L['cache'].layers"] == 1
    assert values["L['cache'].offloading"] is False
    assert values["object:L['cache'].layers[0].keys"] is layer.keys
    assert "object:L['cache'].spare" not in values
    assert "L['cache'].layers[0].keys.size()[2]" not in bind(signature, [(3,), cache], {}, SOURCES)
