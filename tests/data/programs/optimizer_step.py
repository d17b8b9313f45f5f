"""A compiled optimizer step: ``torch.optim``'s step wrapper calls
``torch._dynamo.graph_break()`` (in ``_use_grad``).  Compiled as ``torch.compile(opt.step)``
the compiled frame is torch's own and holds no line of the user's; compiled inside the
user's ``train_step``, the user line is its ``opt.step()``."""

import torch


def train_step(model, opt, x):
    loss = model(x).square().mean()
    opt.step()  # USER: step
    return loss


def workload():
    torch.manual_seed(0)
    model = torch.nn.Linear(4, 4)
    opt = torch.optim.Adam(model.parameters(), lr=0.1)
    model(torch.randn(2, 4)).sum().backward()
    torch.compile(opt.step, backend="eager")()
    return [torch.compile(train_step, backend="eager")(model, opt, torch.randn(3, 4))]


if __name__ == "__main__":
    torch.compiler.config.force_disable_caches = True
    print([t.shape for t in workload()])
