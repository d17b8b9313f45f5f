"""What the user compiled, read back from a ``TORCH_TRACE`` log (live capture records it).

Behind torch's ``inner(*args, **kwargs)`` (``wrap_top_frame``) or a library decorator such
as Hugging Face's ``wrapper(self, *args, **kwargs)``, Dynamo names a module's inputs
``L['args'][0]``.  The log still says which object was called: the guard tree types the
module (``L['fn'].__closure__[0].cell_contents`` for torch's wrapper, ``L['self']`` or
``L['args'][0]`` for a decorated ``forward``), and its class lies in a file the log names.
The parameters of ``forward`` come from that file's source, read only in the live program
(:mod:`symdebug.torchtext.source_text`): a log's frame is still titled ``Class.forward``, and its
inputs keep Dynamo's names, whatever files the reading machine holds.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from functools import lru_cache

from symdebug.model.types import Callee, Frame
from symdebug.model.values import posix_path
from symdebug.torchtext.own_code import is_own_code
from symdebug.torchtext.source_text import parsed_source, reads_source

#: The object a wrapper frame calls: torch's wrapped module, or the ``self`` passed first.
_OWNER = re.compile(
    r"source=(?P<source>L\['\w+'\]\.__closure__\[\d+\]\.cell_contents|L\['self'\]"
    r"|L\['\w+'\]\[0\]), "
    r"accessed_by=[^\n]*?, type=<class '(?P<type>[\w.]+)'>"
)
_VARARGS = re.compile(r"L\['(\w+)'\]\[\d+\]")
_VARKEYWORDS = re.compile(r"L\['(\w+)'\]\['(\w+)'\]")
_METHOD = "forward"


def _owner(tree_text: str) -> tuple[str, str] | None:
    """``(source, "pkg.module.Class")`` of the called module, if the tree types one."""
    for match in _OWNER.finditer(tree_text):
        module = match["type"].rpartition(".")[0]
        if module and module != "builtins" and module.split(".", 1)[0] != "torch":
            return match["source"], match["type"]
    return None


def _module_files(module: str, files: Iterable[str], start: list[Frame]) -> list[str]:
    """The files that may define ``pkg.module`` among those the log names.

    ``__main__`` is the script run: a file of the compile's stack, outermost first (a
    runner such as ``runpy`` may come before it), else any file of the user's own.
    """
    if module != "__main__":
        path = module.replace(".", "/")
        tails = (f"/{path}.py", f"/{path}/__init__.py")
        return [f for f in files if posix_path(f).endswith(tails)][:1]
    stack = [frame.filename for frame in start if is_own_code(frame)]
    return list(dict.fromkeys([*stack, *(f for f in files if is_own_code(Frame(f, 0, "")))]))


def _classes(filename: str) -> dict[str, ast.ClassDef]:
    """Every class of a source file by name (none while a log is read)."""
    return _classes_read(filename, reads_source())


@lru_cache(maxsize=64)
def _classes_read(filename: str, allowed: bool) -> dict[str, ast.ClassDef]:
    tree = parsed_source(filename) if allowed else None
    nodes = ast.walk(tree) if tree is not None else ()
    return {node.name: node for node in nodes if isinstance(node, ast.ClassDef)}


def _first_line(node: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """A function's ``co_firstlineno``: its first decorator's line, else its ``def``."""
    return min([d.lineno for d in node.decorator_list] + [node.lineno])


@lru_cache(maxsize=64)
def _qualnames(filename: str, allowed: bool) -> dict[int, str]:
    """Each function's qualified name by its first line (``Encoder.forward``, ``step``).

    As live capture says ``co_qualname``: without the functions enclosing a local one.
    """
    found: dict[int, str] = {}
    tree = parsed_source(filename) if allowed else None
    pending: list[tuple[ast.AST, str]] = [(tree or ast.Module([], []), "")]
    while pending:
        node, prefix = pending.pop()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                found[_first_line(child)] = prefix + child.name
                pending.append((child, ""))  # a local function: co_qualname after <locals>
            elif isinstance(child, ast.ClassDef):
                pending.append((child, f"{prefix}{child.name}."))
    return found


def frame_qualname(filename: str, lineno: int) -> str | None:
    """The qualified name of the function defined at ``filename:lineno``, if readable."""
    return _qualnames(filename, reads_source()).get(lineno) if filename and lineno else None


def _method(classes: dict[str, ast.ClassDef], name: str, depth: int = 0) -> ast.FunctionDef | None:
    """``forward`` of a class, or of a base class defined in the same file."""
    found = classes.get(name)
    if found is None or depth > 8:
        return None
    for node in found.body:
        if isinstance(node, ast.FunctionDef) and node.name == _METHOD:
            return node
    bases = (base.id for base in found.bases if isinstance(base, ast.Name))
    return next((m for b in bases if (m := _method(classes, b, depth + 1)) is not None), None)


def _positional(function: ast.FunctionDef) -> list[str]:
    return [a.arg for a in [*function.args.posonlyargs, *function.args.args]]


def _names(tree_text: str, parameters: list[str]) -> dict[str, str]:
    """``{"L['args'][0]": "x", "L['kwargs']['x']": "x"}`` for the wrapper's ``*args``."""
    names = {
        f"L['{varargs}'][{i}]": name
        for varargs in sorted(set(_VARARGS.findall(tree_text)))
        for i, name in enumerate(parameters)
    }
    # A keyword is the name the caller wrote, a parameter of forward or one its **kwargs took.
    keywords = set(_VARKEYWORDS.findall(tree_text))
    for varkeywords in sorted({v for v, _ in keywords}):
        names.update({f"L['{varkeywords}']['{p}']": p for p in parameters})
    names.update({f"L['{v}']['{k}']": k for v, k in keywords})
    return names


