"""State-based actions are checked once after an event instead of until none apply.

Rule broken: CR 704.3 ("... then performs all applicable state-based actions
simultaneously as a single event. If any state-based actions are performed as a result
of a check, the check is repeated"). An Aura whose creature just died stays on the
battlefield unattached (704.5m), a creature saved by umbra armor that is left with
toughness 0 stays (704.5f), and so on.

Bug: the check stops after the first batch of zone changes it performs.
"""

from contextlib import contextmanager

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class _Done(Exception):
    pass


class MutantGame(Game):
    _checking = False

    def check_state_based_actions(self, decider):
        self._checking = True
        try:
            super().check_state_based_actions(decider)
        except _Done:  # the bug: no second check
            pass
        finally:
            self._checking = False

    @contextmanager
    def simultaneous(self):
        with super().simultaneous():
            yield
        if self._checking:
            raise _Done


class MutantEngine(ReferenceEngine):
    name = "mutant-sba_checked_once"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
