"""Where an ability the engine does not model would matter: the engine declines there.

Every card script lists the abilities the engine does not model (``CardScript.not_modelled``).
The engine must never give a verdict in a game where one of them would apply: there it
raises :class:`~reference_engine.errors.Unsupported` before changing anything, so the
example is discarded, never judged. Each not-modelled ability has one :class:`Gap` here:
either a check that recognises the events it would matter in, or the reason no event of
the vocabulary can make it matter (``check`` None).

:func:`decline_if_unmodelled` is called by ``Game.apply`` after an event is validated and
before it is performed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING
from collections.abc import Callable

from .abilities import LOOK_AND_EXILE_TOP, UNEARTH
from .cards import card
from .errors import UnknownCard, Unsupported
from .layers import characteristics
from .model_targets import protected_from
from .objects import BATTLEFIELD, CARDS_CHANGED, GameObject, cards_mark

if TYPE_CHECKING:
    from .game_base import GameBase

PROTECTION_FROM_MULTICOLORED = "protection from multicolored"


@dataclass(frozen=True)
class Gap:
    """One ability of ``card`` the engine does not model (``ability``: the text in its script).

    ``reason`` is the :class:`Unsupported` reason code; ``when`` says in words when it would
    matter (or, with ``check`` None, why no event can make it matter). ``check(game,
    event)`` is True when performing ``event`` now would need the ability.
    """

    card: str
    ability: str
    reason: str
    when: str
    check: Callable[[GameBase, dict], bool] | None = None


#: The event types each check can be True on (:func:`_on`); a check not listed may be True on any.
_EVENTS: dict[Callable, frozenset[str]] = {}


def _on(*types: str):
    """Declare that the check it decorates is False on every event whose type isn't one of ``types``:
    :func:`decline_if_unmodelled` asks it only on those."""
    def declare(check):
        _EVENTS[check] = frozenset(types)
        return check
    return declare


# ------------------------------------------------------------------ helpers
def _object(game: GameBase, oid) -> GameObject | None:
    obj = game.objects.get(oid) if isinstance(oid, str) else None
    return obj if obj is not None and obj.zone == BATTLEFIELD else None


def _enchanted_by(game: GameBase, creature, card: str) -> list:
    """The Auras named ``card`` (by their copiable values) attached to ``creature``."""
    return [a for a in game.attached_to(creature.id) if game.copiable_values(a)[0].name == card]


def _becomes(event: dict, status: str, game) -> GameObject | None:
    """The creature a ``set_combat`` event gives ``status`` to, if it doesn't have it yet."""
    if event.get("type") != "set_combat" or event.get("status") != status:
        return None
    obj = _object(game, event.get("object"))
    return obj if obj is not None and obj.combat != status else None


def _attacks_enchanted_by(card: str) -> Callable[[GameBase, dict], bool]:
    """A creature enchanted by ``card`` attacks (a "whenever this creature attacks" ability it grants)."""
    @_on("set_combat")
    def check(game, event) -> bool:
        creature = _becomes(event, "attacking", game)
        return creature is not None and bool(_enchanted_by(game, creature, card))
    return check


@_on("damage")
def _snake_umbra(game: GameBase, event) -> bool:
    """A creature enchanted by Snake Umbra deals damage to an opponent of its controller."""
    if event.get("type") != "damage":
        return False
    source, target = _object(game, event.get("source")), event.get("target")
    return (source is not None and target in game.players and target != source.controller
            and bool(_enchanted_by(game, source, "Snake Umbra")))


@_on("set_combat")
def _indrik_umbra(game: GameBase, event) -> bool:
    """Combat status changes while a creature enchanted by Indrik Umbra attacks or is made to attack
    (then which creatures must block it would matter)."""
    if event.get("type") != "set_combat":
        return False
    target = _object(game, event.get("object"))
    if target is not None and event.get("status") == "attacking" and _enchanted_by(game, target, "Indrik Umbra"):
        return True
    return any(o.combat == "attacking" and _enchanted_by(game, o, "Indrik Umbra") for o in game.battlefield())


@_on("set_combat")
def _dog_umbra(game: GameBase, event) -> bool:
    """A creature enchanted by a Dog Umbra that another player controls is made to attack or block."""
    if event.get("type") != "set_combat" or event.get("status") not in ("attacking", "blocking"):
        return False
    creature = _object(game, event.get("object"))
    return creature is not None and any(a.controller != creature.controller
                                        for a in _enchanted_by(game, creature, "Dog Umbra"))


