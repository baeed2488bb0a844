"""Combat (capability ``combat``; CR 506-511): declarations, combat damage, removal from combat.

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
from harness import decisions as D

from .base import Transition, invariant
from .card_abilities import card_text

COMBAT = ("combat",)
_UMBRA_RULING = "Hyena Umbra 2010-06-15: Totem armor's effect is not regeneration"
#: Dog Umbra: "As long as another player controls enchanted creature, it can't attack or block."
_DOG_UMBRA = re.compile(r"As long as another player controls enchanted creature, it can't attack or block")
#: Treefolk Umbra: "Enchanted creature ... assigns combat damage equal to its toughness rather than its power."
_ASSIGNS_TOUGHNESS = re.compile(r"assigns combat damage equal to its toughness rather than its power")
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


def _attached(obs: dict, oid: str) -> list[tuple[str, dict]]:
    """The permanents attached to ``oid`` that have their abilities (a tapped continuous permanent has none)."""
    return [(aid, a) for aid, a in _objects(obs).items() if a.get("zone") == "battlefield" and a.get("attached_to") == oid
            and not (a.get("tapped") and "Continuous" in (a.get("supertypes") or ()))]


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
        if _UNPLAYED_TEXT.search(card_text(a.get("name"))):
            return f"{a.get('name')}: {_UNPLAYED_TEXT.search(card_text(a.get('name'))).group(0)}"
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
@invariant("combat.attack_legality", rules=("508.1a", "508.1c", "302.6", "702.3b", "702.10c", "511.3"),
           requires=COMBAT)
def attack_legality(t: Transition):
    """An illegal declaration of attackers is refused and a legal one is performed.

    Attackers must be untapped creatures the attacking player controls, not summoning sick unless
    they have haste (CR 508.1a, 302.6, 702.10c), without defender (702.3b) or a "can't attack"
    restriction of their own or of an attached card (508.1c); no combat may be in progress (a new
    one begins once the last has ended, 511.3).
    """
    event = t.event
    if event.get("type") != "declare_attackers" or t.error is not None:
        return None
    player, ids = event.get("player"), event.get("attackers")
    players = t.before.get("players") or {}
    if player not in players or not isinstance(ids, list) or not all(isinstance(i, str) for i in ids) \
            or len(set(ids)) != len(ids) or len(players) != 2:
        return None
    if in_combat(t.before):
        return [] if t.illegal else [f"attackers were declared while a combat was in progress (creatures attacking "
                                     f"or blocking; CR 511.3: it ends first)"]
    problems = [p for p in (attack_problem(t.before, oid, player) for oid in ids) if p]
    if problems:
        return [] if t.illegal else [f"an illegal declaration of attackers was performed: {problems[0]}"]
    if t.illegal and _judged(t) and not any(unplayed(t.before, oid) for oid in ids) \
            and not requirement(t.before, player, "attacks"):
        return [f"a legal declaration of attackers {ids} by {player} was refused ({t.illegal})"]
    return []


@invariant("combat.attacking_taps", rules=("508.1f", "508.1k", "702.20b"), requires=COMBAT)
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
            if after.get("combat") != "attacking":
                out.append(f"{oid} ({before['name']}) was declared as an attacker but is {after.get('combat')} "
                           f"(CR 508.1k)")
            vigilance = "vigilance" in _keywords(before)
            if not vigilance and not after.get("tapped"):
                out.append(f"{oid} ({before['name']}) attacked without vigilance but is untapped (CR 508.1f)")
            if vigilance and after.get("tapped") != before.get("tapped"):
                out.append(f"{oid} ({before['name']}) has vigilance but attacking tapped it (CR 702.20b)")
        else:
            if after.get("tapped") != before.get("tapped") or after.get("combat") != before.get("combat"):
                out.append(f"{oid} ({before['name']}) didn't attack but its tapped/combat status changed "
                           f"{before.get('tapped')}/{before.get('combat')} -> {after.get('tapped')}/{after.get('combat')}")
    return out


@invariant("combat.block_legality", rules=("509.1a", "509.1b", "509.1g", "509.1h", "702.9b", "702.17b", "702.111b"),
           requires=COMBAT)
def block_legality(t: Transition):
    """An illegal declaration of blockers is refused, a legal one is performed, and the blocks are as declared.

    Blockers are untapped creatures of the defending player without a "can't block" restriction
    (CR 509.1a-b), each blocking an attacking creature: one with flying only if it has flying or
    reach (702.9b, 702.17b), none one that "can't be blocked", and a creature with menace by two or
    more (702.111b). Once performed, each blocker is blocking its attacker, which is blocked
    (509.1g-h); blocking taps nothing.
    """
    event = t.event
    if event.get("type") != "declare_blockers" or t.error is not None:
        return None
    blocks = event.get("blocks", {})
    if not isinstance(blocks, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in blocks.items()):
        return None
    combat = t.before.get("combat")
    if combat is None or combat.get("step") != "declare_attackers":
        return [] if t.illegal else [f"blockers were declared {'without declared attackers' if combat is None else 'at ' + str(combat.get('step'))} (CR 508.8, 509.1)"]
    defending = combat.get("defending_player")
    problems = [p for p in (block_problem(t.before, b, a, defending) for b, a in blocks.items()) if p]
    for attacker in set(blocks.values()):
        o = _live(t.before, attacker)
        if o is not None and "menace" in _keywords(o) and list(blocks.values()).count(attacker) == 1:
            problems.append(f"{attacker} ({o['name']}) has menace and is blocked by one creature (CR 702.111b)")
    if problems:
        return [] if t.illegal else [f"an illegal declaration of blockers was performed: {problems[0]}"]
    involved = [oid for oid, o in _objects(t.before).items() if o.get("zone") == "battlefield"
                and o.get("combat") == "attacking"] + list(blocks)
    if t.illegal:
        if not _judged(t) or any(unplayed(t.before, oid) for oid in involved if _live(t.before, oid)) \
                or requirement(t.before, defending, "blocks"):
            return None
        return [f"a legal declaration of blockers {blocks} was refused ({t.illegal})"]
    out = []
    after = _objects(t.after)
    for blocker, attacker in blocks.items():
        b = after.get(blocker) or {}
        if b.get("zone") == "battlefield" and (b.get("combat") != "blocking" or b.get("blocking") != attacker):
            out.append(f"{blocker} was declared blocking {attacker} but is {b.get('combat')}, blocking "
                       f"{b.get('blocking')!r} (CR 509.1g)")
        if b.get("tapped") != _objects(t.before)[blocker].get("tapped"):
            out.append(f"{blocker} became {'tapped' if b.get('tapped') else 'untapped'} by blocking (CR 509.1)")
    for oid, o in after.items():
        if o.get("zone") == "battlefield" and o.get("combat") == "attacking":
            expected = sorted(b for b, a in blocks.items() if a == oid and (after.get(b) or {}).get("combat") == "blocking")
            if o.get("blocked") is not (oid in blocks.values()) or sorted(o.get("blocked_by") or ()) != expected:
                out.append(f"{oid} ({o['name']}) is observed blocked={o.get('blocked')!r} by {o.get('blocked_by')!r}; "
                           f"declared blockers: {expected} (CR 509.1h)")
    return out


# --------------------------------------------------------------------------- combat damage
def _has_first_strike(o: dict) -> bool:
    return bool({"first strike", "double strike"} & _keywords(o))


def _amount(obs: dict, oid: str) -> int:
    """The combat damage a creature assigns: its power (CR 510.1a), its toughness under Treefolk Umbra."""
    o = _objects(obs)[oid]
    if any(_ASSIGNS_TOUGHNESS.search(card_text(a.get("name"))) for _, a in _attached(obs, oid)
           if "Aura" in (a.get("subtypes") or ())):
        return o.get("toughness") or 0
    return o.get("power") or 0


class _Expected:
    """What a ``combat_damage`` event must do, from the board before it and the answered decisions.

    ``kind``: ``"first"`` (the first strike step), ``"regular"`` (the only step), ``"second"`` (the
    step after the first strike step), or None when the event must be refused. ``participants``:
    the creatures that deal damage. ``dealt``: recipient -> damage, ``by_source``: source ->
    [(recipient, n)]; ``problems``: how the damage assignment questions differ from the rules'
    (then ``dealt`` is not known: ``known`` False).
    """

    def __init__(self, t: Transition):
        before = t.before
        self.problems: list[str] = []
        self.known = True
        self.dealt: dict[str, int] = {}
        self.by_source: dict[str, list[tuple[str, int]]] = {}
        self.would: dict[str, list[tuple[str, int]]] = {}  # every combatant's damage by the simple rule (510.1b-d)
        combat = before.get("combat")
        objects = _objects(before)
        self.attackers = sorted(oid for oid, o in objects.items() if o.get("zone") == "battlefield"
                                and o.get("combat") == "attacking")
        self.blockers = sorted(oid for oid, o in objects.items() if o.get("zone") == "battlefield"
                               and o.get("combat") == "blocking")
        self.kind = None
        self.first_strikers: list[str] = []
        if combat is None or combat.get("step") == "combat_damage" or not (self.attackers or self.blockers):
            return
        self.defending = combat.get("defending_player")
        combatants = self.attackers + self.blockers
        if combat.get("step") in ("declare_attackers", "declare_blockers"):
            strikers = [o for o in combatants if _has_first_strike(objects[o])]
            self.kind = "first" if strikers else "regular"
            self.participants = strikers or combatants
            self.first_strikers = sorted(strikers)
        else:
            self.kind = "second"
            earlier = set(combat.get("first_strikers") or ())
            self.participants = [o for o in combatants if o not in earlier
                                 or "double strike" in _keywords(objects[o])]
        queue = [d for d in t.decisions if d.kind == D.DAMAGE_ASSIGNMENT]
        for oid in combatants:
            self.would[oid] = self._simple(before, oid)
        for oid in self.attackers:
            if oid in self.participants:
                self.by_source[oid] = self._attacker(before, oid, queue)
        for oid in self.blockers:
            if oid in self.participants:
                self.by_source[oid] = self.would[oid]
        if queue:
            self.problems.append(f"{len(queue)} damage_assignment question(s) beyond those the rules ask: "
                                 f"{[list(d.options)[:3] for d in queue[:2]]}")
        for pairs in self.by_source.values():
            for recipient, n in pairs:
                self.dealt[recipient] = self.dealt.get(recipient, 0) + n

    def _simple(self, obs: dict, oid: str) -> list[tuple[str, int]]:
        o = _objects(obs)[oid]
        amount = _amount(obs, oid)
        if amount <= 0:
            return []
        if o.get("combat") == "blocking":
            attacker = o.get("blocking")
            return [(attacker, amount)] if _live(obs, attacker) and _live(obs, attacker).get("combat") == "attacking" \
                else []
        blockers = list(o.get("blocked_by") or ())
        if not o.get("blocked"):
            return [(self.defending, amount)]
        if not blockers:
            return [(self.defending, amount)] if "trample" in _keywords(o) else []
        return [(blockers[0], amount)] if len(blockers) == 1 and "trample" not in _keywords(o) else []

    def _attacker(self, obs: dict, oid: str, queue: list) -> list[tuple[str, int]]:
        """CR 510.1c, 702.19b: the questions the attacking player must be asked, answered from ``queue``."""
        o = _objects(obs)[oid]
        amount = _amount(obs, oid)
        blockers = sorted(o.get("blocked_by") or ())
        if amount <= 0 or not o.get("blocked") or not blockers:
            return self.would[oid]
        keywords = _keywords(o)
        trample, deathtouch = "trample" in keywords, "deathtouch" in keywords
        lethal = {}
        for b in blockers:
            blocker = _objects(obs)[b]
            left = max(0, (blocker.get("toughness") or 0) - (blocker.get("damage") or 0))
            lethal[b] = min(left, 1) if deathtouch else left  # 702.2c, 702.19b
        controller = o.get("controller")
        found: list[tuple[str, int]] = []

        def ask(low, high, recipient):
            if low >= high:
                return low
            options = [D.damage_assignment_option(n, recipient) for n in range(low, high + 1)]
            if not queue:
                self.problems.append(f"{controller} was not asked how {oid} ({o['name']}, {amount} damage) assigns "
                                     f"damage to {recipient}: options {options[0]} .. {options[-1]} (CR 510.1c, "
                                     f"702.19b)")
                self.known = False
                return low
            d = queue.pop(0)
            if list(d.options) != options or d.player != controller:
                self.problems.append(f"{d.player} was asked {list(d.options)} for {oid} ({o['name']}, {amount} damage"
                                     f"{', trample' if trample else ''}{', deathtouch' if deathtouch else ''}); the "
                                     f"rules give {controller} {options} (CR 510.1c, 702.19b, 702.2c)")
                parsed = D.assigned_damage(d.answer)
                if parsed is None or parsed[1] != recipient or not low <= parsed[0] <= high:
                    self.known = False
                    return low
                return parsed[0]
            return D.assigned_damage(d.answer)[0]

        to_player = 0
        if trample and amount - sum(lethal.values()) > 0:
            to_player = ask(0, amount - sum(lethal.values()), self.defending)
        remaining = amount - to_player
        for i, b in enumerate(blockers):
            rest = blockers[i + 1:]
            if not rest:
                n = remaining
            else:
                low = lethal[b] if to_player else 0
                n = ask(low, remaining - (sum(lethal[r] for r in rest) if to_player else 0), b)
            remaining -= n
            if n:
                found.append((b, n))
        if to_player:
            found.append((self.defending, to_player))
        return found


_memo: list = [None, None]


def expected_damage(t: Transition) -> _Expected:
    """The :class:`_Expected` of a ``combat_damage`` transition (worked out once per transition)."""
    if _memo[0] is not t:
        _memo[:] = [t, _Expected(t)]
    return _memo[1]


def _changes_life_or_damage(obs: dict) -> bool:
    """Whether a permanent has a triggered ability (not a combat one) that gains or loses life or deals
    damage: it may trigger in the same event (a creature dies), which these invariants don't predict."""
    for o in _objects(obs).values():
        model = _model(o.get("name")) if o.get("zone") == "battlefield" else None
        if model is not None and any(e.action in ("gain_life", "lose_life", "damage")
                                     for a in model.of("triggered") for e in a.effects):
            return True
    return False


