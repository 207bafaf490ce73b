// Corollary 10.11 (docs/WINDOWS.md §10): a window family read from a state q whose two words keep
// their run inside the SCC of q, differ in membership of the residual L_q, and have bisimilar EOS
// nodes for the window alone proves L ∉ LTL[P,Y<=k]. Each statement against a route that does not
// use the SCC restriction:
// - soundness on members: random formulas of LTL[P,Y<=k] compiled to DFAs, where no such family may
//   exist, and the search finds none;
// - every family found, re-checked on the DFA itself (not the restricted one): the runs of its words,
//   simulated state by state, stay inside the SCC (every state visited reaches q and is reached from
//   it), L_q's membership differs, and the EOS depth types of the two words, computed on the words
//   by the direct route of the depth probe (depth_probe.hh), agree to a depth that grows with r;
// - the default decision against the decision without the route (WindowOptions::inner_scc off): no
//   "yes" of one is a "no" of the other, and the certificates re-verify;
// - forged certificates of the route are refused.
#include <functional>

#include "automata/algebra/depth_probe.hh"
#include "automata/algebra/window_reduction.hh"
#include "automata/dfa_json.hh"
#include "ltl/printer.hh"
#include "support/random_formula.hh"
#include "support/window_support.hh"

using namespace ltlkit;
using namespace ltlkit::automata;
using namespace ltlkit::automata::algebra;
using namespace ltlkit::testing;

namespace {

// reach[p][q]: q is reachable from p.
std::vector<std::vector<char>> reachability(const Dfa& d) {
    std::vector<std::vector<char>> reach;
    for (State p = 0; p < d.num_states(); ++p) reach.push_back(reachable_from(d, p));
    return reach;
}

// Does some SCC that is not a bottom SCC have two or more states?
bool has_inner_scc(const Dfa& d) {
    const auto reach = reachability(d);
    for (State p = 0; p < d.num_states(); ++p) {
        bool two = false, bottom = true;
        for (State q = 0; q < d.num_states(); ++q) {
            if (q != p && reach[p][q] && reach[q][p]) two = true;
            if (reach[p][q] && !reach[q][p]) bottom = false;
        }
        if (two && !bottom) return true;
    }
    return false;
}

// The family's word for r, read from the state after x (x removed).
std::pair<Word, Word> from_q(const WordFamily& f, std::size_t r) {
    WordFamily g = f;
    g.x.clear();
    return g.at(r);
}

// The run of w from q stays inside q's SCC, by simulation on the DFA and its reachability.
bool stays_inside(const Dfa& d, const std::vector<std::vector<char>>& reach, State q, const Word& w) {
    State s = q;
    for (Symbol a : w) {
        s = d.next(s, a);
        if (!reach[q][s] || !reach[s][q]) return false;
    }
    return true;
}

// Random minimal DFAs that are locally R-trivial and not definite (so the hybrid question is open to
// the searches) with an SCC of two or more states that is not a bottom SCC.
std::vector<Dfa> inner_scc_dfas(std::uint64_t seed, std::size_t wanted) {
    std::mt19937_64 rng(seed);
    std::vector<Dfa> out;
    for (int tries = 0; tries < 400'000 && out.size() < wanted; ++tries) {
        const std::size_t sigma = 2 + tries % 2;
        Dfa d = random_dfa(rng, 4 + rng() % 4, sigma);
        if (d.num_states() < 4 || !has_inner_scc(d) || !locally_r_trivial_by_pair_graph(d) || definite_by_pair_graph(d))
            continue;
        out.push_back(std::move(d));
    }
    return out;
}

}  // namespace

