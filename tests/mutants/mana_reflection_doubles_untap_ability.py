"""Replacement effects on "tapped for mana" also apply to a {Q} mana ability.

Rule broken: CR 106.12 and 106.12b: to tap a permanent for mana is to activate a mana
ability with {T} in its cost; Pili-Pala's "{2}, {Q}: Add one mana of any color" is not,
so Mana Reflection doesn't double it.

Bug: ``resolve_mana_ability`` treats every mana ability as tapping for mana.
"""

from dataclasses import replace

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class MutantGame(Game):
    def resolve_mana_ability(self, obj, ability, cost, player, decider):
        super().resolve_mana_ability(obj, ability, replace(cost, tap=True), player, decider)  # the bug


class MutantEngine(ReferenceEngine):
    name = "mutant-mana_reflection_doubles_untap_ability"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