@invariant("combat.damage_steps", rules=("510.4", "702.7b", "702.7c", "702.4b", "702.4c", "702.4d", "508.8"),
           requires=COMBAT)
def damage_steps(t: Transition):
    """Combat damage steps: first strike and double strike creatures first, then the others and double strike again.

    "If at least one attacking or blocking creature has first strike or double strike as the combat
    damage step begins, the only creatures that assign combat damage in that step are those with
    first strike or double strike. ... The only creatures that assign combat damage in [the second]
    step are the remaining attackers and blockers that had neither first strike nor double strike as
    the first combat damage step began, as well as the remaining attackers and blockers that
    currently have double strike." (CR 510.4). No step without declared attackers (508.8), none after
    the last. Checked: which step the combat is at after, and that no creature dealt damage in a step
    it doesn't deal damage in (or dealt none in one it does), as the damage seen shows.
    """
    if t.event.get("type") != "combat_damage" or t.error is not None:
        return None
    exp = expected_damage(t)
    if exp.kind is None:
        return [] if t.illegal else ["a combat damage step was performed without declared attackers in combat or after "
                                     "the last combat damage step (CR 508.8, 510.4)"]
    if t.illegal:
        return None  # declined for what it doesn't model is Unsupported; refusing is for the differential to judge
    out = []
    combat = t.after.get("combat")
    want_step = "first_strike_damage" if exp.kind == "first" else "combat_damage"
    if combat is not None and (combat.get("step") != want_step
                               or (exp.kind == "first" and sorted(combat.get("first_strikers") or ()) != exp.first_strikers)):
        out.append(f"after a {exp.kind} combat damage step the combat is observed at {combat.get('step')!r} with first "
                   f"strikers {combat.get('first_strikers')}; expected {want_step!r}"
                   f"{' with ' + str(exp.first_strikers) if exp.kind == 'first' else ''} (CR 510.4)")
    if not exp.known or _changes_life_or_damage(t.before):
        return out
    seen = _seen_damage(t)
    for recipient, observed in seen.items():
        expected = exp.dealt.get(recipient, 0)
        if observed is None or observed == expected:
            continue
        for source, pairs in exp.would.items():
            part = sum(n for r, n in pairs if r == recipient)
            if not part:
                continue
            if source not in exp.participants and observed == expected + part:
                out.append(f"{source} ({_objects(t.before)[source]['name']}) dealt {part} damage to {recipient} in the "
                           f"{exp.kind} combat damage step, where it deals none (CR 510.4, 702.7b, 702.4b)")
            elif source in exp.participants and observed == expected - part:
                out.append(f"{source} ({_objects(t.before)[source]['name']}) dealt no damage to {recipient} in the "
                           f"{exp.kind} combat damage step, where it deals {part} (CR 510.4, 702.4b, 702.7c)")
    return out


