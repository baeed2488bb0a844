"""A token that is exiled survives in exile.

Rule broken: CR 111.7 ("A token that's in a zone other than the battlefield ceases to exist") and
704.5d; 111.8 (a token that left the battlefield can't come back). A Soldier token exiled by an
effect (Swords to Plowshares) is gone from the game, not a card in exile.

Bug: exiling a token makes the exiled object a plain card (the engine copies the permanent into the
exile zone and forgets its token flag), so the state-based action never ceases it.
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class MutantGame(Game):
    def leave_battlefield(self, ids, zone, cause):
        super().leave_battlefield(ids, zone, cause)
        if zone == "exile":
            for oid in ids:
                obj = self.objects.get(oid)
                if obj is not None and obj.zone == "exile":
                    obj.token = False  # the bug: the exiled copy is no token


class MutantEngine(ReferenceEngine):
    name = "mutant-zones_token_survives_in_exile"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
