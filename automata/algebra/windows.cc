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
#include "automata/algorithms.hh"
#include "automata/io.hh"
#include "automata/json.hh"
#include "automata/monitor.hh"
#include "automata/random.hh"
#include "ltl/fragment.hh"
#include "ltl/parser.hh"
#include "ltl/printer.hh"

namespace ltlkit::automata::algebra {

// --- window types (windows.hh, docs/WINDOWS.md §3b)

long WindowTypes::intern(std::vector<long> s) {
    auto [it, fresh] = ids.emplace(s, long(sig.size()));
    if (fresh) sig.push_back(std::move(s));
    return it->second;
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
    const std::vector<long> s = sig[static_cast<std::size_t>(id)];
    ltl::Formula f;
    if (s[0] == -2) {
        if (s[1] < long(sigma)) {
            f = ltl::Formula::atom(alphabet[static_cast<std::size_t>(s[1])]);
        } else {  // EOS: no symbol holds
            f = ltl::Formula::tt();
            for (const auto& a : alphabet) f = ltl::Formula::conj(f, ltl::Formula::neg(ltl::Formula::atom(a)));
        }
        if (s.size() == 3)  // annotated with the set of letters strictly before (the sink route, §3c)
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
// "no": search for a family (docs/WINDOWS.md §2).

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
            if (*steps > budget || budget_exhausted()) {
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
                            best = WordFamily{};
                            best->x = x;
                            best->p = p;
                            best->y = *group[i];
                            best->z = *group[j];
                            best->r_min = *r0;
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

struct Feature {
    ltl::Formula f;
    std::size_t size;               // ties go to the smaller formula
    std::vector<std::uint8_t> val;  // per sample word
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
    ltl::Formula f = ft.f;
    ltl::Formula a = decision_tree(target, feats, chosen, level + 1, hi);
    ltl::Formula b = decision_tree(target, feats, chosen, level + 1, lo);
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
            if (budget_exhausted()) return std::nullopt;  // no choice within the budget
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
            if (pool_.size() >= max_pool || *steps > budget || budget_exhausted()) return {};
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
                        if (pool_.size() >= max_pool || *steps > budget || budget_exhausted()) break;
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
    auto compiled = compile(f, minimal.alphabet, opts);
    if (!compiled) return compiled.error();
    Dfa m = minimize(*compiled);
    auto diff = distinguishing_word(minimal, m);
    if (!diff) return true;
    if (counterexample) *counterexample = *diff;
    return false;
}

// ---------------------------------------------------------------------------------------------
// "yes", second route: characteristic formulas of window types (docs/WINDOWS.md §3b). The level-j
// window type of a position is its level-(j-1) type with the set of level-(j-1) types in its
// window (level 0: the letter, or EOS). chi(t), below, holds exactly at the positions of type t,
// so Boolean combinations of chi(t) at EOS (local) and of P chi(t) (hybrid) lie in the fragment;
// the features of the sample words choose one, which is then compiled back (counterexample-guided).


constexpr unsigned kTypeDepth = 3;  // window depths of the typed route
constexpr std::size_t kProbeFormulaDag = 2'000;  // depth-probe formulas compiled back up to this DAG size
constexpr unsigned kSinkDepth = 6;  // window depths of the sink route

struct TypedSearchReport {
    ltl::Formula formula;
    unsigned depth = 0;           // window depth D of the types
    std::size_t rounds = 0, states = 0;  // rounds over all depths; product states explored
};

struct YesSearchReport {
    ltl::Formula formula;
    std::size_t rounds = 0, max_size = 0, pool = 0, sample_words = 0;
    std::string failure;  // compile error, if any
};

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

// The past features tracked by the product exploration, as bits of one mask: `seen` bits (the type,
// of any level 0..D, occurred before: P chi(t)) and, at past depth 2, ordered-pair bits (P(chi(at) & P chi(before)):
// an `at` position with a `before` position earlier; with neg, P(chi(at) & !P chi(before)): an
// `at` position with none earlier).
struct PastSpec {
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

// The disjunction of f(t) over ts (false when ts is empty).
template <class F>
ltl::Formula disjoin(const std::set<long>& ts, F&& f) {
    ltl::Formula out = ltl::Formula::ff();
    bool first = true;
    for (long t : ts) {
        ltl::Formula g = f(t);
        out = first ? g : ltl::Formula::disj(out, g);
        first = false;
    }
    return out;
}

// A window type's level (0 for a letter or EOS), its level-0 type, and its window (level j-1 ids).
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

// A weakening of chi(t) for a level-j type t (docs/WINDOWS.md §3c, step 4): a greedy choice among
// its conjuncts (its letter, its level-(j-1) type, one "Y<=k chi(s)" per window type s, "nothing
// else in the window") that still excludes every type of `others` (level-j types other than t),
// then without the conjuncts that the others cover. It holds wherever t does and, like chi(t), only
// depends on the level-j type. `eos`: t is an EOS type, evaluated only at EOS (no letter conjunct).
ltl::Formula weakened_chi(WindowTypes& types, long t, const std::vector<long>& others, bool eos,
                          const std::vector<std::string>& alphabet) {
    const unsigned j = type_level(types, t);
    if (j == 0) return types.formula(t, alphabet);
    const long own = types.sig[std::size_t(t)][0];
    const std::vector<long> S = type_window(types, t);
    struct Cand {
        ltl::Formula f;
        std::vector<std::uint8_t> excl;  // per type of `others`
    };
    std::vector<Cand> cands;
    auto add = [&](ltl::Formula f, auto&& excludes) {
        Cand c{f, std::vector<std::uint8_t>(others.size())};
        for (std::size_t i = 0; i < others.size(); ++i) c.excl[i] = excludes(others[i]);
        cands.push_back(std::move(c));
    };
    if (!eos)
        add(types.formula(type_ground(types, t), alphabet),
            [&](long g) { return type_ground(types, g) != type_ground(types, t); });
    if (j >= 2 || eos) add(types.formula(own, alphabet), [&](long g) { return types.sig[std::size_t(g)][0] != own; });
    for (long si : S)
        add(ltl::Formula::bounded_yesterday(types.formula(si, alphabet), types.k), [&](long g) {
            const auto w = type_window(types, g);
            return !std::binary_search(w.begin(), w.end(), si);
        });
    const std::set<long> Sset(S.begin(), S.end());
    add(ltl::Formula::neg(ltl::Formula::bounded_yesterday(
            ltl::Formula::neg(disjoin(Sset, [&](long si) { return types.formula(si, alphabet); })), types.k)),
        [&](long g) {
            const auto w = type_window(types, g);
            return !std::includes(S.begin(), S.end(), w.begin(), w.end());
        });
    std::vector<std::uint8_t> done(others.size(), 0), used(cands.size(), 0);
    for (std::size_t left = others.size(); left > 0;) {
        std::size_t best = cands.size();
        double score = 0;
        for (std::size_t ci = 0; ci < cands.size(); ++ci) {
            std::size_t gain = 0;
            for (std::size_t i = 0; i < others.size(); ++i) gain += !done[i] && cands[ci].excl[i];
            const double sc = double(gain) / double(ltl::tree_size(cands[ci].f));
            if (!used[ci] && gain > 0 && sc > score) score = sc, best = ci;
        }
        if (best == cands.size()) return types.formula(t, alphabet);  // cannot happen: together they are chi(t)
        used[best] = 1;
        for (std::size_t i = 0; i < others.size(); ++i)
            if (!done[i] && cands[best].excl[i]) done[i] = 1, --left;
    }
    auto covered_without = [&](std::size_t ci) {
        for (std::size_t i = 0; i < others.size(); ++i) {
            bool any = false;
            for (std::size_t cj = 0; cj < cands.size() && !any; ++cj) any = cj != ci && used[cj] && cands[cj].excl[i];
            if (!any) return false;
        }
        return true;
    };
    for (std::size_t ci = 0; ci < cands.size(); ++ci)
        if (used[ci] && covered_without(ci)) used[ci] = 0;
    ltl::Formula f = ltl::Formula::tt();
    bool first = true;
    for (std::size_t ci = 0; ci < cands.size(); ++ci)
        if (used[ci]) {
            f = first ? cands[ci].f : ltl::Formula::conj(f, cands[ci].f);
            first = false;
        }
    return f;
}

// The word that a breadth-first exploration reached state s by: parent[s] = (previous state, letter),
// (-1, -1) at the start.
Word word_from_parents(const std::vector<std::pair<std::int32_t, std::int32_t>>& parent, std::int32_t s) {
    Word w;
    for (; parent[std::size_t(s)].first >= 0; s = parent[std::size_t(s)].first)
        w.push_back(static_cast<Symbol>(parent[std::size_t(s)].second));
    std::reverse(w.begin(), w.end());
    return w;
}

// The window part of the product automata of the typed and sink routes: after the DFA state, a
// state holds the level-0..D-1 types of the last k positions (oldest first, -1 before the word).
// levels() computes the level-0..D types of a new position (or EOS) into `fresh`; shift() writes
// the windows of the successor state after that position into nx[1..D*k].
struct TypeWindow {
    WindowTypes& types;
    unsigned D;
    std::vector<long> fresh = std::vector<long>(D + 1), win = {};
    // past >= 0: the level-0 type also holds the set of letters before the position (bit mask)
    void levels(const std::vector<long>& st, long label, long past = -1) {
        const std::ptrdiff_t k = static_cast<std::ptrdiff_t>(types.k);
        fresh[0] = past < 0 ? types.intern({-2, label}) : types.intern({-2, label, past});
        for (unsigned j = 1; j <= D; ++j) {
            win.assign(st.begin() + 1 + std::ptrdiff_t(j - 1) * k, st.begin() + 1 + std::ptrdiff_t(j) * k);
            win.erase(std::remove(win.begin(), win.end(), -1L), win.end());
            std::sort(win.begin(), win.end());
            win.erase(std::unique(win.begin(), win.end()), win.end());
            std::vector<long> sig{fresh[j - 1]};
            sig.insert(sig.end(), win.begin(), win.end());
            fresh[j] = types.intern(std::move(sig));
        }
    }
    void shift(const std::vector<long>& st, std::vector<long>& nx) const {
        const std::size_t k = types.k;
        for (unsigned j = 0; j < D; ++j) {
            const std::size_t base = 1 + std::size_t(j) * k;
            for (std::size_t i = 0; i + 1 < k; ++i) nx[base + i] = st[base + i + 1];
            nx[base + k - 1] = fresh[j];
        }
    }
};

struct TypedProduct {
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

struct LongVecHash {
    std::size_t operator()(const std::vector<long>& v) const noexcept {
        std::uint64_t h = 0x9e3779b97f4a7c15ULL ^ v.size();
        for (long x : v) h = splitmix64(h ^ static_cast<std::uint64_t>(x));
        return static_cast<std::size_t>(h);
    }
};

// Breadth-first over (DFA state, window types of the last k positions at levels 0..D-1, mask of
// the past features); the type ids are those of `types` (shared with the sample).
TypedProduct explore_typed(const Dfa& dfa, WindowTypes& types, unsigned D, const PastSpec& past,
                           std::size_t max_states) {
    TypedProduct out;
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
    TypeWindow tw{types, D};
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
            if (states.size() >= max_states || budget_exhausted()) {
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
// with equal EOS types and equal PastView agree on every candidate feature of the typed route.
struct PastView {
    long eos = 0;
    std::set<long> present;
    std::set<std::pair<long, long>> pp, pn;
    bool operator==(const PastView&) const = default;
};

PastView past_view(const std::vector<long>& t, bool hybrid, bool pairs) {
    PastView v;
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

// The typed route (above WindowTypes), for window depths D = 1..max_depth. Per D, rounds of:
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
TypedSearchReport search_typed(const Dfa& minimal, unsigned k, bool hybrid, unsigned max_depth, std::size_t max_states,
                               unsigned past_depth) {
    TypedSearchReport rep;
    const std::size_t sigma = minimal.num_symbols();
    const bool pairs = hybrid && past_depth >= 2;
    constexpr std::size_t kMaxPairTypes = 300;  // past types in the sample beyond which pairs are not tried
    for (unsigned D = 1; D <= max_depth; ++D) {
        Sample sample = initial_sample(sigma, k, hybrid);
        WindowTypes types{k, sigma, {}, {}, {}};
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
            PastSpec past;
            for (std::size_t c : *chosen) {
                const Meaning& m = meaning[c];
                if (m.before < 0)
                    past.seen_bit(m.at);
                else
                    past.add_pair(m.before, m.at, m.neg);
            }
            if (past.bits > 62) break;
            if (rep.states >= max_states) return rep;  // the state budget of all rounds together
            TypedProduct prod = explore_typed(minimal, types, D, past, max_states - rep.states);
            rep.states += prod.states;
            if (prod.limit) break;
            if (prod.conflict) {
                // equal EOS types and equal candidate features: no formula of this form at depth D
                bool equal = false;
                for (const auto& [u, v] : prod.conflicts) {
                    equal = equal || past_view(types.types(u, D), hybrid, pairs) == past_view(types.types(v, D), hybrid, pairs);
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

// A "yes" by a formula that was compiled back: the certificate, the formula printed up to the cap.
WindowDecision formula_decision(ltl::Formula f, std::size_t size, unsigned k, bool hybrid, const std::string& fact,
                                nlohmann::json extra, const WindowOptions& options) {
    WindowDecision d;
    Certificate& c = d.certificate;
    c.class_id = class_id(hybrid, k);
    d.answer = Answer::Yes;
    c.member = true;
    c.kind = CertificateKind::Formula;
    c.fact = fact;
    if (size <= options.max_formula_size)
        c.formula = ltl::to_string(f);
    else
        c.formula_omitted = "formula tree size " + std::to_string(size) + " exceeds the cap " +
                            std::to_string(options.max_formula_size) + " (--formula-cap)";
    extra["k"] = k;
    extra["formula_size"] = size;
    c.extra_json = extra.dump();
    return d;
}

WindowDecision decide(const Dfa& minimal, unsigned k, bool hybrid, const WindowOptions& options) {
    SearchBudget budget;
    if (options.time_limit_s > 0)
        budget.deadline = SearchBudget::Clock::now() +
                          std::chrono::duration_cast<SearchBudget::Clock::duration>(std::chrono::duration<double>(options.time_limit_s));
    budget.memory_bytes = options.memory_limit_bytes;
    budget.progress = options.progress;
    BudgetScope scope(budget);
    // The searches get the first half of the question's time, so that the exact depth probe, which
    // decides some languages in a fraction of a second where every search fails, always runs.
    std::optional<BudgetScope> search_scope;
    if (options.time_limit_s > 0) {
        SearchBudget first_half = budget;
        first_half.deadline = SearchBudget::Clock::now() + (budget.deadline - SearchBudget::Clock::now()) / 2;
        search_scope.emplace(first_half);
    }
    WindowDecision d;
    Certificate& c = d.certificate;
    c.class_id = class_id(hybrid, k);
    const std::string frag = fragment_name(hybrid, k);
    // A "yes" by a formula that was compiled back: the certificate, the formula printed up to the cap.
    auto formula_yes = [&](ltl::Formula f, std::size_t size, const std::string& fact, nlohmann::json extra) {
        d = formula_decision(f, size, k, hybrid, fact, std::move(extra), options);
        return d;
    };
    // An R-trivial language is in LTL[P] ⊆ LTL[P,Y<=k]: LC25 Lemma C.1's formula, compiled back.
    if (hybrid) {
        if (auto f = partially_ordered_formula(minimal)) {
            auto ok = formula_defines(*f, minimal, nullptr);
            if (ok && *ok) {
                const std::size_t size = ltl::tree_size(*f);
                return formula_yes(*f, size,
                                   "R-trivial (partially ordered minimal DFA), so LC25 Lemma C.1 gives an LTL[P] formula (tree size " +
                                       std::to_string(size) + "), which lies in " + frag + "; compiled back",
                                   nlohmann::json::object());
            }
        }
    }
    std::size_t steps = 0;
    bool exhausted = false;
    auto fam = search_family(minimal, k, hybrid, options, &steps, &exhausted);
    if (fam) {
        d.answer = Answer::No;
        c.member = false;
        c.kind = hybrid ? CertificateKind::HybridBisimulation : CertificateKind::WindowBisimulation;
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
        const std::size_t size = ltl::tree_size(rep.formula);
        return formula_yes(rep.formula, size,
                           "a " + frag + " formula (tree size " + std::to_string(size) +
                               ") whose minimal DFA equals the language's, found by formula search and compiled back",
                           nlohmann::json::object());
    }
    // A language "the run enters the sink" (or its complement): the window types that words avoiding
    // the sink never show (docs/WINDOWS.md §3c), compiled back.
    SinkSearchReport sink;
    if (hybrid) {
        sink = search_sink(minimal, k, kSinkDepth, 4 * options.probe_states);
        if (!sink.formula.is_null()) {
            const std::size_t size = ltl::tree_size(sink.formula);
            return formula_yes(sink.formula, size,
                               "a " + frag + " formula (tree size " + std::to_string(size) +
                                   ") saying whether the run entered the sink state: the depth-" + std::to_string(sink.depth) +
                                   " window types of the positions and of EOS in words that avoid the sink (" +
                                   std::to_string(sink.good) + " types) never cover a word that enters it (" +
                                   std::to_string(sink.bad) +
                                   " types outside them are reached; docs/WINDOWS.md §3c); compiled back",
                               nlohmann::json({{"type_depth", sink.depth}, {"route", "sink"}}));
        }
    }
    // Characteristic formulas of window types (depths 1..3), chosen on a sample and compiled back.
    // At past depth 1 (P chi(t)), then, for the hybrid fragment, 2 (ordered pairs of types).
    TypedSearchReport typed;
    unsigned past_depth = 0;
    for (unsigned pd = 1; pd <= (hybrid ? 2u : 1u) && typed.formula.is_null(); ++pd) {
        TypedSearchReport r = search_typed(minimal, k, hybrid, kTypeDepth, 4 * options.probe_states, pd);
        r.rounds += typed.rounds;
        r.states += typed.states;
        typed = std::move(r);
        past_depth = pd;
    }
    if (!typed.formula.is_null()) {
        const std::size_t size = ltl::tree_size(typed.formula);
        nlohmann::json extra = {{"type_depth", typed.depth}};
        if (hybrid) extra["past_depth"] = past_depth;
        return formula_yes(typed.formula, size,
                           "a " + frag + " formula (tree size " + std::to_string(size) +
                               ") built from characteristic formulas of the depth-" + std::to_string(typed.depth) +
                               " window types" +
                               (!hybrid ? std::string(" at EOS")
                                        : past_depth == 1 ? std::string(" at EOS and under P")
                                                          : std::string(" at EOS, under P and under P(χ ∧ ±P χ')")) +
                               " (docs/WINDOWS.md §3b), whose minimal DFA equals the language's: compiled back",
                           extra);
    }
    // The sink route extended (docs/WINDOWS.md §3c): letters annotated with the set of letters before
    // them, and sinks with both acceptances among the other states. It runs only where everything
    // above failed, so the tables of §7 (which have no unknown cell) do not depend on it.
    if (hybrid) {
        SinkSearchReport ext = search_sink(minimal, k, kSinkDepth, 4 * options.probe_states, true);
        sink.states += ext.states;
        sink.applicable = sink.applicable || ext.applicable;
        if (!ext.formula.is_null()) {
            const std::size_t size = ltl::tree_size(ext.formula);
            return formula_yes(ext.formula, size,
                               "a " + frag + " formula (tree size " + std::to_string(size) +
                                   ") saying whether the run entered the sink state" +
                                   (ext.mixed ? std::string(" and, if not, deciding by the EOS type") : std::string()) +
                                   ": the depth-" + std::to_string(ext.depth) + " window types" +
                                   (ext.past_letters ? std::string(" of letters annotated with the set of letters before them")
                                                     : std::string()) +
                                   " of the positions and of EOS in words that avoid the sink (" + std::to_string(ext.good) +
                                   " types) never cover a word that enters it (" + std::to_string(ext.bad) +
                                   " types outside them are reached; docs/WINDOWS.md §3c); compiled back",
                               nlohmann::json({{"type_depth", ext.depth},
                                               {"route", "sink"},
                                               {"past_letters", ext.past_letters},
                                               {"mixed", ext.mixed}}));
        }
    }
    const bool searches_cut = budget_bound_reached() != BudgetBound::None;
    search_scope.reset();
    // Neither certificate was found: probe the depth-d EOS types exactly (depth_probe.hh). A
    // conflict at depth d proves that no defining formula has depth <= d; separation at depth d
    // proves membership (the type exploration is the certificate, re-run by the checker).
    std::size_t probe_states = 0;
    unsigned lower = 0;
    DepthProbe witness;
    for (unsigned depth = 1; depth <= options.probe_depth; ++depth) {
        DepthProbe pr = probe_depth(minimal, k, hybrid, depth, options.probe_states, true);
        probe_states += pr.states;
        if (pr.status == DepthProbe::Status::Conflict) {
            lower = depth;
            witness = std::move(pr);
            continue;
        }
        if (pr.status == DepthProbe::Status::Separates) {
            const std::size_t size = pr.formula.is_null() ? 0 : ltl::tree_size(pr.formula);
            const std::string what = "the Boolean combination of characteristic formulas of the depth-" + std::to_string(depth) +
                                     " EOS types of " + frag + " (exhaustive exploration of " + std::to_string(pr.states) +
                                     " product states, " + std::to_string(pr.eos_types) + " EOS types)";
            // Compiling back costs (product states × subformulas) and is not interruptible: only
            // for formulas of at most kProbeFormulaDag distinct subformulas.
            const std::size_t dag = pr.formula.is_null() ? 0 : ltl::dag_size(pr.formula);
            if (!pr.formula.is_null() && size <= options.max_formula_size && dag <= kProbeFormulaDag) {
                auto ok = formula_defines(pr.formula, minimal, nullptr);
                if (ok && *ok)
                    return formula_yes(pr.formula, size,
                                       what + ", tree size " + std::to_string(size) + ", defines the language; compiled back",
                                       nlohmann::json({{"type_depth", depth}, {"route", "depth_types"}}));
            }
            d.answer = Answer::Yes;
            c.member = true;
            c.kind = CertificateKind::DepthTypes;
            c.fact = "the depth-" + std::to_string(depth) + " EOS types of " + frag +
                     " determine membership on every word (exhaustive exploration of " + std::to_string(pr.states) +
                     " product states, " + std::to_string(pr.eos_types) +
                     " EOS types), so a formula of depth " + std::to_string(depth) + " defines the language";
            c.formula_omitted = size > options.max_formula_size
                                    ? "the formula (" + what + ") has tree size " + std::to_string(size) + ", over the cap " +
                                          std::to_string(options.max_formula_size) +
                                          " (--formula-cap); check-certificate re-runs the exploration"
                                    : "the formula (" + what + ") has " + std::to_string(dag) +
                                          " distinct subformulas, over the " + std::to_string(kProbeFormulaDag) +
                                          " compiled back within a question; check-certificate re-runs the exploration";
            c.extra_json = nlohmann::json({{"k", k}, {"depth", depth}, {"probe_states", pr.states}}).dump();
            return d;
        }
        break;  // state limit
    }
    NoSearchBounds b = no_bounds(minimal.num_symbols(), k, hybrid, options);
    d.answer = Answer::Unknown;
    c.member = false;
    c.kind = CertificateKind::SearchExhausted;
    std::ostringstream os;
    os << "no witness family with |p| <= " << b.max_p << ", |y|,|z| <= " << b.max_tail << ", |x| <= " << b.max_x
       << (exhausted ? "" : " (budget hit before the end)") << ", and no " << frag
       << " formula among " << rep.pool << " distinct behaviours up to size " << rep.max_size << " on "
       << rep.sample_words << " sample words in " << rep.rounds << " rounds"
       << (rep.failure.empty() ? "" : " (" + rep.failure + ")") << "; " << steps << " search steps"
       << "; no Boolean combination of window types of depth <= " << kTypeDepth
       << (hybrid ? " at EOS, under P and under P(χ ∧ ±P χ')" : " at EOS")
       << " found in " << typed.rounds << " rounds (" << typed.states << " product states)";
    if (sink.applicable)
        os << "; no formula from the sink route (window depths <= " << kSinkDepth << ", " << sink.states
           << " product states)";
    if (lower > 0)
        os << "; no defining formula has depth <= " << lower << " (the depth-" << lower << " EOS types of '"
           << format_word(minimal.alphabet, witness.accepted) << "' (accepted) and '"
           << format_word(minimal.alphabet, witness.rejected) << "' (rejected) are equal)";
    const BudgetBound bound = budget_bound_reached();
    if (lower < options.probe_depth && bound == BudgetBound::None)
        os << "; the depth-" << (lower + 1) << " probe stopped at " << options.probe_states << " product states";
    if (searches_cut && bound == BudgetBound::None)
        os << "; the searches stopped at half of the question's budget (" << options.time_limit_s
           << " s, --window-time; " << (options.memory_limit_bytes >> 20) << " MiB, --window-memory), the rest went to the probe";
    if (bound == BudgetBound::Time)
        os << "; stopped by the time budget: " << options.time_limit_s << " s for this question (raise --window-time)";
    if (bound == BudgetBound::Memory)
        os << "; stopped by the memory budget: " << (options.memory_limit_bytes >> 20)
           << " MiB of resident memory (raise --window-memory)";
    c.fact = os.str();
    c.unknown = true;
    if (lower > 0) c.pairs.emplace_back(witness.accepted, witness.rejected);
    nlohmann::json extra = {{"k", k},
                            {"bounds",
                             {{"max_p", b.max_p},
                              {"max_tail", b.max_tail},
                              {"max_x", b.max_x},
                              {"formula_pool", rep.pool},
                              {"formula_size", rep.max_size},
                              {"search_budget", options.search_budget},
                              {"type_depth", kTypeDepth},
                              {"probe_depth", options.probe_depth},
                              {"probe_states", options.probe_states}}}};
    if (lower > 0) extra["depth_lower_bound"] = lower;
    if (bound == BudgetBound::Time)
        extra["budget"] = {{"bound", "time"}, {"seconds", options.time_limit_s}, {"option", "--window-time"}};
    if (bound == BudgetBound::Memory)
        extra["budget"] = {{"bound", "memory"}, {"bytes", options.memory_limit_bytes}, {"option", "--window-memory"}};
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

SinkSearchReport search_sink(const Dfa& minimal, unsigned k, unsigned max_depth, std::size_t max_states, bool extended) {
    SinkSearchReport rep;
    const std::size_t sigma = minimal.num_symbols(), n = minimal.num_states();
    std::optional<std::size_t> sink;
    for (std::size_t q = 0; q < n && !sink; ++q) {
        bool loops = true;
        for (std::size_t c = 0; c < sigma; ++c) loops = loops && minimal.delta[q * sigma + c] == q;
        if (loops) sink = q;
    }
    if (!sink || *sink == minimal.initial || sigma == 0) return rep;
    const bool sink_acc = minimal.accepting[*sink] != 0;
    bool uniform = true;
    for (std::size_t q = 0; q < n; ++q)
        if (q != *sink && (minimal.accepting[q] != 0) == sink_acc) uniform = false;
    if (!uniform && !extended) return rep;
    if (extended && sigma > 30) return rep;  // the letter sets are bit masks
    rep.applicable = true;
    const long s = static_cast<long>(*sink);
    bool stop = false;
    for (unsigned D = 1; D <= max_depth && !stop && !budget_exhausted(); ++D)
      for (int enrich = 0; enrich < 2 && !stop; ++enrich) {
        // the plain pass (window types) unless the extended call repeats the first call's work; the
        // extended call adds letters annotated with the set of letters before them
        if ((enrich && !extended) || (!enrich && extended && uniform)) continue;
        WindowTypes types{k, sigma, {}, {}, {}};
        const std::size_t W = std::size_t(D) * k;
        // layout: [q, level 0 window (k, oldest first), ..., level D-1 window(, letters so far)]
        std::unordered_map<std::vector<long>, std::int32_t, LongVecHash> index;
        std::vector<std::vector<long>> states;
        std::vector<std::pair<std::int32_t, std::int32_t>> parent;
        std::vector<long> init(W + 1 + (enrich ? 1 : 0), -1);
        init[0] = static_cast<long>(minimal.initial);
        if (enrich) init[W + 1] = 0;
        index.emplace(init, 0);
        states.push_back(init);
        parent.emplace_back(-1, -1);
        TypeWindow tw{types, D};
        const std::vector<long>& fresh = tw.fresh;
        std::vector<long> nx(init.size());
        auto levels = [&](const std::vector<long>& st, long label) { tw.levels(st, label, enrich ? st[W + 1] : -1); };
        auto successor = [&](const std::vector<long>& st, long q, std::size_t c) {
            nx[0] = q;
            tw.shift(st, nx);
            if (enrich) nx[W + 1] = st[W + 1] | (1L << c);
        };
        auto word_of = [&](std::int32_t x) { return word_from_parents(parent, x); };
        bool limit = false;
        auto push = [&](std::size_t from, std::size_t c) {
            if (index.count(nx)) return;
            if (rep.states + states.size() >= max_states || budget_exhausted()) {
                limit = true;
                return;
            }
            index.emplace(nx, std::int32_t(states.size()));
            states.push_back(nx);
            parent.emplace_back(std::int32_t(from), std::int32_t(c));
        };
        // Phase 1: the words that avoid the sink; G and G_EOS. Entries into the sink wait for phase 2.
        // seen / seen_eos hold their types of every level 0..D (ids are distinct across levels, so
        // the level-D ones are G and G_EOS), so that a type outside them can be reported at its
        // coarsest level, which keeps the P form short.
        std::set<long> seen, seen_eos, bad, bad_eos;
        std::map<long, int> eos_membership;  // level-D EOS type of words avoiding the sink -> 1 rejected | 2 accepted
        auto coarsest = [&](const std::set<long>& in) {
            unsigned j = 0;
            while (j < D && in.count(fresh[j])) ++j;
            return fresh[j];
        };
        std::vector<std::pair<std::size_t, std::size_t>> entries;
        for (std::size_t si = 0; si < states.size() && !limit; ++si) {
            const std::vector<long> st = states[si];  // a copy: states grows below
            levels(st, static_cast<long>(sigma));
            seen_eos.insert(fresh.begin(), fresh.end());
            eos_membership[fresh[D]] |= minimal.accepting[std::size_t(st[0])] ? 2 : 1;
            for (std::size_t c = 0; c < sigma && !limit; ++c) {
                const long q = static_cast<long>(minimal.delta[std::size_t(st[0]) * sigma + c]);
                if (q == s) {
                    entries.emplace_back(si, c);
                    continue;
                }
                levels(st, static_cast<long>(c));
                seen.insert(fresh.begin(), fresh.end());
                successor(st, q, c);
                push(si, c);
            }
        }
        // Phase 2: from each entry on, every continuation until its first type outside G / G_EOS.
        const std::size_t phase2 = states.size();
        auto step = [&](std::size_t si, std::size_t c) {
            const std::vector<long> st = states[si];
            levels(st, static_cast<long>(c));
            if (!seen.count(fresh[D])) {
                bad.insert(coarsest(seen));
                return;
            }
            successor(st, s, c);
            push(si, c);
        };
        for (const auto& [si, c] : entries) {
            if (limit) break;
            step(si, c);
        }
        bool conflict = false;
        for (std::size_t si = phase2; si < states.size() && !limit && !conflict; ++si) {
            levels(states[si], static_cast<long>(sigma));
            if (seen_eos.count(fresh[D])) {
                conflict = true;
                // a word that avoids the sink with the same EOS type, for the report
                const long e = fresh[D];
                for (std::size_t sj = 0; sj < phase2; ++sj) {
                    levels(states[sj], static_cast<long>(sigma));
                    if (e == fresh[D]) {
                        rep.conflict = std::make_pair(word_of(std::int32_t(si)), word_of(std::int32_t(sj)));
                        rep.conflict_depth = D;
                        break;
                    }
                }
                break;
            }
            bad_eos.insert(coarsest(seen_eos));
            for (std::size_t c = 0; c < sigma && !limit; ++c) step(si, c);
        }
        rep.states += states.size();
        if (limit) {
            stop = true;
            break;
        }
        if (conflict) continue;
        // with both acceptances besides the sink: the EOS type must decide the words that avoid it
        bool decided = true;
        for (const auto& [e, m] : eos_membership) decided = decided && m != 3;
        if (!decided) continue;
        // "entered the sink": A = P(V weakened bad) | V weakened bad_eos, or B = !(H(V G) & V G_EOS).
        auto chi = [&](long t) { return types.formula(t, minimal.alphabet); };
        std::map<unsigned, std::vector<long>> by_level, eos_by_level;  // the types of seen / seen_eos
        for (long t : seen) by_level[type_level(types, t)].push_back(t);
        for (long t : seen_eos) eos_by_level[type_level(types, t)].push_back(t);
        const std::vector<long>& G = by_level[D];
        const std::vector<long>& G_eos = eos_by_level[D];
        ltl::Formula a = ltl::Formula::disj(
            ltl::Formula::past(disjoin(bad, [&](long t) {
                return weakened_chi(types, t, by_level[type_level(types, t)], false, minimal.alphabet);
            })),
            disjoin(bad_eos, [&](long t) {
                return weakened_chi(types, t, eos_by_level[type_level(types, t)], true, minimal.alphabet);
            }));
        ltl::Formula b = ltl::Formula::neg(ltl::Formula::conj(
            ltl::Formula::historically(disjoin(std::set<long>(G.begin(), G.end()), chi)),
            disjoin(std::set<long>(G_eos.begin(), G_eos.end()), chi)));
        ltl::Formula f = ltl::tree_size(a) <= ltl::tree_size(b) ? a : b;  // "entered the sink"
        if (uniform) {
            if (!sink_acc) f = ltl::Formula::neg(f);
        } else {
            // membership of the words that avoid the sink: their EOS types, accepted or (negated) rejected
            std::set<long> acc, rej;
            for (const auto& [e, m] : eos_membership) (m == 2 ? acc : rej).insert(e);
            ltl::Formula pa = disjoin(acc, chi), pr = ltl::Formula::neg(disjoin(rej, chi));
            ltl::Formula psi = ltl::tree_size(pa) <= ltl::tree_size(pr) ? pa : pr;
            f = sink_acc ? ltl::Formula::disj(f, psi) : ltl::Formula::conj(ltl::Formula::neg(f), psi);
        }
        auto ok = formula_defines(f, minimal, nullptr);
        if (ok && *ok) {
            rep.formula = f;
            rep.depth = D;
            rep.good = G.size() + G_eos.size();
            rep.bad = bad.size() + bad_eos.size();
            rep.past_letters = enrich != 0;
            rep.mixed = !uniform;
            return rep;
        }
        stop = true;  // a compile limit (or a bug, caught here)
    }
    return rep;
}


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

// Beyond this many nested windows the unfolded formula is not built: compiling it back costs
// (states × subformulas), quadratic in the window.
constexpr unsigned kMaxUnfoldedWindows = 1'000;

ltl::Formula unfold_windows(ltl::Formula f, unsigned k) {
    std::unordered_map<const void*, ltl::Formula> done;
    for (ltl::Formula g : ltl::subformulas_postorder(f)) {
        ltl::Formula c0 = g.arity() > 0 ? done.at(g.child(0).node()) : ltl::Formula();
        ltl::Formula c1 = g.arity() > 1 ? done.at(g.child(1).node()) : ltl::Formula();
        ltl::Formula r = g;
        switch (g.op()) {
            case ltl::Op::Not: r = ltl::Formula::neg(c0); break;
            case ltl::Op::And: r = ltl::Formula::conj(c0, c1); break;
            case ltl::Op::Or: r = ltl::Formula::disj(c0, c1); break;
            case ltl::Op::Implies: r = ltl::Formula::implies(c0, c1); break;
            case ltl::Op::Iff: r = ltl::Formula::iff(c0, c1); break;
            case ltl::Op::Since: r = ltl::Formula::since(c0, c1); break;
            case ltl::Op::Past: r = ltl::Formula::past(c0); break;
            case ltl::Op::Yesterday: r = ltl::Formula::yesterday(c0); break;
            case ltl::Op::Historically: r = ltl::Formula::historically(c0); break;
            case ltl::Op::BoundedYesterday:
                if (g.k() > k && g.k() % k == 0 && g.k() / k <= kMaxUnfoldedWindows) {
                    // Y<=qk φ = Y<=k (φ | Y<=k (φ | ... Y<=k φ)) with q windows: the windows chain back
                    // over exactly the qk previous positions.
                    r = ltl::Formula::bounded_yesterday(c0, k);
                    for (unsigned i = 1; i < g.k() / k; ++i) r = ltl::Formula::bounded_yesterday(ltl::Formula::disj(c0, r), k);
                } else {
                    r = ltl::Formula::bounded_yesterday(c0, g.k());
                }
                break;
            default: break;
        }
        done[g.node()] = r;
    }
    return done.at(f.node());
}

std::optional<WindowDecision> window_yes_by_formula(const Dfa& minimal, ltl::Formula f, unsigned k, bool hybrid,
                                                    const WindowOptions& options, const std::string& why) {
    if (!formula_in_window_fragment(f, k, hybrid)) return std::nullopt;
    auto ok = formula_defines(f, minimal, nullptr);
    if (!ok || !*ok) return std::nullopt;
    const std::size_t size = ltl::tree_size(f);
    return formula_decision(f, size, k, hybrid,
                            why + " (tree size " + std::to_string(size) + "); compiled back, its minimal DFA is the language's",
                            nlohmann::json({{"route", "input_formula"}}), options);
}

WindowDecision decide_local_k(const Dfa& minimal, unsigned k, const WindowOptions& options) {
    return decide(minimal, k, false, options);
}

WindowDecision decide_hybrid_k(const Dfa& minimal, unsigned k, const WindowOptions& options) {
    return decide(minimal, k, true, options);
}

// Independent re-verification (docs/WINDOWS.md §6): a "yes" formula is parsed, its fragment
// checked and compiled back; a "no" family is re-checked by recomputing the bisimulation of the
// folded graphs and the eventual membership difference on the embedded DFA.
Result<bool> check_window_certificate(const std::string& json_text, std::string* explanation) {
    auto say = [&](const std::string& s) {
        if (explanation) *explanation = s;
    };
    auto parsed = parse_json<nlohmann::json>(json_text);
    if (!parsed.ok()) return parsed.error();
    nlohmann::json& j = *parsed;
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
    std::string kind = j.contains("kind") && j["kind"].is_string() ? j["kind"].get<std::string>() : "";
    const bool unknown = parse_certificate_kind(kind) == CertificateKind::SearchExhausted;
    if (!j.contains("member") || !(unknown ? j["member"].is_null() : j["member"].is_boolean()))
        return make_error(unknown ? "an unknown answer (kind search_exhausted) needs \"member\": null"
                                  : "certificate needs a boolean \"member\"");
    const bool member = !unknown && j["member"].get<bool>();
    auto read_count = [&](const char* key, std::size_t hi) -> Result<std::size_t> {
        if (!j.contains(key) || !j[key].is_number_unsigned() || j[key].get<std::size_t>() < 1 || j[key].get<std::size_t>() > hi)
            return make_error(std::string("certificate needs \"") + key + "\" between 1 and " + std::to_string(hi));
        return j[key].get<std::size_t>();
    };
    if (member && parse_certificate_kind(kind) == CertificateKind::DepthTypes && !j.contains("formula")) {
        // Re-run the exhaustive exploration of the depth-d EOS types (depth_probe.hh).
        auto depth = read_count("depth", 64);
        if (!depth) return depth.error();
        const std::size_t limit = 5'000'000;
        // "types": "window" on a hybrid class: the LTL[Y<=k] types separate, and equal LTL[P,Y<=k]
        // types are equal LTL[Y<=k] types, so those separate too.
        const bool window_types = hybrid && j.contains("types") && j["types"] == "window";
        const bool probe_past = hybrid && !window_types;
        DepthProbe pr = probe_depth(minimal, k, probe_past, static_cast<unsigned>(*depth), limit);
        if (pr.status == DepthProbe::Status::Separates) {
            say("the depth-" + std::to_string(*depth) + " EOS types of " + fragment_name(probe_past, k) +
                " determine membership on every word (" + std::to_string(pr.states) + " product states explored)" +
                (window_types ? ", so do those of " + fragment_name(true, k) : std::string()));
            return true;
        }
        if (pr.status == DepthProbe::Status::Conflict)
            say("the depth-" + std::to_string(*depth) + " EOS types of '" + format_word(minimal.alphabet, pr.accepted) +
                "' (accepted) and '" + format_word(minimal.alphabet, pr.rejected) + "' (rejected) are equal");
        else
            say("the exploration exceeded " + std::to_string(limit) + " product states");
        return false;
    }
    if (unknown) {
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
    auto fam = family_from_json(j["family"], minimal.alphabet, FamilyForm::Plain);
    if (!fam) return fam.error();
    const WordFamily& f = *fam;
    const std::size_t r_min = f.r_min;
    if (f.p.empty()) {
        say("the period p is empty");
        return false;
    }
    auto from = membership_differs_from(minimal, f.x, f.p, f.y, f.z);
    if (from && r_min == 0 &&
        minimal.accepts(f.at(0).first) == minimal.accepts(f.at(0).second))
        from = std::nullopt;
    if (!from || *from > std::max<std::size_t>(r_min, 1)) {
        say(from ? "membership of x·p^r·y and x·p^r·z differs only from r = " + std::to_string(*from)
                 : "membership of x·p^r·y and x·p^r·z agrees for infinitely many r");
        return false;
    }
    if (!family_eos_bisimilar(f.p, f.y, f.z, k, hybrid)) {
        say("the EOS nodes of the folded graphs are not bisimilar for " + fragment_name(hybrid, k));
        return false;
    }
    say("membership differs for every r >= " + std::to_string(std::max<std::size_t>(r_min, 1)) +
        " and the folded graphs' EOS nodes are bisimilar for " + fragment_name(hybrid, k));
    return true;
}

}  // namespace ltlkit::automata::algebra
