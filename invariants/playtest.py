"""Playtest supertypes: mono, continuous and poly (Orb of Origin's rulings, 2024-11-08).

Every expectation is worked out from card data (:mod:`cards`, :mod:`.mana_model`) and the
board, never from what the engine says of itself: which permanents are mono and
continuous follows from where the Orbs of Origin are and which permanents are
noncreature artifacts (observed types; nothing in the pool changes them but copies);
what a permanent's abilities are comes from its Oracle text (Orb of Origin's first
ability from its rulings, :data:`.mana_model.RULED_ABILITIES`). Observation fields:
``supertypes`` (``"Mono"``, ``"Continuous"``, ``"Poly"``), ``players.<id>.max_hand_size``
(``harness.protocol``), and ``pt_effects`` for Sword of the Meek's bonus when observed.

Every ruling of the Orb of Origin page has an invariant citing it: the six on playtest
supertypes and playtest symbols here; the eight on mana and {T}/{Q}/X (CR 106.5, 106.7,
106.12, 106.12a, 106.12b, 107.3m, 107.5, 107.6 word for word) are cited by the mana,
cost and copy invariants that encode them (:mod:`.mana`, :mod:`.layers_and_copies`).
Two are not rules of a game and have no invariant: "Playtest cards aren't legal for play
in any tournament format ..." (deck legality) and "For many playtest cards, you'll need
to make a generous assumption ..." (guidance for reading the others).
"""

from __future__ import annotations

from functools import cache

import cards

import invariants.mana_model as M
from .base import Transition, invariant
from .generic import _changed_objects
from .on_change import IdsWhere
from .views import per_observation

PLAYTEST = frozenset({"playtest_supertypes"})
ORB, VESSEL, SWORD = "Orb of Origin", "Thought Vessel", "Sword of the Meek"
MONO, CONTINUOUS, POLY = "Mono", "Continuous", "Poly"
_MONO_CONTINUOUS: frozenset[str] = frozenset({MONO, CONTINUOUS})
_NONE: frozenset[str] = frozenset()
#: CR 402.2: "Each player's maximum hand size is normally seven cards."
HAND_SIZE = 7

_R = "Orb of Origin 2024-11-08: "
MONO_RULING = _R + "To activate an ability of a permanent with the mono supertype"
SYMBOLS = "Penumbra Umbra 2024-11-08: Playtest cards use a modified version of game symbols"
SEVERAL_ORBS = _R + "Having multiple Orb of Origins on the battlefield"
LAST_ABILITY = _R + "Orb of Origin's last ability applies only while it's on the battlefield"
POLY_RULING = _R + "The poly supertype means"
EXAMPLES = _R + "While Orb of Origin is on the battlefield, activating abilities"
CONTINUOUS_RULING = _R + "A permanent with the continuous supertype has no abilities"
TAP_SYMBOL = _R + "The tap symbol is {T}."


def _battlefield(obs: dict) -> tuple[tuple[str, dict], ...]:
    return M.battlefield(obs)


@per_observation
def _orbs(obs: dict) -> tuple[str, ...]:
    """The Orbs of Origin on the battlefield, in battlefield order (a shared view): the ids of
    :func:`_battlefield` named Orb of Origin, read from the zone list without building it (among the
    objects named so, :data:`_NAMED_ORB`, when it holds ``obs``)."""
    named = _NAMED_ORB.known(obs)
    if named is not None:
        return tuple(filter(named.__contains__, obs["zones"]["battlefield"])) if named else ()
    objects = obs["objects"]
    return tuple(oid for oid in obs["zones"]["battlefield"] if oid in objects and objects[oid]["name"] == ORB)


def _listed(obs: dict, ids: frozenset) -> list[tuple[str, dict]]:
    """``(id, object)`` of the objects of ``ids`` (objects of ``obs``) in ``obs``'s battlefield zone list,
    in its order: those of :func:`_battlefield` whose id is one of ``ids``, found without building it."""
    objects = obs["objects"]
    return [(oid, objects[oid]) for oid in filter(ids.__contains__, obs["zones"]["battlefield"])] if ids else []


#: The objects named Orb of Origin, in any zone, of the step's observations (kept on change: :mod:`.on_change`).
_NAMED_ORB = IdsWhere(lambda o: o["name"] == ORB)


