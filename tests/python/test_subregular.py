"""The subregular classes from Python (docs/SUBREGULAR.md): the same names, members and parameters as
`classify --json`'s "subregular" object, and certificates that check_certificate re-verifies."""
import pytest

import ltlkit
from conftest import cli_json

NAMES = ["finite", "cofinite", "SL", "SP", "LT", "PT", "LTT", "TSL", "DA", "aperiodic_commutative"]


@pytest.mark.parametrize("regex", ["(b|ab)*(a|ε)", "b*(a|ε)b*", "(ab)*", ".*a.*b.*", "a|b|ab"])
def test_subregular_matches_cli(regex):
    got = ltlkit.classify_subregular(ltlkit.compile_regex(regex, alphabet="a,b"))
    want = cli_json("classify", "--regex", regex, "--alphabet", "a,b", "--max-k", "1", "--json")["subregular"]
    assert list(got) == NAMES
    for name in NAMES:
        assert {k: got[name][k] for k in ("member", "params", "fact", "prediction")} == want[name]
        if got[name]["member"] is not None:
            holds, why = ltlkit.check_certificate(got[name]["certificate"])
            assert holds, (name, why)


def test_classify_has_the_subregular_object():
    c = ltlkit.classify("P(b & Y a)", alphabet="a,b")
    assert c["subregular"]["LT"]["params"] == {"k": 2}


def test_the_subregular_limits_are_keyword_arguments():
    # classify's --sl-max-states etc. (docs/SUBREGULAR.md §4): at 1 live state the pair graph is not
    # built, and the answer says which limit to raise; the same through classify.
    lang = ltlkit.compile("Y<=3 a", alphabet="a,b")
    low = ltlkit.classify_subregular(lang, sl_max_states=1)
    assert low["SL"]["member"] is None and "--sl-max-states" in low["SL"]["fact"]
    assert ltlkit.classify(lang, max_k=1, sl_max_states=1)["subregular"]["SL"]["member"] is None
    want = cli_json("classify", "Y<=3 a", "--alphabet", "a,b", "--max-k", "1", "--json", "--subregular-max-k", "2",
                    "--type-max-states", "50")["subregular"]
    got = ltlkit.classify_subregular(lang, subregular_max_k=2, type_max_states=50)
    for name in NAMES:
        assert {k: got[name][k] for k in ("member", "params", "fact", "prediction")} == want[name]
        if got[name]["member"] is not None:
            assert ltlkit.check_certificate(got[name]["certificate"])[0], name
    # SL-4 bounds LT (SL-k ⊆ LT-k): the least k is reported within it.
    lt = got["LT"]["params"]
    assert lt.get("k", 99) <= 4 or lt.get("k_at_most", 99) <= 4, got["LT"]
    with pytest.raises(ltlkit.Error):
        ltlkit.classify_subregular(lang, sl_max_states=0)
