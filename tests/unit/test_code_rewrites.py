"""Fixes written into the user's function: each kind on small real-looking functions, the exact
text after, its diff, and the fixes no rewrite makes, with their reasons."""

from __future__ import annotations

import ast
import textwrap

import pytest

from symdebug.fixes.code_rewrites import (
    NotMechanical,
    Rewrite,
    not_mechanical_reason,
    rewrite,
    rewrite_kind,
)

COND = "torch.cond(h.shape[1] > 4, true_fn, false_fn, (h,))"
PAD = "x = torch.nn.functional.pad(x.movedim(1, -1), (0, -x.shape[1] % 4)).movedim(-1, 1)"
PRINT = "torch._dynamo.config.reorderable_logging_functions.add(print)"


def rewritten(source: str, line: int, fix: str, first: int = 1, **names: str) -> Rewrite:
    """The rewrite, checked to parse and to keep its first line."""
    result = rewrite(source, first, line, fix, **names)
    assert isinstance(result, Rewrite), result
    ast.parse(textwrap.dedent(result.after))
    assert result.before == source
    assert result.after.splitlines()[0] == source.splitlines()[0]
    return result


def refused(source: str, line: int, fix: str) -> str:
    result = rewrite(source, 1, line, fix)
    assert isinstance(result, NotMechanical), result
    return result.reason


# ------------------------------------------------------------------------------- kinds


@pytest.mark.parametrize(
    ("code", "kind"),
    [
        (COND, "cond"),
        ("h[:, -1]", "index"),
        ("h.select(1, h.shape[1] - 1)", "index"),
        ("torch.narrow(h, 1, h.shape[1] - 1, 1)", "index"),
        (PAD, "pad"),
        ("torch._check(n >= 0)", "check"),
        (PRINT, "remove_print"),
        ("n = torch.as_tensor(n)", None),
        ("torch._dynamo.maybe_mark_dynamic(x, 0)", None),
        ("torch._dynamo.config.capture_scalar_outputs = True", None),
        ("not python (", None),
    ],
)
def test_rewrite_kind(code: str, kind: str | None) -> None:
    assert rewrite_kind(code) == kind


def test_changes_in_the_caller_are_not_mechanical() -> None:
    reason = not_mechanical_reason("n = torch.as_tensor(n)")
    assert reason == (
        "the change is in the caller (n must be passed in as a tensor): "
        "a replay cannot rewrite the workload"
    )
    stacked = not_mechanical_reason("xs = torch.nn.utils.rnn.pad_sequence(xs, batch_first=True)")
    assert stacked is not None and "xs must be stacked" in stacked
    moved = not_mechanical_reason("n = x.sum().item()")
    assert moved is not None and "n must be made before the call and passed in" in moved
    assert not_mechanical_reason(PAD) is None
    assert not_mechanical_reason("h[:, -1]") is None
    assert rewrite("def f(n):\n    return n\n", 1, 2, "n = torch.as_tensor(n)") == NotMechanical(
        reason or ""
    )
    assert "no mechanical rewrite" in refused("def f(x):\n    return x\n", 2, "x = 1")


def test_a_line_outside_the_function_is_refused() -> None:
    assert refused("def f(h):\n    return h[:, h.shape[1] - 1]\n", 9, "h[:, -1]") == (
        "line 9 is not in the function (lines 1-2)"
    )


# -------------------------------------------------------------------------------- cond

METHOD = """\
    def forward(self, x):
        h = x * 2
        if h.shape[1] > 4:
            return self.head(h).sin()
        else:
            return h.cos()
"""


def test_cond_of_a_method_passes_the_computed_value() -> None:
    result = rewritten(METHOD, 12, COND, first=10, filename="/src/model.py", qualname="M.forward")
    expected = """\
    def forward(self, x):
        h = x * 2
        def _true_branch(h):
            return self.head(h).sin()
        def _false_branch(h):
            return h.cos()
        return torch.cond(h.shape[1] > 4, _true_branch, _false_branch, (h,))
"""
    assert result.after == expected
    assert result.what == "torch.cond for `if h.shape[1] > 4:`"
    where = (result.filename, result.qualname, result.firstlineno)
    assert where == ("/src/model.py", "M.forward", 10)
    expected = """\
--- model.py:10 (before)
+++ model.py:10 (after)
@@ -10,6 +10,7 @@
     def forward(self, x):
         h = x * 2
-        if h.shape[1] > 4:
+        def _true_branch(h):
             return self.head(h).sin()
-        else:
+        def _false_branch(h):
             return h.cos()
+        return torch.cond(h.shape[1] > 4, _true_branch, _false_branch, (h,))
"""
    assert result.diff() == expected
    expected = """\
def _true_branch(h):
    return self.head(h).sin()
def _false_branch(h):
    return h.cos()
return torch.cond(h.shape[1] > 4, _true_branch, _false_branch, (h,))
"""
    assert result.changed_lines() == expected


