"""The Oracle text reader (cards.reader): each template read from a database card in the
2018-2020 templating and from a hand-made card in today's, with the abilities written by
hand from the Oracle text; lines that must stay unread; the modelled count on the data."""

from __future__ import annotations

import re

import pytest

import cards
from cards.model import TEMPLATES, Ability, Affected, Effect
from cards.reader import read
from cards.stats import stats, stats_lines


def db(name: str) -> cards.Card:
    return cards.database()[name]


def modern(text: str, types=("Creature",), name="Test Card", subtypes=()) -> cards.Card:
    creature = "Creature" in types
    return cards.Card(name=name, mana_cost="{2}", supertypes=(), types=tuple(types), subtypes=tuple(subtypes),
                      colors=(), power=2 if creature else None, toughness=2 if creature else None, oracle_text=text)


def only(card: cards.Card) -> list[Ability]:
    m = read(card)
    assert m.modelled, m.unread
    return list(m.abilities)


def strip(abilities):
    """Abilities without their text (the two templatings' texts differ)."""
    return [(a.kind, a.template, a.keyword, a.parameter, a.static, a.affected, a.power, a.toughness, a.keywords,
             a.trigger, a.optional, a.cost, a.tap, a.sacrifice_self, a.produces, a.effects) for a in abilities]


def same_reading(old: cards.Card, new: cards.Card):
    assert strip(only(old)) == strip(only(new))
    return only(old)


# ---------------------------------------------------------------- spells

def test_destroy_terror_both_templatings():
    found = same_reading(db("Terror"), modern("Destroy target nonartifact, nonblack creature. It can't be regenerated.",
                                              types=("Instant",)))
    assert found[0].template == "spell: destroy"
    assert found[0].effects == (Effect("destroy", Affected("target", "creature", ("nonartifact", "nonblack")),
                                       cant_be_regenerated=True),)


def test_destroy_type_union_is_a_permanent_of_either_type():
    found = same_reading(db("Naturalize"), modern("Destroy target artifact or enchantment.", types=("Instant",)))
    assert found[0].effects == (Effect("destroy", Affected("target", "permanent", ("artifact or enchantment",))),)
    three = only(modern("Destroy target artifact, creature, or land.", types=("Sorcery",)))
    assert three[0].effects[0].affected == Affected("target", "permanent", ("artifact, creature, or land",))


def test_destroy_with_power_filter():
    text = "Destroy target creature with power 2 or less."
    name = next(n for n in cards.database() if db(n).oracle_text == text and db(n).is_type("Instant")
                or db(n).oracle_text == text and db(n).is_type("Sorcery"))
    found = same_reading(db(name), modern(text, types=("Sorcery",)))
    assert found[0].effects == (Effect("destroy", Affected("target", "creature", ("power 2 or less",))),)


def test_destroy_and_its_controller_loses_life():
    found = only(modern("Destroy target land. Its controller loses 2 life.", types=("Sorcery",)))
    assert found[0].effects == (Effect("destroy", Affected("target", "land")),
                                Effect("lose_life", Affected("controller", "player"), amount=2))


def test_damage_shock_and_sorins_thirst():
    shock = same_reading(db("Shock"), modern("This spell deals 2 damage to any target.", types=("Instant",),
                                             name="Shock"))
    assert shock[0].effects == (Effect("damage", Affected("target", "any"), amount=2),)
    thirst = same_reading(db("Sorin's Thirst"),
                          modern("Sorin's Thirst deals 2 damage to target creature and you gain 2 life.",
                                 types=("Instant",), name="Sorin's Thirst"))
    assert thirst[0].template == "spell: damage"
    assert thirst[0].effects == (Effect("damage", Affected("target", "creature"), amount=2),
                                 Effect("gain_life", Affected("you", "player"), amount=2))


def test_pt_giant_growth_and_group_until_end_of_turn():
    found = same_reading(db("Giant Growth"), modern("Target creature gets +3/+3 until end of turn.",
                                                    types=("Instant",)))
    assert found[0].effects == (Effect("pt", Affected("target", "creature"), power=3, toughness=3,
                                       until_end_of_turn=True),)
    group = only(modern("Creatures your opponents control get -1/-1 until end of turn.", types=("Sorcery",)))
    assert group[0].effects[0].affected == Affected("each", "creature", ("opponent controls",))
    yours = only(modern("Target creature you control gets +2/+2 until end of turn.", types=("Instant",)))
    assert yours[0].effects[0].affected == Affected("target", "creature", ("you control",))


