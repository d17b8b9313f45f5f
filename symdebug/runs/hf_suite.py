"""The built-in suite (``symdebug suite --hf``): small Hugging Face models over sizes.

Each workload builds one model from a small config (random weights: no download, so
``HF_HUB_OFFLINE=1`` is fine), compiles it with ``torch.compile(model, backend=...)`` (no
other option: what a user writes first), and calls it in eval mode under ``torch.no_grad()``
over a grid of batch sizes and sequence lengths (image sizes for ViT).  The grid starts at a
batch of 1 and changes the length before the batch, so each run shows the classic story:
the first compile is static, a second length makes the length dynamic, a second batch makes
the batch dynamic, a last single-token call meets torch's 0/1 rule, and whatever else a
model branches on shows as its own specialization (ViT: the trained image size).

Measured on a 2-core CPU (torch 2.13, transformers 5.24), each workload in a fresh
process: the full grid with Inductor takes about 7 minutes for the six (45-95 s each, 4
compiles each, Inductor's caches empty at the start), the small grid with ``aot_eager``
about 100 s.

Workloads
---------
``bert``     ``BertModel``: ``input_ids``, ``attention_mask`` (an encoder's padding mask).
``gpt2``     ``GPT2LMHeadModel``: ``input_ids``, ``attention_mask`` (causal, learned positions).
``t5``       ``T5ForConditionalGeneration``: encoder ``input_ids`` and ``attention_mask``,
             ``decoder_input_ids`` half as long (relative position buckets, two lengths).
``llama``    ``LlamaForCausalLM``: ``input_ids`` (rotary positions, grouped-query attention,
             its forward behind a decorator).
``mistral``  ``MistralForCausalLM`` with a sliding window (12) that the longer sequences
             reach past: does the window's mask make the length a constant?
``vit``      ``ViTModel`` over square and non-square images with
             ``interpolate_pos_encoding=True``: the position table is resized to the image,
             and the model returns it unchanged when the image has the trained size.

Options
-------
The runner passes options through the environment, read when a workload runs (so one
``WORKLOADS`` serves every run, and a workload given by this file's path reads them too):

``SYMDEBUG_SUITE_BACKEND``
    The ``torch.compile`` backend: ``inductor`` (the default), ``aot_eager``, ``eager``.
``SYMDEBUG_SUITE_GRID``
    ``full`` (the default: what ``symdebug suite --hf`` measures) or ``small`` (fewer
    sizes, for tests; still a batch of 1, a second batch and three lengths).

From Python, :func:`workloads` takes both as arguments instead (an argument wins over the
environment)::

    from symdebug.runs.hf_suite import workloads
    fast = workloads(backend="aot_eager", grid="small")
    fast["bert"]()

Imports neither torch nor transformers until a workload runs: the runner may read
``WORKLOADS`` in a process that never compiles anything.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    import torch

BACKEND_ENV = "SYMDEBUG_SUITE_BACKEND"
GRID_ENV = "SYMDEBUG_SUITE_GRID"
DEFAULT_BACKEND = "inductor"
DEFAULT_GRID = "full"

#: Vocabulary of every text model: small, so embedding tables cost nothing.
VOCAB = 100
#: Hidden size and depth of every model: as small as a real architecture allows, so one
#: Inductor compile on a CPU takes seconds, not minutes.
HIDDEN = 32
LAYERS = 2
#: Mistral's attention window: the longer sequences of both grids (16, 33; 16, 24) reach
#: past it, the shortest (8) does not.
WINDOW = 12
#: ViT's trained image size and patch: other sizes interpolate the position table.
IMAGE = 32
PATCH = 8


class Grid(NamedTuple):
    """The sizes a workload calls its model with, in call order.

    ``batches`` is the outer loop, so the length (or image size) changes first: torch's
    first recompile is about the length, the next about the batch.  ``tail`` comes last,
    once: a batch of one token, which torch's 0/1 rule keeps a constant even where both
    dims are dynamic (in the product, a length of 1 would compile once per batch: the same
    finding, five compiles a model instead of four).  (A named tuple, not a dataclass: a
    dataclass needs its module in ``sys.modules``, and a runner may execute this file by its
    path without registering it.)
    """

    batches: tuple[int, ...]
    lengths: tuple[int, ...]
    tail: tuple[tuple[int, int], ...]
    images: tuple[tuple[int, int], ...]

    def text(self) -> list[tuple[int, int]]:
        """(batch, sequence length) pairs."""
        return [(b, n) for b in self.batches for n in self.lengths] + list(self.tail)

    def vision(self) -> list[tuple[int, tuple[int, int]]]:
        """(batch, (height, width)) pairs."""
        return [(b, hw) for b in self.batches for hw in self.images]


GRIDS: dict[str, Grid] = {
    # 33 is odd (no divisibility by 2 to lean on); 8 and 16 are the trained-size-like
    # powers of two.  Images: the trained size first (no interpolation), larger squares,
    # then a non-square one.
    "full": Grid(
        batches=(1, 2, 4),
        lengths=(8, 16, 33),
        tail=((1, 1),),
        images=((32, 32), (48, 48), (64, 64), (32, 48)),
    ),
    "small": Grid(
        batches=(1, 2),
        lengths=(8, 16, 24),
        tail=((1, 1),),
        images=((32, 32), (48, 48), (32, 48)),
    ),
}


def _backend(backend: str | None) -> str:
    """The backend given, else the runner's, else Inductor."""
    return backend or os.environ.get(BACKEND_ENV) or DEFAULT_BACKEND


