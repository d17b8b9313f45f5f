"""A decode step with a key/value cache that grows each call: two inputs change at once."""

import torch


def attend(q, keys, values):
    weights = torch.softmax(q @ keys.transpose(-1, -2), dim=-1)
    return weights @ values


def workload():
    compiled = torch.compile(attend, backend="eager")
    generator = torch.Generator().manual_seed(0)
    keys = torch.randn(1, 6, 8, generator=generator)
    values = torch.randn(1, 6, 8, generator=generator)
    outputs = []
    for _ in range(4):
        q = torch.randn(1, 1, 8, generator=generator)
        outputs.append(compiled(q, keys, values))
        keys = torch.cat([keys, torch.randn(1, 1, 8, generator=generator)], dim=1)
        values = torch.cat([values, torch.randn(1, 1, 8, generator=generator)], dim=1)
    return outputs


if __name__ == "__main__":
    print([round(t.sum().item(), 4) for t in workload()])
