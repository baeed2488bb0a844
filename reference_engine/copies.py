"""Copies of permanents (CR 707), tokens (CR 111) and entering the battlefield.

What a copy gets is the original's *copiable values* (CR 707.2): the values printed on it
(or, for a token, defined by the effect that created it, CR 111.3), as modified by other
copy effects and the exceptions they state (CR 707.9b). Nothing else: not counters, not
Auras, not tapped status, not damage, not effects from other layers (Penumbra Umbra
ruling 2024-11-08: "Except for its color, the token copies exactly what was printed on
the original creature and nothing else").

Written as a mixin of :class:`reference_engine.game.Game`, one method per step, so a fork
can override one of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dataclasses import replace

from .cards import CardDef, CardScript
from .kept import keeps
from .layers import card_types
from .objects import BATTLEFIELD, GameObject

if TYPE_CHECKING:
    from .game_base import GameBase
else:
    GameBase = object  # the declared base is for the type checker only (reference_engine.game_base)


class CopyRules(GameBase):
    """Copy effects and the entering of new objects."""

    def copy_source_values(self, obj: GameObject) -> tuple[CardDef, CardScript]:
        """The values a copy effect copies from ``obj`` (CR 707.2, 707.3).

        Its copiable values: for a Clone that copies a creature, what that creature
        copies (a copy of a copy); for a token, its original characteristics as the
        effect that created it defined them (Penumbra Umbra rulings 2024-11-08).
        """
        return self.copiable_values(obj)

    def values_to_copy(self, oid: str) -> tuple[CardDef, CardScript] | None:
        """Copiable values of object ``oid``: current if it is on the battlefield, else as it
        last existed there (last known information, CR 608.2h; Penumbra Umbra ruling
        "use its copiable values as it last existed on the battlefield"). None if the
        object never was on the battlefield (CR 111.12: no token is created)."""
        obj = self.objects.get(oid)
        if obj is not None and obj.zone == BATTLEFIELD:
            return self.copy_source_values(obj)
        known = self.last_known.get(oid)
        return known.copiable if known is not None else None

    def create_token_copy(self, token_id: str, original_id: str, controller: str, by: str,
                          colors: tuple[str, ...] | None = None) -> GameObject | None:
        """Create a token that's a copy of ``original_id`` under ``controller`` (CR 111.2, 707.2).

        ``colors`` is the exception "except the token is black" (CR 707.9b): the
        exception becomes part of the token's copiable values. The token gets no
        counters, Auras, damage or status of the original; its enters abilities trigger
        and its "enters with" abilities apply, with X = 0 (CR 707.5, 107.3m; Penumbra
        Umbra rulings). ``by`` names the spell or the source of the ability. Returns the
        token, or None when nothing can be copied (CR 111.12).
        """
        values = self.values_to_copy(original_id)
        if values is None:
            return None
        definition, script = values
        if colors is not None:
            definition = replace(definition, colors=tuple(colors))
        return self.enter_battlefield(
            token_id, definition, script, controller, token=True, copy_of=original_id,
            cause={"event": "create_token", "by": by, "copy_of": original_id},
        )

    def create_token(self, token_id: str, definition: CardDef, script: CardScript, controller: str,
                     by: str) -> GameObject:
        """Create a token whose characteristics ``definition`` and ``script`` the effect defines (CR 111.3)."""
        return self.enter_battlefield(token_id, definition, script, controller, token=True,
                                      cause={"event": "create_token", "by": by})

    def new_token_id(self, base: str) -> str:
        """A deterministic, engine-neutral id for a token an ability creates: ``base``
        (e.g. ``"<aura id>.token"``), or ``base-2``, ``base-3``, ... if that id is taken."""
        if base not in self.objects and base not in self.last_known:
            return base
        n = 2
        while f"{base}-{n}" in self.objects or f"{base}-{n}" in self.last_known:
            n += 1
        return f"{base}-{n}"

    def enter_battlefield(self, oid: str, definition: CardDef, script: CardScript, controller: str, *,
                          token: bool = False, copy_effect: tuple[CardDef, CardScript] | None = None,
                          copy_of: str | None = None, spell_x: int = 0, attach_to: str | None = None,
                          cause: dict | None = None, tapped: bool = False) -> GameObject:
        """Put a new object onto the battlefield under ``controller`` (CR 110.1, 111.2).

        It gets a timestamp as it enters (CR 613.7d). A Clone enters *as* a copy
        (``copy_effect``, CR 707.5); an Aura enters attached to ``attach_to``. Then its
        "enters with" replacement effects apply (:meth:`enters_with_counters`) and its
        enters abilities trigger (CR 603.6a). ``spell_x`` is the X of the spell that
        became it (CR 107.3m). ``tapped``: an effect puts it onto the battlefield tapped
        (614.1c style: it enters tapped, it doesn't become tapped).
        """
        # Summoning sick if a creature (CR 302.6), tapped if "This enters tapped" (CR 614.1c): read of its
        # copiable values (layer 1, CR 707.2) as it is built with this package's copiable_values; a fork's
        # is asked of the object in the game, and its status set after.
        own = keeps(self)
        values = ((definition, script) if copy_effect is None else copy_effect) if own else None
        obj = GameObject(oid, definition, script, controller, controller, BATTLEFIELD, self._tick(), token=token,
                         tapped=values is not None and (tapped or values[1].enters_tapped),
                         summoning_sick=values is not None and "Creature" in values[0].types,
                         attached_to=attach_to, copy_effect=copy_effect, copy_of=copy_of, spell_x=spell_x)
        self.objects[oid] = obj
        if values is None:
            obj.summoning_sick = "Creature" in card_types(self, obj)
            if tapped or self.copiable_values(obj)[1].enters_tapped:
                obj.tapped = True
        self.log.append({"kind": "zone_change", "object": oid, "from": None, "to": BATTLEFIELD,
                         "cause": cause if cause is not None else {"event": "put_onto_battlefield"}})
        self.enters_with_counters(obj)
        self.enters_triggers(obj)
        return obj

    def enters_with_counters(self, obj: GameObject) -> None:
        """"This enters with X +1/+1 counters on it" (CR 614.1c, 122.6).

        X is the value chosen for the spell that became the permanent (CR 107.3m); a
        copy or a token was no such spell, so its X is 0 (Penumbra Umbra ruling "If the
        copied creature has {X} in its mana cost, X is considered to be 0").
        """
        script = self.copiable_values(obj)[1]
        if script.enters_with_x_counters and obj.spell_x > 0:
            obj.counters["+1/+1"] = obj.counters.get("+1/+1", 0) + obj.spell_x
            self.log.append({"kind": "counters_added", "object": obj.id, "counter": "+1/+1",
                             "amount": obj.spell_x})
