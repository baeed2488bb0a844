"""Combat (capability ``combat``; CR 506-511): reading the board, and the declarations of attackers
and blockers (CR 508, 509). Combat damage (CR 510) is :mod:`invariants.combat_damage`, removal
from combat (CR 506.4, 511.3) :mod:`invariants.combat_removal`; all three share the board
reading here.

Everything here is worked out from the board before the event (the creatures' computed
characteristics, their combat fields, checked by the other invariants and the differential
oracle), the card data (restrictions such as "can't block" are read from the cards' models,
:mod:`cards.reader`, never from the engine), the event, the decisions the attacking player
answered, and the board after it; never from the engine's log. The events and observation
fields are those of ``harness/protocol.py`` (``declare_attackers``, ``declare_blockers``,
``combat_damage``, ``end_of_combat``; ``combat``, ``blocked``, ``blocked_by``, ``blocking``).

Where a card has a combat ability the project only reads (a restriction other than "can't
attack", "can't block" and "can't be blocked", a requirement, a combat trigger, a keyword such
as banding, fear, shadow, landwalk or protection), an engine may rule either way: the
invariants that would need it say nothing (not applicable).
"""

from __future__ import annotations

import re
from functools import lru_cache

import cards
from cards import reader

from .base import Transition, invariant
from .card_abilities import card_text
from .views import per_observation

COMBAT = ("combat",)
#: Dog Umbra: "As long as another player controls enchanted creature, it can't attack or block."
_DOG_UMBRA = re.compile(r"As long as another player controls enchanted creature, it can't attack or block")
#: Curated Auras' abilities that matter in combat and that the project doesn't play (Bear and Octopus
#: Umbra's attack triggers, Indrik Umbra's "all creatures able to block it do so", Snake Umbra's damage trigger).
_UNPLAYED_TEXT = re.compile(r"Whenever this creature attacks|all creatures able to block it do so|"
                            r"deals damage to an opponent")
#: Keywords whose combat rules the project doesn't play (CR 702.22, 702.25, 702.45, 702.83, 702.28, 702.36,
#: 702.13, 702.16, ...).
_UNPLAYED_KEYWORDS = ("banding", "bands with", "flanking", "bushido", "rampage", "exalted", "provoke", "battle cry",
                      "melee", "dethrone", "myriad", "mentor", "skulk", "ingest", "renown", "afflict", "annihilator",
                      "frenzy", "shadow", "horsemanship", "fear", "intimidate", "protection from")
_LANDWALK = re.compile(r"^\w+walk$")
_COMBAT_TRIGGERS = ("attacks", "blocks", "becomes blocked", "blocks or becomes blocked")


# --------------------------------------------------------------------------- reading the board
@lru_cache(maxsize=4096)
def _model(name):
    try:
        return reader.model(name) if isinstance(name, str) else None
    except cards.UnknownCardName:
        return None


def _objects(obs: dict) -> dict:
    return obs.get("objects") or {}


def _live(obs: dict, oid) -> dict | None:
    o = _objects(obs).get(oid) if isinstance(oid, str) else None
    return o if o is not None and o.get("zone") == "battlefield" else None


def _keywords(o: dict) -> frozenset[str]:
    return frozenset(str(k).lower() for k in (o.get("keywords") or ()))


def _is_creature(o: dict | None) -> bool:
    return o is not None and "Creature" in (o.get("types") or ())


@per_observation
def _attachments(obs: dict) -> dict[str, tuple[tuple[str, dict], ...]]:
    """(id, object) of the permanents attached to each object that have their abilities (a tapped
    continuous permanent has none), by the id of the object they are attached to, each in the order
    of ``obs``'s objects (a shared view, :mod:`.views`: one pass over the objects for every creature
    a combat check reads)."""
    found: dict[str, list[tuple[str, dict]]] = {}
    for aid, a in _objects(obs).items():
        host = a.get("attached_to")
        if isinstance(host, str) and a.get("zone") == "battlefield" \
                and not (a.get("tapped") and "Continuous" in (a.get("supertypes") or ())):
            found.setdefault(host, []).append((aid, a))
    return {host: tuple(pairs) for host, pairs in found.items()}


