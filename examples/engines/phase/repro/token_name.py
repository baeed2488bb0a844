"""phase names a token "Goblin", not "Goblin Token" (CR 111.4).

Dragon Fodder: "Create two 1/1 red Goblin creature tokens." The effect doesn't name the
tokens, so CR 111.4 names each "Goblin Token". phase-python 0.103.0 names them "Goblin".
Normal game: Player 1 plays two Mountains and casts Dragon Fodder.
"""

from _play import MOUNTAIN, card, engine, play

FODDER = card("Dragon Fodder", "{1}{R}", ["Sorcery"], "Create two 1/1 red Goblin creature tokens.", colors=["R"])
game = engine([MOUNTAIN, FODDER]).new_game(["Mountain"] * 20 + ["Dragon Fodder"] * 20,
                                           ["Mountain"] * 40, seed=3, first_player=0)
play(game, ["Dragon Fodder"])
tokens = [o for o in game.battlefield() if o.get("is_token")]
names = sorted(o["name"] for o in tokens)
print("tokens:", names)
assert len(tokens) == 2, tokens
print("BUG (CR 111.4 expects 'Goblin Token')" if names != ["Goblin Token"] * 2 else "ok")
