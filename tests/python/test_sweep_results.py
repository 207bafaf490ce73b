"""Sweep results from Python (docs/PYTHON.md "Sweep results", docs/PROTOCOL.md "Sweeps"): on a tiny
sweep folder written by `ltlkit sweep`, ltlkit.sweep_report is the object `ltlkit sweep --report DIR
--json` prints, field by field, and the sweep.json both write; ltlkit.sweep_languages is
languages.json with each language's Dfa, the DFA of its sweep-dfa file; neither loads LibTorch; a
folder that holds no sweep raises the CLI's one-line error naming the folder."""
import json
import os
import shutil
import subprocess
import sys

import pytest

import ltlkit
from conftest import CLI, cli_json, run_cli, same_outcome

NEURAL = os.path.join(os.path.dirname(os.path.abspath(CLI)), "ltlkit-neural")
needs_sweep = pytest.mark.skipif(not os.path.exists(NEURAL), reason="ltlkit was built without LibTorch (no ltlkit-neural)")


@pytest.fixture(scope="module")
def sweep_dir(tmp_path_factory):
    """2 strata x 1 language, profile tiny, 2 levels: the sweep of tests/cli/sweep.sh (seconds)."""
    out = str(tmp_path_factory.mktemp("sweep") / "sw")
    run_cli("sweep", "--strata", "rt_definite,none", "--per-stratum", "1", "--profile", "tiny", "--levels", "2",
            "--threads", "1", "--device", "cpu", "--quiet", "--out", out)
    return out


@needs_sweep
def test_report_is_the_clis_field_by_field(sweep_dir):
    got = ltlkit.sweep_report(sweep_dir)
    want = cli_json("sweep", "--report", sweep_dir, "--json")
    assert list(got) == list(want)
    for key in want:
        if isinstance(want[key], list):
            assert len(got[key]) == len(want[key]), key
            for i, (g, w) in enumerate(zip(got[key], want[key])):
                assert g == w, f"{key}[{i}]"
        else:
            assert got[key] == want[key], key
    with open(os.path.join(sweep_dir, "sweep.json"), encoding="utf-8") as f:
        assert json.load(f) == got
    # The report counts the languages that sweep_languages reads.
    langs = ltlkit.sweep_languages(sweep_dir)
    assert sorted(l["name"] for l in langs) == sorted({c["language"] for c in got["cells"]})


@needs_sweep
def test_languages_are_languages_json_with_their_dfas(sweep_dir):
    got = ltlkit.sweep_languages(sweep_dir)
    with open(os.path.join(sweep_dir, "languages.json"), encoding="utf-8") as f:
        want = json.load(f)
    assert [l["stratum"] for l in got] == ["rt_definite", "none"]
    assert len(got) == len(want)
    for g, w in zip(got, want):
        dfa = g.pop("dfa")
        assert list(g) == list(w) and g == w
        assert isinstance(dfa, ltlkit.Dfa)
        assert dfa == ltlkit.read_dfa_file(os.path.join(sweep_dir, w["file"]))
        assert dfa.num_states == w["states"] and list(dfa.alphabet) == w["alphabet"]
        # Its classification gives the predictions the sweep recorded.
        c = ltlkit.classify(dfa, max_k=2)
        assert {a: c["predictions"][a] for a in w["predictions"]} == w["predictions"], w["name"]


@needs_sweep
def test_reading_a_sweep_loads_no_libtorch(sweep_dir):
    if not os.path.exists("/proc/self/maps"):
        pytest.skip("no /proc/self/maps")
    code = ("import sys, ltlkit; ltlkit.sweep_report(sys.argv[1]); ltlkit.sweep_languages(sys.argv[1]); "
            "maps = open('/proc/self/maps').read(); print('libtorch' in maps, 'torch' in sys.modules)")
    p = subprocess.run([sys.executable, "-c", code, sweep_dir], capture_output=True, text=True, check=True)
    assert p.stdout.split() == ["False", "False"]


def test_a_folder_without_a_sweep_is_the_clis_error(tmp_path):
    empty = str(tmp_path / "not-a-sweep")
    os.mkdir(empty)
    got, p = same_outcome(lambda: ltlkit.sweep_report(empty), "sweep", "--report", empty, "--json")
    assert got is None and p.returncode == 2
    for call in (ltlkit.sweep_report, ltlkit.sweep_languages):
        with pytest.raises(ltlkit.InputError) as e:
            call(empty)
        assert str(e.value).startswith(empty + " holds no sweep (") and "\n" not in str(e.value)
        assert e.value.exit_code == 2


@needs_sweep
def test_a_damaged_languages_json_names_its_file(sweep_dir, tmp_path):
    copy = str(tmp_path / "damaged")
    shutil.copytree(sweep_dir, copy)
    with open(os.path.join(copy, "languages.json"), "w", encoding="utf-8") as f:
        f.write('[{"name": "x"}]\n')
    for call in (ltlkit.sweep_report, ltlkit.sweep_languages):
        with pytest.raises(ltlkit.InputError) as e:
            call(copy)
        assert os.path.join(copy, "languages.json") in str(e.value) and "\n" not in str(e.value)
