"""Library searches and Omnipresent Impostor's names (capability ``library_search``).

Omnipresent Impostor (Mystery Booster 2 playtest card; its rulings 2024-11-08, seed page
002) has "Omnipresent Impostor has all card names.", a characteristic-defining ability
(CR 604.3) that "functions in all zones as well as outside the game": the object has
the name of every card (:func:`cards.card_names`: back faces included, token names
never). A copy of it copies that ability (CR 707.2), so a Clone or a token copy of it
has all card names too. It has the basic supertype (printed; it is no land, so not a
basic land, CR 205.4c).

Names are checked as CR 201.2a says: two objects have the same name if they have at
least one name in common. In the card pool: Bile Blight ("Target creature and all other
creatures with the same name as that creature get -3/-3 until end of turn").

Searching (its ruling "Each time you search your deck for one or more cards, you can
find Omnipresent Impostor in place of one of those cards ... Continue resolving the
search effect with Omnipresent Impostor in place of whatever card it replaced"): every
search of a library for N cards asks its player N times (decider kind ``"search"``,
options ``"nothing"`` and the ids of the cards of that library it may still find: the
cards with the stated quality and every Omnipresent Impostor), stopping at
``"nothing"`` (a hidden zone: nothing has to be found). The cards found go on with the
rest of the effect: Sakura-Tribe Elder (its activated ability, "Sacrifice Sakura-Tribe
Elder: Search your library for a basic land card, put that card onto the battlefield
tapped") and Explosive Vegetation (up to two, onto the battlefield tapped) put them onto
the battlefield tapped; Goblin Engineer's enters ability puts it into its controller's
graveyard (:mod:`reference_engine.triggers`). Zone changes are logged with cause
``{"event": "search", "by": NAME}``. The shuffle that ends each search makes the
library's order unknown (``Game.shuffled_libraries``; see :mod:`.unmodelled`).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING
from collections.abc import Callable

from cards import Card, card_names

from harness import decisions as D
from .abilities import SEARCH_BASIC_LAND_TAPPED
from .cards import SAME_NAME_MINUS, SEARCH_BASIC_LANDS_TAPPED
from .errors import IllegalAction
from .layers import characteristics
from .objects import BATTLEFIELD, GameObject

if TYPE_CHECKING:
    from .game_base import GameBase
else:
    GameBase = object  # the declared base is for the type checker only (reference_engine.game_base)

#: Spell kinds of this module (a card script's ``spell``): Explosive Vegetation, Bile Blight.
SPELLS = frozenset({SEARCH_BASIC_LANDS_TAPPED, SAME_NAME_MINUS})


def basic_land_card(card: Card) -> bool:
    """"a basic land card": a land with the basic supertype (CR 205.4c)."""
    return "Basic" in card.supertypes and "Land" in card.types


def cast_spell(game: GameBase, name: str, script, controller: str, targets: list):
    """Validate a cast of a spell of this module; return ``perform(decider)``.

    Explosive Vegetation takes no target; Bile Blight one creature on the battlefield.
    Raises :class:`IllegalAction` (``"illegal_target"``) otherwise.
    """
    if script.spell == SEARCH_BASIC_LANDS_TAPPED:
        if targets:
            raise IllegalAction("illegal_target", f"{name} takes 0 target(s), got {len(targets)}")
        return lambda decider: game.search_library(controller, basic_land_card, script.spell_amount, name, decider,
                                                   "battlefield tapped")
    if len(targets) != 1:
        raise IllegalAction("illegal_target", f"{name} takes 1 target(s), got {len(targets)}")
    target = game.objects.get(targets[0]) if isinstance(targets[0], str) else None
    if target is None or target.zone != BATTLEFIELD or not characteristics(game, target).is_creature:
        raise IllegalAction("illegal_target", f"{name} targets a creature on the battlefield, not {targets[0]!r}")

    def perform(decider):
        amount = -script.spell_amount
        others = [o.id for o in game.battlefield()
                  if o.id != target.id and characteristics(game, o).is_creature and game.share_a_name(o, target)]
        game.add_effect([target.id, *others], "7c", amount, amount, source=name)

    return perform


#: Whether a card has all card names, by its id (with the card, so the id stays its): reading its
#: rules text each time an object is observed is slow.
_ALL_NAMES: dict[int, tuple[object, bool]] = {}


class SearchRules(GameBase):
    """Names (CR 201.2) and library searches, a mixin of :class:`reference_engine.game.Game`."""

    # ------------------------------------------------------------------ names
    def has_all_names(self, obj: GameObject) -> bool:
        """Whether ``obj`` has every card name (Omnipresent Impostor's characteristic-defining
        ability, in every zone; a copy of it copies it, CR 707.2)."""
        definition = self.copiable_values(obj)[0] if obj.zone == BATTLEFIELD else obj.card
        known = _ALL_NAMES.get(id(definition))
        if known is None or known[0] is not definition:
            if len(_ALL_NAMES) > 4096:  # copies may make new cards: keep it small
                _ALL_NAMES.clear()
            known = _ALL_NAMES[id(definition)] = (definition, definition.has_all_card_names)
        return known[1]

    def object_names(self, obj: GameObject) -> frozenset[str]:
        """The names ``obj`` has: every card name of the pool for an object with all names
        (never a token's name), else its one name (CR 201.2)."""
        if self.has_all_names(obj):
            return card_names()
        return frozenset({characteristics(self, obj).name})

    def share_a_name(self, a: GameObject, b: GameObject) -> bool:
        """CR 201.2a: ``a`` and ``b`` have the same name if they have at least one name in common."""
        return bool(self.object_names(a) & self.object_names(b))

    # --------------------------------------------------------------- searches
    def search_options(self, player: str, wanted: Callable[[Card], bool]) -> list[str]:
        """The cards of ``player``'s library a search for a card ``wanted`` may find: those
        with the stated quality, and every Omnipresent Impostor in place of one (its ruling);
        a token is no card."""
        return [o.id for o in self.objects.values()
                if o.zone == "library" and o.owner == player and not o.token
                and (wanted(o.card) or self.has_all_names(o))]

    def search_library(self, player: str, wanted: Callable[[Card], bool], count: int, by: str, decider,
                       destination: str) -> list[GameObject]:
        """``player`` searches their library for up to ``count`` cards ``wanted``, puts them
        into ``destination`` (``"battlefield tapped"`` or ``"graveyard"``), then shuffles.

        Asks ``count`` times at most (decider kind ``"search"``, options ``"nothing"`` and the
        ids :meth:`search_options` gives, less those already found), stopping at ``"nothing"``;
        not asked when there is nothing to find. Returns the objects found, in order.
        Raises ValueError for an answer that is not an option.
        """
        self.shuffled_libraries.add(player)  # "then shuffle": its order is unknown from now on
        found: list[GameObject] = []
        options = self.search_options(player, wanted)
        while options and len(found) < count:
            choice = decider.choose(player, D.SEARCH, [D.NOTHING, *options])
            if choice == D.NOTHING:
                break
            if choice not in options:
                raise ValueError(f"decider answered {choice!r}, not one of {['nothing', *options]}")
            options.remove(choice)
            found.append(self.objects[choice])
        for obj in found:
            if destination == "graveyard":
                self.put_found_into_graveyard(obj, by)
            else:
                self.put_found_onto_battlefield(obj, player, by, tapped=True)
        return found

    def put_found_into_graveyard(self, obj: GameObject, by: str) -> None:
        """A card found by a search goes from its owner's library to their graveyard."""
        obj.zone = "graveyard"
        obj.timestamp = self._tick()
        self.log.append({"kind": "zone_change", "object": obj.id, "from": "library", "to": "graveyard",
                         "cause": {"event": "search", "by": by}})

    def put_found_onto_battlefield(self, obj: GameObject, player: str, by: str, tapped: bool) -> None:
        """A card found by a search enters the battlefield under ``player``'s control, tapped
        if the effect says so (a new object, CR 400.7; a creature is summoning sick, 302.6);
        its enters abilities trigger (CR 603.6a)."""
        obj.reset_for_zone_change(BATTLEFIELD, player, self._tick())
        obj.tapped = tapped
        obj.summoning_sick = characteristics(self, obj).is_creature
        self.log.append({"kind": "zone_change", "object": obj.id, "from": "library", "to": BATTLEFIELD,
                         "cause": {"event": "search", "by": by}})
        self.enters_with_counters(obj)
        self.enters_triggers(obj)

    # ------------------------------------------ Sakura-Tribe Elder's activated ability
    def sacrifices_itself(self, obj: GameObject, part: str) -> bool:
        """Whether cost ``part`` is "Sacrifice <this object's name>" (CR 201.5: a card's own
        name in its text means that object)."""
        if part == f"Sacrifice {characteristics(self, obj).name}":
            return True
        if self.copiable_values(obj)[1].model is None:
            return False
        # A card of the card database: "Sacrifice this artifact", a legend's short name (CR 201.5).
        return re.fullmatch(r"Sacrifice this (creature|artifact|enchantment|land|permanent)", part) is not None \
            or part == f"Sacrifice {characteristics(self, obj).name.split(',')[0]}"

    def check_other_cost(self, obj: GameObject, ability, part: str, player: str) -> None:
        """"Sacrifice Sakura-Tribe Elder": the permanent is on the battlefield, so it can be paid."""
        if not self.sacrifices_itself(obj, part):
            return super().check_other_cost(obj, ability, part, player)
        return None

    def pay_other_cost(self, obj: GameObject, ability, part: str, player: str, decider) -> None:
        """Sacrifice the permanent itself (CR 701.17a)."""
        if not self.sacrifices_itself(obj, part):
            return super().pay_other_cost(obj, ability, part, player, decider)
        self.sacrifice(obj)
        return None

    def resolve_activated_ability(self, obj: GameObject, ability, player: str, targets: list[str], decider) -> None:
        """Sakura-Tribe Elder's ability resolves (from the stack, its source gone: CR 113.7a)."""
        if ability.kind != SEARCH_BASIC_LAND_TAPPED:
            return super().resolve_activated_ability(obj, ability, player, targets, decider)
        self.log.append({"kind": "ability_resolved", "object": obj.id, "ability": ability.index, "targets": []})
        self.search_library(player, basic_land_card, 1, self.source_name(obj.id), decider, "battlefield tapped")
        return None
