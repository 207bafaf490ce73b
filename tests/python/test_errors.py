"""Errors: the module raises the ltlkit.Error subclass of the CLI's exit code, with the CLI's message."""
import re

import pytest

import ltlkit
from conftest import python_words, run_cli

CASES = [
    # (Python call, the same input on the command line)
    (lambda: ltlkit.parse_formula("P(a &"), ["compile", "P(a &"]),
    (lambda: ltlkit.compile("a S"), ["compile", "a S"]),
    (lambda: ltlkit.compile("P(a & Y c)", alphabet="a,b"), ["compile", "P(a & Y c)", "--alphabet", "a,b"]),
    (lambda: ltlkit.compile_regex("a(b"), ["compile", "--regex", "a(b"]),
    (lambda: ltlkit.compile("P a", max_states=1, alphabet="a,b"), ["compile", "P a", "--max-states", "1", "--alphabet", "a,b"]),
    (lambda: ltlkit.read_dfa_file("/nonexistent/dfa.json"), ["compile", "--dfa", "/nonexistent/dfa.json"]),
    (lambda: ltlkit.classify("P(a & Y b)", max_elements=2), ["classify", "P(a & Y b)", "--max-elements", "2", "--json"]),
    (lambda: ltlkit.generate_dataset("Y a", "/proc/ltlkit-no-such-dir", train="1:3", test="4:5", per_length=4, alphabet="a"),
     ["generate", "Y a", "--alphabet", "a", "--out", "/proc/ltlkit-no-such-dir", "--train-lengths", "1:3", "--test-lengths", "4:5",
      "--per-length", "4", "--no-adversarial", "-q"]),
    # The alphabet rule (docs/SYNTAX.md §5): an inferred alphabet of one symbol, or none, is refused.
    (lambda: ltlkit.classify("Y a"), ["classify", "Y a"]),
    (lambda: ltlkit.compile("true"), ["compile", "true"]),
    (lambda: ltlkit.distinguishing_word("Y a", "P a"), ["equiv", "Y a", "P a"]),
    (lambda: ltlkit.Sampler("P a", 5), ["generate", "P a", "--out", "unused"]),
]
CLASSES = {2: ltlkit.InputError, 3: ltlkit.LimitError, 4: ltlkit.IOError}
BUILTINS = {2: ValueError, 3: RuntimeError, 4: OSError}


@pytest.mark.parametrize("call,args", CASES)
def test_error_matches_cli(call, args):
    p = run_cli(*args, check=False)
    try:
        call()
    except ltlkit.Error as e:
        if p.returncode == 0:
            pytest.fail(f"the module raised {e!r} where the CLI succeeded")
        assert e.exit_code == p.returncode
        assert type(e) is CLASSES[p.returncode]
        assert isinstance(e, BUILTINS[p.returncode])
        prefix = "ltlkit: error: "
        assert p.stderr.startswith(prefix)
        # The CLI's message, naming the keyword arguments where the CLI names its options.
        assert str(e) == python_words(p.stderr.splitlines()[0][len(prefix):])
        assert e.rendered.rstrip("\n") == python_words(p.stderr[len(prefix):].rstrip("\n"))
        assert not re.search(r"--[a-z]", e.rendered), e.rendered
        return
    # The classifier may answer null classes instead of failing; then the CLI must succeed too.
    assert p.returncode == 0, p.stderr


def test_errors_name_keyword_arguments(tmp_path):
    with pytest.raises(ltlkit.LimitError, match=r"raise max_states= to build it"):
        ltlkit.compile("P(a & Y<=3 b)", max_states=4)
    with pytest.raises(ltlkit.InputError, match=r'alphabet="a,b"'):
        ltlkit.classify("Y a")
    args = dict(train="1:2", test="3:3", per_length=2, alphabet="a,b")
    ltlkit.generate_dataset("Y a", str(tmp_path / "d"), **args)
    (tmp_path / "d" / "stray.txt").write_text("x")
    ltlkit.generate_dataset("Y a", str(tmp_path / "e"), **args)
    with pytest.raises(ltlkit.InputError, match=r"force=True") as info:
        ltlkit.generate_dataset("Y b", str(tmp_path / "e"), **args)
    assert "--" not in str(info.value)


def test_error_attributes():
    with pytest.raises(ltlkit.InputError) as info:
        ltlkit.parse_formula("P(a &\n b &")
    e = info.value
    assert (e.line, e.column) == (2, 5)
    assert "expected a formula" in e.message
    assert "^" in e.rendered


def test_bad_words_and_dfas_are_input_errors():
    d = ltlkit.compile("Y a", alphabet="a,b")
    with pytest.raises(ltlkit.InputError, match="'c'"):
        d.accepts("abc")
    with pytest.raises(ltlkit.InputError, match="index 5"):
        d.accepts([0, 5])
    with pytest.raises(ValueError):
        ltlkit.Dfa(["a"], 0, [0], [[1]])  # transition to a missing state
    with pytest.raises(ltlkit.InputError):
        ltlkit.Dfa.from_json('{"alphabet": ["a"], "initial": 0, "accepting": [], "transitions": [[]]}')
    with pytest.raises(ltlkit.InputError):
        ltlkit.check_certificate("{not json")
    with pytest.raises(TypeError):
        ltlkit.classify(42)


def test_star_import_keeps_the_builtins():
    namespace = {}
    exec("from ltlkit import *", namespace)
    assert "compile" not in namespace and "IOError" not in namespace
    assert "classify" in namespace and "Sampler" in namespace
    assert issubclass(ltlkit.IOError, OSError) and ltlkit.IOError is not OSError
