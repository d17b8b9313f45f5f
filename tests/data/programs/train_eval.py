"""self.training: a block scales its activations only in training; eval() compiles again."""

import torch


class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        torch.manual_seed(0)
        self.linear = torch.nn.Linear(4, 4)

    def forward(self, x):
        h = self.linear(x)
        if self.training:  # BRANCH: training
            h = h * 0.9
        return h.relu()


def workload():
    block = Block()
    compiled = torch.compile(block, backend="eager")
    x = torch.arange(8.0).reshape(2, 4)
    first = compiled(x)
    block.eval()
    second = compiled(x)
    return [first.detach(), second.detach()]


if __name__ == "__main__":
    print([t.tolist() for t in workload()])
