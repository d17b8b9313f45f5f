"""A segment-sum used by a graph network, then rerun with deterministic algorithms on.

`torch.use_deterministic_algorithms(True)` is global state every entry checks: the
reproducibility run compiles again.
"""

from __future__ import annotations

import torch


def segment_sum(messages: torch.Tensor, receivers: torch.Tensor, nodes: int) -> torch.Tensor:
    out = torch.zeros(nodes, messages.shape[1], dtype=messages.dtype)
    return out.index_add(0, receivers, messages)


def message_pass(
    node_feats: torch.Tensor, senders: torch.Tensor, receivers: torch.Tensor
) -> torch.Tensor:
    messages = node_feats[senders] * 0.5
    return node_feats + segment_sum(messages, receivers, node_feats.shape[0])


def main() -> list[torch.Tensor]:
    torch.manual_seed(0)
    step = torch.compile(message_pass, backend="eager")
    feats = torch.randn(10, 4)
    senders = torch.randint(0, 10, (30,))
    receivers = torch.randint(0, 10, (30,))
    outputs = [step(feats, senders, receivers)]
    was = torch.are_deterministic_algorithms_enabled()
    torch.use_deterministic_algorithms(True)
    try:
        outputs.append(step(feats, senders, receivers))
    finally:
        torch.use_deterministic_algorithms(was)
    return outputs


if __name__ == "__main__":
    print([tuple(o.shape) for o in main()])
