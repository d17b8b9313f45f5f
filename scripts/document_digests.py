"""The JSON document of every log in tests/data and of the bench streams, as digests.

A restructure must not change one byte of what users save, load and render.  Record the
digests before it and compare after::

    python scripts/document_digests.py record out/documents-before.json
    python scripts/document_digests.py compare out/documents-before.json

``compare`` exits 1 and names each document that differs (and writes both texts beside the
record, ``<name>.before.json`` / ``.after.json``, when the record kept them with ``--keep``).
Documents: each log read alone (with and without its sources), each rank folder, the
incremental build of each log's stream, each document read back and written again, and the
bench streams of ``benchmarks/bench_build.py`` (cloned real events, shared and own text).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"
sys.path.insert(0, str(ROOT / "benchmarks"))
os.environ.setdefault("SYMDEBUG_STRICT", "1")


def _logs() -> list[Path]:
    return sorted(p for p in DATA.rglob("*") if p.name.endswith((".log", ".log.gz")))


def _rank_folders() -> list[Path]:
    return sorted({p.parent for p in _logs() if "rank" in p.parent.name})


def _log_documents() -> Iterator[tuple[str, Callable[[], str]]]:
    import symdebug
    from symdebug.incremental import IncrementalBuilder
    from symdebug.tracefile.reader import read_trace_file as read_trace

    for log in _logs():
        name = str(log.relative_to(DATA))
        yield name, lambda log=log: symdebug.load_trace(log).to_json()
        yield f"{name} (sources)", lambda log=log: symdebug.load_trace(log, sources=True).to_json()
        yield f"{name} (read back)", lambda log=log: _read_back(symdebug.load_trace(log).to_json())
        yield (
            f"{name} (incremental)",
            lambda log=log: _incremental(IncrementalBuilder, read_trace, log),
        )
    for folder in _rank_folders():
        yield str(folder.relative_to(DATA)), lambda folder=folder: _ranks(folder)


def _read_back(text: str) -> str:
    import symdebug

    return str(symdebug.Session.from_json(text).to_json())


def _incremental(builder_class: type, read_trace: Callable[..., object], log: Path) -> str:
    from symdebug.model.serialize import facts_to_json

    builder, stream = builder_class(), read_trace(log)
    builder.build(stream)  # twice: the second rebuild reuses every compile's own facts
    return str(facts_to_json(builder.build(stream)))


def _ranks(folder: Path) -> str:
    import symdebug

    ranks = symdebug.load_trace(folder)
    return json.dumps([session.to_json() for session in ranks.ranks.values()])


def _bench_documents() -> Iterator[tuple[str, Callable[[], str]]]:
    from bench_build import load_corpus, make_stream

    from symdebug.model.serialize import facts_to_json
    from symdebug.pipeline import build

    corpus = load_corpus()
    for own_text in (False, True):
        name = f"bench_build stream (own_text={own_text})"
        yield (
            name,
            lambda own=own_text: str(facts_to_json(build(make_stream(corpus, own_text=own)))),
        )


def documents() -> Iterator[tuple[str, Callable[[], str]]]:
    """Every document's name and how to make it."""
    yield from _log_documents()
    yield from _bench_documents()


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def record(path: Path, keep: bool) -> int:
    digests: dict[str, str] = {}
    for name, make in documents():
        text = make()
        digests[name] = _digest(text)
        if keep:
            _kept(path, name, "before").write_text(text, encoding="utf-8", errors="surrogatepass")
        print(f"{digests[name][:12]}  {name}", flush=True)
    path.write_text(json.dumps(digests, indent=1) + "\n", encoding="utf-8")
    print(f"{len(digests)} documents recorded in {path}")
    return 0


def _kept(path: Path, name: str, side: str) -> Path:
    folder = path.with_suffix("")
    folder.mkdir(parents=True, exist_ok=True)
    return folder / (name.replace("/", "__").replace(" ", "_") + f".{side}.json")


def compare(path: Path) -> int:
    recorded = json.loads(path.read_text(encoding="utf-8"))
    made = dict(documents())
    differ = [name for name in recorded if name not in made]
    for name, make in made.items():
        text = make()
        same = recorded.get(name) == _digest(text)
        print(f"{'same' if same else 'DIFFERS'}  {name}", flush=True)
        if not same:
            differ.append(name)
            _kept(path, name, "after").write_text(text, encoding="utf-8", errors="surrogatepass")
    print(f"{len(made) - len(differ)} of {len(recorded)} documents byte-identical")
    return 1 if differ or len(made) != len(recorded) else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=["record", "compare"])
    parser.add_argument("record_file", type=Path)
    parser.add_argument("--keep", action="store_true", help="keep each document's text too")
    args = parser.parse_args()
    if args.action == "record":
        return record(args.record_file, args.keep)
    return compare(args.record_file)


if __name__ == "__main__":
    raise SystemExit(main())
