"""What the state-based actions say of each object, kept from one check to the next (CR 704.3).

Each check of state-based actions (:mod:`reference_engine.state_based_actions`) looks at every
object. What applies to a permanent reads only the permanent itself (its zone, damage, deathtouch
record, counters, controller, attachment), its characteristics (CR 613) and, for an Aura or an
Equipment, the object it is attached to: 704.5f (toughness 0 or less), 704.5g and 704.5h (lethal
or deathtouch damage, unless indestructible), 704.5j (a legendary permanent, grouped by controller
and name), 704.5m (an Aura not legally attached, CR 303.4a, 702.16c), 704.5n (an Equipment
attached to something that isn't a creature on the battlefield, or protected from it, CR 301.5c),
704.5q (+1/+1 and -1/-1 counters), the deathtouch record cleared by each check; and 704.5d reads
only the object (a token off the battlefield). So a verdict can differ from the last check's only
for an object changed since (any field, its counters; new or gone), one whose characteristics may
differ (both known from the characteristics kept from state to state,
:func:`reference_engine.kept.changed_since_taken`), and an Aura or Equipment attached to one of
them: only those are judged again; the verdicts are handed out in the order of ``game.objects``
(the battlefield's order), as a check that looks at every object finds them.

A game whose class takes any method these verdicts read from outside this package
(:data:`VERDICT_METHODS`, or the layer code: :func:`reference_engine.kept.keeps`) has every object
judged in every check. Only a speed-up; no rules meaning.
"""

from __future__ import annotations

from .kept import changed_since_taken, keeps
from .layers import characteristics, state_cache
from .objects import BATTLEFIELD, VERSION

#: What applies to an object (bits of a verdict): 704.5f, 704.5g, 704.5h, 704.5m, 704.5q, a
#: deathtouch record to clear, 704.5n, 704.5d.
ZERO_TOUGHNESS, LETHAL_DAMAGE, DEATHTOUCH_DAMAGE, NOT_LEGALLY_ATTACHED, ANNIHILATING, DEATHTOUCHED, \
    UNATTACHED_EQUIPMENT, TOKEN_GONE = 1, 2, 4, 8, 16, 32, 64, 128
#: The bits of the permanents' actions found in one look at each (state_based_actions._permanent_actions).
PERMANENT_BITS = ZERO_TOUGHNESS | LETHAL_DAMAGE | DEATHTOUCH_DAMAGE | NOT_LEGALLY_ATTACHED | ANNIHILATING | DEATHTOUCHED

#: The methods of the game the verdicts read besides the layer code's (kept.LAYER_METHODS).
VERDICT_METHODS = ("can_enchant", "could_enchant", "unattached_equipment", "_protected_from_equipment")
_KEEPING_CLASSES: dict[type, bool] = {}


class Verdicts:
    """The verdicts of a game's objects as of its last check: ``bits`` (nonzero ones, by id),
    ``legendary`` ((controller, name) by id, CR 704.5j) and ``hosts`` (the object each Aura and
    Equipment judged is attached to, by id)."""

    __slots__ = ("bits", "legendary", "hosts")

    def __init__(self):
        self.bits: dict[str, int] = {}
        self.legendary: dict[str, tuple[str, str]] = {}
        self.hosts: dict[str, str] = {}


def kept_verdicts(game) -> Verdicts | None:
    """``game``'s verdicts brought up to date with its state (the objects changed since the last
    call, or every object the first time; once per state, the state cache keeping them under
    ``"verdicts"``), or None for a game whose objects are judged afresh in each check (module
    docstring)."""
    cache = game._cache
    if cache is None or game._cache_version != VERSION[0]:  # the state cache's own check, without its call
        cache = None  # a new state
    else:
        verdicts = cache.get("verdicts")  # set below only, for a game that keeps them
        if verdicts is not None:
            return verdicts  # brought up to date in this state already
    if not _keeps_verdicts(game) or getattr(game, "_anthem_guard", None):
        return None
    if cache is None:
        cache = state_cache(game)
    changed = changed_since_taken(game, cache)
    verdicts = game.__dict__.get("_verdicts_kept")
    if verdicts is None or changed is None:  # the first check, or the kept characteristics start again
        verdicts = Verdicts()
        object.__setattr__(game, "_verdicts_kept", verdicts)  # not the game's state
        changed = set(game.objects)
    elif not changed:
        cache["verdicts"] = verdicts
        return verdicts
    hosts = verdicts.hosts
    if hosts:
        changed.update([oid for oid, host in hosts.items() if host in changed])
    computed = cache["characteristics"]
    objects = game.objects
    for oid in changed:
        obj = objects.get(oid)
        if obj is None:
            verdicts.bits.pop(oid, None)
            verdicts.legendary.pop(oid, None)
            hosts.pop(oid, None)
        else:
            _judge(game, verdicts, obj, computed)
    cache["verdicts"] = verdicts
    return verdicts


def _keeps_verdicts(game) -> bool:
    """Whether ``game``'s class reads its verdicts and characteristics with this package's methods
    only (module docstring), found once per class."""
    cls = type(game)
    keeping = _KEEPING_CLASSES.get(cls)
    if keeping is None:
        keeping = _KEEPING_CLASSES[cls] = keeps(game) and all(
            getattr(getattr(cls, name, None), "__module__", "").startswith("reference_engine.")
            for name in VERDICT_METHODS)
    return keeping


