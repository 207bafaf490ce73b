// Window types (windows.hh): interning of type signatures, the types of a word's positions and
// their characteristic formulas.
#include "automata/algebra/windows.hh"
#include "automata/algebra/window_strategies.hh"

#include <algorithm>
#include <bit>

#include "automata/algebra/budget.hh"

namespace ltlkit::automata::algebra {

long WindowTypes::intern(std::vector<long> s) {
    const auto [id, fresh] = sig.intern(s);
    // a new type is held while the search runs: the work clock pays for it (budget.hh); the search
    // that interned it finds the budget spent at its next poll
    if (fresh) budget_charge_bytes(FlatInterner<long>::bytes_of(s.size()));
    return id;
}

std::vector<long> WindowTypes::types(const Word& w, unsigned D) {
    const std::size_t n = w.size();
    std::vector<long> t(n + 1);
    for (std::size_t i = 0; i <= n; ++i) t[i] = intern({-2, i < n ? long(w[i]) : long(sigma)});
    for (unsigned j = 1; j <= D; ++j) {
        std::vector<long> next(n + 1);
        for (std::size_t i = 0; i <= n; ++i) {
            std::vector<long> win(t.begin() + static_cast<std::ptrdiff_t>(i >= k ? i - k : 0),
                                  t.begin() + static_cast<std::ptrdiff_t>(i));
            std::sort(win.begin(), win.end());
            win.erase(std::unique(win.begin(), win.end()), win.end());
            std::vector<long> s{t[i]};
            s.insert(s.end(), win.begin(), win.end());
            next[i] = intern(std::move(s));
        }
        t = std::move(next);
    }
    return t;
}

ltl::Formula WindowTypes::formula(long id, const std::vector<std::string>& alphabet) {
    if (chi.size() < sig.size()) chi.resize(sig.size());
    auto& slot = chi[static_cast<std::size_t>(id)];
    if (!slot.is_null()) return slot;
    const std::span<const long> sp = sig[static_cast<std::size_t>(id)];
    const std::vector<long> s(sp.begin(), sp.end());
    // Building is a step of the search: each new characteristic formula charges the installed
    // budget for the nodes it interns (formulas live as long as the process, so this also bounds
    // their memory; docs/WINDOWS.md §5b). Past the budget it returns `true` without building: every
    // caller then finds the budget spent, and the compile-back of what it built fails.
    if (budget_charge(1 + 2 * s.size() / window_strategies::kFormulaNodesPerPoll)) return ltl::Formula::tt();
    ltl::Formula f;
    if (s[0] == -2) {
        if (s[1] < long(sigma)) {
            f = ltl::Formula::atom(alphabet[static_cast<std::size_t>(s[1])]);
        } else {  // EOS: no symbol holds
            f = ltl::Formula::tt();
            for (const auto& a : alphabet) f = ltl::Formula::conj(f, ltl::Formula::neg(ltl::Formula::atom(a)));
        }
        if (s.size() == 3)  // annotated with the set of letters strictly before (the sink-state strategy, §3c)
            for (std::size_t a = 0; a < alphabet.size(); ++a) {
                ltl::Formula pa = ltl::Formula::past(ltl::Formula::atom(alphabet[a]));
                f = ltl::Formula::conj(f, ((s[2] >> a) & 1) ? pa : ltl::Formula::neg(pa));
            }
    } else {
        // own type, every window type occurs, and nothing else does
        f = formula(s[0], alphabet);
        ltl::Formula any = ltl::Formula::ff();
        for (std::size_t i = 1; i < s.size(); ++i) {
            ltl::Formula g = formula(s[i], alphabet);
            f = ltl::Formula::conj(f, ltl::Formula::bounded_yesterday(g, k));
            any = i == 1 ? g : ltl::Formula::disj(any, g);
        }
        f = ltl::Formula::conj(f, ltl::Formula::neg(ltl::Formula::bounded_yesterday(ltl::Formula::neg(any), k)));
    }
    chi[static_cast<std::size_t>(id)] = f;
    return f;
}

}  // namespace ltlkit::automata::algebra

