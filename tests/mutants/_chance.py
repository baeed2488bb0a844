"""What the coins-and-dice mutants share: a fork whose flips or rolls trigger once too often."""

from __future__ import annotations

from collections.abc import Callable

from reference_engine import Game


def extra_chance_triggers(method: str, what: str, count: Callable[[object, list[dict], str | None], int]) -> type:
    """A :class:`reference_engine.Game` subclass whose ``method`` (``"flip"`` or ``"roll"``, of
    :class:`reference_engine.chance.ChanceRules`) does what the engine does, then triggers the
    abilities that trigger on ``what`` (``"win a coin flip"``, ``"roll one or more dice"``)
    ``count(kept, entries, call)`` more times: ``kept`` and ``entries`` are what the method
    returned, ``call`` the flip's call (None for a roll)."""

    def wrong(self, player, event, *args):
        kept, entries = getattr(Game, method)(self, player, event, *args)
        call = args[0] if method == "flip" else None
        for _ in range(count(kept, entries, call)):  # the bug
            self.chance_triggers(player, what)
        return kept, entries

    return type("MutantGame", (Game,), {method: wrong})