def _seen_damage(t: Transition) -> dict[str, int | None]:
    """The damage each player and creature was dealt, as the boards show it: a player's life lost, a
    creature's damage marked; None where it can't be seen (a player who gains life by lifelink, CR
    702.15b; a creature that left the battlefield, or whose damage was removed when it was destroyed)."""
    exp = expected_damage(t)
    gains = _lifelink_gains(t)
    seen: dict[str, int | None] = {}
    for pid, p in (t.before.get("players") or {}).items():
        after = (t.after.get("players") or {}).get(pid) or {}
        if pid in gains:
            seen[pid] = None  # its lifelink gains are combat.lifelink's to check
        elif isinstance(p.get("life"), int) and isinstance(after.get("life"), int):
            seen[pid] = p["life"] - after["life"]
    for oid, o in _objects(t.before).items():
        if o.get("zone") != "battlefield" or not _is_creature(o):
            continue
        after = _live(t.after, oid)
        if after is None:
            seen[oid] = None
            continue
        change = (after.get("damage") or 0) - (o.get("damage") or 0)
        dealt = exp.dealt.get(oid, 0)
        lethal = dealt and (o.get("damage", 0) + dealt >= (o.get("toughness") or 0) or any(
            "deathtouch" in _keywords(_objects(t.before)[s]) for s, pairs in exp.by_source.items()
            for r, _ in pairs if r == oid))
        if lethal and after.get("damage") == 0 and "indestructible" not in _keywords(o):
            seen[oid] = None  # destroyed, saved by umbra armor or regeneration: its damage was removed
        else:
            seen[oid] = change
    return seen


