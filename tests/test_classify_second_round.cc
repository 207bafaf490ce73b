// The second round of the window questions (docs/WINDOWS.md §5b, ClassifyOptions::
// window_second_round): what the questions left of the work budget goes to those a work bound
// stopped. Checked against classify with the round off, on random locally R-trivial DFAs and random
// definite DFAs over 3 and 4 letters at a small work budget (so that many questions are stopped):
// - every answer known without the round is the same with it (the first round is unchanged);
// - every answer the round adds re-verifies through the certificate checker (a formula compiled back
//   to the DFA, or a family re-checked), and the round answers at least one question, so that the
//   comparison is not vacuous;
// - the work the window questions used stays within the budget (the polls of budget.hh overshoot a
//   share by at most one poll's charge), and an unknown asked again says so.
#include "automata/algebra/budget.hh"
#include "automata/algebra/classify.hh"
#include "automata/dfa_json.hh"
#include "support/window_support.hh"

using namespace ltlkit;
using namespace ltlkit::automata;
using namespace ltlkit::automata::algebra;
using namespace ltlkit::testing;

namespace {

std::vector<Dfa> sample(std::uint64_t seed, std::size_t wanted) {
    std::mt19937_64 rng(seed);
    std::vector<Dfa> out;
    for (int tries = 0; tries < 4'000'000 && out.size() < wanted; ++tries) {
        if (out.size() % 6 == 5) {  // a definite language now and then: its local questions are open
            out.push_back(random_definite(rng, 3, 2 + rng() % 2));
            continue;
        }
        // as the windows table of docs/PERFORMANCE.md draws them: exactly 4 or 5 states over 4 letters
        const std::size_t states = 4 + out.size() % 2;
        Dfa d = random_dfa(rng, states, 4);
        if (d.num_states() != states || !locally_r_trivial_by_pair_graph(d) || definite_by_pair_graph(d)) continue;
        out.push_back(std::move(d));
    }
    return out;
}

}  // namespace

TEST_CASE("the second round of the window questions only adds answers that re-verify, within the budget") {
    constexpr std::uint64_t kWork = 150'000;
    const std::vector<Dfa> dfas = sample(20261207, 48);
    REQUIRE(dfas.size() == 48);
    std::size_t known_both = 0, added = 0, asked_again_unknown = 0;
    for (const Dfa& d : dfas) {
        const ClassifiedTwice both = classify_with_and_without(d, 4, kWork, &ClassifyOptions::window_second_round);
        const Classification* a = &both.with;
        const Classification* b = &both.without;
        INFO(to_json(d));
        CHECK(both.work_with <= kWork + kWork / 20);
        for (bool hybrid : {false, true}) {
            const auto& with = hybrid ? a->hybrid_k : a->local_k;
            const auto& without = hybrid ? b->hybrid_k : b->local_k;
            for (unsigned k = 2; k <= 4; ++k) {
                const ClassId id = window_class_id(hybrid, k);
                INFO(to_string(id));
                if (without.at(k) != Answer::Unknown) {
                    CHECK(with.at(k) == without.at(k));
                    ++known_both;
                    continue;
                }
                const Certificate& c = a->certificates.at(id);
                if (with.at(k) == Answer::Unknown) {
                    if (c.fact.find("asked a second time") != std::string::npos) ++asked_again_unknown;
                    continue;
                }
                ++added;
                if (!c.formula_omitted) CHECK(reverifies(c, d));  // a yes over the formula cap cannot be re-verified
            }
        }
    }
    INFO(known_both << " answers known without the round, " << added << " added by it, " << asked_again_unknown
                    << " asked again and still unknown");
    CHECK(known_both > 0);
    CHECK(added > 0);
}
