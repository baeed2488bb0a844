"""Counters are applied after the switch: a +1/+0 counter still adds to power after 7d.

Rule broken: CR 613.4c/613.4d: layer 7c ("Effects and counters that modify power and/or
toughness") is applied before layer 7d (switching), and CR 613.4 applies sublayers in
order whatever the timestamps.

Bug: ``apply_pt_layers`` applies the modifying effects, then the switch, then the
counters (counters kept as a separate "bonus" added at the end, a common shortcut).
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class MutantGame(Game):
    def apply_pt_layers(self, power, toughness, effects, counters):
        power, toughness = self.layer_7b(power, toughness, effects)
        power, toughness = self.layer_7c(power, toughness, effects, {})
        power, toughness = self.layer_7d(power, toughness, effects)
        return self.layer_7c(power, toughness, [], counters)  # the bug: counters after 7d


class MutantEngine(ReferenceEngine):
    name = "mutant-layers_counters_after_switch"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
