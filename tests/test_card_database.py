"""The card database of the ``cards`` package (cards/data/oracle.jsonl) and ``--oracle`` files.

Expected values are the cards' printed facts (the database's records, Oracle), never what the
code under test computes. No timing is asserted (benchmarks/card_lookup.py measures it).
"""

from __future__ import annotations

import importlib.util
import json

import pytest

import cards
from cards.oracle_db import file_bytes
from harness.interfaces.cli import main
from harness.interfaces.config import ConfigError, load_settings

from .conftest import ROOT, one_error_line

TINY = str(ROOT / "examples/engines/tiny/engine.py")


@pytest.fixture(autouse=True)
def no_overlay():
    """Every test starts and ends with no --oracle file loaded in this process."""
    cards.clear_overlay()
    yield
    cards.clear_overlay()


def atomic(*entries, wrapped=True) -> dict:
    """An MTGJSON AtomicCards document of the (name, [face, ...]) ``entries``."""
    data = dict(entries)
    return {"meta": {"version": "test"}, "data": data} if wrapped else data


def write(tmp_path, payload, name="atomic.json"):
    path = tmp_path / name
    path.write_text(payload if isinstance(payload, str) else json.dumps(payload), encoding="utf-8")
    return path


OVERLAY_BEAR = ("Overlay Test Bear", [{
    "name": "Overlay Test Bear", "manaCost": "{1}{G}{G}", "type": "Creature — Bear", "supertypes": [],
    "types": ["Creature"], "subtypes": ["Bear"], "power": "3", "toughness": "3", "colors": ["G"],
    "text": "Trample", "keywords": ["Trample"], "layout": "normal"}])
#: Hill Giant as a (made-up) newer printing: 4/4 for {2}{R}{R} with reach.
NEWER_HILL_GIANT = ("Hill Giant", [{
    "name": "Hill Giant", "manaCost": "{2}{R}{R}", "type": "Creature — Giant", "supertypes": [],
    "types": ["Creature"], "subtypes": ["Giant"], "power": "4", "toughness": "4", "colors": ["R"],
    "text": "Reach", "keywords": ["Reach"], "layout": "normal"}])
#: Lightning Bolt of an older wording: the curated pool's text must win.
OLD_BOLT = ("Lightning Bolt", [{
    "name": "Lightning Bolt", "manaCost": "{R}", "type": "Instant", "types": ["Instant"],
    "text": "Lightning Bolt deals 3 damage to target creature or player.", "colors": ["R"], "layout": "normal"}])
#: A transforming card of MTGJSON's shape (Delver of Secrets' faces), with a made-up name.
OVERLAY_DFC = ("Overlay Seer // Overlay Horror", [
    {"name": "Overlay Seer // Overlay Horror", "faceName": "Overlay Horror", "side": "b", "layout": "transform",
     "type": "Creature — Human Insect", "types": ["Creature"], "subtypes": ["Human", "Insect"], "power": "3",
     "toughness": "2", "colors": ["U"], "colorIndicator": ["U"], "text": "Flying", "keywords": ["Flying"]},
    {"name": "Overlay Seer // Overlay Horror", "faceName": "Overlay Seer", "side": "a", "layout": "transform",
     "manaCost": "{U}", "type": "Creature — Human Wizard", "types": ["Creature"], "subtypes": ["Human", "Wizard"],
     "power": "1", "toughness": "1", "colors": ["U"], "text": "At the beginning of your upkeep, transform it."},
])


# -- the database ------------------------------------------------------------------------


def test_the_database_index_reads_every_line_shape():
    """The index (a scan for each line's name) gives every card by its name in the file's
    order, whatever the line's shape: the usual one, an escaped name, keys in another order,
    a multi-face card (its faces by name too), blank lines, no newline at the end."""
    lines = [{"name": "Plain Bear", "layout": "normal", "type_line": "Creature — Bear"},
             {"name": 'Kongming, "Sleeping Dragon"', "layout": "normal"},
             {"name": "Caf\u00e9 Golem", "layout": "normal"},
             {"layout": "normal", "name": "Keys Reversed"},
             {"name": "Fire // Ice", "layout": "split", "faces": [{"name": "Fire"}, {"name": "Ice"}]},
             {"name": "Odd Layout", "layout": "saga"}]
    data = ("\n".join(json.dumps(line) for line in lines[:3]) + "\n\n"
            + "\n".join(json.dumps(line) for line in lines[3:])).encode("utf-8")
    database = cards.CardDatabase(data)
    assert list(database) == [line["name"] for line in lines] and len(database) == 6
    assert all(database.record(line["name"]) == line for line in lines)
    assert database.face_names() == {"Fire", "Ice"} and database.lookup("Ice").name == "Ice"
    assert database.lookup("Fire // Ice").faces == ("Fire", "Ice") and database.lookup("Nope") is None
    assert "Odd Layout" in database and "Fire" not in database


