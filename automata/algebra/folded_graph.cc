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
#include "base/json.hh"
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
    // per part: non-empty prefix of a tail word -> its node; tail word -> its EOS node
    std::vector<std::map<Word, int>> prefix_node, eos_node;
};

// One periodic part of a folded graph: the period and the tail words after it (their prefixes are
// added as nodes automatically). Two parts: the alternating family of §2b.
struct FoldedPart {
    Word p;
    std::vector<Word> tails;
};

// The B nodes of every part come first, then each part's tails. W: within a part; P (hybrid): every
// node sees every B node of every part, and a tail node every earlier position of its tail.
FoldedGraph build_folded(const std::vector<FoldedPart>& parts, unsigned k, bool hybrid) {
    FoldedGraph g;
    g.prefix_node.resize(parts.size());
    g.eos_node.resize(parts.size());
    std::vector<int> start, cycles;
    for (const FoldedPart& part : parts) {
        start.push_back(static_cast<int>(g.label.size()));
        for (Symbol c : part.p) {
            cycles.push_back(static_cast<int>(g.label.size()));
            g.label.push_back(static_cast<int>(c));
        }
    }
    g.w.resize(g.label.size());
    g.past.resize(g.label.size());
    for (std::size_t pi = 0; pi < parts.size(); ++pi) {
        const long m = static_cast<long>(parts[pi].p.size());
        for (long o = 0; o < m; ++o) {
            const std::size_t node = std::size_t(start[pi] + o);
            for (unsigned j = 1; j <= k; ++j) g.w[node].push_back(start[pi] + static_cast<int>(((o - long(j)) % m + m) % m));
            if (hybrid) g.past[node] = cycles;
        }
    }
    for (std::size_t pi = 0; pi < parts.size(); ++pi) {
        const long m = static_cast<long>(parts[pi].p.size());
        auto& prefix_node = g.prefix_node[pi];
        auto offset_before_tail = [&](long t) {  // position t >= 1 steps before the first tail symbol
            return start[pi] + static_cast<int>(((m - t) % m + m) % m);
        };
        // Successors of the tail position s (1-based) of word y; s == |y|+1 is EOS.
        auto successors = [&](const Word& y, long s, std::vector<int>& wout, std::vector<int>& pout) {
            for (unsigned j = 1; j <= k; ++j) {
                long q = s - long(j);
                if (q >= 1)
                    wout.push_back(prefix_node.at(Word(y.begin(), y.begin() + q)));
                else
                    wout.push_back(offset_before_tail(long(j) - s + 1));
            }
            if (hybrid) {
                pout = cycles;
                for (long q = 1; q < s; ++q) pout.push_back(prefix_node.at(Word(y.begin(), y.begin() + q)));
            }
        };
        std::vector<Word> all = parts[pi].tails;
        std::sort(all.begin(), all.end(), [](const Word& a, const Word& b) {
            return a.size() != b.size() ? a.size() < b.size() : a < b;
        });
        for (const Word& y : all) {
            for (std::size_t s2 = 1; s2 <= y.size(); ++s2) {
                Word pre(y.begin(), y.begin() + s2);
                if (prefix_node.count(pre)) continue;
                int id = static_cast<int>(g.label.size());
                g.label.push_back(static_cast<int>(y[s2 - 1]));
                g.w.emplace_back();
                g.past.emplace_back();
                prefix_node[pre] = id;
                successors(y, static_cast<long>(s2), g.w[id], g.past[id]);
            }
            if (g.eos_node[pi].count(y)) continue;
            int id = static_cast<int>(g.label.size());
            g.label.push_back(-1);
            g.w.emplace_back();
            g.past.emplace_back();
            g.eos_node[pi][y] = id;
            successors(y, static_cast<long>(y.size()) + 1, g.w[id], g.past[id]);
        }
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

// Least r0 >= 1 with [accepts(q_r·y) != accepts(q_r·z)] for every r >= r0, neither run ending in
// `avoid` (windows.hh).
std::optional<std::size_t> differs_from(const Dfa& d, const PowerRun& pr, const Word& y, const Word& z,
                                        State avoid = kNoAvoid) {
    auto differ = [&](std::size_t r) {
        State q = at_power(pr, r);
        const State su = d.run(q, y), sv = d.run(q, z);
        return su != avoid && sv != avoid && d.is_accepting(su) != d.is_accepting(sv);
    };
    for (std::size_t r = pr.s; r < pr.s + pr.c; ++r)
        if (!differ(r)) return std::nullopt;
    std::size_t r0 = pr.s;
    while (r0 > 1 && differ(r0 - 1)) --r0;
    return std::max<std::size_t>(r0, 1);
}

// ---------------------------------------------------------------------------------------------
// "no": search for a family (docs/WINDOWS.md §2).


NoSearchBounds no_bounds(std::size_t sigma, std::size_t minimal_states, unsigned k, bool hybrid, const WindowOptions& o) {
    NoSearchBounds b{};
    // Over four or more letters |p| <= 3, but at least k: a family whose period is shorter than the
    // window can miss what the window sees (at k = 4, p = aacd against P(Y<=3 d & (d | b) & Y<=3 c);
    // docs/WINDOWS.md §5).
    b.max_p = o.max_period ? o.max_period : sigma <= 2 ? k + 4 : (sigma == 3 ? k + 1 : std::max<std::size_t>(3, k));
    b.max_tail = o.max_tail ? o.max_tail : sigma <= 2 ? 4 : (sigma == 3 ? 3 : 2);
    // x: one shortest word to each state, up to kEveryStateMax states (then the search costs
    // states × periods power runs, and the words' total length grows with the square of the
    // states: a 10^5-state shift register would need gigabytes); beyond, |x| <= 3 (2 letters) or 2.
    constexpr std::size_t kEveryStateMax = 64;
    b.x_every_state = hybrid && !o.max_prefix && minimal_states <= kEveryStateMax;
    b.max_x = !hybrid ? 0 : o.max_prefix ? o.max_prefix : b.x_every_state ? 0 : (sigma <= 2 ? 3 : 2);
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
                                        std::size_t* steps, bool* exhausted, State avoid) {
    const std::size_t sigma = dfa.num_symbols();
    const std::size_t budget = o.search_budget;
    NoSearchBounds b = no_bounds(sigma, dfa.num_states(), k, hybrid, o);
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
            FoldedGraph g = build_folded({{p, tails}}, k, hybrid);
            std::vector<int> cls = bisimulation_classes(g, steps);
            // Tails grouped by the class of their EOS node.
            std::map<int, std::vector<const Word*>> by_class;
            for (const Word& y : tails) by_class[cls[g.eos_node[0].at(y)]].push_back(&y);
            std::optional<WordFamily> best;
            for (const Word& x : xs) {
                PowerRun pr = power_run(dfa, dfa.run(dfa.initial, x), p);
                for (const auto& [c, group] : by_class) {
                    if (group.size() < 2) continue;
                    for (std::size_t i = 0; i < group.size(); ++i)
                        for (std::size_t j = i + 1; j < group.size(); ++j) {
                            ++*steps;
                            auto r0 = differs_from(dfa, pr, *group[i], *group[j], avoid);
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
// The alternating family x·(pʳqʳ)ʳ·pʳ·y / x·(pʳqʳ)ʳ·pʳ·qʳ·z (docs/WINDOWS.md §2b).

}  // namespace ltlkit::automata::algebra::window_strategies

namespace ltlkit::automata::algebra {

using namespace window_strategies;

namespace {

// A word's action on the DFA's states (transformation_of, classes.hh).
using Transform = std::vector<State>;
Transform then(const Transform& a, const Transform& b) {  // a, then b
    Transform t(a.size());
    for (std::size_t s = 0; s < a.size(); ++s) t[s] = b[a[s]];
    return t;
}
Transform identity(std::size_t n) {
    Transform t(n);
    for (std::size_t s = 0; s < n; ++s) t[s] = static_cast<State>(s);
    return t;
}
// The powers t^r for r = 0.. until the first repetition: t^i = t^(i+c).
struct Powers {
    std::vector<Transform> pw;
    std::size_t index = 0, period = 1;
    const Transform& at(std::size_t r) const { return r < pw.size() ? pw[r] : pw[index + (r - index) % period]; }
};
Powers powers(const Transform& t) {
    Powers out;
    std::map<Transform, std::size_t> seen;
    Transform cur = identity(t.size());
    while (!seen.count(cur)) {
        if (out.pw.size() % 64 == 63 && budget_exhausted()) return Powers{};  // (empty: out of budget)
        seen[cur] = out.pw.size();
        out.pw.push_back(cur);
        cur = then(cur, t);
    }
    out.index = seen[cur];
    out.period = out.pw.size() - out.index;
    return out;
}

}  // namespace

std::optional<std::size_t> alternating_differs_from(const Dfa& d, const Word& x, const Word& p, const Word& q,
                                                    const Word& y, const Word& z, State avoid) {
    // u_r's and v_r's states are eventually periodic in r: with (i_p, c_p) and (i_q, c_q) the index
    // and period of the powers of p and q, s_r = p^r q^r has period c = lcm(c_p, c_q) from
    // i = max(i_p, i_q) on; for each residue ρ, (s_ρ)^r has an index i_ρ and a period c_ρ. So the
    // pair of states has period P = lcm(c, every c_ρ) from R0 = max(i, every i_ρ) on, and
    // checking r < R0 + P decides every r.
    const Powers pp = powers(transformation_of(d, p)), pq = powers(transformation_of(d, q));
    if (pp.pw.empty() || pq.pw.empty()) return std::nullopt;  // out of budget
    const std::size_t c = std::lcm(pp.period, pq.period), i0 = std::max(pp.index, pq.index);
    std::size_t P = c, R0 = i0;
    std::vector<Powers> by_residue;
    for (std::size_t rho = i0; rho < i0 + c; ++rho) {
        by_residue.push_back(powers(then(pp.at(rho), pq.at(rho))));
        if (by_residue.back().pw.empty()) return std::nullopt;  // out of budget
        P = std::lcm(P, by_residue.back().period);
        R0 = std::max(R0, by_residue.back().index);
        if (P > 1'000'000) return std::nullopt;  // (cannot happen for small DFAs; refuse rather than loop)
    }
    const State sx = d.run(d.initial, x);
    auto differ = [&](std::size_t r) {
        if (r < i0) {
            const Powers early = powers(then(pp.at(r), pq.at(r)));
            if (early.pw.empty()) return std::optional<bool>();  // out of budget
            const State base = then(early.at(r), pp.at(r))[sx];
            const State su = d.run(base, y), sv = d.run(pq.at(r)[base], z);
            return std::optional<bool>(su != avoid && sv != avoid && d.is_accepting(su) != d.is_accepting(sv));
        }
        const Transform& s_r = by_residue[(r - i0) % c].at(r);
        const State base = pp.at(r)[s_r[sx]];
        const State su = d.run(base, y), sv = d.run(pq.at(r)[base], z);
        return std::optional<bool>(su != avoid && sv != avoid && d.is_accepting(su) != d.is_accepting(sv));
    };
    const std::size_t top = std::max<std::size_t>(R0, 1) + P;
    std::optional<std::size_t> from;
    for (std::size_t r = 1; r < top; ++r) {
        const std::optional<bool> dr = differ(r);
        if (!dr) return std::nullopt;  // out of budget
        if (!*dr) from.reset();
        else if (!from) from = r;
    }
    // some r of the last period agrees: then infinitely many do
    if (from && *from > std::max<std::size_t>(R0, 1)) return std::nullopt;
    return from;
}

std::optional<WordFamily> family_from_pair(const Dfa& dfa, const Word& u, const Word& v, unsigned k, bool hybrid) {
    const std::size_t common = static_cast<std::size_t>(
        std::mismatch(u.begin(), u.end(), v.begin(), v.end()).first - u.begin());
    std::optional<WordFamily> best;
    for (std::size_t m = 1; m <= k + 2 && m <= common; ++m)
        for (std::size_t start = 0; start + 2 * m <= common; ++start) {
            const Word p(u.begin() + std::ptrdiff_t(start), u.begin() + std::ptrdiff_t(start + m));
            if (!primitive(p)) continue;
            std::size_t r = 1;  // blocks of p that both words repeat from `start` on, within their common prefix
            while (start + (r + 1) * m <= common &&
                   std::equal(p.begin(), p.end(), u.begin() + std::ptrdiff_t(start + r * m)))
                ++r;
            if (r < 2) continue;
            const std::size_t end = start + r * m;
            WordFamily f;
            f.x = Word(u.begin(), u.begin() + std::ptrdiff_t(start));
            f.p = p;
            f.y = Word(u.begin() + std::ptrdiff_t(end), u.end());
            f.z = Word(v.begin() + std::ptrdiff_t(end), v.end());
            if (!family_eos_bisimilar(f.p, f.y, f.z, k, hybrid)) continue;
            auto r0 = membership_differs_from(dfa, f.x, f.p, f.y, f.z);
            if (!r0) continue;
            f.r_min = *r0;
            if (!best || f.y.size() + f.z.size() < best->y.size() + best->z.size()) best = f;
        }
    return best;
}

bool alternating_eos_bisimilar(const Word& p, const Word& q, const Word& y, const Word& z, unsigned k, bool hybrid) {
    if (p.empty() || q.empty() || k == 0) return false;
    FoldedGraph g = build_folded({{p, {y}}, {q, {z}}}, k, hybrid);
    std::vector<int> cls = bisimulation_classes(g);
    return cls[g.eos_node[0].at(y)] == cls[g.eos_node[1].at(z)];
}

}  // namespace ltlkit::automata::algebra

namespace ltlkit::automata::algebra::window_strategies {

std::optional<WordFamily> search_alternating_family(const Dfa& dfa, unsigned k, bool hybrid, const WindowOptions& o,
                                                    std::size_t* steps, State avoid) {
    const std::size_t sigma = dfa.num_symbols();
    const auto [max_p, max_tail] = alternating_bounds(sigma);
    // Membership costs states × (index + period of the powers) per family: beyond kMaxStates states
    // (long "last n letters" automata, whose powers have an index of n) the search is not tried.
    constexpr std::size_t kMaxStates = 1000;
    if (dfa.num_states() > kMaxStates) return std::nullopt;
    NoSearchBounds b = no_bounds(sigma, dfa.num_states(), k, hybrid, o);
    const std::vector<Word> tails = words_between(sigma, 0, max_tail);
    const std::vector<Word> xs = hybrid ? family_prefixes(dfa, b) : std::vector<Word>{Word{}};
    std::vector<Word> periods;
    for (const Word& p : words_between(sigma, 1, max_p))
        if (primitive(p)) periods.push_back(p);
    for (const Word& p : periods)
        for (const Word& q : periods) {
            if (p == q) continue;
            if (*steps > o.search_budget || budget_exhausted()) return std::nullopt;
            FoldedGraph g = build_folded({{p, tails}, {q, tails}}, k, hybrid);
            std::vector<int> cls = bisimulation_classes(g, steps);
            std::map<int, std::vector<const Word*>> ys;  // p-side tails by the class of their EOS node
            for (const Word& y : tails) ys[cls[g.eos_node[0].at(y)]].push_back(&y);
            for (const Word& z : tails) {
                auto it = ys.find(cls[g.eos_node[1].at(z)]);
                if (it == ys.end()) continue;
                for (const Word* y : it->second)
                    for (const Word& x : xs) {
                        ++*steps;
                        auto r0 = alternating_differs_from(dfa, x, p, q, *y, z, avoid);
                        if (!r0) continue;
                        WordFamily f;
                        f.x = x;
                        f.p = p;
                        f.q = q;
                        f.y = *y;
                        f.z = z;
                        f.r_min = *r0;
                        return f;
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
    FoldedGraph g = build_folded({{p, {y, z}}}, k, hybrid);
    std::vector<int> cls = bisimulation_classes(g);
    return cls[g.eos_node[0].at(y)] == cls[g.eos_node[0].at(z)];
}

std::optional<std::size_t> membership_differs_from(const Dfa& d, const Word& x, const Word& p, const Word& y,
                                                   const Word& z, State avoid) {
    if (p.empty()) {
        const State su = d.run(d.run(d.initial, x), y), sv = d.run(d.run(d.initial, x), z);
        const bool differ = su != avoid && sv != avoid && d.is_accepting(su) != d.is_accepting(sv);
        return differ ? std::optional<std::size_t>(1) : std::nullopt;
    }
    return differs_from(d, power_run(d, d.run(d.initial, x), p), y, z, avoid);
}

}  // namespace ltlkit::automata::algebra
