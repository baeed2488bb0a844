"""The d20 roll that replaced a coin flip (Pokey) doesn't get Pixie Guide's extra die.

Rule broken: CR 616.2 and the ruling (Pokey, the Scallywagg 2024-11-08) "If you apply
Pokey's second ability as a replacement effect to flipping a coin ... you can then apply
the replacement effect of Pixie Guide".

Bug: the engine decides which replacement effects can apply from the instruction the
effect gave (a flip), not from the event that replaced it (a roll).
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class MutantGame(Game):
    _instructed = None

    def apply_chance_replacements(self, player, event, decider):
        self._instructed = event.kind
        try:
            return super().apply_chance_replacements(player, event, decider)
        finally:
            self._instructed = None

    def chance_replacements(self, player):
        found = super().chance_replacements(player)
        if self._instructed == "flip":  # the bug
            found = [f for f in found if f[2].label != "Pixie Guide"]
        return found


class MutantEngine(ReferenceEngine):
    name = "mutant-pokey_roll_ignores_pixie"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
