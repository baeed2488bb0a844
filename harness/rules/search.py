"""State machine rules for Omnipresent Impostor's names and library searches (capability
``library_search``; CR 201.2, Omnipresent Impostor's rulings 2024-11-08).

A rules-area mixin of :class:`harness.running.machine.EngineMachine`. Boards of an engine that
claims ``library_search`` get, on three in four, a search corner (:func:`search_objects`):
one or two Omnipresent Impostors in a player's library, perhaps a basic land and an
artifact card beside them, perhaps an Impostor on the battlefield and one in another zone.
Its rules have a player search (Sakura-Tribe Elder's ability, Explosive Vegetation,
Goblin Engineer's enters ability: decider kind ``"search"``) and cast Bile Blight, the name
check, on a creature, sometimes after Raise the Alarm's Soldier Tokens joined the board,
so an Impostor meets a card's name and a token's name within a few steps.
"""

from __future__ import annotations

import cards as card_data
from hypothesis import strategies as st
from hypothesis.stateful import precondition, rule

from harness.generation import strategies as S
from .base import RulesArea, needs

IMPOSTOR = "Omnipresent Impostor"
#: The other zones an Impostor of the search corner may be in (its names work in every zone).
OTHER_ZONES = ("graveyard", "hand", "exile")


@st.composite
def search_objects(draw):
    """The search corner of a board: ids ``si0``/``si1`` (Impostors in the library of one
    player, two on two corners in three), ``sl`` (a Forest there) and ``sa`` (Darksteel Myr,
    an artifact card, there), ``sb`` (an Impostor on the battlefield, on three corners in
    four), ``sz`` (an Impostor in a graveyard, hand or exile). Every part but the first
    Impostor shrinks toward absent."""
    owner = draw(S.players)
    several = S.integer(draw, 0, 2) > 0  # several Impostors for several cards
    found = [{"id": f"si{i}", "card": IMPOSTOR, "owner": owner, "zone": "library"}
             for i in range(2 if several else 1)]
    if S.boolean(draw):
        found.append({"id": "sl", "card": "Forest", "owner": owner, "zone": "library"})
    if S.boolean(draw):
        found.append({"id": "sa", "card": "Darksteel Myr", "owner": owner, "zone": "library"})
    if S.integer(draw, 0, 3):  # three corners in four: an Impostor that name checks meet
        controller = draw(S.players)
        found.append({"id": "sb", "card": IMPOSTOR, "owner": controller, "controller": controller})
    if S.rarely(draw, 3):
        found.append({"id": "sz", "card": IMPOSTOR, "owner": draw(S.players),
                      "zone": S.element(draw, OTHER_ZONES)})
    return found


def search_corner(plan) -> st.SearchStrategy[list[dict]]:
    """The search corner on three boards in four (absent is what shrinking goes toward), with only
    the cards ``plan`` plays (``Plan.plays``)."""
    corner = search_objects().map(lambda objs: [o for o in objs if plan.plays(o["card"])])
    return st.one_of(st.none(), corner, corner, corner)


def with_search_corner(boards: st.SearchStrategy[dict], plan) -> st.SearchStrategy[dict]:
    """``boards`` with the search corner added, for a ``plan`` that claims ``library_search``;
    for any other plan, ``boards`` itself (the same strategy object: nothing more is drawn,
    so generation for an engine without the capability is unchanged)."""
    if "library_search" not in plan.capabilities:
        return boards
    return st.tuples(boards, search_corner(plan)).map(
        lambda pair: pair[0] if not pair[1] else {**pair[0], "objects": pair[0]["objects"] + pair[1]})


class SearchActions(RulesArea):
    """Rules generating library searches and name checks (the board's search corner is added
    by :func:`with_search_corner`, in ``harness.running.machine.make_machine``)."""

    def _searcher(self, data) -> str:
        """The player who searches: three times in four the owner of an Omnipresent Impostor in
        a library (when there is one), else either player."""
        observation = self.observation
        owners = sorted({owner for o in observation["objects"].values()
                         if o.get("zone") == "library" and o.get("name") == IMPOSTOR and (owner := o.get("owner")) is not None})
        if owners and S.draw_integer(data, 0, 3, "an Impostor's owner searches") < 3:
            return owners[0] if len(owners) == 1 else S.draw_element(data, owners, "searcher")
        return data.draw(S.players, label="searcher")

    def _search(self, data) -> None:
        """A player searches their library: Explosive Vegetation is cast, Sakura-Tribe Elder is
        put onto the battlefield and its ability activated, or Goblin Engineer enters. Which
        event a card needs is read from its card data (a sorcery is cast; a creature's
        "Cost: Search ..." is activated; "When ... enters, you may search" needs only it to enter)."""
        owner = self._searcher(data)
        name = self._card(data, "searchers")
        card = card_data.card(name)
        if card.is_type("Sorcery") or card.is_type("Instant"):
            self._apply({"type": "cast", "card": name, "controller": owner, "targets": []}, data)
            return
        oid = self._new_id()
        self._apply({"type": "put_onto_battlefield", "id": oid, "card": name, "controller": owner,
                     "attach_to": None}, data)
        if ": Search your library" in card.oracle_text:
            self._apply({"type": "activate", "object": oid, "ability": 0}, data)

    def _name_check(self, caster, data) -> None:
        """Bile Blight on a creature on the battlefield, a third of the time after two Soldier
        Tokens were created (Raise the Alarm), whose name is a token's (then one of them is the
        target half the time)."""
        tokens = []
        if "tokens" in self.capabilities and "Raise the Alarm" in self.run_plan.lists.get("token_spells", ()) \
                and S.draw_integer(data, 0, 2, "tokens first") == 2:
            tokens = [self._new_id(), self._new_id()]
            self._apply({"type": "cast", "card": "Raise the Alarm", "controller": caster, "targets": [],
                         "token_ids": tokens}, data)
        creatures = self._live()
        if not creatures:
            return
        if tokens and tokens[0] in creatures and S.draw_boolean(data, "a token's name"):
            target = tokens[0]
        else:
            target = S.draw_element(data, creatures, "target")
        self._apply({"type": "cast", "card": self._card(data, "name_checks"), "controller": caster,
                     "targets": [target]}, data)

    @needs("library_search", cards="searchers")
    @rule(data=st.data())
    def search_scene(self, data):
        """A player searches their library (what the rulings' examples do: Sakura-Tribe Elder,
        Goblin Engineer, and a search for two cards)."""
        self._search(data)

    @needs("library_search", cards="searchers")
    @needs("library_search", cards="name_checks")
    @rule(caster=S.players, data=st.data())
    def search_then_name_check(self, caster, data):
        """A search, then a name check on what is on the battlefield: an Impostor found by
        Sakura-Tribe Elder meets Bile Blight."""
        self._search(data)
        if not self.stopped and self.session is not None and not self.session.broken and self.has_creature():
            self._name_check(caster, data)

    @needs("library_search", cards="name_checks")
    @precondition(lambda self: self.has_creature())
    @rule(caster=S.players, data=st.data())
    def name_check(self, caster, data):
        """A name check (CR 201.2a): Bile Blight on a creature (see :meth:`_name_check`)."""
        self._name_check(caster, data)
