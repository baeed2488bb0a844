"""A tapped continuous Thought Vessel still gives its controller no maximum hand size.

Rule broken: CR 402.2 (Orb of Origin ruling 2024-11-08: "if you activate Thought Vessel's
"{T}: Add {C}" ability, it'll lose its "You have no maximum hand size" ability as long as it
remains tapped").

Bug: ``max_hand_size`` reads the card's script and never asks whether the permanent has its
abilities now.
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine
from reference_engine.playtest import MAXIMUM_HAND_SIZE


class MutantGame(Game):
    def max_hand_size(self, player):
        for obj in self.battlefield():
            if obj.controller == player and self.copiable_values(obj)[1].no_maximum_hand_size:  # the bug
                return None
        return MAXIMUM_HAND_SIZE


class MutantEngine(ReferenceEngine):
    name = "mutant-vessel_keeps_hand_size_while_tapped"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
