"""An Aura can't be attached to a permanent with protection from a quality it has (CR 702.16c,
303.4), whatever gives the permanent protection: its own ability, an Aura, an anthem, a copy
effect (CR 707.2), or a fork's own layer code. ``Game.can_enchant`` looks at protection only when
a permanent may have it (``reference_engine.game.protection_possible``: the text of a permanent's
copiable values names protection, or a resolved effect grants it); these boards are where it may.
"""

from __future__ import annotations

import pytest

from reference_engine import BadBoard, Game, IllegalAction, ReferenceEngine
from reference_engine.objects import PTEffect

from .scenario_helpers import Decider, aura, board, obj


def new_game(*objects):
    return ReferenceEngine().new_game(board(*objects))


def test_an_aura_attached_before_gives_protection_to_the_board_after_it():
    """Guildscorn Ward: "Enchanted creature has protection from multicolored." Indrik Umbra (green
    and white) can't then enchant the creature (CR 702.16c); attached first, it was legal when it
    became attached (the board is built in its order)."""
    with pytest.raises(BadBoard, match=r"objects\[2\].attached_to: Indrik Umbra can't enchant 'b'"):
        new_game(obj("b", "Grizzly Bears"), aura("w", "Guildscorn Ward", on="b"), aura("i", "Indrik Umbra", on="b"))
    game = new_game(obj("b", "Grizzly Bears"), aura("i", "Indrik Umbra", on="b"), aura("w", "Guildscorn Ward", on="b"))
    assert game.objects["i"].attached_to == "b"


def test_an_anthem_gives_protection():
    """Absolute Grace: "All creatures have protection from black." Dead Weight (black) can't
    enchant Grizzly Bears."""
    with pytest.raises(BadBoard, match="Dead Weight can't enchant 'b'"):
        new_game(obj("g", "Absolute Grace"), obj("b", "Grizzly Bears"), aura("d", "Dead Weight", on="b"))
    assert new_game(obj("b", "Grizzly Bears"), aura("d", "Dead Weight", on="b")).objects["d"].attached_to == "b"


def test_a_copy_has_the_protection_it_copied():
    """Clone enters as a copy of Galina's Knight (protection from red, CR 707.2) and keeps it once
    the Knight is destroyed (its copiable values were fixed as it entered, CR 707.2b): Crackling Club
    (red) can't be moved onto it (CR 303.4j), though Clone's own text names no protection; onto
    Grizzly Bears it can."""
    game = new_game(obj("k", "Galina's Knight"), obj("b", "Grizzly Bears"), obj("r", "Typhoid Rats"),
                    aura("c", "Crackling Club", on="r"))
    game.apply({"type": "put_onto_battlefield", "id": "clone", "card": "Clone", "controller": "P1",
                "copy_of": "k"}, Decider())
    game.apply({"type": "destroy", "targets": ["k"]}, Decider())
    observed = game.observe()["objects"]
    assert observed["k"]["zone"] == "graveyard" and observed["clone"]["keywords"] == ["protection from red"]
    with pytest.raises(IllegalAction) as refused:
        game.apply({"type": "attach", "aura": "c", "to": "clone"}, Decider())
    assert refused.value.reason == "illegal_attachment"
    game.apply({"type": "attach", "aura": "c", "to": "b"}, Decider())
    assert game.objects["c"].attached_to == "b"


class _BlackProtection(Game):
    """A fork whose anthems give every permanent protection from black (no card's text says so)."""

    def anthem_effects(self, obj):
        return super().anthem_effects(obj) + [PTEffect(obj.id, "7c", 0, 0, 0, False, None,
                                                       ("protection from black",))]


def test_a_forks_layer_code_may_give_protection_from_anywhere():
    with pytest.raises(BadBoard, match="Dead Weight can't enchant 'b'"):
        _BlackProtection(board(obj("b", "Grizzly Bears"), aura("d", "Dead Weight", on="b")))
