"""What a scenario's ``expect`` says of one step, and where an observation differs from it:
by subset (``rulesfuzz-scenario/1``, :func:`differences`), field by field exactly (``/2`` and
``/3``, :func:`exact_differences`), the step's log (``/3``, :func:`log_differences`) and the
questions asked (``/3``, :func:`decision_differences`); :func:`expectation_differences` reads
``expect`` as the scenario's format says. Re-exported by :mod:`harness.running.scenario`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from harness.running.scenario_files import FORMAT_1, FORMAT_3, V3_EXPECT


def differences(expected, actual, where: str = "") -> list[str]:
    """Paths where ``actual`` differs from the partial ``expected``, every dict compared by
    subset: the meaning of ``expect`` in ``rulesfuzz-scenario/1`` files."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return [f"{where or '(top)'}: expected an object, got {actual!r}"]
        out = []
        for key, value in expected.items():
            path = f"{where}.{key}" if where else str(key)
            if key not in actual:
                out.append(f"{path}: expected {value!r}, but there is no such field")
            else:
                out.extend(differences(value, actual[key], path))
        return out
    if expected != actual:
        return [f"{where}: expected {expected!r}, got {actual!r}"]
    return []


def same_json(a, b) -> bool:
    """Whether two JSON values are equal as JSON: ``true`` is not ``1``, dicts are equal
    only with the same keys, lists only in the same order."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same_json(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same_json(x, y) for x, y in zip(a, b))
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    return type(a) is type(b) and a == b


def _field_difference(path: str, expected, actual) -> str | None:
    if same_json(expected, actual):
        return None
    if isinstance(expected, dict) and isinstance(actual, dict):
        extra = sorted(set(actual) - set(expected))
        missing = sorted(set(expected) - set(actual))
        detail = "".join([f"; also has {extra}" if extra else "", f"; lacks {missing}" if missing else ""])
        return f"{path}: expected exactly {expected!r}, got {actual!r}{detail}"
    return f"{path}: expected {expected!r}, got {actual!r}"


def exact_differences(expect: dict, observation: Mapping[str, Any]) -> list[str]:
    """Paths where ``observation`` differs from ``expect`` as ``rulesfuzz-scenario/2`` reads it.

    ``expect["players"]`` and ``expect["objects"]`` map ids to fields: ids not named are
    not checked; each named field is compared exactly (:func:`same_json`: a dict such as
    ``counters`` or ``mana_pool`` means exactly those keys, a list exactly those items in
    that order). ``"objects": {"ID": null}`` expects no object ``ID`` in the observation
    (it never existed or ceased to exist, e.g. a token that left the battlefield, CR
    111.7, 704.5d). ``expect["zones"]`` maps zone names to their exact content; a zone kept
    per player (``graveyard``, ``hand``, ``library``, ``exile``) is checked for the players
    named only.
    """
    out = []
    for section, noun in (("players", "player"), ("objects", "object")):
        actual_section = observation.get(section)
        actual_section = actual_section if isinstance(actual_section, dict) else {}
        for oid, fields in (expect.get(section) or {}).items():
            out.extend(_named_differences(f"{section}.{oid}", noun, fields, oid, actual_section))
    zones = observation.get("zones")
    out.extend(_zone_differences(expect.get("zones") or {}, zones if isinstance(zones, dict) else {}))
    return out


def _named_differences(where: str, noun: str, fields, oid: str, actual_section: Mapping[str, Any]) -> list[str]:
    """Where player or object ``oid`` of ``actual_section`` (a ``noun``) differs from its
    ``fields`` in ``expect`` (None: it should not exist)."""
    if fields is None:
        if oid not in actual_section:
            return []
        zone = actual_section[oid].get("zone") if isinstance(actual_section[oid], dict) else None
        return [f"{where}: expected no such {noun}, but it exists" + (f" (in the {zone})" if zone else "")]
    if oid not in actual_section:
        return [f"{where}: expected {fields!r}, but there is no such {noun}"]
    actual = actual_section[oid]
    if not isinstance(actual, dict):
        return [f"{where}: expected an object, got {actual!r}"]
    return _keyed_differences(where, "field", fields, actual)


def _zone_differences(expected: Mapping[str, Any], zones: Mapping[str, Any]) -> list[str]:
    """Where the observation's ``zones`` differ from ``expect["zones"]``: each zone named exactly,
    a zone kept per player for the players named only."""
    out = []
    for zone, content in expected.items():
        where = f"zones.{zone}"
        if zone not in zones:
            out.append(f"{where}: expected {content!r}, but there is no such zone")
        elif isinstance(content, dict) and isinstance(zones[zone], dict):
            out.extend(_keyed_differences(where, "player", content, zones[zone]))
        else:
            diff = _field_difference(where, content, zones[zone])
            if diff:
                out.append(diff)
    return out


def _keyed_differences(where: str, noun: str, expected: Mapping[str, Any], actual: Mapping[str, Any]) -> list[str]:
    """Where ``actual`` (an object's fields, a zone kept per player) differs from ``expected`` for each
    key (a ``noun``) ``expected`` names: the key missing, or its value not the same (:func:`same_json`)."""
    out = []
    for key, value in expected.items():
        if key not in actual:
            out.append(f"{where}.{key}: expected {value!r}, but there is no such {noun}")
        else:
            diff = _field_difference(f"{where}.{key}", value, actual[key])
            if diff:
                out.append(diff)
    return out


def entry_matches(expected: dict, actual) -> bool:
    """Whether log entry ``actual`` holds every field of ``expected``: a dict field by subset
    (a ``cause`` may name its ``event`` only), any other field exactly (:func:`same_json`)."""
    if not isinstance(actual, dict):
        return False
    for key, value in expected.items():
        if key not in actual:
            return False
        if isinstance(value, dict):
            if not entry_matches(value, actual[key]):
                return False
        elif not same_json(value, actual[key]):
            return False
    return True


def _matching(patterns: list, items: list, fits) -> list[int | None]:
    """For each of ``patterns`` the index of the item it is matched with, or None: a largest
    one-to-one matching (``fits(pattern, item)``), so a broad pattern never takes the one
    item a narrower pattern needed (augmenting paths; logs are short)."""
    owner: dict[int, int] = {}  # item index -> pattern index

    def place(p: int, seen: set) -> bool:
        for i, item in enumerate(items):
            if i not in seen and fits(patterns[p], item):
                seen.add(i)
                if i not in owner or place(owner[i], seen):
                    owner[i] = p
                    return True
        return False

    for p in range(len(patterns)):
        place(p, set())
    out: list[int | None] = [None] * len(patterns)
    for i, p in owner.items():
        out[p] = i
    return out


def _short(value) -> str:
    return json.dumps(value, sort_keys=True)


def _unmatched_entry(pattern: dict, log: list) -> str:
    """Why no entry of ``log`` is left for ``pattern``: the entries it would match (each
    taken by another expected entry), or those of its kind, or the kinds logged."""
    fitting = [e for e in log if entry_matches(pattern, e)]
    if fitting:
        return (f"log: expected one more entry matching {_short(pattern)}: the step logged "
                f"{len(fitting)} such, each matched by another expected entry: {_short(fitting)}")
    kind = pattern.get("kind")
    same = [e for e in log if isinstance(e, dict) and e.get("kind") == kind]
    if same:
        seen = f"its {kind} entries: {_short(same)}"
    elif log:
        seen = f"it logged no {kind} entry (only {sorted({str(e.get('kind')) for e in log if isinstance(e, dict)})})"
    else:
        seen = "it logged nothing"
    return f"log: expected an entry matching {_short(pattern)}, but the step logged none; {seen}"


def log_differences(expect: dict, log: list) -> list[str]:
    """What is missing from (or extra in) the log of one step, as ``rulesfuzz-scenario/3``
    reads ``expect["log"]``: each entry listed is matched as a subset (:func:`entry_matches`)
    of an observed entry of its own, in any order; ``log_exact``: no other entry is logged;
    ``log_ordered``: the entries listed are logged in that order."""
    if "log" not in expect:
        return []
    patterns = list(expect["log"])
    log = list(log) if isinstance(log, list) else []
    exact, ordered = bool(expect.get("log_exact")), bool(expect.get("log_ordered"))
    if ordered and exact:
        return _exact_order_differences(patterns, log)
    taken = _matching(patterns, log, entry_matches)
    out = [_unmatched_entry(pattern, log) for pattern, index in zip(patterns, taken) if index is None]
    if exact:
        used = {i for i in taken if i is not None}
        out.extend(f"log: the step also logged {_short(e)}, which no expected entry matches (log_exact)"
                   for i, e in enumerate(log) if i not in used)
    if ordered and not out:
        out.extend(_order_differences(patterns, log))
    return out


def _exact_order_differences(patterns: list, log: list) -> list[str]:
    """``log_exact`` and ``log_ordered``: entry ``i`` of ``log`` matches pattern ``i``, and there
    are as many entries as patterns."""
    out = []
    for i in range(max(len(patterns), len(log))):
        if i >= len(log):
            out.append(f"log[{i}]: expected an entry matching {_short(patterns[i])}, but the step logged "
                       f"only {len(log)} entries (log_exact, log_ordered)")
        elif i >= len(patterns):
            out.append(f"log[{i}]: the step also logged {_short(log[i])}, which no expected entry matches "
                       f"(log_exact)")
        elif not entry_matches(patterns[i], log[i]):
            out.append(f"log[{i}]: expected an entry matching {_short(patterns[i])}, got {_short(log[i])} "
                       f"(log_ordered)")
    return out


def _order_differences(patterns: list, log: list) -> list[str]:
    """``log_ordered`` (each pattern already matched): the first pattern with no matching entry
    after the one the previous pattern matched, as ``[message]``; ``[]`` when they are in order."""
    at = -1
    for k, pattern in enumerate(patterns):
        later = next((i for i in range(at + 1, len(log)) if entry_matches(pattern, log[i])), None)
        if later is None:
            return [f"log: expected an entry matching {_short(pattern)} after the one matching "
                    f"{_short(patterns[k - 1])} (log_ordered), but every such entry comes before it; "
                    f"the log: {_short(log)}"]
        at = later
    return []


def describe_question(kind, player, options) -> str:
    """``"replacement_effect of P1 with options [...]"``: one question, as replay names it."""
    who = "no player" if player is None else player
    if options is None:
        return f"{kind} of {who}"
    return f"{kind} of {who} with options {list(options)}"


def _question_fits(expected: dict, asked: dict) -> bool:
    if expected.get("kind") != asked.get("kind"):
        return False
    if "player" in expected and expected["player"] != asked.get("player"):
        return False
    if "options" in expected and set(expected["options"]) != set(asked.get("options") or ()):
        return False
    return True


def decision_differences(expected: list[dict], asked: list[dict]) -> list[str]:
    """The questions missing from, or extra in, ``asked`` (the decisions asked during one step,
    as recorded) for ``expect["decisions"]`` of ``rulesfuzz-scenario/3``: each listed question
    is matched with one asked question of its kind (and player and options as a set, when
    given), in any order; a question asked that none matches is extra."""
    taken = _matching(expected, asked, _question_fits)
    out = []
    named = [describe_question(d.get("kind"), d.get("player"), d.get("options")) for d in asked]
    for question, index in zip(expected, taken):
        if index is None:
            seen = f"it asked {'; '.join(named)}" if named else "it asked nothing"
            out.append(f"decisions: expected the engine to ask "
                       f"{describe_question(question['kind'], question.get('player'), question.get('options'))}, "
                       f"but it did not; {seen}")
    used = {i for i in taken if i is not None}
    for i in range(len(asked)):
        if i not in used:
            out.append(f"decisions: the engine also asked {named[i]}, which expect.decisions does not list")
    return out


def expectation_differences(scenario: dict, expect: dict, observation: Mapping[str, Any], asked: list[dict] | None = None,
                            log: list | None = None) -> list[str]:
    """The differences between ``observation`` and the ``expect`` of one step of ``scenario``
    (the ``illegal`` key aside), read as the scenario's format says: exact fields for
    ``rulesfuzz-scenario/2`` and ``/3`` (:func:`exact_differences`), subset for ``/1``
    (:func:`differences`); for ``/3`` also the step's ``log`` (default: the observation's;
    :func:`log_differences`) and the questions ``asked`` (:func:`decision_differences`)."""
    partial = {k: v for k, v in expect.items() if k != "illegal" and k not in V3_EXPECT}
    if scenario.get("format") == FORMAT_1:
        return differences(partial, observation)
    out = exact_differences(partial, observation)
    if scenario.get("format") == FORMAT_3:
        out.extend(log_differences(expect, observation.get("log", []) if log is None else log))
        if "decisions" in expect:
            out.extend(decision_differences(expect["decisions"], list(asked or ())))
    return out
