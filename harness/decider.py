"""Deciders: the harness's answers to every choice and random outcome an engine needs.

Choices and chance are inputs (DESIGN.md): during fuzzing a :class:`DrawingDecider`
draws each answer with Hypothesis, so answers shrink and replay; a :class:`ReplayDecider`
gives back recorded answers. Both record every question as a
:class:`invariants.Decision`, so invariants can check who was asked what.
"""

from __future__ import annotations

from hypothesis import strategies as st

from invariants import Decision


class BadDecisionRequest(Exception):
    """The engine asked a malformed question (no options, non-string options, bad die)."""


class ReplayDiverged(Exception):
    """A replayed engine asked a question the scenario did not record."""


def _check_options(player, kind, options) -> tuple:
    options = tuple(options)
    if not options:
        raise BadDecisionRequest(f"engine asked {player!r} to choose {kind!r} among no options")
    if not all(isinstance(o, str) for o in options):
        raise BadDecisionRequest(f"engine asked {kind!r} with non-string options {options!r}")
    return options


class DrawingDecider:
    """Draws answers from a Hypothesis ``data`` object (``st.data()``).

    Choices shrink towards the first option, coins towards heads, dice towards 1.
    """

    __slots__ = ("_draw", "asked")

    def __init__(self, data):
        self._draw = data.draw
        self.asked: list[Decision] = []

    def choose(self, player, kind, options):
        options = _check_options(player, kind, options)
        answer = options[0] if len(options) == 1 else self._draw(st.sampled_from(options), label=f"{player} {kind}")
        self.asked.append(Decision(player, kind, options, answer))
        return answer

    def flip_coin(self, player):
        answer = self._draw(st.sampled_from(("heads", "tails")), label=f"{player} coin")
        self.asked.append(Decision(player, "coin_flip", ("heads", "tails"), answer))
        return answer

    def roll_die(self, player, sides):
        if not isinstance(sides, int) or sides < 1:
            raise BadDecisionRequest(f"engine asked to roll a die with {sides!r} sides")
        answer = self._draw(st.integers(1, sides), label=f"{player} d{sides}")
        self.asked.append(Decision(player, f"d{sides}", (), answer))
        return answer


class ReplayDecider:
    """Gives back recorded answers, in order, checking each question matches.

    ``recorded`` is a list of decision dicts (``player``, ``kind``, ``options``,
    ``answer``). With ``strict=False`` a question beyond the record is answered with
    its first option (hand-written scenarios may leave decisions out), and noted in
    ``defaulted``. Raises :class:`ReplayDiverged` when the engine asks something else.
    """

    def __init__(self, recorded, strict: bool = True):
        self._recorded = list(recorded)
        self._strict = strict
        self.asked: list[Decision] = []
        self.defaulted: list[Decision] = []

    def _next(self, player, kind, options):
        if not self._recorded:
            if self._strict or kind.startswith("d") or kind == "coin_flip":
                raise ReplayDiverged(f"engine asked {player!r} for {kind!r} {list(options)} but no decision is recorded")
            decision = Decision(player, kind, tuple(options), options[0])
            self.defaulted.append(decision)
            self.asked.append(decision)
            return decision.answer
        rec = self._recorded.pop(0)
        if rec.get("kind") != kind or (rec.get("player") not in (None, player)) or (
            options and list(rec.get("options") or options) != list(options)
        ):
            raise ReplayDiverged(
                f"engine asked {player!r} for {kind!r} {list(options)}; the scenario recorded "
                f"{rec.get('player')!r} for {rec.get('kind')!r} {rec.get('options')}"
            )
        if options and rec.get("answer") not in options:
            raise ReplayDiverged(f"recorded answer {rec.get('answer')!r} is not one of {list(options)}")
        self.asked.append(Decision(player, kind, tuple(options), rec.get("answer")))
        return rec.get("answer")

    def choose(self, player, kind, options):
        return self._next(player, kind, _check_options(player, kind, options))

    def flip_coin(self, player):
        return self._next(player, "coin_flip", ("heads", "tails"))

    def roll_die(self, player, sides):
        return self._next(player, f"d{sides}", ())

    @property
    def unused(self) -> list[dict]:
        """Recorded decisions the engine never asked for."""
        return list(self._recorded)
