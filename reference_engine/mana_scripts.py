"""Card scripts of the mana and activation-cost cards (CR 106, 605, 107.5, 107.6).

Part of :data:`reference_engine.cards.SCRIPTS`. The costs of activated abilities are
read from the Oracle text (:mod:`.abilities`); a script names what each one does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import abilities as A

if TYPE_CHECKING:  # pragma: no cover
    from .cards import CardScript


def mana_card_scripts() -> dict[str, "CardScript"]:
    """The scripts of the mana and activation-cost cards, by Oracle name."""
    from .abilities import CONTAMINATION, DOUBLE, TRIPLE
    from .cards import CardScript

    return {
        # Basic lands: the mana ability comes from the basic land type (CR 305.6).
        "Plains": CardScript(),
        "Island": CardScript(),
        "Swamp": CardScript(),
        "Mountain": CardScript(),
        "Forest": CardScript(),
        "Llanowar Elves": CardScript(activated=(A.ADD,)),
        "Birds of Paradise": CardScript(activated=(A.ADD_ANY_COLOR,)),
        "Reflecting Pool": CardScript(activated=(A.ADD_LAND_YOU_CONTROL_TYPE,)),
        "Exotic Orchard": CardScript(activated=(A.ADD_OPPONENT_LAND_COLOR,)),
        "Fellwar Stone": CardScript(activated=(A.ADD_OPPONENT_LAND_COLOR,)),
        "Mana Reflection": CardScript(mana_replacement=DOUBLE),
        "Nyxbloom Ancient": CardScript(mana_replacement=TRIPLE),  # trample: reference_engine.combat
        "Heartbeat of Spring": CardScript(land_mana_trigger=True),
        "Mana Flare": CardScript(land_mana_trigger=True),
        # "You have no maximum hand size" (CR 402.2): observed as its controller's max_hand_size.
        "Thought Vessel": CardScript(activated=(A.ADD,), no_maximum_hand_size=True),
        "Pili-Pala": CardScript(activated=(A.ADD_ANY_COLOR,)),
        "Gilder Bairn": CardScript(activated=(A.DOUBLE_COUNTERS,)),
        "Order of Whiteclay": CardScript(activated=(A.RETURN_SMALL_CREATURE,)),
        "Puresight Merrow": CardScript(activated=(A.LOOK_AND_EXILE_TOP,)),
        "Fatestitcher": CardScript(activated=(A.TAP_OR_UNTAP_ANOTHER, A.UNEARTH),
                                   not_modelled=("Unearth {U} (activating it raises Unsupported)",)),
        "Contamination": CardScript(
            mana_replacement=CONTAMINATION,
            not_modelled=("At the beginning of your upkeep, sacrifice Contamination unless you sacrifice a "
                          "creature.",),
        ),
    }

