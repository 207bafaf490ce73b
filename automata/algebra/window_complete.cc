// The universal partition of docs/WINDOWS.md §10 and the periodic-pair "no" search for LTL[Y<=k]
// (window_complete.hh). Bisimulation by partition refinement (Kanellakis & Smolka 1990, the naive
// signature refinement); the type exploration is the depth probe's automaton (§4) with the last δ
// letters in place of a DFA state.
#include "automata/algebra/window_complete.hh"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <unordered_map>
#include <utility>

#include "automata/algebra/budget.hh"
#include "automata/algebra/classes.hh"
#include "automata/algebra/window_letters.hh"
#include "automata/algebra/window_strategies.hh"
#include "automata/algebra/windows.hh"

namespace ltlkit::automata::algebra {

using namespace window_strategies;

namespace {

// Lyndon words: strictly smaller than each of their proper rotations (primitive, and the least
// rotation of their conjugacy class), so each cycle of a periodic word appears once.
bool lyndon(const Word& w) {
    const std::size_t m = w.size();
    for (std::size_t r = 1; r < m; ++r)
        for (std::size_t i = 0; i < m; ++i) {
            const Symbol a = w[(i + r) % m], b = w[i];
            if (a < b) return false;
            if (a > b) break;
            if (i + 1 == m) return false;  // equal rotation: not primitive
        }
    return true;
}

struct UnionFind {
    std::vector<std::size_t> parent;
    explicit UnionFind(std::size_t n) : parent(n) { std::iota(parent.begin(), parent.end(), std::size_t{0}); }
    std::size_t find(std::size_t x) {
        while (parent[x] != x) x = parent[x] = parent[parent[x]];
        return x;
    }
    void unite(std::size_t a, std::size_t b) {
        a = find(a), b = find(b);
        if (a != b) parent[std::max(a, b)] = std::min(a, b);
    }
    std::vector<std::size_t> blocks() {
        std::vector<std::size_t> out(parent.size());
        for (std::size_t i = 0; i < out.size(); ++i) out[i] = find(i);
        return out;
    }
};

std::size_t count_blocks(const std::vector<std::size_t>& b) {
    std::size_t n = 0;
    for (std::size_t i = 0; i < b.size(); ++i) n += b[i] == i;
    return n;
}

// Every ultimately periodic left-infinite word ^ω p·y (p Lyndon, |p| <= P, |y| <= T) in one graph:
// a node per position (its letter, and `back`, the position just before it; the W-successors of a
// position are its k positions before), the p-cycles shared by all their tails and the tails as a
// trie; and one EOS node per word, whose W-successors are its last k positions.
struct PeriodicGraph {
    std::vector<Symbol> label;
    std::vector<std::uint32_t> back;
    struct Eos {
        std::uint32_t cycle;  // index into periods
        Word tail;
        std::uint32_t last;  // its last position
    };
    std::vector<Word> periods;
    std::vector<Eos> eos;
    std::vector<int> eos_class;  // bisimulation class of each EOS node (after classify)
    bool stopped = false;

    PeriodicGraph(std::size_t sigma, PeriodicBounds b) {
        for (const Word& p : words_between(sigma, 1, b.max_period))
            if (lyndon(p)) periods.push_back(p);
        for (std::uint32_t c = 0; c < periods.size(); ++c) {
            const Word& p = periods[c];
            const auto base = static_cast<std::uint32_t>(label.size());
            const auto m = static_cast<std::uint32_t>(p.size());
            for (std::uint32_t o = 0; o < m; ++o) {
                label.push_back(p[o]);
                back.push_back(base + (o + m - 1) % m);
            }
            // tails breadth-first: (tail, its last position)
            std::vector<std::pair<Word, std::uint32_t>> layer{{Word{}, base + m - 1}};
            for (std::size_t len = 0;; ++len) {
                for (const auto& [y, last] : layer) eos.push_back({c, y, last});
                if (len == b.max_tail) break;
                std::vector<std::pair<Word, std::uint32_t>> next;
                for (const auto& [y, last] : layer)
                    for (Symbol a = 0; a < sigma; ++a) {
                        label.push_back(a);
                        back.push_back(last);
                        Word ya = y;
                        ya.push_back(a);
                        next.emplace_back(std::move(ya), static_cast<std::uint32_t>(label.size() - 1));
                    }
                layer = std::move(next);
            }
        }
    }

