// The folded graphs behind a window "no" (automata/algebra/folded_graph.cc): bisimilar folded graphs
// are checked against random fragment formulas on the pumped words, and the alternating families'
// membership computation and two-cycle bisimulation against the words.
#include <catch2/catch.hpp>

#include <map>
#include <random>
#include <set>

#include <nlohmann/json.hpp>

#include "automata/algebra/classify.hh"
#include "automata/algebra/depth_probe.hh"
#include "automata/algebra/windows.hh"
#include "automata/algorithms.hh"
#include "automata/dfa_json.hh"
#include "automata/monitor.hh"
#include "ltl/fragment.hh"
#include "ltl/parser.hh"
#include "ltl/printer.hh"
#include "ltl/semantics.hh"
#include "support/dfa_builders.hh"
#include "support/random_formula.hh"
#include "support/window_support.hh"

using namespace ltlkit;
using namespace ltlkit::testing;  // and through it ltlkit::automata and ltlkit::automata::algebra

TEST_CASE("Bisimilar folded graphs: random fragment formulas agree on x·p^r·y and x·p^r·z for large r", "[windows]") {
    std::mt19937_64 rng(7);
    std::vector<Word> tails;
    for (std::size_t len = 0; len <= 2; ++len)
        for (std::size_t bits = 0; bits < (std::size_t(1) << len); ++bits) {
            Word u(len);
            for (std::size_t q = 0; q < len; ++q) u[q] = (bits >> q) & 1;
            tails.push_back(u);
        }
    const std::vector<Word> periods = {{0}, {0, 1}, {0, 0, 1}, {0, 1, 1}};
    std::size_t pairs = 0;
    for (unsigned k = 2; k <= 3; ++k)
        for (bool hybrid : {false, true}) {
            ltl::Fragment fr{hybrid ? ltl::FragmentKind::PYLeqK : ltl::FragmentKind::YLeqK, k};
            std::vector<ltl::Formula> fs;
            for (int i = 0; i < 25; ++i) fs.push_back(testing::random_formula(rng, fr, AB, 4));
            for (const Word& p : periods)
                for (const Word& y : tails)
                    for (const Word& z : tails) {
                        if (!(y < z) || !family_eos_bisimilar(p, y, z, k, hybrid)) continue;
                        ++pairs;
                        for (const Word& x : std::vector<Word>{{}, {1}, {1, 0}}) {
                            // depth <= 4 formulas: r >= (d+1)(ceil(k/|p|)+1)+1 suffices (docs/WINDOWS.md)
                            std::size_t r = 5 * (k + 1) + 2;
                            for (ltl::Formula f : fs) {
                                INFO(ltl::to_string(f) << " p=" << format_word(AB, p) << " y=" << format_word(AB, y)
                                                       << " z=" << format_word(AB, z) << " k=" << k);
                                CHECK(ltl::holds_at_eos(f, names(pumped(x, p, r, y))) ==
                                      ltl::holds_at_eos(f, names(pumped(x, p, r, z))));
                            }
                        }
                    }
        }
    CHECK(pairs > 10);
}

