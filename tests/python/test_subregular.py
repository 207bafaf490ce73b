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
