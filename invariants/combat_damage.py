"""Combat damage (capability ``combat``; CR 510): the combat damage steps, the damage assignment
questions, the damage dealt, and lifelink.

Worked out, like :mod:`invariants.combat`, from the board before the event (the combatants, their
computed power, toughness, keywords and damage marked, the Auras attached to them), the
``damage_assignment`` decisions the attacking player answered (:mod:`harness.decisions`) and the
board after it; never from the engine's log.
"""

from __future__ import annotations

import re

from harness import decisions as D

from .base import Transition, invariant
from .card_abilities import card_text
from .combat import COMBAT, _attached, _is_creature, _keywords, _live, _model, _objects, _performed
from .views import per_observation

#: Treefolk Umbra: "Enchanted creature ... assigns combat damage equal to its toughness rather than its power."
_ASSIGNS_TOUGHNESS = re.compile(r"assigns combat damage equal to its toughness rather than its power")


def _has_first_strike(o: dict) -> bool:
    return bool({"first strike", "double strike"} & _keywords(o))


def _amount(obs: dict, oid: str) -> int:
    """The combat damage a creature assigns: its power (CR 510.1a), its toughness under Treefolk Umbra."""
    o = _objects(obs)[oid]
    if any(_ASSIGNS_TOUGHNESS.search(card_text(a.get("name"))) for _, a in _attached(obs, oid)
           if "Aura" in (a.get("subtypes") or ())):
        return o.get("toughness") or 0
    return o.get("power") or 0


def _in_combat_as(obs: dict, status: str) -> list[str]:
    """The permanents on the battlefield whose combat status is ``status`` ("attacking", "blocking"), sorted."""
    return sorted(oid for oid, o in _objects(obs).items() if o.get("zone") == "battlefield"
                  and o.get("combat") == status)


def _lethal_damage_to(blocker: dict, deathtouch: bool) -> int:
    """The damage lethal to ``blocker`` for a damage assignment (CR 510.1c-d, 702.19b): its toughness
    less the damage already marked on it; 1 from a source with deathtouch (702.2c)."""
    left = max(0, (blocker.get("toughness") or 0) - (blocker.get("damage") or 0))
    return min(left, 1) if deathtouch else left


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
        self.attackers = _in_combat_as(before, "attacking")
        self.blockers = _in_combat_as(before, "blocking")
        self.kind: str | None = None
        self.first_strikers: list[str] = []
        self.participants: list[str] = []
        self.defending: str = ""
        if combat is None or combat.get("step") == "combat_damage" or not (self.attackers or self.blockers):
            return
        self.defending = combat.get("defending_player")
        self._step(combat, _objects(before))
        self._assign(t)

    def _step(self, combat: dict, objects: dict) -> None:
        """Which combat damage step the event is, and the creatures that deal damage in it (CR 510.4)."""
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

    def _assign(self, t: Transition) -> None:
        """The damage each participant assigns (CR 510.1), the attackers' by the answered questions."""
        before = t.before
        queue = [d for d in t.decisions if d.kind == D.DAMAGE_ASSIGNMENT]
        for oid in self.attackers + self.blockers:
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
            attacking = _live(obs, attacker)
            return [(attacker, amount)] if attacking and attacking.get("combat") == "attacking" else []
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
        lethal = {b: _lethal_damage_to(_objects(obs)[b], deathtouch) for b in blockers}  # 702.2c, 702.19b
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


@per_observation
def _changes_life_or_damage(obs: dict) -> bool:
    """Whether a permanent has a triggered ability (not a combat one) that gains or loses life or deals
    damage: it may trigger in the same event (a creature dies), which these invariants don't predict
    (a shared view, :mod:`.views`: read once per observation by the three invariants that ask)."""
    for o in _objects(obs).values():
        model = _model(o.get("name")) if o.get("zone") == "battlefield" else None
        if model is not None and any(e.action in ("gain_life", "lose_life", "damage")
                                     for a in model.of("triggered") for e in a.effects):
            return True
    return False


def _step_observed(t: Transition, exp: _Expected) -> list[str]:
    """The combat is at the step after the one performed, with its first strikers (CR 510.4)."""
    combat = t.after.get("combat")
    want_step = "first_strike_damage" if exp.kind == "first" else "combat_damage"
    if combat is not None and (combat.get("step") != want_step
                               or (exp.kind == "first" and sorted(combat.get("first_strikers") or ()) != exp.first_strikers)):
        return [f"after a {exp.kind} combat damage step the combat is observed at {combat.get('step')!r} with first "
                f"strikers {combat.get('first_strikers')}; expected {want_step!r}"
                f"{' with ' + str(exp.first_strikers) if exp.kind == 'first' else ''} (CR 510.4)"]
    return []


