"""Random damage to TORCH_TRACE lines, for the fuzz tests of the unit and integration tiers:
values replaced by other types, keys dropped, lines cut."""

from __future__ import annotations

import json
import random

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


def mutate_line(line: str, rng: random.Random) -> str:
    prefix, sep, rest = line.partition("] ")
    if not sep or line.startswith("\t"):
        return line[: rng.randrange(len(line) + 1)] if rng.random() < 0.3 else line
    try:
        envelope = json.loads(rest)
    except ValueError:
        return line
    return prefix + sep + json.dumps(mutate_value(envelope, rng))
