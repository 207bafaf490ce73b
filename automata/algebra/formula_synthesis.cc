#include "automata/algebra/window_strategies.hh"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <numeric>
#include <set>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

#include "automata/algebra/budget.hh"
#include "automata/algebra/classes.hh"
#include "automata/algebra/depth_probe.hh"
#include "automata/algebra/window_strategies.hh"
#include "automata/algorithms.hh"
#include "base/json.hh"
#include "automata/monitor.hh"
#include "automata/random.hh"
#include "ltl/fragment.hh"
#include "ltl/parser.hh"
#include "ltl/printer.hh"
#include "ltl/builder.hh"

namespace ltlkit::automata::algebra::window_strategies {

// ---------------------------------------------------------------------------------------------
// "yes": enumerative formula search with observational equivalence on a word sample (as in
// bottom-up program synthesis, e.g. Udupa et al. 2013), then a Boolean combination of EOS
// features chosen greedily, checked by compiling back (counterexample-guided).


using Bits = std::vector<std::uint64_t>;
inline bool get(const Bits& b, std::size_t i) { return (b[i >> 6] >> (i & 63)) & 1; }
inline void set(Bits& b, std::size_t i) { b[i >> 6] |= std::uint64_t(1) << (i & 63); }

struct BitsHash {
    std::size_t operator()(const Bits& b) const {
        std::uint64_t h = 0x9e3779b97f4a7c15ULL;
        for (auto v : b) h = splitmix64(h ^ v);
        return static_cast<std::size_t>(h);
    }
};

struct Entry {
    ltl::Formula f;
    std::size_t size;
    Bits bits;
};


ltl::Formula decision_tree(const std::vector<std::uint8_t>& target, const std::vector<Feature>& feats,
                           const std::vector<std::size_t>& chosen, std::size_t level, const std::vector<std::size_t>& ws) {
    bool any_acc = false, any_rej = false;
    for (std::size_t w : ws) (target[w] ? any_acc : any_rej) = true;
    if (!any_rej) return ltl::Formula::tt();
    if (!any_acc) return ltl::Formula::ff();
    if (level >= chosen.size()) return ltl::Formula::ff();  // unreachable: features separate
    const Feature& ft = feats[chosen[level]];
    std::vector<std::size_t> hi, lo;
    for (std::size_t w : ws) (ft.val[w] ? hi : lo).push_back(w);
    if (hi.empty()) return decision_tree(target, feats, chosen, level + 1, lo);
    if (lo.empty()) return decision_tree(target, feats, chosen, level + 1, hi);
    ltl::Formula a = decision_tree(target, feats, chosen, level + 1, hi);
    ltl::Formula b = decision_tree(target, feats, chosen, level + 1, lo);
    return ltl::if_then_else(ft.f, a, b);
}

// The work clock pays for the sample (budget.hh, docs/WINDOWS.md §5b): a step that combines two
// pool entries costs O(sample blocks), a unary step (¬, Y<=k, P of an entry) O(sample positions), a
// feature tried by the greedy choice O(sample words). One poll per kBlocksPerPoll blocks
// (kPositionsPerPoll positions, kWordsPerPoll words), at least one, keeps a poll near 2 µs of CPU
// for every alphabet (the 2-, 3- and 4-letter samples have about 10,700, 8,200 and 2,300 positions);
// when only the binary steps paid one poll each, a poll cost 14, 10 and 2 µs over 2, 3 and 4 letters.
constexpr std::size_t kBlocksPerPoll = 25, kPositionsPerPoll = 200, kWordsPerPoll = 300;
std::uint64_t poll_cost(std::size_t units, std::size_t per_poll) { return std::max<std::size_t>(1, units / per_poll); }

// Greedy choice of features that, refining the initial classes cls, separate accepted from
// rejected sample words (fewest remaining accepted/rejected pairs with equal values; ties to the
// smaller formula); nullopt when all features together do not separate them.
std::optional<std::vector<std::size_t>> greedy_features(const std::vector<std::uint8_t>& target, std::vector<int> cls,
                                                        const std::vector<Feature>& feats) {
    const std::size_t n = target.size();
    std::vector<std::size_t> chosen;
    std::size_t classes = 0;
    auto densify = [&](const std::vector<int>& c) {  // renumber 0..classes-1, so that cls * 2 + bit never overflows
        std::unordered_map<int, int> dense;
        for (std::size_t w = 0; w < n; ++w) cls[w] = dense.emplace(c[w], int(dense.size())).first->second;
        classes = dense.size();
    };
    densify(cls);
    std::vector<std::size_t> acc, rej;
    auto conflicts = [&](const std::vector<int>& c, std::size_t range) {
        acc.assign(range, 0);
        rej.assign(range, 0);
        for (std::size_t w = 0; w < n; ++w) (target[w] ? acc : rej)[std::size_t(c[w])]++;
        std::size_t total = 0;
        for (std::size_t i = 0; i < range; ++i) total += acc[i] * rej[i];
        return total;
    };
    std::size_t current = conflicts(cls, classes);
    std::vector<int> c2(n);
    while (current > 0) {
        std::size_t best = SIZE_MAX, best_conf = current;
        std::vector<int> best_cls;
        for (std::size_t idx = 0; idx < feats.size(); ++idx) {
            if (budget_charge(poll_cost(n, kWordsPerPoll))) return std::nullopt;  // no choice within the budget
            for (std::size_t w = 0; w < n; ++w) c2[w] = cls[w] * 2 + feats[idx].val[w];
            std::size_t conf = conflicts(c2, 2 * classes);
            if (conf < best_conf || (conf == best_conf && best != SIZE_MAX && feats[idx].size < feats[best].size)) {
                if (conf == current) continue;
                best = idx;
                best_conf = conf;
                best_cls = c2;
            }
        }
        if (best == SIZE_MAX) return std::nullopt;
        chosen.push_back(best);
        densify(best_cls);
        current = best_conf;
    }
    return chosen;
}

// Greedy choice of features that separate accepted from rejected sample words, then a decision
// tree over the chosen features; null when all features together do not separate the sample.
ltl::Formula decision_formula(const std::vector<std::uint8_t>& target, const std::vector<Feature>& feats) {
    auto chosen = greedy_features(target, std::vector<int>(target.size(), 0), feats);
    if (!chosen) return {};
    std::vector<std::size_t> all(target.size());
    std::iota(all.begin(), all.end(), 0);
    return decision_tree(target, feats, *chosen, 0, all);
}

class FormulaSearch {
public:
    FormulaSearch(const Dfa& dfa, const Sample& sample, unsigned k, bool hybrid)
        : dfa_(dfa), s_(sample), k_(k), hybrid_(hybrid) {}

