"""Observation builders for hand-written invariant cases: an observed object, a whole
observation, and the observation after an event. Shared by ``tests/test_invariants.py`` and
the case modules it merges (``tests/template_cases.py``, ``tests/cast_permanent_cases.py``)."""

from __future__ import annotations

import copy

PLAYERS = ("P1", "P2")
HIDDEN_ZONES = ("library", "hand", "graveyard", "exile")


def card(name: str, **fields) -> dict:
    """One observed object with every protocol field: by default an untapped, undamaged
    permanent on the battlefield that P1 owns and controls (``controller`` follows ``owner``)."""
    obj = {
        "name": name, "zone": "battlefield", "owner": "P1", "controller": None, "token": False, "tapped": False,
        "summoning_sick": False, "damage": 0, "counters": {}, "attached_to": None, "combat": None,
        "regeneration_shields": 0, "supertypes": [], "types": [], "subtypes": [], "colors": [], "keywords": [],
        "power": None, "toughness": None,
    }
    obj.update(fields)
    obj["controller"] = obj["controller"] or obj["owner"]
    return obj


def observation(objects: dict[str, dict], log=(), life: dict | None = None) -> dict:
    """A protocol observation of ``objects`` (id -> object); zones are derived from each
    object's ``zone`` and ``owner`` (CR 400.3)."""
    zones: dict = {"battlefield": [], **{z: {p: [] for p in PLAYERS} for z in HIDDEN_ZONES}}
    for oid, obj in objects.items():
        if obj["zone"] == "battlefield":
            zones["battlefield"].append(oid)
        else:
            zones[obj["zone"]][obj["owner"]].append(oid)
    life = life or {}
    return {
        "players": {p: {"life": life.get(p, 20), "lost": False} for p in PLAYERS},
        "objects": copy.deepcopy(objects), "zones": zones, "log": list(log),
    }


def step(before: dict, changes: dict[str, dict | None], log=(), life: dict | None = None) -> dict:
    """The observation after an event: ``before`` with some objects' fields changed
    (``None``: the object ceased to exist) or new objects added, and the event's log."""
    objects = copy.deepcopy(before["objects"])
    for oid, fields in changes.items():
        if fields is None:
            del objects[oid]
        else:
            objects[oid] = {**objects.get(oid, {}), **fields}
    life = life or {p: v["life"] for p, v in before["players"].items()}
    return observation(objects, log, life)