def test_life_drain():
    found = only(modern("Target player loses 3 life and you gain 3 life.", types=("Sorcery",)))
    assert found[0].template == "spell: life"
    assert found[0].effects == (Effect("lose_life", Affected("target", "player"), amount=3),
                                Effect("gain_life", Affected("you", "player"), amount=3))
    each = only(modern("Each player loses 2 life.", types=("Sorcery",)))
    assert each[0].effects == (Effect("lose_life", Affected("each", "player"), amount=2),)


def test_regenerate_target_spell():
    found = only(modern("Regenerate target creature.", types=("Instant",)))
    assert found[0].template == "spell: regenerate"
    assert found[0].effects == (Effect("regenerate", Affected("target", "creature")),)


def test_carried_keyword_on_a_spell_convoke():
    found = only(modern("Convoke\nTarget creature gets +2/+2 until end of turn.", types=("Instant",)))
    assert [a.template for a in found] == ["carried keyword", "spell: pt"]
    assert found[0].keyword == "convoke"


def test_cant_be_countered_both_templatings():
    found = only(modern("This spell can't be countered.\nDraw two cards.", types=("Sorcery",)))
    assert found[0].template == "stack restriction" and found[0].static == "can't be countered"
    old = only(modern("Test Card can't be countered.\nDraw two cards.", types=("Sorcery",)))
    assert strip(old) == strip(found)


# ---------------------------------------------------------------- permanents

def test_pacifism_combat_restriction_both_templatings():
    found = same_reading(db("Pacifism"), modern("Enchant creature\nEnchanted creature can't attack or block.",
                                                 types=("Enchantment",), subtypes=("Aura",)))
    assert [a.template for a in found] == ["enchant", "combat restriction"]
    assert found[1].static == "combat restriction" and found[1].affected == Affected("enchanted", "creature")


def test_juggernaut_and_self_restrictions():
    found = same_reading(db("Juggernaut"), modern("This creature attacks each combat if able.\n"
                                                  "This creature can't be blocked by Walls."))
    assert [(a.template, a.affected) for a in found] == [("combat restriction", Affected("self", "creature"))] * 2
    assert only(modern("This creature can block only creatures with flying."))[0].template == "combat restriction"
    assert only(modern("This creature can't attack."))[0].template == "combat restriction"


def test_carried_keywords_shadow_and_annihilator():
    found = same_reading(db("Dauthi Slayer"), modern("Shadow (This creature can block or be blocked by only "
                                                     "creatures with shadow.)\nThis creature attacks each combat "
                                                     "if able.", name="Dauthi Slayer"))
    assert (found[0].template, found[0].keyword) == ("carried keyword", "shadow")
    crusher = only(db("Ulamog's Crusher"))
    assert (crusher[0].keyword, crusher[0].parameter) == ("annihilator", "2")
    assert only(modern("Bushido 2"))[0].parameter == "2"


def test_anthem_lords_both_templatings():
    found = same_reading(db("Lord of Atlantis"), modern("Other Merfolk creatures get +1/+1 and have islandwalk."))
    assert found[0].affected == Affected("each", "creature", ("other", "Merfolk"))
    assert found[0].keywords == ("islandwalk",)
    chieftain = only(db("Goblin Chieftain"))
    today = only(modern("Haste\nOther Goblins you control get +1/+1 and have haste."))
    assert strip(chieftain) == strip(today)
    assert today[1].affected == Affected("each", "creature", ("other", "Goblin", "you control"))
    elves = only(modern("Other Elves you control get +1/+1."))
    assert elves[0].affected.filters == ("other", "Elf", "you control")
    crusade = only(db("Crusade"))
    assert crusade[0].affected == Affected("each", "creature", ("white",)) and crusade[0].power == 1


def test_enters_trigger_it_deals_damage_both_templatings():
    found = same_reading(db("Flametongue Kavu"),
                         modern("When this creature enters, it deals 4 damage to target creature.",
                                name="Flametongue Kavu"))
    assert found[0].template == "enters trigger" and found[0].trigger == "enters"
    assert found[0].effects == (Effect("damage", Affected("target", "creature"), amount=4),)


