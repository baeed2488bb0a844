"""An "at the beginning of your upkeep" ability triggers in the draw step too.

Rule broken: CR 503.1a and 603.2: an ability that triggers "at the beginning of your upkeep"
triggers once, as the upkeep step begins; the draw step (CR 504) is another step, whose beginning
triggers only "at the beginning of your draw step" abilities.

Bug: the engine collects the step abilities to trigger by "beginning of a step of your turn" and
forgets which step, so every upkeep ability of the active player's permanents triggers again as
the draw step begins.
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class MutantGame(Game):
    def beginning_of_step_triggers(self, player, step):
        super().beginning_of_step_triggers(player, step)
        if step == "draw":
            super().beginning_of_step_triggers(player, "upkeep")  # the bug


class MutantEngine(ReferenceEngine):
    name = "mutant-upkeep_trigger_in_draw_step"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
