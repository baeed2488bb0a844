"""Deciders: the harness's answers to every choice and random outcome an engine needs.

Choices and chance are inputs (DESIGN.md): during fuzzing a :class:`DrawingDecider`
draws each answer with Hypothesis, so answers shrink and replay; a :class:`ReplayDecider`
gives back recorded answers. Both record every question as a
:class:`harness.protocol.Decision`, so invariants can check who was asked what.
"""

from __future__ import annotations

from hypothesis import strategies as st

from harness.decisions import REFERENCE_ONLY  # noqa: F401  (re-exported: who asked a decision the engine was not asked)
from harness.generation.hypothesis_shim import random_source
from harness.protocol import Decision
from harness.running import interrupts
from harness.protocol import RulesfuzzError


class BadDecisionRequest(RulesfuzzError):
    """The engine asked a malformed question (no options, non-string options, bad die)."""


class ReplayDiverged(RulesfuzzError):
    """A replayed engine asked a question the scenario did not record."""


def _check_options(player, kind, options) -> tuple:
    options = tuple(options)
    if not options:
        raise BadDecisionRequest(f"engine asked {player!r} to choose {kind!r} among no options")
    if not all(isinstance(o, str) for o in options):
        raise BadDecisionRequest(f"engine asked {kind!r} with non-string options {options!r}")
    return options


#: A coin's sides, heads first (what a flip shrinks towards).
_COIN = ("heads", "tails")


class DrawingDecider:
    """Draws answers from a Hypothesis ``data`` object (``st.data()``).

    Choices shrink towards the first option, coins towards heads, dice towards 1.
    """

    __slots__ = ("_data", "asked")

    def __init__(self, data):
        self._data = data
        self.asked: list[Decision] = []

    def _draw(self, strategy, label: str):
        with interrupts.shielded():  # a timeout or Ctrl-C lands after the draw, never inside it
            return self._data.draw(strategy, label=label)

    def _index(self, size: int, label: str) -> int:
        """An index below ``size``, drawn as ``st.integers(0, size - 1)`` (``--explore``: straight
        from the random source, the same value, :func:`harness.generation.hypothesis_shim.random_source`)."""
        source = random_source(self._data)
        if source is None:
            return self._draw(st.integers(0, size - 1), label=label)
        with interrupts.shielded():
            return source.rng.randrange(0, size)

    def choose(self, player, kind, options):
        options = _check_options(player, kind, options)
        answer = options[0] if len(options) == 1 else options[
            self._index(len(options), f"{player} {kind}")]  # as sampled_from, cheaper
        self.asked.append(Decision(player, kind, options, answer))
        return answer

    def flip_coin(self, player):
        answer = _COIN[self._index(2, f"{player} coin")] if random_source(self._data) is not None else self._draw(
            st.sampled_from(_COIN), label=f"{player} coin")  # drawn at random as draw_at_random draws sampled_from
        self.asked.append(Decision(player, "coin_flip", _COIN, answer))
        return answer

    def roll_die(self, player, sides):
        if not isinstance(sides, int) or sides < 1:
            raise BadDecisionRequest(f"engine asked to roll a die with {sides!r} sides")
        answer = 1 + self._index(sides, f"{player} d{sides}") if random_source(self._data) is not None else self._draw(
            st.integers(1, sides), label=f"{player} d{sides}")  # randrange(1, sides + 1): the same number drawn
        self.asked.append(Decision(player, f"d{sides}", (), answer))
        return answer


class ReplayDecider:
    """Gives back recorded answers, in order.

    ``recorded`` is a list of decision dicts (``player``, ``kind``, ``options``,
    ``answer``). With ``strict=True`` (re-running a generated example) any question
    that is not the next recorded one raises :class:`ReplayDiverged`. Otherwise
    (``rulesfuzz replay``) recorded decisions that don't match the question are
    skipped, and a question with no matching record is answered with its first option;
    both are noted in ``notes`` so the user sees where the engine behaved differently.
    """

    def __init__(self, recorded, strict: bool = True):
        self._recorded = list(recorded)
        self._strict = strict
        self.asked: list[Decision] = []
        self.notes: list[str] = []

    def _matches(self, rec, player, kind, options) -> bool:
        return (
            rec.get("kind") == kind
            and rec.get("player") in (None, player)
            and (not options or (list(rec.get("options") or options) == list(options) and rec.get("answer") in options))
        )

    def _next(self, player, kind, options):
        for i, rec in enumerate(self._recorded):
            if self._matches(rec, player, kind, options):
                if i and self._strict:
                    break
                for skipped in self._recorded[:i]:
                    self.notes.append(f"recorded decision {skipped} was not asked for")
                del self._recorded[: i + 1]
                self.asked.append(Decision(player, kind, tuple(options), rec.get("answer")))
                return rec.get("answer")
            if self._strict:
                break
        question = f"{player!r} was asked {kind!r} {list(options)}"
        if self._strict:
            raise ReplayDiverged(f"{question}; the scenario records {self._recorded[:1] or 'nothing more'}")
        if not options:
            raise ReplayDiverged(f"{question} but the scenario records no answer for it")
        self.notes.append(f"{question} with no recorded answer: answered {options[0]!r}")
        self.asked.append(Decision(player, kind, tuple(options), options[0]))
        return options[0]

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




def same_options(a, b) -> bool:
    """Whether two questions offer the same options, in any order (a multiset of strings): the
    order of a decision's options carries no rules meaning (umbra Auras listed by timestamp or by
    id, say), so the differential oracle matches questions by content."""
    a, b = tuple(a), tuple(b)
    return len(a) == len(b) and (a == b or sorted(map(str, a)) == sorted(map(str, b)))


class MirrorDecider:
    """Differential mode: gives the reference engine the answers the fork was given.

    Each question is matched with the next recorded decision of the same player, kind and
    options, the options compared as a set (:func:`same_options`: the engines may list them
    in different orders); a question the fork was never asked goes to ``fallback`` (the
    run's own decider), whose answer is then recorded like any other (and labelled
    :data:`REFERENCE_ONLY` in the scenario's steps).
    """

    def __init__(self, recorded: list[Decision], fallback):
        self._recorded = list(recorded)
        self._fallback = fallback

    def _take(self, player, kind, options):
        for i, rec in enumerate(self._recorded):
            if rec.kind == kind and rec.player == player and (not options or same_options(rec.options, options)):
                del self._recorded[: i + 1]
                return True, rec.answer
        return False, None

    def choose(self, player, kind, options):
        options = _check_options(player, kind, options)
        found, answer = self._take(player, kind, options)
        return answer if found else self._fallback.choose(player, kind, options)

    def flip_coin(self, player):
        found, answer = self._take(player, "coin_flip", ("heads", "tails"))
        return answer if found else self._fallback.flip_coin(player)

    def roll_die(self, player, sides):
        found, answer = self._take(player, f"d{sides}", ())
        return answer if found else self._fallback.roll_die(player, sides)
