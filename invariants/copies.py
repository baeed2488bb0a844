"""Copies: CR 707 (copying objects), 107.3m (X), 603 (triggered abilities), and every Gatherer ruling
of Penumbra Umbra about them.

What a copy's copiable values must be is read from the observation before the event (the
original's ``copiable``, CR 707.2) and the copy effect's exceptions (Penumbra Umbra's token is
black, 707.9b); the helpers shared with the layer invariants are in :mod:`invariants.layers`.
"""

from __future__ import annotations

import re
from functools import cache

import invariants.card_abilities as card_abilities
from .base import Transition, invariant
from .layers import counters_added, each_case, entered, expected_counters, on_battlefield_after
from .observed import controller_as_it_last_existed
from .on_change import IdsWhere

COPIES = frozenset({"copies", "observe.copiable"})

PENUMBRA_EXACT = "Penumbra Umbra 2024-11-08: Except for its color, the token copies exactly what was printed"
PENUMBRA_X = "Penumbra Umbra 2024-11-08: If the copied creature has {X} in its mana cost"
PENUMBRA_TOKEN = "Penumbra Umbra 2024-11-08: If the copied creature is a token"
PENUMBRA_COPYING = "Penumbra Umbra 2024-11-08: If the copied creature is copying something else"
PENUMBRA_ENTERS = "Penumbra Umbra 2024-11-08: Any enters abilities of the copied creature will trigger"
PENUMBRA_LKI = "Penumbra Umbra 2024-11-08: If the enchanted creature is no longer on the battlefield"

#: Cards whose "enters with X +1/+1 counters" uses the X of the spell (CR 107.3m) and cards with
#: an enters-the-battlefield triggered ability (CR 603.6a): read from the card data.
X_COUNTER_CARDS = card_abilities.x_counter_cards()
ENTERS_TRIGGER_CARDS = card_abilities.enters_trigger_cards()


def mana_value(cost: str) -> int:
    """Mana value with X = 0, as for any object not on the stack (CR 202.3, 107.3g): a string's
    worked out once (:func:`_mana_value_of`), :func:`x_is_zero` asks it of each {X} permanent at every step."""
    return _mana_value_of(cost) if type(cost) is str else _mana_value(cost)


@cache
def _mana_value_of(cost: str) -> int:
    return _mana_value(cost)


def _mana_value(cost: str) -> int:
    total = 0
    for sym in re.findall(r"\{([^}]*)\}", cost or ""):
        total += int(sym) if sym.isdigit() else (0 if sym in ("X", "Y", "Z") else 1)
    return total


def copies_made(t: Transition) -> list[tuple[str, str, dict]]:
    """(new id, copied id, cause) of every object that entered as a copy in this event (CR 707.5)."""
    return [(oid, e["cause"]["copy_of"], e["cause"]) for oid, e in entered(t)
            if isinstance(e.get("cause"), dict) and e["cause"].get("copy_of")]


def game_over(t: Transition) -> bool:
    return any(p.get("lost") for p in t.after.get("players", {}).values())


# ---------------------------------------------------------------- copies
def _penumbra(t: Transition, source) -> bool:
    obj = t.before["objects"].get(source) if isinstance(source, str) else None
    return obj is not None and obj["name"] == "Penumbra Umbra"


def _expected_copiable(t: Transition, copied: str, cause: dict) -> dict | None:
    original = t.before["objects"].get(copied)
    if original is None or original["zone"] != "battlefield" or not original.get("copiable"):
        return None
    expected = dict(original["copiable"])
    if _penumbra(t, cause.get("by")):
        expected["colors"] = ["B"]  # "except the token is black" (CR 707.9b)
    return expected


