"""Record the conformance corpus on the torch of this interpreter: answers and logs.

For each program of ``tests/conformance/corpus.py``, one fresh process captures it live under
``TORCH_TRACE``: the live capture's answers (``answers-torch-<release>.json``), the log it
wrote (``torch-<version>/<program>.log.gz``) and that log's answers
(``log-answers-torch-<release>.json``), all in ``tests/data/conformance``.
Run it once per supported release, each in its own venv (``make record-torch VERSION=...``);
``tests/conformance`` then holds each release to what it recorded, and
``tests/unit/test_conformance_releases.py`` holds the releases to each other.

Usage: python scripts/record_conformance.py [--only NAME ...]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tests" / "data" / "programs")]

import torch  # noqa: E402
from conformance.corpus import CORPUS  # noqa: E402
from conformance.recorded import DATA, answers_file, log_answers  # noqa: E402
from conformance.recording import record  # noqa: E402

from symdebug._torch.releases import parse_version  # noqa: E402


def _release() -> str:
    major, minor = parse_version(torch.__version__) or (0, 0)
    return f"{major}.{minor}"


def record_program(name: str, folder: Path) -> tuple[Any, Any]:
    """One program: its live answers, and those of the log the same run wrote."""
    log = folder / f"{name}.log.gz"
    live = record(name, log)
    return live, log_answers(log)


def _update(path: Path, found: dict[str, Any]) -> None:
    known = json.loads(path.read_text()) if path.exists() else {}
    known.update(found, torch=torch.__version__)
    path.write_text(json.dumps(known, indent=1, sort_keys=True) + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", default=None)
    args = parser.parse_args()
    names = args.only or [program.name for program in CORPUS]
    folder = DATA / f"torch-{torch.__version__}"
    folder.mkdir(parents=True, exist_ok=True)
    live, logged = {}, {}
    for name in names:
        live[name], logged[name] = record_program(name, folder)
        print(f"recorded: {name}", file=sys.stderr)
    _update(answers_file(_release()), live)
    _update(answers_file(_release(), kind="log"), logged)


if __name__ == "__main__":
    main()
