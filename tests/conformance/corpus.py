"""The conformance corpus: programs every supported torch release runs, each a row.

Each row is a program of ``tests/data/programs`` (its ``workload()`` makes the calls) and
the mechanisms it shows.  Rows are checked at import: each program exists, names are unique.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

PROGRAMS = Path(__file__).resolve().parents[1] / "data" / "programs"


@dataclass(frozen=True)
class Program:
    """One program of the corpus and what it shows.

    ``points``: new calls to predict, as ``Session.predict`` takes them (sizes for tensors);
    a program with points has ``build()``, its compiled function again, to run them with.
    """

    name: str
    shows: str
    points: tuple[tuple[object, ...], ...] = ()


CORPUS = (
    Program("static_batch", "static by default, then automatic dynamic", (((32, 3),), ((1, 3),))),
    Program("int_loop", "an int used as a loop count (int_specialized)", (((3,), 2), ((3,), 5))),
    Program("int_factors", "ints used as factors"),
    Program("branch_forced", "a branch on a size (user_branch)", (((5, 8), 3), ((5, 7), 3))),
    Program("one_row_branch", "a branch met at size 1"),
    Program("computed_branch", "a branch on a computed value"),
    Program("zero_one", "0/1 specialization"),
    Program("duck_pair", "duck sizing"),
    Program("module_attribute", "an nn.Module int attribute"),
    Program("config_attribute", "a config object's int"),
    Program("global_int", "a global int"),
    Program("marked_static", "mark_static"),
    Program("mark_range", "mark_dynamic with a range", (((5, 4),), ((32, 4),))),
    Program("last_token", "a computed index"),
    Program("float_scale", "a float argument"),
    Program("float_temperature", "a float held constant"),
    Program("string_mode", "a string argument"),
    Program("dtype_change", "a dtype change"),
    Program("layout_change", "a stride change"),
    Program("requires_grad_change", "requires_grad"),
    Program("device_change", "a device change (meta)"),
    Program("grad_mode_change", "grad mode"),
    Program("autocast_change", "autocast"),
    Program("default_dtype_change", "the default dtype"),
    Program("deterministic_change", "deterministic algorithms"),
    Program("train_eval", "self.training"),
    Program("feature_list", "a list's length"),
    Program("kv_cache", "a cache object's sizes"),
    Program("graph_breaks", "graph breaks"),
    Program("resume_frame", "a resume frame's lost dynamism"),
    Program("printed_step", "a print"),
    Program("contextlib_break", "a library context manager's break"),
    Program("library_helper", "a size specialized in a library"),
    Program("wrapped_module", "a wrapped module's names"),
    Program("unbacked", "unbacked sizes"),
    Program("adaptive_pool", "an Inductor lowering"),
    Program("train_step", "a training step with backward"),
    Program("optimizer_step", "an optimizer's step"),
    Program("export_dim", "torch.export with a specialized Dim"),
    Program("static_sources_env", "TORCH_COMPILE_STATIC_SOURCES (read from torch 2.15 on)"),
    Program("hf_gpt2", "a Hugging Face GPT-2 from config"),
    Program("hf_bert", "a Hugging Face BERT with its attention mask"),
    Program(
        "demo_block",
        "the bundled demo's model",
        (((2, 7, 16), (2, 7), 4), ((2, 30, 16), (2, 30), 4), ((2, 7, 16), (2, 7), 5)),
    ),
)
BY_NAME = {program.name: program for program in CORPUS}
assert len(BY_NAME) == len(CORPUS), "two programs share a name"
assert all((PROGRAMS / f"{p.name}.py").is_file() for p in CORPUS), "a program is missing"
