"""With several umbra Auras, the controller of an Aura chooses which one is destroyed.

Rule broken: CR 616.1 (the affected object's controller chooses among replacement
effects) and the rulings (Umbra Mystic 2010-06-15 and 2024-06-07): the enchanted
creature's controller chooses, whoever controls the Auras.

Bug: ``choose_replacement`` asks the controller of the first umbra Aura, the source of
the effect, instead of the controller of the creature that would be destroyed.
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class MutantGame(Game):
    def choose_replacement(self, obj, options, decider):
        if len(options) == 1:
            return options[0]
        first = options[0]
        player = self.objects[first.split(":", 1)[1]].controller if first.startswith("umbra armor:") else obj.controller
        choice = decider.choose(player, "replacement_effect", options)  # the bug: the Aura's controller
        if choice not in options:
            raise ValueError(f"decider answered {choice!r}, not one of {options}")
        return choice


class MutantEngine(ReferenceEngine):
    name = "mutant-aura_controller_chooses"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