@invariant(
    "copies.copiable_values_only",
    rules=("707.2", "707.3", "707.9b", "111.3", "613.2c"),
    rulings=(PENUMBRA_EXACT, PENUMBRA_TOKEN, PENUMBRA_COPYING),
    requires=COPIES,
    on_log=("zone_change",),  # a copy enters (copies_made): a zone_change entry
)
def copiable_values_only(t: Transition):
    """A copy gets exactly the original's copiable values, with the copy effect's exceptions.

    Copiable values: what is printed on the original, or for a token what the effect
    that created it defined, as modified by other copy effects and their exceptions (a
    copy of a copy copies what that one copies; a copy of a Penumbra Umbra token is
    black). Not its computed power and toughness (an Octopus Umbra's 8/8), not its
    colour if the copy effect says otherwise: Penumbra Umbra's token is black.
    """
    return each_case(t, copies_made, _copiable_values_differ)


def _copiable_values_differ(t: Transition, new: str, copied: str, cause: dict) -> list[str]:
    """copiable_values_only for ``new``, which entered as a copy of ``copied``."""
    obj = on_battlefield_after(t, new)
    expected = _expected_copiable(t, copied, cause)
    if obj is None or expected is None:
        return []
    out = []
    got = obj.get("copiable") or {}
    diff = {k: (got.get(k), v) for k, v in expected.items() if got.get(k) != v}
    if diff:
        out.append(f"{new} is a copy of {copied} but its copiable values differ: "
                   + ", ".join(f"{k} {g!r} instead of {w!r}" for k, (g, w) in sorted(diff.items())))
    if obj["name"] != expected["name"] or sorted(obj["colors"]) != sorted(expected["colors"]):
        out.append(f"{new} is a copy of {copied}: it is {obj['name']!r} {obj['colors']}, expected "
                   f"{expected['name']!r} {expected['colors']}")
    return out


@invariant(
    "copies.status_counters_and_auras_not_copied",
    rules=("707.2", "111.2", "400.7"),
    rulings=(PENUMBRA_EXACT,),
    requires=COPIES | {"counters"},
    on_log=("zone_change",),  # a copy enters (copies_made): a zone_change entry
)
def status_counters_and_auras_not_copied(t: Transition):
    """A new copy is untapped, undamaged, out of combat, with no counters, Auras or effects of the original.

    Penumbra Umbra ruling: "It doesn't copy whether that creature is tapped or untapped,
    whether it has any counters on it or Auras and Equipment attached to it". Only
    counters the log says were put on it as it entered are allowed. A token is
    controlled by the player who created it (CR 111.2).
    """
    return each_case(t, copies_made, _status_counters_or_auras_copied)


def _status_counters_or_auras_copied(t: Transition, new: str, copied: str, cause: dict) -> list[str]:
    """status_counters_and_auras_not_copied for ``new``, which entered as a copy of ``copied``."""
    obj = on_battlefield_after(t, new)
    if obj is None:
        return []
    problems = []
    if obj["tapped"]:
        problems.append("is tapped")
    if obj["damage"]:
        problems.append(f"has {obj['damage']} damage")
    if obj["combat"]:
        problems.append(f"is {obj['combat']}")
    if obj["counters"] != expected_counters({}, t, new):
        problems.append(f"has counters {obj['counters']}")
    auras = [a for a, o in t.after["objects"].items() if o["attached_to"] == new]
    if auras:
        problems.append(f"has Auras {auras} attached")
    if obj.get("pt_effects"):
        problems.append(f"is affected by {obj['pt_effects']}")
    if cause.get("event") == "create_token":
        creator = t.before["objects"].get(cause.get("by"))
        controller = controller_as_it_last_existed(t, cause["by"]) if creator is not None else t.event.get(
            "controller")
        if controller is not None and obj["controller"] != controller:
            problems.append(f"is controlled by {obj['controller']}, not by its creator {controller}")
        if not obj["token"]:
            problems.append("is not a token")
    if not problems:
        return []
    original = t.before["objects"].get(copied, {})
    return [f"{new}, a new copy of {copied} (tapped {original.get('tapped')}, counters "
            f"{original.get('counters')}), " + ", ".join(problems)]


def _x_of(t: Transition, oid: str, copied_from: dict[str, str]):
    """``(name, X)`` of a permanent that entered: for a copy its original's copiable name and X = 0 (CR 707.2,
    107.3m); for the card the event put onto the battlefield its card and the event's ``x``; else (None, None)."""
    if oid in copied_from:
        original = t.before["objects"].get(copied_from[oid]) or {}
        return (original.get("copiable") or {}).get("name"), 0
    if t.event.get("type") == "put_onto_battlefield" and t.event.get("id") == oid:
        return t.event.get("card"), t.event.get("x", 0)
    return None, None