def test_cond_of_an_if_on_one_line_followed_by_a_return() -> None:
    source = """\
def mix(x, w, scale):
    h = x @ w
    if h.shape[0] > 4: return h.sin() * scale  # wide
    return (h + w.sum()).cos()
"""
    result = rewritten(source, 3, "torch.cond(h.shape[0] > 4, true_fn, false_fn, (h,))")
    expected = """\
def mix(x, w, scale):
    h = x @ w
    def _true_branch(h, scale, w):
        return h.sin() * scale
    def _false_branch(h, scale, w):
        return (h + w.sum()).cos()
    return torch.cond(h.shape[0] > 4, _true_branch, _false_branch, (h, scale, w))
"""
    assert result.after == expected


def test_cond_of_sides_that_assign_one_value() -> None:
    source = """\
def block(x, n):
    y = x + 1
    if x.shape[0] > n:
        # the wide side
        z = y * 2
        out = z.sin()
    else:
        out = y.cos()
    return out + 1
"""
    result = rewritten(source, 3, "torch.cond(x.shape[0] > n, true_fn, false_fn, (x,))")
    expected = """\
def block(x, n):
    y = x + 1
    def _true_branch(y):
        # the wide side
        z = y * 2
        out = z.sin()
        return out
    def _false_branch(y):
        out = y.cos()
        return out
    out = torch.cond(x.shape[0] > n, _true_branch, _false_branch, (y,))
    return out + 1
"""
    assert result.after == expected


def test_cond_operands_are_what_the_sides_read_first() -> None:
    source = """\
def f(self, x, h, _true_branch):
    if x.shape[0] > 4:
        h = x + 1
        return self.lin(h)
    else:
        return torch.relu(self.lin(x)) * _true_branch
"""
    result = rewritten(source, 2, "torch.cond(x.shape[0] > 4, true_fn, false_fn, (x,))")
    # h is assigned before it is read; self stays a closure; torch is a global
    assert "    def _true_branch_1(x, _true_branch):\n" in result.after
    call = "torch.cond(x.shape[0] > 4, _true_branch_1, _false_branch_1, (x, _true_branch))"
    assert result.after.endswith(f"    return {call}\n")


def test_cond_without_operands() -> None:
    source = """\
def f(x):
    if x.shape[0] > 4:
        return torch.ones(3)
    return torch.zeros(3)
"""
    result = rewritten(source, 2, "torch.cond(x.shape[0] > 4, true_fn, false_fn, ())")
    assert result.after.endswith(
        "    return torch.cond(x.shape[0] > 4, _true_branch, _false_branch, ())\n"
    )


ELIF = """\
def f(x):
    if x.shape[0] > 8:
        return x.sin()
    elif x.shape[0] > 4:  # middle
        return x.cos()
    else:
        return x
"""


def test_cond_of_an_if_with_elif_keeps_the_chain_in_the_false_side() -> None:
    result = rewritten(ELIF, 2, "torch.cond(x.shape[0] > 8, true_fn, false_fn, (x,))")
    expected = """\
def f(x):
    def _true_branch(x):
        return x.sin()
    def _false_branch(x):
        if x.shape[0] > 4:  # middle
            return x.cos()
        else:
            return x
    return torch.cond(x.shape[0] > 8, _true_branch, _false_branch, (x,))
"""
    assert result.after == expected


def test_cond_of_an_elif() -> None:
    result = rewritten(ELIF, 4, "torch.cond(x.shape[0] > 4, true_fn, false_fn, (x,))")
    expected = """\
def f(x):
    if x.shape[0] > 8:
        return x.sin()
    else:
        def _true_branch(x):
            return x.cos()
        def _false_branch(x):
            return x
        return torch.cond(x.shape[0] > 4, _true_branch, _false_branch, (x,))
"""
    assert result.after == expected


