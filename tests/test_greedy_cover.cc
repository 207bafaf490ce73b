// The word-parallel greedy cover and the index of the others behind the weakened characteristic
// formulas of the sink-state strategy (docs/WINDOWS.md §3c, step 4; window_strategies.hh), each
// against a second route that does not share its code:
// - greedy_cover on bit columns against the greedy written one other at a time (as the docs state
//   it: most new exclusions per unit of cost, the first of equal scores, then each pick whose
//   exclusions the other remaining picks cover dropped in order), on random instances whose number
//   of others is and is not a multiple of 64, with infeasible ones among them;
// - OthersIndex::differs against the comparisons it replaces (ground type, own type, membership of
//   a type in the window), on the window types of random words;
// - both under a spent budget: greedy_cover gives up, and an index built past the budget excludes
//   nothing (the caller, which finds the budget spent, discards what it builds).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <random>
#include <vector>

#include "automata/algebra/budget.hh"
#include "automata/algebra/window_strategies.hh"

using namespace ltlkit;
using namespace ltlkit::automata;
using namespace ltlkit::automata::algebra;
using namespace ltlkit::automata::algebra::window_strategies;

namespace {

// The greedy of docs/WINDOWS.md §3c, step 4, one other at a time.
std::optional<std::vector<std::size_t>> reference_cover(const std::vector<std::vector<bool>>& excl,
                                                        const std::vector<std::size_t>& cost, std::size_t others) {
    const std::size_t n = excl.size();
    std::vector<bool> done(others, false), used(n, false);
    std::size_t left = others;
    while (left > 0) {
        std::size_t best = n;
        double score = 0;
        for (std::size_t c = 0; c < n; ++c) {
            if (used[c]) continue;
            std::size_t gain = 0;
            for (std::size_t i = 0; i < others; ++i) gain += !done[i] && excl[c][i];
            if (gain > 0 && double(gain) / double(cost[c]) > score) score = double(gain) / double(cost[c]), best = c;
        }
        if (best == n) return std::nullopt;
        used[best] = true;
        for (std::size_t i = 0; i < others; ++i)
            if (!done[i] && excl[best][i]) done[i] = true, --left;
    }
    for (std::size_t c = 0; c < n; ++c) {
        if (!used[c]) continue;
        bool covered = true;
        for (std::size_t i = 0; i < others && covered; ++i) {
            bool any = false;
            for (std::size_t d = 0; d < n && !any; ++d) any = d != c && used[d] && excl[d][i];
            covered = any;
        }
        if (covered) used[c] = false;
    }
    std::vector<std::size_t> out;
    for (std::size_t c = 0; c < n; ++c)
        if (used[c]) out.push_back(c);
    return out;
}

CoverBits to_bits(const std::vector<bool>& column) {
    CoverBits b(cover_words(column.size()), 0);
    for (std::size_t i = 0; i < column.size(); ++i)
        if (column[i]) b[i / 64] |= std::uint64_t{1} << (i % 64);
    return b;
}

}  // namespace

TEST_CASE("greedy_cover on bit columns picks what the one-other-at-a-time greedy picks", "[windows][cover]") {
    std::mt19937_64 rng(20261207);
    const std::size_t sizes[] = {0, 1, 5, 63, 64, 65, 127, 128, 129, 200, 331};
    std::size_t feasible = 0, infeasible = 0, nonempty_drop = 0;
    for (int trial = 0; trial < 600; ++trial) {
        const std::size_t others = sizes[std::size_t(trial) % std::size(sizes)];
        const std::size_t n = 1 + rng() % 12;
        const double density = 0.05 + 0.6 * double(rng() % 100) / 100.0;
        std::vector<std::vector<bool>> excl(n, std::vector<bool>(others));
        std::vector<std::size_t> cost(n);
        for (std::size_t c = 0; c < n; ++c) {
            cost[c] = 1 + rng() % (trial % 3 == 0 ? 2 : 20);  // many equal scores in a third of the trials
            for (std::size_t i = 0; i < others; ++i) excl[c][i] = double(rng() % 1000) / 1000.0 < density;
        }
        std::vector<CoverBits> bits;
        for (const auto& col : excl) bits.push_back(to_bits(col));
        const auto want = reference_cover(excl, cost, others);
        const auto got = greedy_cover(bits, cost, others);
        INFO("trial " << trial << ", " << n << " candidates, " << others << " others");
        REQUIRE(want.has_value() == got.has_value());
        if (!want) {
            ++infeasible;
            continue;
        }
        ++feasible;
        REQUIRE(*want == *got);
        // the picks exclude every other
        for (std::size_t i = 0; i < others; ++i) {
            bool any = false;
            for (std::size_t c : *got) any = any || excl[c][i];
            REQUIRE(any);
        }
        nonempty_drop += got->size() < n ? 1 : 0;  // a choice among the candidates, not all of them
    }
    // the comparison covers both outcomes
    CHECK(feasible >= 200);
    CHECK(infeasible >= 50);
    CHECK(nonempty_drop >= 100);
}