    // Returns a candidate formula whose EOS behaviour matches the DFA on the sample, or null.
    ltl::Formula run(std::size_t max_pool, std::size_t budget, std::size_t* steps, std::size_t* reached_size) {
        target_.assign(s_.words.size(), 0);
        for (std::size_t w = 0; w < s_.words.size(); ++w) target_[w] = dfa_.accepts(s_.words[w]);
        word_class_.assign(s_.words.size(), 0);
        mask_ = Bits(s_.blocks, 0);
        for (std::size_t i = 0; i < s_.total; ++i) set(mask_, i);
        by_size_.assign(1, {});
        // size 1: true and the atoms
        by_size_.emplace_back();
        add(ltl::Formula::tt(), 1, mask_);
        for (Symbol a = 0; a < dfa_.num_symbols(); ++a) {
            Bits b(s_.blocks, 0);
            for (std::size_t w = 0; w < s_.words.size(); ++w)
                for (std::size_t i = 0; i < s_.words[w].size(); ++i)
                    if (s_.words[w][i] == a) set(b, s_.start[w] + i);
            add(ltl::Formula::atom(dfa_.alphabet[a]), 1, b);
        }
        for (std::size_t size = 2;; ++size) {
            *reached_size = size - 1;
            if (consistent()) return synthesize();
            if (pool_.size() >= max_pool || *steps > budget || budget_charge(poll_cost(s_.blocks, kBlocksPerPoll))) return {};
            by_size_.emplace_back();
            // unary
            for (std::size_t idx : by_size_[size - 1]) {
                if (budget_charge(poll_cost(s_.total, kPositionsPerPoll))) return {};
                const Entry e = pool_[idx];
                ++*steps;
                add(ltl::Formula::neg(e.f), size, negate(e.bits));
                add(ltl::Formula::bounded_yesterday(e.f, k_), size, window(e.bits));
                if (hybrid_) add(ltl::Formula::past(e.f), size, past(e.bits));
            }
            // binary
            for (std::size_t s1 = 1; s1 + 1 < size; ++s1) {
                std::size_t s2 = size - 1 - s1;
                if (s1 > s2) break;
                for (std::size_t i : by_size_[s1])
                    for (std::size_t j : by_size_[s2]) {
                        if (s1 == s2 && j <= i) continue;
                        if (pool_.size() >= max_pool || *steps > budget ||
                            budget_charge(poll_cost(s_.blocks, kBlocksPerPoll)))
                            break;
                        ++*steps;
                        const Bits& a = pool_[i].bits;
                        const Bits& b = pool_[j].bits;
                        Bits c(s_.blocks), d(s_.blocks);
                        for (std::size_t t = 0; t < s_.blocks; ++t) {
                            c[t] = a[t] & b[t];
                            d[t] = a[t] | b[t];
                        }
                        add(ltl::Formula::conj(pool_[i].f, pool_[j].f), size, c);
                        add(ltl::Formula::disj(pool_[i].f, pool_[j].f), size, d);
                    }
            }
            if (by_size_[size].empty() && size > 8) return {};
        }
    }

