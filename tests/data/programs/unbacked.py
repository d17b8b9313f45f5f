"""Unbacked symbols: ``.item()`` with ``capture_scalar_outputs``, ``nonzero()`` and a branch on
its size with ``capture_dynamic_output_shape_ops``, a size marked ``mark_unbacked`` and a
branch on it, ``repeat_interleave`` with tensor counts, and a data-dependent branch under
``fullgraph=True`` (the compile fails)."""

import torch
import torch._dynamo.config as dynamo_config


def scalar_size(x):
    n = x.sum().item()  # UNBACKED: item
    return torch.zeros(n)  # ASSERT: item used as a size


def nonzero_branch(x):
    idx = x.nonzero()  # UNBACKED: nonzero
    if idx.shape[0] == 1:  # BREAK: nonzero branch
        return idx * 2
    return idx + 1


def marked_branch(x):
    if x.shape[0] == 1:  # BREAK: marked branch
        return x * 2
    return x + 1


def repeat(x, counts):
    return torch.repeat_interleave(x, counts)  # UNBACKED: repeat_interleave


def item_branch(x):
    n = x.sum().item()  # UNBACKED: item in fullgraph
    if n == 1:  # ERROR: item branch
        return x * 2
    return x + 1


def workload():
    outputs = []
    with dynamo_config.patch(capture_scalar_outputs=True):
        outputs.append(torch.compile(scalar_size, backend="eager")(torch.tensor([1, 2])))
    with dynamo_config.patch(capture_dynamic_output_shape_ops=True):
        outputs.append(torch.compile(nonzero_branch, backend="eager")(torch.tensor([1, 0, 1])))
        counts = torch.tensor([1, 2, 3])
        outputs.append(torch.compile(repeat, backend="eager")(torch.randn(3), counts))
    x = torch.randn(5)
    torch._dynamo.decorators.mark_unbacked(x, 0)
    outputs.append(torch.compile(marked_branch, backend="eager")(x))
    with dynamo_config.patch(capture_scalar_outputs=True):
        try:
            torch.compile(item_branch, backend="eager", fullgraph=True)(torch.tensor([1, 2]))
        except torch._dynamo.exc.UserError as error:  # the data-dependent error
            outputs.append(torch.tensor([len(str(error))]) * 0)
    return outputs


if __name__ == "__main__":
    torch.compiler.config.force_disable_caches = True
    print([t.shape for t in workload()])
