"""The legend rule destroys the extra legends, so umbra armor saves them.

Rule broken: CR 704.5j (the other legends are *put into* their owners' graveyards, not
destroyed; 701.7b lists the only ways to destroy), and the ruling (Indrik Umbra
2024-06-07) "Umbra armor has no effect if the enchanted creature is put into a graveyard
for any other reason, such as if ... the "legend rule" applies to it". The saved legend
then loses its Aura to the next check, until it has none left and dies.

Bug: ``move_to_graveyard`` turns the legend rule's zone change into ``destroy``.
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class MutantGame(Game):
    _sba_decider = None

    def check_state_based_actions(self, decider):
        self._sba_decider = decider
        super().check_state_based_actions(decider)

    def move_to_graveyard(self, ids, cause):
        if cause.get("rule") == "704.5j":  # the bug: the legend rule "destroys"
            self.destroy(list(ids), "704.5j", self._sba_decider)
            return
        super().move_to_graveyard(ids, cause)


class MutantEngine(ReferenceEngine):
    name = "mutant-umbra_saves_legend"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
