"""A permanent put onto the battlefield tapped enters untapped.

Rule broken: CR 110.5b ("Permanents enter the battlefield untapped ... unless a spell or ability
says otherwise"): an effect that puts a permanent onto the battlefield tapped says otherwise.

Bug: the engine reads "enters tapped" only from the permanent's own text (614.1c) and drops the
effect's "tapped".
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class MutantGame(Game):
    def enter_battlefield(self, oid, definition, script, controller, *, token=False, copy_effect=None, copy_of=None,
                          spell_x=0, attach_to=None, cause=None, tapped=False):
        return super().enter_battlefield(oid, definition, script, controller, token=token, copy_effect=copy_effect,
                                         copy_of=copy_of, spell_x=spell_x, attach_to=attach_to, cause=cause,
                                         tapped=False)  # the bug


class MutantEngine(ReferenceEngine):
    name = "mutant-put_tapped_ignored"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
