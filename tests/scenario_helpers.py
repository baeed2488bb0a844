"""Helpers shared by the scenario tests: a scripted decider and board builders."""

from __future__ import annotations


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
