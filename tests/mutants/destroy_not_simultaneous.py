"""An effect that destroys several permanents destroys them one at a time.

Rule broken: CR 701.7a and 614.1 (one effect that destroys several permanents
destroys them all at once, in one event, and replacement effects watch for that event
as the game is just before it), and the ruling (Hyena Umbra 2010-06-15) on
destroying an Aura with umbra armor and its creature at the same time. If the Aura is
processed first, it is already gone when the creature is destroyed; if Umbra Mystic
is destroyed first, Auras that had umbra armor only through it lose it (Wrath of God).

Bug: ``destroy`` handles its targets one by one, each as a separate event.
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class MutantGame(Game):
    def destroy(self, targets, by, decider, cant_be_regenerated=frozenset()):
        for oid in targets:  # the bug: one event per target
            super().destroy([oid], by, decider, cant_be_regenerated)


class MutantEngine(ReferenceEngine):
    name = "mutant-destroy_not_simultaneous"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