def _x_is_zero_on_the_battlefield(oid: str, o: dict, cost: str) -> list[str]:
    """On the battlefield {X} counts as 0 in the mana value (CR 107.3g)."""
    if "mana_value" in o and o["mana_value"] != mana_value(cost):
        return [f"{oid} ({o['name']}, {cost}) has mana value {o['mana_value']}; X is 0 on "
                f"the battlefield: {mana_value(cost)}"]
    return []


def _copiable_cost(o: dict) -> str:
    """The mana cost among ``o``'s copiable values ("" when it has none)."""
    return (o.get("copiable") or {}).get("mana_cost") or ""


#: The permanents whose copiable mana cost has {X}, of the step's observations (kept on change:
#: :mod:`.on_change`): the objects :func:`x_is_zero` reads the mana value of.
_X_PERMANENTS = IdsWhere(lambda o: o["zone"] == "battlefield" and "{X}" in _copiable_cost(o))


@invariant(
    "copies.x_is_zero", refused=False,
    rules=("107.3m", "107.3g", "614.1c", "707.2"),
    rulings=(PENUMBRA_X, PENUMBRA_ENTERS, "Orb of Origin 2024-11-08: If an object's enters-the-battlefield"),
    requires=COPIES | {"x_costs", "counters"},
)
def x_is_zero(t: Transition):
    """"Enters with X +1/+1 counters" uses the X of the spell that became the permanent; for a copy X is 0.

    A Hangarback Walker cast with X = 3 enters with three counters; a token or Clone
    copying it enters with none (it dies as a 0/0). On the battlefield {X} counts as 0
    in the mana value of every object (CR 107.3g). The permanents with {X} are found on change
    (:data:`_X_PERMANENTS`).
    """
    if t.illegal is not None:
        return None
    out: list[str] = []
    applicable = False
    came = entered(t)
    copied_from = {new: copied for new, copied, _ in copies_made(t)} if came else {}  # copies entered
    for oid, _ in came:
        name, expected = _x_of(t, oid, copied_from)
        if name not in X_COUNTER_CARDS or not isinstance(expected, int):
            continue
        applicable = True
        got = counters_added(t, oid).get("+1/+1", 0)
        if got != expected:
            out.append(f"{oid} ({name}) entered with {got} +1/+1 counter(s); X is "
                       f"{expected}{' for a copy' if oid in copied_from else ''}")
    with_x = _X_PERMANENTS.pair(t.before, t.after)[1]  # mostly none: then no object is read
    if with_x:
        applicable = True
        objects = t.after["objects"]
        for oid in filter(with_x.__contains__, objects):
            o = objects[oid]
            out += _x_is_zero_on_the_battlefield(oid, o, _copiable_cost(o))
    return out if applicable else None


@invariant(
    "copies.enters_abilities_trigger", refused=False,
    rules=("603.6a", "707.5", "111.13"),
    rulings=(PENUMBRA_ENTERS,),
    requires=COPIES | {"triggers"},
    on_log=("zone_change",),  # a permanent enters (entered): a zone_change entry
)
def enters_abilities_trigger(t: Transition):
    """The enters abilities of a permanent that enters trigger, and so do a copy's (Nekrataal, Goblin Engineer)."""
    if t.illegal is not None:
        return None
    out = []
    applicable = False
    copied_from = {new: copied for new, copied, _ in copies_made(t)}
    triggered = {e.get("source") for e in t.log if e.get("kind") == "trigger" and e.get("ability") == "enters"}
    for oid, _ in entered(t):
        if oid in copied_from:
            name = ((t.before["objects"].get(copied_from[oid]) or {}).get("copiable") or {}).get("name")
        elif t.event.get("type") == "put_onto_battlefield" and t.event.get("id") == oid:
            name = t.event.get("card")
        else:
            obj = t.after["objects"].get(oid)
            name = ((obj or {}).get("copiable") or {}).get("name") if obj and obj["zone"] == "battlefield" else None
        if name not in ENTERS_TRIGGER_CARDS:
            continue
        applicable = True
        if oid not in triggered:
            what = f"a copy of {copied_from[oid]}, " if oid in copied_from else ""
            out.append(f"{oid} ({what}{name}) entered the battlefield but its enters ability did not trigger")
    return out if applicable else None


