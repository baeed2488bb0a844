"""The coin Krark's Thumb ignores still triggers Tavern Scoundrel when it matches the call.

Rule broken: CR 706.6 (an ignored roll "is considered to have never happened. No abilities
trigger because of the ignored roll"; the same holds for the coin Krark's Thumb ignores).

Bug: ``flip`` checks every coin flipped against the call for "whenever you win a coin
flip", the ignored one included (the log still marks it ignored).
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class MutantGame(Game):
    def flip(self, player, event, call, instruction, decider):
        kept, entries = super().flip(player, event, call, instruction, decider)
        for entry in entries:
            if entry["ignored"] and call is not None and entry["result"] == call:  # the bug
                self.chance_triggers(player, "win a coin flip")
        return kept, entries


class MutantEngine(ReferenceEngine):
    name = "mutant-ignored_coin_triggers_scoundrel"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
