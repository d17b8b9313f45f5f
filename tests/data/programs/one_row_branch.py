"""one_row_branch: a batch of one takes a branch; batch sizes change after the first call."""

import torch


def squeeze_or_sum(x):
    if x.shape[0] == 1:
        return x.squeeze(0) * 2
    return x.sum(0)


def workload():
    compiled = torch.compile(squeeze_or_sum, backend="aot_eager")
    rows = (2, 3, 1, 5, 1, 7)
    return [compiled(torch.arange(n * 4.0).reshape(n, 4)) for n in rows]


if __name__ == "__main__":
    print([t.tolist() for t in workload()])
