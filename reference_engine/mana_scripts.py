"""Card scripts of the mana and activation-cost cards (CR 106, 605, 107.5, 107.6).

Part of :data:`reference_engine.cards.SCRIPTS`. The costs of activated abilities are
read from the Oracle text (:mod:`.abilities`); a script names what each one does.
"""

from __future__ import annotations

from typing import TypeVar
from collections.abc import Callable

import reference_engine.abilities as A

#: The scripts' type: :class:`reference_engine.cards.CardScript`, which that module passes in
#: (so this one doesn't import it).
CardScript = TypeVar("CardScript")


def mana_card_scripts(script: Callable[..., CardScript]) -> dict[str, CardScript]:
    """The scripts of the mana and activation-cost cards, by Oracle name, each built by
    ``script`` (the class :class:`reference_engine.cards.CardScript`)."""
    from .abilities import CONTAMINATION, DOUBLE, TRIPLE

    return {
        # Basic lands: the mana ability comes from the basic land type (CR 305.6).
        "Plains": script(),
        "Island": script(),
        "Swamp": script(),
        "Mountain": script(),
        "Forest": script(),
        "Llanowar Elves": script(activated=(A.ADD,)),
        "Birds of Paradise": script(activated=(A.ADD_ANY_COLOR,)),
        "Reflecting Pool": script(activated=(A.ADD_LAND_YOU_CONTROL_TYPE,)),
        "Exotic Orchard": script(activated=(A.ADD_OPPONENT_LAND_COLOR,)),
        "Fellwar Stone": script(activated=(A.ADD_OPPONENT_LAND_COLOR,)),
        "Mana Reflection": script(mana_replacement=DOUBLE),
        "Nyxbloom Ancient": script(mana_replacement=TRIPLE),  # trample: reference_engine.combat
        "Heartbeat of Spring": script(land_mana_trigger=True),
        "Mana Flare": script(land_mana_trigger=True),
        # "You have no maximum hand size" (CR 402.2): observed as its controller's max_hand_size.
        "Thought Vessel": script(activated=(A.ADD,), no_maximum_hand_size=True),
        "Pili-Pala": script(activated=(A.ADD_ANY_COLOR,)),
        "Gilder Bairn": script(activated=(A.DOUBLE_COUNTERS,)),
        "Order of Whiteclay": script(activated=(A.RETURN_SMALL_CREATURE,)),
        "Puresight Merrow": script(activated=(A.LOOK_AND_EXILE_TOP,)),
        "Fatestitcher": script(activated=(A.TAP_OR_UNTAP_ANOTHER, A.UNEARTH),
                                   not_modelled=("Unearth {U} (activating it raises Unsupported)",)),
        "Contamination": script(
            mana_replacement=CONTAMINATION,
            not_modelled=("At the beginning of your upkeep, sacrifice Contamination unless you sacrifice a "
                          "creature.",),
        ),
    }