def test_the_database_file_is_sorted_and_a_look_up_bisects_it_to_the_indexed_line():
    """The package's file is sorted by name (``str.lower``) with no blank line, the
    precondition of ``sorted_names``: a look-up bisecting it finds every card at the line the
    full index gives, the faces indexed from the lines of multi-face cards alone are the full
    index's, and look-ups (found or not) leave the rest unindexed."""
    data = file_bytes()
    full = cards.CardDatabase(data)
    names = list(full)
    assert names == sorted(names, key=str.lower) and b"\n\n" not in data and len(names) == 18_294
    lazy = cards.CardDatabase(data, sorted_names=True)
    assert [lazy._bisect(name) for name in names] == [full._starts[name] for name in names]
    lazy = cards.CardDatabase(data, sorted_names=True)
    assert lazy.lookup("Hill Giant") == full["Hill Giant"] and lazy.lookup("Not A Card Name") is None
    assert lazy.lookup("Insectile Aberration") == full.lookup("Insectile Aberration") and "Alive" not in lazy
    assert lazy._face_owners() == full._faces and not lazy._indexed
    assert list(lazy) == names and lazy._indexed  # iterating indexes every line, in the file's order


def test_a_sorted_database_bisects_every_line_shape_and_names_differing_in_case():
    """Bisecting finds lines of every shape (an escaped name, keys in another order, a
    multi-face card) and, where two names differ only in case (their order is not the
    file's to tell), each of them, by indexing every line."""
    lines = [{"name": "Aa Case", "layout": "normal"}, {"name": "aA case", "layout": "normal"},
             {"name": "B \"Quoted\"", "layout": "normal"}, {"name": "Caf\u00e9 Golem", "layout": "normal"},
             {"name": "Fire // Ice", "layout": "split", "faces": [{"name": "Fire"}, {"name": "Ice"}]},
             {"layout": "normal", "name": "Keys Reversed"}, {"name": "Zed", "layout": "normal"}]
    data = "\n".join(json.dumps(line) for line in lines).encode("utf-8") + b"\n"
    for name in ["B \"Quoted\"", "Caf\u00e9 Golem", "Keys Reversed", "Zed", "Fire // Ice"]:
        database = cards.CardDatabase(data, sorted_names=True)
        assert database.record(name)["name"] == name and not database._indexed
    database = cards.CardDatabase(data, sorted_names=True)
    assert database.lookup("Ice").name == "Ice" and "Fire" not in database and "Yak" not in database
    assert [database.record(name)["name"] for name in ("Aa Case", "aA case")] == ["Aa Case", "aA case"]


def test_a_database_card_hill_giant():
    giant = cards.card("Hill Giant")
    assert (giant.name, giant.mana_cost, giant.mana_value) == ("Hill Giant", "{3}{R}", 4)
    assert (giant.power, giant.toughness) == (3, 3)
    assert giant.types == ("Creature",) and giant.subtypes == ("Giant",) and giant.colors == ("R",)
    assert giant.layout == "normal" and giant.faces == () and giant.loyalty is None
    assert cards.lookup("Hill Giant") == giant and "Hill Giant" in cards.database()


def test_database_fields_loyalty_keywords_and_hybrid_mana_value():
    jace = cards.card("Jace Beleren")
    assert jace.loyalty == 3 and jace.power is None and jace.supertypes == ("Legendary",)
    assert "equip {1}" in cards.card("Bonesplitter").keywords  # the record's "Equip {1}", lower case
    assert {"flying", "first strike", "lifelink"} <= cards.card("Gisela, the Broken Blade").keywords
    assert cards.card("Spectral Procession").mana_value == 6  # {2/W} counts 2 (CR 202.3f)
    assert cards.card('Kongming, "Sleeping Dragon"').power == 2  # a name with quotes


