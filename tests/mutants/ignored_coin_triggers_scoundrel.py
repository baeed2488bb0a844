"""The coin Krark's Thumb ignores still triggers Tavern Scoundrel when it matches the call.

Rule broken: CR 706.6 (an ignored roll "is considered to have never happened. No abilities
trigger because of the ignored roll"; the same holds for the coin Krark's Thumb ignores).

Bug: ``flip`` checks every coin flipped against the call for "whenever you win a coin
flip", the ignored one included (the log still marks it ignored).
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import ReferenceEngine

from tests.mutants._chance import extra_chance_triggers

#: One more trigger per ignored coin that matches the call.
MutantGame = extra_chance_triggers(
    "flip", "win a coin flip",
    lambda kept, entries, call: sum(1 for e in entries if e["ignored"] and call is not None and e["result"] == call))


class MutantEngine(ReferenceEngine):
    name = "mutant-ignored_coin_triggers_scoundrel"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