def _penumbra_token_copies(t: Transition, token_id: str, token: dict, host, cause: dict) -> list[str]:
    """The token is a black copy of the creature, with its copiable values (as it last existed, 608.2h)."""
    expected = _expected_copiable(t, host, cause)
    if expected is not None and (token["name"] != expected["name"] or token["colors"] != ["B"]
                                 or (token["copiable"]["power"], token["copiable"]["toughness"])
                                 != (expected["power"], expected["toughness"])):
        return [f"Penumbra Umbra's token {token_id} is {token['name']!r} {token['colors']} with copiable P/T "
                f"{token['copiable']['power']}/{token['copiable']['toughness']}; expected a black "
                f"{expected['name']!r} {expected['power']}/{expected['toughness']} as {host} "
                f"{'last existed' if not on_battlefield_after(t, host) else 'is'}"]
    return []


def _penumbra_token(t: Transition, aura_id: str, created: dict) -> list[str]:
    """Penumbra Umbra ``aura_id``, put into a graveyard from the battlefield, triggered and made a token copy of
    the creature it enchanted under its controller (CR 603.6c, 603.10a, 707.9b, 111.2)."""
    out = []
    host = t.before["objects"][aura_id]["attached_to"]
    if not any(e.get("kind") == "trigger" and e.get("source") == aura_id for e in t.log):
        out.append(f"Penumbra Umbra {aura_id} was put into a graveyard from the battlefield but did not trigger")
    entry = created.get(aura_id)
    if entry is None:
        out.append(f"Penumbra Umbra {aura_id} went to the graveyard but no token copy of {host} was created")
        return out
    token_id = entry["object"]
    if entry["cause"].get("copy_of") != host:
        out.append(f"Penumbra Umbra {aura_id} enchanted {host} but its token {token_id} copies "
                   f"{entry['cause'].get('copy_of')}")
    token = on_battlefield_after(t, token_id)
    if token is None or not token.get("copiable"):
        return out
    out += _penumbra_token_copies(t, token_id, token, host, entry["cause"])
    controller = controller_as_it_last_existed(t, aura_id)
    if token["controller"] != controller or not token["token"]:
        out.append(f"Penumbra Umbra's token {token_id} is controlled by {token['controller']} (token "
                   f"{token['token']}); it must be a token of the Aura's controller {controller}")
    return out


@invariant(
    "copies.penumbra_umbra_copies_the_enchanted_creature", refused=False,
    rules=("603.6c", "603.10a", "608.2h", "707.9b", "111.2"),
    rulings=(PENUMBRA_LKI, PENUMBRA_EXACT),
    requires=COPIES | {"triggers", "umbra_armor"},
    on_log=("zone_change",),  # a Penumbra Umbra goes to a graveyard: a zone_change entry
)
def penumbra_umbra_copies_the_enchanted_creature(t: Transition):
    """When Penumbra Umbra goes to a graveyard from the battlefield, a black token copy of its creature is created.

    Under the Aura's controller. If the creature has left the battlefield, the copy uses
    its copiable values as it last existed there (last known information).
    """
    if t.illegal is not None or game_over(t):
        return None
    changes = [e for e in t.log if e.get("kind") == "zone_change" and e.get("from") == "battlefield"
               and e.get("to") == "graveyard" and _penumbra(t, e.get("object"))
               and t.before["objects"][e["object"]]["zone"] == "battlefield"]
    if not changes:
        return None
    out = []
    created = {e["cause"].get("by"): e for _, e in entered(t)
               if isinstance(e.get("cause"), dict) and e["cause"].get("event") == "create_token"}
    for change in changes:
        out += _penumbra_token(t, change["object"], created)
    return out
