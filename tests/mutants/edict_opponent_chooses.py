"""An edict's opponent, not the player it instructs, chooses the creature sacrificed.

Rule broken: CR 701.17a: "target player sacrifices a creature" is that player's action; the
player who sacrifices chooses which of their creatures (the caster of the edict doesn't).

Bug: the engine asks the player's opponent (as if the edict's controller chose its victim, like
a "destroy target creature") which of the player's creatures to sacrifice.
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class MutantGame(Game):
    def edict_choice(self, player, options, decider):
        opponent = next(p for p in self.players if p != player)
        return super().edict_choice(opponent, options, decider)  # the bug: the wrong player chooses


class MutantEngine(ReferenceEngine):
    name = "mutant-edict_opponent_chooses"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
