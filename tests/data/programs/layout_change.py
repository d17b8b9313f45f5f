"""strides: a small CNN gets contiguous images, then channels_last ones of the same size."""

import torch


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        torch.manual_seed(0)
        self.conv = torch.nn.Conv2d(3, 4, 3, padding=1)

    def forward(self, images):
        return torch.relu(self.conv(images)).mean((2, 3))


def workload():
    net = Net().eval()
    compiled = torch.compile(net, backend="eager")
    images = torch.linspace(0, 1, 2 * 3 * 8 * 8).reshape(2, 3, 8, 8)
    first = compiled(images)
    second = compiled(images.to(memory_format=torch.channels_last))  # CALL: channels_last
    return [first, second]


if __name__ == "__main__":
    print([t.tolist() for t in workload()])