TEST_CASE("Corollary 10.11: no SCC family on members of LTL[P,Y<=k]", "[windows]") {
    std::mt19937_64 rng(101'101);
    std::size_t formulas = 0, with_inner = 0;
    for (int i = 0; i < 4000 && with_inner < 30; ++i) {
        const unsigned k = 2 + i % 2;
        const std::vector<std::string> alphabet = i % 3 == 2 ? std::vector<std::string>{"a", "b", "c"} : AB;
        const ltl::Formula phi = random_formula(rng, ltl::FragmentKind::PYLeqK, alphabet, 5, k);
        const Dfa d = dfa_of(phi, alphabet);
        ++formulas;
        if (!has_inner_scc(d)) continue;
        ++with_inner;
        std::size_t steps = 0;
        INFO(ltl::to_string(phi) << " k = " << k << ": " << to_json(d));
        CHECK_FALSE(inner_scc_no(d, k, WindowOptions{}, &steps).has_value());
    }
    CHECK(with_inner >= 20);
    WARN("Corollary 10.11 on members: " << with_inner << " of " << formulas
                                        << " random formulas of LTL[P,Y<=k] with an inner SCC of two or more states, no family found");
}

TEST_CASE("Corollary 10.11: SCC families re-checked on the DFA, and against the decision without them", "[windows]") {
    const std::vector<Dfa> dfas = inner_scc_dfas(101'102, 60);
    REQUIRE(dfas.size() >= 60);
    WindowOptions with_route, without;
    with_route.work_limit = without.work_limit = 200'000;  // about classify's share of one question
    without.inner_scc = false;
    std::size_t families = 0, words = 0, newly = 0, agree = 0;
    for (const Dfa& d : dfas) {
        const auto reach = reachability(d);
        for (unsigned k = 2; k <= 3; ++k) {
            std::size_t steps = 0;
            const auto f = inner_scc_no(d, k, WindowOptions{}, &steps);
            INFO(to_json(d) << " k = " << k);
            if (f) {
                ++families;
                const State q = d.run(d.initial, f->x);
                CHECK(scc_family_from(d, *f) == f->r_min);
                for (std::size_t r = f->r_min; r < f->r_min + 4; ++r) {
                    const auto [u, v] = from_q(*f, r);
                    INFO("r = " << r << ": " << format_word(d.alphabet, u) << " / " << format_word(d.alphabet, v));
                    CHECK(stays_inside(d, reach, q, u));
                    CHECK(stays_inside(d, reach, q, v));
                    CHECK(d.is_accepting(d.run(q, u)) != d.is_accepting(d.run(q, v)));
                    ++words;
                }
                // Lemma 1 / Lemma 7 (local): the EOS types agree to depth d once the periodic part is
                // longer than d·k; checked on the words at the depth that r = 2d·k/|p| + 1 allows.
                for (unsigned depth = 1; depth <= 3; ++depth) {
                    const std::size_t r = std::max<std::size_t>(f->r_min, depth * k / f->p.size() + 2);
                    const auto [u, v] = from_q(*f, r);
                    if (u.size() + v.size() > 400) break;
                    CHECK(eos_depth_types_equal(u, v, k, false, depth));
                }
            }
            const WindowDecision with = decide_hybrid_k(d, k, with_route);
            const WindowDecision off = decide_hybrid_k(d, k, without);
            if (with.answer != Answer::Unknown && off.answer != Answer::Unknown) {
                CHECK(with.answer == off.answer);
                ++agree;
            }
            if (f) CHECK(with.answer != Answer::Yes);
            if (with.answer != Answer::Unknown && !with.certificate.formula_omitted) CHECK(reverifies(with.certificate, d));
            const bool by_route = with.certificate.window && with.certificate.window->reduction == "scc";
            newly += by_route && off.answer == Answer::Unknown;
        }
    }
    WARN("Corollary 10.11: " << dfas.size() << " DFAs, " << families << " SCC families (" << words
                             << " pairs of words re-checked on the DFA); " << agree << " answers of both decisions agree, "
                             << newly << " answered only through the route");
}

TEST_CASE("Corollary 10.11's certificate re-verifies, and forgeries of it are refused", "[windows]") {
    const std::vector<Dfa> dfas = inner_scc_dfas(101'103, 40);
    std::size_t honest = 0, left = 0, left_differing = 0;
    for (const Dfa& d : dfas) {
        const unsigned k = 2;
        std::size_t steps = 0;
        const auto f = inner_scc_no(d, k, WindowOptions{}, &steps);
        if (!f) continue;
        Certificate c = window_certificate(window_class_id(true, k), false, CertificateKind::HybridBisimulation);
        c.family = *f;
        c.window = WindowFields{.k = k, .modalities = "window", .reduction = "scc"};
        if (!f->q.empty()) c.window->family_form = "alternating";
        INFO(to_json(d) << " " << family_word_text(d.alphabet, f->p) << " / " << family_word_text(d.alphabet, f->y) << " / "
                        << family_word_text(d.alphabet, f->z));
        REQUIRE(reverifies(c, d));
        ++honest;
        // Not a bottom SCC: the bottom-SCC reduction's check refuses it.
        Certificate bottom = c;
        bottom.window->reduction = "bottom_scc";
        CHECK_FALSE(reverifies(bottom, d));
        // One r too early: the words leave the SCC or agree there (r_min is the least).
        if (f->r_min > 1) {
            Certificate early = c;
            early.family->r_min = f->r_min - 1;
            CHECK_FALSE(reverifies(early, d));
        }
        // The same tail twice: membership never differs.
        Certificate same = c;
        same.family->z = same.family->y;
        CHECK_FALSE(reverifies(same, d));
        // Both tails extended by a letter that leaves the SCC from the end of the first word at r_min:
        // refused even where membership still differs, which a plain window family would accept.
        const auto reach = reachability(d);
        const State q = d.run(d.initial, f->x);
        const State end = d.run(q, from_q(*f, f->r_min).first);
        for (Symbol a = 0; a < d.num_symbols(); ++a) {
            const State t = d.next(end, a);
            if (reach[q][t] && reach[t][q]) continue;
            Certificate out = c;
            out.family->y.push_back(a);
            out.family->z.push_back(a);
            CHECK_FALSE(reverifies(out, d));
            ++left;
            const WordFamily& o = *out.family;
            left_differing += (o.q.empty() ? membership_differs_from(d, o.x, o.p, o.y, o.z)
                                           : alternating_differs_from(d, o.x, o.p, o.q, o.y, o.z))
                                  .has_value();
            break;
        }
    }
    CHECK(honest >= 10);
    CHECK(left >= 5);
    WARN("Corollary 10.11's certificates: " << honest << " re-verified; every forgery refused, " << left
                                            << " of them words that leave the SCC (" << left_differing
                                            << " with membership still differing)");
}
