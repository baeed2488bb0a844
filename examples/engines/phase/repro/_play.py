"""Shared by the reproduction scripts: phase-python only (no rulesfuzz), normal game actions.

``engine(cards)`` builds phase's card data from MTGJSON atomic-card dicts through the
wheel's ``build_oracle_face``; ``play(game, wants)`` plays a two-player game with normal
actions only (keep both hands, play a land when one can, cast the first spell of
``wants`` phase lists as castable, choose targets with ``target``, pass priority
otherwise) until ``wants`` is empty, and returns every event of the game.
"""

import json

import phase


def card(name, cost, types, text="", subtypes=(), supertypes=(), power=None, toughness=None, keywords=(),
         colors=()):
    """An MTGJSON atomic card, the fields build_oracle_face reads."""
    return {"name": name, "manaCost": cost, "colors": list(colors), "colorIdentity": list(colors),
            "layout": "normal", "manaValue": 0.0, "identifiers": {}, "types": list(types),
            "subtypes": list(subtypes), "supertypes": list(supertypes), "power": power, "toughness": toughness,
            "text": text, "keywords": list(keywords), "type": " ".join(types), "loyalty": None, "defense": None}


MOUNTAIN = card("Mountain", None, ["Land"], "({T}: Add {R}.)", subtypes=["Mountain"], supertypes=["Basic"])
SWAMP = card("Swamp", None, ["Land"], "({T}: Add {B}.)", subtypes=["Swamp"], supertypes=["Basic"])
PLAINS = card("Plains", None, ["Land"], "({T}: Add {W}.)", subtypes=["Plains"], supertypes=["Basic"])
FOREST = card("Forest", None, ["Land"], "({T}: Add {G}.)", subtypes=["Forest"], supertypes=["Basic"])


def engine(cards):
    return phase.Engine.from_json(json.dumps({c["name"].lower(): phase.build_oracle_face(c, None) for c in cards}))


def action(kind, data=None):
    return phase.GameAction.from_dict({"type": kind, "data": data} if data is not None else {"type": kind})


def play(game, wants, seat=0, target=None, max_actions=3000):
    """Play normally until every (name, targets) of ``wants`` was cast by ``seat``; return the events."""
    wants = list(wants)
    events = []
    for _ in range(max_actions):
        wait = game.waiting_for()
        kind, data = wait["type"], wait.get("data") or {}
        acts = game.actions()
        if kind == "GameOver":
            break
        if kind == "MulliganDecision":
            who = data["pending"][0]["player"]
            events += game.apply(who, next(a for a in acts if a.data["choice"]["type"] == "Keep")).events
            continue
        who = data.get("player", game.priority_player())
        if kind == "Priority" and not wants and not game.stack():
            break
        if kind == "TargetSelection":
            choice = target(data) if target else None
            act = next(a for a in acts if a.kind == "ChooseTarget" and (choice is None or a.data["target"] == choice))
            events += game.apply(who, act).events
            continue
        if kind == "Priority" and who == seat and not game.stack() and wants:
            lands = [a for a in acts if a.kind == "PlayLand"]
            casts = [a for a in acts if a.kind == "CastSpell"
                     and game.object(a.data["object_id"])["name"] == wants[0]]
            if casts:
                events += game.apply(who, casts[0]).events
                wants.pop(0)
                continue
            if lands:
                events += game.apply(who, lands[0]).events
                continue
        if kind == "Priority":
            events += game.apply(who, action("PassPriority")).events
            continue
        # Any other prompt (declare attackers/blockers, ...): the first listed action, or nothing.
        none = [a for a in acts if a.kind in ("DeclareAttackers", "DeclareBlockers")]
        events += game.apply(who, none[0] if none else acts[0]).events
    return events
