"""A creature with toughness 0 or less is "destroyed", so umbra armor replaces it.

Rule broken: CR 704.5f (the creature is put into its owner's graveyard; it is not
destroyed, 701.7b), and the ruling (Indrik Umbra 2024-06-07) "Umbra armor has no effect
if the enchanted creature is put into a graveyard for any other reason, such as ... if
its toughness is 0 or less." The creature's umbra Auras are destroyed one per check
instead of going to the graveyard by 704.5m.

Bug: ``move_to_graveyard`` turns the 704.5f zone change into ``destroy`` (except for
indestructible creatures, which would otherwise make the check loop forever).
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine
from reference_engine.layers import characteristics


class MutantGame(Game):
    _sba_decider = None

    def check_state_based_actions(self, decider):
        self._sba_decider = decider
        super().check_state_based_actions(decider)

    def move_to_graveyard(self, ids, cause):
        if cause.get("rule") == "704.5f":  # the bug: toughness 0 treated as destruction
            tough = [i for i in ids if "indestructible" in characteristics(self, self.objects[i]).keywords]
            self.destroy([i for i in ids if i not in tough], "704.5f", self._sba_decider)
            ids = tough
        super().move_to_graveyard(ids, cause)


class MutantEngine(ReferenceEngine):
    name = "mutant-umbra_saves_zero_toughness"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