def _attached(obs: dict, oid: str) -> tuple[tuple[str, dict], ...]:
    """The permanents attached to ``oid`` that have their abilities (a tapped continuous permanent has none)."""
    return _attachments(obs).get(oid, ())


def _abilities_on(obs: dict, oid: str):
    """(ability, source name) of the card models' abilities that apply to creature ``oid``: its own and
    those of the Auras (scope ``enchanted``) and Equipment (``equipped``) attached to it."""
    o = _objects(obs)[oid]
    found = []
    model = _model(o.get("name"))
    if model is not None:
        found += [(a, o.get("name")) for a in model.abilities if a.affected is None or a.affected.scope == "self"]
    for _, a in _attached(obs, oid):
        scope = "equipped" if "Equipment" in (a.get("subtypes") or ()) else "enchanted"
        m = _model(a.get("name"))
        if m is not None:
            found += [(ab, a.get("name")) for ab in m.abilities if ab.affected is not None and ab.affected.scope == scope]
    return found


def restrictions(obs: dict, oid: str) -> frozenset[str]:
    """The restrictions on creature ``oid`` that engines claiming combat play, from the card data:
    ``"can't attack"`` (CR 508.1c), ``"can't block"``, ``"can't be blocked"`` (509.1b), its own and
    its Auras' and Equipment's (``cards.model.Ability.restrictions``), and Dog Umbra's while another
    player than the Aura's controller controls the creature."""
    found: set[str] = set()
    for ability, _ in _abilities_on(obs, oid):
        found.update(ability.restrictions)
    o = _objects(obs)[oid]
    for _, a in _attached(obs, oid):
        if _DOG_UMBRA.search(card_text(a.get("name"))) and a.get("controller") != o.get("controller"):
            found.update(("can't attack", "can't block"))
    return frozenset(found)


def unplayed(obs: dict, oid: str) -> str | None:
    """What of creature ``oid``'s combat abilities the project only reads (then an engine may rule
    either way), or None: a restriction without played restrictions, a requirement, a combat trigger,
    a keyword of banding, evasion or protection, a curated Aura's combat ability."""
    for ability, source in _abilities_on(obs, oid):
        if ability.static == "combat restriction" and not ability.restrictions:
            return f"{source}: {ability.text}"
        if ability.kind == "triggered" and ability.trigger in _COMBAT_TRIGGERS:
            return f"{source}: {ability.text}"
    o = _objects(obs)[oid]
    model = _model(o.get("name"))
    printed = model.keywords() if model is not None else frozenset()
    for keyword in _keywords(o) | printed:
        if keyword.startswith(_UNPLAYED_KEYWORDS) or _LANDWALK.match(keyword):
            return f"{o.get('name')}: {keyword}"
    for _, a in _attached(obs, oid):
        found = _UNPLAYED_TEXT.search(card_text(a.get("name")))
        if found:
            return f"{a.get('name')}: {found.group(0)}"
    return None


def requirement(obs: dict, player: str, which: str) -> str | None:
    """A creature ``player`` controls that ``which`` ("attacks", "blocks") each combat if able
    (CR 508.1d, 509.1c; not played), as its card's text, or None."""
    for oid, o in _objects(obs).items():
        if o.get("zone") != "battlefield" or o.get("controller") != player or not _is_creature(o):
            continue
        for ability, source in _abilities_on(obs, oid):
            found = re.search(r"(attacks|blocks|attacks or blocks) each combat if able", ability.text)
            if ability.static == "combat restriction" and found and which in found.group(1):
                return f"{source}: {ability.text}"
    return None


def in_combat(obs: dict) -> bool:
    """Whether a combat is in progress: a declared one, or a creature with a combat status."""
    return "combat" in obs or any(o.get("combat") is not None and o.get("zone") == "battlefield"
                                  for o in _objects(obs).values())