def _grantable(o: dict) -> bool:
    """Whether ``o`` is a noncreature artifact on the battlefield (its ``zone``): what Orbs of Origin make
    mono and continuous while another Orb is on the battlefield (:func:`granted`)."""
    return o["zone"] == "battlefield" and "Artifact" in o["types"] and "Creature" not in o["types"]


#: The :func:`_grantable` objects of the step's observations (kept on change: :mod:`.on_change`).
_NONCREATURE_ARTIFACTS = IdsWhere(_grantable)


def _no_orb(t: Transition) -> bool:
    """Whether no object of ``t.before`` or ``t.after`` is named Orb of Origin: then neither has an Orb on
    the battlefield (:func:`_orbs`), found without reading the battlefields."""
    before, after = _NAMED_ORB.pair(t.before, t.after)
    return not before and not after


@cache
def _card_supertypes(name: str) -> frozenset[str] | None:
    """The card's printed supertypes (card data), or None for a name that is no card's."""
    try:
        return frozenset(cards.card(name).supertypes)
    except cards.UnknownCardName:
        return None


def _printed_supertypes(o: dict) -> frozenset[str]:
    printed = _card_supertypes(o["name"])
    if printed is None:  # a token an effect defines: what it shows, less what Orbs grant
        return frozenset(o.get("supertypes") or ()) - _MONO_CONTINUOUS
    return printed


def granted(obs: dict, oid: str) -> frozenset[str]:
    """What Orbs of Origin grant ``oid`` in ``obs``: mono and continuous for a noncreature
    artifact on the battlefield while another Orb is on the battlefield (Orb rulings)."""
    o = obs["objects"].get(oid)
    if o is None or not _grantable(o):
        return _NONE
    orbs = _orbs(obs)
    return _MONO_CONTINUOUS if orbs.count(oid) != len(orbs) else _NONE  # an Orb that is not oid


def expected_supertypes(obs: dict, oid: str) -> frozenset[str]:
    """The supertypes ``oid`` should have: printed (card data) plus :func:`granted`."""
    return _printed_supertypes(obs["objects"][oid]) | granted(obs, oid)


def no_abilities(obs: dict, oid: str) -> bool:
    """A tapped continuous permanent has no abilities (Orb ruling), continuity judged by :func:`granted`."""
    o = obs["objects"].get(oid)
    return o is not None and o["zone"] == "battlefield" and bool(o["tapped"]) and CONTINUOUS in granted(obs, oid)


def _activation(t: Transition):
    """(id, object before, ability as written or None) of an ``activate`` event on a permanent."""
    return M.activation_on_battlefield(t.event, t.before)


def _activated_entry(t: Transition, oid: str) -> dict | None:
    return next((e for e in t.log if e.get("kind") == "activated" and e.get("object") == oid), None)


def _cost_taps(t: Transition, oid: str) -> list[dict]:
    return [e for e in t.log if e.get("kind") == "tapped" and e.get("object") == oid and e.get("cause") == "cost"]


# ---------------------------------------------------------------- supertypes
#: The last observation :func:`_marked` found without a mono or continuous object, by reference.
_unmarked: list = [None]


def _marked(obs: dict, before: dict) -> bool:
    """Whether an object of ``obs`` has the supertype mono or continuous. On change only: when
    ``before`` is the last observation found without one, only the objects of ``obs`` that are new or
    changed (:func:`invariants.generic._changed_objects`) can have one."""
    if before is _unmarked[0] and before is not obs:
        objects = _changed_objects(obs, before).values()
    else:
        objects = obs["objects"].values()
    marked = any(not _MONO_CONTINUOUS.isdisjoint(o.get("supertypes") or ()) for o in objects)
    _unmarked[0] = None if marked else obs
    return marked


#: The last observation :func:`supertypes` checked and found sound, by reference: what an object's
#: supertypes should be depends only on the object and the Orbs on the battlefield, so with the same
#: Orbs only the objects that changed since are checked.
_supertypes_held: list = [None]


@invariant("playtest.supertypes", rules=("205.4", "613.1d", "400.7"),
           rulings=(LAST_ABILITY, SEVERAL_ORBS, POLY_RULING), requires=PLAYTEST)
