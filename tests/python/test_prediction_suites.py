"""Suites of the prediction classes from Python (docs/SUBREGULAR.md §5b, docs/PYTHON.md "Suites"):
the strata of `ltlkit suite --list-strata --json`, the same languages and record as `ltlkit suite
--json` for the same arguments, each Dfa classified again by ltlkit.classify, and errors as the CLI's."""
import json
import os

import pytest

import ltlkit
from conftest import cli_json


def test_strata_are_the_clis():
    assert ltlkit.prediction_strata() == cli_json("suite", "--list-strata", "--json")


@pytest.mark.parametrize("stratum", ["rt_not_definite", "lrt_only", "definite_not_local2"])
def test_a_stratum_suite_is_the_clis(stratum, tmp_path):
    got = ltlkit.suite(stratum=stratum, count=3, seed=4, min_states=3, max_states=6, name="s")
    out = str(tmp_path / "s.suite")
    want = cli_json("suite", "--stratum", stratum, "--count", "3", "--seed", "4", "--min-states", "3",
                    "--max-states", "6", "--out", out, "--json")
    for key in want:
        if key not in ("out", "languages"):
            assert got[key] == want[key], key
    assert len(got["languages"]) == len(want["languages"]) == 3
    for g, w in zip(got["languages"], want["languages"]):
        assert {k: g[k] for k in ("name", "states", "generator", "answers")} == {k: w[k] for k in ("name", "states", "generator", "answers")}
        with open(os.path.join(str(tmp_path), w["file"]), encoding="utf-8") as f:
            assert json.loads(g["dfa"].to_json()) == json.loads(f.read())
        c = ltlkit.classify(g["dfa"], max_k=max(got["max_k"], 1))
        for con in got["constraints"]:
            cls = con["class"]
            if ":" in cls:
                fam, k = cls.split(":")
                assert c[fam][k] == ("yes" if con["member"] else "no")
            else:
                assert c["classes"][cls] == con["member"], (cls, g)


def test_class_and_not_lists_and_the_subregular_draw():
    s = ltlkit.suite(["r_trivial"], ["definite", "PT"], alphabet="a,b,c", count=2, seed=2)
    assert s["constraints"] == [{"class": "r_trivial", "member": True}, {"class": "definite", "member": False},
                                {"class": "PT", "member": False}]
    assert all(l["answers"]["PT"] == "no" for l in s["languages"])
    assert ltlkit.suite(["none"], count=1)["constraints"] == [{"class": "locally_r_trivial", "member": False}]
    sub = ltlkit.suite(["SL"], k=2, count=2, seed=3)
    assert sub["class"] == "SL" and all(l["params"]["k"] == 2 for l in sub["languages"])
    assert ltlkit.suite(stratum="none", count=2, seed=9)["languages"][1]["dfa"] == \
        ltlkit.suite(stratum="none", count=2, seed=9)["languages"][1]["dfa"]


@pytest.mark.parametrize("kwargs, words", [
    ({"classes": ["definite"], "not_classes": ["locally_r_trivial"]}, "contradictory constraints"),
    ({"classes": ["definit"]}, "unknown class 'definit'"),
    ({"classes": ["local_k:1"]}, "must be an integer 2..64"),
    ({"stratum": "nope"}, "unknown stratum 'nope'"),
    ({"classes": ["definite"], "k": 2}, "one subregular class only"),
])
def test_errors(kwargs, words):
    with pytest.raises(ltlkit.InputError, match=words):
        ltlkit.suite(**kwargs)


def test_the_draw_limit_is_a_limit_error():
    with pytest.raises(ltlkit.LimitError, match="max_draws|--max-draws"):
        ltlkit.suite(stratum="lrt_only_not_hybrid2", count=50, max_draws=3)


def test_a_formula_suite_is_the_clis(tmp_path):
    got = ltlkit.suite(not_classes=["r_trivial", "definite"], fragment="P,Y", count=3, seed=3, min_states=3,
                       max_states=8, name="f")
    want = cli_json("suite", "--from", "formulas", "--fragment", "P,Y", "--not", "r_trivial", "--not", "definite",
                    "--count", "3", "--seed", "3", "--min-states", "3", "--max-states", "8",
                    "--out", str(tmp_path / "f.suite"), "--json")
    assert got["from"] == want["from"] == "formulas" and got["fragment"] == "LTL[P,Y]"
    assert [l["formula"] for l in got["languages"]] == [l["formula"] for l in want["languages"]]
    for l in got["languages"]:
        assert ltlkit.equiv(l["formula"], l["dfa"], alphabet="a,b")
        assert ltlkit.classify(l["dfa"], max_k=1)["classes"]["locally_r_trivial"]
