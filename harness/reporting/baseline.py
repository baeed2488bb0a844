"""Regression baselines: the findings a fork already knows about, so its CI fails only on new ones.

A baseline file is JSON::

    {"format": "rulesfuzz-baseline/1",
     "findings": [{"key": "umbra_armor.not_regeneration", "reason": "issue #12, fixed in 2.0"}, ...]}

``key`` is a finding key (:mod:`harness.reporting.findings`); ``reason`` says why it is accepted.
A key without brackets that names an invariant whose keys have them (an older baseline's
``generic.engine_does_not_raise``, from before a crash's key named its site) matches every
key of that invariant (``generic.engine_does_not_raise[KeyError@engine.py:f]``...):
:class:`Known`. ``rulesfuzz run --baseline FILE`` still reports known findings, marked as
known, and exits 0 when every finding is known; ``rulesfuzz baseline --from RUN.json``
writes one from a ``--json`` run report.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import cast

import jsonschema

from harness.reporting.report import REPORT_FORMAT, run_report_schema
from harness.protocol import RulesfuzzError

FORMAT = "rulesfuzz-baseline/1"

SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object", "required": ["format", "findings"],
    "properties": {
        "format": {"const": FORMAT},
        "findings": {"type": "array", "items": {
            "type": "object", "required": ["key", "reason"], "additionalProperties": False,
            "properties": {"key": {"type": "string", "minLength": 1}, "reason": {"type": "string", "minLength": 1}}}},
    },
}


class Known(dict):
    """A baseline's known findings, key -> reason; :meth:`get` also matches a bare invariant name.

    ``known.get(key)`` is the reason of ``key`` itself, else, for a key with brackets
    (``name[...]``), that of the bare ``name``: a baseline written before crash keys named
    their site (``generic.engine_does_not_raise``) still knows every crash of the engine.
    """

    def get(self, key, default=None):
        if key in self:
            return self[key]
        name, bracket, _ = str(key).partition("[")
        if bracket and name in self:
            return self[name]
        return default


class BaselineError(RulesfuzzError):
    """A baseline or run report that can't be read or doesn't follow its schema; says where."""


def _read_json(path) -> object:
    path = Path(path)
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise BaselineError(f"{path}: can't read: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise BaselineError(f"{path}: not UTF-8 text") from None
    except (json.JSONDecodeError, RecursionError) as exc:
        raise BaselineError(f"{path}: not JSON: {getattr(exc, 'msg', 'nested too deeply')}") from None


def _validate(data, schema: dict, path) -> None:
    errors = sorted(jsonschema.Draft202012Validator(schema).iter_errors(data), key=lambda e: list(e.absolute_path))
    if errors:
        where = "/".join(str(p) for p in errors[0].absolute_path) or "(top level)"
        raise BaselineError(f"{path}: {where}: {errors[0].message}")


def load(path) -> Known:
    """The known findings of a baseline file: key -> reason (:class:`Known`: a bare invariant
    name knows every key of that invariant). Raises :class:`BaselineError`."""
    data = _read_json(path)
    _validate(data, SCHEMA, path)
    return Known({item["key"]: item["reason"] for item in cast(dict, data)["findings"]})  # valid: an object


def from_report(path) -> dict:
    """A baseline accepting every finding of a ``--json`` run report (its reason names the run).

    Raises :class:`BaselineError` if the file is not a run report.
    """
    data = _read_json(path)
    if not isinstance(data, dict) or data.get("format") != REPORT_FORMAT:
        raise BaselineError(f"{path}: not a rulesfuzz run report (format {REPORT_FORMAT!r}; see `rulesfuzz run --json`)")
    _validate(data, run_report_schema(), path)
    engine = f"{data['engine']['name']} {data['engine']['version']}"
    seen: dict[str, str] = {}
    for finding in data["findings"]:
        first = finding["violations"][0]["messages"][:1]
        seen.setdefault(finding["key"], finding.get("known") or
                        f"found in {engine} by rulesfuzz {data['rulesfuzz_version']} (seed {data['options']['seed']})"
                        + (f": {first[0]}" if first else ""))
    return {"format": FORMAT, "findings": [{"key": k, "reason": r} for k, r in seen.items()]}
