"""The harness's vocabulary: which events and boards a scenario may say at all.

A scenario file that says something outside it is bad input (``rulesfuzz replay`` exits
2 with one line naming the field), not a scenario an engine refuses: an event type
nobody defines (``"destory"``), a spell that is not an instant or sorcery of the card
pool, a negative amount, a board object whose card is not in the pool. The event types
and their fields are those of ``harness/schema/event.schema.json`` (documented in
:mod:`harness.protocol`); card names are read from :mod:`cards`. Nothing here depends on
any engine.
"""

from __future__ import annotations

from collections.abc import Iterator

import cards

from harness.wire import schemas

#: Tokens an effect of the card pool defines, which a board may name instead of a card
#: (``"token": true``; harness/protocol.py "Board"; CR 111.3, 111.4): name -> card types.
DEFINED_TOKENS: dict[str, frozenset[str]] = {
    "Mask": frozenset({"Enchantment"}),  # Estrid, the Masked: an Aura enchantment token
    "Thopter Token": frozenset({"Artifact", "Creature"}),  # Hangarback Walker
    "Soldier Token": frozenset({"Creature"}),  # Raise the Alarm
}

_ZONES = ("library", "hand", "battlefield", "graveyard", "exile")


def event_types() -> tuple[str, ...]:
    """Every event type of the vocabulary, in the schema's order."""
    return tuple(schemas.load("event")["properties"]["type"]["enum"])


def _path(error) -> str:
    return "/".join(str(p) for p in error.absolute_path)


def _known(name) -> cards.Card | None:
    try:
        return cards.card(name) if isinstance(name, str) else None
    except cards.UnknownCardName:
        return None


def event_problem(event) -> str | None:
    """Why ``event`` is outside the vocabulary, as ``"field: reason"`` (or ``"reason"`` for
    the event as a whole), or None. See :func:`event_problem_at`."""
    found = event_problem_at(event)
    if found is None:
        return None
    where, reason = found
    return f"{where}: {reason}" if where else reason


def event_problem_at(event) -> tuple[str, str] | None:
    """Why ``event`` is outside the vocabulary: ``(field path, reason)``, the path ``""``
    for the event as a whole; None when it is in it.

    Checks the event schema (type, required fields, ranges such as ``amount >= 1``) and
    the cards it names: ``cast`` names an instant or sorcery of the pool, or a permanent card
    that is not a land (CR 305.1: lands are played) with the ``id`` of the permanent it becomes;
    ``put_onto_battlefield`` a permanent card of the pool (CR 110.4a).
    """
    validator = schemas.validator("event")
    errors = sorted(validator.iter_errors(event), key=lambda e: (len(list(e.absolute_path)) == 0, _path(e)))
    if errors:
        error = errors[0]
        if list(error.absolute_path) == ["type"]:
            return "type", (f"unknown event type {event.get('type')!r} (the vocabulary: "
                            f"{', '.join(sorted(event_types()))})")
        return _path(error), error.message
    kind = event["type"]
    if kind in ("cast", "put_onto_battlefield"):
        card = _known(event["card"])
        if card is None:
            return "card", f"unknown card {event['card']!r}: not an Oracle name in the card pool"
        if kind == "cast" and card.types and not {"Instant", "Sorcery"} & set(card.types):
            if "Land" in card.types:
                return "card", f"{card.name} is a land: a land is played, not cast (CR 305.1)"
            if not isinstance(event.get("id"), str) or not event["id"]:
                return "card", (f"{card.name} is not an instant or sorcery: a permanent spell is cast with the id "
                                f"of the permanent it becomes (\"id\")")
        if kind == "put_onto_battlefield" and {"Instant", "Sorcery"} & set(card.types):
            return "card", f"{card.name} is not a permanent card (CR 110.4a)"
    return None


def scenario_problems(data: dict) -> Iterator[str]:
    """Each way a schema-valid scenario says something outside the vocabulary, as
    ``"path: reason"`` (paths as in the schema: ``steps/0/event/type``)."""
    for where, problem in _board_problems(data["board"]):
        yield f"board/{where}: {problem}"
    for i, step in enumerate(data["steps"]):
        found = event_problem_at(step["event"])
        if found:
            where, reason = found
            yield f"steps/{i}/event{'/' + where if where else ''}: {reason}"


def _enchant_problem(aura: dict, host: dict, host_types: frozenset[str]) -> str | None:
    """Why ``aura`` can't be attached to ``host`` by its enchant keyword (CR 303.4a,
    702.5a: "Enchant creature", "Enchant creature you control", the Mask's "enchant
    permanent"), or None."""
    card = _known(aura["card"])
    text = (card.oracle_text or "") if card is not None else "Enchant permanent"
    line = next((ln.strip().lower() for ln in text.splitlines() if ln.lower().startswith("enchant ")), "")
    if line.startswith("enchant creature") and "Creature" not in host_types:
        return f"{aura['card']} has {line!r}: {host['id']!r} is not a creature"
    if line.endswith("you control") and (host.get("controller", host["owner"])
                                         != aura.get("controller", aura["owner"])):
        return f"{aura['card']} has {line!r}: {host['id']!r} has another controller"
    return None


_COLOR_WORDS = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}


