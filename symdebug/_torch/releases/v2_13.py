"""torch 2.13: the release symdebug was first written against (``2.13.0``).

Each later release's module starts from this one and says what changed.
"""

from __future__ import annotations

from symdebug._torch.releases.sections import (
    CacheEntryApi,
    CauseFrames,
    Fingerprint,
    GuardText,
    Knobs,
    LogRecords,
    Release,
    ShapeEnvHooks,
)

#: Settings a fix may set on 2.13 (each checked against the config modules by the
#: conformance tier: ``tests/conformance/test_release_tables.py``).
SETTINGS = frozenset(
    {
        "torch.compiler.config.dynamic_sources",
        "torch.compiler.config.unbacked_sources",
        "torch.compiler.config.dynamic_values",
        "torch._dynamo.config.assume_static_by_default",
        "torch._dynamo.config.automatic_dynamic_shapes",
        "torch._dynamo.config.reorderable_logging_functions",
        "torch._dynamo.config.recompile_limit",
        "torch._dynamo.config.specialize_float",
        "torch._dynamo.config.allow_unspec_int_on_nn_module",
        "torch._dynamo.config.suppress_errors",
        "torch._dynamo.config.capture_scalar_outputs",
        "torch._dynamo.config.capture_dynamic_output_shape_ops",
        "torch.fx.experimental._config.use_duck_shape",
        "torch.fx.experimental._config.backed_size_oblivious",
    }
)

#: The exact version CI proves this release on (the Makefile reads this line).
TESTED = "2.13.0"


RELEASE = Release(
    version=(2, 13),
    tested=TESTED,
    frames=CauseFrames(
        # ``range(n)``: builtin.call_range -> call_index -> utils.specialize_symnode.
        int_use=frozenset({"specialize_symnode"}),
        value_asked=frozenset({"evaluate_expr"}),
        op_files=(
            "_subclasses/fake_impls.py",
            "_subclasses/fake_utils.py",
            "/_refs/",
            "/_prims_common/",
            "/_prims/",
            "/_decomp/",
            "_meta_registrations.py",
            "/_dynamo/variables/builtin.py",
            "/_dynamo/variables/lists.py",
        ),
        node_runner=("_dynamo/utils.py", "run_node"),
        autograd_grad=("grad", "/autograd/"),
        inductor="/_inductor/",
        sequence_compare=frozenset({"_seq_richcompare"}),
    ),
    # ``TYPE_MATCH: ... (HINT: type list)``: torch's note for people, after the user line.
    guard_text=GuardText(
        aliasing_kinds=("LAMBDA_GUARD",), hint_note=r"\s*\(HINT: [^()]*(?:\([^()]*\)[^()]*)*\)\s*$"
    ),
    records=LogRecords(
        version_artifact="torch_version",
        export_in_compile_context=False,
        unread_payloads=frozenset(
            {
                "aot_inference_graph",
                "aot_forward_graph",
                "aot_backward_graph",
                "aot_joint_graph",
                "aot_forward_graph_fw_metadata",
                "aot_backward_graph_fw_metadata",
                "torch._functorch.config",
                "runtime_wrapper_orchestration",
                "before_pre_grad_graph",
                "after_pre_grad_graph",
                "before_joint_graph",
                "after_joint_graph",
                "before_post_grad_graph",
                "inductor_post_grad_graph",
                "fx_graph_runnable",
            }
        ),
    ),
    cache_entries=CacheEntryApi(
        entry_list="torch._C._dynamo.eval_frame:_debug_get_cache_entry_list",
        guard_complete_hook="torch._C._dynamo.eval_frame:set_guard_complete_hook",
        stance="torch._dynamo.eval_frame:_stance",
    ),
    shape_env=ShapeEnvHooks(
        backed_values="backed_var_to_val", ignored_counter="ignored_backward_guard"
    ),
    knobs=Knobs(settings=SETTINGS, compile_keywords=frozenset(), mark_bounds=False),
    fingerprint=Fingerprint(
        frozenset(
            {
                ("torch/_dynamo/convert_frame.py", "_compile", 2102),
                ("torch/_dynamo/variables/tensor.py", "evaluate_expr", 2606),
                ("torch/_logging/_internal.py", "trace_structured", 1497),
                ("torch/fx/experimental/symbolic_shapes.py", "_evaluate_expr", 8494),
                ("torch/fx/experimental/symbolic_shapes.py", "_log_guard", 8058),
            }
        )
    ),
)
