"""Counters are applied before setting effects, so Octopus Umbra's 8/8 wipes them out.

Rule broken: CR 613.4b/613.4c (counters are in layer 7c, after the setting effects of
7b) and the Octopus Umbra ruling: "Any power- or toughness-modifying effects (those that
give +N/+N, for example) and counters will apply to the creature's new base power and
toughness, even if they started to apply before Octopus Umbra became attached."

Bug: ``apply_pt_layers`` adds counters to the printed power and toughness, as if they
changed the base, then applies the setting effects.
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class MutantGame(Game):
    def apply_pt_layers(self, power, toughness, effects, counters):
        power, toughness = self.layer_7c(power, toughness, [], counters)  # the bug: counters first
        power, toughness = self.layer_7b(power, toughness, effects)
        power, toughness = self.layer_7c(power, toughness, effects, {})
        return self.layer_7d(power, toughness, effects)


class MutantEngine(ReferenceEngine):
    name = "mutant-layers_counters_before_setting"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
