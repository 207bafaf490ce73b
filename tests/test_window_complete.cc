// The universal partition of docs/WINDOWS.md §10 against the existing strategies: on random definite
// DFAs, the answer that Proposition 10.4 predicts from a certified partition (f constant on its blocks)
// must agree with every decided answer of decide_local_k, with the periodic-pair search (a family iff
// "no") and with the depth probe (separation at depth max(d, δ) iff "yes").
#include <map>
#include <tuple>

#include "automata/algebra/classes.hh"
#include "automata/algebra/window_complete.hh"
#include "automata/algebra/window_strategies.hh"
#include "support/window_support.hh"

using namespace ltlkit::automata;
using namespace ltlkit::automata::algebra;
using namespace ltlkit::testing;


TEST_CASE("Universal partition: certified predictions agree with every strategy on random definite DFAs", "[windows]") {
    std::mt19937_64 rng(4301);
    std::map<std::tuple<std::size_t, unsigned, std::size_t>, LocalPartition> cache;
    std::size_t compared = 0, decided = 0, disagreements = 0, uncertified = 0;
    for (int i = 0; i < 160; ++i) {
        const std::size_t sigma = 2 + i % 2;
        Dfa d = i % 4 < 2 ? random_definite(rng, sigma, 1 + rng() % (sigma == 2 ? 5 : 3))
                          : random_dfa(rng, 3 + rng() % 6, sigma);
        if (!definite_by_pair_graph(d)) continue;
        const std::size_t delta = DfaAnalysis(d).definite_degree_by_merging().value_or(0);
        if (delta == 0) continue;  // empty or universal: every fragment defines it
        for (unsigned k = 2; k <= 3; ++k) {
            auto key = std::make_tuple(sigma, k, delta);
            if (!cache.count(key))
                cache[key] = local_partition(sigma, k, delta, 8, window_strategies::periodic_pair_bounds(sigma), 2'000'000);
            const LocalPartition& p = cache[key];
            REQUIRE_FALSE(p.inconsistent);
            if (!p.certified) {
                ++uncertified;
                continue;
            }
            // f on Σ^δ (index: first letter most significant), constant on the blocks?
            std::vector<int> f(p.depth_blocks.size());
            for (std::size_t x = 0; x < f.size(); ++x) {
                Word w(delta);
                std::size_t y = x;
                for (std::size_t j = delta; j-- > 0; y /= sigma) w[j] = Symbol(y % sigma);
                f[x] = d.accepts(w);
            }
            bool member = true;
            for (std::size_t x = 0; x < f.size(); ++x) member = member && f[x] == f[p.depth_blocks[x]];
            ++compared;
            WindowDecision dec = decide_local_k(d, k);
            if (dec.answer != Answer::Unknown) {
                ++decided;
                if ((dec.answer == Answer::Yes) != member) ++disagreements;
                CHECK(reverifies(dec.certificate, d));
            }
            std::size_t steps = 0;
            bool exhausted = false;
            auto fam = window_strategies::search_periodic_pair(d, k, window_strategies::periodic_pair_bounds(sigma), &steps,
                                                               &exhausted);
            CHECK(fam.has_value() == !member);
            DepthProbe pr = probe_depth(d, k, false, std::max<unsigned>(p.depth, unsigned(delta)), 2'000'000);
            if (pr.status != DepthProbe::Status::Limit)
                CHECK((pr.status == DepthProbe::Status::Separates) == member);
        }
    }
    INFO("compared " << compared << ", decided by decide_local_k " << decided << ", uncertified " << uncertified);
    CHECK(disagreements == 0);
    CHECK(compared >= 40);
    WARN("universal partition: compared " << compared << " questions, " << decided << " decided by decide_local_k, "
                                          << disagreements << " disagreements, " << uncertified << " uncertified");
}