def attack_problem(obs: dict, oid, player: str) -> str | None:
    """Why ``oid`` can't attack for ``player`` (CR 508.1a, 508.1c, 302.6, 702.3b, 702.10c), or None."""
    o = _live(obs, oid)
    if o is None:
        return f"{oid!r} is not a permanent on the battlefield"
    if not _is_creature(o):
        return f"{oid} ({o['name']}) is not a creature (CR 506.3)"
    if o.get("controller") != player:
        return f"{oid} ({o['name']}) is controlled by {o.get('controller')}, not the attacking player {player} (CR 508.1a)"
    if o.get("tapped"):
        return f"{oid} ({o['name']}) is tapped (CR 508.1a)"
    if o.get("summoning_sick") and "haste" not in _keywords(o):
        return f"{oid} ({o['name']}) is summoning sick and has no haste (CR 302.6, 508.1a)"
    if "defender" in _keywords(o):
        return f"{oid} ({o['name']}) has defender (CR 702.3b)"
    if "can't attack" in restrictions(obs, oid):
        return f"{oid} ({o['name']}) can't attack, by its card or an attached card (CR 508.1c)"
    return None


def block_problem(obs: dict, blocker_id, attacker_id, defending: str) -> str | None:
    """Why ``blocker_id`` can't block ``attacker_id`` (CR 509.1a-b, 702.9b, 702.17b), or None."""
    b, a = _live(obs, blocker_id), _live(obs, attacker_id)
    if b is None:
        return f"{blocker_id!r} is not a permanent on the battlefield"
    if a is None or a.get("combat") != "attacking":
        return f"{blocker_id} blocks {attacker_id!r}, which is not an attacking creature (CR 509.1a)"
    name = f"{blocker_id} ({b['name']})"
    if not _is_creature(b):
        return f"{name} is not a creature (CR 506.3)"
    if b.get("controller") != defending:
        return f"{name} is controlled by {b.get('controller')}, not the defending player {defending} (CR 509.1a)"
    if b.get("tapped"):
        return f"{name} is tapped (CR 509.1a)"
    if "can't block" in restrictions(obs, blocker_id):
        return f"{name} can't block, by its card or an attached card (CR 509.1b)"
    if "can't be blocked" in restrictions(obs, attacker_id):
        return f"{name} blocks {attacker_id} ({a['name']}), which can't be blocked (CR 509.1b)"
    if "flying" in _keywords(a) and not {"flying", "reach"} & _keywords(b):
        return f"{name} has neither flying nor reach and blocks {attacker_id} ({a['name']}), which has flying " \
               f"(CR 702.9b, 702.17b)"
    return None


def _judged(t: Transition) -> bool:
    """Whether a refusal can be judged: the game isn't over (CR 104.3: no more events) and the stack
    is empty (a turn-based action waits for it)."""
    return not any(p.get("lost") for p in (t.before.get("players") or {}).values()) and not t.before.get("stack")


def _performed(t: Transition, kind: str) -> bool:
    return t.event.get("type") == kind and t.illegal is None and t.error is None



# --------------------------------------------------------------------------- declarations
def _attack_declaration(t: Transition) -> tuple[str, list[str]] | None:
    """The attacking player and the attackers of a declaration the invariants judge: distinct object
    ids by a player of a two-player game; None for any other."""
    player, ids = t.event.get("player"), t.event.get("attackers")
    players = t.before.get("players") or {}
    if player not in players or not isinstance(player, str) or not isinstance(ids, list) \
            or not all(isinstance(i, str) for i in ids) or len(set(ids)) != len(ids) or len(players) != 2:
        return None
    return player, ids


def _attack_refusal_judged(t: Transition, player: str, ids: list[str]) -> bool:
    """Whether refusing legal attackers is a bug: the refusal can be judged and no attacker has a combat
    ability the project only reads, nor must a creature of ``player`` attack each combat (CR 508.1d)."""
    return _judged(t) and not any(unplayed(t.before, oid) for oid in ids) \
        and not requirement(t.before, player, "attacks")


