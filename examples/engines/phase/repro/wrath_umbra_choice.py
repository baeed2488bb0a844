"""Wrath of God stops destroying once a player chooses among umbra armor Auras (CR 616.1, 701.7a).

Board, built with normal game actions: Player 1 controls two Savannah Lions; the first
wears two Hyena Umbras (umbra armor). Player 1 casts Wrath of God ("Destroy all
creatures. They can't be regenerated."). Both Lions are destroyed at the same time, except
that umbra armor replaces the enchanted one's destruction: its controller chooses which
Umbra is destroyed instead (CR 616.1, 702.89a). Expected: the enchanted Lions stays with
one Umbra, the other Lions is in the graveyard. phase-python 0.103.0 asks the choice,
applies it, and never destroys the second Lions.
"""

from _play import PLAINS, card, engine, play

LIONS = card("Savannah Lions", "{W}", ["Creature"], subtypes=["Cat"], power="2", toughness="1", colors=["W"])
UMBRA = card("Hyena Umbra", "{W}", ["Enchantment"],
             "Enchant creature\nEnchanted creature gets +1/+1 and has first strike.\nUmbra armor (If enchanted "
             "creature would be destroyed, instead remove all damage from it and destroy this Aura.)",
             subtypes=["Aura"], colors=["W"], keywords=["Enchant", "Umbra armor"])
WRATH = card("Wrath of God", "{2}{W}{W}", ["Sorcery"], "Destroy all creatures. They can't be regenerated.",
             colors=["W"])
deck = (["Plains", "Savannah Lions", "Hyena Umbra", "Plains", "Savannah Lions", "Hyena Umbra", "Plains", "Plains",
         "Wrath of God"] * 7)[:60]
game = engine([PLAINS, LIONS, UMBRA, WRATH]).new_game(deck, ["Plains"] * 60, seed=7, first_player=0)
first = {}


def target(data):  # both Umbras go on the first Savannah Lions
    legal = data["selection"]["current_legal_targets"]
    lions = [t for t in legal if "Object" in t and game.object(t["Object"])["name"] == "Savannah Lions"]
    first.setdefault("id", min(t["Object"] for t in lions))
    return {"Object": first["id"]}


play(game, ["Savannah Lions", "Savannah Lions", "Hyena Umbra", "Hyena Umbra"], target=target)
board = [(o["id"], o["name"], o.get("attached_to")) for o in game.battlefield() if o["name"] != "Plains"]
print("before:", board)
events = play(game, ["Wrath of God"], target=target)
choice = [e for e in events if e["type"] == "ReplacementApplied"]
print("after: ", [(o["id"], o["name"], o.get("attached_to")) for o in game.battlefield() if o["name"] != "Plains"])
lions = [o for o in game.battlefield() if o["name"] == "Savannah Lions"]
print("BUG (CR 701.7a: the unenchanted Savannah Lions must be destroyed)" if len(lions) == 2 else "ok")
print(game.waiting_for()["type"], [e["type"] for e in events][-12:], game.turn, game.phase)
