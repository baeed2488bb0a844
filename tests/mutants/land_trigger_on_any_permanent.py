"""Heartbeat of Spring and Mana Flare trigger when any permanent is tapped for mana.

Rule broken: CR 106.12a and the cards' "Whenever a player taps a land for mana": Llanowar
Elves or Birds of Paradise tapped for mana are no land, so nothing triggers.

Bug: ``tapped_for_mana_triggers`` forgets the land check.
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class MutantGame(Game):
    _any_permanent = False

    def tapped_for_mana_triggers(self, obj, player, mana, decider):
        self._any_permanent = True  # the bug: every permanent counts as a land here
        try:
            super().tapped_for_mana_triggers(obj, player, mana, decider)
        finally:
            self._any_permanent = False

    def is_land(self, obj):
        return self._any_permanent or super().is_land(obj)


class MutantEngine(ReferenceEngine):
    name = "mutant-land_trigger_on_any_permanent"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
