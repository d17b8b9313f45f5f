"""A live module's state read by the sources torch checks on it: paths followed, never run."""

from __future__ import annotations

import torch

from symdebug.live.program_state import read_program
from symdebug.predict.predict import READ_FROM


class _Block(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.lin = torch.nn.Linear(4, 3)
        self.drop = torch.nn.Dropout(0.1)
        self.sizes = (2, 3)
        self.chunk = 2


def test_sources_on_the_module_are_read_as_it_is_now() -> None:
    block = _Block()
    block.eval()
    sources = [
        "L['self'].chunk",
        "object:L['self']._modules['drop'].training",
        "len:L['self'].sizes",
        "ndim:L['self']._modules['lin']._parameters['weight']",
        "L['self']._modules['lin']._parameters['weight'].size()[1]",
        "L['self']._modules['lin']._parameters['weight'].stride()[0]",
    ]
    found = read_program(block, sources)
    assert found[READ_FROM].startswith("_Block at 0x")
    assert {k: v for k, v in found.items() if k != READ_FROM} == {
        "L['self'].chunk": 2,
        "object:L['self']._modules['drop'].training": False,
        "len:L['self'].sizes": 2,
        "ndim:L['self']._modules['lin']._parameters['weight']": 2,
        "L['self']._modules['lin']._parameters['weight'].size()[1]": 4,
        "L['self']._modules['lin']._parameters['weight'].stride()[0]": 4,
    }


def test_what_is_no_path_on_the_module_is_left_out() -> None:
    block = _Block()
    sources = [
        "L['x'].size()[0]",  # an argument: the call gives it
        "G['flag']",  # a global
        "L['self'].missing",  # gone from the module
        "L['self'].chunk.__class__.__subclasses__()",  # a call that is no size: never run
        "L['self'].chunk + 1",
    ]
    assert read_program(block, sources) == {READ_FROM: f"_Block at {id(block):#x}"}
