"""Lethal damage from a deathtouch source: only one of the two destructions is replaced.

Rule broken: CR 704.3 and 704.5g/704.5h (state-based actions are performed
simultaneously as one event; one replacement effect replaces the destruction), and the
ruling (Umbra Mystic 2024-06-07) "If a creature enchanted with an Aura that has umbra
armor would be destroyed by multiple state-based actions at the same time (for example,
because it has been dealt lethal damage by a source with deathtouch), umbra armor will
replace all of them and save the creature."

Bug: the engine performs 704.5g and 704.5h as two destructions; umbra armor (or a
regeneration shield) replaces the first, and the second destroys the creature anyway.
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine
from reference_engine.layers import characteristics


class MutantGame(Game):
    _both: frozenset = frozenset()

    def check_state_based_actions(self, decider):
        both = set()
        for obj in self.battlefield():
            ch = characteristics(self, obj)
            if (ch.is_creature and obj.deathtouch_damage and ch.toughness > 0 and obj.damage >= ch.toughness
                    and "indestructible" not in ch.keywords):
                both.add(obj.id)
        self._both = frozenset(both)
        try:
            super().check_state_based_actions(decider)
        finally:
            self._both = frozenset()

    def destroy(self, targets, by, decider, cant_be_regenerated=frozenset()):
        super().destroy(targets, by, decider, cant_be_regenerated)
        if by == "704.5g":
            # the bug: the 704.5h destruction of the same creature is performed separately, unreplaced
            again = [oid for oid in targets if oid in self._both and self.objects[oid].zone == "battlefield"]
            self.move_to_graveyard(again, {"event": "destroy", "by": "704.5h"})


class MutantEngine(ReferenceEngine):
    name = "mutant-deathtouch_lethal_replaced_once"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