def test_the_database_keeps_totem_armor_text_but_its_keywords_say_umbra_armor():
    felidar = cards.database()["Felidar Umbra"]
    assert "Totem armor" in felidar.oracle_text and "Attach Felidar Umbra to" in felidar.oracle_text
    assert {"enchant creature", "umbra armor"} <= felidar.keywords


def test_a_face_name_gives_that_face_and_the_full_name_the_front_face():
    back = cards.card("Insectile Aberration")
    assert (back.name, back.power, back.toughness, back.mana_cost) == ("Insectile Aberration", 3, 2, "")
    assert back.subtypes == ("Human", "Insect") and "flying" in back.keywords and back.layout == "transform"
    assert back.faces == ("Delver of Secrets", "Insectile Aberration")
    front = cards.card("Delver of Secrets // Insectile Aberration")
    assert (front.name, front.mana_cost, front.power, front.toughness) == ("Delver of Secrets", "{U}", 1, 1)
    assert cards.card("Delver of Secrets") == front
    assert cards.card("Brisela, Voice of Nightmares").power == 9  # a melded face (Gisela's record carries it)


def test_split_card_halves_and_the_whole_card():
    assert cards.card("Alive").mana_cost == "{3}{G}" and cards.card("Well").mana_cost == "{W}"
    whole = cards.card("Alive // Well")
    assert whole.name == "Alive // Well" and whole.mana_value == 5  # both halves (CR 709.4b)
    assert set(whole.colors) == {"G", "W"} and whole.faces == ("Alive", "Well")


def test_the_curated_pool_wins_and_pool_functions_stay_the_pool():
    felidar = cards.card("Felidar Umbra")  # curated: the current wording
    assert "Attach this Aura to target creature you control." in felidar.oracle_text
    assert "Attach Felidar Umbra" in cards.database().record("Felidar Umbra")["oracle_text"]
    assert len(cards.pool()) == len(cards.records()) == len(cards.to_json()) == 74
    assert "Hill Giant" not in cards.names() and "Hill Giant" not in cards.card_names()
    assert len(cards.database()) == 18_294
    assert {"Hill Giant", "Insectile Aberration", "Felidar Umbra", "Well"} <= cards.all_names()


def test_an_unknown_name_names_the_closest_names():
    with pytest.raises(cards.UnknownCardName) as caught:
        cards.card("Grizly Bears")
    text = str(caught.value)
    assert text.startswith("unknown card 'Grizly Bears': not an Oracle name of the card database (closest: ")
    assert "Grizzly Bears" in text.split("closest: ")[1]
    assert cards.closest("hill giant")[0] == "Hill Giant"  # case is not counted
    assert cards.lookup("hill giant") is None  # look-ups are exact
    assert "no close name" in str(cards.UnknownCardName("Qqqqzzzz Xxxx", []))  # the old constructor


# -- --oracle files ----------------------------------------------------------------------


def test_an_oracle_file_adds_cards_and_overrides_the_database_not_the_pool(tmp_path):
    path = write(tmp_path, atomic(OVERLAY_BEAR, NEWER_HILL_GIANT, OLD_BOLT))
    assert cards.lookup("Overlay Test Bear") is None
    assert cards.load_oracle_file(path) == ["Overlay Test Bear", "Hill Giant", "Lightning Bolt"]
    bear = cards.card("Overlay Test Bear")
    assert (bear.mana_cost, bear.power, bear.toughness, bear.subtypes) == ("{1}{G}{G}", 3, 3, ("Bear",))
    assert "trample" in bear.keywords
    giant = cards.card("Hill Giant")
    assert (giant.mana_cost, giant.power, giant.toughness) == ("{2}{R}{R}", 4, 4)
    assert cards.card("Lightning Bolt").oracle_text == "Lightning Bolt deals 3 damage to any target."
    assert cards.overlay_files() == (str(path),)
    cards.clear_overlay()
    assert cards.card("Hill Giant").power == 3


def test_an_oracle_file_multi_face_card_and_the_bare_mapping(tmp_path):
    cards.load_oracle_file(write(tmp_path, atomic(OVERLAY_DFC, wrapped=False)))
    horror = cards.card("Overlay Horror")
    assert (horror.power, horror.toughness, horror.layout) == (3, 2, "transform")
    assert horror.faces == ("Overlay Seer", "Overlay Horror")  # side a first
    assert cards.card("Overlay Seer // Overlay Horror").name == "Overlay Seer"


