"""Rules for the stack and priority (capability ``stack``; CR 405, 117, 601.2, 603.3b, 608.2).

Boards of an engine that claims ``stack`` are, one time in three, *stack games* (``"stack":
true``, harness.protocol "The stack"): spells and abilities wait on the stack until every
player passes priority. Such a board gets a corner (:func:`stack_corner`) whose triggers
resolve after other events: Hangarback Walkers with +1/+1 counters, one per player (their
dies abilities, put on the stack together in APNAP order when both die; their Thopters
counted as each last existed, CR 603.10a), and a creature enchanted by Penumbra Umbra (its
ability copies the creature as it last existed if that creature leaves before it resolves).

Events: a player holding priority casts a spell (an instant, or a sorcery with the stack
empty), others respond (an instant at what the stack's spells target, or an effect removing
it: their targets become illegal, CR 608.2b), and players pass until the stack is empty
(``pass_priority``; sometimes by a player who doesn't hold priority: refused, 117.3d); effects
that kill the corner's permanents together put their abilities on the stack at once. Every
event of the other areas happens in stack games too: a cast of theirs gets a spell id
(:meth:`StackActions.stack_event`), and is refused when its caster doesn't hold priority.

An engine that doesn't claim ``stack`` gets none of this: its boards and events are those of
the other areas (the corner is drawn for every engine, so no engine's draws depend on it).
"""

from __future__ import annotations

from hypothesis import strategies as st
from hypothesis.stateful import precondition, rule

from harness.generation import strategies as S
from harness.protocol import BoardSpec, Event
from .base import RulesArea, needs

#: Creatures the corner enchants with Penumbra Umbra (nonlegendary: its copy would start the legend rule).
PENUMBRA_HOSTS = ("Grizzly Bears", "Typhoid Rats", "River Boa", "Drudge Skeletons", "Darksteel Myr")
#: Lists of instants the rules cast (harness.generation.strategies.CARD_LISTS), and of sorceries.
INSTANT_LISTS = ("destroy_spells", "damage_spells", "pump_spells", "shrink_spells", "counter_spells")
REMOVAL_LISTS = ("destroy_spells", "damage_spells", "shrink_spells")
SORCERY_LISTS = ("sweepers",)
#: The most passes one rule makes (each is a step).
MAX_PASSES = 12


def _other(player: str) -> str:
    return next(p for p in S.PLAYERS if p != player)


@st.composite
def stack_corner(draw):
    """The stack corner: ids ``k0``, ``k1`` (0..2 Hangarback Walkers with 1..2 +1/+1 counters, the
    first of a drawn player, the second of the other), ``k2`` and ``k2p`` (2 boards in 3: a
    creature and the Penumbra Umbra enchanting it, of one player). Shrinks to nothing."""
    found = []
    first = draw(S.players)
    for i in range(S.integer(draw, 0, 2, "Hangarback Walkers")):
        owner = first if i == 0 else _other(first)
        found.append({"id": f"k{i}", "card": "Hangarback Walker", "owner": owner, "controller": owner,
                      "counters": {"+1/+1": S.integer(draw, 1, 2, "counters")}})
    if S.integer(draw, 0, 2, "Penumbra Umbra"):
        owner = draw(S.players)
        found.append({"id": "k2", "card": S.element(draw, PENUMBRA_HOSTS), "owner": owner, "controller": owner})
        found.append({"id": "k2p", "card": "Penumbra Umbra", "owner": owner, "controller": owner, "attached_to": "k2"})
    return found


def stack_extras():
    """What :func:`harness.rules.mana.board_extras` draws for this area: None (no stack) two times in
    three, else the corner of a stack game."""
    return st.one_of(st.none(), st.none(), stack_corner())


