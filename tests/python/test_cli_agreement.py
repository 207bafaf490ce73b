"""The module and the CLI on the same inputs: classify, compile, accepts, equiv, check-certificate,
generate (the same dataset bytes, and the arrays equal to the files)."""
import itertools
import json
import os

import numpy as np
import pytest

import ltlkit
from conftest import cli_json, run_cli, same_outcome

FORMULAS = ["P(b & Y a)", "Y a", "a S b", "H(a -> Y b)", "P(a & Y<=2 b)", "!P(a & Y a) & Y b", "true"]
REGEXES = ["(ab)*", "(a|b)*abb", "!(.*aa.*)"]
# The key only the module has: its DFA.
EXTRA_KEYS = {"dfa"}


def common(d):
    return {k: v for k, v in d.items() if k not in EXTRA_KEYS}


@pytest.mark.parametrize("formula", FORMULAS)
def test_classify_matches_cli_json(formula):
    # The alphabet rule (docs/SYNTAX.md §5): inferred when not given, refused alike by both when it
    # is a single symbol ('Y a') or none ('true').
    got, p = same_outcome(lambda: ltlkit.classify(formula), "classify", formula, "--json")
    if got is not None:
        assert common(got) == json.loads(p.stdout)
        assert got["alphabet_inferred"] is True
        assert got["dfa"].num_states == got["states"]
    got, p = same_outcome(lambda: ltlkit.classify(formula, alphabet="a,b"), "classify", formula, "--json",
                          "--alphabet", "a,b")
    assert common(got) == json.loads(p.stdout)
    assert got["alphabet_inferred"] is False


@pytest.mark.parametrize("regex", REGEXES)
def test_classify_of_a_dfa_matches_cli_on_the_regex(regex):
    dfa = ltlkit.compile_regex(regex, alphabet="a,b")
    got = ltlkit.classify(dfa)
    want = cli_json("classify", "--regex", regex, "--json", "--max-k", "3", "--alphabet", "a,b")
    got3 = ltlkit.classify(dfa, max_k=3)
    assert common(got3) == want
    assert got["classes"] == want["classes"]
    assert got["alphabet_inferred"] is False  # a DFA carries its alphabet


@pytest.mark.parametrize("formula", FORMULAS)
def test_compile_matches_cli_dfa_json(formula):
    same_outcome(lambda: ltlkit.compile(formula), "compile", formula, "--format", "json")
    same_outcome(lambda: ltlkit.compile(formula, minimize=False), "compile", formula, "--no-minimize")
    d = ltlkit.compile(formula, alphabet="a,b")
    want = cli_json("compile", formula, "--format", "json", "--alphabet", "a,b")
    assert d.to_dict() == want
    assert json.loads(d.to_json()) == want
    assert ltlkit.Dfa.from_json(json.dumps(want)) == d
    assert d.to_dot() == run_cli("compile", formula, "--format", "dot", "--alphabet", "a,b").stdout


@pytest.mark.parametrize("regex", REGEXES)
def test_compile_regex_matches_cli(regex):
    d = ltlkit.compile_regex(regex, alphabet="a,b")
    assert d.to_dict() == cli_json("compile", "--regex", regex, "--alphabet", "a,b", "--format", "json")
    assert ltlkit.is_minimal(d)


@pytest.mark.parametrize("regex", ["a*", "(ab)*"])
def test_compile_regex_infers_the_alphabet_as_the_cli(regex):
    got, p = same_outcome(lambda: ltlkit.compile_regex(regex), "compile", "--regex", regex, "--format", "json")
    if got is not None:
        assert got.to_dict() == json.loads(p.stdout)


def test_no_minimize_matches_cli():
    d = ltlkit.compile("P(a & Y<=2 b)", minimize=False)
    assert d.alphabet == ["a", "b"]
    assert d.to_dict() == cli_json("compile", "P(a & Y<=2 b)", "--format", "json", "--no-minimize")
    assert ltlkit.minimize(d) == ltlkit.compile("P(a & Y<=2 b)")


def all_words(alphabet, max_len):
    for n in range(max_len + 1):
        yield from ("".join(w) for w in itertools.product(alphabet, repeat=n))


@pytest.mark.parametrize("formula", FORMULAS)
def test_accepts_matches_cli_and_the_semantics(formula, tmp_path):
    words = list(all_words("ab", 5))
    path = tmp_path / "words.txt"
    path.write_text("\n".join(words) + "\n")
    want = cli_json("accepts", formula, "--alphabet", "a,b", "--words", str(path), "--json")
    cli_answers = [r["accepted"] for r in want["results"]]
    assert [r["word"] for r in want["results"]] == words
    f = ltlkit.parse_formula(formula)
    d = ltlkit.compile(f, alphabet=["a", "b"])
    assert [d.accepts(w) for w in words] == cli_answers
    # The direct semantics (no automaton) and the other word forms agree too.
    assert [ltlkit.holds_at_eos(f, list(w)) for w in words] == cli_answers
    assert [d.accepts([d.alphabet.index(c) for c in w]) for w in words] == cli_answers
    assert [ltlkit.accepts(formula, list(w), alphabet="a,b") for w in words[:20]] == cli_answers[:20]


@pytest.mark.parametrize("a,b", [("P a", "!H !a"), ("Y a", "a"), ("a S b", "P b"), ("Y<=2 a", "Y a | Y Y a"),
                                 ("Y a", "P a"), ("Y a", "P b"), ("b S c", "P a"), ("true", "false")])