def test_add_records_of_the_database_shape_join_the_overlay():
    record = {"name": "Overlay Test Wall", "layout": "normal", "mana_cost": "{1}{W}", "type_line": "Creature — Wall",
              "supertypes": [], "types": ["Creature"], "subtypes": ["Wall"], "power": "0", "toughness": "4",
              "colors": ["W"], "keywords": ["Defender"], "oracle_text": "Defender", "source": "test"}
    assert cards.add_records([record]) == ["Overlay Test Wall"]
    wall = cards.card("Overlay Test Wall")
    assert (wall.power, wall.toughness, wall.mana_value) == (0, 4, 2) and "defender" in wall.keywords
    assert cards.overlay()["Overlay Test Wall"]["source"] == "test" and cards.overlay_files() == ()


@pytest.mark.parametrize("payload, words", [
    (None, "no such file"),
    ("{\"data\": ", "not JSON"),
    ("[1, 2]", "expected an object"),
    (json.dumps({"data": {"X": "Flying"}}), "card 'X': expected a non-empty list of face objects"),
    (json.dumps({"data": {"X": [3]}}), "card 'X': expected a list of face objects"),
    (json.dumps({"data": {"X": [{"types": "Creature"}]}}), "card 'X': types: expected a list of strings"),
    (json.dumps({"data": {"X": [{"text": ["a"]}]}}), "card 'X': text: expected a string"),
])
def test_a_bad_oracle_file_raises_oracle_file_error(payload, words, tmp_path):
    path = tmp_path / "bad.json" if payload is None else write(tmp_path, payload)
    with pytest.raises(cards.OracleFileError) as caught:
        cards.load_oracle_file(path)
    assert str(caught.value).startswith(f"{path}: ") and words in str(caught.value)
    assert cards.overlay_files() == ()


@pytest.mark.parametrize("command", [["run", "--engine", "reference", "--database", "none"], ["cards"],
                                     ["replay", "absent.json", "--engine", "reference"],
                                     ["check", "--engine", "reference"], ["plan", "--engine", "reference"]])
def test_a_bad_oracle_file_is_one_line_exit_2_before_the_run(command, tmp_path, capsys):
    path = write(tmp_path, "{not json")
    assert main([*command, "--oracle", str(path)]) == 2
    line = one_error_line(capsys)
    assert line.startswith(f"rulesfuzz: error: --oracle {path}: not JSON"), line
    assert main([*command, "--oracle", str(tmp_path)]) == 2
    assert "is a folder" in one_error_line(capsys)


def test_rulesfuzz_cards_shows_an_oracle_file_card(tmp_path, capsys):
    path = write(tmp_path, atomic(OVERLAY_BEAR, OLD_BOLT))
    assert main(["cards", "--oracle", str(path), "--json"]) == 0
    rows = {row["name"]: row for row in json.loads(capsys.readouterr().out)}
    assert rows["Overlay Test Bear"]["power"] == 3 and rows["Overlay Test Bear"]["oracle_file"] == f"--oracle {path}"
    assert "oracle_file" not in rows["Lightning Bolt"]  # the pool's own card
    assert main(["cards", "--oracle", str(path)]) == 0
    assert any(line.startswith("Overlay Test Bear") and str(path) in line
               for line in capsys.readouterr().out.splitlines())


ENGINE_NEEDING_THE_OVERLAY = '''
import cards
from harness.adapters.reference import ReferenceAdapter

def engine():
    # loaded in each worker process: the --oracle file's card must be known there too
    assert cards.card("Overlay Test Bear").power == 3, "no overlay in this process"
    return ReferenceAdapter()
'''


def test_worker_processes_load_the_oracle_files(tmp_path, capsys):
    path = write(tmp_path, atomic(OVERLAY_BEAR))
    (tmp_path / "needs_overlay.py").write_text(ENGINE_NEEDING_THE_OVERLAY, encoding="utf-8")
    code = main(["run", "--engine", f"{tmp_path / 'needs_overlay.py'}:engine", "--oracle", str(path),
                 "--workers", "2", "--max-examples", "2", "--steps", "2", "--database", "none", "--quiet",
                 "--replay-dir", str(tmp_path / "replays")])
    captured = capsys.readouterr()
    assert code == 0, captured.out + captured.err
    assert "2 workers" in captured.out


