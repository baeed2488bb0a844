"""Cards played from their card model: every modelled card of the card data that has no
hand-written script (``cards.model``, ``cards.reader``; :func:`reference_engine.cards.script_from_model`).

What the model says, the engine does through the same procedures as the curated cards:

* Spells (instants and sorceries, the ``cast`` event): each :class:`cards.model.Effect` in
  order. The spell is the source of its damage (CR 120.3), logged by its name, with no
  deathtouch or lifelink (it has no keywords). Targets are the event's ``targets``, taken
  in order by each targeting effect (``count`` of them, fewer for "up to"); a target that
  isn't legal (wrong kind or filters, not on the battlefield, hexproof or shroud, CR 702.11,
  702.18, protection from the spell's quality, CR 702.16b) is ``IllegalAction``
  (``"illegal_target"``) and changes nothing.
* Triggered abilities "When ~ enters" and "When ~ dies" (CR 603.6a, 603.6c, 700.4): they
  trigger as the curated ones do, choose targets as they are put on the stack (decider kind
  ``"target"``, nobody asked when only one is legal; no legal target: ``trigger_removed``,
  CR 603.3d), ask "you may" on resolution (kind ``"may"``, options ``["yes", "no"]``, CR
  603.5) and recheck their targets (608.2b). A dies ability uses its source as it last
  existed (CR 603.10a): its name, controller and keywords.
* Activated abilities (the ``activate`` event): costs are paid as for every ability
  (:mod:`reference_engine.costs`), then the effects resolve with the source's keywords
  (deathtouch, lifelink on any damage it deals, CR 702.2, 702.15b) as it is or, if it left
  the battlefield paying the cost, as it last existed.
* Static abilities: anthems ("Creatures you control get +1/+1", layer 7c and layer 6,
  CR 613.4c, 613.1f) while their source is on the battlefield, with its timestamp; Aura
  and Equipment bonuses are script fields (``enchanted_pt``, ``equipped_pt``, ...).

Where the engine can't be right, it declines (:class:`Unsupported`): a planeswalker as the
target of damage, damage a protection would prevent (CR 702.16e), drawing from a library
with too few cards (704.5b) or one a search shuffled, a self-reference ("it") the reader
can't tell from a target, more than one target for a triggered or activated ability.

Log entries: as for the curated cards (``damage`` with ``source`` the spell's name or the
permanent's id, ``zone_change`` with cause ``{"event": "destroy", "by": NAME}``,
``{"event": "create_token", "by": NAME or ID}``, ``{"event": "draw", "by": NAME or ID}``
for a card drawn, library to hand), ``life_gained``, ``life_lost`` (``player``, ``amount``),
``counters_added``, ``tapped`` / ``untapped`` (cause ``"effect"``), ``trigger``,
``trigger_removed``, ``ability_resolved``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import re
from dataclasses import dataclass, replace

from cards.model import Ability, Affected, Effect

from harness import decisions as D
from .cards import CardDef, CardScript
from .errors import IllegalAction, Unsupported
from .layers import characteristics
from .objects import BATTLEFIELD, GameObject, Trigger

COLOR_LETTERS = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}

from .triggers import MODEL_TRIGGER  # noqa: E402  (its ability in ``Trigger.info``)

if TYPE_CHECKING:
    from .game_base import GameBase
else:
    GameBase = object  # the declared base is for the type checker only (reference_engine.game_base)


@dataclass(frozen=True, slots=True)
class Source:
    """What an effect comes from: ``label`` (the spell's name or the permanent's id, as logged),
    ``name`` (its name, for causes ``by``), ``obj`` (the permanent's id, None for a spell),
    ``controller``, and the ``colors``, ``types`` and ``keywords`` it has (or last had)."""

    label: str
    name: str
    obj: str | None
    controller: str
    colors: tuple[str, ...] = ()
    types: tuple[str, ...] = ()
    keywords: frozenset[str] = frozenset()
    #: Its power and toughness now (or as it last existed); None for a spell or a noncreature.
    power: int | None = None
    toughness: int | None = None
    #: For a creature dies trigger: (power, toughness) of the creature that died, as it last
    #: existed (CR 603.10a), the "that creature" of its effects.
    that_creature: tuple | None = None


# ---------------------------------------------------------------- protection, filters
def protections(keywords) -> list[str]:
    """The qualities of a permanent's protection abilities ("red", "artifacts", ...; CR 702.16a)."""
    return [k[len("protection from "):] for k in keywords if k.startswith("protection from ")]


def protected_from(keywords, colors, types) -> bool:
    """Whether an object with ``keywords`` has protection from a source with ``colors`` and
    ``types`` (CR 702.16a)."""
    for quality in protections(keywords):
        if quality in COLOR_LETTERS and COLOR_LETTERS[quality] in colors:
            return True
        if (quality == "artifacts" and "Artifact" in types) or (quality == "creatures" and "Creature" in types):
            return True
        if quality == "everything" or (quality == "multicolored" and len(colors) > 1) \
                or (quality == "monocolored" and len(colors) == 1):
            return True
    return False


def _has_subtype(ch, subtype: str) -> bool:
    """A subtype check; a changeling creature has every creature type (CR 702.73a)."""
    return subtype in ch.subtypes or ("changeling" in ch.keywords and ch.is_creature)


_PT_FILTER = re.compile(r"^(power|toughness) (\d+) or (less|greater)$")
_KINDS = {"creature": "Creature", "artifact": "Artifact", "enchantment": "Enchantment", "land": "Land"}


def object_matches(game, obj: GameObject, kind: str, filters, controller: str, source_id: str | None) -> bool:
    """Whether permanent ``obj`` is a ``kind`` with ``filters`` (cards.model) for an effect that
    ``controller`` controls from ``source_id``. Raises Unsupported for a filter not modelled."""
    if obj.zone != BATTLEFIELD:
        return False
    ch = characteristics(game, obj)
    union = [k.strip() for k in kind.replace(", or ", ", ").replace(" or ", ", ").split(", ")]
    if kind in _KINDS:
        if _KINDS[kind] not in ch.types:
            return False
    elif len(union) > 1 and all(k in _KINDS for k in union):  # "artifact or enchantment"
        if not any(_KINDS[k] in ch.types for k in union):
            return False
    elif kind not in ("permanent", "any", "creature or player", "creature and player"):
        return False
    elif kind != "permanent" and not ch.is_creature:
        if "Planeswalker" in ch.types:
            raise Unsupported("ability:planeswalker", f"{obj.id!r} is a planeswalker (damage to it is not modelled)")
        return False
    for f in filters:
        if not _filter(game, obj, ch, f, controller, source_id):
            return False
    return True


def _filter(game, obj, ch, f: str, controller: str, source_id) -> bool:
    if f in COLOR_LETTERS:
        return COLOR_LETTERS[f] in ch.colors
    if f.startswith("non") and f[3:] in COLOR_LETTERS:
        return COLOR_LETTERS[f[3:]] not in ch.colors
    if f in ("artifact", "nonartifact", "nonland", "nonlegendary"):
        has = {"artifact": "Artifact" in ch.types, "nonartifact": "Artifact" not in ch.types,
               "nonland": "Land" not in ch.types, "nonlegendary": "Legendary" not in ch.supertypes}
        return has[f]
    if f == "you control":
        return obj.controller == controller
    if f == "opponent controls":
        return obj.controller != controller
    if f == "other":
        return obj.id != source_id
    if f in ("tapped", "untapped"):
        return obj.tapped == (f == "tapped")
    if f == "flying":
        return "flying" in ch.keywords
    if f == "without flying":
        return "flying" not in ch.keywords
    if f in ("attacking", "blocking"):
        return obj.combat == f
    if f == "attacking or blocking":
        return obj.combat in ("attacking", "blocking")
    if f.startswith("non-"):
        return not _has_subtype(ch, f[4:])
    m = _PT_FILTER.match(f)
    if m:  # "power 2 or less" (CR 208: its power now)
        value = ch.power if m.group(1) == "power" else ch.toughness
        if value is None:
            return False
        return value <= int(m.group(2)) if m.group(3) == "less" else value >= int(m.group(2))
    if f[:1].isupper() and f.isalpha():  # a creature type: "Zombie"
        return _has_subtype(ch, f)
    union = [k.strip() for k in f.replace(", or ", ", ").replace(" or ", ", ").split(", ")]
    if len(union) > 1 and all(k in _KINDS for k in union):  # "target creature or enchantment" (kind permanent)
        return any(_KINDS[k] in ch.types for k in union)
    raise Unsupported("ability:filter", f"the filter {f!r} is not modelled")


def legal_target(game, affected: Affected, target, source: Source) -> bool:
    """Whether ``target`` (an object id or a player id) is a legal target of an effect
    affecting ``affected`` from ``source`` (CR 115, 601.2c): the right kind and filters, on
    the battlefield, not hexproof against ``source``'s controller (CR 702.11b), not shroud
    (702.18a), no protection from ``source``'s quality (702.16b)."""
    if not isinstance(target, str):
        return False
    if target in game.players:
        if affected.kind in ("player", "any", "creature or player"):
            return not game.players[target].lost
        if affected.kind == "opponent":
            return target != source.controller
        return False
    obj = game.objects.get(target)
    if obj is None or obj.zone != BATTLEFIELD or affected.kind in ("player", "opponent"):
        return False
    if not object_matches(game, obj, affected.kind, affected.filters, source.controller, source.obj):
        return False
    keywords = characteristics(game, obj).keywords
    if "shroud" in keywords or ("hexproof" in keywords and obj.controller != source.controller):
        return False
    return not protected_from(keywords, source.colors, source.types)


def each_affected(game, affected: Affected, source: Source) -> list[str]:
    """The objects and players an "each"/"all" effect affects, ids in timestamp order then
    players in turn order (CR 101.4: players of the board's order)."""
    kind = affected.kind
    found: list[str] = []
    if kind not in ("player", "opponent"):
        objects_kind = "creature" if kind == "creature and player" else kind
        found = [o.id for o in game.battlefield()
                 if object_matches(game, o, objects_kind, affected.filters, source.controller, source.obj)]
    if kind in ("player", "creature and player"):
        found += [p for p in game.players if not game.players[p].lost]
    elif kind == "opponent":
        found += [p for p in game.players if p != source.controller and not game.players[p].lost]
    return found


def _ambiguous_self(ability_text: str, effects) -> bool:
    """"it" after a targeting effect names the target, not the source: the reader reads both
    as the source (``scope "self"``), so the engine can't tell."""
    text = ability_text.replace("~", "")
    return any(e.affected.scope == "target" for e in effects) and any(e.affected.scope == "self" for e in effects) \
        and (" it " in f" {text} " or "It " in text or " it." in text)


# ---------------------------------------------------------------- targets
def targeting(effects) -> list[int]:
    """Indices of the effects that target."""
    return [i for i, e in enumerate(effects) if e.affected.scope == "target"]


def assign_targets(game, effects, targets: list, source: Source) -> dict[int, list]:
    """The event's ``targets`` split among the targeting effects, in order, each checked; raises
    IllegalAction (``"illegal_target"``) for a wrong number or an illegal target."""
    wanted = targeting(effects)
    assigned: dict[int, list] = {}
    rest = list(targets)
    for n, i in enumerate(wanted):
        affected = effects[i].affected
        last = n == len(wanted) - 1
        if affected.up_to and last:
            take = rest[:affected.count]
            if len(rest) > affected.count:
                raise IllegalAction("illegal_target", f"{source.name} takes up to {affected.count} target(s) "
                                                      f"for {effects[i].action}, got {len(rest)}")
        else:
            if len(rest) < affected.count:
                raise IllegalAction("illegal_target", f"{source.name} takes {affected.count} target(s) for "
                                                      f"{effects[i].action}, got {len(rest)}")
            take = rest[:affected.count]
        rest = rest[len(take):]
        if len(set(map(repr, take))) != len(take):
            raise IllegalAction("illegal_target", f"{source.name}: the same target twice for one 'target' (CR 115.3)")
        for t in take:
            if not isinstance(t, str) or (t not in game.players and t not in game.objects):
                raise IllegalAction("no_such_object", f"target {t!r} is not an object or a player in the game")
            obj = game.objects.get(t)
            if obj is not None and obj.zone != BATTLEFIELD:
                raise IllegalAction("not_on_battlefield", f"target {t!r} is in the {obj.zone}, not on the battlefield")
            if not legal_target(game, affected, t, source):
                raise IllegalAction("illegal_target", f"{source.name} can't target {t!r} "
                                                      f"({affected.kind} {' '.join(affected.filters)})".rstrip())
        assigned[i] = take
    if rest:
        raise IllegalAction("illegal_target", f"{source.name} takes {len(targets) - len(rest)} target(s), "
                                              f"got {len(targets)}")
    return assigned


def check_effects(game, effects, assigned: dict[int, list], source: Source, ability_text: str) -> None:
    """Raise Unsupported where the engine can't be right for these effects now (module
    docstring). Changes nothing."""
    if _ambiguous_self(ability_text, effects):
        raise Unsupported("ability:it", f"{source.name}: {ability_text!r} ('it' may be its target)")
    for i, effect in enumerate(effects):
        if effect.affected.scope == "controller":
            raise Unsupported("ability:its controller", f"{source.name}: {ability_text!r}")
        if effect.affected.scope == "self" and source.obj is None:
            raise Unsupported("ability:self", f"{source.name}: a spell's effect on itself ({ability_text!r})")
        if effect.action == "damage":
            recipients = assigned.get(i) if effect.affected.scope == "target" else \
                each_affected(game, effect.affected, source) if effect.affected.scope == "each" else []
            for r in recipients or ():
                obj = game.objects.get(r)
                if obj is None:
                    continue
                ch = characteristics(game, obj)
                if not ch.is_creature:
                    raise Unsupported("ability:planeswalker", f"damage to {r!r}, not a creature, is not modelled")
                if protected_from(ch.keywords, source.colors, source.types):
                    raise Unsupported("ability:protection", f"{r!r}'s protection would prevent damage from "
                                                            f"{source.name} (CR 702.16e)")
        if effect.action == "draw":
            for player in _players(game, effect.affected, assigned.get(i), source):
                _check_draw(game, player, effect.amount)
        if effect.action == "create_tokens" and effect.token is not None and effect.token.keywords:
            pass
        if effect.action == "flicker":  # a return that needs a choice (an Aura, a Clone) is declined
            from .zones import check_returnable

            scope = effect.affected.scope
            ids = assigned.get(i, []) if scope == "target" else each_affected(game, effect.affected, source) \
                if scope == "each" else [source.obj] if scope == "self" and source.obj else []
            for oid in ids:
                obj = game.objects.get(oid)
                if obj is not None:
                    check_returnable(game, obj)


def _check_draw(game, player: str, amount: int) -> None:
    library = [o for o in game.objects.values() if o.zone == "library" and o.owner == player]
    if len(library) < amount:
        raise Unsupported("rule:draw from an empty library", f"{player} would draw {amount} card(s) from a library "
                                                             f"of {len(library)} (CR 704.5b is not modelled)")
    if player in game.shuffled_libraries:
        raise Unsupported("ability:shuffle", f"{player}'s library was shuffled: its top card is unknown")


def _players(game, affected: Affected, targets, source: Source) -> list[str]:
    if affected.scope == "you":
        return [source.controller]
    if affected.scope == "target":
        return [t for t in targets or () if t in game.players]
    if affected.scope == "each":
        return [p for p in each_affected(game, affected, source) if p in game.players]
    return []


def divide_damage(effects, assigned: dict[int, list], event: dict, name: str):
    """"~ deals N damage divided as you choose among one, two, or three targets" (CR 601.2d): the
    caster announces the division as the spell is cast, the event's ``division`` (one amount per
    target of that effect, in the order of ``targets``, each at least 1, adding up to N; optional
    with one target). Returns the effects with the divided one split into one effect per target
    with its share, and the targets re-assigned; IllegalAction for a missing or wrong division, no
    target, or a division of a spell that divides nothing."""
    division = event.get("division")
    divided = [i for i, e in enumerate(effects) if e.divided]
    if not divided:
        if division is not None:
            raise IllegalAction("bad_event", f"division: {name} divides nothing")
        return effects, assigned
    i = divided[0]
    effect, chosen = effects[i], assigned.get(i, [])
    if not chosen:
        raise IllegalAction("illegal_target", f"{name} divides its damage among at least one target (CR 601.2d)")
    if division is None and len(chosen) == 1:
        division = [effect.amount]
    if not isinstance(division, list) or len(division) != len(chosen) or not all(
            isinstance(n, int) and not isinstance(n, bool) and n >= 1 for n in division) \
            or sum(division) != effect.amount:
        raise IllegalAction("bad_event", f"division: {name} divides {effect.amount} damage among {len(chosen)} "
                                         f"target(s), each at least 1 (CR 601.2d); got {division!r}")
    one = replace(effect.affected, count=1, up_to=False)
    split = [replace(effect, affected=one, amount=n, divided=False) for n in division]
    new_effects = list(effects[:i]) + split + list(effects[i + 1:])
    new_assigned = {}
    for j, targets in assigned.items():
        if j < i:
            new_assigned[j] = targets
        elif j > i:
            new_assigned[j + len(split) - 1] = targets
    for k, t in enumerate(chosen):
        new_assigned[i + k] = [t]
    return tuple(new_effects), new_assigned


# ---------------------------------------------------------------- resolving
def deal_damage(game, label: str, keywords, controller: str | None, target: str, amount: int) -> None:
    """Deal ``amount`` damage from a source logged as ``label`` with ``keywords`` (CR 120.3):
    marked on a creature, lost as life by a player; deathtouch (702.2) and lifelink (702.15b:
    its controller gains that much life) from the source's keywords."""
    deathtouch, lifelink = "deathtouch" in keywords, "lifelink" in keywords
    game.log.append({"kind": "damage", "source": label, "target": target, "amount": amount,
                     "deathtouch": deathtouch})
    if target in game.players:
        game.players[target].life -= amount
    else:
        obj = game.objects[target]
        obj.damage += amount
        if deathtouch:
            obj.deathtouch_damage = True
    if lifelink and controller is not None:
        game.players[controller].life += amount
        game.log.append({"kind": "life_gained", "player": controller, "amount": amount})


def token_definition(token) -> tuple[CardDef, CardScript]:
    """The characteristics a :class:`cards.model.TokenDef` defines (CR 111.3, 111.4)."""
    text = ", ".join(k.capitalize() for k in token.keywords)
    return (CardDef(token.name, "", (), tuple(token.types), tuple(token.subtypes), tuple(token.colors),
                    token.power, token.toughness, text[:1].upper() + text[1:] if text else "",
                    frozenset(token.keywords)),
            CardScript(keywords=frozenset(token.keywords)))


class ModelAbilities(GameBase):
    """Abilities read from card models, a mixin of :class:`reference_engine.game.Game`."""

    # ------------------------------------------------------------ sources
    def source_of(self, obj: GameObject) -> Source:
        """``obj`` on the battlefield as a source of its abilities."""
        ch = characteristics(self, obj)
        return Source(obj.id, ch.name, obj.id, obj.controller, ch.colors, ch.types, ch.keywords, ch.power,
                      ch.toughness)

    def spell_source(self, definition: CardDef, controller: str) -> Source:
        """An instant or sorcery as the source of its effects (it has no keywords)."""
        return Source(definition.name, definition.name, None, controller, definition.colors, definition.types)

    # ------------------------------------------------------------ effects
    def resolve_model_effects(self, effects, source: Source, assigned: dict[int, list], decider,
                              cause: str = "ability", token_ids: list | None = None) -> None:
        """Perform ``effects`` in order (CR 608.2c); each targeting effect does nothing to a
        target no longer legal (608.2b)."""
        new_ids = list(token_ids or [])
        known: dict[str, tuple] = {}  # each target's power and toughness as it last existed (CR 608.2h)
        for i, effect in enumerate(effects):
            for oid in (t for ts in assigned.values() for t in ts):
                obj = self.objects.get(oid)
                if obj is not None and obj.zone == BATTLEFIELD:
                    ch = characteristics(self, obj)
                    known[oid] = (ch.power, ch.toughness)
            if effect.per is not None or effect.equal_to is not None:
                effect = self.amount_from_the_game(effects, i, source, assigned, known)
            scope = effect.affected.scope
            if scope == "target":
                affected = [t for t in assigned.get(i, []) if legal_target(self, effect.affected, t, source)]
            elif scope == "each":
                affected = each_affected(self, effect.affected, source)
            elif scope == "self":
                obj = self.objects.get(source.obj) if source.obj else None
                affected = [obj.id] if obj is not None and obj.zone == BATTLEFIELD else []
            elif scope == "you":
                affected = [source.controller]
            else:  # pragma: no cover - declined before (check_effects)
                raise Unsupported("ability:scope", f"scope {scope!r}")
            self.perform_model_effect(effect, affected, source, decider, cause, new_ids)

    def amount_from_the_game(self, effects, i: int, source: Source, assigned: dict, known: dict) -> Effect:
        """Effect ``effects[i]`` with the amount it reads from the game as it resolves (CR 608.2h;
        :class:`cards.model.Effect` ``per`` and ``equal_to``): "N life for each creature you control"
        counts them now; "life equal to its power" reads the object now, or as it last existed if
        it left (the source, the target of the effect before it, or the creature that died). A
        negative power gives 0 (CR 107.1b)."""
        effect = effects[i]
        if effect.per is not None:
            counted = [x for x in each_affected(self, effect.per, source) if x in self.objects]
            return replace(effect, amount=effect.amount * len(counted), per=None)
        which, of = effect.equal_to
        value = None
        if of == "that creature":
            value = source.that_creature
        elif of == "self":
            obj = self.objects.get(source.obj) if source.obj else None
            if obj is not None and obj.zone == BATTLEFIELD:
                ch = characteristics(self, obj)
                value = (ch.power, ch.toughness)
            else:
                value = (source.power, source.toughness)
        elif of == "target":
            earlier = [j for j in targeting(effects) if j < i]
            oid = assigned.get(earlier[-1], [None])[0] if earlier and assigned.get(earlier[-1]) else None
            value = known.get(oid)
        n = (value or (None, None))[0 if which == "power" else 1]
        return replace(effect, amount=max(0, n or 0), equal_to=None)

    def creature_dies_triggers(self, dying: GameObject) -> None:
        """"Whenever a / another creature [you control] dies" abilities of the permanents on the
        battlefield trigger as ``dying`` dies (CR 603.2, 700.4), looking back in time (603.10a):
        called while it and everything leaving with it are still on the battlefield, so a watcher
        dying at the same time sees it. Each remembers the creature as it last existed."""
        ch = characteristics(self, dying)
        if not ch.is_creature:
            return
        for watcher in self.battlefield():
            model = self.copiable_values(watcher)[1].model
            if model is None:
                continue
            for ability in model.of("triggered"):
                if ability.trigger == "a creature dies" and self.watches(watcher, dying, ability.affected):
                    source = replace(self.source_of(watcher), that_creature=(ch.power, ch.toughness))
                    self.trigger(Trigger(watcher.id, watcher.controller, "a creature dies", MODEL_TRIGGER,
                                         {"ability": ability, "source": source, "died": dying.id}))

    def watches(self, watcher: GameObject, dying: GameObject, watched) -> bool:
        """Whether a creature dies ability of ``watcher`` watches ``dying`` (its filters: ``other``,
        ``nontoken``, ``you control``, ``opponent controls``; control as they last existed)."""
        for f in (watched.filters if watched is not None else ()):
            if (f == "other" and dying.id == watcher.id) or (f == "nontoken" and dying.token) \
                    or (f == "you control" and dying.controller != watcher.controller) \
                    or (f == "opponent controls" and dying.controller == watcher.controller):
                return False
            if f not in ("other", "nontoken", "you control", "opponent controls"):
                raise Unsupported("ability:filter", f"the filter {f!r} of a creature dies trigger is not modelled")
        return True

    def perform_model_effect(self, effect: Effect, affected: list[str], source: Source, decider, cause: str,
                             new_ids: list) -> None:
        """One effect on the objects and players ``affected``."""
        action = effect.action
        objects = [a for a in affected if a in self.objects and self.objects[a].zone == BATTLEFIELD]
        players = [a for a in affected if a in self.players]
        if action == "destroy":
            self.destroy(objects, source.name, decider,
                         cant_be_regenerated=frozenset(objects) if effect.cant_be_regenerated else frozenset())
        elif action == "damage":
            for target in affected:
                if target in self.players or target in objects:
                    deal_damage(self, source.label, source.keywords, source.controller, target, effect.amount)
        elif action in ("pt", "gain_keywords"):
            creatures = [o for o in objects if characteristics(self, self.objects[o]).is_creature
                         or action == "gain_keywords"]
            if creatures and action == "pt":
                self.add_effect(creatures, "7c", effect.power, effect.toughness, source=source.label)
            if creatures and effect.keywords:
                self.add_keyword_effect(creatures, effect.keywords, source.label)
        elif action == "counters":
            for oid in objects:
                obj = self.objects[oid]
                obj.counters[effect.counter] = obj.counters.get(effect.counter, 0) + effect.amount
                self.log.append({"kind": "counters_added", "object": oid, "counter": effect.counter,
                                 "amount": effect.amount})
        elif action == "gain_life":
            for p in players if effect.amount else ():  # gaining 0 life is no life gain event (CR 119.9)
                self.players[p].life += effect.amount
                self.log.append({"kind": "life_gained", "player": p, "amount": effect.amount})
        elif action == "lose_life":
            for p in players if effect.amount else ():
                self.players[p].life -= effect.amount
                self.log.append({"kind": "life_lost", "player": p, "amount": effect.amount})
        elif action == "draw":
            for p in players:
                self.draw_cards(p, effect.amount, source.name)
        elif action == "create_tokens":
            definition, script = token_definition(effect.token)
            for p in players:
                for n in range(1, effect.amount + 1):
                    oid = new_ids.pop(0) if new_ids else self.new_token_id(f"{source.label}.token{n}")
                    self.create_token(oid, definition, script, p, source.label)
        elif action in ("tap", "untap"):
            for oid in objects:
                self.set_tapped(self.objects[oid], action == "tap", "effect")
        elif action == "regenerate":
            for oid in objects:
                self.objects[oid].regeneration_shields += 1
                self.log.append({"kind": "regeneration_shield", "object": oid})
        elif action == "exile":  # CR 701.11a: all at once (reference_engine.zones)
            self.exile(objects, source.name)
        elif action == "return_to_hand":  # CR 400.3
            self.return_to_hand(objects, source.name)
        elif action == "flicker":  # CR 610.3c, 400.7: a new object, "<old id>.returned"
            for oid in objects:
                obj = self.objects.get(oid)
                if obj is not None and obj.zone == BATTLEFIELD:
                    under = source.controller if effect.returns_under == "you" else None
                    self.flicker(obj, self.returned_id(oid), source.name, controller=under)
        else:  # pragma: no cover - every action of cards.model.ACTIONS is handled
            raise Unsupported("ability:action", f"action {action!r}")

    def add_keyword_effect(self, affected, keywords, source: str | None) -> None:
        """"... gain(s) <keywords> until end of turn": a layer 6 effect (CR 613.1f), one
        timestamp for all the objects it affects (CR 611.2c)."""
        from .objects import PTEffect

        timestamp = self._tick()
        for oid in [affected] if isinstance(affected, str) else affected:
            self.effects.append(PTEffect(oid, "6", 0, 0, timestamp, True, source, tuple(keywords)))

    def draw_cards(self, player: str, amount: int, by: str) -> None:
        """``player`` draws ``amount`` cards (CR 121.1): the top cards of their library (the
        first library cards of the board) go to their hand, one at a time (121.2)."""
        for _ in range(amount):
            top = next((o for o in self.objects.values() if o.zone == "library" and o.owner == player), None)
            if top is None:  # pragma: no cover - declined before (check_effects)
                raise Unsupported("rule:draw from an empty library", f"{player}'s library is empty")
            del self.objects[top.id]  # to the end of the creation order: the next card is the new top
            self.objects[top.id] = top
            top.zone = "hand"
            top.timestamp = self._tick()
            self.log.append({"kind": "zone_change", "object": top.id, "from": "library", "to": "hand",
                             "cause": {"event": "draw", "by": by}})

    # ------------------------------------------------------------ spells
    def cast_model_spell(self, definition: CardDef, script: CardScript, controller: str, event: dict):
        """Validate a ``cast`` of a spell read from its card model; return ``perform(decider)``."""
        targets = event.get("targets", [])
        source = self.spell_source(definition, controller)
        effects = tuple(e for a in script.model.of("spell") for e in a.effects)
        text = " ".join(a.text for a in script.model.of("spell"))
        assigned = assign_targets(self, effects, targets, source)
        effects, assigned = divide_damage(effects, assigned, event, definition.name)
        check_effects(self, effects, assigned, source, text)
        token_ids = None
        if "token_ids" in event:
            count = sum(e.amount for e in effects if e.action == "create_tokens")
            from .events import _new_ids

            token_ids = _new_ids(self, event, "token_ids", count)

        def perform(decider):
            self.resolve_model_effects(effects, source, assigned, decider, "spell", token_ids)

        return perform

    # ------------------------------------------------------------ triggers
    def model_triggers(self, obj: GameObject, event: str, script: CardScript | None = None) -> None:
        """``obj``'s triggered abilities read from its model for ``event`` ("enters", "dies")."""
        script = script if script is not None else self.copiable_values(obj)[1]
        if script.model is None:
            return
        for ability in script.model.of("triggered"):
            if ability.trigger == event:
                source = self.source_of(obj)
                self.trigger(Trigger(obj.id, obj.controller, event, MODEL_TRIGGER,
                                     {"ability": ability, "source": source}))

    def choose_model_targets(self, trigger: Trigger, decider) -> bool:
        """Targets of a model trigger as it is put on the stack (CR 603.3d): one per targeting
        effect, through the decider (kind ``"target"``); False if one has none."""
        ability: Ability = trigger.info["ability"]
        source: Source = trigger.info["source"]
        wanted = targeting(ability.effects)
        assigned: dict[int, list] = {}
        for i in wanted:
            affected = ability.effects[i].affected
            if affected.count != 1 or affected.up_to:
                raise Unsupported("ability:targets", f"{source.name}: {ability.text!r} (more than one target)")
            options = [o.id for o in self.battlefield() if legal_target(self, affected, o.id, source)] + \
                [p for p in self.players if legal_target(self, affected, p, source)]
            if not options:
                self.log.append({"kind": "trigger_removed", "source": trigger.source, "reason": "no legal target"})
                return False
            assigned[i] = [self._choose(trigger.controller, D.TARGET, options, decider)]
        trigger.info["assigned"] = assigned
        trigger.targets = [t for i in wanted for t in assigned[i]]
        return True

    def resolve_model_trigger(self, trigger: Trigger, decider) -> None:
        """A model trigger resolves (CR 608.2): "you may" asks its controller, an illegal target
        removes it (608.2b), then its effects."""
        ability: Ability = trigger.info["ability"]
        source: Source = trigger.info["source"]
        still = self.objects.get(trigger.source)
        if trigger.ability in ("enters", "upkeep", "draw step", "a creature dies") and still is not None \
                and still.zone == BATTLEFIELD:  # as it is now; else as it last existed (CR 608.2h)
            source = replace(self.source_of(still), that_creature=source.that_creature)
        assigned = trigger.info.get("assigned", {})
        if assigned and not any(legal_target(self, ability.effects[i].affected, t, source)
                                for i, ts in assigned.items() for t in ts):
            self.log.append({"kind": "trigger_removed", "source": trigger.source, "reason": "illegal target"})
            return
        check_effects(self, ability.effects, assigned, source, ability.text)
        if ability.optional and self._choose(trigger.controller, D.MAY, [D.YES, D.NO], decider) != D.YES:
            return
        self.resolve_model_effects(ability.effects, source, assigned, decider)

    # ------------------------------------------------------------ activated abilities
    def model_ability(self, obj: GameObject, ability) -> Ability:
        """The model ability an activated ability of ``obj`` is (by its index among the written ones)."""
        script = self.copiable_values(obj)[1]
        read = [a for a in script.model.abilities
                if (a.kind in ("mana", "activated") and not a.text.startswith("("))
                or (a.kind == "keyword" and a.keyword == "equip")]
        offset = len(self.printed_abilities(obj)) - len(read)  # a basic land type's abilities come first
        return read[ability.index - offset]

    def model_activation_targets(self, obj: GameObject, ability) -> list[str] | None:
        """Legal targets of a model activated ability (None: it doesn't target); declines more
        than one target and what :func:`check_effects` declines."""
        model = self.model_ability(obj, ability)
        source = self.source_of(obj)
        check_effects(self, model.effects, {}, source, model.text)
        wanted = targeting(model.effects)
        if not wanted:
            return None
        if len(wanted) > 1 or any(model.effects[i].affected.count != 1 or model.effects[i].affected.up_to
                                  for i in wanted):
            raise Unsupported("ability:targets", f"{source.name}: {model.text!r} (more than one target)")
        affected = model.effects[wanted[0]].affected
        return [o.id for o in self.battlefield() if legal_target(self, affected, o.id, source)] + \
            [p for p in self.players if legal_target(self, affected, p, source)]

    def target_options(self, obj: GameObject, ability):
        from .abilities import MODEL_EFFECT

        if ability.kind == MODEL_EFFECT:
            return self.model_activation_targets(obj, ability)
        return super().target_options(obj, ability)

    def pay_cost(self, obj: GameObject, ability, cost, player: str, decider) -> None:
        """Remember the source as it is before paying: if paying the cost makes it leave the
        battlefield ("Sacrifice ~"), its ability uses it as it last existed (CR 608.2h)."""
        from .abilities import MODEL_EFFECT

        if ability.kind == MODEL_EFFECT and obj.zone == BATTLEFIELD:
            self._activation_source = self.source_of(obj)
        return super().pay_cost(obj, ability, cost, player, decider)

    def resolve_activated_ability(self, obj: GameObject, ability, player: str, targets: list[str], decider) -> None:
        """A model activated ability resolves (CR 608.2): an illegal target makes it do nothing
        (608.2b); else its effects, from its source as it is, or as it last existed."""
        from .abilities import MODEL_EFFECT

        if ability.kind != MODEL_EFFECT:
            return super().resolve_activated_ability(obj, ability, player, targets, decider)
        model = self.model_ability(obj, ability)
        source = self.source_of(obj) if obj.zone == BATTLEFIELD else getattr(self, "_activation_source", None)
        self._activation_source = None
        if source is None:  # pragma: no cover - the snapshot is taken as the cost is paid
            source = self.source_of(obj)
        wanted = targeting(model.effects)
        assigned = {wanted[0]: list(targets)} if wanted else {}
        if targets and not legal_target(self, model.effects[wanted[0]].affected, targets[0], source):
            self.log.append({"kind": "trigger_removed", "source": obj.id, "reason": "illegal target"})
            return None
        self.log.append({"kind": "ability_resolved", "object": obj.id, "ability": ability.index,
                         "targets": list(targets)})
        self.resolve_model_effects(model.effects, source, assigned, decider)
        return None
