"""An nn.Module int attribute: a constant to Dynamo unless told otherwise."""

import torch


class Chunked(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.chunk = 2

    def forward(self, x):
        return x.reshape(-1, self.chunk).sum(1)


def workload():
    model = Chunked()
    compiled = torch.compile(model, backend="eager")
    outputs = []
    for chunk in (2, 3, 4, 6):
        model.chunk = chunk
        outputs.append(compiled(torch.arange(12.0)))
    return outputs


if __name__ == "__main__":
    print([t.tolist() for t in workload()])
