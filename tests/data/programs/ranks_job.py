"""A distributed job (torchrun, gloo on the CPU): every rank compiles the same step, and rank
2 alone sees a batch of 7 on its second call, so it alone recompiles."""

import os

import torch
import torch.distributed as dist

#: Rank 2's second batch (7: it alone recompiles; 8: no rank does).
ODD_BATCH = int(os.environ.get("RANKS_JOB_ODD_BATCH", "7"))


def step(x):
    return (x * 2).sum(1)


def main():
    dist.init_process_group("gloo")
    rank = dist.get_rank()
    compiled = torch.compile(step, backend="eager")
    for batch in (8, ODD_BATCH if rank == 2 else 8):
        total = compiled(torch.ones(batch, 4)).sum()
        dist.all_reduce(total)  # the ranks wait for each other, as in training
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
