// Definite languages: the local questions first (docs/WINDOWS.md §5b,
// ClassifyOptions::window_definite_local_first). For a definite language hybrid_k = local_k
// (Corollary 10.7), so classify lets the local questions share the budget and asks a hybrid question
// only where its local answer stayed unknown. Checked against classify with the ordering off (each
// question its own share, as before), on random definite DFAs over 3 and 4 letters at a small work
// budget, so that many questions are stopped:
// - wherever both orderings answer, they agree (both answers are proofs);
// - every answer either gives keeps hybrid_k = local_k wherever both are known (Corollary 10.7,
//   through two different searches when the hybrid question was asked);
// - the answers the ordering adds re-verify through the certificate checker, and it adds some, so
//   that the comparison is not vacuous; the answers it loses (a hybrid question that only the
//   hybrid search answered, now asked with less) are counted and must be fewer than those it adds;
// - the work stays within the budget, and a hybrid question asked after the local ones says so.
#include "automata/algebra/budget.hh"
#include "automata/algebra/classify.hh"
#include "automata/dfa_json.hh"
#include "ltl/printer.hh"
#include "support/random_formula.hh"
#include "support/window_support.hh"

#include <set>

using namespace ltlkit;
using namespace ltlkit::automata;
using namespace ltlkit::automata::algebra;
using namespace ltlkit::testing;

TEST_CASE("definite languages: local questions first adds answers that re-verify, within the budget") {
    // random LTL[Y<=k] formulas over four letters (definite languages), as the window-budget bench of
    // docs/PERFORMANCE.md draws its hybrid ones, with 6-12-state minimal DFAs
    constexpr std::uint64_t kWork = 150'000;
    const std::vector<std::string> atoms{"a", "b", "c", "d"};
    std::mt19937_64 rng(20261208);
    std::set<std::string> seen;
    std::size_t agree = 0, added = 0, lost = 0, deferred_asked = 0, dfas = 0;
    for (int draw = 0; draw < 20000 && dfas < 120; ++draw) {
        const unsigned wk = unsigned(2 + rng() % 3);
        const ltl::Formula f = random_formula(rng, ltl::FragmentKind::YLeqK, atoms, int(3 + rng() % 4), wk);
        if (!seen.insert(ltl::to_string(f)).second) continue;
        auto compiled = compile(f, atoms);
        if (!compiled) continue;
        const Dfa d = minimize(*compiled);
        if (d.num_states() < 6 || d.num_states() > 12) continue;
        ++dfas;
        const ClassifiedTwice both = classify_with_and_without(d, 4, kWork, &ClassifyOptions::window_definite_local_first);
        const Classification* a = &both.with;
        const Classification* b = &both.without;
        REQUIRE(a->classes.at(ClassKind::Definite) == true);
        INFO(ltl::to_string(f));
        CHECK(both.work_with <= kWork + kWork / 20);
        for (unsigned k = 2; k <= 4; ++k) {
            INFO("k = " << k);
            for (const Classification* c : {a, b})
                if (c->local_k.at(k) != Answer::Unknown && c->hybrid_k.at(k) != Answer::Unknown)
                    CHECK(c->local_k.at(k) == c->hybrid_k.at(k));
            if (a->certificates.at(window_class_id(true, k)).fact.find("asked after every local question") != std::string::npos)
                ++deferred_asked;
            for (bool hybrid : {false, true}) {
                const Answer x = (hybrid ? a->hybrid_k : a->local_k).at(k), y = (hybrid ? b->hybrid_k : b->local_k).at(k);
                const ClassId id = window_class_id(hybrid, k);
                INFO(to_string(id));
                if (x != Answer::Unknown && y != Answer::Unknown) {
                    CHECK(x == y);
                    ++agree;
                } else if (x != Answer::Unknown) {
                    ++added;
                    const Certificate& c = a->certificates.at(id);
                    if (!c.formula_omitted) CHECK(reverifies(c, d));
                } else if (y != Answer::Unknown) {
                    ++lost;
                }
            }
        }
    }
    INFO(dfas << " definite DFAs: " << agree << " answers known both ways, " << added << " added by the ordering, " << lost
              << " lost, " << deferred_asked << " hybrid questions asked after the local ones");
    CHECK(dfas >= 20);
    CHECK(agree > 0);
    CHECK(added > 0);
    CHECK(lost < added);
}

TEST_CASE("a window question with a work bound of 1 stops at once, whatever route it takes") {
    // The formula on which classify once ran 705,349 steps over a budget of 150,000: a definite
    // language whose DFA has Theorem 10.8's shape, whose route through the residuals took half of a
    // bound of 1 as 0, i.e. no bound (docs/PERFORMANCE.md, "The sink-state route's formula in
    // word-parallel steps"); then random formulas of LTL[P,Y<=k] over three letters.
    const std::vector<std::string> atoms{"a", "b", "c", "d"};
    std::vector<Dfa> dfas{dfa_of(std::string("(!(b & a & c) <-> Y<=3 (Y<=3 b | !d)) | !(!c & !c | Y<=3 (a <-> a)) -> Y<=3 "
                                             "Y<=3 !(b & d <-> (c <-> b))"),
                                 atoms)};
    std::mt19937_64 rng(5);
    for (int draw = 0; draw < 2000 && dfas.size() < 30; ++draw) {
        const ltl::Formula f =
            random_formula(rng, ltl::FragmentKind::PYLeqK, {"a", "b", "c"}, int(3 + rng() % 3), unsigned(2 + rng() % 2));
        auto compiled = compile(f, {"a", "b", "c"});
        if (!compiled) continue;
        Dfa d = minimize(*compiled);
        if (d.num_states() >= 4 && locally_r_trivial_by_pair_graph(d)) dfas.push_back(std::move(d));
    }
    REQUIRE(dfas.size() >= 20);
    std::uint64_t most = 0;
    for (const Dfa& d : dfas)
        for (unsigned k : {2u, 3u, 4u})
            for (bool hybrid : {false, true}) {
                if (!hybrid && !definite_by_pair_graph(d)) continue;
                WindowOptions o;
                o.work_limit = 1;
                const std::uint64_t w0 = budget_work_done();
                const WindowDecision w = hybrid ? decide_hybrid_k(d, k, o) : decide_local_k(d, k, o);
                const std::uint64_t used = budget_work_done() - w0;
                most = std::max(most, used);
                INFO(to_json(d) << " k = " << k << (hybrid ? " hybrid" : " local") << ": " << used << " steps");
                CHECK(used <= 200);  // every strategy stops at its first poll (one charge may cover a few)
                (void)w;
            }
    INFO("most steps used: " << most);
    CHECK(most > 0);
}
