"""ltlkit.ceiling and ltlkit.empirical_ceiling against the CLI's `ceiling --json` on the same inputs,
and their errors."""
import pytest

import ltlkit
from conftest import cli_json

# Keys that depend on the run (time) or only the CLI prints.
VOLATILE = {"seconds", "language"}


def stable(d):
    return {k: v for k, v in d.items() if k not in VOLATILE}


@pytest.mark.parametrize("regex,alphabet,arch,layers,dist", [
    (".*a", "a,b", "local-2", 2, "training"),
    ("(ab)*", "a,b", "local-1", 3, "uniform"),
    (".*ab.*", "a,b,c", "local-2", 2, "test"),
])
def test_ceiling_matches_cli_json(regex, alphabet, arch, layers, dist):
    dfa = ltlkit.compile_regex(regex, alphabet=alphabet)
    lengths = "41:60" if dist == "test" else "1:20"
    got = ltlkit.ceiling(dfa, arch, layers=layers, distribution=dist, lengths=lengths)
    want = cli_json("ceiling", "--regex", regex, "--alphabet", alphabet, "--arch", arch, "--layers", str(layers),
                    "--distribution", dist, "--lengths", lengths, "--json")
    assert stable(got) == stable(want)
    assert got["exact"] and got["constant_accuracy"] <= got["value"] <= 1


def test_empirical_ceiling_groups_words_by_type():
    # local-1, one layer: the EOS type is the last symbol, so "ab" and "bb" look alike.
    r = ltlkit.empirical_ceiling(["ab", "bb", "ba"], [1, 0, 1], "a,b", "local-1", layers=1)
    assert r["exact"] and r["types"] == 2 and abs(r["value"] - 2 / 3) < 1e-12
    r2 = ltlkit.empirical_ceiling(["ab", "bb", "ba"], [1, 0, 1], "a,b", "local-1", layers=2)
    assert r2["value"] == 1.0


@pytest.mark.parametrize("kwargs", [
    {"arch": "global"}, {"arch": "hybrid-2"}, {"arch": "local-0"}, {"arch": "local-2", "layers": 0},
    {"arch": "local-2", "distribution": "bogus"}, {"arch": "local-2", "lengths": "9:3"},
])
def test_bad_arguments_raise_input_errors(kwargs):
    with pytest.raises((ltlkit.InputError, TypeError)):
        ltlkit.ceiling(ltlkit.compile_regex(".*a", alphabet="a,b"), **kwargs)