    // The maximal bisimulation (window k) of the positions, then of the EOS nodes.
    void classify(unsigned k, std::size_t* steps) {
        const std::size_t n = label.size();
        std::vector<int> cls(label.begin(), label.end()), next(n);
        std::size_t count = 0;
        std::vector<int> sig;
        for (;;) {
            std::unordered_map<std::vector<int>, int, IntVecHash> ids;
            for (std::size_t i = 0; i < n; ++i) {
                if (steps) ++*steps;
                if ((i & 255) == 0 && budget_exhausted()) {
                    stopped = true;
                    return;
                }
                sig.assign(1, cls[i]);
                std::uint32_t v = static_cast<std::uint32_t>(i);
                for (unsigned j = 0; j < k; ++j) {
                    v = back[v];
                    sig.push_back(cls[v]);
                }
                std::sort(sig.begin() + 1, sig.end());
                sig.erase(std::unique(sig.begin() + 1, sig.end()), sig.end());
                next[i] = ids.emplace(sig, static_cast<int>(ids.size())).first->second;
            }
            cls.swap(next);
            if (ids.size() == count) break;  // refinement only splits: equal counts = stable
            count = ids.size();
        }
        std::unordered_map<std::vector<int>, int, IntVecHash> ids;
        eos_class.resize(eos.size());
        for (std::size_t e = 0; e < eos.size(); ++e) {
            sig.clear();
            std::uint32_t v = eos[e].last;
            for (unsigned j = 0; j < k; ++j) {
                sig.push_back(cls[v]);
                v = back[v];
            }
            std::sort(sig.begin(), sig.end());
            sig.erase(std::unique(sig.begin(), sig.end()), sig.end());
            eos_class[e] = ids.emplace(sig, static_cast<int>(ids.size())).first->second;
        }
    }

    // The index in Σ^δ of the last δ letters of EOS node e's word.
    std::size_t suffix_index(std::size_t e, std::size_t sigma, std::size_t delta) const {
        std::size_t idx = 0, weight = 1;
        std::uint32_t v = eos[e].last;
        for (std::size_t i = 0; i < delta; ++i, v = back[v]) {
            idx += weight * label[v];
            weight *= sigma;
        }
        return idx;
    }

