"""A module torch compiles behind its own ``inner(*args, **kwargs)`` (``wrap_top_frame``)."""

import torch


class Encoder(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(3, 4)

    def forward(self, x, scale=None):
        if x.shape[0] > 4:  # a branch on a size
            x = x * 2
        return self.lin(x)


def workload():
    torch.manual_seed(0)
    with torch._dynamo.config.patch(wrap_top_frame=True):
        compiled = torch.compile(Encoder(), backend="eager")
        return [compiled(torch.ones(rows, 3)) for rows in (8, 6, 5)]


if __name__ == "__main__":
    print([t.sum().item() for t in workload()])
