"""Octopus Umbra's 8/8 always wins over "base power and toughness N/N" effects, whatever the timestamps.

Rule broken: CR 613.4b and 613.7 (within layer 7b, effects apply in timestamp order) and
the Octopus Umbra ruling: "Any power- or toughness-setting effects that start to apply
to a creature after Octopus Umbra becomes attached to it will overwrite this effect."

Bug: ``layer_7b`` applies the setting effects of resolved spells first and the static
ones of Auras last (two lists concatenated instead of one list in timestamp order).
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class MutantGame(Game):
    def layer_7b(self, power, toughness, effects):
        resolved = [e for e in effects if e.until_end_of_turn]
        static = [e for e in effects if not e.until_end_of_turn]
        return super().layer_7b(power, toughness, resolved + static)  # the bug: not timestamp order


class MutantEngine(ReferenceEngine):
    name = "mutant-layers_aura_setting_always_wins"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