TEST_CASE("OthersIndex::differs gives the columns of the comparisons it replaces", "[windows][cover]") {
    std::mt19937_64 rng(7);
    std::size_t checked = 0;
    for (unsigned k : {2u, 3u}) {
        for (std::size_t sigma : {2u, 3u}) {
            WindowTypes types{k, sigma, {}, {}};
            const unsigned D = 3;
            for (int w = 0; w < 60; ++w) {
                Word word(1 + rng() % 12);
                for (auto& s : word) s = static_cast<Symbol>(rng() % sigma);
                types.types(word, D);
            }
            for (unsigned j = 1; j <= D; ++j) {
                std::vector<long> level;
                for (long id = 0; id < long(types.sig.size()); ++id)
                    if (type_level(types, id) == j) level.push_back(id);
                REQUIRE(level.size() >= 2);
                for (int trial = 0; trial < 20; ++trial) {
                    const long t = level[rng() % level.size()];
                    std::vector<long> others;
                    for (long g : level)
                        if (g != t && rng() % 4 != 0) others.push_back(g);  // a subset, as a level's others are
                    const OthersIndex index(types, others);
                    REQUIRE(index.complete);
                    auto column = [&](auto&& excludes) {
                        std::vector<bool> col(others.size());
                        for (std::size_t i = 0; i < others.size(); ++i) col[i] = excludes(others[i]);
                        return to_bits(col);
                    };
                    const long ground = type_ground(types, t), own = types.sig[std::size_t(t)][0];
                    CHECK(index.differs(index.ground, ground) ==
                          column([&](long g) { return type_ground(types, g) != ground; }));
                    CHECK(index.differs(index.own, own) == column([&](long g) { return types.sig[std::size_t(g)][0] != own; }));
                    for (long si : type_window(types, t)) {
                        CHECK(index.differs(index.member, si) == column([&](long g) {
                                  const auto& s = types.sig[std::size_t(g)];
                                  return !std::binary_search(s.begin() + 1, s.end(), si);
                              }));
                        ++checked;
                    }
                    // a key no other has: every other differs
                    CHECK(index.differs(index.member, -5) == column([](long) { return true; }));
                }
            }
        }
    }
    CHECK(checked >= 300);
}

TEST_CASE("past the budget the greedy gives up and an index excludes nothing", "[windows][cover]") {
    std::vector<CoverBits> bits{CoverBits{0b0111}, CoverBits{0b1000}};
    REQUIRE(greedy_cover(bits, {1, 1}, 4) == std::optional<std::vector<std::size_t>>({0, 1}));
    WindowTypes types{2, 2, {}, {}};
    for (const Word& w : {Word{0, 1, 1}, Word{1, 0, 0, 1}, Word{0, 0, 0}}) types.types(w, 2);
    std::vector<long> level;
    for (long id = 0; id < long(types.sig.size()); ++id)
        if (type_level(types, id) == 2) level.push_back(id);
    SearchBudget spent;
    spent.work = 1;
    BudgetScope scope(spent);
    budget_charge(2);  // the work bound is reached
    REQUIRE(budget_exhausted());
    CHECK_FALSE(greedy_cover(bits, {1, 1}, 4).has_value());
    const OthersIndex index(types, level);
    CHECK_FALSE(index.complete);
    CHECK(index.differs(index.own, types.sig[std::size_t(level[0])][0]) == CoverBits(cover_words(level.size()), 0));
}