    std::size_t pool_size() const { return pool_.size(); }

private:
    Bits negate(const Bits& b) const {
        Bits c(s_.blocks);
        for (std::size_t t = 0; t < s_.blocks; ++t) c[t] = ~b[t] & mask_[t];
        return c;
    }
    Bits window(const Bits& b) const {
        Bits c(s_.blocks, 0);
        for (std::size_t w = 0; w < s_.words.size(); ++w) {
            std::size_t st = s_.start[w], n = s_.words[w].size();
            std::size_t last = SIZE_MAX;  // most recent true position (relative) before i
            for (std::size_t i = 0; i <= n; ++i) {
                if (last != SIZE_MAX && i - last <= k_) set(c, st + i);
                if (get(b, st + i)) last = i;
            }
        }
        return c;
    }
    Bits past(const Bits& b) const {
        Bits c(s_.blocks, 0);
        for (std::size_t w = 0; w < s_.words.size(); ++w) {
            std::size_t st = s_.start[w], n = s_.words[w].size();
            bool seen = false;
            for (std::size_t i = 0; i <= n; ++i) {
                if (seen) set(c, st + i);
                if (get(b, st + i)) seen = true;
            }
        }
        return c;
    }

    void add(ltl::Formula f, std::size_t size, Bits bits) {
        auto [it, fresh] = seen_.emplace(bits, pool_.size());
        if (!fresh) return;
        by_size_[size].push_back(pool_.size());
        pool_.push_back(Entry{f, size, std::move(bits)});
        refine(pool_.size() - 1);
    }

    // EOS feature of a pool entry, per sample word.
    bool eos(std::size_t idx, std::size_t w) const {
        return get(pool_[idx].bits, s_.start[w] + s_.words[w].size());
    }

    // Words are partitioned by the EOS values of all features so far (refined incrementally).
    void refine(std::size_t idx) {
        std::map<std::pair<int, bool>, int> ids;
        for (std::size_t w = 0; w < s_.words.size(); ++w)
            word_class_[w] = ids.emplace(std::make_pair(word_class_[w], eos(idx, w)), int(ids.size())).first->second;
    }
    bool consistent() const {
        std::unordered_map<int, int> val;
        for (std::size_t w = 0; w < s_.words.size(); ++w) {
            auto [it, fresh] = val.emplace(word_class_[w], target_[w]);
            if (!fresh && it->second != target_[w]) return false;
        }
        return true;
    }