def _lifelink_gains(t: Transition) -> dict[str, int]:
    """Life each player gains from lifelink sources by the expected damage (CR 702.15b)."""
    exp = expected_damage(t)
    gains: dict[str, int] = {}
    for source, pairs in exp.by_source.items():
        o = _objects(t.before)[source]
        total = sum(n for _, n in pairs)
        if total and "lifelink" in _keywords(o):
            gains[o.get("controller")] = gains.get(o.get("controller"), 0) + total
    return gains


@invariant("combat.damage_assignment", rules=("510.1c", "702.19b", "702.19d", "702.2c"), requires=COMBAT)
def damage_assignment(t: Transition):
    """A blocked attacker's damage is divided as its controller chooses, among the choices the rules allow.

    "If two or more creatures are blocking it, it assigns its combat damage to those creatures
    divided as its controller chooses among them." (CR 510.1c; no damage assignment order). With
    trample, excess over lethal damage to all its blockers may go to the defending player (702.19b;
    lethal: toughness minus damage marked, 1 from a source with deathtouch, 702.2c). The questions
    are ``damage_assignment``'s (:mod:`harness.decisions`): asked exactly where there is a choice,
    with exactly the amounts allowed.
    """
    if not _performed(t, "combat_damage"):
        return None
    exp = expected_damage(t)
    if exp.kind is None:
        return None
    if D.unknown_asked(t.decisions) and exp.problems:
        return None  # the engine may have asked under a kind the table doesn't know
    return list(exp.problems)


