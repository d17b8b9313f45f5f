"""DistributedDataParallel on CPU (gloo, one process): DDP's forward graph-breaks in its own
code (``_pre_forward`` calls its logger, which Dynamo cannot trace).  Compiled directly, the
compiled frame is torch's and holds no line of the user's; compiled inside the user's
``predict``, the user line is its call of the DDP model."""

import tempfile
from pathlib import Path

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = torch.nn.Linear(4, 4)

    def forward(self, x):
        return self.linear(x).relu()


def predict(model, x):
    return model(x) * 2  # USER: ddp call


def _run():
    torch.manual_seed(0)
    model = DistributedDataParallel(Net())
    first = torch.compile(model, backend="eager")(torch.randn(2, 4))  # CALLER: compiled ddp
    second = torch.compile(predict, backend="eager")(model, torch.randn(3, 4))
    return [first, second]


def workload():
    with tempfile.TemporaryDirectory() as folder:
        store = dist.FileStore(str(Path(folder) / "store"), 1)
        dist.init_process_group("gloo", store=store, rank=0, world_size=1)
        try:
            return _run()
        finally:
            dist.destroy_process_group()


if __name__ == "__main__":
    torch.compiler.config.force_disable_caches = True
    print([t.shape for t in workload()])
