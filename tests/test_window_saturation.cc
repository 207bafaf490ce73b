// The hybrid fragment's saturating prefixes (docs/WINDOWS.md §10, Lemmas 10.6a-b, Theorem 10.6,
// Corollary 10.7, Theorem 10.8), each against a route that does not use it:
// - the lemmas on random formulas of LTL[P,Y<=k]: the saturating prefix z computed from the DFAs of
//   the P-subformulas, the local formula φ' with them replaced by their constants, and
//   z·u ⊨ φ ⟺ u ⊨ φ' checked by the direct semantics (ltl/semantics.hh) on every u of the lengths
//   the lemma names;
// - Theorem 10.8 on random DFAs whose transient part is partially ordered: decide_hybrid_k on the DFA
//   against decide_local_k on its bottom residuals;
// - Corollary 10.7 on random definite DFAs: decide_hybrid_k against decide_local_k.
#include <algorithm>
#include <cmath>
#include <deque>
#include <functional>
#include <unordered_map>

#include "automata/algebra/window_reduction.hh"
#include "automata/dfa_json.hh"
#include "ltl/parser.hh"
#include "ltl/printer.hh"
#include "support/random_formula.hh"
#include "support/window_support.hh"

using namespace ltlkit;
using namespace ltlkit::automata;
using namespace ltlkit::automata::algebra;
using namespace ltlkit::testing;

namespace {

// The maximal P-subformulas of f as "P χ" (H ψ read as ¬P¬ψ, so its χ is ¬ψ), and D: the most Y<=k on
// a path from f's root to an atom or to one of them.
void maximal_pasts(ltl::Formula f, std::vector<ltl::Formula>& out, unsigned windows, unsigned& depth) {
    using ltl::Op;
    if (f.op() == Op::Past || f.op() == Op::Historically) {
        ltl::Formula chi = f.op() == Op::Past ? f.child(0) : ltl::Formula::neg(f.child(0));
        if (std::find(out.begin(), out.end(), chi) == out.end()) out.push_back(chi);
        depth = std::max(depth, windows);
        return;
    }
    if (f.arity() == 0) depth = std::max(depth, windows);
    for (std::size_t i = 0; i < f.arity(); ++i)
        maximal_pasts(f.child(i), out, windows + (f.op() == Op::BoundedYesterday ? 1 : 0), depth);
}

// f with each maximal P χ (and H ψ = ¬P¬ψ) replaced by the constant value[χ].
ltl::Formula localised(ltl::Formula f, const std::unordered_map<ltl::Formula, bool>& value) {
    using ltl::Formula;
    using ltl::Op;
    switch (f.op()) {
        case Op::Past: return value.at(f.child(0)) ? Formula::tt() : Formula::ff();
        case Op::Historically: return value.at(Formula::neg(f.child(0))) ? Formula::ff() : Formula::tt();
        case Op::True: case Op::False: case Op::Atom: return f;
        case Op::Not: return Formula::neg(localised(f.child(0), value));
        case Op::And: return Formula::conj(localised(f.child(0), value), localised(f.child(1), value));
        case Op::Or: return Formula::disj(localised(f.child(0), value), localised(f.child(1), value));
        case Op::Implies: return Formula::implies(localised(f.child(0), value), localised(f.child(1), value));
        case Op::Iff: return Formula::iff(localised(f.child(0), value), localised(f.child(1), value));
        case Op::BoundedYesterday: return Formula::bounded_yesterday(localised(f.child(0), value), f.k());
        default: FAIL("operator outside LTL[P,Y<=k]"); return f;
    }
}

// A shortest word v (breadth-first) with d accepting after z·v, or nullopt.
std::optional<Word> shortest_to_accepting(const Dfa& d, const Word& z) {
    State s = d.initial;
    for (Symbol a : z) s = d.next(s, a);
    std::vector<std::optional<std::pair<State, Symbol>>> parent(d.num_states());
    std::vector<char> seen(d.num_states(), 0);
    std::deque<State> queue{s};
    seen[s] = 1;
    while (!queue.empty()) {
        const State p = queue.front();
        queue.pop_front();
        if (d.accepting[p]) {
            Word v;
            for (State c = p; c != s; c = parent[c]->first) v.push_back(parent[c]->second);
            std::reverse(v.begin(), v.end());
            return v;
        }
        for (Symbol a = 0; a < d.num_symbols(); ++a)
            if (State t = d.next(p, a); !seen[t]) {
                seen[t] = 1;
                parent[t] = std::make_pair(p, a);
                queue.push_back(t);
            }
    }
    return std::nullopt;
}

std::vector<std::string> symbol_names(const std::vector<std::string>& alphabet, const Word& w) {
    std::vector<std::string> out;
    for (Symbol s : w) out.push_back(alphabet[s]);
    return out;
}

// The states from which q is reachable and which q reaches, by closure (small DFAs only).
std::vector<std::vector<char>> reachability(const Dfa& d) {
    const std::size_t n = d.num_states();
    std::vector<std::vector<char>> r(n, std::vector<char>(n, 0));
    for (State p = 0; p < n; ++p) {
        r[p][p] = 1;
        for (Symbol a = 0; a < d.num_symbols(); ++a) r[p][d.next(p, a)] = 1;
    }
    for (std::size_t m = 0; m < n; ++m)
        for (std::size_t i = 0; i < n; ++i)
            if (r[i][m])
                for (std::size_t j = 0; j < n; ++j) r[i][j] = r[i][j] || r[m][j];
    return r;
}

// Theorem 10.8's shape: every SCC that is not a bottom SCC is a single state.
bool transient_part_partially_ordered(const Dfa& d) {
    auto r = reachability(d);
    for (State p = 0; p < d.num_states(); ++p) {
        if (in_bottom_scc(d, p)) continue;
        for (State q = 0; q < d.num_states(); ++q)
            if (q != p && r[p][q] && r[q][p]) return false;
    }
    return true;
}

// A random DFA of Theorem 10.8's shape before minimisation: transient states 0..t-1 whose letters
// stay, move to a later transient state or enter a random definite bottom part (states t..).
Dfa random_po_transient(std::mt19937_64& rng, std::size_t sigma, std::size_t transient, std::size_t delta) {
    Dfa bottom = random_definite(rng, sigma, delta);
    Dfa d;
    d.alphabet = bottom.alphabet;
    d.initial = 0;
    const std::size_t n = transient + bottom.num_states();
    d.accepting.assign(n, 0);
    d.delta.assign(n * sigma, 0);
    for (State p = 0; p < transient; ++p) {
        d.accepting[p] = rng() % 2;
        for (Symbol a = 0; a < sigma; ++a) {
            const std::size_t r = rng() % 4;
            State t;
            if (r == 0) t = p;
            else if (r == 1 && p + 1 < transient) t = State(p + 1 + rng() % (transient - p - 1));
            else t = State(transient + rng() % bottom.num_states());
            d.delta[p * sigma + a] = t;
        }
    }
    for (State q = 0; q < bottom.num_states(); ++q) {
        d.accepting[transient + q] = bottom.accepting[q];
        for (Symbol a = 0; a < sigma; ++a) d.delta[(transient + q) * sigma + a] = State(transient + bottom.next(q, a));
    }
    return minimize(d);
}

}  // namespace

