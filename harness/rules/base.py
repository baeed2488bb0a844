"""What every rules-area mixin shares: the ``objects`` Bundle, :func:`needs`, :class:`RulesArea`."""

from __future__ import annotations

from typing import Any, Protocol

from hypothesis import strategies as st
from hypothesis.stateful import Bundle

from harness.generation.targeting import Targeting
from harness.protocol import BoardSpec, Engine, Event

#: The object ids of the example: the board's, and those events create. Bundles are
#: looked up by name, so every mixin's rules share this one.
objects = Bundle("objects")

#: Names of the attributes on a rule method that hold the capabilities and the card
#: lists (``harness.generation.strategies.CARD_LISTS``) it needs.
REQUIRES = "rulesfuzz_requires"
CARD_LISTS = "rulesfuzz_card_lists"
#: Set on a rule that runs only for an engine that declares its cards (``EngineInfo.cards``).
DECLARED_ONLY = "rulesfuzz_declared_cards_only"


def needs(*capabilities: str, cards: str | None = None, declared: bool = False):
    """Mark a rule as needing every capability in ``capabilities`` (names of
    ``harness.protocol.CAPABILITIES``) and, with ``cards``, a non-empty card list of that
    name in the run's plan; with ``declared``, a declared card of the card database in each
    of those lists (``Plan.models``: an engine with ``cards=None`` or only curated cards never
    runs it, so its generation stays as it was; the rule draws among those cards,
    :meth:`RulesArea._modelled_card`); decorators stack, requirements add up.

    Put it above ``@rule``/``@precondition``. Gating is decided once per run:
    ``harness.running.machine.make_machine`` leaves out every rule whose needs the engine
    doesn't meet, so no precondition runs per step for it.
    """
    required = frozenset(capabilities)

    def decorate(method):
        setattr(method, REQUIRES, required | getattr(method, REQUIRES, frozenset()))
        if cards is not None:
            setattr(method, CARD_LISTS, (*getattr(method, CARD_LISTS, ()), cards))
        if declared:
            setattr(method, DECLARED_ONLY, True)
        return method

    return decorate


class RunPlan(Protocol):
    """What the rules read of the run's plan, a :class:`harness.generation.plan.Plan` (a protocol:
    that module imports the rules areas, so they don't import it)."""

    @property
    def lists(self) -> dict[str, tuple[str, ...]]: ...

    @property
    def groups(self) -> dict[str, tuple[tuple[str, ...], ...]]: ...

    @property
    def models(self) -> dict: ...

    @property
    def declared_cards(self) -> frozenset[str] | None: ...

    @property
    def counter_kinds(self) -> tuple[str, ...]: ...

    @property
    def cards(self) -> frozenset[str]: ...

    def choice(self, name: str) -> st.SearchStrategy[str]: ...

    def model(self, card: str) -> Any: ...

    def has(self, feature: str) -> bool: ...

    def plays(self, card: str) -> bool: ...


class RulesArea(Targeting):
    """Base of the rules-area mixins: what the machine provides to their rules.

    ``capabilities`` is the engine's claimed capability set, ``plan`` the run's
    ``harness.generation.plan.Plan`` (``_card(data, list_name)`` draws a card from it); ``_apply(event, data)``
    performs one event on the session and checks invariants (raising
    ``InvariantViolation``); ``_new_id()`` returns a fresh object id for an event that
    creates an object (a rule that creates one returns its id with ``target=objects``).
    """

    capabilities: frozenset = frozenset()
    plan: RunPlan | None = None  # harness.generation.plan.Plan of the run
    #: Provided by the machine (``harness.running.machine``): the engine it is bound to, and whether
    #: the example stopped (a finding already reported).
    engine: Engine
    stopped: bool

    @property
    def run_plan(self) -> RunPlan:
        """The run's plan (the machine always has one; a mixin alone has none)."""
        assert self.plan is not None
        return self.plan

    def _card(self, data, name: str) -> str:
        """One card of the run's card list ``name`` (``harness.generation.strategies.CARD_LISTS``)."""
        return data.draw(self.run_plan.choice(name), label=name)

    def _modelled_card(self, data, name: str) -> str:
        """One card of list ``name`` that the plan reads from its model (a declared card of the
        card database, ``Plan.models``), for a rule marked ``needs(declared=True)``."""
        plan = self.run_plan
        cache = plan.__dict__.setdefault("_modelled_choices", {})  # built once per plan
        if name not in cache:
            models = plan.models
            groups = [tuple(c for c in g if c in models) for g in plan.groups.get(name, ())]
            groups = [g for g in groups if g] or [tuple(c for c in plan.lists[name] if c in models)]
            cache[name] = st.sampled_from(groups[0]) if len(groups) == 1 else \
                st.integers(0, len(groups) - 1).flatmap(lambda i: st.sampled_from(groups[i]))
        return data.draw(cache[name], label=name)

    def _apply(self, event: Event, data) -> None:  # provided by the machine
        raise NotImplementedError

    def _new_id(self) -> str:  # provided by the machine
        raise NotImplementedError

    def stack_event(self, event: Event) -> Event:
        """The event as it is applied (``harness.rules.stack`` adds a spell id to a cast in a game
        with the stack); by default unchanged."""
        return event

    def after_event(self, event: Event, data) -> None:
        """Called after each event the machine applied (``harness.rules.stack`` then lets players
        pass priority in a game with the stack); by default nothing."""

    def extend_board(self, board: BoardSpec, extras: dict) -> BoardSpec:
        """The board of a new example with this area's board features added: an area
        overrides it, calls ``super()`` first, and adds objects from ``extras`` (drawn with
        the board, whatever the engine, so no data is drawn while the example runs) only for
        capabilities the engine claims."""
        return board
