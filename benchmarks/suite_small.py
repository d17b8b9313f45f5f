"""20 small workloads for timing ``symdebug suite``: serially and with ``--jobs 2``.

Plain functions and tiny ``nn.Module``s on the ``eager`` or ``aot_eager`` backend, each a
few calls over sizes (about a second or two in its own process, most of it importing torch),
most recompiling for a reason of their own:

==================  ==============================================================
``int_loop``        an int used as a loop count: one compile per value
``size_branch``     a branch on a size, taken the other way after it became dynamic
``batch_of_one``    a Linear module over batches 1..4: compiled first for a batch of 1
``print_break``     a ``print``: a graph break and its resume frame
``dtype_change``    float32, then float64 inputs
``mark_static``     ``torch._dynamo.mark_static``: every new size recompiles
``duck_sizing``     ``dynamic=True``: two inputs of equal size share a symbol, then differ
``module_int``      an int attribute of an ``nn.Module`` changed between calls
``train_eval``      ``model.train()`` after ``eval()``: ``self.training`` is checked
``list_length``     a list of tensors whose length changes
``optional_mask``   ``mask=None``, then a tensor
``dynamic_false``   ``torch.compile(dynamic=False)``: a changing size never becomes dynamic
``item_break``      ``.item()``: a graph break on a data-dependent value
``maybe_dynamic``   ``maybe_mark_dynamic`` and a branch on the marked size
``string_mode``     a string argument picks the operation
``float_scale``     a Python float argument
``zero_one``        a dynamic size that later takes the value 1
``growing_cat``     a decode-like cache growing by one row per call
``conv_images``     a strided Conv2d over image sizes and two batches (``aot_eager``)
``train_step``      forward and ``backward()`` with ``aot_eager`` over batches: the
                    ``backward()`` call breaks the graph
==================  ==============================================================

Deterministic: every random input follows ``torch.manual_seed(0)``.  Each workload runs in a
fresh process under the suite runner; in one process, ``torch._dynamo.reset()`` between them
gives the same compiles.
"""

import torch

EAGER = "eager"
AOT = "aot_eager"


def _loop(x, n):
    for _ in range(n):
        x = x * 2
    return x


def int_loop():
    compiled = torch.compile(_loop, backend=EAGER)
    for n in (1, 2, 3, 4):
        compiled(torch.ones(3), n)


def _branch(x):
    if x.shape[0] > 4:
        return x * 2
    return x + 1


def size_branch():
    compiled = torch.compile(_branch, backend=EAGER)
    for rows in (6, 8, 3, 10, 2):
        compiled(torch.ones(rows, 2))