def _protected(game: GameBase, oid) -> bool:
    obj = _object(game, oid)
    return obj is not None and PROTECTION_FROM_MULTICOLORED in game.copiable_values(obj)[0].keywords


def _multicolored_card(name) -> bool:
    try:
        return len(card(name)[0].colors) > 1
    except (UnknownCard, TypeError):  # refused by validation before this is asked
        return False


@_on("damage", "cast", "put_onto_battlefield", "attach")
def _stonecoil_serpent(game: GameBase, event) -> bool:
    """Protection from multicolored would matter (CR 702.16): a multicolored source deals it
    damage (prevented), a multicolored spell targets it, or a multicolored Aura would
    become attached to it."""
    kind = event.get("type")
    if kind == "damage":
        source = _object(game, event.get("source"))
        return source is not None and len(characteristics(game, source).colors) > 1 and _protected(
            game, event.get("target"))
    if kind == "cast":
        targets = event.get("targets") if isinstance(event.get("targets"), list) else []
        return _multicolored_card(event.get("card")) and any(_protected(game, t) for t in targets)
    if kind == "put_onto_battlefield":
        return _multicolored_card(event.get("card")) and _protected(game, event.get("attach_to"))
    if kind == "attach":
        aura = _object(game, event.get("aura"))
        return aura is not None and len(characteristics(game, aura).colors) > 1 and _protected(game, event.get("to"))
    return False


@_on("put_onto_battlefield")
def _hydroid_krasis(game: GameBase, event) -> bool:
    """Hydroid Krasis put onto the battlefield as a spell cast with X >= 2: its cast trigger would
    gain half X life and draw half X cards (rounded down: nothing for X < 2)."""
    x = event.get("x")
    return (event.get("type") == "put_onto_battlefield" and event.get("card") == "Hydroid Krasis"
            and isinstance(x, int) and x >= 2)


@_on("set_combat")
def _islandwalk(game: GameBase, event) -> bool:
    """A creature is made to block while an attacking creature with islandwalk (CR 702.14)
    attacks and the blocker's controller controls an Island: which creatures could block
    it would matter."""
    blocker = _becomes(event, "blocking", game)
    if blocker is None:
        return False
    islands = any("Island" in characteristics(game, o).subtypes and o.controller == blocker.controller
                  for o in game.battlefield())
    return islands and any(o.combat == "attacking" and "islandwalk" in game.copiable_values(o)[0].keywords
                           for o in game.battlefield())


def _activation(game: GameBase, event):
    """(object, ability) an ``activate`` event names, whatever zone the object is in, or None."""
    oid, index = event.get("object"), event.get("ability")
    obj = game.objects.get(oid) if event.get("type") == "activate" and isinstance(oid, str) else None
    if obj is None or not isinstance(index, int) or isinstance(index, bool) or index < 0:
        return None
    abilities = game.printed_abilities(obj)
    return (obj, abilities[index]) if index < len(abilities) else None


#: The checks made by :func:`_of_activation`, with the function of the activation each calls.
_OF_ACTIVATION: dict[Callable | None, Callable] = {}


def _of_activation(of: Callable[[GameBase, GameObject, object], bool]) -> Callable[[GameBase, dict], bool]:
    """The check ``check(game, event)``: True when ``event`` activates an ability (:func:`_activation`:
    ``(obj, ability)``) and ``of(game, obj, ability)`` is True. Declared on ``activate`` events
    only; :func:`decline_if_unmodelled` finds the activation once for all such checks."""
    @_on("activate")
    def check(game, event) -> bool:
        found = _activation(game, event)
        return found is not None and of(game, *found)
    check.__doc__ = of.__doc__
    _OF_ACTIVATION[check] = of
    return check


@_of_activation
def _top_after_shuffle(game: GameBase, obj: GameObject, ability) -> bool:
    """Puresight Merrow looks at the top card of a library a search shuffled (Goblin Engineer,
    Sakura-Tribe Elder, Explosive Vegetation):
    which card is on top is no longer the board's order (CR 701.24a)."""
    return obj.zone == BATTLEFIELD and ability.kind == LOOK_AND_EXILE_TOP and obj.controller in game.shuffled_libraries


@_of_activation
def _unearth(game: GameBase, obj: GameObject, ability) -> bool:
    """Fatestitcher's unearth is activated from its graveyard (CR 702.84a)."""
    return obj.zone == "graveyard" and ability.kind == UNEARTH


def _sword_in_graveyard(game: GameBase, event) -> bool:
    """A Sword of the Meek is in a graveyard: its "return ... then attach" trigger may matter."""
    for o in _named(game, "Sword of the Meek").values():
        if o.zone == "graveyard":
            return True
    return False


