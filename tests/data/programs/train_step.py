"""A training step with backward and an optimizer, over batches of changing size."""

import torch


def workload():
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 1))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

    def train_step(x, y):
        loss = torch.nn.functional.mse_loss(model(x), y)
        loss.backward()
        return loss

    compiled = torch.compile(train_step, backend="aot_eager")
    losses = []
    for n in (8, 12, 16, 20):
        generator = torch.Generator().manual_seed(n)
        x, y = torch.randn(n, 4, generator=generator), torch.randn(n, 1, generator=generator)
        optimizer.zero_grad()
        losses.append(compiled(x, y).detach())
        optimizer.step()
    return losses


if __name__ == "__main__":
    print([round(t.item(), 5) for t in workload()])
