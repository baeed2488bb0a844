"""State-based actions (CR 704), checked to a fixed point and performed simultaneously."""

from __future__ import annotations

from typing import TYPE_CHECKING

from harness import decisions as D
from .kept import _of_this_package, keeps
from .layers import characteristics, state_cache
from .objects import BATTLEFIELD
from .verdicts import TOKEN_GONE, Verdicts, kept_verdicts, ordered_with_bit, permanent_actions

if TYPE_CHECKING:
    from .game_base import GameBase
else:
    GameBase = object  # the declared base is for the type checker only (reference_engine.game_base)


class StateBasedActions(GameBase):
    """The state-based action check, a mixin of :class:`reference_engine.game.Game`."""

    def check_state_based_actions(self, decider) -> None:
        """See :func:`check_state_based_actions`."""
        check_state_based_actions(self, decider)

    def annihilate_counters(self, obj) -> bool:
        """CR 704.5q, 122.3: if ``obj`` has both +1/+1 and -1/-1 counters, remove N of each,
        N the smaller number; log ``counters_removed``. Returns whether it did."""
        plus, minus = obj.counters.get("+1/+1", 0), obj.counters.get("-1/-1", 0)
        if not (plus and minus):
            return False
        n = min(plus, minus)
        obj.counters["+1/+1"] = plus - n
        obj.counters["-1/-1"] = minus - n
        for kind in ("+1/+1", "-1/-1"):
            if not obj.counters[kind]:
                del obj.counters[kind]
        self.log.append({"kind": "counters_removed", "object": obj.id, "rule": "704.5q", "amount": n})
        return True

    def legend_rule_keep(self, controller: str, ids: list[str], decider) -> str:
        """The controller chooses which legendary permanent stays (CR 704.5j)."""
        keep = decider.choose(controller, D.LEGEND_RULE, ids)
        if keep not in ids:
            raise ValueError(f"decider answered {keep!r}, not one of {ids}")
        return keep


def check_state_based_actions(game: GameBase, decider) -> None:
    """Perform state-based actions until none apply (CR 704.3).

    Each check finds every applicable action, then performs them all as one event:
    704.5a (life 0 or less), 704.5b (a draw from an empty library), 704.5d (tokens off the battlefield), 704.5f (toughness 0
    or less, never replaced), 704.5g and 704.5h (lethal or deathtouch damage: the
    creature is destroyed, so umbra armor and regeneration may replace it), 704.5j
    (legend rule, the controller chooses), 704.5m (Aura not legally attached), 704.5n
    (Equipment not attached to a creature becomes unattached), 704.5q
    (+1/+1 and -1/-1 counters annihilate). Deathtouch damage counts only "since the
    last time state-based actions were checked", so the record is cleared by each check.

    Every action of one check is found before any is performed, and they are performed
    as one event: a permanent that leaves in a check leaves as it was when the check
    began, so its leaves-the-battlefield abilities see it that way (CR 603.10a): a
    Hangarback Walker with a +1/+1 and a -1/-1 counter and toughness 0 dies with its
    +1/+1 counter and makes a Thopter; only the permanents that stay lose their pairs.
    """
    while True:
        performed, verdicts = _player_and_object_actions(game)  # verdicts None: every permanent is looked at
        if verdicts is not None and not verdicts.bits and len(verdicts.legendary) < 2:
            if performed:  # nothing applies to a permanent (most checks): no 704.5f-704.5q, no legend rule
                continue
            return
        if verdicts is None:
            battlefield = game.battlefield()
            with game.unchanging():
                to_graveyard, to_destroy, legends, annihilating, deathtouched = _permanent_actions(game, battlefield)
        else:
            to_graveyard, to_destroy, legends, annihilating, deathtouched = permanent_actions(game, verdicts)
        for obj in deathtouched:
            obj.deathtouch_damage = False
        _legend_rule(game, legends, to_graveyard, decider)
        if not (to_graveyard or to_destroy or annihilating):
            if performed:
                continue
            return
        _perform_permanent_actions(game, to_graveyard, to_destroy, annihilating, decider)