@invariant("combat.attack_legality", rules=("508.1a", "508.1c", "302.6", "702.3b", "702.10c", "511.3"),
           requires=COMBAT, on=("declare_attackers",))
def attack_legality(t: Transition):
    """An illegal declaration of attackers is refused and a legal one is performed.

    Attackers must be untapped creatures the attacking player controls, not summoning sick unless
    they have haste (CR 508.1a, 302.6, 702.10c), without defender (702.3b) or a "can't attack"
    restriction of their own or of an attached card (508.1c); no combat may be in progress (a new
    one begins once the last has ended, 511.3).
    """
    if t.event.get("type") != "declare_attackers" or t.error is not None:
        return None
    declared = _attack_declaration(t)
    if declared is None:
        return None
    player, ids = declared
    if in_combat(t.before):
        return [] if t.illegal else ["attackers were declared while a combat was in progress (creatures attacking "
                                     "or blocking; CR 511.3: it ends first)"]
    problems = [p for p in (attack_problem(t.before, oid, player) for oid in ids) if p]
    if problems:
        return [] if t.illegal else [f"an illegal declaration of attackers was performed: {problems[0]}"]
    if t.illegal and _attack_refusal_judged(t, player, ids):
        return [f"a legal declaration of attackers {ids} by {player} was refused ({t.illegal})"]
    return []


def _declared_attacker_problems(oid: str, before: dict, after: dict) -> list[str]:
    """A declared attacker is attacking (CR 508.1k) and tapped (508.1f) unless it has vigilance (702.20b)."""
    out = []
    if after.get("combat") != "attacking":
        out.append(f"{oid} ({before['name']}) was declared as an attacker but is {after.get('combat')} "
                   f"(CR 508.1k)")
    vigilance = "vigilance" in _keywords(before)
    if not vigilance and not after.get("tapped"):
        out.append(f"{oid} ({before['name']}) attacked without vigilance but is untapped (CR 508.1f)")
    if vigilance and after.get("tapped") != before.get("tapped"):
        out.append(f"{oid} ({before['name']}) has vigilance but attacking tapped it (CR 702.20b)")
    return out


@invariant("combat.attacking_taps", rules=("508.1f", "508.1k", "702.20b"), requires=COMBAT, on=("declare_attackers",))
def attacking_taps(t: Transition):
    """Declared attackers become attacking creatures and tapped, except those with vigilance.

    "The active player taps the chosen creatures." (CR 508.1f); "Attacking doesn't cause creatures
    with vigilance to tap." (702.20b); each becomes an attacking creature (508.1k). Nothing else
    taps or enters combat.
    """
    if not _performed(t, "declare_attackers"):
        return None
    ids = set(t.event.get("attackers") or ())
    out = []
    for oid, before in _objects(t.before).items():
        after = _live(t.after, oid)
        if after is None or before.get("zone") != "battlefield":
            continue  # (left by a state-based action the event's check performed)
        if oid in ids:
            out += _declared_attacker_problems(oid, before, after)
        elif after.get("tapped") != before.get("tapped") or after.get("combat") != before.get("combat"):
            out.append(f"{oid} ({before['name']}) didn't attack but its tapped/combat status changed "
                       f"{before.get('tapped')}/{before.get('combat')} -> {after.get('tapped')}/{after.get('combat')}")
    return out


def _declared_blocks(event: dict) -> dict[str, str] | None:
    """The event's blocks (blocker -> attacker), or None when they are not object ids."""
    blocks = event.get("blocks", {})
    if not isinstance(blocks, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in blocks.items()):
        return None
    return blocks


def _block_problems(obs: dict, blocks: dict[str, str], defending: str) -> list[str]:
    """Why the blocks are illegal (CR 509.1a-b, 702.9b, 702.17b; menace 702.111b)."""
    problems = [p for p in (block_problem(obs, b, a, defending) for b, a in blocks.items()) if p]
    for attacker in set(blocks.values()):
        o = _live(obs, attacker)
        if o is not None and "menace" in _keywords(o) and list(blocks.values()).count(attacker) == 1:
            problems.append(f"{attacker} ({o['name']}) has menace and is blocked by one creature (CR 702.111b)")
    return problems


