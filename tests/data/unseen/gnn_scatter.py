"""Graph message passing with `index_add_` over edges, on graphs with varying node and edge counts.

The first graph (10 nodes, 30 edges) compiles static; 10 nodes with 24 edges recompiles on
`tensor 'edge_index' size mismatch at index 1` (edge count becomes dynamic); 17 nodes recompiles
on `tensor 'x' size mismatch at index 0` (node count becomes dynamic): 3 compiles in main().  In
next_calls(), a 25-node, 60-edge graph is served from the cache; a single node with no edges
recompiles on a stride guard `edge_index.stride()[0] == edge_index.size()[1]` (an empty (2, 0)
tensor has stride (1, 1)), which torch logs with "unknown source ..., please file a bug"; and a
2-node graph with one edge recompiles on the 0/1-specialization guard `2 <= edge_index.size()[1]`
(and `size mismatch at index 0` of the 1-node graph).  Same on torch 2.13 and 2.15.
"""

from __future__ import annotations

import torch
from torch import nn

_COMPILED = None


class MessagePassing(nn.Module):
    def __init__(self, dim: int = 16) -> None:
        super().__init__()
        self.message = nn.Linear(2 * dim, dim)
        self.update = nn.GRUCell(dim, dim)

    def forward(self, x: torch.Tensor, edge_index: torch.Tensor) -> torch.Tensor:
        src, dst = edge_index[0], edge_index[1]
        messages = torch.relu(self.message(torch.cat([x[src], x[dst]], dim=-1)))
        aggregated = torch.zeros_like(x).index_add_(0, dst, messages)
        degree = torch.zeros(x.shape[0], dtype=x.dtype).scatter_add_(
            0, dst, torch.ones_like(dst, dtype=x.dtype)
        )
        aggregated = aggregated / degree.clamp(min=1).unsqueeze(-1)
        return self.update(aggregated, x)


class GNN(nn.Module):
    def __init__(self, in_dim: int = 8, dim: int = 16, num_layers: int = 2) -> None:
        super().__init__()
        self.encode = nn.Linear(in_dim, dim)
        self.layers = nn.ModuleList(MessagePassing(dim) for _ in range(num_layers))
        self.readout = nn.Linear(dim, 1)

    def forward(self, x: torch.Tensor, edge_index: torch.Tensor) -> torch.Tensor:
        h = self.encode(x)
        for layer in self.layers:
            h = layer(h, edge_index)
        return self.readout(h.mean(dim=0))


def random_graph(num_nodes: int, num_edges: int, seed: int) -> tuple[torch.Tensor, torch.Tensor]:
    gen = torch.Generator().manual_seed(seed)
    x = torch.randn(num_nodes, 8, generator=gen)
    edge_index = torch.randint(0, num_nodes, (2, num_edges), generator=gen)
    return x, edge_index


def main() -> list[torch.Tensor]:
    global _COMPILED
    torch.manual_seed(0)
    _COMPILED = torch.compile(GNN(), backend="eager")
    graphs = [(10, 30, 0), (10, 24, 1), (17, 40, 2)]
    return [_COMPILED(*random_graph(n, e, seed)) for n, e, seed in graphs]


def next_calls() -> list[tuple[object, tuple, dict]]:
    assert _COMPILED is not None
    return [
        (_COMPILED, random_graph(25, 60, 3), {}),
        # A single isolated node with no edges.
        (_COMPILED, random_graph(1, 0, 4), {}),
        # Two nodes joined by one edge.
        (_COMPILED, random_graph(2, 1, 5), {}),
    ]


if __name__ == "__main__":
    print([tuple(o.shape) for o in main()])
