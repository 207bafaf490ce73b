// Letters that act alike (docs/WINDOWS.md §10, Proposition 10.9; automata/algebra/window_letters.hh):
// a window question on a DFA with a copied letter is answered through the DFA without it. Two routes:
// the answer on the DFA over Σ against the answer on the DFA with one letter of Σ copied (whose
// question is asked over Σ again after merging), and every lifted certificate re-verified by the
// checker on the larger DFA; the merge itself against the minimal DFA's columns.
#include "automata/algebra/window_letters.hh"
#include "automata/algorithms.hh"
#include "automata/dfa_json.hh"
#include "support/window_support.hh"

using namespace ltlkit;
using namespace ltlkit::automata;
using namespace ltlkit::automata::algebra;
using namespace ltlkit::testing;

namespace {

// d with a new last letter whose column is letter `copy`'s.
Dfa with_copied_letter(const Dfa& d, Symbol copy) {
    Dfa e;
    e.alphabet = d.alphabet;
    e.alphabet.push_back(std::string(1, char('a' + d.num_symbols())));
    e.initial = d.initial;
    e.accepting = d.accepting;
    const std::size_t s = d.num_symbols();
    e.delta.resize(d.num_states() * (s + 1));
    for (State q = 0; q < d.num_states(); ++q) {
        for (Symbol a = 0; a < s; ++a) e.delta[q * (s + 1) + a] = d.next(q, a);
        e.delta[q * (s + 1) + s] = d.next(q, copy);
    }
    return minimize(e);
}

}  // namespace

TEST_CASE("Proposition 10.9: a copied letter changes no window answer, and lifted certificates re-verify", "[windows]") {
    std::mt19937_64 rng(10'901);
    std::size_t compared = 0, yes = 0, no = 0, lifted_formulas = 0, lifted_families = 0;
    for (int i = 0; i < 70; ++i) {
        const std::size_t sigma = 2;
        Dfa d = i % 2 ? random_definite(rng, sigma, 1 + rng() % 4) : random_dfa(rng, 3 + rng() % 4, sigma);
        if (letters_acting_alike(d)) continue;  // the route under test needs a DFA without merged letters
        const Symbol copy = Symbol(rng() % sigma);
        Dfa e = with_copied_letter(d, copy);
        auto m = letters_acting_alike(e);
        REQUIRE(m.has_value());
        REQUIRE(m->kept.size() == sigma);
        CHECK(m->reduced.num_states() == d.num_states());
        CHECK(letter_classes(e) == sigma);
        for (bool hybrid : {false, true}) {
            if (hybrid ? !locally_r_trivial_by_pair_graph(d) : !definite_by_pair_graph(d)) continue;
            for (unsigned k = 2; k <= 3; ++k) {
                WindowDecision small = hybrid ? decide_hybrid_k(d, k) : decide_local_k(d, k);
                WindowDecision large = hybrid ? decide_hybrid_k(e, k) : decide_local_k(e, k);
                INFO(to_json(d) << (hybrid ? " hybrid" : " local") << " k = " << k << ": " << large.certificate.fact);
                // The large question is the small one asked again: the same answer, never less decided.
                CHECK(large.answer == small.answer);
                if (large.answer == Answer::Unknown) continue;
                ++compared;
                (large.answer == Answer::Yes ? yes : no) += 1;
                CHECK(large.certificate.fact.find("acts as") != std::string::npos);
                if (large.certificate.formula) ++lifted_formulas;
                if (large.certificate.family) ++lifted_families;
                if (!large.certificate.formula_omitted) CHECK(reverifies(large.certificate, e));
            }
        }
    }
    CHECK(compared >= 40);
    CHECK(lifted_formulas >= 5);
    CHECK(lifted_families >= 5);
    WARN("Proposition 10.9: " << compared << " questions on DFAs with a copied letter (" << yes << " yes, " << no
                              << " no), " << lifted_formulas << " widened formulas and " << lifted_families
                              << " lifted families re-verified");
}

TEST_CASE("Letters act alike exactly when their columns in the minimal DFA are equal", "[windows]") {
    std::mt19937_64 rng(10'902);
    for (int i = 0; i < 200; ++i) {
        Dfa d = random_dfa(rng, 2 + rng() % 5, 2 + rng() % 3);
        auto m = letters_acting_alike(d);
        for (Symbol a = 0; a < d.num_symbols(); ++a)
            for (Symbol b = 0; b < d.num_symbols(); ++b) {
                bool equal = true;
                for (State q = 0; q < d.num_states(); ++q) equal = equal && d.next(q, a) == d.next(q, b);
                const bool merged = m ? m->class_of[a] == m->class_of[b] : a == b;
                CHECK(equal == merged);
            }
        if (!m) continue;
        // The reduced DFA accepts a word iff the original accepts it (the kept letters spelled back).
        for (const Word& w : all_words(m->kept.size(), 5)) CHECK(m->reduced.accepts(w) == d.accepts(lift_word(w, *m)));
        CHECK(m->reduced.num_states() == d.num_states());
    }
}
