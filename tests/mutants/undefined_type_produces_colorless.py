"""An ability that would produce mana of an undefined type produces {C}.

Rule broken: CR 106.5: "If an ability would produce one or more mana of an undefined
type, it produces no mana instead." Reflecting Pool with no other land adds nothing.

Bug: ``mana_ability_output`` falls back to colourless mana.
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class MutantGame(Game):
    def mana_ability_output(self, obj, ability, player, decider):
        return super().mana_ability_output(obj, ability, player, decider) or {"C": 1}  # the bug


class MutantEngine(ReferenceEngine):
    name = "mutant-undefined_type_produces_colorless"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
