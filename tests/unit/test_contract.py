"""The document contracts generated from the dataclasses: the committed schemas and TypeScript
(the session's, the diff's and the suite's, and the wire's constants) are up to date, each
schema accepts what its writer writes and refuses wrong documents, and the one wire format
(report, notebook output, widget) restores the session document exactly."""

from __future__ import annotations

import copy
import dataclasses
import json
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, get_args, get_origin, get_type_hints

import jsonschema
import pytest
from view_samples import regressed_diff, suite

import symdebug
from symdebug.model import contract, wire_format
from symdebug.model.diff_types import DIFF_MIME_TYPE, DIFF_VERSION, diff_document
from symdebug.model.serialize import MIME_TYPE, SCHEMA_VERSION, facts_to_dict, json_schema
from symdebug.model.suite_types import SUITE_VERSION, suite_document
from symdebug.model.types import (
    Compile,
    Facts,
    Fix,
    Frame,
    Guard,
    Recompile,
    Specialization,
    Symbol,
)
from symdebug.model.values import CompileId
from symdebug.processors.explanations import explain_sources
from symdebug.renderers.document import unpack, wire_document

ROOT = Path(__file__).resolve().parents[2]
Mode = Literal["fast", "slow"]


X = "L['x'].size()[0]"


def synthetic() -> Facts:
    """A branch on a size, then a specialization: guards with stacks, a recompile, a why."""
    user = Frame("/w/model.py", 3, "f", "if x.shape[0] > 4:  # branch")
    inner = Frame("/torch/_dynamo/variables/tensor.py", 2606, "evaluate_expr", "return g()")
    cond = Fix("torch.cond(x.shape[0] > 4, true_fn, false_fn, (x,))", "code", "one graph")
    common = {"user_stack": [user], "framework_stack": [inner, inner], "phase": "dynamo"}
    common |= {"fixes": [cond]}
    branch = Guard("0/0#0", "s77 > 4", "0/0", cause="user_branch", **common, sources=[X])
    pinned = Guard("0/1#0", "Eq(s77, 3)", "0/1", cause="user_branch", **common, fix="mark")
    spec = Specialization(X, 3, "0/1", cause="user_branch", guards=[pinned], user_frame=user)
    reason = "0/0: 5 <= x.size()[0]  # if x.shape[0] > 4:"
    recompile = Recompile("0/1", "0/0", [reason], branch, "user_branch", spec, ["0/0"], None, [X])
    facts = Facts(
        compiles=[Compile("0/0", 0, 0, name="f"), Compile("0/1", 0, 1, name="f")],
        guards=[branch, pinned],
        symbols=[
            Symbol("s77", [X], "0/0", hint=8, range=(5, "int_oo"), user_frame=user),
            Symbol("s77", [X], "0/1", hint=3, state="specialized", cause="user_branch"),
        ],
        specializations=[spec],
        recompiles=[recompile],
        source="synthetic",
    )
    explain_sources(facts).apply()
    return facts


@pytest.fixture(scope="module")
def traced(shared_traces: Path) -> symdebug.Session:
    loaded = symdebug.load_trace(shared_traces / "simple.log")
    assert isinstance(loaded, symdebug.Session)
    return loaded


@pytest.fixture(scope="module")
def facts() -> Facts:
    return synthetic()


@pytest.fixture(scope="module")
def document(facts: Facts) -> dict[str, Any]:
    return json.loads(json.dumps(facts_to_dict(facts)))


def stale_files(root: Path) -> list[str]:
    """The generated files under ``root`` that differ from what the dataclasses give."""
    return [
        relative
        for relative, text in contract.generated().items()
        if not (root / relative).is_file() or (root / relative).read_text(encoding="utf-8") != text
    ]


def test_committed_files_are_generated_from_the_dataclasses() -> None:
    assert stale_files(ROOT) == [], "stale generated files: run `make contract`"
    assert json_schema() == json.loads(contract.generated()[contract.SCHEMA_PATH])


#: Every generated file: each document's schema and TypeScript, then the wire's TypeScript.
GENERATED = [
    *(p for d in contract.DOCUMENTS for p in (d.schema_path, d.ts_path)),
    contract.WIRE_TS_PATH,
]


def test_the_committed_wire_typescript_is_generated_from_wire_format() -> None:
    committed = (ROOT / contract.WIRE_TS_PATH).read_text(encoding="utf-8")
    assert committed == contract.wire_typescript(), "stale wire.ts: run `make contract`"


def test_every_document_is_generated_and_checked_by_the_makefile() -> None:
    paths = GENERATED
    assert list(contract.generated()) == paths and len(paths) == 7
    assert paths[:2] == [contract.SCHEMA_PATH, contract.TS_PATH]
    # `make viewer-check` compares $(GENERATED) with a fresh build: each file must be listed.
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8").replace("\\\n", " ")
    (listed,) = re.findall(r"^GENERATED := (.*)$", makefile, re.MULTILINE)
    assert listed.split() == paths


