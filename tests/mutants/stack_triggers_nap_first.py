"""Triggered abilities are put on the stack with the nonactive player's first.

Rule broken: CR 603.3b ("... each player, in APNAP order, puts each triggered ability they control
with a trigger condition that has been met on the stack in any order they choose"): the active
player's go on the stack first, so the nonactive player's resolve first (101.4).

Bug: ``apnap_order`` lists the players from the nonactive one (the order of the turn after).
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class MutantGame(Game):
    def apnap_order(self):
        return list(reversed(super().apnap_order()))  # the bug


class MutantEngine(ReferenceEngine):
    name = "mutant-stack_triggers_nap_first"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
