"""Combat (CR 506-511): declared attackers and blockers, combat damage steps, end of combat.

Four events (capability ``combat``), each one turn-based action of the combat phase:

* ``{"type": "declare_attackers", "player": P, "attackers": [ID...]}`` (CR 508.1): P, the
  attacking player, declares the creatures P controls that attack the other player, the
  defending player (506.2; a two-player game). Each must be untapped and not summoning sick
  unless it has haste (508.1a, 302.6, 702.10c), have no defender (702.3b) and no "can't attack"
  restriction (508.1c: its own, an Aura's or an Equipment's, Dog Umbra's while another player
  controls the creature). Attacking taps each of them, except those with vigilance (508.1f,
  702.20b); they become attacking creatures (508.1k). An empty list declares no attackers
  (508.8: no blockers and no combat damage follow).
* ``{"type": "declare_blockers", "blocks": {BLOCKER: ATTACKER}}`` (CR 509.1): the defending
  player's untapped creatures without a "can't block" restriction each block one attacking
  creature (509.1a-b) that can be blocked by it: a creature with flying only by creatures with
  flying or reach (702.9b, 702.17b), one with menace by two or more (702.111b), one that
  "can't be blocked" by none. An attacking creature with a blocker becomes blocked (509.1h)
  and stays blocked if its blockers leave combat.
* ``{"type": "combat_damage"}``: one combat damage step (CR 510). The first one is the first
  strike step when an attacking or blocking creature has first strike or double strike (510.4,
  702.7b, 702.4b): only those deal damage; then the regular step, where those that had neither
  as the first step began and those with double strike now deal damage (702.4c-d, 702.7c).
  Without blockers declared, no creature blocks. Each creature assigns combat damage equal to
  its power (510.1a; Treefolk Umbra's creature: its toughness), an unblocked attacker to the
  defending player (510.1b), a blocked one to its blockers, divided as its controller chooses
  (510.1c; decider kind ``damage_assignment``, :mod:`harness.decisions`); with trample, excess
  over lethal damage (1 from a source with deathtouch, 702.2c) may go to the player (702.19b),
  all of it when no creature blocks it any more (702.19d). A blocker assigns its damage to the
  creature it blocks (510.1d). The damage is dealt at once (510.2): deathtouch, lifelink (one
  life gain per source, 702.15b); state-based actions follow (704.3, in ``Game.apply``).
* ``{"type": "end_of_combat"}``: the end of combat step ends (CR 511.3): every creature is
  removed from combat.

A combat lasts from ``declare_attackers`` while one of its attackers or blockers is still in
combat: until ``end_of_combat``, ``cleanup`` (514: the combat phase is over) or all of them have
left combat. While one is in progress no other begins (``combat_in_progress``) and
``set_combat`` may only remove a creature from combat (506.4). A creature is removed from
combat when it leaves the battlefield, changes controller or regenerates (506.4, 701.15a); umbra
armor doesn't remove it (its ruling, Hyena Umbra 2010-06-15). Combat statuses of the board or of
``set_combat`` outside a declared combat (capability ``combat_status``) are no declared combat:
``declare_attackers`` is refused while any creature has one (``end_of_combat`` clears them).

Declined (``Unsupported``), since not modelled: more than two players (506.2a), a defending player
who controls a planeswalker or battle (508.1b), banding and the other combat keywords that only
trigger or restrict in combat (flanking, bushido, exalted, shadow, fear, intimidate, landwalk,
...), protection (702.16e-f), combat restrictions and requirements other than "can't attack",
"can't block" and "can't be blocked" ("attacks each combat if able", Indrik Umbra's "all creatures
able to block it do so"), combat triggers ("Whenever ~ attacks", Bear and Octopus Umbra's; Snake
Umbra's damage trigger).

Written as the :class:`CombatRules` mixin of :class:`reference_engine.game.Game`, so a fork can
override one step (:meth:`CombatRules.attack_problem`, :meth:`CombatRules.assign_combat_damage`,
:meth:`CombatRules.deal_combat_damage`, ...).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import re

from harness import decisions as D
from .errors import IllegalAction, Unsupported
from .layers import characteristics
from .model_targets import mark_damage
from .objects import BATTLEFIELD, GameObject
from .records import DECLARE_ATTACKERS, Combat

if TYPE_CHECKING:
    from .game_base import GameBase
    from .shapes import ObservedCombat
else:
    GameBase = object  # the declared base is for the type checker only (reference_engine.game_base)

DECLARE_BLOCKERS = "declare_blockers"
FIRST_STRIKE_DAMAGE, COMBAT_DAMAGE = "first_strike_damage", "combat_damage"

#: Keyword abilities that matter only in combat and are not modelled: the example is declined
#: where they would matter (CR 702.22 banding, 702.25 flanking, 702.45 bushido, 702.83 exalted,
#: 702.28 shadow, 702.36 fear, 702.13 intimidate, ...).
UNMODELLED_COMBAT_KEYWORDS = ("banding", "bands with", "flanking", "bushido", "rampage", "exalted", "provoke",
                              "battle cry", "melee", "dethrone", "myriad", "mentor", "skulk", "ingest", "renown",
                              "afflict", "annihilator", "frenzy", "shadow", "horsemanship", "fear", "intimidate",
                              "protection from")
#: The triggers of card models that trigger in combat (CR 508.3a, 509.3a-c): not modelled.
COMBAT_TRIGGERS = ("attacks", "blocks", "becomes blocked", "blocks or becomes blocked")
_LANDWALK = re.compile(r"^\w+walk$")
#: Abilities of curated Auras (read from the Aura's Oracle text) that the engine doesn't model in combat.
_UNMODELLED_TEXT = (
    (re.compile(r"Whenever this creature attacks"), "ability:combat trigger"),  # Bear Umbra, Octopus Umbra
    (re.compile(r"all creatures able to block it do so"), "ability:combat requirement"),  # Indrik Umbra
    (re.compile(r"deals damage to an opponent"), "ability:damage trigger"),  # Snake Umbra
)
#: "Enchanted creature ... assigns combat damage equal to its toughness rather than its power" (Treefolk Umbra).
_ASSIGNS_TOUGHNESS = re.compile(r"assigns combat damage equal to its toughness rather than its power")
#: A requirement to attack or block (CR 508.1d, 509.1c), read from a card model's restriction text.
_REQUIREMENT = re.compile(r"(attacks|blocks|attacks or blocks) each combat if able")


def _ids(value, what: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(i, str) and i for i in value) or len(set(value)) != len(value):
        raise IllegalAction("bad_event", f"{what}: expected a list of distinct object ids, got {value!r}")
    return value


class CombatRules(GameBase):
    """Combat, a mixin of :class:`reference_engine.game.Game` (see the module docstring)."""

    combat_state: Combat | None = None

    # ------------------------------------------------------------------ queries
    def current_combat(self) -> Combat | None:
        """The declared combat in progress: one with a declared attacker or blocker still in combat
        (once all have left combat, CR 506.4, or combat statuses were cleared, it is over)."""
        state = self.combat_state
        if state is None:
            return None
        for attacker in state.attackers:
            if self._in_combat(attacker, "attacking"):
                return state
        for blocker in state.blocks:
            if self._in_combat(blocker, "blocking"):
                return state
        self.combat_state = None
        return None

    def combat_in_progress(self) -> bool:
        """Whether a creature is in combat (a declared combat or combat statuses, CR 506.4)."""
        return self.current_combat() is not None or any(o.combat is not None for o in self.battlefield())

    def _in_combat(self, oid: str, status: str) -> GameObject | None:
        obj = self.objects.get(oid)
        return obj if obj is not None and obj.zone == BATTLEFIELD and obj.combat == status else None

    def attacking_creatures(self) -> list[GameObject]:
        """The declared attackers still attacking (CR 506.4), in id order."""
        state = self.current_combat()
        if state is None:
            return []
        return [o for o in (self._in_combat(a, "attacking") for a in sorted(state.attackers)) if o is not None]

    def blocking_creatures(self) -> list[GameObject]:
        """The declared blockers still blocking, in id order."""
        state = self.combat_state
        if state is None:
            return []
        return [o for o in (self._in_combat(b, "blocking") for b in sorted(state.blocks)) if o is not None]

    def blockers_of(self, attacker_id: str) -> list[str]:
        """Ids of the creatures blocking ``attacker_id`` now, sorted (CR 509.1g, 506.4)."""
        state = self.combat_state
        if state is None or self._in_combat(attacker_id, "attacking") is None:
            return []
        return sorted(b for b, a in state.blocks.items() if a == attacker_id and self._in_combat(b, "blocking"))

    def blocked_attacker(self, blocker_id: str) -> str | None:
        """The attacking creature ``blocker_id`` blocks, if both are still in combat (CR 510.1d)."""
        state = self.combat_state
        if state is None or self._in_combat(blocker_id, "blocking") is None:
            return None
        attacker = state.blocks.get(blocker_id)
        return attacker if attacker is not None and self._in_combat(attacker, "attacking") else None

    def is_blocked(self, attacker_id: str) -> bool | None:
        """CR 509.1h: whether a blocker was declared for it (None before blockers are declared)."""
        state = self.combat_state
        if state is None or not state.blockers_declared:
            return None
        return attacker_id in state.blocks.values()

    def combat_keywords(self, obj: GameObject) -> frozenset[str]:
        """Every keyword ability ``obj`` has: its characteristics' (printed and granted, CR 613.1f)
        and its card's Oracle keywords, including those the engine only reads (landwalk, bushido N)."""
        model = self.copiable_values(obj)[1].model
        found = set(characteristics(self, obj).keywords) | set(self.copiable_values(obj)[0].keywords)
        if model is not None:
            found |= model.keywords()
        return frozenset(found)

    def _combat_abilities(self, obj: GameObject):
        """(ability, source) of the card models' abilities that apply to ``obj`` in combat: its own
        (scope ``self``) and those of the Auras and Equipment attached to it that have their
        abilities (scope ``enchanted`` / ``equipped``, CR 611.3a)."""
        found = []
        model = self.copiable_values(obj)[1].model
        if model is not None:
            found += [(a, obj) for a in model.abilities if a.affected is None or a.affected.scope == "self"]
        for attached in self.attached_to(obj.id):
            if not self.has_abilities(attached):
                continue
            definition, script = self.copiable_values(attached)
            scope = "equipped" if "Equipment" in definition.subtypes else "enchanted"
            if script.model is not None:
                found += [(a, attached) for a in script.model.abilities
                          if a.affected is not None and a.affected.scope == scope]
        return found

    def combat_restrictions(self, obj: GameObject) -> set[str]:
        """The restrictions on ``obj`` that the engine plays (CR 508.1c, 509.1b): ``"can't attack"``,
        ``"can't block"``, ``"can't be blocked"``, from card models (``Ability.restrictions``) and
        Dog Umbra ("As long as another player controls enchanted creature, it can't attack or block")."""
        found: set[str] = set()
        for ability, _ in self._combat_abilities(obj):
            found.update(ability.restrictions)
        for aura in self.attached_to(obj.id):
            if self.copiable_values(aura)[1].umbra_armor_unless_opponent_controls and aura.controller != obj.controller:
                found.update(("can't attack", "can't block"))
        return found

    def unmodelled_in_combat(self, obj: GameObject) -> tuple[str, str] | None:
        """``(reason, what)`` when ``obj`` has a combat ability the engine doesn't model (a combat
        trigger, a restriction or requirement it doesn't play, a keyword of
        :data:`UNMODELLED_COMBAT_KEYWORDS`, landwalk), else None."""
        for ability, source in self._combat_abilities(obj):
            if ability.kind == "triggered" and ability.trigger in COMBAT_TRIGGERS:
                return "ability:combat trigger", f"{source.card.name}: {ability.text!r}"
            if ability.static == "combat restriction" and not ability.restrictions:
                return "ability:combat restriction", f"{source.card.name}: {ability.text!r}"
        for keyword in sorted(self.combat_keywords(obj)):
            if keyword.startswith(UNMODELLED_COMBAT_KEYWORDS) or _LANDWALK.match(keyword):
                return ("ability:banding" if keyword.startswith("band") else "ability:evasion"
                        if not keyword.startswith("protection") else "ability:protection"), \
                    f"{obj.card.name}: {keyword} (not modelled in combat)"
        for aura in self.attached_to(obj.id):
            text = self.copiable_values(aura)[0].oracle_text
            for pattern, reason in _UNMODELLED_TEXT:
                if pattern.search(text):
                    return reason, f"{aura.card.name}: {pattern.pattern!r}"
        return None

    def _requirement(self, player: str, which: str) -> GameObject | None:
        """A creature ``player`` controls with a requirement to ``which`` ("attacks", "blocks") each
        combat if able (CR 508.1d, 509.1c), not modelled."""
        for obj in self.battlefield():
            if obj.controller != player or not characteristics(self, obj).is_creature:
                continue
            for ability, _ in self._combat_abilities(obj):
                found = _REQUIREMENT.search(ability.text) if ability.static == "combat restriction" else None
                if found and which in found.group(1):
                    return obj
        return None

    def combat_damage_amount(self, obj: GameObject) -> int:
        """The combat damage ``obj`` assigns: its power (CR 510.1a), or its toughness while an Aura
        attached to it says so (Treefolk Umbra)."""
        ch = characteristics(self, obj)
        if any(_ASSIGNS_TOUGHNESS.search(self.copiable_values(a)[0].oracle_text) for a in self.attached_to(obj.id)
               if "Aura" in self.copiable_values(a)[0].subtypes):
            return ch.toughness or 0
        return ch.power or 0

    def lethal_damage(self, obj: GameObject, deathtouch: bool) -> int:
        """Lethal damage for ``obj`` in a damage assignment: its toughness minus the damage marked
        on it (CR 702.19b), at most 1 from a source with deathtouch (702.2c)."""
        left = max(0, (characteristics(self, obj).toughness or 0) - obj.damage)
        return min(left, 1) if deathtouch else left

    # ------------------------------------------------------------------ validation
    def attack_problem(self, obj: GameObject, player: str) -> str | None:
        """Why ``obj`` can't attack for ``player`` (CR 508.1a, 508.1c, 302.6, 702.3b), or None."""
        ch = characteristics(self, obj)
        if not ch.is_creature:
            return "is not a creature (CR 506.3)"
        if obj.controller != player:
            return f"is controlled by {obj.controller}, not the attacking player {player} (CR 508.1a)"
        if obj.tapped:
            return "is tapped (CR 508.1a)"
        if obj.summoning_sick and "haste" not in ch.keywords:
            return "is summoning sick and has no haste (CR 302.6, 508.1a)"
        if "defender" in ch.keywords:
            return "has defender (CR 702.3b)"
        if "can't attack" in self.combat_restrictions(obj):
            return "can't attack (CR 508.1c)"
        return None

    def block_problem(self, blocker: GameObject, attacker: GameObject, defending: str) -> str | None:
        """Why ``blocker`` can't block ``attacker`` (CR 509.1a-b, 702.9b, 702.17b), or None;
        menace is a rule of the whole declaration (:meth:`validate_blocks`)."""
        ch = characteristics(self, blocker)
        if not ch.is_creature:
            return "is not a creature (CR 506.3)"
        if blocker.controller != defending:
            return f"is controlled by {blocker.controller}, not the defending player {defending} (CR 509.1a)"
        if blocker.tapped:
            return "is tapped (CR 509.1a)"
        if "can't block" in self.combat_restrictions(blocker):
            return "can't block (CR 509.1b)"
        if "can't be blocked" in self.combat_restrictions(attacker):
            return f"blocks {attacker.id!r}, which can't be blocked (CR 509.1b)"
        if "flying" in characteristics(self, attacker).keywords and not {"flying", "reach"} & ch.keywords:
            return f"has neither flying nor reach and blocks {attacker.id!r}, which has flying (CR 702.9b)"
        return None

    def validate_attackers(self, player, ids) -> list[GameObject]:
        """The attackers of a ``declare_attackers`` event; IllegalAction or Unsupported otherwise."""
        if not isinstance(player, str) or player not in self.players:
            raise IllegalAction("bad_event", f"player={player!r} is not a player")
        if len(self.players) != 2:
            raise Unsupported("combat:multiplayer", "combat with more than two players is not modelled (CR 506.2a)")
        if self.combat_in_progress():
            raise IllegalAction("combat_in_progress", "a combat is in progress (end_of_combat first, CR 511.3)")
        attackers = []
        for oid in _ids(ids, "attackers"):
            obj = self.objects.get(oid)
            if obj is None or obj.zone != BATTLEFIELD:
                raise IllegalAction("illegal_attack", f"{oid!r} is not a permanent on the battlefield")
            problem = self.attack_problem(obj, player)
            if problem:
                raise IllegalAction("illegal_attack", f"{oid!r} ({obj.card.name}) {problem}")
            attackers.append(obj)
        defending = self.defending_player(player)
        if attackers and any(o.controller == defending and {"Planeswalker", "Battle"} & set(characteristics(self, o).types)
                             for o in self.battlefield()):
            raise Unsupported("combat:planeswalker", "the defending player controls a planeswalker or battle that "
                                                     "could be attacked (CR 508.1b, not modelled)")
        for obj in attackers:
            unmodelled = self.unmodelled_in_combat(obj)
            if unmodelled:
                raise Unsupported(*unmodelled)
        required = self._requirement(player, "attacks")
        if required is not None:
            raise Unsupported("ability:combat requirement", f"{required.card.name} attacks each combat if able "
                                                            f"(CR 508.1d, not modelled)")
        if len(attackers) == 1 and any(o.controller == player and "exalted" in self.combat_keywords(o)
                                       for o in self.battlefield()):
            raise Unsupported("ability:evasion", "exalted would trigger (a creature attacks alone; not modelled)")
        return attackers

    def defending_player(self, attacking: str) -> str:
        """The other player of a two-player game (CR 506.2)."""
        return next(p for p in self.players if p != attacking)

    def validate_blocks(self, blocks) -> dict[str, str]:
        """The blocks of a ``declare_blockers`` event; IllegalAction or Unsupported otherwise."""
        state = self.current_combat()
        if state is None or not state.attackers:
            raise IllegalAction("no_attackers", "no attackers were declared: no declare blockers step (CR 508.8)")
        if state.step != DECLARE_ATTACKERS:
            raise IllegalAction("wrong_step", f"blockers are declared once, after attackers (CR 509.1); the combat is "
                                              f"at {state.step}")
        if not isinstance(blocks, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in blocks.items()):
            raise IllegalAction("bad_event", f"blocks: expected a map of blocker id to attacker id, got {blocks!r}")
        defending = state.defending_player
        for blocker_id, attacker_id in blocks.items():
            self._check_block(state, blocker_id, attacker_id)
        for attacker_id in set(blocks.values()):
            count = sum(1 for a in blocks.values() if a == attacker_id)
            if count == 1 and "menace" in characteristics(self, self.objects[attacker_id]).keywords:
                raise IllegalAction("illegal_block", f"{attacker_id!r} has menace and is blocked by one creature "
                                                     f"(CR 702.111b)")
        for obj in self.attacking_creatures() + [self.objects[b] for b in sorted(blocks)]:
            unmodelled = self.unmodelled_in_combat(obj)
            if unmodelled:
                raise Unsupported(*unmodelled)
        required = self._requirement(defending, "blocks")
        if required is not None:
            raise Unsupported("ability:combat requirement", f"{required.card.name} blocks each combat if able "
                                                            f"(CR 509.1c, not modelled)")
        return dict(blocks)

    def _check_block(self, state: Combat, blocker_id: str, attacker_id: str) -> None:
        """One block of a ``declare_blockers`` event: a permanent blocking an attacking creature
        it may block (CR 509.1a, :meth:`block_problem`); IllegalAction otherwise."""
        blocker = self.objects.get(blocker_id)
        if blocker is None or blocker.zone != BATTLEFIELD:
            raise IllegalAction("illegal_block", f"{blocker_id!r} is not a permanent on the battlefield")
        attacker = self._in_combat(attacker_id, "attacking")
        if attacker is None or attacker_id not in state.attackers:
            raise IllegalAction("illegal_block", f"{blocker_id!r} blocks {attacker_id!r}, which is not an attacking "
                                                 f"creature (CR 509.1a)")
        problem = self.block_problem(blocker, attacker, state.defending_player)
        if problem:
            raise IllegalAction("illegal_block", f"{blocker_id!r} ({blocker.card.name}) {problem}")

    def validate_combat_damage(self) -> None:
        """A combat damage step can happen now (CR 508.8, 510.4); IllegalAction or Unsupported otherwise."""
        state = self.current_combat()
        if state is None or not state.attackers:
            raise IllegalAction("no_attackers", "no attackers were declared: no combat damage step (CR 508.8)")
        if state.step == COMBAT_DAMAGE:
            raise IllegalAction("wrong_step", "the combat damage steps are over (CR 510.4, 511)")
        for obj in self.attacking_creatures() + self.blocking_creatures():
            others = self.blockers_of(obj.id) if obj.combat == "attacking" else [self.blocked_attacker(obj.id)]
            for other in filter(None, others):
                if any(k.startswith("protection from ") for k in characteristics(self, self.objects[other]).keywords):
                    raise Unsupported("ability:protection", f"{other!r} has protection: combat damage to it may be "
                                                            f"prevented (CR 702.16e, not modelled)")
            for aura in self.attached_to(obj.id):
                if re.search(r"deals damage to an opponent", self.copiable_values(aura)[0].oracle_text):
                    raise Unsupported("ability:damage trigger", f"{aura.card.name}: its creature's damage trigger "
                                                                f"is not modelled")

    # ------------------------------------------------------------------ performing
    def declare_attackers(self, player: str, attackers: list[GameObject]) -> None:
        """CR 508.1f, 508.1k: tap the chosen creatures (not those with vigilance, 702.20b), then
        they become attacking creatures, attacking the defending player."""
        for obj in attackers:
            if "vigilance" not in characteristics(self, obj).keywords:
                self.set_tapped(obj, True, "attack")
        for obj in attackers:
            obj.combat = "attacking"
        self.combat_state = Combat(player, self.defending_player(player), tuple(o.id for o in attackers))

    def declare_blockers(self, blocks: dict[str, str]) -> None:
        """CR 509.1g-h: each chosen creature becomes a blocking creature, blocking its attacker."""
        state = self.combat_state
        assert state is not None, "blockers are declared in a declared combat (validate_blocks)"
        for blocker_id in blocks:
            self.objects[blocker_id].combat = "blocking"
        state.blocks = dict(blocks)
        state.blockers_declared = True
        state.step = DECLARE_BLOCKERS

    def has_first_strike(self, obj: GameObject) -> bool:
        keywords = characteristics(self, obj).keywords
        return "first strike" in keywords or "double strike" in keywords

    def combat_damage_participants(self) -> list[GameObject]:
        """The creatures that deal combat damage in the step that begins now, and moves the combat
        to that step (CR 510.4, 702.7b, 702.4b-d)."""
        state = self.combat_state
        assert state is not None, "combat damage is dealt in a declared combat (combat_damage)"
        combatants = self.attacking_creatures() + self.blocking_creatures()
        if state.step in (DECLARE_ATTACKERS, DECLARE_BLOCKERS):
            state.blockers_declared = True  # none were declared: no creature blocks
            strikers = [o for o in combatants if self.has_first_strike(o)]
            if strikers:
                state.first_strikers = tuple(sorted(o.id for o in strikers))
                state.step = FIRST_STRIKE_DAMAGE
                return strikers
            state.step = COMBAT_DAMAGE
            return combatants
        state.step = COMBAT_DAMAGE
        return [o for o in combatants
                if o.id not in state.first_strikers or "double strike" in characteristics(self, o).keywords]

    def combat_damage_step(self, decider) -> None:
        """One combat damage step: assign (CR 510.1), then deal all of it at once (510.2)."""
        state = self.combat_state
        assert state is not None, "combat damage is dealt in a declared combat (combat_damage)"
        participants = self.combat_damage_participants()
        assignments: list[tuple[GameObject, str, int]] = []
        for attacker in [o for o in participants if o.combat == "attacking"]:
            amount = self.combat_damage_amount(attacker)
            if amount <= 0:
                continue  # CR 510.1a
            if not self.is_blocked(attacker.id):
                assignments.append((attacker, state.defending_player, amount))  # 510.1b
                continue
            blockers = self.blockers_of(attacker.id)
            if not blockers:  # 510.1c; with trample, 702.19d
                if "trample" in characteristics(self, attacker).keywords:
                    assignments.append((attacker, state.defending_player, amount))
                continue
            for recipient, n in self.assign_combat_damage(attacker, amount, blockers, decider):
                assignments.append((attacker, recipient, n))
        for blocker in [o for o in participants if o.combat == "blocking"]:
            blocked = self.blocked_attacker(blocker.id)
            amount = self.combat_damage_amount(blocker)
            if blocked is not None and amount > 0:  # 510.1d
                assignments.append((blocker, blocked, amount))
        self.deal_combat_damage(assignments)

    def assign_combat_damage(self, attacker: GameObject, amount: int, blockers: list[str], decider) -> list[tuple[str, int]]:
        """How a blocked attacker's ``amount`` of combat damage is divided (CR 510.1c, 702.19b),
        asked of its controller (decider kind ``damage_assignment``): with trample, first the
        damage to the defending player (at most ``amount`` minus its blockers' lethal damage,
        702.2c), then each blocker but the last in id order; the last gets what is left.
        Returns ``[(recipient, n)]`` with n >= 1."""
        keywords = characteristics(self, attacker).keywords
        trample, deathtouch = "trample" in keywords, "deathtouch" in keywords
        state = self.combat_state
        assert state is not None, "a blocked attacker is in a declared combat"
        player = state.defending_player
        lethal = {b: self.lethal_damage(self.objects[b], deathtouch) for b in blockers}
        to_player = 0
        if trample and amount - sum(lethal.values()) > 0:
            to_player = self._ask_damage(attacker.controller, 0, amount - sum(lethal.values()), player, decider)
        remaining = amount - to_player
        found = []
        for i, blocker in enumerate(blockers):
            rest = blockers[i + 1:]
            if not rest:
                n = remaining
            else:
                low = lethal[blocker] if to_player else 0
                high = remaining - (sum(lethal[r] for r in rest) if to_player else 0)
                n = self._ask_damage(attacker.controller, low, high, blocker, decider)
            remaining -= n
            found.append((blocker, n))
        if to_player:
            found.append((player, to_player))
        return [(r, n) for r, n in found if n > 0]

    @staticmethod
    def _ask_damage(player: str, low: int, high: int, recipient: str, decider) -> int:
        if low >= high:
            return low
        options = [D.damage_assignment_option(n, recipient) for n in range(low, high + 1)]
        answer = decider.choose(player, D.DAMAGE_ASSIGNMENT, options)
        if answer not in options:
            raise ValueError(f"decider answered {answer!r}, not one of {options}")
        assigned = D.assigned_damage(answer)
        assert assigned is not None, "an option of damage_assignment_option reads back"
        return assigned[0]

    def deal_combat_damage(self, assignments: list[tuple[GameObject, str, int]]) -> None:
        """Deal every assigned combat damage at once (CR 510.2, 120.3): damage marked on
        creatures (deathtouch recorded, 704.5h), life lost by players; each source with lifelink
        makes its controller gain the total it dealt (702.15b). Logged as ``damage`` entries with
        ``"combat": true`` and one ``life_gained`` per lifelink source."""
        keywords = {source.id: characteristics(self, source).keywords for source, _, _ in assignments}
        dealt: dict[str, int] = {}
        for source, target, amount in assignments:
            mark_damage(self, source.id, target, amount, "deathtouch" in keywords[source.id], combat=True)
            dealt[source.id] = dealt.get(source.id, 0) + amount
        for source, _, _ in assignments:
            amount = dealt.pop(source.id, 0)
            if amount and "lifelink" in keywords[source.id]:
                self.players[source.controller].life += amount
                self.log.append({"kind": "life_gained", "player": source.controller, "amount": amount})

    def end_combat(self) -> None:
        """CR 511.3: every creature is removed from combat; the combat is over."""
        for obj in self.battlefield():
            if obj.combat is not None:
                obj.combat = None
        self.combat_state = None

    # ------------------------------------------------------------------ observation
    def observe_combat(self, observation: dict) -> None:
        """Add the combat in progress to ``observation``: ``combat`` (``attacking_player``,
        ``defending_player``, ``step``: the last step reached, ``first_strikers``) and, on each
        creature in it, ``blocked`` and ``blocked_by`` (an attacker) or ``blocking`` (a blocker):
        in a copy of its entry put in its place, as an entry may be one given out before
        (reference_engine.observed.observed_entries: never changed once given out)."""
        state = self.current_combat()
        if state is None:
            return
        combat: ObservedCombat = {"attacking_player": state.attacking_player,
                                  "defending_player": state.defending_player, "step": state.step,
                                  "first_strikers": list(state.first_strikers)}
        observation["combat"] = combat
        objects = observation["objects"]
        for obj in self.attacking_creatures():
            objects[obj.id] = {**objects[obj.id], "blocked": self.is_blocked(obj.id),
                               "blocked_by": self.blockers_of(obj.id)}
        for obj in self.blocking_creatures():
            objects[obj.id] = {**objects[obj.id], "blocking": self.blocked_attacker(obj.id)}


# The combat events' handlers (reference_engine.combat_events), here where they were first.
from .combat_events import (HANDLERS, combat_damage, declare_attackers, declare_blockers,  # noqa: E402,F401
                            end_of_combat, extend)
