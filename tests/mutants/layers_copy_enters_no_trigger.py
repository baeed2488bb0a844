"""The enters abilities of a copy don't trigger (the engine only triggers printed abilities).

Rule broken: CR 707.5 ("any enters-the-battlefield triggered abilities of the copy will
have a chance to trigger"), 603.6a, and the Penumbra Umbra ruling (2024-11-08): "Any
enters abilities of the copied creature will trigger when the token enters the
battlefield."

Bug: ``enters_triggers`` skips objects that entered as a copy.
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class MutantGame(Game):
    def enters_triggers(self, obj):
        if obj.copy_of is not None:
            return  # the bug
        super().enters_triggers(obj)


class MutantEngine(ReferenceEngine):
    name = "mutant-layers_copy_enters_no_trigger"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
