"""Brazen Dwarf triggers once per die rolled instead of once per roll.

Rule broken: CR 603.2 and Brazen Dwarf's Oracle text "Whenever you roll one or more dice":
one roll of several dice is one event, one trigger.

Bug: the engine triggers "whenever you roll" for each die not ignored.
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class MutantGame(Game):
    def roll(self, player, event, instruction, decider):
        kept, entries = super().roll(player, event, instruction, decider)
        for _ in kept[1:]:  # the bug: one more trigger per extra die
            self.chance_triggers(player, "roll one or more dice")
        return kept, entries


class MutantEngine(ReferenceEngine):
    name = "mutant-brazen_dwarf_per_die"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