def _player_and_object_actions(game: GameBase) -> tuple[bool, Verdicts | None]:
    """704.5a (a player at 0 or less life loses), 704.5b, 704.5n, 704.5d (a token off the
    battlefield ceases to exist); whether any was performed, and the kept verdicts of the state
    after them (:func:`reference_engine.verdicts.kept_verdicts`, found again only if a token ceased
    to exist after they were found; None for a game whose objects are judged in each check)."""
    performed = False
    for player in game.players.values():
        if player.life <= 0 and not player.lost:
            player.lost = True
            game.log.append({"kind": "player_lost", "player": player.id, "rule": "704.5a"})
            performed = True
    package = _PACKAGE_CHECKS.get(type(game))
    if package is None:
        package = _checks_as_this_package(game)
    # 704.5b (reference_engine.steps): this package's does nothing while no player attempted to draw
    # from an empty library since the last check (its set of them empty or not made yet).
    if (not package or game.__dict__.get("_empty_library_draws")) and game.lose_for_empty_library():
        performed = True
    verdicts = kept_verdicts(game)  # what unattached_equipment reads first in this state (reference_engine.playtest)
    # 704.5n: the Equipment stays on the battlefield. This package's unattach_equipment does nothing
    # while no kept verdict has any bit (no Equipment is unattached): it is called only otherwise.
    if (verdicts is None or verdicts.bits or not package) and game.unattach_equipment():
        performed = True
        verdicts = kept_verdicts(game)
    if verdicts is None:
        gone = [o.id for o in game.objects.values() if o.token and o.zone != BATTLEFIELD]
    else:
        gone = ordered_with_bit(game, verdicts, TOKEN_GONE) if verdicts.bits else []
    for oid in gone:
        game.cease_to_exist(oid)
        performed = True
    if gone and verdicts is not None:
        verdicts = kept_verdicts(game)
    return performed, verdicts


#: The methods of 704.5b and 704.5n that a check leaves out while they would find nothing (by the
#: players' attempted draws, by the kept verdicts): :func:`_player_and_object_actions`.
PACKAGE_CHECK_METHODS = ("lose_for_empty_library", "empty_library_draws", "unattach_equipment")
#: By class: whether each of :data:`PACKAGE_CHECK_METHODS` is this package's.
_PACKAGE_CHECKS: dict[type, bool] = {}


def _checks_as_this_package(game) -> bool:
    """Whether ``game``'s class performs 704.5b and 704.5n with this package's methods
    (:data:`PACKAGE_CHECK_METHODS`), found once per class: a fork's own are called in every check."""
    return _of_this_package(type(game), PACKAGE_CHECK_METHODS, _PACKAGE_CHECKS)


def _legend_rule(game: GameBase, legends: dict[tuple[str, str], list[str]], to_graveyard: dict[str, str], decider) -> None:
    """704.5j: of two or more legendary permanents with the same name, their controller keeps one."""
    for (controller, _name), ids in legends.items():
        # Every legend counts, even one already leaving by 704.5f: all applicable
        # state-based actions happen at once (CR 704.3).
        if len(ids) > 1:
            keep = game.legend_rule_keep(controller, ids, decider)
            for oid in ids:
                if oid != keep:
                    to_graveyard.setdefault(oid, "704.5j")


def _perform_permanent_actions(game: GameBase, to_graveyard: dict[str, str], to_destroy: dict[str, str], annihilating: list,
                               decider) -> None:
    # One simultaneous event (CR 704.3): replacement effects on destruction first,
    # then every object leaves together, as it last existed: with the counters it had
    # when the check began (CR 603.10a, 608.2h), since the 704.5q removal of +1/+1
    # and -1/-1 pairs happens at the same time, not before. Pairs are removed from the
    # permanents that stay.
    by_rule: dict[str, list[str]] = {}
    for oid, rule in to_graveyard.items():
        by_rule.setdefault(rule, []).append(oid)
    with game.simultaneous():
        for rule in ("704.5g", "704.5h"):
            ids = [oid for oid, r in to_destroy.items() if r == rule]
            if ids:
                game.destroy(ids, rule, decider)
        for rule, ids in by_rule.items():
            game.move_to_graveyard(ids, {"event": "state_based_action", "rule": rule})
    for obj in annihilating:
        if obj.zone == BATTLEFIELD:
            game.annihilate_counters(obj)


