"""``rulesfuzz cards NAME``, ``--stats`` and ``--engine``: output and exit codes."""

from __future__ import annotations

import json

from harness.interfaces.cli import main

from .conftest import ROOT


def test_cards_name_shows_each_sentence_and_its_template(capsys):
    assert main(["cards", "Terror"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "Terror"
    assert out[1] == "  {1}{B} Instant (B)"  # its characteristics, as an engine observes them
    assert out[2] == "  [spell: destroy] Destroy target nonartifact, nonblack creature. It can't be regenerated."
    assert "modelled" in out
    assert any("destroy target creature (nonartifact, nonblack), can't be regenerated" in line for line in out)


def test_cards_name_gives_the_characteristics_an_engine_observes(capsys):
    """Mana cost, type line, power/toughness, colors and keywords (CR 109.3), in text and --json."""
    assert main(["cards", "Serra Angel"]) == 0
    assert capsys.readouterr().out.splitlines()[1] == "  {3}{W}{W} Creature — Angel 4/4 (W, keywords: flying, vigilance)"
    assert main(["cards", "Serra Angel", "--json"]) == 0
    facts = json.loads(capsys.readouterr().out)["card"]
    assert (facts["types"], facts["subtypes"], facts["power"], facts["toughness"], facts["colors"]) == (
        ["Creature"], ["Angel"], 4, 4, ["W"])


def test_cards_name_unmodelled_says_not_read(capsys):
    assert main(["cards", "Gerrard's Command"]) == 0
    out = capsys.readouterr().out
    assert "[NOT READ] Untap target creature. It gets +3/+3 until end of turn." in out
    assert "unmodelled (1 sentence not read)" in out


def test_cards_name_json_is_the_model(capsys):
    assert main(["cards", "Pacifism", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["name"] == "Pacifism" and data["modelled"] is True
    assert data["templates"] == ["enchant", "combat restriction"]


def test_cards_curated_card_is_hand_written(capsys):
    assert main(["cards", "Bear Umbra"]) == 0
    assert "modelled (hand-written" in capsys.readouterr().out


def test_cards_unknown_name_is_one_line_and_exit_2(capsys):
    assert main(["cards", "Terrorr"]) == 2
    captured = capsys.readouterr()
    err = captured.err.strip().splitlines()
    assert len(err) == 1 and "Terror" in err[0] and not captured.out


def test_cards_stats(capsys):
    assert main(["cards", "--stats"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("modelled: ") and " of " in lines[0] and lines[0].endswith("%)")
    assert int(lines[0].split()[1]) >= 2000
    assert any(line.split()[:2] == ["spell:", "damage"] for line in lines[1:])


def test_cards_engine_lists_declared_cards(capsys):
    engine = ROOT / "examples" / "engines" / "pool" / "engine.py"
    assert main(["cards", "--engine", f"{engine}:engine"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("engine ") and "declared cards modelled" in out[0]
    assert any(line.strip().startswith("Shock: modelled") for line in out[1:]) or len(out) > 1


def test_cards_name_and_stats_together_is_bad_usage(capsys):
    assert main(["cards", "Terror", "--stats"]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1


def test_cards_without_arguments_still_lists_the_pool(capsys):
    assert main(["cards"]) == 0
    assert "Eel Umbra" in capsys.readouterr().out
