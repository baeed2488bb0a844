"""Mono adds {T} to an ability whose cost already has {T}, which then can't be paid.

Rule broken: CR 118.8, 107.5 (Orb of Origin ruling 2024-11-08: "if that ability's activation
cost doesn't already include {T}, activating that ability costs an additional {T}").

Bug: ``activation_cost`` adds the mono {T} as one more cost part whatever the printed cost;
for "{T}: Add {C}" that is a second {T}, which a permanent tapped by the first can't pay, so
an untapped mono Thought Vessel or Fellwar Stone is refused as already tapped.
"""

from dataclasses import replace

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, IllegalAction, ReferenceEngine
from reference_engine.layers import characteristics

SECOND_TAP = "{T}"


class MutantGame(Game):
    def activation_cost(self, obj, ability):
        cost = super().activation_cost(obj, ability)
        if "Mono" in characteristics(self, obj).supertypes and ability.cost.tap:
            return replace(cost, other=cost.other + (SECOND_TAP,))  # the bug: a second {T}
        return cost

    def check_other_cost(self, obj, ability, part, player):
        if part == SECOND_TAP:  # the first {T} taps it: the second finds it tapped (CR 107.5)
            raise IllegalAction("already_tapped", f"{obj.id!r} can't be tapped twice")
        return super().check_other_cost(obj, ability, part, player)


class MutantEngine(ReferenceEngine):
    name = "mutant-mono_taps_twice"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