def test_equiv_matches_cli(a, b):
    p = run_cli("equiv", a, b, "--alphabet", "a,b,c", "--json", check=False)
    want = json.loads(p.stdout)
    assert ltlkit.equiv(a, b, alphabet="a,b,c") == want["equivalent"] == (p.returncode == 0)
    w = ltlkit.distinguishing_word(a, b, alphabet="a,b,c")
    assert w == want.get("word")
    if w is not None:
        assert ltlkit.accepts(a, w, alphabet="a,b,c") != ltlkit.accepts(b, w, alphabet="a,b,c")
    # Without an alphabet: both over the union of their symbols, refused alike when that is a
    # single symbol ('Y a' vs 'P a') or none ('true' vs 'false').
    w, p = same_outcome(lambda: ltlkit.distinguishing_word(a, b), "equiv", a, b, "--json", ok=(0, 1))
    if w is not None or p.returncode == 0:
        want = json.loads(p.stdout)
        assert w == want.get("word")
        assert want["alphabet_inferred"] is True
        assert ltlkit.equiv(a, b) == want["equivalent"]


def test_check_certificate_matches_cli(tmp_path):
    c = ltlkit.classify("P(b & Y a)")
    assert c["certificates"], "no certificates"
    for cid, cert in c["certificates"].items():
        if cert.get("member") is None:
            continue
        holds, why = ltlkit.check_certificate(cert)
        path = tmp_path / (cid.replace(":", "-") + ".json")
        path.write_text(json.dumps(cert))
        p = run_cli("check-certificate", str(path), check=False)
        assert holds and p.returncode == 0, (cid, why, p.stdout, p.stderr)
        assert ltlkit.check_certificate(json.dumps(cert))[0]
    # A tampered certificate: "not definite" with the DFA of a definite language (Y a) swapped in.
    # Both routes reject it.
    cert = json.loads(json.dumps(c["certificates"]["definite"]))
    assert cert["member"] is False
    cert["dfa"] = ltlkit.compile("Y a", alphabet="a,b").to_dict()
    holds, _ = ltlkit.check_certificate(cert)
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(cert))
    assert not holds
    assert run_cli("check-certificate", str(path), check=False).returncode != 0


def read_tsv(path, alphabet):
    words, labels = [], []
    with open(path) as f:
        assert f.readline() in ("word\tlabel\n", "word\tlabel\tpair\n")  # the header line
        for line in f:
            fields = line.rstrip("\n").split("\t")
            words.append(fields[0])
            labels.append(int(fields[1]))
    return words, labels


def test_generate_dataset_same_bytes_as_cli_and_arrays_equal_files(tmp_path):
    formula = "P(b & Y a)"
    args = dict(train="1:6", test="7:9", per_length=10, boundary_per_length=3, seed=5)
    ds = ltlkit.generate_dataset(formula, str(tmp_path / "py"), **args)
    run_cli("generate", formula, "--out", str(tmp_path / "cli"), "--train-lengths", "1:6", "--test-lengths", "7:9",
            "--per-length", "10", "--boundary-per-length", "3", "--seed", "5", "--no-adversarial", "-q")
    py_files = sorted(os.listdir(tmp_path / "py"))
    assert py_files == sorted(os.listdir(tmp_path / "cli"))
    for name in py_files:
        assert (tmp_path / "py" / name).read_bytes() == (tmp_path / "cli" / name).read_bytes(), name
    d = ltlkit.compile(formula)
    for split in ["train", "validation", "test", "boundary"]:
        s = ds[split]
        words, labels = read_tsv(tmp_path / "cli" / f"{split}.tsv", ds.alphabet)
        assert len(s) == len(words) > 0
        assert s.labels.tolist() == labels
        assert s.lengths.tolist() == [len(w) for w in words]
        for row, n, w in zip(s.words, s.lengths, words):
            assert "".join(ds.alphabet[i] for i in row[:n]) == w
            assert (row[n:] == ds.pad).all()
        assert [d.accepts(row[:n].tolist()) for row, n in zip(s.words, s.lengths)] == [bool(x) for x in labels]
    # Balanced wherever both labels have enough words (length 6: 5 accepted, 5 rejected).
    train = ds["train"]
    assert sorted(train.labels[train.lengths == 6].tolist()) == [0] * 5 + [1] * 5
    assert ds.meta["language"]["text"] == formula
    again = ltlkit.read_dataset(str(tmp_path / "cli"))
    assert np.array_equal(again["test"].words, ds["test"].words)


def test_sampler_counts_are_exact_and_samples_have_their_label():
    d = ltlkit.compile("a S b", alphabet="a,b,c")
    s = ltlkit.Sampler(d, 8)
    for n in range(7):
        words = ["".join(w) for w in itertools.product("abc", repeat=n)]
        acc = sum(d.accepts(w) for w in words)
        assert s.count(n, True) == acc and s.count(n, False) == len(words) - acc
    x = s.sample(6, True, count=300, seed=3)
    assert x.shape == (300, 6) and x.dtype == np.int64
    assert all(d.accepts(row.tolist()) for row in x)
    assert not any(d.accepts(row.tolist()) for row in s.sample(6, False, count=300, seed=3))
    assert np.array_equal(x, s.sample(6, True, count=300, seed=3))  # a seed gives the same words
    # Uniform: 100 draws per accepted word of length 2 hit each one, every count within 5
    # standard deviations (about 5 * 10) of 100.
    words2 = ["".join(w) for w in itertools.product("abc", repeat=2) if d.accepts("".join(w))]
    draws = s.sample(2, True, count=100 * len(words2), seed=11)
    counts = {}
    for row in draws:
        counts[tuple(row)] = counts.get(tuple(row), 0) + 1
    assert len(counts) == len(words2)
    assert all(abs(c - 100) < 5 * 10 for c in counts.values())