def supertypes(t: Transition):
    """Orb of Origin grants mono and continuous to the other noncreature artifacts on the
    battlefield, only while it is there; several Orbs make each other mono and continuous
    and have no other effect; Orb of Origin is poly.

    Checked on change only: after an observation found sound, with the same Orbs, only the objects
    new or changed since (:func:`invariants.generic._changed_objects`)."""
    after, before = t.after, t.before
    orbs_before, orbs_after = ((), ()) if _no_orb(t) else (_orbs(before), _orbs(after))  # no Orb: none there
    if not (orbs_before or orbs_after) and not _marked(after, before):
        return None
    out = []
    objects = after["objects"]
    if before is _supertypes_held[0] and before is not after and orbs_after == orbs_before:
        objects = _changed_objects(after, before)  # the others are as they were, with the same Orbs
    for oid, o in objects.items():
        shown = o.get("supertypes") or ()
        if o["zone"] != "battlefield":
            if not _MONO_CONTINUOUS.isdisjoint(shown):
                out.append(f"{oid} ({o['name']}) is in the {o['zone']} but has "
                           f"{sorted(_MONO_CONTINUOUS.intersection(shown))}")
            continue
        seen = set(shown)
        wanted = _printed_supertypes(o)  # expected_supertypes(after, oid), its granted() read in place:
        if _grantable(o) and orbs_after.count(oid) != len(orbs_after):  # an Orb that is not oid
            wanted = wanted | _MONO_CONTINUOUS
        if seen != wanted or len(shown) != len(seen):
            orbs = list(orbs_after)
            out.append(f"{oid} ({o['name']}, {' '.join(o['types'])}) has supertypes {o.get('supertypes')}, "
                       f"expected {sorted(wanted)} (Orbs of Origin on the battlefield: {orbs})")
    _supertypes_held[0] = None if out else after
    return out


# ---------------------------------------------------------------- mono and poly
@invariant("playtest.mono_additional_tap", rules=("118.8", "601.2f", "107.5", "602.2b"),
           rulings=(MONO_RULING, SYMBOLS, TAP_SYMBOL), requires=PLAYTEST | {"tap_untap_costs"}, on=("activate",))
def mono_additional_tap(t: Transition):
    """A mono permanent's ability whose cost has no {T} costs an additional {T} (the standard
    {T}: a tapped permanent can't pay it, paying it taps the permanent); an ability whose cost
    has {T} costs no second {T}: an untapped mono permanent can still pay it, and is tapped once."""
    found = _activation(t)
    if found is None or found[2] is None or MONO not in granted(t.before, found[0]):
        return None
    oid, o, ability = found
    if no_abilities(t.before, oid):
        return None  # playtest.continuous_no_abilities
    if o["tapped"] and not ability.untap:
        return [] if t.illegal is not None else [f"{oid} ({o['name']}) is tapped and mono, yet its ability "
                                                 f"{t.event.get('ability')} was activated (an additional {{T}})"]
    if t.illegal == "already_tapped":
        return [f"{oid} ({o['name']}) is untapped, yet activating its ability {t.event.get('ability')} was refused "
                f"as already tapped: mono adds one {{T}}, never a second one"]
    if t.illegal is not None:
        return []
    return _mono_cost_paid(t, oid, o, ability)


def _mono_cost_paid(t: Transition, oid: str, o: dict, ability) -> list[str]:
    """An accepted activation of mono ``oid``'s ability: its cost has {T} (the additional one, Orb
    ruling), the permanent was tapped once to pay it (CR 602.2b) and is tapped after, unless the
    ability untaps it."""
    out = []
    entry = _activated_entry(t, oid)
    if entry is not None and not (entry.get("cost") or {}).get("tap"):
        out.append(f"{oid} ({o['name']}) is mono, yet its activation's cost {entry.get('cost')} has no {{T}}")
    taps = _cost_taps(t, oid)
    if len(taps) > 1:
        out.append(f"{oid} ({o['name']}) was tapped {len(taps)} times to pay one activation's cost")
    now = t.after["objects"].get(oid)
    if not ability.untap and not ability.other and now is not None and now["zone"] == "battlefield" \
            and not now["tapped"] and not any(e.get("kind") == "untapped" and e.get("object") == oid for e in t.log):
        out.append(f"{oid} ({o['name']}) is mono: activating its ability {t.event.get('ability')} costs {{T}}, "
                   "yet it is untapped")
    return out


@invariant("playtest.poly_first_ability", rules=("602.2b", "107.5"), rulings=(POLY_RULING, MONO_RULING),
           requires=PLAYTEST | {"tap_untap_costs"}, on=("activate",))