@pytest.mark.parametrize("spoiled", GENERATED)
def test_a_stale_generated_file_is_found(tmp_path: Path, spoiled: str) -> None:
    for relative in GENERATED:
        (tmp_path / relative).parent.mkdir(parents=True, exist_ok=True)
    assert len(contract.write(tmp_path)) == 7 and stale_files(tmp_path) == []
    path = tmp_path / spoiled
    path.write_text(path.read_text(encoding="utf-8") + " ", encoding="utf-8")
    assert stale_files(tmp_path) == [spoiled]


def test_schema_validates_a_real_session(traced: symdebug.Session) -> None:
    jsonschema.Draft202012Validator.check_schema(json_schema())
    document = json.loads(json.dumps(facts_to_dict(traced.facts)))
    jsonschema.validate(document, json_schema())
    assert document["schema_version"] == SCHEMA_VERSION
    assert document["compiles"] and document["symbols"] and document["explanations"]


def test_schema_validates_every_record_kind(document: dict[str, Any]) -> None:
    jsonschema.validate(document, json_schema())
    (explanation,) = document["explanations"]
    assert explanation["source"] == X and explanation["recompiles"] == ["0/1"]
    assert {step["kind"] for step in explanation["steps"]} >= {"state", "guard", "recompile"}


@pytest.mark.parametrize(
    "spoil",
    [
        lambda d: d["guards"][0].update(cause="because"),  # not a Cause
        lambda d: d["guards"][0].pop("fix"),  # a field with a default is still required
        lambda d: d["guards"][0].update(backward_trace=None),  # not nullable
        lambda d: d["guards"][0]["user_stack"].append({"filename": "f.py", "lineno": "3"}),
        lambda d: d["compiles"][0].update(surprise=1),  # no unknown keys
        lambda d: d["recompiles"].append({"compile_id": "0/9"}),
        lambda d: d.update(schema_version=SCHEMA_VERSION + 1),
        lambda d: d.pop("explanations"),
        lambda d: d["symbols"][0].update(range=[1, 2, 3]),  # a pair
        lambda d: d.update(guards={"0/0#0": {}}),
    ],
)
def test_schema_refuses_a_wrong_document(document: dict[str, Any], spoil: Any) -> None:
    hostile = copy.deepcopy(document)
    spoil(hostile)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(hostile, json_schema())


def test_references_are_ids_and_every_field_is_required() -> None:
    defs = json_schema()["$defs"]
    assert defs["Specialization"]["properties"]["guards"] == {
        "type": "array",
        "items": {"type": "string"},
    }
    assert defs["Recompile"]["properties"]["guard"] == {"type": ["string", "null"]}
    assert defs["Recompile"]["properties"]["specialization"] == {"type": ["string", "null"]}
    guard = defs["Guard"]
    assert guard["required"] == list(guard["properties"]) and guard["additionalProperties"] is False
    assert json_schema()["properties"]["guards"]["items"] == {"$ref": "#/$defs/Guard"}


def test_literals_become_unions_and_enums() -> None:
    text = contract.typescript()
    assert 'export type Cause =\n  | "user_branch"\n' in text and '  | "unknown";' in text
    assert "  cause: Cause;\n" in text and "  state: SymbolState;\n" in text
    assert json_schema()["$defs"]["Cause"]["enum"][0] == "user_branch"
    assert f"export const MIME_TYPE = {json.dumps(MIME_TYPE)};" in text
    assert f"export const SCHEMA_VERSION = {SCHEMA_VERSION};" in text
    assert text.startswith("// generated by symdebug/model/contract.py; do not edit")


@dataclass
class Leaf:
    """A leaf."""

    id: CompileId
    pair: tuple[int, str]


@dataclass
class Toy:
    """A toy root."""

    mode: Literal["a", "b"]
    named: Mode
    leaves: list[Leaf]
    by_name: dict[str, Leaf | None]
    extra: dict[str, Any] = field(default_factory=dict)
    ratio: float | None = None
    flag: bool = False


