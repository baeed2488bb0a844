"""Krark's Thumb applies to every player's coin flips, not only its controller's.

Rule broken: CR 614.1a and Krark's Thumb's Oracle text "If you would flip a coin, instead
flip two coins and ignore one": "you" is its controller; another player's Thumb never
applies to your flips.

Bug: ``chance_replacements`` collects the replacement effects of every permanent on the
battlefield instead of those the flipping player controls.
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine
from reference_engine.chance import REPLACEMENTS


class MutantGame(Game):
    def chance_replacements(self, player):
        found = super().chance_replacements(player)
        for obj in self.battlefield():
            script = self.copiable_values(obj)[1]
            if obj.controller != player and "thumb" in script.chance_replacements:  # the bug
                found.append((obj.id, f"{REPLACEMENTS['thumb'].label}:{obj.id}", REPLACEMENTS["thumb"]))
        return found


class MutantEngine(ReferenceEngine):
    name = "mutant-thumb_applies_to_opponents"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
