"""Helpers shared by the scenario tests: a scripted decider, board builders, and playing
events on the reference engine (a new game, one event with scripted answers, an event
it must refuse)."""

from __future__ import annotations

import copy

import pytest

from reference_engine import IllegalAction, ReferenceEngine

#: An empty mana pool, as observed (CR 106.4).
EMPTY = dict.fromkeys("WUBRGC", 0)


class Decider:
    """A scripted decider that records every question: ``asked`` is [(player, kind, options)].

    ``answers`` are returned in order; a question with no answer left fails the test,
    so a scenario that expects no choice proves that none was asked.
    """

    def __init__(self, *answers):
        self.answers = list(answers)
        self.asked: list[tuple[str, str, list[str]]] = []

    def choose(self, player, kind, options):
        self.asked.append((player, kind, list(options)))
        assert self.answers, f"unexpected choice: {player} asked {kind} {list(options)}"
        answer = self.answers.pop(0)
        assert answer in options, f"scripted answer {answer!r} not in {list(options)}"
        return answer

    def flip_coin(self, player):
        raise AssertionError("no coin flip expected")

    def roll_die(self, player, sides):
        raise AssertionError("no die roll expected")


def obj(oid, card, owner="P1", **fields):
    """One board object: ``obj("bears", "Grizzly Bears", tapped=True)``; battlefield by default."""
    return {"id": oid, "card": card, "owner": owner, **fields}


def aura(oid, card, on, owner="P1", **fields):
    """An Aura on the battlefield attached to ``on``."""
    return obj(oid, card, owner, attached_to=on, **fields)


def board(*objects, life=20):
    """A two-player board (P1, P2) with ``objects``."""
    return {"players": [{"id": "P1", "life": life}, {"id": "P2", "life": life}], "objects": list(objects)}


def pool(**amounts):
    """An observed mana pool: ``pool(G=2)`` is two green mana and nothing else."""
    return {**EMPTY, **amounts}


def new_game(*objects):
    """A reference engine game on :func:`board` with ``objects``."""
    return ReferenceEngine().new_game(board(*objects))


def play(game, event, *answers):
    """Apply ``event`` with the scripted ``answers`` (every one must be used); returns the
    observation after it and the questions asked."""
    decider = Decider(*answers)
    game.apply(event, decider)
    assert decider.answers == [], f"scripted answers not used: {decider.answers}"
    return game.observe(), decider.asked


def activate(oid, n=0):
    """The ``activate`` event of ``oid``'s activated ability ``n``."""
    return {"type": "activate", "object": oid, "ability": n}


def refused(game, event, reason):
    """``event`` is refused with IllegalAction ``reason`` and changes nothing."""
    before = copy.deepcopy(game.observe())
    with pytest.raises(IllegalAction) as info:
        game.apply(event, Decider())
    assert info.value.reason == reason
    assert game.observe() == before, "an illegal event changed the game"


def fuzz_with_engine_function_checked(monkeypatch, name: str, real, checked, examples: int, seed: int) -> None:
    """Put ``checked`` in place of ``real`` (the function ``name``) in every reference_engine module
    that imported it, then fuzz the reference engine ``examples`` examples of ``seed`` in both
    drivers (exploring and Hypothesis's): ``checked`` asserts, each call, what the rules say."""
    import sys

    from harness.adapters.reference import ReferenceAdapter
    from harness.running.runner import run

    for module_name, module in list(sys.modules.items()):
        if module_name.startswith("reference_engine") and getattr(module, name, None) is real:
            monkeypatch.setattr(module, name, checked)
    for explore in (True, False):
        result = run(ReferenceAdapter(), max_examples=examples, seed=seed, database=None, shrink=False,
                     explore=explore)
        assert result.violation is None, result.violation
