#include "automata/algebra/window_strategies.hh"

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "automata/algebra/budget.hh"

namespace ltlkit::automata::algebra::window_strategies {

// ---------------------------------------------------------------------------------------------
// "yes" by window types: characteristic formulas of window types (docs/WINDOWS.md §3b). The level-j
// window type of a position is its level-(j-1) type with the set of level-(j-1) types in its
// window (level 0: the letter, or EOS). chi(t), below, holds exactly at the positions of type t,
// so Boolean combinations of chi(t) at EOS (local) and of P chi(t) (hybrid) lie in the fragment;
// the features of the sample words choose one, which is then compiled back (counterexample-guided).



// The past features tracked by the product exploration, as bits of one mask: `seen` bits (the type,
// of any level 0..D, occurred before: P chi(t)) and, at past depth 2, ordered-pair bits (P(chi(at) & P chi(before)):
// an `at` position with a `before` position earlier; with neg, P(chi(at) & !P chi(before)): an
// `at` position with none earlier).
struct PastFeatureBits {
    struct Pair {
        long before, at;
        bool neg;
        unsigned bit;
    };
    std::map<long, unsigned> seen;
    std::vector<Pair> pairs;
    std::unordered_map<long, std::vector<std::size_t>> pairs_at;
    unsigned bits = 0;
    unsigned seen_bit(long t) {
        auto [it, fresh] = seen.emplace(t, bits);
        if (fresh) ++bits;
        return it->second;
    }
    void add_pair(long before, long at, bool neg) {
        seen_bit(before);
        pairs_at[at].push_back(pairs.size());
        pairs.push_back(Pair{before, at, neg, bits++});
    }
    // The mask after a position whose types at levels 0..D are `ts` (the pair bits read the mask
    // before the position's own seen bits).
    std::uint64_t update(std::uint64_t mask, const std::vector<long>& ts) const {
        std::uint64_t out = mask;
        for (long t : ts) {
            if (auto it = pairs_at.find(t); it != pairs_at.end())
                for (std::size_t i : it->second) {
                    const Pair& p = pairs[i];
                    const bool before = (mask >> seen.at(p.before)) & 1;
                    if (before != p.neg) out |= std::uint64_t(1) << p.bit;
                }
            if (auto b = seen.find(t); b != seen.end()) out |= std::uint64_t(1) << b->second;
        }
        return out;
    }
};

struct WindowTypeProduct {
    bool conflict = false, limit = false;
    std::vector<std::pair<Word, Word>> conflicts;  // equal (EOS type, R mask), different membership
    std::size_t states = 0;
    std::vector<std::pair<std::pair<long, std::uint64_t>, bool>> points;  // (EOS type, R mask) -> accepted
};

struct PairHash {
    std::size_t operator()(const std::pair<std::uint64_t, std::uint64_t>& p) const noexcept {
        return static_cast<std::size_t>(splitmix64(p.first ^ splitmix64(p.second)));
    }
};

// Breadth-first over (DFA state, window types of the last k positions at levels 0..D-1, mask of
// the past features); the type ids are those of `types` (shared with the sample).
WindowTypeProduct explore_window_types(const Dfa& dfa, WindowTypes& types, unsigned D, const PastFeatureBits& past,
                           std::size_t max_states) {
    WindowTypeProduct out;
    const std::size_t sigma = dfa.num_symbols(), k = types.k, W = std::size_t(D) * k;
    // layout: [q, level 0 window (k, oldest first), ..., level D-1 window, mask]
    std::unordered_map<std::vector<long>, std::int32_t, LongVecHash> index;
    std::vector<std::vector<long>> states;
    std::vector<std::pair<std::int32_t, std::int32_t>> parent;
    std::vector<long> init(W + 2, -1);
    init[0] = static_cast<long>(dfa.initial);
    init[W + 1] = 0;
    index.emplace(init, 0);
    states.push_back(init);
    parent.emplace_back(-1, -1);
    auto word_of = [&](std::int32_t s) { return word_from_parents(parent, s); };
    WindowTypeStep tw{types, D};
    const std::vector<long>& fresh = tw.fresh;
    auto levels = [&](const std::vector<long>& st, long label) { tw.levels(st, label); };
    std::map<std::pair<long, std::uint64_t>, std::pair<bool, std::int32_t>> seen;
    std::set<std::pair<long, std::uint64_t>> conflict_keys;
    constexpr std::size_t kMaxConflicts = 16;
    for (std::size_t si = 0; si < states.size(); ++si) {
        const std::vector<long> st = states[si];  // a copy: states grows below
        levels(st, static_cast<long>(sigma));
        const bool acc = dfa.accepting[std::size_t(st[0])] != 0;
        auto key = std::make_pair(fresh[D], static_cast<std::uint64_t>(st[W + 1]));
        auto [it, inserted] = seen.emplace(key, std::make_pair(acc, std::int32_t(si)));
        if (!inserted && it->second.first != acc) {
            // one pair per point; a few per exploration, so that each round teaches the sample more
            if (conflict_keys.insert(key).second) out.conflicts.emplace_back(word_of(it->second.second), word_of(std::int32_t(si)));
            if (out.conflicts.size() >= kMaxConflicts) {
                out.conflict = true;
                out.states = states.size();
                return out;
            }
        }
        std::vector<long> nx(W + 2);
        for (std::size_t c = 0; c < sigma; ++c) {
            levels(st, static_cast<long>(c));
            nx[0] = static_cast<long>(dfa.delta[std::size_t(st[0]) * sigma + c]);
            tw.shift(st, nx);
            nx[W + 1] = static_cast<long>(past.update(static_cast<std::uint64_t>(st[W + 1]), fresh));
            if (index.count(nx)) continue;
            if (states.size() >= max_states || budget_charge_bytes(product_state_bytes(nx.size()))) {
                out.conflict = !out.conflicts.empty();
                out.limit = !out.conflict;
                out.states = states.size();
                return out;
            }
            index.emplace(nx, std::int32_t(states.size()));
            states.push_back(nx);
            parent.emplace_back(std::int32_t(si), std::int32_t(c));
        }
    }
    out.states = states.size();
    out.conflict = !out.conflicts.empty();
    if (!out.conflict)
        for (const auto& [key, v] : seen) out.points.emplace_back(key, v.first);
    return out;
}

// The past features of one word's level-D types (EOS last): which types occur before EOS, and at
// past depth 2 the ordered pairs (before, at) with an `at` position preceded by a `before` position
// (pp) and the pairs of occurring types with no `before` position before the first `at` (pn). Two words
// with equal EOS types and equal WordPastFeatures agree on every candidate feature of the window-type strategy.
struct WordPastFeatures {
    long eos = 0;
    std::set<long> present;
    std::set<std::pair<long, long>> pp, pn;
    bool operator==(const WordPastFeatures&) const = default;
};

WordPastFeatures word_past_features(const std::vector<long>& t, bool hybrid, bool pairs) {
    WordPastFeatures v;
    v.eos = t.back();
    if (!hybrid) return v;
    std::map<long, std::pair<std::size_t, std::size_t>> occ;  // type -> (first, last) position
    for (std::size_t i = 0; i + 1 < t.size(); ++i) {
        auto [it, fresh] = occ.emplace(t[i], std::make_pair(i, i));
        if (!fresh) it->second.second = i;
    }
    for (const auto& [ty, fl] : occ) v.present.insert(ty);
    if (pairs)
        for (const auto& [s, fs] : occ)
            for (const auto& [at, fa] : occ) {
                if (fs.first < fa.second) v.pp.emplace(s, at);
                if (fa.first <= fs.first) v.pn.emplace(s, at);
            }
    return v;
}

// The window-type strategy (above WindowTypes), for window depths D = 1..max_depth. Per D, rounds of:
//  1. on the sample, choose greedily a set R of past features (hybrid only) that separates accepted
//     from rejected words together with the EOS type: at past depth 1 the occurrence of a level-D
//     type t before EOS (P chi(t)); at past depth 2 also the ordered pairs P(chi(t) & P chi(s)) and
//     P(chi(t) & !P chi(s));
//  2. explore exactly the product of the DFA with the window types of the last k positions and
//     the values of the features of R: two words with equal (EOS type, R values) and different
//     membership go into the sample (next round), otherwise every reachable (EOS type, R values)
//     has one membership, and the decision tree over these points is a defining formula,
//     compiled back as the certificate.
// A sample pair whose candidate features all agree proves that no formula of this form at depth D
// exists.
WindowTypeSearchReport search_window_types(const Dfa& minimal, unsigned k, bool hybrid, unsigned max_depth, std::size_t max_states,
                               unsigned past_depth) {
    WindowTypeSearchReport rep;
    const std::size_t sigma = minimal.num_symbols();
    const bool pairs = hybrid && past_depth >= 2;
    constexpr std::size_t kMaxPairTypes = 300;  // past types in the sample beyond which pairs are not tried
    for (unsigned D = 1; D <= max_depth; ++D) {
        Sample sample = initial_sample(sigma, k, hybrid);
        WindowTypes types{k, sigma, {}, {}};
        std::vector<std::uint8_t> target;      // per sample word, kept across rounds (the sample only grows)
        std::vector<std::vector<long>> typed;  // its level-D types (EOS last)
        std::vector<std::vector<std::vector<long>>> lower;  // its level-0..D-1 types
        for (std::size_t round = 1; round <= (pairs ? 20u : 30u); ++round) {
            if (budget_exhausted()) return rep;
            ++rep.rounds;
            // 1. sample features: the EOS type (a class key) and the candidate past features
            const std::size_t n = sample.words.size();
            for (std::size_t w = typed.size(); w < n; ++w) {
                target.push_back(minimal.accepts(sample.words[w]));
                typed.push_back(types.types(sample.words[w], D));
                lower.emplace_back();
                for (unsigned j = 0; hybrid && j < D; ++j) lower.back().push_back(types.types(sample.words[w], j));
            }
            // the types of position i of word w at every level 0..D (ids are distinct across levels)
            auto each_type = [&](std::size_t w, std::size_t i, auto&& fn) {
                for (const auto& lv : lower[w]) fn(lv[i]);
                fn(typed[w][i]);
            };
            std::vector<long> eos(n);
            std::map<long, std::size_t> past_index;  // type -> dense index
            std::vector<long> past_type;
            for (std::size_t w = 0; w < n; ++w) {
                eos[w] = typed[w].back();
                if (!hybrid) continue;
                for (std::size_t i = 0; i + 1 < typed[w].size(); ++i)
                    each_type(w, i, [&](long t) {
                        if (past_index.emplace(t, past_type.size()).second) past_type.push_back(t);
                    });
            }
            const std::size_t T = past_type.size();
            if (pairs && T > kMaxPairTypes) break;
            // first and last position of each type in each word (SIZE_MAX: absent)
            std::vector<std::size_t> first(pairs ? n * T : 0, SIZE_MAX), last(pairs ? n * T : 0, SIZE_MAX);
            std::vector<Feature> feats;
            struct Meaning {
                long before, at;  // before == -1: the single P chi(at)
                bool neg;
            };
            std::vector<Meaning> meaning;
            // Features with the same column are one (the first): columns are compared by a 128-bit
            // hash of the set of words where they hold (a collision would only drop a candidate;
            // every formula is compiled back) and built only when new. A column is a subset of the
            // words where its `at` type occurs, so each is computed over those words alone.
            std::unordered_set<std::pair<std::uint64_t, std::uint64_t>, PairHash> columns;
            std::vector<std::uint32_t> ones;
            auto offer = [&](Meaning m) {
                if (ones.empty()) return;
                std::uint64_t h1 = ones.size(), h2 = 0x9e3779b97f4a7c15ULL;
                for (std::uint32_t w : ones) {
                    h1 += splitmix64(w ^ 0x5bd1e995ULL);
                    h2 += splitmix64(std::uint64_t(w) * 0x9e3779b97f4a7c15ULL + 1);
                }
                if (!columns.insert({h1, h2}).second) return;
                std::vector<std::uint8_t> col(n, 0);
                for (std::uint32_t w : ones) col[w] = 1;
                feats.push_back(Feature{{}, 0, std::move(col)});
                meaning.push_back(m);
            };
            if (hybrid) {
                std::vector<std::vector<std::uint32_t>> words_with(T);  // ascending
                for (std::size_t w = 0; w < n; ++w)
                    for (std::size_t i = 0; i + 1 < typed[w].size(); ++i)
                        each_type(w, i, [&](long t) {
                            const std::size_t ti = past_index[t];
                            if (words_with[ti].empty() || words_with[ti].back() != w)
                                words_with[ti].push_back(std::uint32_t(w));
                            if (!pairs) return;
                            std::size_t& f = first[w * T + ti];
                            if (f == SIZE_MAX) f = i;
                            last[w * T + ti] = i;
                        });
                for (std::size_t ti = 0; ti < T; ++ti) {
                    ones = words_with[ti];
                    offer(Meaning{-1, past_type[ti], false});
                }
                for (std::size_t si = 0; pairs && si < T; ++si)
                    for (std::size_t ai = 0; ai < T; ++ai)
                        for (bool neg : {false, true}) {
                            ones.clear();
                            for (std::uint32_t w : words_with[ai]) {
                                const std::size_t fs = first[w * T + si], fa = first[w * T + ai], la = last[w * T + ai];
                                // strict past: no s-position before the first t-position (it may be that
                                // same position, at another level); an s-position before the last one
                                if (neg ? fa <= fs : fs < la) ones.push_back(w);
                            }
                            offer(Meaning{past_type[si], past_type[ai], neg});
                        }
            }
            std::vector<int> cls(eos.begin(), eos.end());
            auto chosen = greedy_features(target, std::move(cls), feats);
            if (!chosen) break;  // two sample words with equal features: none of this form at depth D
            // 2. exact exploration with R = the chosen features
            PastFeatureBits past;
            for (std::size_t c : *chosen) {
                const Meaning& m = meaning[c];
                if (m.before < 0)
                    past.seen_bit(m.at);
                else
                    past.add_pair(m.before, m.at, m.neg);
            }
            if (past.bits > 62) break;
            if (rep.states >= max_states) return rep;  // the state budget of all rounds together
            WindowTypeProduct prod = explore_window_types(minimal, types, D, past, max_states - rep.states);
            rep.states += prod.states;
            if (prod.limit) break;
            if (prod.conflict) {
                // equal EOS types and equal candidate features: no formula of this form at depth D
                bool equal = false;
                for (const auto& [u, v] : prod.conflicts) {
                    equal = equal || word_past_features(types.types(u, D), hybrid, pairs) == word_past_features(types.types(v, D), hybrid, pairs);
                    sample.add(u);
                    sample.add(v);
                }
                if (equal) break;
                continue;
            }
            // 3. the decision tree over the reachable points (EOS type, R values) -> membership
            const std::size_t m = prod.points.size();
            std::vector<std::uint8_t> ptarget(m);
            std::map<long, std::size_t> eos_index;
            std::vector<Feature> pfeats(past.bits);  // first the past features (index = bit), then the EOS types
            auto chi = [&](long t) { return types.formula(t, minimal.alphabet); };
            for (const auto& [t, b] : past.seen)
                pfeats[b] = Feature{ltl::Formula::past(chi(t)), 0, std::vector<std::uint8_t>(m, 0)};
            for (const auto& pr : past.pairs) {
                ltl::Formula before = ltl::Formula::past(chi(pr.before));
                if (pr.neg) before = ltl::Formula::neg(before);
                pfeats[pr.bit] = Feature{ltl::Formula::past(ltl::Formula::conj(chi(pr.at), before)), 0,
                                         std::vector<std::uint8_t>(m, 0)};
            }
            for (std::size_t i = 0; i < m; ++i) {
                const auto& [key, acc] = prod.points[i];
                ptarget[i] = acc;
                auto [it, fresh] = eos_index.emplace(key.first, pfeats.size());
                if (fresh) pfeats.push_back(Feature{chi(key.first), 0, std::vector<std::uint8_t>(m, 0)});
                pfeats[it->second].val[i] = 1;
                for (unsigned b = 0; b < past.bits; ++b)
                    if ((key.second >> b) & 1) pfeats[b].val[i] = 1;
            }
            for (auto& f : pfeats) f.size = ltl::tree_size(f.f);
            ltl::Formula f = decision_formula(ptarget, pfeats);
            if (f.is_null()) break;  // cannot happen: the points are consistent
            auto ok = formula_defines(f, minimal, nullptr);
            if (ok && *ok) {
                rep.formula = f;
                rep.depth = D;
                return rep;
            }
            break;  // a compile limit (or a bug, caught here): try the next depth
        }
    }
    return rep;
}

}  // namespace ltlkit::automata::algebra::window_strategies