def _permanent_actions(game: GameBase, battlefield) -> tuple[dict, dict, dict, list, list]:
    """The state-based actions that apply to permanents now, found without changing anything, in
    one look at each permanent.

    Returns ``(to_graveyard, to_destroy, legends, annihilating, deathtouched)``: ids put into the
    graveyard by rule (704.5f toughness 0 or less, 704.5m Aura not legally attached), ids destroyed
    by rule (704.5g lethal damage, 704.5h deathtouch damage), legendary permanents grouped by
    (controller, name) for the legend rule (704.5j; a copy of a legend is legendary too, CR
    707.2), the permanents with both +1/+1 and -1/-1 counters (704.5q) and those dealt deathtouch
    damage since the last check (its record, cleared by each check).
    """
    to_graveyard: dict[str, str] = {}
    to_destroy: dict[str, str] = {}
    legends: dict[tuple[str, str], list[str]] = {}
    annihilating = []
    deathtouched = []
    computed = state_cache(game)["characteristics"]  # the state's (finding them changes nothing)
    verdicts = None  # the 704.5m verdicts of the last check (_aura_verdicts), found at the first Aura
    for obj in battlefield:
        oid = obj.id
        ch = computed.get(oid)
        if ch is None:
            ch = characteristics(game, obj)
        if "Creature" in ch.types:  # ch.is_creature
            toughness = ch.toughness
            assert toughness is not None, "a creature has a toughness (CR 208.1)"
            if toughness <= 0:
                to_graveyard[oid] = "704.5f"
            elif "indestructible" not in ch.keywords:
                if obj.damage and obj.damage >= toughness:
                    to_destroy[oid] = "704.5g"
                elif obj.deathtouch_damage:
                    to_destroy[oid] = "704.5h"
        if "Aura" in ch.subtypes:  # ch.is_aura
            if verdicts is None:
                verdicts = _aura_verdicts(game)
            if not _legally_attached(game, obj, ch, verdicts, computed):
                to_graveyard.setdefault(oid, "704.5m")
        if "Legendary" in ch.supertypes:
            legends.setdefault((obj.controller, ch.name), []).append(oid)
        counters = obj.counters
        if counters and counters.get("+1/+1") and counters.get("-1/-1"):
            annihilating.append(obj)
        if obj.deathtouch_damage:
            deathtouched.append(obj)
    return to_graveyard, to_destroy, legends, annihilating, deathtouched


#: Whether a game's class decides what an Aura may enchant with this package's methods only
#: (can_enchant, could_enchant, copiable_values): else it decides it afresh in each check.
_DECIDING_CLASSES: dict[type, bool] = {}


def _aura_verdicts(game: GameBase) -> dict | bool:
    """The 704.5m verdicts kept from the last check (by Aura id), or False if ``game``'s class
    decides what an Aura may enchant with a method from outside this package."""
    cls = type(game)
    decides = _DECIDING_CLASSES.get(cls)
    if decides is None:
        decides = _DECIDING_CLASSES[cls] = keeps(game) and all(
            getattr(method, "__module__", "").startswith("reference_engine.")
            for method in (cls.can_enchant, cls.could_enchant, cls.copiable_values))
    if not decides:
        return False
    kept = game._kept_cache
    if kept is None:
        kept = game._kept_cache = {}
    return kept


def _legally_attached(game: GameBase, aura, ch, kept: dict | bool, computed: dict) -> bool:
    """``game.can_enchant(aura, aura.attached_to)`` (704.5m), kept from the last check (``kept``, of
    :func:`_aura_verdicts`) while the Aura and the permanent it is attached to are the same objects
    with the same stamps and the same characteristics (``ch`` is the Aura's; ``computed`` the
    state's characteristics by id): what it may enchant (CR 303.4a) reads the Aura's copiable
    values, controller and colours, the permanent's zone, controller, types and protections (CR
    702.16c)."""
    if kept is False:
        return game.can_enchant(aura, aura.attached_to)
    assert isinstance(kept, dict)
    host = aura.attached_to
    target = game.objects.get(host) if host is not None else None
    target_ch = None
    if target is not None and target.zone == BATTLEFIELD:
        target_ch = computed.get(target.id)
        if target_ch is None:
            target_ch = characteristics(game, target)
    known = kept.get(aura.id)
    if known is not None and known[0] is aura and known[1] == aura._stamp and known[2] is target \
            and known[4] is ch and known[5] is target_ch and (target is None or known[3] == target._stamp):
        return known[6]
    legal = game.can_enchant(aura, host)
    kept[aura.id] = (aura, aura._stamp, target, target._stamp if target is not None else None, ch, target_ch, legal)
    return legal