def log_callee(tree_text: str, files: Iterable[str], start: list[Frame]) -> Callee | None:
    """The module a wrapper frame of a log called, named as live capture names it.

    ``files`` are the file names the log interned; ``start`` is the compile's stack
    (outermost first, its first frame in the script run).  None when the frame is no
    wrapper around a module.
    """
    if not start or is_own_code(start[-1]):  # the user's own function is no wrapper
        return None
    owner = _owner(tree_text)
    if owner is None:
        return None
    source, dotted = owner
    module, _, class_name = dotted.rpartition(".")
    qualname = f"{class_name}.{_METHOD}"
    found = (
        (f, m)
        for f in _module_files(module, files, start)
        if (m := _method(_classes(f), class_name)) is not None
    )
    filename, method = next(found, ("", None))
    if method is None:
        return Callee(qualname=qualname)
    parameters = _positional(method)
    # torch's wrapper calls the module, a ``wrapper(self, *args)`` passes self apart: bound
    bound = "__closure__" in source or source == "L['self']"
    lineno = _first_line(method)
    names = _names(tree_text, parameters[1:] if bound else parameters)
    return Callee(qualname=qualname, filename=filename, lineno=lineno, names=names)


def method_qualname(tree_text: str, name: str) -> str | None:
    """``Trainer.step`` for a frame ``step`` whose guard tree types ``L['self']`` as a class.

    Live capture names a method by ``co_qualname``; a log has only ``co_name``, but the
    guards of a frame that reads ``self`` name its class, so that one program has one frame
    name live and offline (a method that never reads ``self`` keeps ``co_name``).  A method
    inherited from a base class is named with the class of ``self`` here (live: the
    base's), which :func:`symdebug.queries.diff.match_frames` still matches by bare name.
    """
    owner = _owner(tree_text)
    if owner is None or owner[0] != "L['self']" or not name.isidentifier():
        return None
    return f"{owner[1].rpartition('.')[2]}.{name}"