@invariant("combat.damage_totals", rules=("510.1a", "510.1b", "510.1c", "510.1d", "510.2", "702.19b", "702.19d",
                                          "120.3"), requires=COMBAT)
def damage_totals(t: Transition):
    """Each player and creature is dealt the combat damage the rules assign, and no other creature any.

    Each attacking and blocking creature that deals damage in the step assigns its power (CR
    510.1a): an unblocked attacker all of it to the defending player (510.1b), a blocked one to
    its blockers as its controller chose, or with trample the rest after lethal damage to the
    player (702.19b), all of it to the player when nothing blocks it any more (702.19d), nothing
    without trample (510.1c); a blocker to the attacker it blocks (510.1d). Seen as life lost (a
    player who gains life by lifelink is combat.lifelink's) and damage marked (a creature
    destroyed and saved by umbra armor or regeneration aside).
    """
    if not _performed(t, "combat_damage"):
        return None
    exp = expected_damage(t)
    if exp.kind is None or not exp.known or _changes_life_or_damage(t.before):
        return None
    out = []
    for recipient, observed in _seen_damage(t).items():
        expected = exp.dealt.get(recipient, 0)
        if observed is not None and observed != expected:
            what = "player" if recipient in (t.before.get("players") or {}) else \
                f"creature ({_objects(t.before)[recipient]['name']})"
            out.append(f"{what} {recipient} was dealt {observed} combat damage in the {exp.kind} step; the rules "
                       f"assign it {expected} ({', '.join(f'{s}: {n}' for s, ps in exp.by_source.items() for r, n in ps if r == recipient) or 'none'})")
    return out


