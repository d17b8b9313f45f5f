"""A DistributedDataParallel model (gloo, world size 1) under torch.compile, with a debug `.item()`.

Four training steps at batch 8, 6, 5, 12 (aot_eager).  The first call graph-breaks three
ways: inside DDP's own forward (`Logger.set_runtime_stats_and_log` cannot be traced, and
`DistributedDataParallel._inside_ddp_forward` is marked as skipped), and in the model at
`hidden.abs().max().item()` (`Tensor.item()` without capture_scalar_outputs).  Batch 6 then
recompiles three frames, each on the batch size 8 -> 6: DDP's wrapper (`inner`, guard on
`args[0]` size at index 0), the model's `forward` (`batch` size at index 0) and the resume
function after the `.item()` break (`hidden` size at index 0); batches 5 and 12 hit the
dynamic graphs.  Same on torch 2.13 and 2.15.
"""

from __future__ import annotations

import os
import socket
import tempfile

import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP  # noqa: N817


class Classifier(nn.Module):
    def __init__(self, features: int = 12, classes: int = 3) -> None:
        super().__init__()
        self.body = nn.Sequential(nn.Linear(features, 16), nn.ReLU())
        self.head = nn.Linear(16, classes)

    def forward(self, batch: torch.Tensor) -> torch.Tensor:
        hidden = self.body(batch)
        # a data-dependent check a user adds while debugging: .item() breaks the graph
        if hidden.abs().max().item() > 100.0:
            print("activations blew up")
        return self.head(hidden)


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def main() -> list[torch.Tensor]:
    torch.manual_seed(0)
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(_free_port())
    store_dir = tempfile.mkdtemp(prefix="ddp_store_")
    store = dist.FileStore(os.path.join(store_dir, "store"), 1)
    dist.init_process_group("gloo", store=store, rank=0, world_size=1)
    try:
        model = DDP(Classifier())
        compiled = torch.compile(model, backend="aot_eager")
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        losses = []
        for batch_size in (8, 6, 5, 12):
            batch = torch.randn(batch_size, 12)
            labels = torch.randint(0, 3, (batch_size,))
            loss = nn.functional.cross_entropy(compiled(batch), labels)
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
            losses.append(loss.detach())
        return losses
    finally:
        dist.destroy_process_group()


if __name__ == "__main__":
    print([round(float(x), 4) for x in main()])