def _protection_problem(attached: dict, host: dict) -> str | None:
    """Why ``attached`` (an Aura or an Equipment) can't be attached to ``host`` by the
    host's protection (CR 702.16c, 702.16d: a permanent with protection from a quality
    can't be enchanted by Auras, nor equipped by Equipment, that have it), or None.
    Qualities read from the host card's Oracle text: a color, "multicolored",
    "monocolored"; the attached card's colors from card data."""
    host_card, card = _known(host["card"]), _known(attached["card"])
    if host_card is None or card is None:
        return None
    colors = set(card.colors)
    for line in (host_card.oracle_text or "").splitlines():
        for part in line.split(","):
            part = part.strip().lower()
            if not part.startswith("protection from "):
                continue
            quality = part.removeprefix("protection from ")
            has = (quality == "multicolored" and len(colors) >= 2) or (quality == "monocolored" and len(colors) == 1) \
                or _COLOR_WORDS.get(quality) in colors
            if has:
                return (f"{host['card']} has protection from {quality}: {attached['card']} can't be attached to "
                        f"{host['id']!r} (CR 702.16c, 702.16d)")
    return None


def _board_problems(board: dict) -> Iterator[tuple[str, str]]:
    """Boards: ids unique, owners and controllers players, cards of the pool (or tokens
    an effect defines), only permanents on the battlefield and attached, only creatures
    damaged or in combat (CR 120.3, 506.4), only permanents tapped (CR 110.5), an Aura on
    the battlefield attached (CR 303.4d, 704.5m), nothing attached to a permanent with
    protection from one of its qualities (CR 702.16c, 702.16d)."""
    players = [p["id"] for p in board["players"]]
    seen: set[str] = set()
    for i, player in enumerate(players):
        if player in seen:
            yield f"players/{i}/id", f"duplicate player id {player!r}"
        seen.add(player)
    types: dict[str, frozenset[str]] = {}
    subtypes: dict[str, frozenset[str]] = {}
    zones: dict[str, str] = {}
    for i, spec in enumerate(board["objects"]):
        yield from _object_problems(f"objects/{i}", spec, players, seen, types, subtypes, zones)
    yield from _attachment_problems(board, types, subtypes, zones)


def _object_problems(where: str, spec: dict, players: list[str], seen: set[str], types: dict[str, frozenset[str]],
                     subtypes: dict[str, frozenset[str]], zones: dict[str, str]) -> Iterator[tuple[str, str]]:
    """_board_problems of one object ``spec`` (at ``where``): its id, card, players, zone and
    status; its types, subtypes and zone recorded (not for an unknown card)."""
    oid = spec["id"]
    if oid in seen:
        yield f"{where}/id", f"duplicate id {oid!r} (object and player ids share one namespace)"
    seen.add(oid)
    card = _known(spec["card"])
    if card is not None:
        types[oid], subtypes[oid] = frozenset(card.types), frozenset(card.subtypes)
    elif spec.get("token") is True and spec["card"] in DEFINED_TOKENS:
        types[oid] = DEFINED_TOKENS[spec["card"]]
        subtypes[oid] = frozenset({"Aura"}) if spec["card"] == "Mask" else frozenset()
    else:
        yield f"{where}/card", f"unknown card {spec['card']!r}: not an Oracle name in the card pool"
        return
    for key in ("owner", "controller"):
        if key in spec and spec[key] not in players:
            yield f"{where}/{key}", f"{spec[key]!r} is not a player"
    zone = zones[oid] = spec.get("zone", "battlefield")
    if zone == "battlefield" and {"Instant", "Sorcery"} & types[oid]:
        yield where, f"{spec['card']} is not a permanent card and can't be on the battlefield (CR 110.4a)"
    if zone != "battlefield" and spec.get("controller", spec["owner"]) != spec["owner"]:
        yield f"{where}/controller", "only permanents have a controller other than their owner (CR 108.4)"
    if zone != "battlefield" and any(spec.get(k) for k in ("tapped", "damage", "combat", "regeneration_shields",
                                                            "attached_to")):
        yield where, "only permanents can be tapped, damaged, in combat, shielded or attached"
    if "Creature" not in types[oid] and (spec.get("damage") or spec.get("combat")):
        yield where, "only creatures can have damage marked or be in combat (CR 120.3, 506.4)"


def _attachment_problems(board: dict, types: dict[str, frozenset[str]], subtypes: dict[str, frozenset[str]],
                         zones: dict[str, str]) -> Iterator[tuple[str, str]]:
    """_board_problems of what is attached: only Auras and Equipment, to a permanent on the
    battlefield they may be attached to; an Aura on the battlefield attached."""
    for i, spec in enumerate(board["objects"]):
        oid, target = spec["id"], spec.get("attached_to")
        if oid not in types:
            continue
        aura = "Aura" in subtypes[oid]
        equipment = "Equipment" in subtypes[oid]
        if target is not None:
            if not aura and not equipment:
                yield f"objects/{i}/attached_to", f"only an Aura or an Equipment is attached here, not {spec['card']}"
            elif target not in zones or zones[target] != "battlefield":
                yield f"objects/{i}/attached_to", f"no permanent {target!r} on the battlefield"
            elif equipment and "Creature" not in types[target]:
                yield f"objects/{i}/attached_to", f"an Equipment is attached only to a creature (CR 301.5c), not {target!r}"
            else:
                host = next(o for o in board["objects"] if o["id"] == target)
                problem = (None if equipment else _enchant_problem(spec, host, types[target])) \
                    or _protection_problem(spec, host)
                if problem:
                    yield f"objects/{i}/attached_to", problem
        elif aura and zones[oid] == "battlefield":
            yield f"objects/{i}", f"Aura {oid!r} on the battlefield is not attached to anything (CR 303.4d, 704.5m)"
