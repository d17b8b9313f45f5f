"""Prediction throughput against the cost of actually calling, measured in one run.

A function with a branch, a view divisibility guard and slicing is compiled at three
sizes (three cache entries); we then answer "which entry serves?" for many sizes:

  vectorised   Predictor.serving over numpy columns (what sweep uses)
  per point    Predictor.predict, one call at a time (what predict() uses)
  calling      the compiled function itself at sizes that hit (guards + a tiny kernel)
"""

from __future__ import annotations

import os
import time

import numpy as np
import torch

import symdebug
from symdebug.queries.predict import Predictor

POINTS = int(os.environ.get("BENCH_POINTS", "200000"))


def model(x, y):
    if x.shape[0] > 64:
        x = x * 2
    h = x.view(-1, 2).sum(0)
    return h.sum() + y[: x.shape[0] // 2].sum()


def session_with_entries() -> tuple[symdebug.Session, object]:
    torch.compiler.config.force_disable_caches = True
    with symdebug.capture() as session:
        compiled = torch.compile(model, backend="eager", dynamic=True)
        for rows in (16, 200, 1):  # branch both ways, and a 0/1-specialized entry
            compiled(torch.randn(rows, 4), torch.randn(300))
    return session, compiled


def main() -> None:
    session, compiled = session_with_entries()
    predictor = Predictor(session.facts, "model", session.lookup_order("model"))
    rows = np.random.default_rng(0).integers(1, 800, POINTS)
    columns = predictor.values(((2, 4), (300,)), {})
    columns = {k: np.full(POINTS, v) for k, v in columns.items()}
    columns["L['x'].size()[0]"] = rows
    columns["L['x'].stride()[0]"] = np.full(POINTS, 4)
    start = time.perf_counter()
    served = predictor.serving(columns)
    vectorised = POINTS / (time.perf_counter() - start)
    sample = 2000
    start = time.perf_counter()
    singles = [
        predictor.predict(predictor.values(((int(v), 4), (300,)), {})).entry for v in rows[:sample]
    ]
    per_point = sample / (time.perf_counter() - start)
    ids = [m.compile_id for m in predictor.models]
    agree = sum(
        s == (ids[i] if i >= 0 else None) for s, i in zip(singles, served[:sample], strict=True)
    )
    calls = 500
    inputs = [(torch.randn(int(r), 4), torch.randn(300)) for r in rows[:calls] if r <= 128]
    start = time.perf_counter()
    for x, y in inputs:
        compiled(x, y)
    calling = len(inputs) / (time.perf_counter() - start)
    entries = [m.compile_id for m in predictor.models]
    print(f"prediction throughput ({len(entries)} entries: {', '.join(entries)}; {POINTS} sizes)")
    print(f"  vectorised   {vectorised:12,.0f} sizes/s   x{vectorised / calling:,.0f} of calling")
    print(f"  per point    {per_point:12,.0f} sizes/s   x{per_point / calling:,.1f} of calling")
    print(f"  calling      {calling:12,.0f} calls/s  (compiled function, cache hits)")
    print(f"  recompiles predicted: {int((served < 0).sum())} of {POINTS}")
    print(f"  vectorised and per-point answers agree on {agree} of {sample} sizes")


if __name__ == "__main__":
    main()
