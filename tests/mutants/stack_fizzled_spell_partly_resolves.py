"""A spell whose only target became illegal still does the part of its effect that doesn't target.

Rule broken: CR 608.2b ("If all its targets, for every instance of the word "target," are now
illegal, the spell or ability doesn't resolve. It's removed from the stack and, if it's a spell,
put into its owner's graveyard"): Breathe Your Last ("Destroy target creature or planeswalker.
You gain 1 life for each of its colors.") whose target left the battlefield in response gains
nothing.

Bug: ``fizzle`` removes the spell but, like a spell with some legal targets (608.2b's second
half), carries out the instructions that don't name the target: its caster gains 1 life per
colour of the creature as it last existed.
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine
from reference_engine.cards import card


class MutantGame(Game):
    def fizzle(self, entry, decider):
        super().fizzle(entry, decider)
        if entry.kind != "spell" or card(entry.card)[1].spell != "destroy_gain_life":
            return
        known = self.last_known.get(entry.targets[0])
        colors = len(known.copiable[0].colors) if known is not None else 0
        if colors:  # the bug: "you gain 1 life for each of its colors" without its target
            self.players[entry.controller].life += colors
            self.log.append({"kind": "life_gained", "player": entry.controller, "amount": colors})


class MutantEngine(ReferenceEngine):
    name = "mutant-stack_fizzled_spell_partly_resolves"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
