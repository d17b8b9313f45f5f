"""A workload reaches a fresh replay process by reference, or by value with its file names."""

from __future__ import annotations

import pickle
import threading

from symdebug.live.workload_ref import workload_ref


def by_reference() -> int:
    return 1


def test_a_module_function_goes_by_reference() -> None:
    ref = workload_ref(by_reference)
    assert ref.how == f"by reference ({__name__}.by_reference)"
    assert pickle.loads(ref.payload) is by_reference


def test_a_closure_goes_by_value_and_keeps_its_file_and_lines() -> None:
    class Model:
        def forward(self) -> int:
            return 2

    def workload() -> int:
        return Model().forward()

    ref = workload_ref(workload)
    assert ref.how == "pickled by value"
    loaded = pickle.loads(ref.payload)
    assert loaded() == 2
    # cloudpickle itself writes "<dynamic-code>": a replay's frames would name no file.
    assert loaded.__code__.co_filename == __file__
    assert loaded.__code__.co_firstlineno == workload.__code__.co_firstlineno


def test_what_cannot_be_sent_is_said() -> None:
    lock = threading.Lock()

    def workload() -> bool:
        return lock.locked()

    ref = workload_ref(workload)
    assert not ref.sendable
    assert "cannot be sent to a fresh process" in ref.how and "importable module" in ref.how
