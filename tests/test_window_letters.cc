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

namespace {

// d over {a, b, ...} with a new last letter that sends every state to a new sink (accepting or not).
Dfa with_zero_letter(const Dfa& d, bool accepting_sink) {
    Dfa e;
    const std::size_t s = d.num_symbols(), n = d.num_states();
    e.alphabet = d.alphabet;
    e.alphabet.push_back(std::string(1, char('a' + s)));
    e.initial = d.initial;
    e.accepting = d.accepting;
    e.accepting.push_back(accepting_sink ? 1 : 0);
    e.delta.resize((n + 1) * (s + 1));
    for (State q = 0; q <= n; ++q)
        for (Symbol a = 0; a <= s; ++a) e.delta[q * (s + 1) + a] = q == n || a == s ? State(n) : d.next(q, a);
    return minimize(e);
}

}  // namespace

// Proposition 10.10 (docs/WINDOWS.md §10): a zero letter changes no hybrid answer. Two routes: the
// default decision (which removes the zero letter and asks the question of the words without it)
// against the searches on the whole DFA (options.zero_letters off), and every certificate re-verified
// on the DFA with the zero letter, where the checker removes it again on its own.
TEST_CASE("Proposition 10.10: a zero letter changes no hybrid answer, and lifted certificates re-verify", "[windows]") {
    std::mt19937_64 rng(11'001);
    WindowOptions whole;
    whole.zero_letters = false;
    std::size_t compared = 0, yes = 0, no = 0, only_reduced = 0, formulas = 0, kept_field = 0, forged = 0;
    for (int i = 0; i < 60; ++i) {
        Dfa d = i % 2 ? random_definite(rng, 2, 1 + rng() % 4) : random_dfa(rng, 3 + rng() % 4, 2);
        // d's own letters are not zero letters, and d has two states or more (else every letter is one)
        auto zero_in_d = [&] {
            for (Symbol a = 0; a < d.num_symbols(); ++a) {
                const State t = d.next(d.initial, a);
                bool zero = true;
                for (State q = 0; q < d.num_states(); ++q) zero = zero && d.next(q, a) == t;
                for (Symbol b = 0; b < d.num_symbols(); ++b) zero = zero && d.next(t, b) == t;
                if (zero) return true;
            }
            return false;
        };
        if (!locally_r_trivial_by_pair_graph(d) || d.num_states() < 2 || zero_in_d()) continue;
        const Dfa e = with_zero_letter(d, rng() % 2);
        auto z = zero_letters(e);
        INFO(to_json(d) << " with a zero letter: " << to_json(e));
        REQUIRE(z.has_value());
        CHECK(z->letters() == std::vector<std::string>{"c"});
        CHECK(z->reduced == d);  // the words without c are d's language, and its minimal DFA is d
        REQUIRE(locally_r_trivial_by_pair_graph(e));
        for (unsigned k = 2; k <= 3; ++k) {
            const WindowDecision reduced = decide_hybrid_k(e, k);
            const WindowDecision searched = decide_hybrid_k(e, k, whole);
            INFO(to_json(e) << " k = " << k << ": " << reduced.certificate.fact << " / " << searched.certificate.fact);
            if (reduced.answer != Answer::Unknown && searched.answer != Answer::Unknown) {
                CHECK(reduced.answer == searched.answer);
                ++compared;
                (reduced.answer == Answer::Yes ? yes : no) += 1;
            }
            only_reduced += reduced.answer != Answer::Unknown && searched.answer == Answer::Unknown;
            if (reduced.answer == Answer::Unknown || reduced.certificate.formula_omitted) continue;
            CHECK(reverifies(reduced.certificate, e));
            formulas += reduced.certificate.formula.has_value();
            if (!reduced.certificate.window || !reduced.certificate.window->zero_letters) continue;
            ++kept_field;
            // Forgeries: another letter named as the zero letter, the reduction carried to a local "yes".
            Certificate wrong = reduced.certificate;
            wrong.window->zero_letters = std::vector<std::string>{"a"};
            CHECK_FALSE(reverifies(wrong, e));
            if (reduced.answer == Answer::Yes) {
                Certificate local = reduced.certificate;
                local.class_id = window_class_id(false, k);
                CHECK_FALSE(reverifies(local, e));
            }
            ++forged;
        }
    }
    CHECK(compared >= 20);
    CHECK(yes >= 3);
    CHECK(no >= 3);
    CHECK(formulas >= 3);
    CHECK(kept_field >= 3);
    WARN("Proposition 10.10: " << compared << " hybrid questions with a zero letter answered by both routes (" << yes << " yes, " << no
                               << " no, 0 disagreements), " << only_reduced << " answered only through the reduction; "
                               << formulas << " lifted formulas and " << kept_field << " certificates with the field re-verified, "
                               << forged << " forged ones refused");
}