class StackActions(RulesArea):
    """Casting, responding and passing priority in games with the stack."""

    def extend_board(self, board: BoardSpec, extras: dict) -> BoardSpec:
        """Make the board a stack game (``"stack": true``) with the corner (``extras["stack"]``) for an
        engine that claims ``stack``; the corner's cards only as far as the engine plays them."""
        board = super().extend_board(board, extras)
        corner = extras.get("stack")
        if corner is None or self.plan is None or not self.plan.has("stack games"):
            return board
        kept = [o for o in corner if self.plan.plays(o["card"])]
        ids = {o["id"] for o in kept}
        kept = [o for o in kept if o.get("attached_to") is None or o["attached_to"] in ids]
        return {**board, "stack": True, "objects": board["objects"] + kept}

    def stack_event(self, event: Event) -> Event:
        """In a stack game every cast names its spell (``"id"``, CR 405.1): one is added to a cast
        of another area's rules."""
        if event.get("type") == "cast" and "id" not in event and self.stack_game():
            return {**event, "id": self._new_id()}
        return event

    def after_event(self, event: Event, data) -> None:
        """After an event of another area's rules in a stack game with objects on the stack, two
        times in three players pass until it is empty (or a drawn number of resolutions): what
        other areas cast and trigger resolves too, after other events."""
        if self._stack_rule or self.stopped or not self.stack_game() or not self._stack():
            return
        if S.draw_integer(data, 0, 2, "then pass") == 0:
            return
        self._pass_until_empty(data)

    def _stack_apply(self, event: Event, data) -> None:
        """``_apply`` for this area's own events (no passes after them but its own)."""
        self._stack_rule = True
        try:
            self._apply(event, data)
        finally:
            self._stack_rule = False

    _stack_rule = False

    # ------------------------------------------------------------ queries
    def stack_game(self) -> bool:
        return self.session is not None and bool(self.session.board.get("stack"))

    def _stack(self) -> list:
        return self.observation.get("stack") or []

    def _holder(self) -> str:
        return (self.observation.get("priority") or {}).get("player") or S.PLAYERS[0]

    def _spells(self, lists) -> list[str]:
        return [c for name in lists for c in self.run_plan.lists.get(name, ())]

    def _relevant(self) -> list[str]:
        """Live creatures the stack is about, first what its top object targets (a response that
        removes it makes that object's targets illegal, CR 608.2b), then the other objects'
        targets, the corner's creatures and the other creatures."""
        live = self._live()
        found = [t for e in reversed(self._stack()) for t in e.get("targets") or () if t in live]
        found += [oid for oid in sorted(live) if oid.startswith("k")] + sorted(live)
        return list(dict.fromkeys(found)) or sorted(self.observation["objects"])

    # ------------------------------------------------------------ events
    def _cast(self, data, caster: str, spell: str, target: str | None) -> None:
        event: Event = {"type": "cast", "card": spell, "controller": caster, "targets": [] if target is None else [target],
                 "id": self._new_id()}
        if spell == "Raise the Alarm":
            event["token_ids"] = [self._new_id(), self._new_id()]
        self._stack_apply(event, data)

    def _caster(self, data) -> str:
        """Mostly the player who holds priority; one time in eight the other (refused, CR 117.1)."""
        holder = self._holder()
        return _other(holder) if S.draw_integer(data, 0, 7, "without priority") == 7 else holder

    def _cast_at(self, data, spells: list[str], options: list[str]) -> None:
        if not spells or not options:
            return
        spell = S.pick(data, spells, "spell")
        target = S.pick(data, options, "target")
        if spell in self.run_plan.lists.get("damage_spells", ()) and S.draw_integer(data, 0, 5, "a player") == 5:
            target = S.pick(data, list(S.PLAYERS), "player")
        self._cast(data, self._caster(data), spell, target)

    def _respond(self, data) -> None:
        """A response: an instant at a creature the stack is about, or an effect that removes it."""
        options = self._relevant()
        kind = S.draw_integer(data, 0, 4, "response")
        if kind <= 2:
            self._cast_at(data, self._spells(REMOVAL_LISTS if kind != 1 else INSTANT_LISTS), options)
        elif kind == 3:
            self._stack_apply({"type": "sacrifice", "object": S.pick(data, options, "sacrificed")}, data)
        else:
            self._stack_apply({"type": "destroy", "targets": [S.pick(data, options, "destroyed")],
                         "cant_be_regenerated": False}, data)

    def _pass_until_empty(self, data, all_of_it: bool = False) -> None:
        """Players pass until the stack is empty (or, unless ``all_of_it``, a drawn number of
        resolutions): the player holding priority each time, one pass in ten by the other
        (refused, CR 117.3d)."""
        resolutions = 0 if all_of_it else S.draw_integer(data, 0, 3, "resolutions")  # 0: all
        done = 0
        for _ in range(MAX_PASSES):
            if self.stopped or not self._stack() or (resolutions and done >= resolutions):
                return
            before = len(self._stack())
            holder = self._holder()
            player = _other(holder) if S.draw_integer(data, 0, 9, "out of turn") == 9 else holder
            self._stack_apply({"type": "pass_priority", "player": player}, data)
            if self.session is None or len(self._stack()) != before:
                done += 1

    @needs("stack")
    @precondition(lambda self: self.stack_game())
    @rule(data=st.data())
    def stack_cast_respond_pass(self, data):
        """A spell is cast, 0..2 responses follow, then players pass until the stack is empty."""
        sorceries = self._spells(SORCERY_LISTS) if not self._stack() else []
        if sorceries and S.draw_integer(data, 0, 3, "sorcery") == 3:
            self._cast(data, self._caster(data), S.pick(data, sorceries, "sorcery"), None)
        else:
            self._cast_at(data, self._spells(INSTANT_LISTS), self._relevant())
        for _ in range(S.draw_integer(data, 0, 2, "responses")):
            if self.stopped:
                return
            self._respond(data)
        if not self.stopped:
            self._pass_until_empty(data)

    @needs("stack")
    @precondition(lambda self: self.stack_game())
    @rule(data=st.data())
    def stack_triggers_then_pass(self, data):
        """An effect kills some of the corner's permanents at once (their abilities go on the stack
        together, APNAP), half the time all of them when there are two or more (both players'
        Walkers: CR 603.3b), 0..1 response, then players pass until the stack is empty."""
        corner = [oid for oid in self._live() if oid.startswith("k")]
        if not corner:
            return
        if len(corner) > 1 and S.draw_boolean(data, "kill them all"):
            chosen = corner  # both players' Walkers die at once: their abilities go on the stack APNAP (603.3b)
        else:
            chosen = [oid for oid in corner if S.draw_boolean(data, f"kill {oid}")] or corner[:1]
        self._stack_apply({"type": "destroy", "targets": chosen, "cant_be_regenerated": False}, data)
        if not self.stopped and S.draw_boolean(data, "respond"):
            self._respond(data)
        if not self.stopped:
            self._pass_until_empty(data)

    @needs("stack")
    @precondition(lambda self: self.stack_game() and self.has_creature())
    @rule(data=st.data())
    def stack_target_leaves(self, data):
        """A spell at a creature, then a response that removes that creature (an effect, or a removal
        instant that resolves first), then passes until the stack is empty: the first spell's only
        target is illegal as it resolves (CR 608.2b)."""
        lists = ("destroy_spells",) if S.draw_boolean(data, "destroy") else INSTANT_LISTS
        self._cast_at(data, self._spells(lists), sorted(self._live()))
        if self.stopped or not self._stack():
            return
        target = next((t for t in self._stack()[-1].get("targets") or () if t in self._live()), None)
        if target is None:
            return
        removals = self._spells(("destroy_spells",))
        how = S.draw_integer(data, 0, 2 if removals else 1, "removal")
        if how == 0:
            self._stack_apply({"type": "sacrifice", "object": target}, data)
        elif how == 2:
            self._cast(data, self._holder(), S.pick(data, removals, "removal"), target)
        else:
            self._stack_apply({"type": "destroy", "targets": [target], "cant_be_regenerated": True}, data)
        if not self.stopped:
            self._pass_until_empty(data, all_of_it=True)

    @needs("stack")
    @precondition(lambda self: self.stack_game() and bool(self._enchanted_by_penumbra()))
    @rule(data=st.data())
    def stack_umbra_then_response(self, data):
        """A creature enchanted by Penumbra Umbra is destroyed (umbra armor destroys the Aura instead,
        CR 702.89a, and its ability triggers), then a response removes the creature before the
        ability resolves (it copies the creature as it last existed, CR 608.2h), then passes."""
        creature = S.pick(data, self._enchanted_by_penumbra(), "enchanted")
        self._stack_apply({"type": "destroy", "targets": [creature], "cant_be_regenerated": False}, data)
        if not self.stopped and S.draw_integer(data, 0, 3, "respond") and creature in self._live():
            if not self._spells(REMOVAL_LISTS) or S.draw_boolean(data, "sacrifice"):
                self._stack_apply({"type": "sacrifice", "object": creature}, data)
            else:
                self._cast(data, self._holder(), S.pick(data, self._spells(REMOVAL_LISTS), "removal"), creature)
        if not self.stopped:
            self._pass_until_empty(data)

    def _enchanted_by_penumbra(self) -> list[str]:
        objects = self.observation["objects"]
        return sorted({host for o in objects.values() if o.get("zone") == "battlefield"
                       and o.get("name") == "Penumbra Umbra" and (host := o.get("attached_to")) in objects
                       and host is not None})

    @needs("stack")
    @precondition(lambda self: self.stack_game())
    @rule(data=st.data())
    def stack_respond_then_pass(self, data):
        """A response (an instant or an effect at what the top of the stack targets) to what waits
        on the stack, or to a spell cast first when nothing does; then players pass until the
        stack is empty."""
        if not self._stack():
            self._cast_at(data, self._spells(INSTANT_LISTS), self._relevant())
        if not self.stopped:
            self._respond(data)
        if not self.stopped:
            self._pass_until_empty(data)

    @needs("stack")
    @precondition(lambda self: self.stack_game())
    @rule(player=S.players, data=st.data())
    def pass_priority(self, player, data):
        """One pass, by the player holding priority three times in four (any player otherwise); with
        objects on the stack, half the time the other player passes too (the top resolves)."""
        if S.draw_integer(data, 0, 3, "holder") < 3:
            player = self._holder()
        self._stack_apply({"type": "pass_priority", "player": player}, data)
        if not self.stopped and self._stack() and S.draw_boolean(data, "both pass"):
            self._stack_apply({"type": "pass_priority", "player": self._holder()}, data)
