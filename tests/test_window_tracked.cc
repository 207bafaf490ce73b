// Theorem 10.12 (docs/WINDOWS.md §10): when, in every transient SCC of the minimal DFA, the window
// types of the words read from each entry that stay inside tell the state they reach, and every
// bottom residual entered is in LTL[Y<=k], the language is in LTL[P,Y<=k]. Each statement against
// a route that does not use it:
// - the tracking formulas (depth_probe.hh, probe_depth_states): on every short word whose run from
//   the entry stays inside the SCC, by the direct semantics (ltl/semantics.hh), the formula of a
//   state holds exactly on the words that reach a state alike to it (the same acceptance and the
//   same states outside the SCC per letter);
// - the theorem's formula, assembled from the tracking and the residuals' formulas: against the DFA
//   by the direct semantics on every short word, not through the compiler;
// - the labelled probe itself against the types computed on the words (eos_depth_types_equal):
//   a conflict's two words have equal types and different labels, a separation leaves no two
//   short words with equal types and different labels;
// - the default decision against the searches alone (WindowOptions::transient_dag off): no "yes" of
//   one is a "no" of the other, and every certificate re-verifies;
// - the certificate without a formula (the residuals' certificates and the tracking depth): it
//   re-verifies, and forged variants are refused.
#include <functional>
#include <set>

#include "automata/algebra/depth_probe.hh"
#include "automata/algebra/window_reduction.hh"
#include "automata/dfa_json.hh"
#include "ltl/printer.hh"
#include "ltl/semantics.hh"
#include "support/random_formula.hh"
#include "support/window_support.hh"

using namespace ltlkit;
using namespace ltlkit::automata;
using namespace ltlkit::automata::algebra;
using namespace ltlkit::testing;

namespace {

// A minimal DFA with a transient SCC of two or more states: a random formula of LTL[P,Y<=k]
// (k = 2, 3) over 2 or 3 letters, or a random layered DFA that is locally R-trivial.
std::optional<Dfa> shaped(std::mt19937_64& rng, int i) {
    const std::size_t sigma = 2 + i % 2;
    const std::vector<std::string> alphabet = sigma == 2 ? std::vector<std::string>{"a", "b"} : std::vector<std::string>{"a", "b", "c"};
    Dfa d = i % 3 == 2 ? random_layered_dfa(rng, sigma, 4 + rng() % 4)
                       : dfa_of(random_formula(rng, ltl::FragmentKind::PYLeqK, alphabet, 4, 2 + unsigned(rng() % 2)), alphabet);
    if (d.num_states() > 14 || !locally_r_trivial_by_pair_graph(d)) return std::nullopt;
    const auto dag = transient_dag(d, true);
    if (!dag || dag->tracked.empty()) return std::nullopt;
    return d;
}

// Every word up to length n whose run from q stays inside q's SCC, with the state it reaches.
std::vector<std::pair<Word, State>> inside_words(const Dfa& d, State q, std::size_t n) {
    const std::vector<char> from_q = reachable_from(d, q);
    auto same_scc = [&](State s) { return from_q[s] && reachable_from(d, s)[q]; };
    std::vector<std::pair<Word, State>> out{{Word{}, q}};
    for (std::size_t i = 0; i < out.size(); ++i)
        if (out[i].first.size() < n)
            for (Symbol a = 0; a < d.num_symbols(); ++a)
                if (const State t = d.next(out[i].second, a); same_scc(t)) {
                    Word w = out[i].first;
                    w.push_back(a);
                    out.emplace_back(std::move(w), t);
                }
    return out;
}

// p and q alike for Theorem 10.12 (both in q's SCC): the same acceptance and, per letter, the same
// state outside the SCC or both inside.
bool alike(const Dfa& d, State p, State q) {
    const std::vector<char> from_q = reachable_from(d, q);
    auto inside = [&](State s) { return from_q[s] && reachable_from(d, s)[q]; };
    if (d.accepting[p] != d.accepting[q]) return false;
    for (Symbol a = 0; a < d.num_symbols(); ++a) {
        const State s = d.next(p, a), t = d.next(q, a);
        if (inside(s) != inside(t) || (!inside(s) && s != t)) return false;
    }
    return true;
}

std::vector<std::string> symbol_names(const Dfa& d, const Word& w) {
    std::vector<std::string> out;
    for (Symbol s : w) out.push_back(d.alphabet[s]);
    return out;
}

}  // namespace