def _grid(grid: str | None) -> Grid:
    """The grid named, else the runner's, else the full one."""
    name = grid or os.environ.get(GRID_ENV) or DEFAULT_GRID
    if name not in GRIDS:
        raise ValueError(f"unknown grid {name!r}: expected one of {', '.join(GRIDS)}")
    return GRIDS[name]


def _compiled(model: torch.nn.Module, backend: str | None) -> Callable[..., Any]:
    """The model in eval mode, compiled with torch's defaults but for the backend."""
    import torch

    return torch.compile(model.eval(), backend=_backend(backend))


def _tokens(batch: int, length: int) -> torch.Tensor:
    """Random token ids (the seed is set by the workload, so every run calls alike)."""
    import torch

    return torch.randint(0, VOCAB, (batch, length))


def _mask(batch: int, length: int) -> torch.Tensor:
    """A padding mask whose last row pads half its tokens, as a real batch does."""
    import torch

    mask = torch.ones(batch, length, dtype=torch.long)
    if batch > 1:
        mask[-1, length - length // 2 :] = 0
    return mask


def _run_text(
    build: Callable[[], torch.nn.Module],
    inputs: Callable[[int, int], dict[str, torch.Tensor]],
    backend: str | None,
    grid: str | None,
) -> None:
    """Build a text model, compile it and call it at each (batch, length) of the grid."""
    import torch

    sizes = _grid(grid).text()
    torch.manual_seed(0)
    compiled = _compiled(build(), backend)
    with torch.no_grad():
        for batch, length in sizes:
            compiled(**inputs(batch, length))


def _bert() -> torch.nn.Module:
    import transformers

    config = transformers.BertConfig(
        vocab_size=VOCAB,
        hidden_size=HIDDEN,
        num_hidden_layers=LAYERS,
        num_attention_heads=2,
        intermediate_size=2 * HIDDEN,
        max_position_embeddings=128,
    )
    return transformers.BertModel(config)


def _gpt2() -> torch.nn.Module:
    import transformers

    config = transformers.GPT2Config(
        vocab_size=VOCAB,
        n_embd=HIDDEN,
        n_layer=LAYERS,
        n_head=2,
        n_positions=128,
        bos_token_id=0,
        eos_token_id=0,
    )
    return transformers.GPT2LMHeadModel(config)


def _t5() -> torch.nn.Module:
    import transformers

    config = transformers.T5Config(
        vocab_size=VOCAB,
        d_model=HIDDEN,
        d_kv=16,
        d_ff=2 * HIDDEN,
        num_layers=LAYERS,
        num_decoder_layers=LAYERS,
        num_heads=2,
        pad_token_id=0,
    )
    return transformers.T5ForConditionalGeneration(config)


def _llama() -> torch.nn.Module:
    import transformers

    config = transformers.LlamaConfig(
        vocab_size=VOCAB,
        hidden_size=HIDDEN,
        intermediate_size=2 * HIDDEN,
        num_hidden_layers=LAYERS,
        num_attention_heads=4,
        num_key_value_heads=2,
        max_position_embeddings=128,
    )
    return transformers.LlamaForCausalLM(config)


def _mistral() -> torch.nn.Module:
    import transformers

    config = transformers.MistralConfig(
        vocab_size=VOCAB,
        hidden_size=HIDDEN,
        intermediate_size=2 * HIDDEN,
        num_hidden_layers=LAYERS,
        num_attention_heads=4,
        num_key_value_heads=2,
        max_position_embeddings=128,
        sliding_window=WINDOW,
    )
    return transformers.MistralForCausalLM(config)


def _vit() -> torch.nn.Module:
    import transformers

    config = transformers.ViTConfig(
        image_size=IMAGE,
        patch_size=PATCH,
        num_channels=3,
        hidden_size=HIDDEN,
        num_hidden_layers=LAYERS,
        num_attention_heads=2,
        intermediate_size=2 * HIDDEN,
    )
    return transformers.ViTModel(config, add_pooling_layer=False)


def _ids_and_mask(batch: int, length: int) -> dict[str, torch.Tensor]:
    """An encoder's or a scorer's call: tokens and their padding mask."""
    return {"input_ids": _tokens(batch, length), "attention_mask": _mask(batch, length)}


def _ids_only(batch: int, length: int) -> dict[str, Any]:
    """A causal LM scoring a prompt: tokens only, no cache kept."""
    return {"input_ids": _tokens(batch, length), "use_cache": False}


def _seq2seq(batch: int, length: int) -> dict[str, Any]:
    """T5: the encoder's tokens and mask, and a decoder prefix half as long (at least 1)."""
    return {
        **_ids_and_mask(batch, length),
        "decoder_input_ids": _tokens(batch, max(1, length // 2)),
        "use_cache": False,
    }


def bert(backend: str | None = None, grid: str | None = None) -> None:
    """BERT encoder over (batch, length), with a padding mask."""
    _run_text(_bert, _ids_and_mask, backend, grid)


def gpt2(backend: str | None = None, grid: str | None = None) -> None:
    """GPT-2 LM head over (batch, length), with a padding mask."""
    _run_text(_gpt2, _ids_and_mask, backend, grid)


def t5(backend: str | None = None, grid: str | None = None) -> None:
    """T5 encoder-decoder over (batch, length), the decoder half as long."""
    _run_text(_t5, _seq2seq, backend, grid)


def llama(backend: str | None = None, grid: str | None = None) -> None:
    """Llama causal LM over (batch, length), tokens only."""
    _run_text(_llama, _ids_only, backend, grid)


def mistral(backend: str | None = None, grid: str | None = None) -> None:
    """Mistral causal LM over (batch, length), within and across its sliding window."""
    _run_text(_mistral, _ids_only, backend, grid)


def vit(backend: str | None = None, grid: str | None = None) -> None:
    """ViT encoder over (batch, image size), position table interpolated to the image."""
    import torch

    sizes = _grid(grid).vision()
    torch.manual_seed(0)
    compiled = _compiled(_vit(), backend)
    with torch.no_grad():
        for batch, (height, width) in sizes:
            pixels = torch.randn(batch, 3, height, width)
            compiled(pixel_values=pixels, interpolate_pos_encoding=True)


#: Every workload in the order ``symdebug suite --hf`` runs and lists them.
MODELS: dict[str, Callable[[str | None, str | None], None]] = {
    "bert": bert,
    "gpt2": gpt2,
    "t5": t5,
    "llama": llama,
    "mistral": mistral,
    "vit": vit,
}


def workloads(backend: str | None = None, grid: str | None = None) -> dict[str, Callable[[], None]]:
    """Every workload as a no-argument callable, for the backend and grid given.

    None (the default) reads the runner's environment when the workload runs
    (``SYMDEBUG_SUITE_BACKEND``, ``SYMDEBUG_SUITE_GRID``), else Inductor and the full grid.
    """
    return {name: functools.partial(run, backend, grid) for name, run in MODELS.items()}


WORKLOADS = workloads()
