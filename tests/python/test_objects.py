"""Formulas built by the factories are the parsed ones (hash-consed), objects pickle, and calls that
run without the GIL give the same answers from several threads at once."""
import concurrent.futures
import pickle

import ltlkit
from ltlkit import Formula

TEXTS = ["P(b & Y a)", "a S b", "H(a -> Y b)", "Y<=3 (a <-> !b)", "true & !false | P H a"]


def test_factories_build_the_parsed_formulas():
    a, b = Formula.atom("a"), Formula.atom("b")
    built = [
        Formula.past(Formula.conj(b, Formula.yesterday(a))),
        Formula.since(a, b),
        Formula.historically(Formula.implies(a, Formula.yesterday(b))),
        Formula.bounded_yesterday(Formula.iff(a, Formula.neg(b)), 3),
        Formula.disj(Formula.conj(Formula.tt(), Formula.neg(Formula.ff())), Formula.past(Formula.historically(a))),
    ]
    for f, text in zip(built, TEXTS):
        g = ltlkit.parse_formula(text)
        assert f == g and hash(f) == hash(g), (str(f), text)
        assert ltlkit.parse_formula(str(f)) == f
        assert ltlkit.parse_formula(ltlkit.to_unicode(f)) == f
    f = built[0]
    assert f.op == ltlkit.Op.PAST and f.children[0].op == ltlkit.Op.AND
    assert built[3].k == 3 and a.name == "a" and f.name is None
    assert ltlkit.subformulas_postorder(f)[-1] == f
    assert ltlkit.dag_size(f) == len(ltlkit.subformulas_postorder(f)) == 5


def test_pickle_round_trips():
    for text in TEXTS:
        f = ltlkit.parse_formula(text)
        assert pickle.loads(pickle.dumps(f)) == f
        d = ltlkit.compile(f, alphabet="a,b")
        assert pickle.loads(pickle.dumps(d)) == d


def test_threads_give_the_sequential_answers():
    # Without a time bound on the window questions: under a time budget which search answers first
    # depends on how the threads share the cores, and so may the certificate.
    languages = TEXTS * 2
    sequential = [ltlkit.classify(t, alphabet="a,b", window_time=0) for t in languages]
    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        parallel = list(pool.map(lambda t: ltlkit.classify(t, alphabet="a,b", window_time=0), languages))
    for s, p in zip(sequential, parallel):
        assert {k: v for k, v in s.items() if k != "dfa"} == {k: v for k, v in p.items() if k != "dfa"}
        assert s["dfa"] == p["dfa"]
