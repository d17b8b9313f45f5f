"""A decorator's wrapper around a method holds the bound module first in ``*args``."""

from __future__ import annotations

from symdebug.model.types import Signature
from symdebug.predict.arguments import bind, missing_item

WRAPPER = Signature(names=[], positional=0, varargs="args", varkw="kwargs")


def test_the_bound_module_counts_in_args_and_positional_arguments_follow_it() -> None:
    values = bind(WRAPPER, [(2, 3)], {"use_cache": False}, bound_first=True)
    assert values["len:L['args']"] == 2
    assert values["L['args'][1].size()[0]"] == 2
    assert "L['args'][0].size()[0]" not in values
    assert bind(WRAPPER, [], {"use_cache": False})["len:L['args']"] == 0


def test_an_index_below_a_tuples_length_is_never_missing_a_dict_key_can_be() -> None:
    values = bind(WRAPPER, [], {"input_ids": (2, 3)}, bound_first=True)
    assert missing_item(["L['args'][0]._modules['model'].training"], values) is None
    assert missing_item(["L['args'][1]"], values) == "L['args'][1]"
    assert missing_item(["L['kwargs']['attention_mask']"], values) == (
        "L['kwargs']['attention_mask']"
    )
