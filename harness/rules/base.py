"""What every rules-area mixin shares: the ``objects`` Bundle, :func:`needs`, :class:`RulesArea`."""

from __future__ import annotations

from hypothesis.stateful import Bundle, precondition

from ..targeting import Targeting

#: The object ids of the example: the board's, and those events create. Bundles are
#: looked up by name, so every mixin's rules share this one.
objects = Bundle("objects")

#: Name of the attribute on a rule method that holds the capabilities it needs.
REQUIRES = "rulesfuzz_requires"


def needs(*capabilities: str):
    """Mark a rule as needing every capability in ``capabilities`` (names of
    ``harness.protocol.CAPABILITIES``); decorators stack, requirements add up.

    Put it above ``@rule``/``@precondition``. The requirement is also a precondition,
    so the rule is never chosen for an engine that doesn't claim them.
    """
    required = frozenset(capabilities)

    def decorate(method):
        wrapped = precondition(lambda self: required <= self.capabilities)(method)
        setattr(wrapped, REQUIRES, required | getattr(method, REQUIRES, frozenset()))
        return wrapped

    return decorate


class RulesArea(Targeting):
    """Base of the rules-area mixins: what the machine provides to their rules.

    ``capabilities`` is the engine's claimed capability set; ``_apply(event, data)``
    performs one event on the session and checks invariants (raising
    ``InvariantViolation``); ``_new_id()`` returns a fresh object id for an event that
    creates an object (a rule that creates one returns its id with ``target=objects``).
    """

    capabilities: frozenset = frozenset()

    def _apply(self, event: dict, data) -> None:  # provided by the machine
        raise NotImplementedError

    def _new_id(self) -> str:  # provided by the machine
        raise NotImplementedError

    def extend_board(self, board: dict, extras: dict) -> dict:
        """The board of a new example with this area's board features added: an area
        overrides it, calls ``super()`` first, and adds objects from ``extras`` (drawn with
        the board, whatever the engine, so no data is drawn while the example runs) only for
        capabilities the engine claims."""
        return board