namespace ltlkit::automata::algebra::window_strategies {

unsigned type_level(const WindowTypes& types, long id) {
    unsigned l = 0;
    for (; types.sig[std::size_t(id)][0] != -2; ++l) id = types.sig[std::size_t(id)][0];
    return l;
}
long type_ground(const WindowTypes& types, long id) {
    while (types.sig[std::size_t(id)][0] != -2) id = types.sig[std::size_t(id)][0];
    return id;
}
std::vector<long> type_window(const WindowTypes& types, long id) {
    const auto& sg = types.sig[std::size_t(id)];
    return std::vector<long>(sg.begin() + 1, sg.end());
}

std::optional<std::vector<std::size_t>> greedy_cover(const std::vector<CoverBits>& excl,
                                                     const std::vector<std::size_t>& cost, std::size_t others) {
    const std::size_t n = excl.size(), words = cover_words(others);
    CoverBits left_bits = all_others(others);  // the others not excluded yet
    std::vector<std::uint8_t> used(n, 0);
    for (std::size_t left = others; left > 0;) {
        if (budget_charge(1 + n * words / kItemsPerPoll)) return std::nullopt;  // the budget is spent
        std::size_t best = n;
        double score = 0;
        for (std::size_t ci = 0; ci < n; ++ci) {
            std::size_t gain = 0;
            for (std::size_t w = 0; w < words; ++w) gain += static_cast<std::size_t>(std::popcount(excl[ci][w] & left_bits[w]));
            const double sc = double(gain) / double(cost[ci]);
            if (!used[ci] && gain > 0 && sc > score) score = sc, best = ci;
        }
        if (best == n) return std::nullopt;
        used[best] = 1;
        left = 0;
        for (std::size_t w = 0; w < words; ++w) {
            left_bits[w] &= ~excl[best][w];
            left += static_cast<std::size_t>(std::popcount(left_bits[w]));
        }
    }
    if (budget_charge(1 + n * n * words / kItemsPerPoll)) return std::nullopt;
    const CoverBits all = all_others(others);
    CoverBits u(words);
    auto covered_without = [&](std::size_t ci) {
        std::fill(u.begin(), u.end(), 0);
        for (std::size_t cj = 0; cj < n; ++cj)
            if (cj != ci && used[cj])
                for (std::size_t w = 0; w < words; ++w) u[w] |= excl[cj][w];
        for (std::size_t w = 0; w < words; ++w)
            if ((u[w] & all[w]) != all[w]) return false;
        return true;
    };
    for (std::size_t ci = 0; ci < n; ++ci)
        if (used[ci] && covered_without(ci)) used[ci] = 0;
    std::vector<std::size_t> out;
    for (std::size_t ci = 0; ci < n; ++ci)
        if (used[ci]) out.push_back(ci);
    return out;
}

OthersIndex::OthersIndex(const WindowTypes& types, const std::vector<long>& list) : others(list.size()) {
    const std::size_t words = cover_words(others);
    std::size_t pairs = 0;
    for (long g : list) pairs += types.sig[std::size_t(g)].size() + 1;
    if (budget_charge(1 + pairs / kItemsPerPoll)) return;
    auto set = [&](std::unordered_map<long, CoverBits>& by, long key, std::size_t i) {
        auto [it, fresh] = by.try_emplace(key);
        if (fresh) {
            if (budget_charge_bytes(words * sizeof(std::uint64_t) + 64)) return false;
            it->second.assign(words, 0);
        }
        it->second[i / 64] |= std::uint64_t{1} << (i % 64);
        return true;
    };
    for (std::size_t i = 0; i < others; ++i) {
        const auto& sg = types.sig[std::size_t(list[i])];
        if (sg[0] == -2) continue;  // level 0: no ground, own or window sets
        if (!set(ground, type_ground(types, list[i]), i) || !set(own, sg[0], i)) return;
        for (std::size_t j = 1; j < sg.size(); ++j)
            if (!set(member, sg[j], i)) return;
    }
    complete = true;
}

CoverBits OthersIndex::differs(const std::unordered_map<long, CoverBits>& by, long key) const {
    const std::size_t words = cover_words(others);
    if (!complete) return CoverBits(words, 0);
    CoverBits out = all_others(others);
    if (auto it = by.find(key); it != by.end())
        for (std::size_t w = 0; w < words; ++w) out[w] &= ~it->second[w];
    return out;
}

std::optional<ltl::Formula> CoverCandidates::cover() const {
    std::vector<std::size_t> cost;
    for (const ltl::Formula& f : formulas) cost.push_back(ltl::tree_size(f));
    const auto picked = greedy_cover(excl, cost, others);
    if (!picked) return std::nullopt;
    std::vector<ltl::Formula> kept;
    for (std::size_t ci : *picked) kept.push_back(formulas[ci]);
    return ltl::conjunction(kept);
}

Word word_from_parents(const std::vector<std::pair<std::int32_t, std::int32_t>>& parent, std::int32_t s) {
    Word w;
    for (; parent[std::size_t(s)].first >= 0; s = parent[std::size_t(s)].first)
        w.push_back(static_cast<Symbol>(parent[std::size_t(s)].second));
    std::reverse(w.begin(), w.end());
    return w;
}

}  // namespace ltlkit::automata::algebra::window_strategies
