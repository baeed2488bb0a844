"""The published JSON Schemas (harness/schema/*.schema.json) and validation against them.

``board``, ``event``, ``observation``, ``engine_info`` and ``messages`` (every message of
the wire protocol, docs/protocol.md); they agree with :mod:`harness.protocol` (a test
checks it). Validation uses :mod:`jsonschema` (draft 2020-12); schemas refer to each
other by file name.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from jsonschema import Draft202012Validator
from referencing import Registry, Resource

#: The schema files, by short name.
NAMES = ("board", "event", "observation", "engine_info", "messages")
_BASE = "https://rulesfuzz.invalid/schema/"


@cache
def load(name: str) -> dict:
    """The schema ``harness/schema/<name>.schema.json`` as a dict. Raises KeyError for an unknown name."""
    if name not in NAMES:
        raise KeyError(f"no schema {name!r}; known: {', '.join(NAMES)}")
    return json.loads(resources.files("harness").joinpath("schema", f"{name}.schema.json").read_text("utf-8"))


@cache
def _registry() -> Registry:
    return Registry().with_resources((_BASE + f"{n}.schema.json", Resource.from_contents(load(n))) for n in NAMES)


@cache
def validator(name: str, definition: str | None = None) -> Draft202012Validator:
    """A validator for schema ``name``, or for its ``$defs/<definition>`` (e.g. ``messages``, ``apply_params``)."""
    schema = load(name)
    if definition is not None:
        if definition not in schema.get("$defs", {}):
            raise KeyError(f"schema {name!r} has no definition {definition!r}")
        schema = {"$ref": f"{_BASE}{name}.schema.json#/$defs/{definition}"}
    return Draft202012Validator(schema, registry=_registry())


def problems(instance: Any, name: str, definition: str | None = None) -> list[str]:
    """Every way ``instance`` breaks the schema, as ``path: message`` lines (empty when valid)."""
    out = []
    for error in sorted(validator(name, definition).iter_errors(instance), key=lambda e: list(e.absolute_path)):
        path = "".join(f"[{p!r}]" if isinstance(p, str) else f"[{p}]" for p in error.absolute_path) or "(top)"
        out.append(f"{path}: {error.message}"[:300])
    return out


def message_problems(message: Any, method: str) -> list[str]:
    """How a protocol message about ``method`` breaks the schemas: its envelope, then its params or result."""
    found = problems(message, "messages")
    if found or not isinstance(message, dict):
        return found
    if "params" in message or "method" in message:
        return problems(message.get("params", {}), "messages", f"{method}_params")
    if "result" in message:
        return problems(message["result"], "messages", f"{method}_result")
    return []