def _named(game: GameBase, name: str) -> dict[str, GameObject]:
    """``game``'s objects whose card is named ``name``, by id, kept from one call to the next while
    no object was put into the game's objects and no card was set (:func:`reference_engine.objects.cards_mark`),
    found again among every object otherwise. One name per game."""
    objects = game.objects
    known = game.__dict__.get("_named_kept")  # (cards mark, name, found)
    if known is not None and known[1] == name:
        mark = known[0]
        if mark is not None and mark[0] == CARDS_CHANGED[0] and mark[2] is objects and mark[1] == objects.mutations:
            return known[2]
    found = {o.id: o for o in objects.values() if o.card.name == name}
    object.__setattr__(game, "_named_kept", (cards_mark(objects), name, found))  # not the game's state
    return found


@_of_activation
def _treasure_activated(game: GameBase, obj: GameObject, ability) -> bool:
    """A Treasure token's "{T}, Sacrifice this artifact: Add one mana of any color." is
    activated (CR 111.10a); a Treasure that has no abilities now (a tapped continuous one)
    has nothing to activate, and the activation is refused instead."""
    return obj.zone == BATTLEFIELD and obj.card.name == "Treasure Token" and bool(game.activated_abilities(obj))


@_on("begin_step")
def _contamination_upkeep(game: GameBase, event) -> bool:
    """The upkeep of a player who controls a Contamination begins (its upkeep ability would trigger)."""
    return (event.get("type") == "begin_step" and event.get("step") == "upkeep"
            and any(o.controller == event.get("player") and game.copiable_values(o)[0].name == "Contamination"
                    for o in game.battlefield()))


NO_CASTING = "no event casts a permanent spell, so when it could be cast never matters"
NO_MANA = "the event that performs the ability (activate_regeneration, attach) is free by definition"
NO_ACTIVATION = "only activating it would make it matter; the engine never performs it (an activation is declined)"

#: Every ability of the card pool the engine does not model, and when it would matter.
GAPS: tuple[Gap, ...] = (
    Gap("Bear Umbra", 'granted "Whenever this creature attacks, untap all lands you control."',
        "ability:attack trigger", "the enchanted creature is made to attack (set_combat attacking)",
        _attacks_enchanted_by("Bear Umbra")),
    Gap("Octopus Umbra",
        'granted "Whenever this creature attacks, you may tap target creature with power 8 or less."',
        "ability:attack trigger", "the enchanted creature is made to attack (set_combat attacking)",
        _attacks_enchanted_by("Octopus Umbra")),
    Gap("Snake Umbra", 'granted "Whenever this creature deals damage to an opponent, you may draw a card."',
        "ability:damage trigger", "the enchanted creature deals damage to an opponent of its controller",
        _snake_umbra),
    Gap("Indrik Umbra", "all creatures able to block it do so", "ability:blocking requirement",
        "combat status is set while the enchanted creature attacks, or it is made to attack", _indrik_umbra),
    Gap("Dog Umbra", "enchanted creature can't attack or block while another player controls it",
        "ability:can't attack or block", "the enchanted creature is made to attack or block while another player "
        "controls it", _dog_umbra),
    Gap("Stonecoil Serpent", PROTECTION_FROM_MULTICOLORED, "ability:protection",
        "a multicolored source deals it damage, a multicolored spell targets it, or a multicolored Aura would "
        "enchant it", _stonecoil_serpent),
    Gap("Hydroid Krasis", "When you cast this spell, you gain half X life and draw half X cards. (casting is not "
                          "modelled)", "ability:cast trigger", "it is put onto the battlefield with x >= 2",
        _hydroid_krasis),
    Gap("Eel Umbra", "Flash (casting is not modelled)", "ability:flash", NO_CASTING),
    Gap("Dog Umbra", "Flash (casting is not modelled)", "ability:flash", NO_CASTING),
    Gap("Felidar Umbra", "the mana cost {1}{W} of its attach ability (the attach event is free)", "cost:mana",
        NO_MANA),
    Gap("Crab Umbra", "{2}{U}: Untap enchanted creature.", "ability:activated", NO_ACTIVATION),
    Gap("River Boa", "Islandwalk", "ability:landwalk",
        "a creature is made to block while it attacks and the blocker's controller controls an Island", _islandwalk),
    Gap("River Boa", "the {G} cost of its regeneration ability", "cost:mana", NO_MANA),
    Gap("Drudge Skeletons", "the {B} cost of its regeneration ability", "cost:mana", NO_MANA),
    Gap("Hangarback Walker", "{1}, {T}: Put a +1/+1 counter on Hangarback Walker. (use the add_counters event)",
        "ability:activated", NO_ACTIVATION),
    Gap("Goblin Engineer", "{R}, {T}, Sacrifice an artifact: Return target artifact card with mana value 3 or less "
                           "from your graveyard to the battlefield.", "ability:activated", NO_ACTIVATION),
    Gap("Goblin Engineer", "the shuffle (library order is not modelled)", "ability:shuffle",
        "the top card of a library its search shuffled is looked at (Puresight Merrow)", _top_after_shuffle),
    Gap("Sakura-Tribe Elder", "the shuffle (library order is not modelled)", "ability:shuffle",
        "the top card of a library its search shuffled is looked at (Puresight Merrow)", _top_after_shuffle),
    Gap("Explosive Vegetation", "the shuffle (library order is not modelled)", "ability:shuffle",
        "the top card of a library its search shuffled is looked at (Puresight Merrow)", _top_after_shuffle),
    Gap("Sword of the Meek", "Whenever a 1/1 creature enters the battlefield under your control, you may return "
                             "Sword of the Meek from your graveyard to the battlefield, then attach it to that "
                             "creature.", "ability:graveyard trigger",
        "a Sword of the Meek is in a graveyard (any event may make a 1/1 creature enter: a card, a token, a "
        "Thopter of a Hangarback Walker that dies)", _sword_in_graveyard),
    Gap("Treasure Token", "{T}, Sacrifice this artifact: Add one mana of any color.", "ability:not modelled",
        "a Treasure's mana ability is activated (the activation is declined, CR 111.10a)", _treasure_activated),
    Gap("Fatestitcher", "Unearth {U} (activating it raises Unsupported)", "ability:unearth",
        "its unearth ability is activated from its owner's graveyard (CR 702.84a)", _unearth),
    Gap("Contamination", "At the beginning of your upkeep, sacrifice Contamination unless you sacrifice a "
                         "creature.",
        "ability:upkeep trigger", "the upkeep step of its controller begins (begin_step upkeep, CR 503.1a)",
        _contamination_upkeep),
    Gap("Cackling Counterpart", "Flashback {5}{U}{U}", "ability:flashback",
        "the cast event casts spells from outside the game, never from a graveyard"),
)