    // The EOS values of the whole pool as features, combined by decision_formula.
    ltl::Formula synthesize() const {
        std::vector<Feature> feats;
        feats.reserve(pool_.size());
        for (std::size_t idx = 0; idx < pool_.size(); ++idx) {
            Feature f{pool_[idx].f, pool_[idx].size, std::vector<std::uint8_t>(s_.words.size())};
            for (std::size_t w = 0; w < s_.words.size(); ++w) f.val[w] = eos(idx, w);
            feats.push_back(std::move(f));
        }
        return decision_formula(target_, feats);
    }

    const Dfa& dfa_;
    const Sample& s_;
    unsigned k_;
    bool hybrid_;
    std::vector<std::uint8_t> target_;
    std::vector<int> word_class_;
    Bits mask_;
    std::vector<Entry> pool_;
    std::vector<std::vector<std::size_t>> by_size_;
    std::unordered_map<Bits, std::size_t, BitsHash> seen_;
};

// Does f (over the DFA's alphabet) define exactly the language of `minimal`? On a difference,
// *counterexample receives the shortest word on which they differ.
Result<bool> formula_defines(ltl::Formula f, const Dfa& minimal, Word* counterexample) {
    CompileOptions opts;
    opts.max_states = 200'000;
    // Compiling back is a step of the search like any other: each monitor state charges the installed
    // budget its cost, one poll per kMonitorWorkPerPoll units (docs/WINDOWS.md §5b), so that a large
    // candidate formula stops at the budget instead of running unbounded.
    opts.interrupted = [](std::size_t step_cost) { return budget_charge(1 + step_cost / kMonitorWorkPerPoll); };
    auto compiled = compile(f, minimal.alphabet, opts);
    if (!compiled) return compiled.error();
    Dfa m = minimize(*compiled);
    auto diff = distinguishing_word(minimal, m);
    if (!diff) return true;
    if (counterexample) *counterexample = *diff;
    return false;
}


Sample initial_sample(std::size_t sigma, unsigned k, bool hybrid) {
    Sample sample;
    std::size_t max_len = sigma <= 1 ? 24 : sigma == 2 ? 9 : sigma == 3 ? 6 : 4;
    for (const Word& w : words_between(sigma, 0, max_len)) sample.add(w);
    Rng rng(derive_seed({"windows", std::to_string(k), hybrid ? "hybrid" : "local"}));
    for (int i = 0; i < 64 && sigma > 0; ++i) {
        Word w(max_len + 1 + rng.below(3 * max_len));
        for (auto& s : w) s = static_cast<Symbol>(rng.below(sigma));
        sample.add(w);
    }
    return sample;
}

YesSearchReport search_formula(const Dfa& minimal, unsigned k, bool hybrid, std::size_t budget, std::size_t* steps) {
    YesSearchReport rep;
    const std::size_t sigma = minimal.num_symbols();
    Sample sample = initial_sample(sigma, k, hybrid);
    const std::size_t max_pool = 6000;
    for (rep.rounds = 1; rep.rounds <= 12; ++rep.rounds) {
        if (budget_exhausted()) return rep;
        FormulaSearch fs(minimal, sample, k, hybrid);
        std::size_t reached = 0;
        ltl::Formula f = fs.run(max_pool, budget, steps, &reached);
        rep.max_size = std::max(rep.max_size, reached);
        rep.pool = std::max(rep.pool, fs.pool_size());
        rep.sample_words = sample.words.size();
        if (f.is_null()) return rep;
        Word cex;
        auto ok = formula_defines(f, minimal, &cex);
        if (!ok) {
            rep.failure = ok.error().message;
            return rep;
        }
        if (*ok) {
            rep.formula = f;
            return rep;
        }
        // Add the counterexample and its neighbours (longer versions with the same suffix).
        sample.add(cex);
        for (Symbol a = 0; a < sigma; ++a) {
            Word w{a};
            w.insert(w.end(), cex.begin(), cex.end());
            sample.add(w);
        }
    }
    return rep;
}


}  // namespace ltlkit::automata::algebra::window_strategies
