// Windows k >= 2 (SPEC §5, issue 4): LTL[Y<=k] (k-local attention) and LTL[P,Y<=k] (hybrid-k),
// answered yes / no / unknown with certificates. The arguments are in docs/WINDOWS.md:
//  - no:  a word family x·p^r·y / x·p^r·z whose membership differs for all large r while the EOS
//         nodes of the folded graphs F(p, y), F(p, z) are bisimilar (window relation, plus the
//         strict past for the hybrid fragment), so every formula of depth d agrees on the pair for
//         all large r (docs/WINDOWS.md, Lemmas 1–3);
//  - yes: a formula of the fragment found by an enumerative search with observational equivalence
//         on a word sample plus a Boolean combination of its EOS features (counterexample-guided:
//         every candidate is compiled back with automata::compile and compared with the DFA).
#include "automata/algebra/windows.hh"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <numeric>
#include <set>
#include <sstream>
#include <unordered_map>

#include "automata/algebra/classes.hh"
#include "automata/algebra/depth_probe.hh"
#include "automata/algorithms.hh"
#include "automata/io.hh"
#include "automata/monitor.hh"
#include "automata/random.hh"
#include "ltl/fragment.hh"
#include "ltl/parser.hh"
#include "ltl/printer.hh"

namespace ltlkit::automata::algebra {

namespace {

std::string class_id(bool hybrid, unsigned k) {
    return std::string(hybrid ? "hybrid_k:" : "local_k:") + std::to_string(k);
}
std::string fragment_name(bool hybrid, unsigned k) {
    return std::string(hybrid ? "LTL[P,Y<=" : "LTL[Y<=") + std::to_string(k) + "]";
}

// ---------------------------------------------------------------------------------------------
// Folded graphs (docs/WINDOWS.md §2). Nodes: B_0..B_{m-1} (the periodic part p^ω, by offset in p),
// one node per non-empty prefix of a tail word (the tail position holding its last symbol) and one
// EOS node per tail word. W: a node sees the k positions before it; P (hybrid): a node sees every
// B node and every earlier tail position.

struct FoldedGraph {
    std::vector<int> label;  // symbol index, -1 for EOS
    std::vector<std::vector<int>> w, past;
    std::map<Word, int> prefix_node;  // non-empty prefix -> its node
    std::map<Word, int> eos_node;     // tail word -> its EOS node
};

// Tails are all words in `tails` (their prefixes are added as nodes automatically).
FoldedGraph build_folded(const Word& p, const std::vector<Word>& tails, unsigned k, bool with_past) {
    FoldedGraph g;
    const long m = static_cast<long>(p.size());
    for (long o = 0; o < m; ++o) g.label.push_back(static_cast<int>(p[o]));
    g.w.resize(m);
    g.past.resize(m);
    auto offset_before_tail = [&](long t) {  // position t >= 1 steps before the first tail symbol
        return static_cast<int>(((m - t) % m + m) % m);
    };
    for (long o = 0; o < m; ++o) {
        for (unsigned j = 1; j <= k; ++j) g.w[o].push_back(static_cast<int>(((o - long(j)) % m + m) % m));
        if (with_past)
            for (long o2 = 0; o2 < m; ++o2) g.past[o].push_back(static_cast<int>(o2));
    }
    // Successors of the tail position s (1-based) of word y; s == |y|+1 is EOS.
    auto successors = [&](const Word& y, long s, std::vector<int>& wout, std::vector<int>& pout) {
        for (unsigned j = 1; j <= k; ++j) {
            long q = s - long(j);
            if (q >= 1)
                wout.push_back(g.prefix_node.at(Word(y.begin(), y.begin() + q)));
            else
                wout.push_back(offset_before_tail(long(j) - s + 1));
        }
        if (with_past) {
            for (long o = 0; o < m; ++o) pout.push_back(static_cast<int>(o));
            for (long q = 1; q < s; ++q) pout.push_back(g.prefix_node.at(Word(y.begin(), y.begin() + q)));
        }
    };
    std::vector<Word> all = tails;
    std::sort(all.begin(), all.end(), [](const Word& a, const Word& b) {
        return a.size() != b.size() ? a.size() < b.size() : a < b;
    });
    for (const Word& y : all) {
        for (std::size_t s = 1; s <= y.size(); ++s) {
            Word pre(y.begin(), y.begin() + s);
            if (g.prefix_node.count(pre)) continue;
            int id = static_cast<int>(g.label.size());
            g.label.push_back(static_cast<int>(y[s - 1]));
            g.w.emplace_back();
            g.past.emplace_back();
            g.prefix_node[pre] = id;
            successors(y, static_cast<long>(s), g.w[id], g.past[id]);
        }
        if (g.eos_node.count(y)) continue;
        int id = static_cast<int>(g.label.size());
        g.label.push_back(-1);
        g.w.emplace_back();
        g.past.emplace_back();
        g.eos_node[y] = id;
        successors(y, static_cast<long>(y.size()) + 1, g.w[id], g.past[id]);
    }
    return g;
}

// Coarsest bisimulation (naive partition refinement, Kanellakis & Smolka 1990 without the
// splitter bookkeeping): classes by label, then refine by (class, set of W-classes, set of
// P-classes) until stable. O(rounds · edges · log).
std::vector<int> bisimulation_classes(const FoldedGraph& g, std::size_t* steps = nullptr) {
    const std::size_t n = g.label.size();
    std::vector<int> cls(n);
    {
        std::map<int, int> ids;
        for (std::size_t i = 0; i < n; ++i) cls[i] = ids.emplace(g.label[i], int(ids.size())).first->second;
    }
    std::size_t count = 0;
    for (int c : cls) count = std::max<std::size_t>(count, c + 1);
    while (true) {
        std::map<std::vector<int>, int> ids;
        std::vector<int> next(n);
        for (std::size_t i = 0; i < n; ++i) {
            std::vector<int> sig{cls[i]};
            std::set<int> ws, ps;
            for (int v : g.w[i]) ws.insert(cls[v]);
            for (int v : g.past[i]) ps.insert(cls[v]);
            sig.insert(sig.end(), ws.begin(), ws.end());
            sig.push_back(-1);
            sig.insert(sig.end(), ps.begin(), ps.end());
            if (steps) ++*steps;
            next[i] = ids.emplace(std::move(sig), int(ids.size())).first->second;
        }
        std::size_t c2 = ids.size();
        cls = std::move(next);
        if (c2 == count) break;
        count = c2;
    }
    return cls;
}

// All words of length lo..hi over n symbols, shortest first, then lexicographically.
std::vector<Word> words_between(std::size_t n, std::size_t lo, std::size_t hi) {
    std::vector<Word> out;
    std::vector<Word> layer{Word{}};
    for (std::size_t len = 0; len <= hi; ++len) {
        if (len >= lo) out.insert(out.end(), layer.begin(), layer.end());
        if (len == hi) break;
        std::vector<Word> nextl;
        for (const Word& w : layer)
            for (Symbol a = 0; a < n; ++a) {
                Word v = w;
                v.push_back(a);
                nextl.push_back(std::move(v));
            }
        layer = std::move(nextl);
    }
    return out;
}

bool primitive(const Word& p) {
    for (std::size_t d = 1; d < p.size(); ++d) {
        if (p.size() % d) continue;
        bool periodic = true;
        for (std::size_t i = d; i < p.size() && periodic; ++i) periodic = p[i] == p[i - d];
        if (periodic) return false;
    }
    return true;
}

// States q_r = δ(start, p^r) for r = 0.. until the first repetition: q_s = q_{s+c}.
struct PowerRun {
    std::vector<State> q;  // q_0..q_{s+c-1}
    std::size_t s = 0, c = 1;
};
PowerRun power_run(const Dfa& d, State start, const Word& p) {
    PowerRun pr;
    std::map<State, std::size_t> seen;
    State q = start;
    while (!seen.count(q)) {
        seen[q] = pr.q.size();
        pr.q.push_back(q);
        q = d.run(q, p);
    }
    pr.s = seen[q];
    pr.c = pr.q.size() - pr.s;
    return pr;
}
State at_power(const PowerRun& pr, std::size_t r) {
    if (r < pr.q.size()) return pr.q[r];
    return pr.q[pr.s + (r - pr.s) % pr.c];
}

// Least r0 >= 1 with [accepts(q_r·y) != accepts(q_r·z)] for every r >= r0.
std::optional<std::size_t> differs_from(const Dfa& d, const PowerRun& pr, const Word& y, const Word& z) {
    auto differ = [&](std::size_t r) {
        State q = at_power(pr, r);
        return d.is_accepting(d.run(q, y)) != d.is_accepting(d.run(q, z));
    };
    for (std::size_t r = pr.s; r < pr.s + pr.c; ++r)
        if (!differ(r)) return std::nullopt;
    std::size_t r0 = pr.s;
    while (r0 > 1 && differ(r0 - 1)) --r0;
    return std::max<std::size_t>(r0, 1);
}

// ---------------------------------------------------------------------------------------------
// "no": search for a family (docs/WINDOWS.md §3).

struct NoSearchBounds {
    std::size_t max_p, max_tail, max_x;
};

NoSearchBounds no_bounds(std::size_t sigma, unsigned k, bool hybrid, const WindowOptions& o) {
    NoSearchBounds b{};
    b.max_p = o.max_period ? o.max_period : sigma <= 2 ? k + 4 : (sigma == 3 ? k + 1 : 3);
    b.max_tail = o.max_tail ? o.max_tail : sigma <= 2 ? 4 : (sigma == 3 ? 3 : 2);
    b.max_x = !hybrid ? 0 : o.max_prefix ? o.max_prefix : (sigma <= 2 ? 3 : 2);
    return b;
}

std::optional<WordFamily> search_family(const Dfa& dfa, unsigned k, bool hybrid, const WindowOptions& o,
                                        std::size_t* steps, bool* exhausted) {
    const std::size_t sigma = dfa.num_symbols();
    const std::size_t budget = o.search_budget;
    NoSearchBounds b = no_bounds(sigma, k, hybrid, o);
    std::vector<Word> tails = words_between(sigma, 0, b.max_tail);
    std::vector<Word> xs = words_between(sigma, 0, b.max_x);
    *exhausted = true;
    for (std::size_t plen = 1; plen <= b.max_p; ++plen) {
        for (const Word& p : words_between(sigma, plen, plen)) {
            if (!primitive(p)) continue;
            if (*steps > budget) {
                *exhausted = false;
                return std::nullopt;
            }
            FoldedGraph g = build_folded(p, tails, k, hybrid);
            std::vector<int> cls = bisimulation_classes(g, steps);
            // Tails grouped by the class of their EOS node.
            std::map<int, std::vector<const Word*>> by_class;
            for (const Word& y : tails) by_class[cls[g.eos_node.at(y)]].push_back(&y);
            std::optional<WordFamily> best;
            for (const Word& x : xs) {
                PowerRun pr = power_run(dfa, dfa.run(dfa.initial, x), p);
                for (const auto& [c, group] : by_class) {
                    if (group.size() < 2) continue;
                    for (std::size_t i = 0; i < group.size(); ++i)
                        for (std::size_t j = i + 1; j < group.size(); ++j) {
                            ++*steps;
                            auto r0 = differs_from(dfa, pr, *group[i], *group[j]);
                            if (!r0) continue;
                            std::size_t cost = group[i]->size() + group[j]->size();
                            if (best && best->y.size() + best->z.size() <= cost) continue;
                            best = WordFamily{x, p, *group[i], *group[j], *r0};
                        }
                }
                if (best) return best;
            }
        }
    }
    return std::nullopt;
}

// ---------------------------------------------------------------------------------------------
// "yes": enumerative formula search with observational equivalence on a word sample (as in
// bottom-up program synthesis, e.g. Udupa et al. 2013), then a Boolean combination of EOS
// features chosen greedily, checked by compiling back (counterexample-guided).

struct Sample {
    std::vector<Word> words;
    std::vector<std::size_t> start;  // position index of w's first position; EOS = start + |w|
    std::size_t total = 0;
    std::size_t blocks = 0;
    void add(const Word& w) {
        words.push_back(w);
        start.push_back(total);
        total += w.size() + 1;
        blocks = (total + 63) / 64;
    }
};

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
            if (pool_.size() >= max_pool || *steps > budget) return {};
            by_size_.emplace_back();
            // unary
            for (std::size_t idx : by_size_[size - 1]) {
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
                        if (pool_.size() >= max_pool || *steps > budget) break;
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

    // Greedy choice of features that separate accepted from rejected sample words, then a
    // decision tree over the chosen features.
    ltl::Formula synthesize() {
        std::vector<int> cls(s_.words.size(), 0);
        std::vector<std::size_t> chosen;
        auto conflicts = [&](const std::vector<int>& c) {
            std::map<int, std::pair<std::size_t, std::size_t>> cnt;
            for (std::size_t w = 0; w < s_.words.size(); ++w) (target_[w] ? cnt[c[w]].first : cnt[c[w]].second)++;
            std::size_t total = 0;
            for (auto& [_, pr] : cnt) total += pr.first * pr.second;
            return total;
        };
        std::size_t current = conflicts(cls);
        while (current > 0) {
            std::size_t best = SIZE_MAX, best_conf = current;
            std::vector<int> best_cls;
            for (std::size_t idx = 0; idx < pool_.size(); ++idx) {
                std::vector<int> c2(s_.words.size());
                for (std::size_t w = 0; w < s_.words.size(); ++w) c2[w] = cls[w] * 2 + eos(idx, w);
                std::size_t conf = conflicts(c2);
                if (conf < best_conf ||
                    (conf == best_conf && best != SIZE_MAX && pool_[idx].size < pool_[best].size)) {
                    if (conf == current) continue;
                    best = idx;
                    best_conf = conf;
                    best_cls = std::move(c2);
                }
            }
            if (best == SIZE_MAX) return {};  // cannot happen when consistent()
            chosen.push_back(best);
            cls = std::move(best_cls);
            current = best_conf;
        }
        std::vector<std::size_t> all(s_.words.size());
        std::iota(all.begin(), all.end(), 0);
        return tree(chosen, 0, all);
    }

    ltl::Formula tree(const std::vector<std::size_t>& feats, std::size_t level, const std::vector<std::size_t>& ws) {
        bool any_acc = false, any_rej = false;
        for (std::size_t w : ws) (target_[w] ? any_acc : any_rej) = true;
        if (!any_rej) return ltl::Formula::tt();
        if (!any_acc) return ltl::Formula::ff();
        if (level >= feats.size()) return ltl::Formula::ff();  // unreachable: features separate
        std::vector<std::size_t> hi, lo;
        for (std::size_t w : ws) (eos(feats[level], w) ? hi : lo).push_back(w);
        if (hi.empty()) return tree(feats, level + 1, lo);
        if (lo.empty()) return tree(feats, level + 1, hi);
        ltl::Formula f = pool_[feats[level]].f;
        ltl::Formula a = tree(feats, level + 1, hi), b = tree(feats, level + 1, lo);
        auto is = [](ltl::Formula g, ltl::Op op) { return g.op() == op; };
        const bool at = is(a, ltl::Op::True), af = is(a, ltl::Op::False);
        const bool bt = is(b, ltl::Op::True), bf = is(b, ltl::Op::False);
        ltl::Formula nf = ltl::Formula::neg(f);
        // (f & a) | (!f & b), simplified where a or b is constant.
        if (at && bf) return f;
        if (af && bt) return nf;
        if (at) return ltl::Formula::disj(f, b);
        if (af) return ltl::Formula::conj(nf, b);
        if (bt) return ltl::Formula::disj(nf, a);
        if (bf) return ltl::Formula::conj(f, a);
        return ltl::Formula::disj(ltl::Formula::conj(f, a), ltl::Formula::conj(nf, b));
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
    auto compiled = compile(f, minimal.alphabet, opts);
    if (!compiled) return compiled.error();
    Dfa m = minimize(*compiled);
    auto diff = distinguishing_word(minimal, m);
    if (!diff) return true;
    if (counterexample) *counterexample = *diff;
    return false;
}

struct YesSearchReport {
    ltl::Formula formula;
    std::size_t rounds = 0, max_size = 0, pool = 0, sample_words = 0;
    std::string failure;  // compile error, if any
};

YesSearchReport search_formula(const Dfa& minimal, unsigned k, bool hybrid, std::size_t budget, std::size_t* steps) {
    YesSearchReport rep;
    const std::size_t sigma = minimal.num_symbols();
    Sample sample;
    std::size_t max_len = sigma <= 1 ? 24 : sigma == 2 ? 9 : sigma == 3 ? 6 : 4;
    for (const Word& w : words_between(sigma, 0, max_len)) sample.add(w);
    Rng rng(derive_seed({"windows", std::to_string(k), hybrid ? "hybrid" : "local"}));
    for (int i = 0; i < 64 && sigma > 0; ++i) {
        Word w(max_len + 1 + rng.below(3 * max_len));
        for (auto& s : w) s = static_cast<Symbol>(rng.below(sigma));
        sample.add(w);
    }
    const std::size_t max_pool = 6000;
    for (rep.rounds = 1; rep.rounds <= 12; ++rep.rounds) {
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

WindowDecision decide(const Dfa& minimal, unsigned k, bool hybrid, const WindowOptions& options) {
    WindowDecision d;
    Certificate& c = d.certificate;
    c.class_id = class_id(hybrid, k);
    const std::string frag = fragment_name(hybrid, k);
    // An R-trivial language is in LTL[P] ⊆ LTL[P,Y<=k]: LC25 Lemma C.1's formula, compiled back.
    if (hybrid) {
        if (auto f = partially_ordered_formula(minimal)) {
            auto ok = formula_defines(*f, minimal, nullptr);
            if (ok && *ok) {
                d.answer = Answer::Yes;
                c.member = true;
                c.kind = "formula";
                std::size_t size = ltl::tree_size(*f);
                c.fact = "R-trivial (partially ordered minimal DFA), so LC25 Lemma C.1 gives an LTL[P] formula (tree size " +
                         std::to_string(size) + "), which lies in " + frag + "; compiled back";
                if (size <= options.max_formula_size)
                    c.formula = ltl::to_string(*f);
                else
                    c.formula_omitted = "formula tree size " + std::to_string(size) + " exceeds the cap " +
                                        std::to_string(options.max_formula_size);
                c.extra_json = nlohmann::json({{"k", k}, {"formula_size", size}}).dump();
                return d;
            }
        }
    }
    std::size_t steps = 0;
    bool exhausted = false;
    auto fam = search_family(minimal, k, hybrid, options, &steps, &exhausted);
    if (fam) {
        d.answer = Answer::No;
        c.member = false;
        c.kind = hybrid ? "hybrid_bisimulation" : "window_bisimulation";
        const auto& A = minimal.alphabet;
        auto fw = [&](const Word& w) { return w.empty() ? std::string("ε") : format_word(A, w); };
        std::ostringstream os;
        os << "the EOS nodes of the folded graphs of p^ω·y and p^ω·z (p = " << fw(fam->p) << ", y = "
           << fw(fam->y) << ", z = " << fw(fam->z) << ") are bisimilar for the window-" << k
           << (hybrid ? " and strict-past modalities" : " modality") << ", so no " << frag
           << " formula separates x·p^r·y from x·p^r·z (x = " << fw(fam->x) << ") for large r, while their membership differs for every r >= "
           << fam->r_min;
        c.fact = os.str();
        c.family = *fam;
        for (std::size_t r = fam->r_min; r < fam->r_min + 3; ++r) {
            Word u = fam->x, v = fam->x;
            for (std::size_t i = 0; i < r; ++i) {
                u.insert(u.end(), fam->p.begin(), fam->p.end());
                v.insert(v.end(), fam->p.begin(), fam->p.end());
            }
            u.insert(u.end(), fam->y.begin(), fam->y.end());
            v.insert(v.end(), fam->z.begin(), fam->z.end());
            if (!minimal.accepts(u)) std::swap(u, v);
            c.pairs.emplace_back(u, v);
        }
        nlohmann::json extra = {{"k", k}, {"modalities", hybrid ? "window+past" : "window"}};
        c.extra_json = extra.dump();
        return d;
    }
    std::size_t no_steps = steps;
    steps = 0;
    YesSearchReport rep = search_formula(minimal, k, hybrid, options.search_budget, &steps);
    steps += no_steps;
    if (!rep.formula.is_null()) {
        d.answer = Answer::Yes;
        c.member = true;
        c.kind = "formula";
        std::size_t size = ltl::tree_size(rep.formula);
        c.fact = "a " + frag + " formula (tree size " + std::to_string(size) +
                 ") whose minimal DFA equals the language's, found by formula search and compiled back";
        if (size <= options.max_formula_size)
            c.formula = ltl::to_string(rep.formula);
        else
            c.formula_omitted = "formula tree size " + std::to_string(size) + " exceeds the cap " +
                                std::to_string(options.max_formula_size);
        nlohmann::json extra = {{"k", k}, {"formula_size", size}};
        c.extra_json = extra.dump();
        return d;
    }
    // Neither certificate was found: probe the depth-d EOS types exactly (depth_probe.hh). A
    // conflict at depth d proves that no defining formula has depth <= d; separation at depth d
    // proves membership (the type exploration is the certificate, re-run by the checker).
    std::size_t probe_states = 0;
    unsigned lower = 0;
    DepthProbe witness;
    for (unsigned depth = 1; depth <= options.probe_depth; ++depth) {
        DepthProbe pr = probe_depth(minimal, k, hybrid, depth, options.probe_states);
        probe_states += pr.states;
        if (pr.status == DepthProbe::Status::Conflict) {
            lower = depth;
            witness = std::move(pr);
            continue;
        }
        if (pr.status == DepthProbe::Status::Separates) {
            d.answer = Answer::Yes;
            c.member = true;
            c.kind = "depth_types";
            c.fact = "the depth-" + std::to_string(depth) + " EOS types of " + frag +
                     " determine membership on every word (exhaustive exploration of " + std::to_string(pr.states) +
                     " product states, " + std::to_string(pr.eos_types) +
                     " EOS types), so a formula of depth " + std::to_string(depth) + " defines the language";
            c.formula_omitted = "the Boolean combination of characteristic formulas of the depth-" + std::to_string(depth) +
                                " types is not printed; check-certificate re-runs the exploration";
            c.extra_json = nlohmann::json({{"k", k}, {"depth", depth}, {"probe_states", pr.states}}).dump();
            return d;
        }
        break;  // state limit
    }
    NoSearchBounds b = no_bounds(minimal.num_symbols(), k, hybrid, options);
    d.answer = Answer::Unknown;
    c.member = false;
    c.kind = "search_exhausted";
    std::ostringstream os;
    os << "no witness family with |p| <= " << b.max_p << ", |y|,|z| <= " << b.max_tail << ", |x| <= " << b.max_x
       << (exhausted ? "" : " (budget hit before the end)") << ", and no " << frag
       << " formula among " << rep.pool << " distinct behaviours up to size " << rep.max_size << " on "
       << rep.sample_words << " sample words in " << rep.rounds << " rounds"
       << (rep.failure.empty() ? "" : " (" + rep.failure + ")") << "; " << steps << " search steps";
    if (lower > 0)
        os << "; no defining formula has depth <= " << lower << " (the depth-" << lower << " EOS types of '"
           << format_word(minimal.alphabet, witness.accepted) << "' (accepted) and '"
           << format_word(minimal.alphabet, witness.rejected) << "' (rejected) are equal)";
    if (lower < options.probe_depth)
        os << "; the depth-" << (lower + 1) << " probe stopped at " << options.probe_states << " product states";
    c.fact = os.str();
    if (lower > 0) c.pairs.emplace_back(witness.accepted, witness.rejected);
    nlohmann::json extra = {{"k", k},
                            {"bounds",
                             {{"max_p", b.max_p},
                              {"max_tail", b.max_tail},
                              {"max_x", b.max_x},
                              {"formula_pool", rep.pool},
                              {"formula_size", rep.max_size},
                              {"search_budget", options.search_budget},
                              {"probe_depth", options.probe_depth},
                              {"probe_states", options.probe_states}}}};
    if (lower > 0) extra["depth_lower_bound"] = lower;
    c.extra_json = extra.dump();
    return d;
}

// Pair graph SCCs (Tarjan 1972) for the definite / locally R-trivial tests.
struct PairInfo {
    std::vector<std::uint8_t> cyclic;  // per pair p*n+q: lies on a cycle of the pair graph
    std::vector<int> scc;              // SCC id of each state of the DFA
};

std::vector<int> tarjan(std::size_t n, const std::function<void(std::size_t, const std::function<void(std::size_t)>&)>& succ,
                        std::vector<std::uint8_t>* cyclic) {
    std::vector<int> index(n, -1), low(n, 0), comp(n, -1);
    std::vector<std::uint8_t> on(n, 0);
    std::vector<std::size_t> stack;
    int counter = 0, comps = 0;
    cyclic->assign(n, 0);
    // iterative DFS
    for (std::size_t root = 0; root < n; ++root) {
        if (index[root] != -1) continue;
        std::vector<std::pair<std::size_t, std::vector<std::size_t>>> dfs;
        auto push = [&](std::size_t v) {
            index[v] = low[v] = counter++;
            stack.push_back(v);
            on[v] = 1;
            std::vector<std::size_t> s;
            succ(v, [&](std::size_t u) { s.push_back(u); });
            for (std::size_t u : s)
                if (u == v) (*cyclic)[v] = 1;
            dfs.emplace_back(v, std::move(s));
        };
        push(root);
        while (!dfs.empty()) {
            auto& [v, s] = dfs.back();
            if (!s.empty()) {
                std::size_t u = s.back();
                s.pop_back();
                if (index[u] == -1) {
                    push(u);
                } else if (on[u]) {
                    low[v] = std::min(low[v], index[u]);
                }
                continue;
            }
            std::size_t vv = v;
            dfs.pop_back();
            if (!dfs.empty()) low[dfs.back().first] = std::min(low[dfs.back().first], low[vv]);
            if (low[vv] == index[vv]) {
                std::vector<std::size_t> members;
                while (true) {
                    std::size_t w = stack.back();
                    stack.pop_back();
                    on[w] = 0;
                    comp[w] = comps;
                    members.push_back(w);
                    if (w == vv) break;
                }
                if (members.size() > 1)
                    for (auto w : members) (*cyclic)[w] = 1;
                ++comps;
            }
        }
    }
    return comp;
}

PairInfo pair_info(const Dfa& d) {
    const std::size_t n = d.num_states(), s = d.num_symbols();
    PairInfo info;
    std::vector<std::uint8_t> dummy;
    info.scc = tarjan(n, [&](std::size_t q, const std::function<void(std::size_t)>& f) {
        for (Symbol a = 0; a < s; ++a) f(d.next(static_cast<State>(q), a));
    }, &dummy);
    tarjan(n * n, [&](std::size_t pq, const std::function<void(std::size_t)>& f) {
        State p = static_cast<State>(pq / n), q = static_cast<State>(pq % n);
        for (Symbol a = 0; a < s; ++a) f(std::size_t(d.next(p, a)) * n + d.next(q, a));
    }, &info.cyclic);
    return info;
}

}  // namespace

bool definite_by_pair_graph(const Dfa& minimal) {
    const std::size_t n = minimal.num_states();
    PairInfo info = pair_info(minimal);
    for (std::size_t p = 0; p < n; ++p)
        for (std::size_t q = 0; q < n; ++q)
            if (p != q && info.cyclic[p * n + q]) return false;
    return true;
}

bool locally_r_trivial_by_pair_graph(const Dfa& minimal) {
    const std::size_t n = minimal.num_states();
    PairInfo info = pair_info(minimal);
    for (std::size_t p = 0; p < n; ++p)
        for (std::size_t q = 0; q < n; ++q)
            if (p != q && info.scc[p] == info.scc[q] && info.cyclic[p * n + q]) return false;
    return true;
}

bool family_eos_bisimilar(const Word& p, const Word& y, const Word& z, unsigned k, bool with_past) {
    if (p.empty() || k == 0) return false;
    FoldedGraph g = build_folded(p, {y, z}, k, with_past);
    std::vector<int> cls = bisimulation_classes(g);
    return cls[g.eos_node.at(y)] == cls[g.eos_node.at(z)];
}

std::optional<std::size_t> membership_differs_from(const Dfa& d, const Word& x, const Word& p, const Word& y,
                                                   const Word& z) {
    if (p.empty()) {
        bool differ = d.is_accepting(d.run(d.run(d.initial, x), y)) != d.is_accepting(d.run(d.run(d.initial, x), z));
        return differ ? std::optional<std::size_t>(1) : std::nullopt;
    }
    return differs_from(d, power_run(d, d.run(d.initial, x), p), y, z);
}

bool formula_in_window_fragment(ltl::Formula f, unsigned k, bool with_past) {
    ltl::Fragment fr = ltl::fragment_of(f);
    using K = ltl::FragmentKind;
    switch (fr.kind) {
        case K::None: return true;
        case K::YLeqK: return fr.k == k;
        case K::P: return with_past;
        case K::PYLeqK: return with_past && fr.k == k;
        default: return false;
    }
}

WindowDecision decide_local_k(const Dfa& minimal, unsigned k, const WindowOptions& options) {
    return decide(minimal, k, false, options);
}

WindowDecision decide_hybrid_k(const Dfa& minimal, unsigned k, const WindowOptions& options) {
    return decide(minimal, k, true, options);
}

// Independent re-verification (docs/WINDOWS.md §5): a "yes" formula is parsed, its fragment
// checked and compiled back; a "no" family is re-checked by recomputing the bisimulation of the
// folded graphs and the eventual membership difference on the embedded DFA.
Result<bool> check_window_certificate(const std::string& json_text, std::string* explanation) {
    auto say = [&](const std::string& s) {
        if (explanation) *explanation = s;
    };
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(json_text);
    } catch (const std::exception& e) {
        return make_error(std::string("certificate is not JSON: ") + e.what());
    }
    if (!j.is_object() || !j.contains("dfa") || !j.contains("class") || !j["class"].is_string())
        return make_error("certificate needs \"dfa\" and \"class\"");
    std::string cls = j["class"];
    bool hybrid;
    std::string num;
    if (cls.rfind("local_k:", 0) == 0) {
        hybrid = false;
        num = cls.substr(8);
    } else if (cls.rfind("hybrid_k:", 0) == 0) {
        hybrid = true;
        num = cls.substr(9);
    } else {
        return make_error("not a window class id: " + cls);
    }
    if (num.empty() || num.size() > 4 || !std::all_of(num.begin(), num.end(), [](char ch) { return ch >= '0' && ch <= '9'; }))
        return make_error("bad window in class id: " + cls);
    unsigned k = static_cast<unsigned>(std::stoul(num));
    if (k < 2) return make_error("window classes start at k = 2: " + cls);
    auto dfa = dfa_from_json(j["dfa"].dump());
    if (!dfa) return dfa.error();
    Dfa minimal = minimize(*dfa);
    if (!j.contains("member") || !j["member"].is_boolean()) return make_error("certificate needs a boolean \"member\"");
    bool member = j["member"];
    std::string kind = j.value("kind", "");
    auto read_count = [&](const char* key, std::size_t hi) -> Result<std::size_t> {
        if (!j.contains(key) || !j[key].is_number_unsigned() || j[key].get<std::size_t>() < 1 || j[key].get<std::size_t>() > hi)
            return make_error(std::string("certificate needs \"") + key + "\" between 1 and " + std::to_string(hi));
        return j[key].get<std::size_t>();
    };
    if (member && kind == "depth_types" && !j.contains("formula")) {
        // Re-run the exhaustive exploration of the depth-d EOS types (depth_probe.hh).
        auto depth = read_count("depth", 64);
        if (!depth) return depth.error();
        const std::size_t limit = 5'000'000;
        DepthProbe pr = probe_depth(minimal, k, hybrid, static_cast<unsigned>(*depth), limit);
        if (pr.status == DepthProbe::Status::Separates) {
            say("the depth-" + std::to_string(*depth) + " EOS types of " + fragment_name(hybrid, k) +
                " determine membership on every word (" + std::to_string(pr.states) + " product states explored)");
            return true;
        }
        if (pr.status == DepthProbe::Status::Conflict)
            say("the depth-" + std::to_string(*depth) + " EOS types of '" + format_word(minimal.alphabet, pr.accepted) +
                "' (accepted) and '" + format_word(minimal.alphabet, pr.rejected) + "' (rejected) are equal");
        else
            say("the exploration exceeded " + std::to_string(limit) + " product states");
        return false;
    }
    if (!member && kind == "search_exhausted") {
        // "unknown": nothing is claimed but the depth lower bound, if any: an accepted and a rejected
        // word whose depth-D EOS types are equal (recomputed on the words themselves).
        if (!j.contains("depth_lower_bound")) {
            say("an unknown answer without a depth lower bound claims nothing that can be re-verified");
            return false;
        }
        auto depth = read_count("depth_lower_bound", 64);
        if (!depth) return depth.error();
        if (!j.contains("pairs") || !j["pairs"].is_array() || j["pairs"].empty() || !j["pairs"][0].is_array() ||
            j["pairs"][0].size() != 2 || !j["pairs"][0][0].is_string() || !j["pairs"][0][1].is_string())
            return make_error("a depth lower bound needs \"pairs\": [[accepted, rejected]]");
        auto a = parse_word(minimal.alphabet, j["pairs"][0][0].get<std::string>());
        if (!a) return a.error();
        auto r = parse_word(minimal.alphabet, j["pairs"][0][1].get<std::string>());
        if (!r) return r.error();
        if (!minimal.accepts(*a) || minimal.accepts(*r)) {
            say("the first pair is not [accepted, rejected]");
            return false;
        }
        if (!eos_depth_types_equal(*a, *r, k, hybrid, static_cast<unsigned>(*depth))) {
            say("the depth-" + std::to_string(*depth) + " EOS types of the pair differ");
            return false;
        }
        say("the answer is unknown; its lower bound holds: the depth-" + std::to_string(*depth) +
            " EOS types of an accepted and a rejected word are equal, so no " + fragment_name(hybrid, k) +
            " formula of depth <= " + std::to_string(*depth) + " defines the language");
        return true;
    }
    if (member) {
        if (!j.contains("formula") || !j["formula"].is_string()) {
            say("a member certificate without a formula cannot be re-verified");
            return false;
        }
        auto f = ltl::parse_formula(j["formula"].get<std::string>());
        if (!f) return f.error();
        if (!formula_in_window_fragment(*f, k, hybrid)) {
            say("the formula is in " + ltl::fragment_of(*f).name() + ", not in " + fragment_name(hybrid, k));
            return false;
        }
        for (const auto& a : ltl::atoms(*f))
            if (std::find(minimal.alphabet.begin(), minimal.alphabet.end(), a) == minimal.alphabet.end()) {
                say("the formula uses symbol '" + a + "' outside the DFA's alphabet");
                return false;
            }
        Word cex;
        auto ok = formula_defines(*f, minimal, &cex);
        if (!ok) return ok.error();
        if (!*ok) {
            say("the formula's language differs from the DFA's on '" + format_word(minimal.alphabet, cex) + "'");
            return false;
        }
        say("the formula is in " + fragment_name(hybrid, k) + " and compiles to the DFA's minimal automaton");
        return true;
    }
    if (!j.contains("family") || !j["family"].is_object()) {
        say("a non-member certificate without a family cannot be re-verified (kind " + kind + ")");
        return false;
    }
    const auto& fam = j["family"];
    Word w[4];
    const char* names[4] = {"x", "p", "y", "z"};
    for (int i = 0; i < 4; ++i) {
        if (!fam.contains(names[i]) || !fam[names[i]].is_string())
            return make_error(std::string("family needs a string \"") + names[i] + "\"");
        auto pw = parse_word(minimal.alphabet, fam[names[i]].get<std::string>());
        if (!pw) return pw.error();
        w[i] = *pw;
    }
    std::size_t r_min = 1;
    if (fam.contains("r_min")) {
        if (!fam["r_min"].is_number_unsigned()) return make_error("family \"r_min\" must be a non-negative integer");
        r_min = fam["r_min"].get<std::size_t>();
    }
    if (w[1].empty()) {
        say("the period p is empty");
        return false;
    }
    auto from = membership_differs_from(minimal, w[0], w[1], w[2], w[3]);
    if (from && r_min == 0 &&
        minimal.accepts([&] { Word u = w[0]; u.insert(u.end(), w[2].begin(), w[2].end()); return u; }()) ==
            minimal.accepts([&] { Word v = w[0]; v.insert(v.end(), w[3].begin(), w[3].end()); return v; }()))
        from = std::nullopt;
    if (!from || *from > std::max<std::size_t>(r_min, 1)) {
        say(from ? "membership of x·p^r·y and x·p^r·z differs only from r = " + std::to_string(*from)
                 : "membership of x·p^r·y and x·p^r·z agrees for infinitely many r");
        return false;
    }
    if (!family_eos_bisimilar(w[1], w[2], w[3], k, hybrid)) {
        say("the EOS nodes of the folded graphs are not bisimilar for " + fragment_name(hybrid, k));
        return false;
    }
    say("membership differs for every r >= " + std::to_string(std::max<std::size_t>(r_min, 1)) +
        " and the folded graphs' EOS nodes are bisimilar for " + fragment_name(hybrid, k));
    return true;
}

}  // namespace ltlkit::automata::algebra