def test_an_isolated_engine_loads_the_oracle_files_in_its_child(tmp_path, capsys):
    """--isolate serves the engine from a child process: the --oracle files reach it (RULESFUZZ_ORACLE)."""
    path = write(tmp_path, atomic(OVERLAY_BEAR))
    (tmp_path / "needs_overlay.py").write_text(ENGINE_NEEDING_THE_OVERLAY, encoding="utf-8")
    code = main(["run", "--engine", f"{tmp_path / 'needs_overlay.py'}:engine", "--oracle", str(path), "--isolate",
                 "--max-examples", "2", "--steps", "2", "--database", "none", "--quiet",
                 "--replay-dir", str(tmp_path / "replays")])
    captured = capsys.readouterr()
    assert code == 0, captured.out + captured.err


# -- [tool.rulesfuzz] oracle -------------------------------------------------------------


def _run_parser():
    import argparse

    from harness.interfaces.cli import build_parser

    return next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)).choices["run"]


def _project(folder, text: str):
    (folder / "pyproject.toml").write_text(f"[project]\nname = 'my-engine'\n\n[tool.rulesfuzz]\n{text}\n",
                                           encoding="utf-8")
    inner = folder / "src" / "deep"
    inner.mkdir(parents=True)
    return inner


def test_config_oracle_paths_are_relative_to_the_pyproject(tmp_path):
    inner = _project(tmp_path, 'oracle = "data/atomic.json"\n[tool.rulesfuzz.profiles.more]\n'
                               'oracle = ["a.json", "/abs/b.json"]')
    settings, _ = load_settings(_run_parser(), start=inner)
    assert settings["oracle"] == [str(tmp_path / "data" / "atomic.json")]
    settings, _ = load_settings(_run_parser(), "more", start=inner)
    assert settings["oracle"] == [str(tmp_path / "a.json"), "/abs/b.json"]


def test_config_oracle_of_the_wrong_type_is_a_config_error(tmp_path):
    inner = _project(tmp_path, "oracle = 3")
    with pytest.raises(ConfigError, match="oracle = 3: expected a list of strings"):
        load_settings(_run_parser(), start=inner)


def test_config_oracle_file_is_loaded_by_run_and_a_missing_one_is_exit_2(tmp_path, monkeypatch, capsys):
    (tmp_path / "data").mkdir()
    write(tmp_path / "data", atomic(OVERLAY_BEAR))
    inner = _project(tmp_path, 'oracle = "data/atomic.json"\ndatabase = "none"\nquiet = true\njson = "run.json"')
    monkeypatch.chdir(inner)
    assert main(["run", "--engine", f"{TINY}:engine", "--max-examples", "1", "--steps", "1",
                 "--replay-dir", str(tmp_path / "replays")]) == 0
    assert cards.overlay_files() == (str(tmp_path / "data" / "atomic.json"),)
    assert json.loads((tmp_path / "run.json").read_text())["options"]["oracle"] == [
        str(tmp_path / "data" / "atomic.json")]
    assert cards.card("Overlay Test Bear").power == 3
    capsys.readouterr()
    cards.clear_overlay()
    (tmp_path / "data" / "atomic.json").unlink()
    assert main(["run", "--engine", f"{TINY}:engine"]) == 2
    line = one_error_line(capsys)
    assert f"--oracle {tmp_path / 'data' / 'atomic.json'}: no such file" in line


def test_the_pytest_plugin_loads_the_oracle_setting(tmp_path):
    from harness import pytest_plugin

    path = write(tmp_path, atomic(OVERLAY_BEAR))
    pytest_plugin._load_oracle([str(path)])
    assert cards.card("Overlay Test Bear").toughness == 3
    with pytest.raises(pytest.UsageError, match="oracle: .*no such file"):
        pytest_plugin._load_oracle([str(tmp_path / "missing.json")])


# -- the benchmark -----------------------------------------------------------------------


def test_the_card_lookup_benchmark_measures_a_number():
    spec = importlib.util.spec_from_file_location("benchmark_card_lookup", ROOT / "benchmarks" / "card_lookup.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    figures = module.measure(1)
    assert isinstance(figures["seconds"], float) and figures["seconds"] > 0
    assert isinstance(figures["ratio"], float)
