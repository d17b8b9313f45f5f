"""Random damage to TORCH_TRACE lines, for the fuzz tests of the unit and integration tiers:
values replaced by other types, keys dropped, lines cut; and issue 33's hostile lines (file
names of 5000 characters, NUL bytes, JSON nested 100,000 deep, a line past the reader's
limit, which the tests set to ``HUGE``)."""

from __future__ import annotations

import json
import random
import re

ODD_VALUES = [None, 0, -1, "", "x", [], {}, [1, "a"], {"a": None}, 3.5, True, "s77 > ", "L['x']"]


def mutate_value(value: object, rng: random.Random) -> object:
    if isinstance(value, dict) and value and rng.random() < 0.7:
        key = rng.choice(list(value))
        copy = dict(value)
        if rng.random() < 0.3:
            del copy[key]
        else:
            copy[key] = mutate_value(copy[key], rng)
        return copy
    if isinstance(value, list) and value and rng.random() < 0.5:
        copy = list(value)
        index = rng.randrange(len(copy))
        copy[index] = mutate_value(copy[index], rng)
        return copy
    return rng.choice(ODD_VALUES)


#: A line this long is past the reader's limit in the tests that set it so.
HUGE = 100_000
_PATH = re.compile(r'"([^"]*\.py)"')


def hostile_line(line: str, rng: random.Random) -> str:
    """The line with long file names, NUL bytes, deep JSON after it, or padded past HUGE."""
    kind = rng.randrange(4)
    if kind == 0:
        folder = "" if rng.random() < 0.5 else "/tmp/"  # a name, never opened
        return _PATH.sub(lambda _: f'"{folder}{"n" * 5000}.py"', line)
    at = rng.randrange(len(line) + 1)
    if kind == 1:
        return line[:at] + "\x00" * rng.randint(1, 3) + line[at:]
    if kind == 2:
        return line + "\n\t" + "[" * 100_000 + "]" * 100_000
    return line[:at] + "h" * HUGE


def mutate_line(line: str, rng: random.Random) -> str:
    if rng.random() < 0.2:
        return hostile_line(line, rng)
    prefix, sep, rest = line.partition("] ")
    if not sep or line.startswith("\t"):
        return line[: rng.randrange(len(line) + 1)] if rng.random() < 0.3 else line
    try:
        envelope = json.loads(rest)
    except ValueError:
        return line
    return prefix + sep + json.dumps(mutate_value(envelope, rng))
