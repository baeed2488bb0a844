"""The reference engine's definitions of cards whose Oracle text is not published.

The neutral card data (:mod:`cards`) knows these cards by name only: their records have
null characteristics, and their rules are known from their Gatherer rulings alone
(``invariants/data/rulings.json`` and the seed rulings pages). The engine still needs
characteristics to put them into a game, so each definition below says where every
characteristic came from; where the rulings imply nothing, the engine picks the least it
can play and says so. Their abilities are modelled exactly as the rulings state (see the
card scripts in :mod:`reference_engine.cards` and :mod:`reference_engine.chance`), never
from a guessed Oracle text: ``oracle_text`` is empty.

Pokey, the Scallywagg (Mystery Booster 2 playtest card; rulings 2024-11-08):

* name: the full name the rulings page gives.
* abilities: its second ability ("Each time a spell or ability instructs you to flip a
  coin, you may apply Pokey's second ability as a replacement effect to roll a d20
  instead", 1-10 tails, 11-20 heads) and its third ("... instructs you to roll a d20,
  you may apply Pokey's third ability as a replacement effect to flip a coin instead",
  heads 20, tails 1). Its first ability is unknown: nothing is modelled of it, and its
  rulings say nothing of it (the card's script lists it nowhere, since no event can be
  said to make an unknown ability matter).
* types: unknown. Its abilities apply while it is on the battlefield ("Pokey's second
  ability as a replacement effect"), so it is a permanent; the engine makes it a
  creature (a "Pokey" that is a character, and a creature is out of reach of Orb of
  Origin, whose rulings name only noncreature artifacts, so no unruled interaction is
  invented). No supertypes, no subtypes, colourless.
* power/toughness: unknown; 1/1, the least that survives the state-based action for
  toughness 0 or less (CR 704.5f).
* mana cost: unknown; none (mana value 0, CR 202.3).

Orb of Origin's characteristics come from the card data (its rulings make it a poly
noncreature artifact, ``cards/data/cards.json``); its abilities are in
:mod:`reference_engine.playtest` (the first one, known only to have no {T} in its cost,
resolves with no effect: none is ruled).
"""

from __future__ import annotations

from cards import Card

#: Engine definitions of unpublished cards, by name (see the module docstring).
UNPUBLISHED: dict[str, Card] = {
    "Pokey, the Scallywagg": Card(
        name="Pokey, the Scallywagg",
        mana_cost="",
        supertypes=(),
        types=("Creature",),
        subtypes=(),
        colors=(),
        power=1,
        toughness=1,
        oracle_text="",
        published=False,
    ),
}
