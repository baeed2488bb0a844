"""The JSON round-trip check walks, of a changed part or object, the values that differ from its version
before when both have the same keys (invariants.generic._differing): as many keys is not enough."""

from invariants import generic
from invariants.generic import json_problem


def test_a_part_with_as_many_but_other_keys_is_walked_in_full():
    before = {"players": {}, "objects": {}, "zones": {}, "log": [], "combat": {"a": 1}}
    assert json_problem(before) is None
    after = {**before, "combat": {"b": (1, 2)}}
    assert generic._differing(after["combat"], before["combat"]) == [after["combat"]]
    assert json_problem(after, before) == "a tuple ((1, 2))"


def test_an_object_with_as_many_but_other_fields_is_walked_in_full():
    before = {"players": {}, "objects": {"c1": {"name": "Bear", "x": 1}}, "zones": {}, "log": []}
    assert json_problem(before) is None
    after = {**before, "objects": {"c1": {"name": "Bear", "y": {2: "z"}}}}
    assert json_problem(after, before) == "non-string key 2"


def test_only_the_values_that_differ_are_walked():
    old = {"a": [1], "b": "x"}
    new = {"a": [1], "b": "y"}
    assert generic._differing(new, old) == ["y"]