TEST_CASE("Alternating families: the membership computation and the two-cycle bisimulation agree with the words",
          "[windows]") {
    // Two independent routes for docs/WINDOWS.md §2b: alternating_differs_from against running the
    // DFA on the words x·(pʳqʳ)ʳ·pʳ·y / x·(pʳqʳ)ʳ·pʳ·qʳ·z themselves, and, where the two-cycle folded
    // graph has bisimilar EOS nodes (Lemma 7), the depth-d EOS types computed on the words
    // (eos_depth_types_equal, the direct route of §4) for d <= 3 at r = 8.
    std::mt19937_64 rng(5);
    std::size_t bisimilar = 0, witnesses = 0, compared = 0;
    for (int trial = 0; trial < 150; ++trial) {
        const std::size_t sigma = 2 + trial % 2;
        Dfa d = random_dfa(rng, 2 + trial % 3, sigma);
        auto pick = [&](std::size_t lo, std::size_t hi) {
            Word w(lo + rng() % (hi - lo + 1));
            for (auto& c : w) c = static_cast<Symbol>(rng() % sigma);
            return w;
        };
        const Word x = pick(0, 1), p = pick(1, 3), q = pick(1, 3), y = pick(0, 2), z = pick(0, 2);
        if (p == q) continue;
        WordFamily f;
        f.x = x, f.p = p, f.q = q, f.y = y, f.z = z;
        INFO(to_json(d) << " x=" << format_word(d.alphabet, x) << " p=" << format_word(d.alphabet, p)
                        << " q=" << format_word(d.alphabet, q) << " y=" << format_word(d.alphabet, y)
                        << " z=" << format_word(d.alphabet, z));
        auto differ = [&](std::size_t r) {
            auto [u, v] = f.at(r);
            return d.accepts(u) != d.accepts(v);
        };
        const auto r0 = alternating_differs_from(d, x, p, q, y, z);
        ++compared;
        if (r0) {
            for (std::size_t r = *r0; r <= 20; ++r) REQUIRE(differ(r));
            if (*r0 > 1) CHECK(!differ(*r0 - 1));
        } else {
            bool agrees = false;
            for (std::size_t r = 8; r <= 20 && !agrees; ++r) agrees = !differ(r);
            CHECK(agrees);  // (the periods of these DFAs are at most 4)
        }
        for (unsigned k = 2; k <= 3; ++k) {
            if (!alternating_eos_bisimilar(p, q, y, z, k, true)) continue;
            ++bisimilar;
            CHECK(alternating_eos_bisimilar(p, q, y, z, k, false));  // W and P bisimilar implies W bisimilar
            auto [u, v] = f.at(8);
            for (unsigned depth = 1; depth <= 3; ++depth) CHECK(eos_depth_types_equal(u, v, k, true, depth));
            witnesses += r0.has_value();
        }
    }
    WARN("alternating families: " << compared << " compared, " << bisimilar << " bisimilar, " << witnesses
                                  << " of them witnesses on their DFA");
    CHECK(bisimilar >= 5);
}

TEST_CASE("Alternating families: a 6-state 3-letter language is not in LTL[P,Y<=2], and tampered certificates fail",
          "[windows]") {
    // bench/data/window-unknowns/6-3-43.json: no one-period family within the bounds; every letter of
    // (abc)^ω and (bac)^ω sees the two other letters in a window of 2.
    Dfa d = minimal_abc({0, 1, 1, 0, 1, 1}, {1, 2, 3, 1, 2, 4, 1, 2, 5, 3, 3, 3, 2, 1, 3, 0, 1, 5});
    REQUIRE(d.num_states() == 6);
    // (decide_hybrid_k reaches this family only after every other search has failed, which takes
    // a minute without a budget; classify finds it within its default budget.)
    WordFamily f;
    f.p = {0, 1, 2};
    f.q = {1, 0, 2};
    f.y = {0};
    CHECK(alternating_eos_bisimilar(f.p, f.q, f.y, f.z, 2, true));
    CHECK(!alternating_eos_bisimilar(f.p, f.q, f.y, f.z, 1, true));  // a window of 1 tells the periods apart
    REQUIRE(alternating_differs_from(d, f.x, f.p, f.q, f.y, f.z) == std::optional<std::size_t>(1));
    Certificate c = window_certificate(window_class_id(true, 2), false, CertificateKind::HybridBisimulation);
    c.family = f;
    CHECK(reverifies(c, d));
    auto [u, v] = f.at(6);
    CHECK(d.accepts(u) != d.accepts(v));
    for (unsigned depth = 1; depth <= 4; ++depth) CHECK(eos_depth_types_equal(u, v, 2, true, depth));
    // tampered: another q (the graph's EOS nodes are no longer bisimilar), or the same words' tails swapped
    Certificate bad = c;
    bad.family->q = Word{0, 0, 1};
    CHECK(!reverifies(bad, d));
    bad = c;
    std::swap(bad.family->y, bad.family->z);
    CHECK(!reverifies(bad, d));
}