class _Linear(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = torch.nn.Linear(8, 8)

    def forward(self, x):
        return self.linear(x).relu()


def batch_of_one():
    torch.manual_seed(0)
    compiled = torch.compile(_Linear().eval(), backend=AOT)
    with torch.no_grad():
        for batch in (1, 2, 3, 4):
            compiled(torch.randn(batch, 8))


def _noisy(x):
    y = x.sin()
    print("print_break: a graph break")  # Dynamo cannot trace print: the frame breaks
    return y.cos()


def print_break():
    compiled = torch.compile(_noisy, backend=EAGER)
    for rows in (2, 3, 4):
        compiled(torch.ones(rows))


def _scale(x):
    return x * 3 + 1


def dtype_change():
    compiled = torch.compile(_scale, backend=EAGER)
    for dtype in (torch.float32, torch.float64, torch.float32):
        compiled(torch.ones(4, dtype=dtype))


def mark_static():
    compiled = torch.compile(_scale, backend=EAGER)
    for rows in (2, 3, 4):
        x = torch.ones(rows, 2)
        torch._dynamo.mark_static(x, 0)  # a new size recompiles instead of going dynamic
        compiled(x)


def _pair(x, y):
    return x.sum() + y.sum()


def duck_sizing():
    # dynamic=True: the first call's equal sizes share one symbol, so unequal ones recompile
    # (sizes made dynamic by a second call are not duck-sized: they were not equal then).
    compiled = torch.compile(_pair, backend=EAGER, dynamic=True)
    for a, b in ((4, 4), (5, 5), (5, 6), (7, 3)):
        compiled(torch.ones(a), torch.ones(b))


class _Chunked(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.chunk = 2

    def forward(self, x):
        return x.reshape(-1, self.chunk).sum(1)


def module_int():
    model = _Chunked()
    compiled = torch.compile(model, backend=EAGER)
    for chunk in (2, 3, 4):
        model.chunk = chunk
        compiled(torch.arange(12.0))


class _Dropped(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = torch.nn.Linear(4, 4)
        self.dropout = torch.nn.Dropout(0.1)

    def forward(self, x):
        return self.dropout(self.linear(x))


def train_eval():
    torch.manual_seed(0)
    model = _Dropped().eval()
    compiled = torch.compile(model, backend=EAGER)
    with torch.no_grad():
        compiled(torch.randn(2, 4))
        model.train()  # self.training is checked: the next call recompiles
        compiled(torch.randn(2, 4))
        model.eval()
        compiled(torch.randn(2, 4))  # served by the first compile


def _total(xs):
    return sum(x.sum() for x in xs)


def list_length():
    compiled = torch.compile(_total, backend=EAGER)
    for count in (2, 3, 4):
        compiled([torch.ones(3) for _ in range(count)])


def _masked(x, mask=None):
    if mask is None:
        return x.softmax(-1)
    return x.masked_fill(mask, 0).softmax(-1)


def optional_mask():
    compiled = torch.compile(_masked, backend=EAGER)
    compiled(torch.ones(2, 4))
    compiled(torch.ones(2, 4), torch.zeros(2, 4, dtype=torch.bool))
    compiled(torch.ones(2, 4))


def dynamic_false():
    compiled = torch.compile(_scale, backend=EAGER, dynamic=False)
    for rows in (2, 3, 4, 5):
        compiled(torch.ones(rows))


def _scaled_by_total(x):
    n = x.sum().item()  # a data-dependent Python number: Dynamo breaks the graph
    return x * n


def item_break():
    compiled = torch.compile(_scaled_by_total, backend=EAGER)
    for rows in (3, 4, 5):
        compiled(torch.ones(rows))


def maybe_dynamic():
    compiled = torch.compile(_branch, backend=EAGER)
    for rows in (6, 8, 3):
        x = torch.ones(rows, 2)
        torch._dynamo.maybe_mark_dynamic(x, 0)  # dynamic from the first call, may specialize
        compiled(x)


def _apply(x, mode):
    if mode == "add":
        return x + 1
    return x * 2


def string_mode():
    compiled = torch.compile(_apply, backend=EAGER)
    for mode in ("add", "mul", "add"):
        compiled(torch.ones(3), mode)


def _affine(x, scale):
    return x * scale + 1


def float_scale():
    compiled = torch.compile(_affine, backend=EAGER)
    for scale in (0.5, 1.5, 2.5):
        compiled(torch.ones(3), scale)


def _normalize(x):
    return x / x.sum(0, keepdim=True)


def zero_one():
    compiled = torch.compile(_normalize, backend=EAGER)
    for rows in (3, 5, 1, 7):
        compiled(torch.arange(1.0, rows * 2 + 1).reshape(rows, 2))


def _append(cache, new):
    return torch.cat([cache, new], dim=0)


def growing_cat():
    torch.manual_seed(0)
    compiled = torch.compile(_append, backend=EAGER)
    cache = torch.randn(1, 4)
    for _ in range(5):
        cache = compiled(cache, torch.randn(1, 4))


class _Conv(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 4, kernel_size=3, stride=2, padding=1)

    def forward(self, x):
        return self.conv(x).mean((2, 3))


def conv_images():
    torch.manual_seed(0)
    compiled = torch.compile(_Conv().eval(), backend=AOT)
    with torch.no_grad():
        for batch in (1, 2):
            for size in (8, 12, 16):
                compiled(torch.randn(batch, 3, size, size))


def _step(model, x, y):
    loss = torch.nn.functional.mse_loss(model(x), y)
    loss.backward()
    return loss.detach()


def train_step():
    torch.manual_seed(0)
    model = _Linear()
    compiled = torch.compile(_step, backend=AOT)
    for batch in (2, 3, 4):
        compiled(model, torch.randn(batch, 8), torch.randn(batch, 8))


WORKLOADS = {
    "int_loop": int_loop,
    "size_branch": size_branch,
    "batch_of_one": batch_of_one,
    "print_break": print_break,
    "dtype_change": dtype_change,
    "mark_static": mark_static,
    "duck_sizing": duck_sizing,
    "module_int": module_int,
    "train_eval": train_eval,
    "list_length": list_length,
    "optional_mask": optional_mask,
    "dynamic_false": dynamic_false,
    "item_break": item_break,
    "maybe_dynamic": maybe_dynamic,
    "string_mode": string_mode,
    "float_scale": float_scale,
    "zero_one": zero_one,
    "growing_cat": growing_cat,
    "conv_images": conv_images,
    "train_step": train_step,
}
