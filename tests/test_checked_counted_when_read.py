"""``Stats.checked`` is counted when read: a judged step adds its schedule's list of names once
(:meth:`harness.running.run_stats.Stats.count_checked`), and reading or setting ``checked`` adds
every list held first, so the dict is the one counting each name at each step would have made,
in the same order, whatever reads, writes or merges it."""

from __future__ import annotations

import dataclasses
import pickle

from harness.running.run_stats import Stats
from harness.running.workers import merge_stats


def _counted_each(steps: list[list[str]]) -> dict:
    table: dict = {}
    for names in steps:
        for name in names:
            table[name] = table.get(name, 0) + 1
    return table


def test_lists_held_are_counted_in_the_order_each_step_would_have_counted_them():
    a, b = ["x", "y"], ["z", "x", "w"]
    stats = Stats()
    for names in (a, b, a, a, b):
        stats.count_checked(names)
    assert list(stats.checked.items()) == list(_counted_each([a, b, a, a, b]).items())
    assert stats.checked == {"x": 5, "y": 3, "z": 2, "w": 2}  # read again: nothing added twice


def test_a_name_counted_directly_comes_after_the_lists_held_before_it():
    stats = Stats()
    stats.count_checked(["a", "b"])
    checked = stats.checked  # as Session._count and the scenario checks count
    checked["crash"] = checked.get("crash", 0) + 1
    stats.count_checked(["a", "b"])
    assert list(stats.checked.items()) == [("a", 2), ("b", 2), ("crash", 1)]


def test_setting_checked_drops_the_lists_held():
    stats = Stats()
    stats.count_checked(["a"])
    stats.checked = {"b": 1}
    assert stats.checked == {"b": 1}
    assert Stats(checked={"c": 2}).checked == {"c": 2}


def test_copies_pickles_and_merges_see_the_lists_held():
    stats = Stats()
    stats.count_checked(["a", "b"])
    assert pickle.loads(pickle.dumps(stats)).checked == {"a": 1, "b": 1}
    assert dataclasses.replace(stats).checked == {"a": 1, "b": 1}
    other = Stats()
    other.count_checked(["b"])
    assert merge_stats([stats, other]).checked == {"a": 1, "b": 2}
    assert stats == pickle.loads(pickle.dumps(stats))
