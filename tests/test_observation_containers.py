"""``observation_copies._containers``: every dict and list inside a value, which the session compares
between two observations of a new game to find an engine sharing its own state (the game's
observations are then copied). Expected sets are built by hand."""

from __future__ import annotations

from collections import OrderedDict

from harness.running.observation_copies import _containers


def _ids(*items) -> set[int]:
    return {id(i) for i in items}


def test_every_dict_and_list_inside_is_found_once():
    counters, types, log_entry = {"+1/+1": 2}, ["Creature"], {"kind": "trigger", "targets": ["c1"]}
    obj = {"name": "Bears", "counters": counters, "types": types, "power": 2, "attached_to": None}
    log = [log_entry, [[], {}]]
    value = {"players": {"P1": {"life": 20}}, "objects": {"c0": obj}, "log": log, "zones": {}}
    found = _containers(value)
    want = _ids(value, value["players"], value["players"]["P1"], value["objects"], obj, counters, types, log,
                log_entry, log_entry["targets"], log[1], log[1][0], log[1][1], value["zones"])
    assert set(found) == want
    assert all(found[i] is item for i, item in ((id(x), x) for x in (value, obj, counters, log, log_entry)))


def test_shared_and_cyclic_parts_are_found_once_and_the_walk_ends():
    shared = {"x": 1}
    cyclic: list = [shared, shared]
    cyclic.append(cyclic)
    value = {"a": shared, "b": cyclic}
    assert set(_containers(value)) == _ids(value, shared, cyclic)


def test_only_exact_dicts_and_lists_are_looked_into():
    inner_of_tuple, inner_of_subclass = {"in": "tuple"}, ["in", "ordered dict"]
    ordered = OrderedDict(k=inner_of_subclass)
    value = {"t": (inner_of_tuple,), "o": ordered, "s": "text", "n": 3}
    assert set(_containers(value)) == _ids(value)
    assert _containers("text") == {} and _containers((1, [2])) == {}
    top = [1, "two", None]
    assert set(_containers(top)) == _ids(top)


def test_an_observation_sharing_an_object_with_the_last_one_is_found():
    from harness.running.observation_copies import shares_parts

    kept = {"name": "Bears", "zone": "battlefield"}
    before = {"players": {"P1": {}}, "objects": {"c0": kept, "c1": {"name": "Rats"}}, "log": []}
    fresh = {"players": {"P1": {}}, "objects": {"c0": dict(kept), "c1": {"name": "Rats"}}, "log": []}
    assert not shares_parts(fresh, before)
    assert shares_parts({**fresh, "objects": {"c1": {"name": "Rats"}, "c0": kept}}, before)  # its own object again
    assert shares_parts({**fresh, "players": before["players"]}, before)  # a top-level part again
    assert shares_parts(before, before)


def test_the_same_none_or_string_in_place_of_an_object_is_no_sharing():
    """Identity of values that are not dicts (None for an id missing from the last observation,
    one string object in both) is no state of the engine's."""
    from harness.running.observation_copies import shares_parts

    text = "not an object"
    before = {"objects": {"c0": {"name": "Bears"}, "s": text}, "log": []}
    after = {"objects": {"n1": None, "s": text, "c0": {"name": "Bears"}}, "log": []}
    assert not shares_parts(after, before)


class _KeepsItsBoard:
    """An engine whose new_game keeps the board it was handed and changes it in place."""

    def __init__(self):
        self.handed: list = []

    def new_game(self, board):
        self.handed.append(board)
        board["objects"][0]["counters"]["+1/+1"] = 99
        board["objects"].append({"id": "x", "card": "Grizzly Bears"})
        raise RuntimeError("no game")  # the session breaks at the start; the board is what is looked at


def test_each_new_game_gets_a_copy_of_the_board_sharing_no_dict_or_list():
    """The board (JSON data) reaches new_game, of the session and of a scenario's replay, as an
    equal copy: an engine changing it in place changes nothing the session keeps."""
    from harness.running.execution import Session, scenario_run

    board = {"players": [{"id": "P1", "life": 20}, {"id": "P2", "life": 20}],
             "objects": [{"id": "c0", "card": "Grizzly Bears", "owner": "P1", "counters": {"+1/+1": 1}}]}
    kept = {"players": [{"id": "P1", "life": 20}, {"id": "P2", "life": 20}],
            "objects": [{"id": "c0", "card": "Grizzly Bears", "owner": "P1", "counters": {"+1/+1": 1}}]}
    engine = _KeepsItsBoard()
    session = Session(engine, board, [])
    assert session.broken and session.board is board and board == kept
    scenario_run(engine, session).replay()
    assert board == kept and len(engine.handed) == 2
    for handed in engine.handed:
        assert handed is not board and not set(_containers(handed)) & set(_containers(board))


def test_a_dict_inside_an_entry_shared_with_the_step_before_is_found_step_after_step():
    """The dicts and lists inside the last step's ``after`` are kept for the next step's ``before``:
    sharing is found at the step it starts, and an unrelated pair is worked out afresh."""
    from harness.running.observation_copies import shares_parts

    counters = {"+1/+1": 1}

    def observation(**fields):
        return {"players": {}, "objects": {"b": {"name": "Grizzly Bears", "types": ["Creature"], **fields}}}

    first, second = observation(), observation(counters=counters)
    third = observation(counters=counters)
    assert shares_parts(second, first) is False
    assert shares_parts(third, second) is True  # the engine's own counters dict, handed out twice
    assert shares_parts(observation(counters={"+1/+1": 1}), third) is False
    other = observation(types=["Land"])
    assert shares_parts({"players": {}, "objects": {"f": {"types": other["objects"]["b"]["types"]}}}, other) is True


def test_a_plain_copy_copies_every_dict_and_list_and_shares_the_rest():
    """``_plain_copy``: equal to its value, no dict or list of it shared at any depth (nested in
    dicts and in lists), anything else (numbers, strings, a tuple, a dict subclass) the very object."""
    from harness.running.observation_copies import _plain_copy

    ordered, pair = OrderedDict(k=["inner"]), ({"in": "tuple"},)
    value = {"players": {"P1": {"life": 20, "counters": {"poison": 1}}}, "log": [{"targets": ["c1", ["x"]]}, []],
             "objects": {"c0": {"types": ["Creature"], "power": 2, "name": "Bears", "attached_to": None}},
             "o": ordered, "t": pair}
    copy = _plain_copy(value)
    assert copy == value
    assert not set(_containers(copy)) & set(_containers(value))
    assert copy["o"] is ordered and copy["t"] is pair and copy["objects"]["c0"]["name"] is value["objects"]["c0"]["name"]
    top = [1, {"a": [2]}, "three"]
    assert _plain_copy(top) == top and not set(_containers(_plain_copy(top))) & set(_containers(top))
