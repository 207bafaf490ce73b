"""Python misuse (docs/ERRORS.md "Hostile input"): out-of-range indices, deep JSON, constructors that
would build formulas whose text does not parse back, alphabets of the wrong type or with commas.
Each raises a Python exception naming what is wrong; none crashes the interpreter."""
import pickle
import subprocess
import sys

import pytest

import ltlkit


def run_isolated(code):
    """Runs `code` in a fresh interpreter, so that a segfault fails this test instead of the suite."""
    # The program goes through standard input: a 200 kB argument exceeds the kernel's limit on one
    # argument (MAX_ARG_STRLEN, 128 kB) and would fail before Python starts.
    return subprocess.run([sys.executable, "-"], input="import ltlkit\n" + code, capture_output=True, text=True,
                          timeout=120)


@pytest.mark.parametrize("state,symbol", [(10**9, 0), (0, 10**9), (-1, 0), (0, -1), (2, 0), (0, 2)])
def test_dfa_next_out_of_range(state, symbol):
    p = run_isolated(f"""
d = ltlkit.compile("Y a", alphabet="a,b")
try:
    d.next({state}, {symbol})
except IndexError as e:
    print("IndexError", e)
""")
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith("IndexError"), p.stdout
    d = ltlkit.compile("Y a", alphabet="a,b")
    assert d.next(0, 1) == d.transitions[0][1]


@pytest.mark.parametrize("where", ["alphabet", "initial", "accepting", "transitions", "row", "target"])
def test_deep_json_in_every_position(where):
    deep = "[" * 100000 + "]" * 100000
    fields = {"alphabet": '["a"]', "initial": "0", "accepting": "[]", "transitions": "[[0]]"}
    if where == "row":
        fields["transitions"] = "[" + deep + "]"
    elif where == "target":
        fields["transitions"] = "[[" + deep + "]]"
    else:
        fields[where] = "[" + deep + "]" if where == "alphabet" else deep
    text = "{" + ", ".join('"%s": %s' % kv for kv in fields.items()) + "}"
    p = run_isolated(f"""
import sys
try:
    ltlkit.Dfa.from_json(sys.stdin.read())
except ltlkit.InputError as e:
    print("InputError", e)
""".replace("sys.stdin.read()", repr(text)))
    assert p.returncode == 0, p.stderr[-500:]
    assert p.stdout.startswith("InputError") and "nested deeper than 128 levels" in p.stdout, p.stdout[:300]
    assert len(p.stdout) < 1000


def test_bounded_yesterday_window_range():
    a = ltlkit.Formula.atom("a")
    for k in (0, -1, 2**31, 2**32 - 1, 2**40):
        with pytest.raises(ltlkit.Error):
            ltlkit.Formula.bounded_yesterday(a, k)
    f = ltlkit.Formula.bounded_yesterday(a, 2**31 - 1)
    assert pickle.loads(pickle.dumps(f)) == f  # its text parses back


@pytest.mark.parametrize("name", ["A B", "A", "b,c", "", "true", "false", "1a", "a-b", "é"])
def test_atom_names_parse_back(name):
    with pytest.raises(ltlkit.Error):
        ltlkit.Formula.atom(name)


def test_atom_round_trip():
    for name in ["a", "a_1", "zz9"]:
        f = ltlkit.Formula.atom(name)
        assert pickle.loads(pickle.dumps(f)) == f


def test_alphabet_symbol_with_comma():
    with pytest.raises(ltlkit.Error, match="contains a comma"):
        ltlkit.compile("P a", alphabet=["a", "b,c"])
    assert ltlkit.compile("P a", alphabet=["a", "b"]).alphabet == ["a", "b"]


@pytest.mark.parametrize("bad", [123, 1.5, object(), [1, 2], ["a", None]])
def test_alphabet_type_error_names_the_argument(bad):
    with pytest.raises(TypeError, match="alphabet"):
        ltlkit.compile("P a", alphabet=bad)


def test_classify_default_budget_is_work():
    # The default bound is counted in work: the same call answers the same on any machine and load.
    a = ltlkit.classify("Y<=5 a", alphabet="a,b,c", max_k=3)
    b = ltlkit.classify("Y<=5 a", alphabet="a,b,c", max_k=3)
    assert a["local_k"] == b["local_k"] and a["hybrid_k"] == b["hybrid_k"]


def test_window_memory_counts_what_the_search_holds():
    # 200 MB held by the caller before classify do not count against a 150 MiB window bound
    # (it used to be the process's resident memory: every window answer became unknown).
    expected = ltlkit.classify("Y<=2 (a & Y<=2 b)", alphabet="a,b,c", max_k=3)
    held = bytearray(200 * 1024 * 1024)
    for i in range(0, len(held), 4096):
        held[i] = 1
    got = ltlkit.classify("Y<=2 (a & Y<=2 b)", alphabet="a,b,c", max_k=3, window_memory=150)
    assert got["local_k"] == expected["local_k"] and got["hybrid_k"] == expected["hybrid_k"]
    assert got["local_k"]["2"] == "yes"  # its own formula (LTL[Y<=2])
    del held
