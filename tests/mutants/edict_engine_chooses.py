"""An edict sacrifices the player's newest creature without asking them.

Rule broken: CR 701.17a (to sacrifice a permanent, its controller moves it to the graveyard) and
the edict's "target player sacrifices a creature": the player chooses which of their creatures.

Bug: the engine picks the creature itself (the last one to enter the battlefield) instead of
asking the player through the decider.
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class MutantGame(Game):
    def edict_choice(self, player, options, decider):
        return options[-1]  # the bug: nobody is asked


class MutantEngine(ReferenceEngine):
    name = "mutant-edict_engine_chooses"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
