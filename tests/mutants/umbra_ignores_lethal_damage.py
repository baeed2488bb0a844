"""Umbra armor only replaces "destroy" spells and effects, not death from lethal damage.

Rule broken: CR 702.89a with 704.5g/704.5h and 701.7b (lethal damage and deathtouch
damage destroy the creature, so umbra armor applies), and the ruling (Hyena Umbra
2010-06-15) "Totem armor's effect is applied no matter why the enchanted permanent would
be destroyed: because it's been dealt lethal damage, or because it's being affected by
an effect that says to 'destroy' it".

Bug: the state-based actions' destruction only looks for regeneration shields.
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class MutantGame(Game):
    _by: str = ""

    def destroy(self, targets, by, decider, cant_be_regenerated=frozenset()):
        outer, self._by = self._by, by
        try:
            super().destroy(targets, by, decider, cant_be_regenerated)
        finally:
            self._by = outer

    def destruction_replacements(self, obj, cant_be_regenerated):
        options = super().destruction_replacements(obj, cant_be_regenerated)
        if self._by.startswith("704."):  # the bug: no umbra armor for state-based destruction
            options = [o for o in options if not o.startswith("umbra armor:")]
        return options


class MutantEngine(ReferenceEngine):
    name = "mutant-umbra_ignores_lethal_damage"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