def test_every_kind_of_annotation() -> None:
    toy = contract.describe(Toy, modules=[sys.modules[__name__]])
    text = contract.typescript(toy)
    assert '  mode: "a" | "b";\n' in text and "  named: Mode;\n" in text
    assert 'export type Mode = "fast" | "slow";' in text
    assert "  by_name: Record<string, Leaf | null>;\n" in text
    assert "  pair: [number, string];\n  id: string;" not in text  # declaration order kept
    assert "  id: string;\n  pair: [number, string];\n" in text
    assert "  extra: Record<string, unknown>;\n  ratio: number | null;\n  flag: boolean;\n" in text
    schema = contract.json_schema(toy)
    props = schema["properties"]
    assert props["mode"] == {"enum": ["a", "b"]} and props["named"] == {"$ref": "#/$defs/Mode"}
    assert props["by_name"]["additionalProperties"] == {
        "anyOf": [{"$ref": "#/$defs/Leaf"}, {"type": "null"}]
    }
    assert schema["$defs"]["Leaf"]["properties"]["pair"]["prefixItems"] == [
        {"type": "integer"},
        {"type": "string"},
    ]
    assert props["extra"] == {"type": "object", "additionalProperties": {}}
    assert props["ratio"] == {"type": ["number", "null"]}
    assert schema["required"][0] == "schema_version" and "flag" in schema["required"]
    good = {"schema_version": SCHEMA_VERSION, "mode": "a", "named": "fast", "leaves": []}
    good |= {"by_name": {"k": {"id": "0/0", "pair": [1, "x"]}, "n": None}, "extra": {}}
    jsonschema.validate(good | {"ratio": 1.5, "flag": False}, schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(good | {"ratio": None, "flag": False, "mode": "c"}, schema)


def test_wire_restores_the_document_every_key_kept(facts: Facts, document: dict[str, Any]) -> None:
    wire = json.loads(json.dumps(wire_document(facts)))
    assert wire["packed"] == 5 and wire["redacted"] is False and "guards" in wire["tables"]
    assert len(wire["frames"]) == 2 and wire["fixes"] == ["mark"]
    assert len(wire["fix_objects"]) == 1  # both guards suggest the same fix: stored once
    assert unpack(wire) == document
    guards = wire["session"]["guards"]
    assert "backward_trace" in guards["columns"] and "fx_node" in guards["columns"]


def test_redacted_wire_is_still_a_valid_document(facts: Facts) -> None:
    wire = json.loads(json.dumps(wire_document(facts, redact=True)))
    assert wire["redacted"] is True
    restored = unpack(wire)
    jsonschema.validate(restored, json_schema())
    frames = [f for g in restored["guards"] for f in g["user_stack"] + g["framework_stack"]]
    assert frames and all("/" not in f["filename"] and f["line"] == "(redacted)" for f in frames)
    text = json.dumps(restored)
    assert "/w/" not in text and "# branch" not in text and "# if" not in text


def test_mime_type_names_the_schema_version() -> None:
    from symdebug.renderers.notebook import MIME_TYPE as NOTEBOOK_MIME

    assert NOTEBOOK_MIME == MIME_TYPE == f"application/vnd.symdebug.session.v{SCHEMA_VERSION}+json"


def _schema_of(document: contract.Document) -> dict[str, Any]:
    """The committed schema of a document (the generated one: the tests above keep them equal)."""
    schema: dict[str, Any] = json.loads((ROOT / document.schema_path).read_text(encoding="utf-8"))
    return schema


def test_diff_and_suite_documents_validate_against_their_schemas() -> None:
    diff = json.loads(json.dumps(diff_document(regressed_diff())))
    jsonschema.Draft202012Validator.check_schema(_schema_of(contract.DIFF))
    jsonschema.validate(diff, _schema_of(contract.DIFF))
    assert diff["diff_version"] == DIFF_VERSION and diff["runs"][0]["frames"][0]["regressions"]
    sweep = json.loads(json.dumps(suite_document(suite())))
    jsonschema.validate(sweep, _schema_of(contract.SUITE))
    assert sweep["suite_version"] == SUITE_VERSION and sweep["workloads"][2]["error"]


@pytest.mark.parametrize(
    "spoil",
    [
        lambda d: d.update(diff_version=DIFF_VERSION + 1),
        lambda d: d["runs"][0]["frames"][0].update(status="changed"),  # not a FrameStatus
        lambda d: d["runs"][0]["frames"][0]["recompiles_added"][0].update(count="3"),
        lambda d: d["runs"][0]["frames"][0]["recompiles_added"][0]["line"].pop("lineno"),
        lambda d: d["runs"][0]["before"].update(kind="folder"),  # not a SideKind
        lambda d: d["runs"][0].update(rank="0"),
        lambda d: d["runs"][0]["frames"][0].update(regressed=True),  # a property, not a field
        lambda d: d.pop("notes"),
    ],
)
def test_diff_schema_refuses_a_wrong_document(spoil: Any) -> None:
    hostile = json.loads(json.dumps(diff_document(regressed_diff())))
    spoil(hostile)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(hostile, _schema_of(contract.DIFF))


@pytest.mark.parametrize(
    "spoil",
    [
        lambda d: d.update(suite_version=SUITE_VERSION + 1),
        lambda d: d["workloads"][0]["causes"].update(user_branch="2"),
        lambda d: d["workloads"][0]["specializations"][0]["values"].append(1.5),
        lambda d: d["workloads"][0].update(report=3),
        lambda d: d["workloads"][0].pop("error"),
    ],
)
def test_suite_schema_refuses_a_wrong_document(spoil: Any) -> None:
    hostile = json.loads(json.dumps(suite_document(suite())))
    spoil(hostile)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(hostile, _schema_of(contract.SUITE))


def test_diff_and_suite_typescript_name_their_versions_and_mime_type() -> None:
    files = contract.generated()
    diff, sweep = files[contract.DIFF.ts_path], files[contract.SUITE.ts_path]
    assert f"export const DIFF_VERSION = {DIFF_VERSION};\n" in diff
    assert f"export const DIFF_MIME_TYPE = {json.dumps(DIFF_MIME_TYPE)};\n" in diff
    assert 'export type FrameStatus = "matched" | "added" | "removed";' in diff
    assert "export interface DiffDocument {\n  diff_version: number;\n" in diff
    assert "  line: Frame | null;\n" in diff and "export interface Frame {" in diff
    assert f"export const SUITE_VERSION = {SUITE_VERSION};\n" in sweep and "MIME" not in sweep
    assert "export interface SuiteDocument {\n  suite_version: number;\n" in sweep
    assert "  values: (number | string)[];\n" in sweep and "  report: string | null;\n" in sweep
    schema = json.loads(files[contract.DIFF.schema_path])
    assert (
        schema["$id"] == f"symdebug-diff-v{DIFF_VERSION}"
        and schema["required"][0] == "diff_version"
    )


# ---------------------------------------------------------------- the wire's one source


def _field_names(cls: type) -> list[str]:
    return [f.name for f in dataclasses.fields(cls)]


def _record_types() -> dict[str, type]:
    """Each record list of the session document, by key: the dataclass of its records."""
    found = {}
    for name, tp in get_type_hints(Facts).items():
        (item, *_) = get_args(tp) or (None,)
        if get_origin(tp) is list and isinstance(item, type) and dataclasses.is_dataclass(item):
            found[name] = item
    return found


def test_the_wire_writes_what_wire_format_declares(facts: Facts) -> None:
    wire = json.loads(json.dumps(wire_document(facts)))
    assert list(wire) == [wire_format.PACKING_FIELD, *_field_names(wire_format.Wire)]
    assert wire[wire_format.PACKING_FIELD] == wire_format.PACKING
    assert list(wire["text_lists"]) == _field_names(wire_format.TextLists)
    assert wire["tables"] and all(
        list(wire["session"][key]) == _field_names(wire_format.Table) for key in wire["tables"]
    )
    # Each row of ``frames`` is a Frame's values, in the order of FRAME_KEYS.
    frame_types = tuple(get_type_hints(Frame)[key] for key in wire_format.FRAME_KEYS)
    assert get_type_hints(wire_format.Wire)["frames"] == list[tuple[frame_types]]  # type: ignore[valid-type]
    user = dict(zip(wire_format.FRAME_KEYS, wire["frames"][0], strict=True))
    assert user == {"filename": "/w/model.py", "lineno": 3, "name": "f", "line": user["line"]}


def test_every_record_list_with_fixes_has_them_packed() -> None:
    records = _record_types()
    with_fixes = [name for name, cls in records.items() if "fixes" in _field_names(cls)]
    assert list(wire_format.WITH_FIXES) == with_fixes
    for key, fields in [*wire_format.TEXT_LISTS.items(), *wire_format.FRAME_STACKS.items()]:
        assert set(fields) <= set(_field_names(records[key])), key


def test_wire_typescript_says_each_constant_with_its_comment() -> None:
    text = contract.wire_typescript()
    assert text.startswith("// generated by symdebug/model/contract.py; do not edit")
    assert f"export const PACKING = {wire_format.PACKING};\n" in text
    assert 'export const APPEND = "append";\n' in text and 'export const SET = "set";\n' in text
    assert "export const TEXT_LISTS: Readonly<Record<string, readonly string[]>> = {\n" in text
    wire = f"export interface Wire {{\n  packed: {wire_format.PACKING};\n  redacted: boolean;\n"
    assert wire in text
    assert "  fix_objects: Fix[];\n" in text and 'import type { Fix } from "./document";' in text
    docs = contract.constant_docs(wire_format)
    assert set(wire_format.VIEWER_CONSTANTS) <= set(docs), "each constant the viewer reads says why"
    assert f"/** {docs['CHAIN_END']} */\nexport const CHAIN_END = -1;" in text