def _dealt_in_the_wrong_step(t: Transition, exp: _Expected, recipient: str, observed: int, expected: int) -> list[str]:
    """The sources whose damage to ``recipient`` explains ``observed`` instead of ``expected``: one that
    deals none in the step dealt its damage, or one that deals damage in it dealt none (CR 510.4)."""
    out = []
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


@invariant("combat.damage_steps", rules=("510.4", "702.7b", "702.7c", "702.4b", "702.4c", "702.4d", "508.8"),
           requires=COMBAT, on=("combat_damage",))
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
    out = _step_observed(t, exp)
    if not exp.known or _changes_life_or_damage(t.before):
        return out
    for recipient, observed in _seen_damage(t).items():
        expected = exp.dealt.get(recipient, 0)
        if observed is not None and observed != expected:
            out += _dealt_in_the_wrong_step(t, exp, recipient, observed, expected)
    return out


def _life_lost(t: Transition, gains: dict[str, int]) -> dict[str, int | None]:
    """Each player's life lost; None for a player who gains life by lifelink (CR 702.15b)."""
    seen: dict[str, int | None] = {}
    for pid, p in (t.before.get("players") or {}).items():
        after = (t.after.get("players") or {}).get(pid) or {}
        if pid in gains:
            seen[pid] = None  # its lifelink gains are combat.lifelink's to check
        elif isinstance(p.get("life"), int) and isinstance(after.get("life"), int):
            seen[pid] = p["life"] - after["life"]
    return seen


def _dealt_lethal(t: Transition, exp: _Expected, oid: str, o: dict) -> bool:
    """Whether the expected damage is lethal to creature ``oid`` (CR 120.6, 704.5g; deathtouch 704.5h)."""
    dealt = exp.dealt.get(oid, 0)
    return bool(dealt) and (o.get("damage", 0) + dealt >= (o.get("toughness") or 0) or any(
        "deathtouch" in _keywords(_objects(t.before)[s]) for s, pairs in exp.by_source.items()
        for r, _ in pairs if r == oid))


def _saved(t: Transition, oid: str, before: dict, after: dict) -> bool:
    """Whether creature ``oid``, still on the battlefield, was saved from destruction in the event:
    regenerated (a shield used, CR 701.15a) or by umbra armor (an Aura attached to it left, 702.89a);
    either removes its damage."""
    if (after.get("regeneration_shields") or 0) < (before.get("regeneration_shields") or 0):
        return True
    return any(a.get("attached_to") == oid and a.get("zone") == "battlefield"
               and _live(t.after, aid) is None for aid, a in _objects(t.before).items())


def _damage_marked(t: Transition, exp: _Expected) -> dict[str, int | None]:
    """Each creature's damage marked; None for one that left the battlefield, or whose damage was
    removed when it was dealt lethal damage and saved (by umbra armor or regeneration). A creature
    dealt lethal damage that is still there with no damage and nothing that saved it was dealt none
    (CR 510.1c-d: a blocker is dealt the damage assigned to it)."""
    seen: dict[str, int | None] = {}
    for oid, o in _objects(t.before).items():
        if o.get("zone") != "battlefield" or not _is_creature(o):
            continue
        after = _live(t.after, oid)
        if after is None:
            seen[oid] = None
        elif _dealt_lethal(t, exp, oid, o) and after.get("damage") == 0 and "indestructible" not in _keywords(o) \
                and _saved(t, oid, o, after):
            seen[oid] = None  # saved by umbra armor or regeneration: its damage was removed
        else:
            seen[oid] = (after.get("damage") or 0) - (o.get("damage") or 0)
    return seen


def _seen_damage(t: Transition) -> dict[str, int | None]:
    """The damage each player and creature was dealt, as the boards show it: a player's life lost, a
    creature's damage marked; None where it can't be seen (a player who gains life by lifelink, CR
    702.15b; a creature that left the battlefield, or whose damage was removed when it was destroyed)."""
    seen = _life_lost(t, _lifelink_gains(t))
    seen.update(_damage_marked(t, expected_damage(t)))
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
@invariant("combat.damage_assignment", rules=("510.1c", "702.19b", "702.19d", "702.2c"), requires=COMBAT,
           on=("combat_damage",))
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
                                          "120.3"), requires=COMBAT, on=("combat_damage",))
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


@invariant("combat.lifelink", rules=("702.15b", "120.3f"), requires=COMBAT, on=("combat_damage",))
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

