"""Proof that each Omnipresent Impostor invariant (``invariants/names_and_searches.py``) can pass and can fail.

``CASES`` maps each invariant to (holds, broken, says), as ``tests/test_invariants.py``
expects: "holds" is a real step of the reference engine on a scripted scenario whose
expected values ``tests/test_impostor_rulings.py`` checks against the Impostor rulings
(2024-11-08); "broken" is that step's observation or decisions altered the way a buggy
engine would report them; ``says`` is a word the failure message must contain.
"""

from __future__ import annotations

import copy

from invariants import Decision, Transition
from reference_engine import ReferenceEngine

from .scenario_helpers import Decider, board, obj

IMPOSTOR, ELDER = "Omnipresent Impostor", "Sakura-Tribe Elder"


def step(objects, event, *answers) -> Transition:
    """One step of the reference engine on a board of ``objects``, as a Transition whose ``after``
    shares no dict with its ``before`` (the reference game gives out an unchanged object's entry
    again, the very dict: the cases and tests change ``after`` as a buggy engine would report it)."""
    game = ReferenceEngine().new_game(board(*objects))
    before = game.observe()
    decider = Decider(*answers)
    game.apply(event, decider)
    decisions = [Decision(p, k, tuple(o), a) for (p, k, o), a in zip(decider.asked, answers)]
    return Transition(before, event, copy.deepcopy(game.observe()), decisions=decisions)


def altered(t: Transition, change) -> Transition:
    t = copy.deepcopy(t)
    change(t)
    return t


def impostor_in_library_bears_destroyed() -> Transition:
    """An Impostor waits in a library while Grizzly Bears is destroyed: it keeps all its names there."""
    return step([obj("imp", IMPOSTOR, zone="library"), obj("bears", "Grizzly Bears")],
                {"type": "destroy", "targets": ["bears"]})


def bile_blight_on_a_soldier_token() -> Transition:
    """Bile Blight on a Soldier Token: the Impostor (no token name) stays a 2/1."""
    return step([obj("imp", IMPOSTOR), obj("s1", "Soldier Token", token=True), obj("s2", "Soldier Token", token=True)],
                {"type": "cast", "card": "Bile Blight", "controller": "P2", "targets": ["s1"]})


def bile_blight_on_big_bears() -> Transition:
    """Bile Blight on a 5/5 Grizzly Bears: the 5/4 Impostor shares the name and becomes 2/1."""
    return step([obj("bears", "Grizzly Bears", counters={"+1/+1": 3}), obj("imp", IMPOSTOR, counters={"+1/+1": 3})],
                {"type": "cast", "card": "Bile Blight", "controller": "P2", "targets": ["bears"]})


def elder_finds_impostor() -> Transition:
    """Sakura-Tribe Elder finds the Impostor in place of a basic land card: it enters tapped."""
    return step([obj("ste", ELDER), obj("imp", IMPOSTOR, zone="library"), obj("f", "Forest", zone="library")],
                {"type": "activate", "object": "ste", "ability": 0}, "imp")


def vegetation_finds_two_impostors() -> Transition:
    """Explosive Vegetation finds two Impostors for its two cards."""
    return step([obj("a", IMPOSTOR, zone="library"), obj("b", IMPOSTOR, zone="library")],
                {"type": "cast", "card": "Explosive Vegetation", "controller": "P1", "targets": []}, "a", "b")


def engineer_finds_impostor() -> Transition:
    """Goblin Engineer's enters ability puts the Impostor into its owner's graveyard."""
    return step([obj("imp", IMPOSTOR, zone="library")], {"type": "put_onto_battlefield", "id": "ge",
                                                         "card": "Goblin Engineer", "controller": "P1",
                                                         "attach_to": None}, "imp")


def _drop_names(t):
    del t.after["objects"]["imp"]["names"]


def _not_offered(t):
    t.decisions = [Decision("P1", "search", ("nothing", "f"), "nothing")]


def _untapped(t):
    t.after["objects"]["imp"]["tapped"] = False


CASES = {
    "impostor.all_names_in_every_zone": (impostor_in_library_bears_destroyed,
                                         lambda: altered(impostor_in_library_bears_destroyed(), _drop_names),
                                         "names"),
    "impostor.basic_supertype": (impostor_in_library_bears_destroyed,
                                 lambda: altered(impostor_in_library_bears_destroyed(),
                                                 lambda t: t.after["objects"]["imp"].update(supertypes=[])),
                                 "basic supertype"),
    "impostor.same_name": (bile_blight_on_a_soldier_token,
                           lambda: altered(bile_blight_on_a_soldier_token(),
                                           lambda t: t.after["objects"]["imp"].update(zone="graveyard")),
                           "shares no name"),
    "search.impostor_may_be_found": (elder_finds_impostor, lambda: altered(elder_finds_impostor(), _not_offered),
                                     "doesn't offer"),
    "search.found_card_goes_on": (elder_finds_impostor, lambda: altered(elder_finds_impostor(), _untapped),
                                  "tapped"),
}

#: More ways each is broken: (invariant, broken transition, word of the message).
MORE_BROKEN = [
    ("impostor.all_names_in_every_zone",
     lambda: altered(impostor_in_library_bears_destroyed(),
                     lambda t: t.after["objects"]["bears"].update(names="all")), "no such ability"),
    ("impostor.same_name",
     lambda: altered(bile_blight_on_big_bears(), lambda t: t.after["objects"]["imp"].update(power=5, toughness=4)),
     "shares a name"),
    ("search.impostor_may_be_found", lambda: altered(elder_finds_impostor(), lambda t: setattr(t, "decisions", [])),
     "without being asked"),
    ("search.impostor_may_be_found",
     lambda: altered(vegetation_finds_two_impostors(),
                     lambda t: t.decisions.__setitem__(1, Decision("P1", "search", ("nothing",), "nothing"))),
     "doesn't offer b"),
    ("search.found_card_goes_on",
     lambda: altered(engineer_finds_impostor(), lambda t: t.after["objects"]["imp"].update(zone="battlefield")),
     "graveyard"),
]


def bile_blight_lets_umbra_armor_save() -> Transition:
    """Bile Blight on a damaged Typhoid Rats wearing Hyena and Boar Umbra (5/5, 2 damage): as a
    2/2 with 2 damage it would be destroyed, umbra armor destroys Hyena Umbra instead and removes
    the damage; it is 1/1 +3/+3 -3/-3 = 1/1, not 5/5 - 3/3 (the Aura's bonus is gone too)."""
    return step([obj("rats", "Typhoid Rats", damage=2), obj("h", "Hyena Umbra", attached_to="rats"),
                 obj("b", "Boar Umbra", attached_to="rats")],
                {"type": "cast", "card": "Bile Blight", "controller": "P2", "targets": ["rats"]}, "umbra armor:h")


MORE_HOLDS = [("impostor.same_name", bile_blight_lets_umbra_armor_save)]