def poly_first_ability(t: Transition):
    """Orb of Origin's first ability doesn't cost {T} (poly), unless another Orb of Origin is on
    the battlefield (then it is mono and the ability costs {T})."""
    found = _activation(t)
    if found is None or found[1]["name"] != ORB or t.event.get("ability") != 0:
        return None
    oid, o, _ = found
    other = MONO in granted(t.before, oid)
    if other:
        return None  # mono: playtest.mono_additional_tap and playtest.continuous_no_abilities
    if t.illegal is not None:
        return [f"{oid} (Orb of Origin) is the only Orb on the battlefield: its first ability costs no {{T}}, "
                f"yet activating it was refused ({t.illegal})"] if t.illegal in ("already_tapped", "no_such_ability") \
            else []
    out = []
    entry = _activated_entry(t, oid)
    if entry is not None and (entry.get("cost") or {}).get("tap"):
        out.append(f"{oid} (Orb of Origin) is poly and alone: its first ability's cost {entry.get('cost')} has {{T}}")
    now = t.after["objects"].get(oid)
    if _cost_taps(t, oid) or (now is not None and now["zone"] == "battlefield" and now["tapped"] != o["tapped"]):
        out.append(f"{oid} (Orb of Origin) is poly and alone, yet activating its first ability tapped it")
    return out


# ---------------------------------------------------------------- continuous
def _continuous_activation(t: Transition) -> list[str]:
    """An activation of a continuous permanent's ability is refused while it is tapped (it has no
    abilities) and accepted while it is untapped (Orb ruling)."""
    found = _activation(t)
    if found is None:
        return []
    out = []
    oid, o, ability = found
    if no_abilities(t.before, oid) and t.illegal is None:
        out.append(f"{oid} ({o['name']}) is tapped and continuous, so it has no abilities, yet its ability "
                   f"{t.event.get('ability')} was activated")
    if CONTINUOUS in granted(t.before, oid) and not o["tapped"] and ability is not None \
            and t.illegal == "no_such_ability":
        out.append(f"{oid} ({o['name']}) is continuous but untapped: it has its ability "
                   f"{t.event.get('ability')}, yet the activation was refused as no such ability")
    return out


def _sword_bonus(after: dict, oid: str, o: dict) -> list[str]:
    """Sword of the Meek's "Equipped creature gets +1/+2" (layer 7c, CR 613.4c) is among its host's
    ``pt_effects`` exactly while the continuous Sword is untapped (when they are observed)."""
    host = after["objects"].get(o.get("attached_to") or "")
    if host is None or "pt_effects" not in host:
        return []
    out = []
    bonus = [e for e in host["pt_effects"] if e.get("source") == oid]
    if o["tapped"] and bonus:
        out.append(f"{oid} (Sword of the Meek) is tapped and continuous, yet {o['attached_to']} still has "
                   f"its bonus {bonus}")
    if not o["tapped"] and [(e.get("power"), e.get("toughness")) for e in bonus] != [(1, 2)]:
        out.append(f"{oid} (Sword of the Meek) is untapped: {o['attached_to']} should get +1/+2 from it "
                   f"(layer 7c), its effects from it are {bonus}")
    return out


@invariant("playtest.continuous_no_abilities", rules=("613.1f", "602.2", "613.4c"),
           rulings=(CONTINUOUS_RULING, EXAMPLES), requires=PLAYTEST)
def continuous_no_abilities(t: Transition):
    """A continuous permanent has no abilities while tapped, and all of them while untapped:
    no keyword and no activated ability while tapped (an activation is refused); Sword of the
    Meek's "Equipped creature gets +1/+2" applies only while the Sword has its abilities."""
    after = t.after
    if _no_orb(t):
        return None
    orbs = _orbs(after)
    if not (orbs or _orbs(t.before)):
        return None
    out = _continuous_activation(t)
    if not orbs:
        return out  # no Orb on the battlefield grants anything
    for oid, o in _listed(after, _NONCREATURE_ARTIFACTS.pair(t.before, after)[1]):
        if orbs.count(oid) == len(orbs):  # no other Orb (granted(after, oid)): nothing granted
            continue
        if o["tapped"] and o.get("keywords"):
            out.append(f"{oid} ({o['name']}) is tapped and continuous, yet has keywords {o['keywords']}")
        if o["name"] == SWORD:
            out += _sword_bonus(after, oid, o)
    return out


@cache
def _says_no_maximum_hand_size(name: str) -> bool:
    """Whether the card named ``name`` says "You have no maximum hand size" (its Oracle text)."""
    return "You have no maximum hand size" in M._text(name)