@pytest.mark.parametrize(
    ("source", "line", "reason"),
    [
        (
            "def f(x):\n    for i in range(3):\n        if x.shape[0] > 4:\n"
            "            if i > 1:\n                break\n            y = x.sin()\n"
            "        else:\n            y = x.cos()\n        x = y\n    return x\n",
            3,
            "a side breaks or continues the loop around the `if`: a branch function cannot",
        ),
        (
            "def f(x):\n    if x.shape[0] > 4:\n        if x.shape[1] > 2:\n            return x\n"
            "        return x.sin()\n    return x.cos()\n",
            2,
            "a side returns before its end: torch.cond's branches must each give one value",
        ),
        (
            "def f(x):\n    z = x\n    if x.shape[0] > 4:\n        z = x * 2\n        y = z.sin()\n"
            "    else:\n        y = x.cos()\n    return y + z\n",
            3,
            "a side assigns `z`, which the code after the `if` reads: only one value (`y`) "
            "can come out of torch.cond",
        ),
        (
            "def f(x):\n    global seen\n    if x.shape[0] > 4:\n        seen = 1\n        y = x\n"
            "    else:\n        y = x.cos()\n    return y\n",
            3,
            "a side assigns `seen`, which the function declares global or nonlocal: "
            "in a branch function it would be a new local",
        ),
        (
            "def f(x):\n    if x.shape[0] > 4:\n        yield x\n        y = x\n    else:\n"
            "        y = x.cos()\n    return y\n",
            2,
            "a side yields or awaits: a branch function cannot",
        ),
        (
            "def f(x):\n    if x.shape[0] > 4:\n        y = x.sin()\n    return y\n",
            2,
            "the `if` has no `else`, and its side and the code after it do not both end with "
            "`return`: torch.cond needs both sides to give the value "
            "(write the other side as an `else`)",
        ),
        (
            "def f(x):\n    if x.shape[0] > 4:\n        y = x.sin()\n    else:\n        z = x\n"
            "    return y\n",
            2,
            "the sides neither both end with `return` nor both end by assigning one name: "
            "torch.cond needs each side to give the value",
        ),
        (
            "def f(x):\n    return x.sin() if x.shape[0] > 4 else x\n",
            2,
            "the branch on line 2 is a conditional expression (`a if c else b`): "
            "write it as an `if` statement to rewrite it",
        ),
        (
            "def f(x):\n    while x.shape[0] > 4:\n        x = x[1:]\n    return x\n",
            2,
            "line 2 is a `while` loop: torch.cond cannot replace a loop",
        ),
        ("def f(x):\n    return x\n", 2, "no `if` statement's condition is on line 2"),
    ],
)
def test_cond_refusals(source: str, line: int, reason: str) -> None:
    assert refused(source, line, COND) == reason


# ------------------------------------------------------------------------------- index


def test_index_from_the_end() -> None:
    source = "def last(h):\n    return h[:, h.shape[1] - 1]  # the last step\n"
    result = rewritten(source, 2, "h[:, -1]", filename="model.py")
    assert result.after == "def last(h):\n    return h[:, -1]  # the last step\n"
    assert result.what == "`h[:, h.shape[1] - 1]` as `h[:, -1]`"
    assert result.changed_lines() == "return h[:, -1]  # the last step\n"
    assert result.diff().splitlines()[2:] == [
        "@@ -1,2 +1,2 @@",
        " def last(h):",
        "-    return h[:, h.shape[1] - 1]  # the last step",
        "+    return h[:, -1]  # the last step",
    ]


def test_index_select_in_a_method_after_non_ascii_text() -> None:
    source = """\
    def pick(self, h):
        label = "é"; out = h[:, h.shape[1] - 1] * 2
        return out, label
"""
    result = rewritten(source, 21, "h.select(1, h.shape[1] - 1)", first=20)
    changed = '        label = "é"; out = h.select(1, h.shape[1] - 1) * 2'
    assert result.after.splitlines()[1] == changed
    assert result.after.splitlines()[2] == source.splitlines()[2]


def test_index_narrow_keeps_the_dim_so_it_is_squeezed() -> None:
    source = "def last(h):\n    T = h.shape[1]\n    return h[:, T - 1]\n"
    result = rewritten(source, 3, "torch.narrow(h, 1, T - 1, 1)")
    assert result.after.splitlines()[2] == "    return torch.narrow(h, 1, T - 1, 1).squeeze(1)"


def test_index_refusals() -> None:
    source = "def f(h):\n    return h[0:2, h.shape[1] - 1]\n"
    assert refused(source, 2, "h.select(1, h.shape[1] - 1)") == (
        "`h[0:2, h.shape[1] - 1]` also indexes other dims: the fix indexes dim 1 only"
    )
    assert rewritten(source, 2, "h[0:2, -1]").after.endswith("return h[0:2, -1]\n")
    assert refused(source, 2, "g[:, -1]") == (
        "line 2 has no subscript of `g` with an index computed from a size"
    )


