"""Brazen Dwarf triggers once per die rolled instead of once per roll.

Rule broken: CR 603.2 and Brazen Dwarf's Oracle text "Whenever you roll one or more dice":
one roll of several dice is one event, one trigger.

Bug: the engine triggers "whenever you roll" for each die not ignored.
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import ReferenceEngine

from tests.mutants._chance import extra_chance_triggers

#: One more trigger per extra die kept.
MutantGame = extra_chance_triggers("roll", "roll one or more dice", lambda kept, entries, call: len(kept[1:]))


class MutantEngine(ReferenceEngine):
    name = "mutant-brazen_dwarf_per_die"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
