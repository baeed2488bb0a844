"""Mana: pools, mana abilities, "tapped for mana" and "could produce" (CR 106, 605).

* Each player has a mana pool (CR 106.4): a list of :class:`Mana`, each with its type,
  the source that produced it (CR 106.3) and the restrictions of the ability that
  produced it (CR 106.6a: mana added by a replacement effect that increased the amount
  keeps them). Pools empty at the end of each step and phase (CR 106.4, 500.4):
  :meth:`ManaRules.empty_mana_pools`, called by the ``pass_step``, ``begin_turn`` and
  ``cleanup`` events.
* An activated mana ability resolves at once, without the stack (CR 605.3b):
  :meth:`ManaRules.resolve_mana_ability`. An ability that would produce mana of an
  undefined type produces none (CR 106.5).
* To tap a permanent for mana is to activate a mana ability of it with {T} in its
  activation cost (CR 106.12). Replacement effects on it (Mana Reflection, Nyxbloom
  Ancient, Contamination) modify the mana production event, in the order the player
  who tapped it chooses (CR 106.12b, 616.1; decider kind ``"replacement_effect"``,
  options ``"<card name>:<id>"``); each applies once (CR 614.5). Triggers on it (Heartbeat
  of Spring, Mana Flare: "whenever a player taps a land for mana") trigger when such an
  ability resolves and produces mana (CR 106.12a), and, being triggered mana abilities,
  resolve at once after it (CR 605.1b, 605.4a).
* The types a permanent could produce (CR 106.7): :meth:`ManaRules.could_produce`, the
  least fixed point over the battlefield, so lands that look at each other (Reflecting
  Pools, Exotic Orchards) terminate with the right answer.

Log entries: ``mana_produced`` (``player``, ``source``, ``ability``: the ability index or
``"triggered"``, ``tapped_for_mana``, ``produced``: the mana before replacement effects,
``mana``: the mana added, ``replacements``: labels applied in order), ``mana_spent``
(``player``, ``mana``), ``mana_lost`` (``player``, ``mana``) and ``trigger`` (``ability``
``"tapped for mana"``, ``land``: the land tapped).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from itertools import permutations

from harness import decisions as D
from .abilities import (ADD, ADD_ANY_COLOR, ADD_ONE_OF, ADD_LAND_YOU_CONTROL_TYPE, ADD_OPPONENT_LAND_COLOR, COLORS,
                        CONTAMINATION, DOUBLE, MANA_TYPES, MULTIPLIERS, TRIPLE, ActivatedAbility, Cost)
from .errors import Unsupported
from .layers import card_types, copiable_scripts
from .objects import GameObject
from .records import Mana

if TYPE_CHECKING:
    from .game_base import GameBase
else:
    GameBase = object  # the declared base is for the type checker only (reference_engine.game_base)

__all__ = ["CONTAMINATION", "DOUBLE", "MULTIPLIERS", "TRIPLE", "Mana", "ManaRules", "counts", "empty_pool", "payable"]


_NONE_OF_EACH = dict.fromkeys(MANA_TYPES, 0)  # copied by counts (never changed)


#: ``{"W": 0, ..., "C": 0}``, a new dict: the counts of an empty pool (:func:`counts` of none).
empty_pool = _NONE_OF_EACH.copy


def counts(mana) -> dict[str, int]:
    """``{"W": n, ..., "C": n}`` of a pool or any iterable of :class:`Mana`."""
    out = _NONE_OF_EACH.copy()
    for m in mana:
        out[m.type] += 1
    return out


def _nonzero(amounts: dict[str, int]) -> dict[str, int]:
    return {t: n for t, n in amounts.items() if n}


def payable(available: dict[str, int], symbols) -> bool:
    """Whether mana ``available`` (type -> amount) can pay the mana ``symbols`` (``"2"``,
    ``"G"``, ``"G/U"``). Hybrid symbols try both halves (CR 107.4e).

    Raises :class:`Unsupported` for a symbol the engine doesn't pay ({X}, Phyrexian, snow).
    """
    single = [s for s in symbols if s in MANA_TYPES]
    hybrid = [s for s in symbols if "/" in s]
    generic = sum(int(s) for s in symbols if s.isdigit())
    if len(single) + len(hybrid) + sum(1 for s in symbols if s.isdigit()) != len(symbols):
        raise Unsupported("cost:mana", f"mana symbols {symbols!r}")
    left = dict(available)
    for s in single:
        if left.get(s, 0) <= 0:
            return False
        left[s] -= 1
    return _payable_hybrid(left, hybrid, generic)


def _payable_hybrid(left: dict[str, int], hybrid: list[str], generic: int) -> bool:
    if not hybrid:
        return sum(left.values()) >= generic
    first, rest = hybrid[0], hybrid[1:]
    for half in first.split("/"):
        if half.isdigit():
            if _payable_hybrid(left, rest, generic + int(half)):
                return True
        elif half in MANA_TYPES and left.get(half, 0) > 0:
            left[half] -= 1
            ok = _payable_hybrid(left, rest, generic)
            left[half] += 1
            if ok:
                return True
    return False


class ManaRules(GameBase):
    """Mana pools and mana abilities, a mixin of :class:`reference_engine.game.Game`."""

    # ----------------------------------------------------------------- pools
    def mana_pool(self, player: str) -> list[Mana]:
        """``player``'s mana pool (CR 106.4), oldest mana first."""
        return self.mana_pools.setdefault(player, [])

    def add_mana(self, player: str, mana: dict[str, int], source: str, restrictions: tuple[str, ...] = ()) -> None:
        """Add ``mana`` (type -> amount) to ``player``'s pool (CR 106.4); every one keeps
        the restrictions of what produced it (CR 106.6a)."""
        pool = self.mana_pool(player)
        for t in MANA_TYPES:
            pool.extend(Mana(t, source, restrictions) for _ in range(mana.get(t, 0)))

    def empty_mana_pools(self) -> None:
        """The end of a step or phase: every pool empties (CR 106.4, 500.4); logs ``mana_lost``."""
        for player in self.players:
            pool = self.mana_pool(player)
            if pool:
                self.log.append({"kind": "mana_lost", "player": player, "mana": _nonzero(counts(pool))})
                pool.clear()

    def can_pay_mana(self, player: str, symbols) -> bool:
        """Whether ``player``'s pool can pay mana ``symbols`` (see :func:`payable`)."""
        return payable(counts(self.mana_pool(player)), symbols)

    def pay_mana(self, player: str, symbols, decider) -> None:
        """Spend mana from ``player``'s pool to pay ``symbols`` (CR 601.2h, 602.2b).

        Coloured symbols first, then each hybrid symbol and each generic mana: when more
        than one type of mana would do, the player chooses (decider kind
        ``"mana_payment"``, options the types, e.g. ``["G", "U"]``), among the types that
        leave the rest payable. Logs ``mana_spent``. Call only when :meth:`can_pay_mana`.
        """
        pool = self.mana_pool(player)
        spent: dict[str, int] = {}

        def spend(t: str) -> None:
            for i, m in enumerate(pool):
                if m.type == t:
                    del pool[i]
                    spent[t] = spent.get(t, 0) + 1
                    return
            raise ValueError(f"no {t} mana in {player}'s pool")  # pragma: no cover - checked before

        todo = [s for s in symbols if s in MANA_TYPES]
        for s in todo:
            spend(s)
        hybrid = [s for s in symbols if "/" in s]
        generic = sum(int(s) for s in symbols if s.isdigit())
        for i, symbol in enumerate(hybrid):
            options = []
            for half in symbol.split("/"):
                if half.isdigit():
                    if payable(counts(pool), [*hybrid[i + 1:], str(generic + int(half))]):
                        options.append(half)
                elif counts(pool)[half] > 0:
                    after = counts(pool)
                    after[half] -= 1
                    if payable(after, [*hybrid[i + 1:], str(generic)]):
                        options.append(half)
            half = self._choose(player, D.MANA_PAYMENT, options, decider)
            if half.isdigit():
                generic += int(half)
            else:
                spend(half)
        for _ in range(generic):
            options = [t for t in MANA_TYPES if counts(pool)[t] > 0]
            spend(self._choose(player, D.MANA_PAYMENT, options, decider))
        self.log.append({"kind": "mana_spent", "player": player, "mana": spent})

    @staticmethod
    def _choose(player: str, kind: str, options: list[str], decider) -> str:
        if len(options) == 1:
            return options[0]
        answer = decider.choose(player, kind, options)
        if answer not in options:
            raise ValueError(f"decider answered {answer!r}, not one of {options}")
        return answer

    # ------------------------------------------------------ mana abilities
    def resolve_mana_ability(self, obj: GameObject, ability: ActivatedAbility, cost: Cost, player: str,
                             decider) -> None:
        """An activated mana ability resolves at once (CR 605.3b).

        ``cost`` is the activation cost paid: with {T} in it, the permanent was tapped for
        mana (CR 106.12), so replacement effects modify the production (106.12b) and
        "tapped for mana" abilities trigger if it produced mana (106.12a). An undefined
        type produces nothing (CR 106.5).
        """
        produced = self.mana_ability_output(obj, ability, player, decider)
        mana, applied = dict(produced), list[str]()
        if sum(produced.values()) and cost.tap:
            mana, applied = self.replace_mana_production(obj, player, produced, decider)
        self.add_mana(player, mana, obj.id)
        self.log.append({"kind": "mana_produced", "player": player, "source": obj.id, "ability": ability.index,
                         "tapped_for_mana": cost.tap, "produced": _nonzero(produced), "mana": _nonzero(mana),
                         "replacements": applied})
        if cost.tap and sum(mana.values()) != 0:
            self.tapped_for_mana_triggers(obj, player, mana, decider)

    def mana_ability_output(self, obj: GameObject, ability: ActivatedAbility, player: str, decider) -> dict[str, int]:
        """The mana ``ability`` of ``obj`` would produce before replacement effects:
        type -> amount; ``{}`` when no type can be defined (CR 106.5). A choice of type
        goes through the decider, kind ``"mana_type"``."""
        if ability.kind == ADD:  # its types are what it adds (no choice to make)
            out: dict[str, int] = {}
            for t in ability.mana:
                out[t] = out.get(t, 0) + 1
            return out
        options = sorted(self.ability_types(obj, ability, None), key=MANA_TYPES.index)
        if not options:
            return {}
        return {self._choose(player, D.MANA_TYPE, options, decider): 1}

    def ability_types(self, obj: GameObject, ability: ActivatedAbility, known: dict | None) -> frozenset[str]:
        """The types of mana ``ability`` could add, before replacement effects.

        ``known`` maps permanent ids to the types they could produce (None: compute them,
        :meth:`could_produce_all`)."""
        if ability.kind == ADD:
            return frozenset(ability.mana)
        if ability.kind == ADD_ANY_COLOR:
            return frozenset(COLORS)
        if ability.kind == ADD_ONE_OF:  # "Add {R} or {G}."
            return frozenset(ability.mana)
        if known is None:
            known = self.could_produce_all()
        controller = obj.controller
        if ability.kind == ADD_LAND_YOU_CONTROL_TYPE:
            lands = [o for o in self.battlefield() if o.controller == controller and self.is_land(o)]
            return frozenset().union(*(known.get(o.id, frozenset()) for o in lands))
        if ability.kind == ADD_OPPONENT_LAND_COLOR:
            lands = [o for o in self.battlefield() if o.controller != controller and self.is_land(o)]
            return frozenset().union(*(known.get(o.id, frozenset()) for o in lands)) & frozenset(COLORS)
        return frozenset()

    def is_land(self, obj: GameObject) -> bool:
        """Whether ``obj`` is a land now (its card types, CR 205.2a: :func:`reference_engine.layers.card_types`)."""
        return "Land" in card_types(self, obj)

    # ------------------------------------------------- replacement effects
    def mana_replacement_of(self, source: GameObject) -> str | None:
        """The "tapped for mana" replacement effect ``source``'s static ability creates, if any."""
        return self.copiable_values(source)[1].mana_replacement

    def mana_replacements(self, obj: GameObject, player: str) -> list[GameObject]:
        """Sources of replacement effects that apply when ``player`` taps ``obj`` for mana
        (CR 106.12b), in timestamp order: Mana Reflection and Nyxbloom Ancient when they
        are that player's ("If you tap a permanent"), Contamination when ``obj`` is a land."""
        found = []
        sources: list[tuple[GameObject, str | None]]
        if type(self).mana_replacement_of is ManaRules.mana_replacement_of:  # read of each script at once
            sources = [(o, script.mana_replacement) for o, script in copiable_scripts(self)
                       if script.mana_replacement is not None]
        else:  # a fork's own mana_replacement_of, asked of every permanent
            sources = [(o, self.mana_replacement_of(o)) for o in self.battlefield()]
        for source, kind in sorted(sources, key=lambda pair: pair[0].timestamp):
            if kind in MULTIPLIERS and source.controller == player:
                found.append(source)
            elif kind == CONTAMINATION and self.is_land(obj):
                found.append(source)
        return found

    def apply_mana_replacement(self, source: GameObject, mana: dict[str, int]) -> dict[str, int]:
        """``mana`` after ``source``'s replacement effect: times 2 or 3 (that mana: each
        type multiplied), or one {B} instead of any other type and amount."""
        kind = self.mana_replacement_of(source)
        if kind == CONTAMINATION:
            return {"B": 1}
        assert kind is not None, "a source of mana_replacements has a replacement effect"
        return {t: n * MULTIPLIERS[kind] for t, n in mana.items()}

    def replace_mana_production(self, obj: GameObject, player: str, mana: dict[str, int],
                                decider) -> tuple[dict[str, int], list[str]]:
        """Apply every replacement effect on this mana production event once, in the
        order ``player`` chooses (CR 616.1, 614.5); returns the mana and the labels applied."""
        waiting = self.mana_replacements(obj, player)
        applied = []
        while waiting:
            labels = [f"{self.source_name(s.id)}:{s.id}" for s in waiting]
            chosen = waiting[labels.index(self._choose(player, D.REPLACEMENT_EFFECT, labels, decider))]
            waiting.remove(chosen)
            mana = self.apply_mana_replacement(chosen, mana)
            applied.append(f"{self.source_name(chosen.id)}:{chosen.id}")
        return mana, applied

    def types_after_replacements(self, obj: GameObject, types: frozenset[str]) -> frozenset[str]:
        """CR 106.7: the types ``obj`` would produce from mana of ``types`` when tapped by
        its controller, "taking into account any applicable replacement effects in any
        possible order"."""
        if not types:
            return types
        sources = self.mana_replacements(obj, obj.controller)
        found: set[str] = set()
        kinds = sorted({kind for s in sources if (kind := self.mana_replacement_of(s)) is not None})
        for order in permutations(kinds):
            for t in types:
                mana = {t: 1}
                for kind in order:
                    mana = {"B": 1} if kind == CONTAMINATION else {u: n * MULTIPLIERS[kind] for u, n in mana.items()}
                found.update(u for u, n in mana.items() if n)
        return frozenset(found)

    # ---------------------------------------------------------- triggers
    def has_land_mana_trigger(self, source: GameObject) -> bool:
        """Whether ``source`` has "Whenever a player taps a land for mana, that player adds one
        mana of any type that land produced" (Heartbeat of Spring, Mana Flare)."""
        return self.copiable_values(source)[1].land_mana_trigger

    def tapped_for_mana_triggers(self, obj: GameObject, player: str, mana: dict[str, int], decider) -> None:
        """``obj`` was tapped for mana and produced ``mana``: each Heartbeat of Spring or Mana
        Flare triggers if ``obj`` is a land (CR 106.12a; each one separately) and, as a
        triggered mana ability, resolves at once (CR 605.1b, 605.4a): ``player`` adds one
        mana of a type the land produced (decider kind ``"mana_type"`` if several)."""
        if not self.is_land(obj):
            return
        produced = [t for t in MANA_TYPES if mana.get(t)]
        own = type(self).has_land_mana_trigger is ManaRules.has_land_mana_trigger
        # This class's: the permanents with it, read of each script at once; a fork's own
        # has_land_mana_trigger is asked of every permanent, in timestamp order.
        sources = [o for o, script in copiable_scripts(self) if script.land_mana_trigger] if own \
            else self.battlefield()
        for source in sorted(sources, key=lambda o: o.timestamp):
            if not own and not self.has_land_mana_trigger(source):
                continue
            self.log.append({"kind": "trigger", "source": source.id, "ability": "tapped for mana",
                             "controller": source.controller, "land": obj.id})
            added = {self._choose(player, D.MANA_TYPE, produced, decider): 1}
            self.add_mana(player, added, source.id)
            self.log.append({"kind": "mana_produced", "player": player, "source": source.id, "ability": "triggered",
                             "tapped_for_mana": False, "produced": added, "mana": added, "replacements": []})

    # ------------------------------------------------------ could produce
    def could_produce_all(self) -> dict[str, frozenset[str]]:
        """The types each permanent on the battlefield could produce (CR 106.7), by id.

        The least fixed point: start from nothing and add, for each mana ability, the
        types it would produce with the current answers for the permanents it looks at,
        after replacement effects in any order, until nothing changes. The answers only
        grow and there are six types, so it terminates; a cycle of Reflecting Pools with
        nothing else to look at stays undefined (nothing)."""
        permanents = self.battlefield()
        abilities = {o.id: [a for a in self.activated_abilities(o) if a.is_mana_ability] for o in permanents}
        known: dict[str, frozenset[str]] = {o.id: frozenset() for o in permanents}
        changed = True
        while changed:
            changed = False
            for o in permanents:
                types: frozenset[str] = known[o.id]
                for ability in abilities[o.id]:
                    base = self.ability_types(o, ability, known)
                    after = self.types_after_replacements(o, base) if self.activation_cost(o, ability).tap else base
                    types |= after
                if types != known[o.id]:
                    known[o.id] = types
                    changed = True
        return known

    def could_produce(self, obj: GameObject) -> frozenset[str]:
        """The types of mana permanent ``obj`` could produce (CR 106.7); empty if none."""
        return self.could_produce_all().get(obj.id, frozenset())