def _block_refusal_judged(t: Transition, blocks: dict[str, str], defending: str) -> bool:
    """Whether refusing legal blocks is a bug: the refusal can be judged, no creature in the combat has
    a combat ability the project only reads, and no creature of ``defending`` must block (CR 509.1c)."""
    involved = [oid for oid, o in _objects(t.before).items() if o.get("zone") == "battlefield"
                and o.get("combat") == "attacking"] + list(blocks)
    return not (not _judged(t) or any(unplayed(t.before, oid) for oid in involved if _live(t.before, oid))
                or requirement(t.before, defending, "blocks"))


def _blockers_blocking(t: Transition, blocks: dict[str, str]) -> list[str]:
    """Each declared blocker is blocking its attacker (CR 509.1g); blocking taps nothing."""
    out = []
    after = _objects(t.after)
    for blocker, attacker in blocks.items():
        b = after.get(blocker) or {}
        if b.get("zone") == "battlefield" and (b.get("combat") != "blocking" or b.get("blocking") != attacker):
            out.append(f"{blocker} was declared blocking {attacker} but is {b.get('combat')}, blocking "
                       f"{b.get('blocking')!r} (CR 509.1g)")
        if b.get("tapped") != _objects(t.before)[blocker].get("tapped"):
            out.append(f"{blocker} became {'tapped' if b.get('tapped') else 'untapped'} by blocking (CR 509.1)")
    return out


def _attackers_blocked(t: Transition, blocks: dict[str, str]) -> list[str]:
    """Each attacker is blocked, by its blockers still blocking, exactly when it was blocked (CR 509.1h)."""
    out = []
    after = _objects(t.after)
    for oid, o in after.items():
        if o.get("zone") == "battlefield" and o.get("combat") == "attacking":
            expected = sorted(b for b, a in blocks.items() if a == oid and (after.get(b) or {}).get("combat") == "blocking")
            if o.get("blocked") is not (oid in blocks.values()) or sorted(o.get("blocked_by") or ()) != expected:
                out.append(f"{oid} ({o['name']}) is observed blocked={o.get('blocked')!r} by {o.get('blocked_by')!r}; "
                           f"declared blockers: {expected} (CR 509.1h)")
    return out


@invariant("combat.block_legality", rules=("509.1a", "509.1b", "509.1g", "509.1h", "702.9b", "702.17b", "702.111b"),
           requires=COMBAT, on=("declare_blockers",))
def block_legality(t: Transition):
    """An illegal declaration of blockers is refused, a legal one is performed, and the blocks are as declared.

    Blockers are untapped creatures of the defending player without a "can't block" restriction
    (CR 509.1a-b), each blocking an attacking creature: one with flying only if it has flying or
    reach (702.9b, 702.17b), none one that "can't be blocked", and a creature with menace by two or
    more (702.111b). Once performed, each blocker is blocking its attacker, which is blocked
    (509.1g-h); blocking taps nothing.
    """
    if t.event.get("type") != "declare_blockers" or t.error is not None:
        return None
    blocks = _declared_blocks(t.event)
    if blocks is None:
        return None
    combat = t.before.get("combat")
    if combat is None or combat.get("step") != "declare_attackers":
        return [] if t.illegal else [f"blockers were declared {'without declared attackers' if combat is None else 'at ' + str(combat.get('step'))} (CR 508.8, 509.1)"]
    defending = combat.get("defending_player")
    problems = _block_problems(t.before, blocks, defending)
    if problems:
        return [] if t.illegal else [f"an illegal declaration of blockers was performed: {problems[0]}"]
    if t.illegal:
        if not _block_refusal_judged(t, blocks, defending):
            return None
        return [f"a legal declaration of blockers {blocks} was refused ({t.illegal})"]
    return _blockers_blocking(t, blocks) + _attackers_blocked(t, blocks)
