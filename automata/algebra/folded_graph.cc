// The "no" argument for the window fragments (docs/WINDOWS.md §2): folded graphs of p^ω·y and
// p^ω·z, bisimulation of their EOS nodes for the window modality (and the strict past), and the
// search for a word family whose membership differs for all large r while the EOS nodes are
// bisimilar.
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
#include "automata/io.hh"
#include "automata/json.hh"
#include "automata/monitor.hh"
#include "automata/random.hh"
#include "ltl/fragment.hh"
#include "ltl/parser.hh"
#include "ltl/printer.hh"

namespace ltlkit::automata::algebra::window_strategies {

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
FoldedGraph build_folded(const Word& p, const std::vector<Word>& tails, unsigned k, bool hybrid) {
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
        if (hybrid)
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
        if (hybrid) {
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


NoSearchBounds no_bounds(std::size_t sigma, unsigned k, bool hybrid, const WindowOptions& o) {
    NoSearchBounds b{};
    b.max_p = o.max_period ? o.max_period : sigma <= 2 ? k + 4 : (sigma == 3 ? k + 1 : 3);
    b.max_tail = o.max_tail ? o.max_tail : sigma <= 2 ? 4 : (sigma == 3 ? 3 : 2);
    b.max_x = !hybrid ? 0 : o.max_prefix;
    b.x_every_state = hybrid && !o.max_prefix;
    return b;
}

namespace {
// The prefixes x the family search tries, one per start state δ(q0, x), shortest (then
// lexicographically least) first: the first word found for each state, in shortlex order, among
// the words up to max_x, or (x_every_state) a breadth-first search over the letters in order.
std::vector<Word> family_prefixes(const Dfa& dfa, const NoSearchBounds& b) {
    std::vector<Word> out;
    std::vector<char> seen(dfa.num_states(), 0);
    if (!b.x_every_state) {
        for (Word& x : words_between(dfa.num_symbols(), 0, b.max_x)) {
            State q = dfa.run(dfa.initial, x);
            if (seen[q]) continue;
            seen[q] = 1;
            out.push_back(std::move(x));
        }
        return out;
    }
    seen[dfa.initial] = 1;
    std::vector<State> frontier{dfa.initial};
    out.push_back(Word{});
    for (std::size_t i = 0; i < out.size(); ++i) {
        State q = frontier[i];
        for (Symbol a = 0; a < dfa.num_symbols(); ++a) {
            State t = dfa.next(q, a);
            if (seen[t]) continue;
            seen[t] = 1;
            Word x = out[i];
            x.push_back(a);
            out.push_back(std::move(x));
            frontier.push_back(t);
        }
    }
    return out;
}
}  // namespace

std::optional<WordFamily> search_family(const Dfa& dfa, unsigned k, bool hybrid, const WindowOptions& o,
                                        std::size_t* steps, bool* exhausted) {
    const std::size_t sigma = dfa.num_symbols();
    const std::size_t budget = o.search_budget;
    NoSearchBounds b = no_bounds(sigma, k, hybrid, o);
    std::vector<Word> tails = words_between(sigma, 0, b.max_tail);
    const std::vector<Word> xs = family_prefixes(dfa, b);
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


}  // namespace ltlkit::automata::algebra::window_strategies

namespace ltlkit::automata::algebra {

using namespace window_strategies;

bool family_eos_bisimilar(const Word& p, const Word& y, const Word& z, unsigned k, bool hybrid) {
    if (p.empty() || k == 0) return false;
    FoldedGraph g = build_folded(p, {y, z}, k, hybrid);
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

}  // namespace ltlkit::automata::algebra
