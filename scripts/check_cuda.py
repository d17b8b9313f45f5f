"""symdebug on a CUDA GPU: ``rerun`` times the kernels (not only their launches), and
``predict`` agrees with ``rerun`` for tensors on the device.

Usage (on a machine with CUDA): ``python scripts/check_cuda.py``.  Exits non-zero on a miss.
"""

from __future__ import annotations

import sys

import torch

import symdebug


def matmul(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return (a @ b).relu()


def by_cuda_events(fn, *args, calls: int = 20) -> float:  # type: ignore[no-untyped-def]
    """Milliseconds per call, measured on the device's own clock."""
    for _ in range(3):
        fn(*args)
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(calls):
        fn(*args)
    end.record()
    torch.cuda.synchronize()
    return start.elapsed_time(end) / calls


def main() -> int:
    cuda = torch.device("cuda")
    print("torch", torch.__version__, torch.cuda.get_device_name())
    with symdebug.capture() as session:
        compiled = torch.compile(matmul, backend="inductor", dynamic=True)
        compiled(torch.randn(256, 512, device=cuda), torch.randn(512, 512, device=cuda))
    failures = 0
    for shape in ((8192, 8192), (100, 8192), (1, 8192)):
        result = session.rerun(compiled, shape, (8192, 8192))
        print(shape, result)
        failures += not result.prediction_held or result.allclose is not True
    big = torch.randn(8192, 8192, device=cuda)
    reference = by_cuda_events(compiled, big, big)
    result = session.rerun(compiled, (8192, 8192), (8192, 8192))
    ratio = result.seconds["compiled"] * 1e3 / reference
    print(f"rerun {result.seconds['compiled'] * 1e3:.3f} ms/call, cuda events {reference:.3f}")
    print(f"ratio {ratio:.2f} (a launch-only timing would be far below 1)")
    failures += not 0.7 < ratio < 1.5
    print("FAILURES", failures)
    return int(failures > 0)


if __name__ == "__main__":
    sys.exit(main())