def _judge(game, verdicts: Verdicts, obj, computed: dict) -> None:
    """Judge ``obj`` (module docstring) into ``verdicts``."""
    oid = obj.id
    bits = 0
    host = legend = None
    if obj.zone != BATTLEFIELD:
        if obj.token:
            bits = TOKEN_GONE
    else:
        ch = computed.get(oid)
        if ch is None:
            ch = characteristics(game, obj)
        if "Creature" in ch.types:  # ch.is_creature
            bits = _creature_bits(obj, ch)
        if "Aura" in ch.subtypes:  # ch.is_aura
            host = obj.attached_to
            if not game.can_enchant(obj, host):
                bits |= NOT_LEGALLY_ATTACHED
        if obj.attached_to is not None and "Equipment" in obj.card.subtypes:
            host = obj.attached_to
            if unattached(game, obj, host):
                bits |= UNATTACHED_EQUIPMENT
        if "Legendary" in ch.supertypes:
            legend = (obj.controller, ch.name)
        counters = obj.counters
        if counters and counters.get("+1/+1") and counters.get("-1/-1"):
            bits |= ANNIHILATING
        if obj.deathtouch_damage:
            bits |= DEATHTOUCHED
    # What applies is recorded, what doesn't is dropped (the dicts keep nonzero verdicts only).
    if bits:
        verdicts.bits[oid] = bits
    else:
        verdicts.bits.pop(oid, None)
    if legend:
        verdicts.legendary[oid] = legend
    else:
        verdicts.legendary.pop(oid, None)
    if host:
        verdicts.hosts[oid] = host
    else:
        verdicts.hosts.pop(oid, None)


def _creature_bits(creature, ch) -> int:
    """704.5f, 704.5g, 704.5h for ``creature`` with characteristics ``ch``."""
    toughness = ch.toughness
    assert toughness is not None, "a creature has a toughness (CR 208.1)"
    if toughness <= 0:
        return ZERO_TOUGHNESS
    if "indestructible" not in ch.keywords:
        if creature.damage and creature.damage >= toughness:
            return LETHAL_DAMAGE
        if creature.deathtouch_damage:
            return DEATHTOUCH_DAMAGE
    return 0


def unattached(game, equipment, host_id: str) -> bool:
    """CR 704.5n: ``equipment``, attached to ``host_id``, is attached to something that isn't a
    creature on the battlefield, or to a permanent protected from it (CR 702.16c)."""
    host = game.objects.get(host_id)
    return host is None or host.zone != BATTLEFIELD or not characteristics(game, host).is_creature \
        or game._protected_from_equipment(host, equipment)


def in_order(game, ids) -> list[str]:
    """``ids`` in the order of ``game.objects`` (the battlefield's order for permanents)."""
    if len(ids) < 2:
        return list(ids)
    wanted = set(ids)
    return [oid for oid in game.objects if oid in wanted]


def with_bit(verdicts: Verdicts, bit: int) -> list[str]:
    """The ids whose verdict has ``bit``, in no particular order."""
    return [oid for oid, bits in verdicts.bits.items() if bits & bit]


def ordered_with_bit(game, verdicts: Verdicts, bit: int) -> list[str]:
    """The ids whose verdict has ``bit``, in the order of ``game.objects`` (none at once while no
    verdict has any bit, as in most checks)."""
    return in_order(game, with_bit(verdicts, bit)) if verdicts.bits else []


def permanent_actions(game, verdicts: Verdicts) -> tuple[dict, dict, dict, list, list]:
    """:func:`reference_engine.state_based_actions._permanent_actions` from the kept verdicts: the
    same dicts and lists in the same order, the legend rule's groups of one left out (nothing
    applies to a lone legend, CR 704.5j)."""
    to_graveyard: dict[str, str] = {}
    to_destroy: dict[str, str] = {}
    legends: dict[tuple[str, str], list[str]] = {}
    annihilating: list = []
    deathtouched: list = []
    objects = game.objects
    for oid in ordered_with_bit(game, verdicts, PERMANENT_BITS):
        bits = verdicts.bits[oid]
        if bits & ZERO_TOUGHNESS:
            to_graveyard[oid] = "704.5f"
        elif bits & LETHAL_DAMAGE:
            to_destroy[oid] = "704.5g"
        elif bits & DEATHTOUCH_DAMAGE:
            to_destroy[oid] = "704.5h"
        if bits & NOT_LEGALLY_ATTACHED:
            to_graveyard.setdefault(oid, "704.5m")
        if bits & ANNIHILATING:
            annihilating.append(objects[oid])
        if bits & DEATHTOUCHED:
            deathtouched.append(objects[oid])
    legendary = verdicts.legendary
    if len(legendary) > 1 and len(set(legendary.values())) < len(legendary):
        for oid in in_order(game, legendary):
            legends.setdefault(legendary[oid], []).append(oid)
        legends = {key: ids for key, ids in legends.items() if len(ids) > 1}
    return to_graveyard, to_destroy, legends, annihilating, deathtouched
