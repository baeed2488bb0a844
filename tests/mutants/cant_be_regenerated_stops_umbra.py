""""Can't be regenerated" also switches off umbra armor.

Rule broken: CR 702.89a and 701.15c (only regeneration is stopped), and the ruling
(Hyena Umbra 2010-06-15) "Effects that say the enchanted permanent can't be regenerated
(as Vendetta does) won't prevent totem armor's effect from being applied." Wrath of God
kills a creature wearing an umbra Aura.

Bug: ``destruction_replacements`` returns no option at all when the permanent can't be
regenerated, treating umbra armor as a kind of regeneration.
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class MutantGame(Game):
    def destruction_replacements(self, obj, cant_be_regenerated):
        if cant_be_regenerated:  # the bug
            return []
        return super().destruction_replacements(obj, cant_be_regenerated)


class MutantEngine(ReferenceEngine):
    name = "mutant-cant_be_regenerated_stops_umbra"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
