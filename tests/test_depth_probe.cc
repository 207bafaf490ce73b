// The depth probe (automata/algebra/depth_probe.cc): its conflicts re-verify on the words, it agrees
// with the window decisions on random DFAs, its conflicts give families, and on separation its
// characteristic-formula disjunction compiles to the language.
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

TEST_CASE("Depth probe: conflicts re-verify on the words, formulas of depth D separate at depth D, Σ*a never separates",
          "[windows]") {
    // Σ*a (LC26): a conflict at every depth, for both fragments, and the pair checks out directly.
    Dfa ya = dfa_of("Y a");
    for (unsigned k = 2; k <= 3; ++k)
        for (bool hybrid : {false, true})
            for (unsigned depth = 1; depth <= 4; ++depth) {
                DepthProbe pr = probe_depth(ya, k, hybrid, depth, 60'000);
                INFO("k = " << k << (hybrid ? " hybrid" : " local") << " depth " << depth);
                if (pr.status == DepthProbe::Status::Limit) continue;
                REQUIRE(pr.status == DepthProbe::Status::Conflict);
                CHECK(ya.accepts(pr.accepted));
                CHECK(!ya.accepts(pr.rejected));
                CHECK(eos_depth_types_equal(pr.accepted, pr.rejected, k, hybrid, depth));
            }
    // Random formulas of the fragments: their depth separates, and conflicts below it re-verify.
    std::mt19937_64 rng(91);
    int separated = 0;
    for (unsigned k = 2; k <= 3; ++k)
        for (bool hybrid : {false, true}) {
            ltl::Fragment fr{hybrid ? ltl::FragmentKind::PYLeqK : ltl::FragmentKind::YLeqK, k};
            for (int i = 0; i < 10; ++i) {
                ltl::Formula f = testing::random_formula(rng, fr, AB, 3);
                Dfa d = dfa_of(f);
                const auto D = static_cast<unsigned>(ltl::temporal_depth(f));
                INFO(ltl::to_string(f) << " k = " << k << (hybrid ? " hybrid" : " local") << " depth " << D);
                DepthProbe pr = probe_depth(d, k, hybrid, D, 100'000);
                CHECK(pr.status != DepthProbe::Status::Conflict);
                separated += pr.status == DepthProbe::Status::Separates;
                if (D >= 1) {
                    DepthProbe below = probe_depth(d, k, hybrid, D - 1, 100'000);
                    if (below.status == DepthProbe::Status::Conflict) {
                        CHECK(d.accepts(below.accepted) != d.accepts(below.rejected));
                        CHECK(eos_depth_types_equal(below.accepted, below.rejected, k, hybrid, D - 1));
                    }
                }
            }
        }
    CHECK(separated >= 30);
}

TEST_CASE("Depth probe vs the window decisions on random DFAs: a yes of depth D never conflicts at D, a no never separates",
          "[windows]") {
    std::mt19937_64 rng(2026);
    std::size_t compared = 0;
    for (int trial = 0; trial < 120 && compared < 40; ++trial) {
        Dfa d = random_dfa(rng, 2 + trial % 3, 2);
        const bool def = definite_by_pair_graph(d);
        if (!locally_r_trivial_by_pair_graph(d)) continue;
        INFO(to_json(d));
        for (unsigned k = 2; k <= 3; ++k)
            for (bool hybrid : {false, true}) {
                if (!hybrid && !def) continue;
                WindowDecision w = hybrid ? decide_hybrid_k(d, k) : decide_local_k(d, k);
                INFO(to_string(w.certificate.class_id) << " " << to_string(w.answer) << ": " << w.certificate.fact);
                if (w.answer == Answer::Yes && w.certificate.formula) {
                    auto g = ltl::parse_formula(*w.certificate.formula);
                    REQUIRE(g.ok());
                    const auto D = static_cast<unsigned>(ltl::temporal_depth(*g));
                    DepthProbe pr = probe_depth(d, k, hybrid, D, 60'000);
                    CHECK(pr.status != DepthProbe::Status::Conflict);
                    ++compared;
                }
                if (w.answer == Answer::No)
                    for (unsigned depth = 1; depth <= 3; ++depth) {
                        DepthProbe pr = probe_depth(d, k, hybrid, depth, 60'000);
                        CHECK(pr.status != DepthProbe::Status::Separates);
                        if (pr.status == DepthProbe::Status::Conflict)
                            CHECK(eos_depth_types_equal(pr.accepted, pr.rejected, k, hybrid, depth));
                        ++compared;
                    }
            }
    }
    CHECK(compared >= 40);
}

TEST_CASE("Families from the probe's conflicts: H(Y a -> P(b & Y Y c)) is not in LTL[P,Y<=3], with tails beyond the search's",
          "[windows]") {
    // The depth-3 conflict of the probe, read as x·p^r·y / x·p^r·z (docs/WINDOWS.md §5); the family
    // search itself stops at tails of length 3 over three letters.
    const std::vector<std::string> ABC = {"a", "b", "c"};
    Dfa d = dfa_of("H(Y a -> P(b & Y Y c))", ABC);
    auto w = [&](const std::string& s) { return *parse_word(ABC, s); };
    DepthProbe pr = probe_depth(d, 3, true, 3, 500'000);
    REQUIRE(pr.status == DepthProbe::Status::Conflict);
    auto fam = family_from_pair(d, pr.accepted, pr.rejected, 3, true);
    REQUIRE(fam);
    CHECK(fam->y.size() + fam->z.size() > 6);
    CHECK(family_eos_bisimilar(fam->p, fam->y, fam->z, 3, true));
    Certificate c = window_certificate(window_class_id(true, 3), false, CertificateKind::HybridBisimulation);
    c.family = *fam;
    CHECK(reverifies(c, d));
    auto [u, v] = fam->at(8);
    CHECK(d.accepts(u) != d.accepts(v));
    for (unsigned depth = 1; depth <= 3; ++depth) CHECK(eos_depth_types_equal(u, v, 3, true, depth));
    // words without a repeated block in their common prefix give nothing
    CHECK(!family_from_pair(d, w("abcbaa"), w("acbaa"), 3, true));
}

TEST_CASE("Depth probe formulas: on separation the characteristic-formula disjunction compiles to the language", "[windows]") {
    // Two routes: the exhaustive exploration says the depth-D EOS types decide membership; the
    // formula built from those types, compiled by the monitor construction, must define the DFA.
    std::mt19937_64 rng(16);
    int built = 0;
    for (unsigned k = 2; k <= 3; ++k)
        for (bool hybrid : {false, true}) {
            ltl::Fragment fr{hybrid ? ltl::FragmentKind::PYLeqK : ltl::FragmentKind::YLeqK, k};
            for (int i = 0; i < 8; ++i) {
                ltl::Formula f = testing::random_formula(rng, fr, AB, 2);
                Dfa d = dfa_of(f);
                const auto D = static_cast<unsigned>(std::max<std::size_t>(1, ltl::temporal_depth(f)));
                DepthProbe pr = probe_depth(d, k, hybrid, D, 50'000, true);
                if (pr.status != DepthProbe::Status::Separates) continue;
                INFO(ltl::to_string(f) << " k = " << k << (hybrid ? " hybrid" : " local") << " depth " << D);
                REQUIRE(!pr.formula.is_null());
                CHECK(formula_in_window_fragment(pr.formula, k, hybrid));
                CHECK(ltl::temporal_depth(pr.formula) <= D);
                auto g = compile(pr.formula, AB);
                REQUIRE(g.ok());
                CHECK(!distinguishing_word(minimize(*g), d));
                ++built;
            }
        }
    CHECK(built >= 16);
}