# --------------------------------------------------------------------------------- pad


def test_pad_before_the_line_in_a_method() -> None:
    source = """\
    def forward(self, x):
        x = self.proj(x)
        y = x.unflatten(1, (-1, 4))  # groups of 4
        return y.sum(2)
"""
    result = rewritten(source, 12, PAD, first=10)
    expected = f"""\
    def forward(self, x):
        x = self.proj(x)
        {PAD}
        y = x.unflatten(1, (-1, 4))  # groups of 4
        return y.sum(2)
"""
    assert result.after == expected
    assert result.changed_lines() == f"{PAD}\n"
    assert result.what == f"`{PAD}` before line 12"
    assert "@@ -10,4 +10,5 @@" in result.diff()


def test_pad_on_a_line_shared_with_a_header() -> None:
    source = "def f(x, c):\n    if c: y = x.unflatten(1, (-1, 4))\n    return y\n"
    result = rewritten(source, 2, PAD)
    assert result.after.splitlines()[1] == f"    if c: {PAD}; y = x.unflatten(1, (-1, 4))"


def test_pad_of_a_name_not_bound_there() -> None:
    source = "def f(h):\n    y = x.unflatten(1, (-1, 4))\n    return y\n"
    assert refused(source, 2, PAD) == "`x` is neither a parameter nor assigned before line 2"


# ------------------------------------------------------------------------------- check


def test_check_after_the_item_that_makes_the_value() -> None:
    source = """\
def f(x):
    n = x.sum().item()  # a count
    if n < 0:
        return x
    return x[:n]
"""
    result = rewritten(source, 3, "torch._check(n >= 0)")
    assert result.after.splitlines()[1:3] == [
        "    n = x.sum().item()  # a count",
        "    torch._check(n >= 0)",
    ]
    assert result.what == "`torch._check(n >= 0)` after line 2"


def test_check_after_an_assignment_on_a_header_line() -> None:
    source = """\
def f(x, flag):
    if flag: n = 0
    else: n = x.sum().item()
    if n < 0:
        return x
    return x
"""
    result = rewritten(source, 4, "torch._check(n >= 0)")
    assert result.after.splitlines()[2] == "    else: n = x.sum().item(); torch._check(n >= 0)"
    assert result.changed_lines() == "else: n = x.sum().item(); torch._check(n >= 0)\n"


def test_check_of_parameters_goes_before_the_line() -> None:
    source = "def f(x, y):\n    z = x + y\n    return z\n"
    result = rewritten(source, 2, "torch._check(x.shape[1] == y.shape[0])")
    assert result.after.splitlines()[1] == "    torch._check(x.shape[1] == y.shape[0])"


def test_check_of_a_value_never_assigned() -> None:
    source = "def f(x):\n    if n < 0:\n        return x\n    return x\n"
    assert refused(source, 2, "torch._check(n >= 0)") == "no statement before line 2 assigns `n`"


# ------------------------------------------------------------------------------- print


def test_print_alone_on_its_line_is_removed() -> None:
    source = "def f(x):\n    y = x.sin()\n    print(y.shape)  # debug\n    return y\n"
    result = rewritten(source, 3, PRINT)
    assert result.after == "def f(x):\n    y = x.sin()\n    return y\n"
    assert result.changed_lines() == "# removed: print(y.shape)  # debug\n"
    assert result.what == "print removed from line 3"


def test_print_that_was_the_whole_block_leaves_pass() -> None:
    source = "def f(x):\n    if x.sum() > 0:\n        print('positive')\n    return x\n"
    assert rewritten(source, 3, PRINT).after.splitlines()[2] == "        pass"
    one_line = "def f(x, y):\n    if x.sum() > 0: print(x); print(y)\n    return y\n"
    assert rewritten(one_line, 2, PRINT).after.splitlines()[1] == "    if x.sum() > 0: pass"


def test_print_sharing_its_line_with_other_statements() -> None:
    source = "def f(x):\n    y = x.sin(); print(y)\n    print(x); y = y + 1\n    return y\n"
    after = rewritten(source, 2, PRINT)
    assert after.after.splitlines()[1:3] == ["    y = x.sin()", "    print(x); y = y + 1"]
    assert after.changed_lines() == "y = x.sin()\n"
    assert rewritten(source, 3, PRINT).after.splitlines()[2] == "    y = y + 1"


def test_no_print_on_the_line() -> None:
    source = "def f(x):\n    y = x.sin()\n    return y\n"
    assert refused(source, 2, PRINT) == "line 2 holds no `print(...)` statement"
