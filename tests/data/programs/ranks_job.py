"""A distributed job (torchrun, gloo on the CPU): every rank compiles the same step, and rank
2 alone sees a batch of 7 on its second call, so it alone recompiles."""

import torch
import torch.distributed as dist


def step(x):
    return (x * 2).sum(1)


def main():
    dist.init_process_group("gloo")
    rank = dist.get_rank()
    compiled = torch.compile(step, backend="eager")
    for batch in (8, 7 if rank == 2 else 8):
        total = compiled(torch.ones(batch, 4)).sum()
        dist.all_reduce(total)  # the ranks wait for each other, as in training
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
