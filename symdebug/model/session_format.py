"""The session document's format: its version, MIME type, the versions read, and its schema.

Below both the writer (:mod:`.serialize`) and the readers (:mod:`.session_check`,
:mod:`.session_read`), which all need them.
"""

from __future__ import annotations

from typing import Any

import orjson

SCHEMA_VERSION = 13
#: The notebook MIME type of the document: the version is part of its name.
MIME_TYPE = f"application/vnd.symdebug.session.v{SCHEMA_VERSION}+json"
#: Versions this code reads.  v2 added FX nodes, kernels, graph code and guard node links;
#: a v1 document reads with those empty.  v3 added the sources of each recompile's failed
#: check; an older document gets those of its specialization and guard.
#: v4 added the explanation of every input (``explanations``) and each symbol's fix; an
#: older document gets them from the session that reads it.
#: v5 made fixes objects (``fixes``: code, kind, explanation, settings, verified, effect) on
#: guards, symbols, specializations, recompiles and explanations; ``fix`` stays, the first
#: one's text.  An older document's fixes were text, not code: they are not read as code
#: (``fixes`` reads empty) and the session that reads it suggests them again
#: (:func:`stale_fixes`).
#: v6 added graph breaks (``graph_breaks``); an older document reads with none.
#: v7 added the user's names (``user_names`` and ``expected`` of symbols, ``user_name`` of
#: explanations, ``expected_constants`` of compiles); the reader of an older document
#: computes them (:func:`stale_names`).
#: v8 added the checks on a call's other values (``value_checks`` of compiles: ``is None``,
#: ``== True``, a string or float); an older document reads with none, and a prediction
#: from it stays unsure of such values, as before.
#: v9 added what torch checks of each tensor beyond its sizes (``tensor_checks`` of compiles:
#: type, dispatch keys, dtype, device, ``requires_grad``, marks); an older document reads
#: with none, and a prediction from it is unsure where a call passes a tensor.
#: v10 added each fix's ``diff`` and the hunt's rows (``hunt``); an older document reads
#: with none.
#: v11 added the causes that are not sizes (``dtype``, ``strides``, ``requires_grad``,
#: ``device``, ``dispatch_keys``, ``global_state``, ``mark_dynamic_range``), each
#: recompile's ``user_frame`` and ``user_names``, each guard's ``user_expr``, graph breaks'
#: ``library_frame``, compiles' ``type_ids`` and the marks a capture saw (``marks``);
#: symbols' ``user_names`` name every source.  An older document reads with none of them,
#: and its names are made when it is read.
#: v12 added the torch that compiled (``torch``: version, release, how it was known); an
#: older document reads with an unknown torch.
#: v13 added what to change (``changes``: each distinct best fix of the recompiles, with
#: the recompiles it would remove) and each fix's measured ``saved`` compiles; an older
#: document gets its changes when it is read, and its fixes read as not measured.
READABLE_VERSIONS = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13)
#: The JSON Schema of the current version, shipped inside the package; generated from the
#: dataclasses by :mod:`symdebug.model.contract` (``make contract``).
SCHEMA_FILE = "schema/session.schema.json"


def json_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) that :func:`facts_to_json` output validates against."""
    # lazy: importlib.resources costs more than the rest of `import symdebug`'s reading path
    from importlib import resources  # noqa: PLC0415

    text = resources.files("symdebug").joinpath(SCHEMA_FILE).read_text(encoding="utf-8")
    schema: dict[str, Any] = orjson.loads(text)
    return schema
