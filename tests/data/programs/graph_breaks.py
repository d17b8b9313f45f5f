"""Graph breaks: a print between two encoder halves (with mark_dynamic), ``.item()``, a
data-dependent branch, a size carried across a break as an int, and ``x in tensor``, which
makes torch skip its frame for good."""

import torch


class Encoder(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.first = torch.nn.Linear(8, 8)
        self.second = torch.nn.Linear(8, 8)

    def forward(self, x):
        h = self.first(x)
        print("between the halves")  # BREAK: print
        return self.second(h).relu()


def scalar(x):
    n = x.sum().item()  # BREAK: item
    return x * n


def branch(x):
    if x.sum() > 0:  # BREAK: branch
        return x + 1
    return x - 1


def carried(x):
    n = x.shape[0]
    print("carried")  # BREAK: carried
    return torch.ones(n) * 2


def contains(x):
    if 3 in x:  # SKIPPED: contains
        return x + 1
    return x - 1


def workload():
    torch.manual_seed(0)
    encoder = torch.compile(Encoder(), backend="eager")
    outputs = []
    for length in (5, 7):
        x = torch.randn(2, length, 8)
        torch._dynamo.mark_dynamic(x, 1)
        outputs.append(encoder(x))
    outputs.append(torch.compile(scalar, backend="eager")(torch.ones(4)))
    outputs.append(torch.compile(branch, backend="eager")(torch.ones(4)))
    x = torch.ones(6)
    torch._dynamo.mark_dynamic(x, 0)
    outputs.append(torch.compile(carried, backend="eager")(x))
    outputs.append(torch.compile(contains, backend="eager")(torch.arange(4.0)))
    return outputs


if __name__ == "__main__":
    torch.compiler.config.force_disable_caches = True
    print([t.shape for t in workload()])