TEST_CASE("Lemmas 10.6a-b: after a saturating prefix, a formula of LTL[P,Y<=k] is its local part on long words",
          "[windows]") {
    std::mt19937_64 rng(10'601);
    std::size_t formulas = 0, words = 0, with_pasts = 0;
    for (int i = 0; i < 120; ++i) {
        const unsigned k = 2 + i % 2;
        const std::vector<std::string> alphabet = i % 3 == 2 ? std::vector<std::string>{"a", "b", "c"} : AB;
        ltl::Formula phi = random_formula(rng, ltl::FragmentKind::PYLeqK, alphabet, 4, k);
        std::vector<ltl::Formula> chis;
        unsigned D = 0;
        maximal_pasts(phi, chis, 0, D);
        const std::size_t longest = D * k + (alphabet.size() == 2 ? 3 : 2);
        if (std::pow(double(alphabet.size()), double(longest)) > 5000) continue;
        // The greedy of Lemma 10.6a (C = every state: the run is never restricted).
        Word z;
        for (ltl::Formula chi : chis) {
            Dfa somewhere = dfa_of(ltl::Formula::past(chi), alphabet);
            if (auto v = shortest_to_accepting(somewhere, z)) z.insert(z.end(), v->begin(), v->end());
        }
        std::unordered_map<ltl::Formula, bool> value;
        for (ltl::Formula chi : chis) value[chi] = ltl::holds_at_eos(ltl::Formula::past(chi), symbol_names(alphabet, z));
        const ltl::Formula local = localised(phi, value);
        REQUIRE(ltl::temporal_depth(local) <= D);
        ++formulas;
        with_pasts += !chis.empty();
        for (const Word& u : all_words(alphabet.size(), longest)) {
            if (u.size() < D * k) continue;
            Word zu = z;
            zu.insert(zu.end(), u.begin(), u.end());
            INFO(ltl::to_string(phi) << " with z = " << format_word(alphabet, z) << ", u = " << format_word(alphabet, u)
                                     << ", local part " << ltl::to_string(local));
            const bool whole = ltl::holds_at_eos(phi, symbol_names(alphabet, zu));
            REQUIRE(whole == ltl::holds_at_eos(local, symbol_names(alphabet, zu)));
            REQUIRE(whole == ltl::holds_at_eos(local, symbol_names(alphabet, u)));
            // Every extension of z is saturating too (the lemma's words z·u, u = y·u').
            ++words;
        }
    }
    CHECK(formulas >= 80);
    CHECK(with_pasts >= 40);
    WARN("Lemmas 10.6a-b: " << formulas << " formulas (" << with_pasts << " with P or H), " << words << " words z·u");
}

TEST_CASE("Theorem 10.8: with a partially ordered transient part, hybrid_k is local_k of the bottom residuals",
          "[windows]") {
    std::mt19937_64 rng(10'801);
    std::size_t shaped = 0, compared = 0, yes = 0, no = 0, by_reduction = 0, search_unknown = 0, route_answers = 0;
    std::size_t formulas = 0, nested = 0, words = 0;
    WindowOptions searches_only;
    searches_only.transient_dag = false;
    for (int i = 0; i < 90; ++i) {
        const std::size_t sigma = 2 + i % 2;
        Dfa d = random_po_transient(rng, sigma, 1 + rng() % 3, 1 + rng() % (sigma == 2 ? 4 : 3));
        if (!transient_part_partially_ordered(d) || !locally_r_trivial_by_pair_graph(d)) continue;
        ++shaped;
        for (unsigned k = 2; k <= 3; ++k) {
            // Theorem 10.8's answer: every bottom residual (one state per bottom SCC) in LTL[Y<=k].
            std::optional<bool> predicted = true;
            for (const Word& x : words_to_bottom_sccs(d)) {
                State q = d.initial;
                for (Symbol a : x) q = d.next(q, a);
                Dfa res = residual_dfa(d, q);
                if (!definite_by_pair_graph(res)) {
                    predicted = false;
                    break;
                }
                WindowDecision local = decide_local_k(res, k);
                if (local.answer == Answer::No) {
                    predicted = false;
                    break;
                }
                if (local.answer == Answer::Unknown) predicted.reset();
            }
            // The searches alone (no route through the residuals) against the prediction.
            WindowDecision searched = decide_hybrid_k(d, k, searches_only);
            // The default decision, which asks the residuals' local questions itself (window_decide.cc):
            // never unknown where the prediction is known, and its certificate re-verifies.
            WindowDecision routed = decide_hybrid_k(d, k);
            INFO(to_json(d) << " k = " << k << ": " << searched.certificate.fact << " / " << routed.certificate.fact);
            if (predicted) {
                CHECK(routed.answer == (*predicted ? Answer::Yes : Answer::No));
                // a certificate of the residuals' certificates has no formula but re-verifies
                if (!routed.certificate.formula_omitted || (routed.certificate.window && routed.certificate.window->residuals))
                    CHECK(reverifies(routed.certificate, d));
                route_answers += routed.answer != Answer::Unknown;
                nested += routed.certificate.window && routed.certificate.window->residuals.has_value();
            }
            if (predicted && searched.answer == Answer::Unknown) ++search_unknown;
            if (!predicted || searched.answer == Answer::Unknown) continue;
            ++compared;
            (*predicted ? yes : no) += 1;
            CHECK((searched.answer == Answer::Yes) == *predicted);
            // A yes whose formula is over the cap is given without it (windows.hh), so not re-checkable.
            if (!searched.certificate.formula_omitted) CHECK(reverifies(searched.certificate, d));
            by_reduction += searched.certificate.window && searched.certificate.window->reduction == "bottom_scc";
        }
        // Theorem 10.8's formula itself, where every entry's residual has a formula: against the DFA by
        // the direct semantics (ltl/semantics.hh) on every short word, not through the compiler.
        const auto dag = transient_dag(d);
        if (!dag) continue;
        for (unsigned k = 2; k <= 3; ++k) {
            std::vector<ltl::Formula> psi;
            for (State q : dag->entries) {
                const Dfa res = residual_dfa(d, q);
                if (res.num_states() == 1) {
                    psi.push_back(res.accepting[0] ? ltl::Formula::tt() : ltl::Formula::ff());
                    continue;
                }
                WindowDecision local = decide_local_k(res, k);
                if (local.answer != Answer::Yes || !local.certificate.formula) break;
                psi.push_back(*ltl::parse_formula(*local.certificate.formula));
            }
            if (psi.size() != dag->entries.size()) continue;
            const ltl::Formula f = theorem_10_8_formula(d, *dag, psi);
            REQUIRE(formula_in_window_fragment(f, k, true));
            ++formulas;
            INFO(to_json(d) << " k = " << k << ", " << ltl::to_string(f));
            const std::size_t n = sigma == 2 ? 7 : 5;
            agrees_on_short_words(f, d, n);
            words += all_words(sigma, n).size();
        }
    }
    CHECK(compared >= 30);
    CHECK(yes >= 5);
    CHECK(no >= 5);
    CHECK(formulas >= 20);
    WARN("Theorem 10.8: " << shaped << " DFAs of the shape, " << compared << " (DFA, k) compared with the searches alone (" << yes
                          << " yes, " << no << " no, " << by_reduction
                          << " of them by the bottom-SCC reduction itself), 0 disagreements; " << search_unknown
                          << " unknown to the searches where the residuals were decided, " << route_answers
                          << " answered by the default decision (" << nested << " with the residuals' certificates); "
                          << formulas << " of Theorem 10.8's formulas equal to the DFA on " << words << " words");
}

TEST_CASE("Corollary 10.7: on definite languages the hybrid and local answers agree", "[windows]") {
    std::mt19937_64 rng(10'701);
    std::size_t compared = 0, yes = 0;
    for (int i = 0; i < 80; ++i) {
        const std::size_t sigma = 2 + i % 2;
        Dfa d = i % 2 ? random_definite(rng, sigma, 1 + rng() % (sigma == 2 ? 4 : 3)) : random_dfa(rng, 3 + rng() % 5, sigma);
        if (!definite_by_pair_graph(d)) continue;
        for (unsigned k = 2; k <= 3; ++k) {
            WindowDecision local = decide_local_k(d, k), hybrid = decide_hybrid_k(d, k);
            if (local.answer == Answer::Unknown || hybrid.answer == Answer::Unknown) continue;
            ++compared;
            yes += local.answer == Answer::Yes;
            INFO(to_json(d) << " k = " << k << ": local " << local.certificate.fact << "; hybrid "
                                << hybrid.certificate.fact);
            CHECK(local.answer == hybrid.answer);
        }
    }
    CHECK(compared >= 40);
    CHECK(yes >= 5);
    CHECK(compared - yes >= 5);
    WARN("Corollary 10.7: " << compared << " (definite DFA, k) with both answers, " << yes << " yes, 0 disagreements");
}

// Theorem 10.8's certificate without a formula: one local_k certificate per bottom SCC entered
// (their depth-types formulas are over the cap), which check-certificate re-checks on the residuals it
// computes itself; forged variants are refused.
TEST_CASE("Theorem 10.8's certificate: the residuals' certificates re-verify, forgeries are refused", "[windows]") {
    const std::vector<std::string> abcd = {"a", "b", "c", "d"};
    std::size_t nested = 0;
    for (const char* text : {"Y<=3 Y<=3 !d & (P !b | d)", "H (a & a) | Y<=3 Y<=3 b"}) {
        const Dfa d = dfa_of(std::string(text), abcd);
        REQUIRE(transient_dag(d).has_value());
        WindowOptions budget;
        budget.work_limit = 1'000'000;  // classify's default: the residual's depth types are then the answer
        const WindowDecision w = decide_hybrid_k(d, 4, budget);
        INFO(text << ": " << w.certificate.fact);
        REQUIRE(w.answer == Answer::Yes);
        CHECK(reverifies(w.certificate, d));
        if (!w.certificate.window || !w.certificate.window->residuals) continue;
        ++nested;
        const nlohmann::json subs = *w.certificate.window->residuals;
        REQUIRE(!subs.empty());
        auto forged = [&](const std::function<void(nlohmann::json&)>& edit) {
            Certificate c = w.certificate;
            edit(*c.window->residuals);
            return c;
        };
        CHECK_FALSE(reverifies(forged([](nlohmann::json& r) { r.erase(r.size() - 1); }), d));
        CHECK_FALSE(reverifies(forged([](nlohmann::json& r) { r[0]["class"] = "local_k:3"; }), d));
        CHECK_FALSE(reverifies(forged([](nlohmann::json& r) { r[0]["member"] = false; }), d));
        CHECK_FALSE(reverifies(forged([](nlohmann::json& r) { r[0] = nullptr; }), d));
        // another language's certificate in place of the residual's
        CHECK_FALSE(reverifies(forged([&](nlohmann::json& r) {
                                   const Dfa other = dfa_of(std::string("Y<=4 a"), {"a", "b", "d"});
                                   const WindowDecision o = decide_local_k(other, 4);
                                   REQUIRE(o.answer == Answer::Yes);
                                   r[0] = nlohmann::json::parse(certificate_to_json(o.certificate, other));
                               }),
                               d));
        // the certificate attached to a DFA of another shape (a transient SCC of two states)
        CHECK_FALSE(reverifies(w.certificate, dfa_of(std::string("P (a & Y b) | Y<=4 a"), abcd)));
    }
    CHECK(nested >= 1);
}
