"""requires_grad: a loss is computed for plain inputs, then for an input that needs a gradient."""

import torch


def loss(x, w):
    return ((x @ w) ** 2).mean()


def workload():
    compiled = torch.compile(loss, backend="eager")
    w = torch.linspace(-1, 1, 12).reshape(4, 3)
    x = torch.arange(8.0).reshape(2, 4)
    first = compiled(x, w)
    second = compiled(x.clone().requires_grad_(), w)  # CALL: needs grad
    return [first.detach(), second.detach()]


if __name__ == "__main__":
    print([t.tolist() for t in workload()])