    struct IntVecHash {
        std::size_t operator()(const std::vector<int>& v) const noexcept {
            std::uint64_t h = 0x9e3779b97f4a7c15ULL ^ v.size();
            for (int x : v) h = (h ^ static_cast<std::uint32_t>(x)) * 0x100000001b3ULL, h ^= h >> 29;
            return static_cast<std::size_t>(h);
        }
    };
};

std::size_t power(std::size_t s, std::size_t e) {
    std::size_t r = 1;
    while (e--) r *= s;
    return r;
}

}  // namespace

std::vector<std::size_t> local_depth_blocks(std::size_t sigma, unsigned k, std::size_t delta, unsigned depth,
                                            std::size_t max_states, std::size_t* states, bool* stopped) {
    // A state: [min(n, δ), index of the last min(n, δ) letters, then for each level j < depth the
    // depth-j types of the last k positions, oldest first, -1 before the word]. Types are interned:
    // level 0 {a}; level j {a, -2, sorted set of the window's level-(j-1) types}; EOS at depth d
    // {-1, -3, sorted set of the window's level-(d-1) types}. Equal ids = equal depth-j types
    // (WINDOWS.md §1: a depth-j type is its label and the set of depth-(j-1) types of its window).
    const std::size_t mod = power(sigma, delta);
    const std::size_t width = 2 + std::size_t(depth) * k;
    std::unordered_map<std::vector<long>, long, LongVecHash> types;
    auto intern = [&](std::vector<long> v) { return types.emplace(std::move(v), long(types.size())).first->second; };
    std::unordered_map<std::vector<long>, std::size_t, LongVecHash> seen;
    std::vector<std::vector<long>> queue;
    std::vector<long> start(width, -1);
    start[0] = 0;
    start[1] = 0;
    seen.emplace(start, 0);
    queue.push_back(start);
    UnionFind uf(mod);
    std::unordered_map<long, std::size_t> first_suffix;  // EOS type -> a δ-suffix showing it
    std::vector<long> win, fresh(depth);
    *stopped = false;
    auto window = [&](const std::vector<long>& st, unsigned level, long head, long tag) {
        std::vector<long> sig{head, tag};
        for (unsigned i = 0; i < k; ++i)
            if (long t = st[2 + std::size_t(level) * k + i]; t >= 0) sig.push_back(t);
        std::sort(sig.begin() + 2, sig.end());
        sig.erase(std::unique(sig.begin() + 2, sig.end()), sig.end());
        return sig;
    };
    for (std::size_t qi = 0; qi < queue.size(); ++qi) {
        if (budget_exhausted() || queue.size() > max_states) {
            *stopped = true;
            break;
        }
        const std::vector<long> st = queue[qi];
        if (static_cast<std::size_t>(st[0]) == delta) {
            const long eos = intern(window(st, depth - 1, -1, -3));
            auto [it, fresh_type] = first_suffix.emplace(eos, static_cast<std::size_t>(st[1]));
            if (!fresh_type) uf.unite(it->second, static_cast<std::size_t>(st[1]));
        }
        for (Symbol a = 0; a < sigma; ++a) {
            fresh[0] = intern({long(a)});
            for (unsigned j = 1; j < depth; ++j) fresh[j] = intern(window(st, j - 1, long(a), -2));
            std::vector<long> nx(width);
            const std::size_t len = static_cast<std::size_t>(st[0]);
            nx[0] = long(std::min(len + 1, delta));
            nx[1] = long((static_cast<std::size_t>(st[1]) * sigma + a) % (len + 1 <= delta ? power(sigma, len + 1) : mod));
            for (unsigned j = 0; j < depth; ++j) {
                const std::size_t base = 2 + std::size_t(j) * k;
                for (std::size_t i = 0; i + 1 < k; ++i) nx[base + i] = st[base + i + 1];
                nx[base + k - 1] = fresh[j];
            }
            if (seen.emplace(nx, queue.size()).second) queue.push_back(std::move(nx));
        }
    }
    if (states) *states = queue.size();
    return uf.blocks();
}

LocalPartition local_partition(std::size_t sigma, unsigned k, std::size_t delta, unsigned max_depth,
                               PeriodicBounds bounds, std::size_t max_states) {
    LocalPartition out;
    out.sigma = sigma, out.k = k, out.delta = delta;
    const std::size_t mod = power(sigma, delta);
    PeriodicGraph g(sigma, bounds);
    g.classify(k, nullptr);
    if (g.stopped) {
        out.stopped = true;
        return out;
    }
    UnionFind uf(mod);
    std::unordered_map<int, std::size_t> first;  // EOS class -> a δ-suffix showing it
    for (std::size_t e = 0; e < g.eos.size(); ++e) {
        const std::size_t idx = g.suffix_index(e, sigma, delta);
        auto [it, is_new] = first.emplace(g.eos_class[e], idx);
        if (!is_new) uf.unite(it->second, idx);
    }
    out.witness_blocks = uf.blocks();
    out.witness_count = count_blocks(out.witness_blocks);
    for (unsigned d = 1; d <= max_depth; ++d) {
        bool stopped = false;
        std::vector<std::size_t> blocks = local_depth_blocks(sigma, k, delta, d, max_states, &out.type_states, &stopped);
        if (stopped) {
            out.stopped = true;
            break;
        }
        out.depth = d;
        out.depth_blocks = std::move(blocks);
        out.depth_count = count_blocks(out.depth_blocks);
        // The witness partition refines every E_d partition (Lemma 10.2); then equal counts = equal.
        for (std::size_t i = 0; i < mod; ++i)
            if (out.depth_blocks[out.witness_blocks[i]] != out.depth_blocks[i]) out.inconsistent = true;
        if (!out.inconsistent && out.depth_count == out.witness_count) {
            out.certified = true;
            break;
        }
    }
    return out;
}

// The table of docs/WINDOWS.md §10 ("every δ from 1 to the largest listed was run and certified").
std::size_t corollary_10_5_max_delta(std::size_t sigma, unsigned k) {
    struct Row {
        std::size_t sigma;
        unsigned k;
        std::size_t max_delta;
    };
    constexpr Row kCertified[] = {{2, 2, 8}, {2, 3, 8}, {2, 4, 8}, {3, 2, 6}, {3, 3, 5}, {3, 4, 5}};
    for (const Row& r : kCertified)
        if (r.sigma == sigma && r.k == k) return r.max_delta;
    return 0;
}

std::optional<std::size_t> corollary_10_5_delta(const Dfa& minimal, unsigned k) {
    DfaAnalysis analysis(minimal);
    const std::optional<std::size_t> degree = analysis.definite_degree_by_merging();
    // |Σ| counts letters that act alike once (Proposition 10.9): the degree is that of the DFA over
    // one letter per class, whose columns are the same.
    if (!degree || *degree == 0 || *degree > corollary_10_5_max_delta(letter_classes(minimal), k)) return std::nullopt;
    return degree;
}

CompletenessClaim corollary_10_5_claim(std::size_t sigma, unsigned k, std::size_t delta, bool hybrid) {
    return CompletenessClaim{.by = hybrid ? "Corollary 10.5 and Theorem 10.6 (docs/WINDOWS.md §10)"
                                          : "Corollary 10.5 (docs/WINDOWS.md §10)",
                             .sigma = sigma,
                             .k = k,
                             .delta = delta};
}

CorollaryCheck check_corollary_10_5(const Dfa& given, unsigned k) {
    // On one letter per class of letters that act alike (Proposition 10.9): same degree, same answer.
    const std::optional<LetterClasses> merged = letters_acting_alike(given);
    const Dfa& minimal = merged ? merged->reduced : given;
    CorollaryCheck out;
    const std::size_t sigma = minimal.num_symbols();
    DfaAnalysis analysis(minimal);
    const std::optional<std::size_t> degree = analysis.definite_degree_by_merging();
    if (!degree) {
        out.why = "the language is not definite";
        return out;
    }
    out.delta = *degree;
    if (*degree == 0 || *degree > corollary_10_5_max_delta(sigma, k)) {
        out.why = "(|Σ|, k, δ) = (" + std::to_string(sigma) + ", " + std::to_string(k) + ", " + std::to_string(*degree) +
                  ") lies outside the certified range of Corollary 10.5";
        return out;
    }
    // The certified cases need at most ~25,000 type states (docs/PERFORMANCE.md); 1,000,000 leaves room.
    const LocalPartition p = local_partition(sigma, k, *degree, 10, window_strategies::periodic_pair_bounds(sigma), 1'000'000);
    if (!p.certified || p.inconsistent) {
        out.why = "the partition Π(" + std::to_string(sigma) + ", " + std::to_string(k) + ", " + std::to_string(*degree) +
                  ") was not certified again" + (p.stopped ? " (stopped at a bound)" : "");
        return out;
    }
    out.holds = true;
    out.depth = p.depth;
    out.blocks = p.depth_count;
    out.member = true;
    Word w(*degree);
    std::vector<char> f(p.depth_blocks.size());
    for (std::size_t x = 0; x < f.size(); ++x) {
        std::size_t y = x;  // first letter most significant, as local_depth_blocks indexes
        for (std::size_t j = *degree; j-- > 0; y /= sigma) w[j] = Symbol(y % sigma);
        f[x] = minimal.accepts(w) ? 1 : 0;
    }
    for (std::size_t x = 0; x < f.size(); ++x) out.member = out.member && f[x] == f[p.depth_blocks[x]];
    return out;
}

namespace window_strategies {

PeriodicBounds periodic_pair_bounds(std::size_t sigma) {
    if (sigma <= 2) return {8, 8};
    if (sigma == 3) return {5, 5};
    if (sigma == 4) return {4, 4};
    return {3, 3};
}

std::optional<WordFamily> search_periodic_pair(const Dfa& minimal, unsigned k, PeriodicBounds bounds,
                                               std::size_t* steps, bool* exhausted) {
    *exhausted = false;
    DfaAnalysis analysis(minimal);
    const std::optional<std::size_t> degree = analysis.definite_degree_by_merging();
    if (!degree) return std::nullopt;  // not definite: the question is not asked
    const std::size_t sigma = minimal.num_symbols();
    PeriodicGraph g(sigma, bounds);
    g.classify(k, steps);
    if (g.stopped) return std::nullopt;
    // The eventual membership of ^ω p·y: that of p^r·y once r·|p| >= the definite degree.
    std::vector<State> after_powers(g.periods.size());
    for (std::size_t c = 0; c < g.periods.size(); ++c) {
        State s = minimal.initial;
        for (std::size_t i = 0; i < *degree + g.periods[c].size(); i += g.periods[c].size()) s = minimal.run(s, g.periods[c]);
        after_powers[c] = s;
    }
    // Per EOS class, the first accepted and the first rejected word; a class with both is a pair.
    std::unordered_map<int, std::pair<long, long>> by_class;
    for (std::size_t e = 0; e < g.eos.size(); ++e) {
        if (steps) ++*steps;
        if ((e & 255) == 0 && budget_exhausted()) return std::nullopt;
        const bool acc = minimal.is_accepting(minimal.run(after_powers[g.eos[e].cycle], g.eos[e].tail));
        auto& slot = by_class.try_emplace(g.eos_class[e], -1L, -1L).first->second;
        long& mine = acc ? slot.first : slot.second;
        if (mine < 0) mine = long(e);
        if (slot.first < 0 || slot.second < 0 || mine != long(e)) continue;
        // Re-verify with the checker's functions (soundness does not rest on the graph above).
        const auto& u = g.eos[std::size_t(slot.first)];
        const auto& v = g.eos[std::size_t(slot.second)];
        WordFamily f;
        f.p = g.periods[u.cycle];
        f.y = u.tail;
        f.z = v.tail;
        if (u.cycle == v.cycle) {
            auto r0 = membership_differs_from(minimal, Word{}, f.p, f.y, f.z);
            if (!r0 || !family_eos_bisimilar(f.p, f.y, f.z, k, false)) continue;
            f.r_min = *r0;
        } else {
            f.q = g.periods[v.cycle];
            auto r0 = alternating_differs_from(minimal, Word{}, f.p, f.q, f.y, f.z);
            if (!r0 || !alternating_eos_bisimilar(f.p, f.q, f.y, f.z, k, false)) continue;
            f.r_min = *r0;
        }
        return f;
    }
    *exhausted = true;
    return std::nullopt;
}

}  // namespace window_strategies

}  // namespace ltlkit::automata::algebra
