"""Mana Reflection also doubles the mana Heartbeat of Spring adds.

Rule broken: CR 106.12b: a "tapped for mana" replacement effect modifies the mana
production event of the mana ability that tapped the permanent; the mana a triggered
ability then adds (Heartbeat of Spring, Mana Flare) is not tapped-for-mana mana.

Bug: the multipliers are applied to every mana added while a mana ability resolves.
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine
from reference_engine.abilities import MULTIPLIERS


class MutantGame(Game):
    def tapped_for_mana_triggers(self, obj, player, mana, decider):
        before = len(self.mana_pool(player))
        super().tapped_for_mana_triggers(obj, player, mana, decider)
        added = self.mana_pool(player)[before:]
        for source in self.mana_replacements(obj, player):  # the bug
            factor = MULTIPLIERS.get(self.mana_replacement_of(source), 1)
            self.mana_pool(player).extend(added * (factor - 1))
            added = added * factor


class MutantEngine(ReferenceEngine):
    name = "mutant-trigger_mana_multiplied"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