TEST_CASE("Theorem 10.12: tracked transient SCCs and local bottom residuals give a formula of LTL[P,Y<=k]", "[windows]") {
    std::mt19937_64 rng(101'201);
    std::size_t dfas = 0, tracked_entries = 0, untracked = 0, checked_words = 0, formulas = 0, formula_words = 0;
    for (int i = 0; i < 2000 && formulas < 40; ++i) {
        const auto d = shaped(rng, i);
        if (!d) continue;
        ++dfas;
        const TransientDag dag = *transient_dag(*d, true);
        const std::size_t n = d->num_symbols() == 2 ? 7 : 5;
        for (unsigned k = 2; k <= 3; ++k) {
            // The tracking formulas of every entry, each checked on the words that stay inside.
            std::vector<std::vector<std::vector<ltl::Formula>>> tracking;
            bool all = true;
            for (const TransientDag::Tracked& g : dag.tracked) {
                tracking.emplace_back();
                for (const State e : g.entries) {
                    auto chi = track_scc_states(*d, e, k, 6, 200'000, 2'000);
                    if (!chi || std::any_of(chi->begin(), chi->end(), [](ltl::Formula f) { return f.is_null(); })) {
                        ++untracked;
                        all = false;
                        continue;
                    }
                    ++tracked_entries;
                    REQUIRE(chi->size() == g.states.size());
                    for (const auto& [w, s] : inside_words(*d, e, n)) {
                        const std::vector<std::string> names = symbol_names(*d, w);
                        for (std::size_t m = 0; m < g.states.size(); ++m) {
                            INFO(to_json(*d) << " k = " << k << ", entry " << e << ", word " << format_word(d->alphabet, w) << ", state "
                                             << g.states[m] << ": " << ltl::to_string((*chi)[m]));
                            REQUIRE(formula_in_window_fragment((*chi)[m], k, false));
                            CHECK(ltl::holds_at_eos((*chi)[m], names) == alike(*d, s, g.states[m]));
                        }
                        ++checked_words;
                    }
                    tracking.back().push_back(std::move(*chi));
                }
            }
            if (!all) continue;
            // The residuals' formulas (decide_local_k), then the theorem's formula against the DFA.
            std::vector<ltl::Formula> psi;
            for (State q : dag.entries) {
                const Dfa res = residual_dfa(*d, q);
                if (res.num_states() == 1) {
                    psi.push_back(res.accepting[0] ? ltl::Formula::tt() : ltl::Formula::ff());
                    continue;
                }
                if (!definite_by_pair_graph(res)) break;
                WindowDecision local = decide_local_k(res, k);
                if (local.answer != Answer::Yes || !local.certificate.formula) break;
                psi.push_back(*ltl::parse_formula(*local.certificate.formula));
            }
            if (psi.size() != dag.entries.size()) continue;
            const ltl::Formula f = theorem_10_8_formula(*d, dag, psi, tracking);
            REQUIRE(formula_in_window_fragment(f, k, true));
            INFO(to_json(*d) << " k = " << k << ": Theorem 10.12's formula (DAG size " << ltl::dag_size(f) << ")");
            agrees_on_short_words(f, *d, n);
            ++formulas;
            formula_words += all_words(d->num_symbols(), n).size();
        }
    }
    CHECK(dfas >= 40);
    CHECK(tracked_entries >= 15);
    CHECK(formulas >= 12);
    WARN("Theorem 10.12: " << dfas << " DFAs with a transient SCC of two or more states; " << tracked_entries
                           << " (entry, k) tracked, their formulas right on " << checked_words << " words that stay inside ("
                           << untracked << " not tracked up to depth 6); " << formulas << " of the theorem's formulas equal to the DFA on "
                           << formula_words << " words");
}

TEST_CASE("Theorem 10.12 in the decision: the default answers against the searches alone", "[windows]") {
    std::mt19937_64 rng(101'202);
    WindowOptions searches_only;
    searches_only.transient_dag = false;
    WindowOptions bounded;
    bounded.work_limit = 1'000'000;  // classify's default
    searches_only.work_limit = bounded.work_limit;
    std::size_t compared = 0, yes = 0, no = 0, by_route = 0, only_route = 0;
    for (int i = 0; i < 600 && compared < 60; ++i) {
        const auto d = shaped(rng, i);
        if (!d) continue;
        for (unsigned k = 2; k <= 3; ++k) {
            const WindowDecision routed = decide_hybrid_k(*d, k, bounded), searched = decide_hybrid_k(*d, k, searches_only);
            INFO(to_json(*d) << " k = " << k << ": " << routed.certificate.fact << " / " << searched.certificate.fact);
            if (routed.answer != Answer::Unknown && searched.answer != Answer::Unknown) {
                ++compared;
                CHECK(routed.answer == searched.answer);
                (routed.answer == Answer::Yes ? yes : no) += 1;
            }
            const bool route = routed.certificate.window && routed.certificate.window->route == "transient_scc";
            by_route += route;
            only_route += route && searched.answer == Answer::Unknown;
            if (routed.answer != Answer::Unknown && (routed.certificate.formula || route)) CHECK(reverifies(routed.certificate, *d));
        }
    }
    CHECK(compared >= 30);
    CHECK(yes >= 3);
    CHECK(no >= 3);
    WARN("Theorem 10.12 in the decision: " << compared << " questions answered both ways (" << yes << " yes, " << no
                                           << " no), 0 disagreements; " << by_route << " answered by the route ("
                                           << only_route << " unknown to the searches alone)");
}

// The certificate without a formula: the residuals' certificates and the depth at which the window
// types tell the states of each transient SCC; check-certificate re-explores both.
TEST_CASE("Theorem 10.12's certificate: re-explored, forgeries refused", "[windows]") {
    const std::vector<std::string> abcd = {"a", "b", "c", "d"};
    const Dfa d = dfa_of(std::string("P Y<=3 (Y<=3 a & (a | b)) & !Y<=3 !(c | a)"), abcd);
    WindowOptions budget;
    budget.work_limit = 1'000'000;
    const WindowDecision w = decide_hybrid_k(d, 2, budget);
    INFO(w.certificate.fact);
    REQUIRE(w.answer == Answer::Yes);
    REQUIRE(w.certificate.window);
    REQUIRE(w.certificate.window->route == "transient_scc");
    REQUIRE(w.certificate.window->depth);
    REQUIRE(*w.certificate.window->depth >= 2);
    CHECK(reverifies(w.certificate, d));
    auto forged = [&](const std::function<void(Certificate&)>& edit) {
        Certificate c = w.certificate;
        edit(c);
        return c;
    };
    // a depth at which the types do not yet tell the states
    CHECK_FALSE(reverifies(forged([](Certificate& c) { c.window->depth = 1; }), d));
    // Theorem 10.8's route: the shape (a transient SCC of two or more states) refutes it
    CHECK_FALSE(reverifies(forged([](Certificate& c) { c.window->route = "transient_dag"; }), d));
    CHECK_FALSE(reverifies(forged([](Certificate& c) { c.window->residuals->erase(c.window->residuals->size() - 1); }), d));
    CHECK_FALSE(reverifies(forged([](Certificate& c) { (*c.window->residuals)[0]["member"] = false; }), d));
    // for another k the residual certificates are of the wrong class
    CHECK_FALSE(reverifies(forged([](Certificate& c) { c.class_id = window_class_id(true, 3); c.window->k = 3; }), d));
    // on a DFA of Theorem 10.8's shape (no transient SCC of two or more states)
    CHECK_FALSE(reverifies(w.certificate, dfa_of(std::string("Y<=3 Y<=3 !d & (P !b | d)"), abcd)));
}

TEST_CASE("The labelled depth probe against the types computed on the words", "[windows]") {
    std::mt19937_64 rng(101'203);
    std::size_t separations = 0, conflicts = 0, pairs = 0;
    for (int i = 0; i < 400; ++i) {
        const std::size_t sigma = 2 + i % 2;
        // random DFAs (mostly conflicts), and definite ones of degree 1-2 (whose last letters the
        // types tell at some depth: separations with labels that differ)
        const Dfa d = i % 2 ? random_dfa(rng, 3 + rng() % 4, sigma) : random_definite(rng, sigma, 1 + rng() % 2);
        // labels: a random class per state; the last state, when it is a sink, is avoided
        std::vector<std::int32_t> labels(d.num_states());
        for (auto& l : labels) l = std::int32_t(rng() % 3);
        State avoid = kNoAvoid;
        for (State q = 0; q < d.num_states(); ++q) {
            bool sink = true;
            for (Symbol a = 0; a < sigma; ++a) sink = sink && d.next(q, a) == q;
            if (sink && q != d.initial) avoid = q;
        }
        for (std::int32_t& l : labels) l = std::min<std::int32_t>(l, 2);
        const unsigned k = 2 + unsigned(rng() % 2), depth = 1 + unsigned(rng() % 4);
        const DepthProbe pr = probe_depth_states(d, labels, avoid, k, depth, 200'000);
        INFO(to_json(d) << " k = " << k << ", depth " << depth);
        if (pr.status == DepthProbe::Status::Conflict) {
            ++conflicts;
            const State a = d.run(d.initial, pr.accepted), b = d.run(d.initial, pr.rejected);
            CHECK(a != avoid);
            CHECK(b != avoid);
            CHECK(labels[a] != labels[b]);
            CHECK(eos_depth_types_equal(pr.accepted, pr.rejected, k, false, depth));
            continue;
        }
        if (pr.status == DepthProbe::Status::Limit) continue;  // over 200,000 product states
        ++separations;
        // no two words up to length 5 (2 letters) or 4 (3 letters) that avoid `avoid` have equal
        // types and different labels
        std::vector<Word> words;
        for (const Word& w : all_words(sigma, sigma == 2 ? 5 : 4))
            if (d.run(d.initial, w) != avoid) words.push_back(w);
        for (std::size_t x = 0; x < words.size(); ++x)
            for (std::size_t y = x + 1; y < words.size(); ++y) {
                const State p = d.run(d.initial, words[x]), q = d.run(d.initial, words[y]);
                if (labels[p] == labels[q]) continue;
                ++pairs;
                INFO(format_word(d.alphabet, words[x]) << " / " << format_word(d.alphabet, words[y]));
                CHECK_FALSE(eos_depth_types_equal(words[x], words[y], k, false, depth));
            }
    }
    CHECK(separations >= 10);
    CHECK(conflicts >= 10);
    CHECK(pairs >= 300);
    WARN("labelled probe: " << separations << " separations (" << pairs << " pairs of differently labelled short words, each with "
                            << "different types), " << conflicts << " conflicts whose words have equal types");
}