def decline_if_unmodelled(game: GameBase, event: dict) -> None:
    """Raise :class:`Unsupported` if performing ``event`` now would need an ability the engine
    does not model (a :class:`Gap` with a check). Changes nothing."""
    activation, looked = None, False
    for gap, check, of in _asked_on(event.get("type")):
        if of is None:
            matters = check(game, event)
        else:  # the activation found once for every check of one (what gap.check would find)
            if not looked:
                activation, looked = _activation(game, event), True
            matters = activation is not None and of(game, *activation)
        if matters:
            raise Unsupported(gap.reason, f"{gap.card}: {gap.ability} would matter ({gap.when})")
    if _protection_prevents(game, event):
        raise Unsupported("ability:protection", "protection would prevent the damage (CR 702.16e is not modelled)")


_ASKED_ON: dict = {}


def _asked_on(kind) -> list[tuple[Gap, Callable[[GameBase, dict], bool], Callable | None]]:
    """``(gap, its check, the function of the activation the check calls or None)``
    (:func:`_of_activation`) for each gap of :data:`GAPS` whose check may be True on an event of
    type ``kind``, in order."""
    known = _ASKED_ON.get(kind) if isinstance(kind, str) else None
    if known is None or known[0] is not GAPS:
        asked = [(g, g.check, _OF_ACTIVATION.get(g.check)) for g in GAPS if g.check is not None
                 and (g.check not in _EVENTS or kind in _EVENTS[g.check])]
        if not isinstance(kind, str):
            return asked
        known = _ASKED_ON[kind] = (GAPS, asked)
    return known[1]


def _checked_on(kind) -> list[Gap]:
    """The gaps of :data:`GAPS` whose check may be True on an event of type ``kind``, in order."""
    return [gap for gap, _, _ in _asked_on(kind)]


def _protection_prevents(game: GameBase, event) -> bool:
    """A ``damage`` event from a source that the target has protection from (the card
    database's protection abilities, CR 702.16e: the damage would be prevented)."""
    if event.get("type") != "damage":
        return False
    source, target = _object(game, event.get("source")), _object(game, event.get("target"))
    if source is None or target is None:
        return False
    keywords = characteristics(game, target).keywords
    if not any(k.startswith("protection from ") for k in keywords):
        return False
    ch = characteristics(game, source)
    return protected_from(keywords, ch.colors, ch.types)