def test_dies_trigger_festering_goblin():
    found = same_reading(db("Festering Goblin"),
                         modern("When this creature dies, target creature gets -1/-1 until end of turn."))
    assert found[0].effects == (Effect("pt", Affected("target", "creature"), power=-1, toughness=-1,
                                       until_end_of_turn=True),)


def test_combat_trigger():
    found = only(modern("Whenever this creature attacks, it gets +2/+0 until end of turn."))
    assert (found[0].template, found[0].trigger) == ("combat trigger", "attacks")
    assert found[0].effects == (Effect("pt", Affected("self", "permanent"), power=2, until_end_of_turn=True),)


def test_activated_damage_and_self_damage_fireslinger():
    found = same_reading(db("Fireslinger"), modern("{T}: This creature deals 1 damage to any target and 1 damage "
                                                   "to you.", name="Fireslinger"))
    assert found[0].tap and found[0].cost == ""
    assert found[0].effects == (Effect("damage", Affected("target", "any"), amount=1),
                                Effect("damage", Affected("you", "player"), amount=1))


def test_tap_target_creature_activated():
    found = same_reading(db("Master Decoy"), modern("{W}, {T}: Tap target creature."))
    assert found[0].cost == "{W}" and found[0].effects == (Effect("tap", Affected("target", "creature")),)


def test_regenerate_enchanted_creature_activated():
    found = only(modern("Enchant creature\n{G}: Regenerate enchanted creature.", types=("Enchantment",)))
    assert found[1].template == "regenerate"
    assert found[1].effects == (Effect("regenerate", Affected("enchanted", "creature")),)


def test_mana_abilities_three_colours_both_templatings():
    found = only(modern("{T}: Add {W}, {U}, or {B}.", types=("Land",)))
    assert found[0].produces == ("W", "U", "B")
    assert only(db("Llanowar Elves"))[0].produces == ("G",)


def test_enters_tapped_both_templatings():
    assert only(db("Kabira Crossroads"))[0].static == "enters tapped"
    found = only(modern("This land enters tapped.\n{T}: Add {W}.", types=("Land",)))
    assert found[0].static == "enters tapped"


# ---------------------------------------------------------------- not read

@pytest.mark.parametrize("text, types", [
    ("Destroy target creature if its toughness is 2 or less.", ("Instant",)),
    ("Test Card deals X damage to any target.", ("Instant",)),
    ("Choose one —\n• Test Card deals 2 damage to any target.\n• Draw a card.", ("Instant",)),
    ("Kicker {2}\nTarget creature gets +2/+2 until end of turn.", ("Instant",)),
    ("Return target creature card from your graveyard to your hand.", ("Instant",)),  # (to its owner's hand: read)
    ("Untap target creature. It gets +3/+3 until end of turn.", ("Instant",)),  # "it" is the target
    ("Destroy target artifact, enchantment, or creature with flying.", ("Instant",)),
    ("Devoid\nFlying", ("Creature",)),  # a colour everywhere
    ("Prowess", ("Creature",)),  # triggered by the cast event
    ("Infect", ("Creature",)),
    ("{1}, {T}: Add {W}{U}.", ("Land",)),
    ("This creature enters tapped unless you control two or fewer other lands.", ("Creature",)),
    ("Other Forests you control get +1/+1.", ("Enchantment",)),  # Forest is no creature type
])
def test_lines_that_must_not_be_read(text, types):
    assert not read(modern(text, types=types)).modelled


def test_every_template_name_is_in_the_table():
    for name in list(cards.database())[:3000]:
        for template in read(db(name)).templates:
            assert template in TEMPLATES


def test_stats_line_and_count_on_the_shipped_data():
    lines = stats_lines()
    m = re.fullmatch(r"modelled: (\d+) of (\d+) cards \((\d+\.\d)%\)", lines[0])
    assert m, lines[0]
    assert int(m.group(1)) >= 2000 and int(m.group(2)) >= len(cards.database())
    assert all(re.fullmatch(r"  .+\S  +\d+", line) for line in lines[1:])
    counts = [int(line.split()[-1]) for line in lines[1:]]
    assert counts == sorted(counts, reverse=True)
    modelled, total, templates = stats()
    assert templates["hand-written"] == len(cards.pool())
