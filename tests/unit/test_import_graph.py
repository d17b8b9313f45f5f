"""symdebug's own imports (issue 34): no cycle, few imports hidden in functions, each with a
reason.  ``scripts/check_imports.py`` checks them (``make lint``); these tests run its checks
on the package, and on small packages that show what it counts."""

from __future__ import annotations

import importlib.util
import sys
import textwrap
from pathlib import Path
from types import ModuleType

import pytest

# Parses the whole package; `make lint` runs the same checks.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def check() -> ModuleType:
    script = ROOT / "scripts" / "check_imports.py"
    spec = importlib.util.spec_from_file_location("check_imports", script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def package(tmp_path: Path, files: dict[str, str]) -> Path:
    """A package ``pkg`` of these files (path -> source); every folder gets an __init__."""
    root = tmp_path / "pkg"
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    for folder in [root, *(p for p in root.rglob("*") if p.is_dir())]:
        (folder / "__init__.py").touch()
    return root


def loops(check: ModuleType, root: Path) -> list[list[str]]:
    return [cycle.loop for cycle in check.import_cycles(root)]


def test_symdebug_has_no_import_cycle(check: ModuleType) -> None:
    assert loops(check, ROOT / "symdebug") == []


def test_symdebug_hides_few_imports_and_says_why(check: ModuleType) -> None:
    assert check.lazy_import_problems(ROOT / "symdebug") == []
    assert check.main([]) == 0


def test_a_cycle_through_a_function_or_the_type_checker_counts(
    check: ModuleType, tmp_path: Path
) -> None:
    root = package(
        tmp_path,
        {
            "a.py": "from pkg import b\n",
            "b.py": "def f():\n    from pkg import a  # lazy: a test\n",
            "c.py": "from pkg import d\n",
            "d.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg import c\n",
            "e.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg import f\n",
            "f.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg import e\n",
        },
    )
    assert loops(check, root) == [
        ["pkg.a", "pkg.b", "pkg.a"],
        ["pkg.c", "pkg.d", "pkg.c"],
        ["pkg.e", "pkg.f", "pkg.e"],
    ]


def test_an_import_for_the_type_checker_is_not_hidden(check: ModuleType, tmp_path: Path) -> None:
    """Only imports that run count against the budget of imports inside functions."""
    text = "from typing import TYPE_CHECKING\ndef f():\n    if TYPE_CHECKING:\n"
    text += "        from pkg import b\n"
    root = package(tmp_path, {"a.py": text, "b.py": ""})
    assert check.lazy_import_problems(root) == []


def test_a_package_runs_before_its_modules(check: ModuleType, tmp_path: Path) -> None:
    """Importing ``pkg.sub.x`` runs ``pkg/sub/__init__.py`` first; a module inside ``pkg.sub``
    found it run already, unless it asks that __init__ for a name."""
    root = package(
        tmp_path,
        {
            "sub/__init__.py": "from pkg.sub.x import X\n",
            "sub/x.py": "from pkg.sub.y import Y\nX = Y\n",  # its own package: no edge to it
            "sub/y.py": "Y = 1\n",
            "sub/z.py": "Z = 2\n",
            "other.py": "from pkg.sub.z import Z\n",  # runs pkg/sub/__init__.py first
            "back.py": "import pkg.other\n",
        },
    )
    assert loops(check, root) == []
    (root / "sub" / "y.py").write_text("import pkg.back\nY = 1\n")  # y -> back -> other -> sub
    assert loops(check, root) == [
        ["pkg.back", "pkg.other", "pkg.sub", "pkg.sub.x", "pkg.sub.y", "pkg.back"]
    ]
    (root / "sub" / "y.py").write_text("from pkg.sub import X\nY = 1\n")  # asks its __init__
    assert ["pkg.sub", "pkg.sub.x", "pkg.sub.y", "pkg.sub"] in loops(check, root)


def test_a_module_picked_from_a_table_is_an_import(check: ModuleType, tmp_path: Path) -> None:
    root = package(
        tmp_path,
        {
            "a.py": """\
                import importlib
                TABLE = {"b": "pkg.b", "other": "json"}
                def f(name):
                    # lazy: a test
                    return importlib.import_module(TABLE[name])
            """,
            "b.py": "import pkg.a\n",
        },
    )
    assert loops(check, root) == [["pkg.a", "pkg.b", "pkg.a"]]
    assert check.lazy_import_problems(root) == []


def test_each_hidden_import_says_why_and_they_are_few(check: ModuleType, tmp_path: Path) -> None:
    root = package(
        tmp_path,
        {
            "a.py": """\
                def f():
                    # lazy: the reason, on the line above
                    from pkg import b
                def g():
                    from pkg import b  # lazy: the reason, on its line
                def h():
                    from pkg import b
                def i():
                    import json  # not the package's own: ruff's to judge
            """,
            "b.py": "",
        },
    )
    problems = check.lazy_import_problems(root)
    assert problems == [
        "pkg/a.py:7: import inside a function without a '# lazy: <reason>' comment "
        "on its line or the line above"
    ]
    over = check.lazy_import_problems(root, budget=2)
    assert over[-1].startswith("3 imports of symdebug modules inside functions, over the budget")