@invariant("combat.lifelink", rules=("702.15b", "120.3f"), requires=COMBAT)
def lifelink(t: Transition):
    """Combat damage dealt by a source with lifelink makes its controller gain that much life.

    "Damage dealt by a source with lifelink causes that source's controller ... to gain that much
    life" (CR 702.15b): the total each lifelink source dealt in the step, whatever it was dealt to.
    Seen as the controller's life change: the gains less the combat damage they were dealt.
    """
    if not _performed(t, "combat_damage"):
        return None
    exp = expected_damage(t)
    if exp.kind is None or not exp.known or _changes_life_or_damage(t.before):
        return None
    gains = _lifelink_gains(t)
    if not gains:
        return None
    out = []
    for pid, gain in gains.items():
        before = (t.before.get("players") or {}).get(pid, {}).get("life")
        after = (t.after.get("players") or {}).get(pid, {}).get("life")
        if not isinstance(before, int) or not isinstance(after, int):
            continue
        expected = before - exp.dealt.get(pid, 0) + gain
        if after != expected:
            out.append(f"{pid} controls lifelink sources that dealt {gain} combat damage and was dealt "
                       f"{exp.dealt.get(pid, 0)}: life {before} -> {expected} expected, observed {after} (CR 702.15b)")
    return out


# --------------------------------------------------------------------------- removal from combat
@invariant("combat.removal_from_combat", rules=("506.4", "701.15a", "509.1h", "511.3"), rulings=(_UMBRA_RULING,),
           requires=COMBAT)
def removal_from_combat(t: Transition):
    """A creature stays in combat until it is removed: it leaves, changes control or regenerates (506.4).

    "A permanent is removed from combat if it leaves the battlefield, if its controller changes, ...
    if an effect specifically removes it from combat, ... or if it's an attacking or blocking
    creature that regenerates" (CR 506.4, 701.15a). Umbra armor's effect is not regeneration: the
    saved creature "is not removed from combat" (ruling). Otherwise it keeps its status, a blocker
    keeps blocking its attacker while that one attacks, and a blocked attacker stays blocked (509.1h).
    end_of_combat removes every creature (511.3).
    """
    if "combat" not in t.before or t.illegal is not None or t.error is not None:
        return None
    kind = t.event.get("type")
    out = []
    before_objs, after_objs = _objects(t.before), _objects(t.after)
    if kind in ("end_of_combat", "cleanup"):
        if kind == "end_of_combat":
            out += [f"{oid} ({o['name']}) is still {o['combat']} after the end of combat (CR 511.3)"
                    for oid, o in after_objs.items() if o.get("zone") == "battlefield" and o.get("combat")]
            if "combat" in t.after:
                out.append("a combat is still observed after end_of_combat (CR 511.3)")
        return out
    for oid, before in before_objs.items():
        status = before.get("combat")
        if before.get("zone") != "battlefield" or status is None:
            continue
        after = _live(t.after, oid)
        if after is None or not _is_creature(after):
            continue
        if kind == "set_combat" and t.event.get("object") == oid:
            continue
        regenerated = (after.get("regeneration_shields") or 0) < (before.get("regeneration_shields") or 0)
        if after.get("controller") != before.get("controller") or regenerated:
            if after.get("combat") is not None:
                why = "changed control" if after.get("controller") != before.get("controller") else "regenerated"
                out.append(f"{oid} ({before['name']}) {why} but is still {after['combat']} (CR 506.4, 701.15a)")
            continue
        saved = [aid for aid, a in before_objs.items() if a.get("attached_to") == oid and a.get("zone") == "battlefield"
                 and (after_objs.get(aid) or {}).get("zone") != "battlefield"]
        if after.get("combat") != status:
            because = f" (its Aura {saved[0]} left: umbra armor saved it, which is not regeneration)" if saved else ""
            out.append(f"{oid} ({before['name']}) was {status} and is {after.get('combat')} without leaving the "
                       f"battlefield, changing control or regenerating{because} (CR 506.4)")
            continue
        attacker = before.get("blocking")
        if status == "blocking" and attacker and (_live(t.after, attacker) or {}).get("combat") == "attacking" \
                and after.get("blocking") != attacker:
            out.append(f"{oid} ({before['name']}) blocked {attacker} and is observed blocking {after.get('blocking')!r} "
                       f"while {attacker} still attacks (CR 509.1g, 506.4)")
        if status == "attacking" and before.get("blocked") is True and after.get("blocked") is not True:
            out.append(f"{oid} ({before['name']}) was blocked and is observed blocked={after.get('blocked')!r}: it "
                       f"stays blocked while it attacks (CR 509.1h)")
    return out