#: The objects whose card says "You have no maximum hand size" and the Equipment, in any zone, of the
#: step's observations (kept on change: :mod:`.on_change`); :func:`max_hand_size` and :func:`equipment` find
#: them on the battlefield, in the order of its zone list, among these only.
_NO_MAX_HAND_SIZE = IdsWhere(lambda o: _says_no_maximum_hand_size(o["name"]))
_EQUIPMENT = IdsWhere(lambda o: "Equipment" in o["subtypes"])


def _any_listed(ids: frozenset, obs: dict) -> bool:
    """Whether one of ``ids`` (objects of ``obs``) is in ``obs``'s battlefield zone list (:func:`_battlefield`)."""
    if not ids:
        return False
    listed = obs["zones"]["battlefield"]
    return any(oid in listed for oid in ids)


@invariant("playtest.max_hand_size", rules=("402.2",), rulings=(EXAMPLES, CONTINUOUS_RULING), requires=PLAYTEST)
def max_hand_size(t: Transition):
    """A player has no maximum hand size while they control a Thought Vessel that has its
    abilities ("You have no maximum hand size"); a tapped continuous one has none (Orb
    ruling's example); otherwise the maximum is seven."""
    after = t.after
    for player in after["players"].values():
        if "max_hand_size" in player:
            break
    else:
        return None  # not observed (harness.protocol: engines claiming playtest_supertypes observe it)
    out = []
    ids = _NO_MAX_HAND_SIZE.pair(t.before, after)[1]
    holders = _listed(after, ids)
    for pid, player in after["players"].items():
        if "max_hand_size" not in player:
            out.append(f"player {pid} has no max_hand_size in the observation")
            continue
        vessels = [oid for oid, o in holders if o["controller"] == pid and not no_abilities(after, oid)] \
            if holders else []
        wanted = None if vessels else HAND_SIZE
        if player["max_hand_size"] != wanted:
            tapped = [oid for oid, o in _battlefield(after) if o["controller"] == pid and o["name"] == VESSEL]
            out.append(f"player {pid}'s maximum hand size is {player['max_hand_size']!r}, expected {wanted!r} "
                       f"(Thought Vessels with their abilities: {vessels}; all of theirs: {tapped})")
    return out


def _equip_attaches(t: Transition) -> list[str]:
    """An accepted, resolved equip of Sword of the Meek targets a creature its controller controls
    (CR 702.6a) and attaches the Sword to it while both are on the battlefield (701.3b)."""
    found = _activation(t)
    if found is None or found[1]["name"] != SWORD or t.event.get("ability") != 0 or t.illegal is not None:
        return []
    after = t.after
    oid, o, _ = found
    resolved = next((e for e in t.log if e.get("kind") == "ability_resolved" and e.get("object") == oid), None)
    target = (resolved or {}).get("targets") or [None]
    now = after["objects"].get(oid)
    host = t.before["objects"].get(target[0] or "")
    if resolved is None or host is None or now is None or now["zone"] != "battlefield":
        return []
    if host["controller"] != o["controller"] or "Creature" not in host["types"]:
        return [f"equip targeted {target[0]}, not a creature {o['controller']} controls (CR 702.6a)"]
    if now.get("attached_to") != target[0] and after["objects"].get(target[0], {}).get("zone") == "battlefield":
        return [f"{oid} equipped {target[0]} but is attached to {now.get('attached_to')!r}"]
    return []


# ---------------------------------------------------------------- Equipment
@invariant("playtest.equipment", rules=("301.5c", "702.6a", "704.5n", "701.3b"), rulings=(EXAMPLES,),
           requires=PLAYTEST | {"tap_untap_costs"})
def equipment(t: Transition):
    """An Equipment is attached only to a creature on the battlefield (CR 704.5n), and equip
    attaches it to a creature its controller controls (CR 702.6a)."""
    after = t.after
    before_ids, after_ids = _EQUIPMENT.pair(t.before, after)
    if not _any_listed(after_ids, after) and not _any_listed(before_ids, t.before):
        return None
    out = []
    for oid, o in _listed(after, after_ids):
        if o.get("attached_to"):
            host = after["objects"].get(o["attached_to"])
            if host is None or host["zone"] != "battlefield" or "Creature" not in host["types"]:
                out.append(f"Equipment {oid} is attached to {o['attached_to']!r}, not a creature on the battlefield "
                           "(CR 704.5n)")
    return out + _equip_attaches(t)
