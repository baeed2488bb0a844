"""A copy copies the original's power and toughness after all layers (Octopus Umbra's 8/8).

Rule broken: CR 707.2 (copiable values are "the values derived from the text printed on
the object ... as modified by other copy effects"; "Other effects ... are not copied")
and the Penumbra Umbra ruling (2024-11-08): "Except for its color, the token copies
exactly what was printed on the original creature and nothing else".

Bug: ``copy_source_values`` takes the current power and toughness of the original, so
a copy of a creature enchanted by Octopus Umbra, or pumped by Giant Growth, is bigger.
"""

from dataclasses import replace

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine
from reference_engine.layers import characteristics


class MutantGame(Game):
    def copy_source_values(self, obj):
        definition, script = super().copy_source_values(obj)
        now = characteristics(self, obj)  # the bug: computed P/T instead of the copiable one
        return replace(definition, power=now.power, toughness=now.toughness), script


class MutantEngine(ReferenceEngine):
    name = "mutant-layers_copy_uses_computed_pt"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
