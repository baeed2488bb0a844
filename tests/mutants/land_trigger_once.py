"""Only one "whenever a player taps a land for mana" permanent triggers.

Rule broken: CR 106.12a, 603.2: each Heartbeat of Spring and each Mana Flare triggers
separately when a land is tapped for mana.

Bug: ``tapped_for_mana_triggers`` stops after the first trigger.
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class MutantGame(Game):
    _fired = 0

    def tapped_for_mana_triggers(self, obj, player, mana, decider):
        self._fired = 0
        super().tapped_for_mana_triggers(obj, player, mana, decider)

    def has_land_mana_trigger(self, source):
        if not super().has_land_mana_trigger(source) or self._fired:  # the bug
            return False
        self._fired += 1
        return True


class MutantEngine(ReferenceEngine):
    name = "mutant-land_trigger_once"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
