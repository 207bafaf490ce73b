// Theorem 10.6 of docs/WINDOWS.md §10 (window_reduction.hh): bottom SCCs, residuals, and window
// families moved behind a word into a bottom SCC.
#include "automata/algebra/window_reduction.hh"

#include <deque>
#include <map>
#include <numeric>

#include "automata/algorithms.hh"
#include "ltl/builder.hh"
#include "automata/algebra/budget.hh"
#include "automata/algebra/depth_probe.hh"
#include "automata/algebra/scc.hh"
#include "automata/algebra/window_complete.hh"
#include "automata/algebra/window_strategies.hh"
#include "automata/algebra/windows.hh"

namespace ltlkit::automata::algebra {

std::vector<char> reachable_from(const Dfa& dfa, State q) {
    std::vector<char> seen(dfa.num_states(), 0);
    std::vector<State> stack{q};
    seen[q] = 1;
    while (!stack.empty()) {
        const State s = stack.back();
        stack.pop_back();
        for (Symbol a = 0; a < dfa.num_symbols(); ++a)
            if (const State t = dfa.next(s, a); !seen[t]) seen[t] = 1, stack.push_back(t);
    }
    return seen;
}


bool in_bottom_scc(const Dfa& dfa, State q) {
    const std::vector<char> from_q = reachable_from(dfa, q);
    for (State r = 0; r < dfa.num_states(); ++r)
        if (from_q[r] && !reachable_from(dfa, r)[q]) return false;
    return true;
}

std::vector<Word> words_to_bottom_sccs(const Dfa& dfa) {
    std::vector<Word> to(dfa.num_states());
    std::vector<char> seen(dfa.num_states(), 0);
    std::deque<State> queue{dfa.initial};
    seen[dfa.initial] = 1;
    std::vector<State> order;
    while (!queue.empty()) {
        const State s = queue.front();
        queue.pop_front();
        order.push_back(s);
        for (Symbol a = 0; a < dfa.num_symbols(); ++a)
            if (const State t = dfa.next(s, a); !seen[t]) {
                seen[t] = 1;
                to[t] = to[s];
                to[t].push_back(a);
                queue.push_back(t);
            }
    }
    std::vector<Word> out;
    std::vector<char> covered(dfa.num_states(), 0);  // states of a bottom SCC already represented
    for (State s : order) {
        if (covered[s] || !in_bottom_scc(dfa, s)) continue;
        const std::vector<char> scc = reachable_from(dfa, s);  // a bottom SCC is what it reaches
        for (State r = 0; r < dfa.num_states(); ++r) covered[r] = covered[r] || scc[r];
        out.push_back(to[s]);
    }
    return out;
}

Dfa residual_dfa(const Dfa& dfa, State q) {
    Dfa d = dfa;
    d.initial = q;
    return minimize(d);
}

std::optional<WordFamily> family_behind(const Dfa& dfa, const Word& x, const WordFamily& local) {
    WordFamily f = local;
    f.x = x;
    const std::optional<std::size_t> r0 = f.q.empty() ? membership_differs_from(dfa, x, f.p, f.y, f.z)
                                                      : alternating_differs_from(dfa, x, f.p, f.q, f.y, f.z);
    if (!r0) return std::nullopt;
    f.r_min = *r0;
    return f;
}

std::optional<BottomSccNo> bottom_scc_no(const Dfa& minimal, unsigned k, const WindowOptions& options, std::size_t* steps) {
    for (const Word& x : words_to_bottom_sccs(minimal)) {
        if (budget_exhausted()) return std::nullopt;
        const Dfa residual = residual_dfa(minimal, minimal.run(minimal.initial, x));
        if (!definite_by_pair_graph(residual)) return BottomSccNo{x, true, std::nullopt};
        if (residual.num_states() <= 1) continue;  // ∅ or Σ*: in every fragment
        bool exhausted = false;
        std::optional<WordFamily> local = window_strategies::search_family(residual, k, false, options, steps, &exhausted);
        if (!local)
            local = window_strategies::search_periodic_pair(residual, k, window_strategies::periodic_pair_bounds(residual.num_symbols()),
                                                            steps, &exhausted);
        if (!local) continue;
        if (auto f = family_behind(minimal, x, *local)) return BottomSccNo{x, false, f};
    }
    return std::nullopt;
}

namespace {
// The SCC of every state (strong_components, scc.hh) and whether each SCC is a bottom SCC.
struct Sccs {
    std::vector<std::uint32_t> comp;
    std::vector<char> bottom;
    std::vector<std::size_t> size;
};
Sccs sccs_of(const Dfa& d) {
    Sccs out;
    const std::size_t m = strong_components(d.num_states(), d.num_symbols(), [&](std::uint32_t q, std::size_t a) {
        return static_cast<std::int64_t>(d.next(q, static_cast<Symbol>(a)));
    }, out.comp);
    out.bottom.assign(m, 1);
    out.size.assign(m, 0);
    for (State q = 0; q < d.num_states(); ++q) {
        ++out.size[out.comp[q]];
        for (Symbol a = 0; a < d.num_symbols(); ++a)
            if (out.comp[d.next(q, a)] != out.comp[q]) out.bottom[out.comp[q]] = 0;
    }
    return out;
}

SccRestriction restrict_to(const Dfa& dfa, const Sccs& s, State q) {
    const std::size_t n = dfa.num_states(), sigma = dfa.num_symbols();
    std::vector<State> index(n, kNoAvoid);
    std::vector<State> members{q};
    for (State r = 0; r < n; ++r)
        if (r != q && s.comp[r] == s.comp[q]) members.push_back(r);
    for (std::size_t i = 0; i < members.size(); ++i) index[members[i]] = static_cast<State>(i);
    SccRestriction out;
    out.outside = static_cast<State>(members.size());
    Dfa& d = out.dfa;
    d.alphabet = dfa.alphabet;
    d.initial = 0;
    d.accepting.assign(members.size() + 1, 0);
    d.delta.assign((members.size() + 1) * sigma, out.outside);
    for (std::size_t i = 0; i < members.size(); ++i) {
        d.accepting[i] = dfa.accepting[members[i]];
        for (Symbol a = 0; a < sigma; ++a)
            if (const State t = index[dfa.next(members[i], a)]; t != kNoAvoid) d.delta[i * sigma + a] = t;
    }
    return out;
}
}  // namespace

SccRestriction scc_restriction(const Dfa& dfa, State q) {
    return restrict_to(dfa, sccs_of(dfa), q);
}

std::optional<std::size_t> scc_family_from(const Dfa& minimal, const WordFamily& f) {
    if (f.p.empty()) return std::nullopt;
    const SccRestriction r = scc_restriction(minimal, minimal.run(minimal.initial, f.x));
    return f.q.empty() ? membership_differs_from(r.dfa, Word{}, f.p, f.y, f.z, r.outside)
                       : alternating_differs_from(r.dfa, Word{}, f.p, f.q, f.y, f.z, r.outside);
}

std::optional<WordFamily> inner_scc_no(const Dfa& minimal, unsigned k, const WindowOptions& options, std::size_t* steps) {
    const Sccs s = sccs_of(minimal);
    // The states in breadth-first order from the initial state, each with a shortest word to it.
    std::vector<Word> to(minimal.num_states());
    std::vector<char> seen(minimal.num_states(), 0);
    std::vector<State> order{minimal.initial};
    seen[minimal.initial] = 1;
    for (std::size_t i = 0; i < order.size(); ++i)
        for (Symbol a = 0; a < minimal.num_symbols(); ++a)
            if (const State t = minimal.next(order[i], a); !seen[t]) {
                seen[t] = 1;
                to[t] = to[order[i]];
                to[t].push_back(a);
                order.push_back(t);
            }
    for (State q : order) {
        if (s.bottom[s.comp[q]] || s.size[s.comp[q]] < 2) continue;  // bottom SCCs: bottom_scc_no
        if (budget_exhausted()) return std::nullopt;
        const SccRestriction r = restrict_to(minimal, s, q);
        bool exhausted = false;
        std::optional<WordFamily> f =
            window_strategies::search_family(r.dfa, k, false, options, steps, &exhausted, r.outside);
        if (!f) f = window_strategies::search_alternating_family(r.dfa, k, false, options, steps, r.outside);
        if (!f) continue;
        f->x = to[q];
        return f;
    }
    return std::nullopt;
}

std::optional<TransientDag> transient_dag(const Dfa& minimal, bool tracked) {
    const std::size_t n = minimal.num_states(), sigma = minimal.num_symbols();
    const Sccs sc = sccs_of(minimal);
    const std::vector<std::uint32_t>& comp = sc.comp;
    const std::size_t m = sc.size.size();
    auto bottom = [&](State q) { return sc.bottom[comp[q]] != 0; };
    if (bottom(minimal.initial)) return std::nullopt;
    TransientDag dag;
    std::vector<char> seen(n, 0), entry(n, 0), bottom_seen(m, 0);
    std::vector<Word> to(n);
    std::deque<State> queue{minimal.initial};
    seen[minimal.initial] = 1;
    while (!queue.empty()) {
        const State s = queue.front();
        queue.pop_front();
        if (bottom(s)) continue;
        if (sc.size[comp[s]] > 1 && !tracked) return std::nullopt;  // a transient SCC of two or more states
        dag.transient.push_back(s);
        for (Symbol a = 0; a < sigma; ++a) {
            const State t = minimal.next(s, a);
            if (!seen[t]) {
                seen[t] = 1;
                to[t] = to[s];
                to[t].push_back(a);
                queue.push_back(t);
            }
            if (!bottom(t) || entry[t]) continue;
            entry[t] = 1;
            if (!bottom_seen[comp[t]]) bottom_seen[comp[t]] = 1, dag.first_entry.push_back(dag.entries.size());
            dag.entries.push_back(t);
            dag.entry_words.push_back(to[t]);
        }
    }
    // The transient SCCs of two or more states, in the order of their first state met, with their
    // entries: the initial state, or a state entered from a transient state of another SCC.
    std::vector<std::size_t> group(m, SIZE_MAX);
    for (State s : dag.transient) {
        if (sc.size[comp[s]] < 2) continue;
        if (group[comp[s]] == SIZE_MAX) {
            group[comp[s]] = dag.tracked.size();
            dag.tracked.emplace_back();
        }
        dag.tracked[group[comp[s]]].states.push_back(s);
    }
    for (auto& g : dag.tracked) std::sort(g.states.begin(), g.states.end());
    if (group[comp[minimal.initial]] != SIZE_MAX) dag.tracked[group[comp[minimal.initial]]].entries.push_back(minimal.initial);
    for (State r : dag.transient)
        for (Symbol a = 0; a < sigma; ++a) {
            const State t = minimal.next(r, a);
            if (comp[t] == comp[r] || group[comp[t]] == SIZE_MAX) continue;
            std::vector<State>& e = dag.tracked[group[comp[t]]].entries;
            if (std::find(e.begin(), e.end(), t) == e.end()) e.push_back(t);
        }
    for (auto& g : dag.tracked) std::sort(g.entries.begin(), g.entries.end());
    return dag;
}

std::optional<std::vector<ltl::Formula>> track_scc_states(const Dfa& minimal, State entry, unsigned k, unsigned max_depth,
                                                          std::size_t max_states, std::size_t max_formula_types,
                                                          unsigned* depth_out, bool build_formula) {
    const Sccs sc = sccs_of(minimal);
    // restrict_to numbers the entry 0, then the SCC's other states in increasing order.
    const SccRestriction r = restrict_to(minimal, sc, entry);
    std::vector<State> members{entry};
    for (State q = 0; q < minimal.num_states(); ++q)
        if (q != entry && sc.comp[q] == sc.comp[entry]) members.push_back(q);
    // What the formula of Theorem 10.12 needs of the state inside: its acceptance and, per letter,
    // the state outside the SCC it leads to (or that it stays inside). States alike in these share a
    // label; the sink `outside` has its own.
    std::map<std::vector<std::int64_t>, std::int32_t> label_of;
    std::vector<std::int32_t> labels;
    for (std::size_t i = 0; i < members.size(); ++i) {
        std::vector<std::int64_t> obs{minimal.accepting[members[i]] ? 1 : 0};
        for (Symbol a = 0; a < minimal.num_symbols(); ++a) {
            const State t = minimal.next(members[i], a);
            obs.push_back(sc.comp[t] == sc.comp[entry] ? -1 : std::int64_t(t));
        }
        labels.push_back(label_of.emplace(std::move(obs), std::int32_t(label_of.size())).first->second);
    }
    labels.push_back(std::int32_t(label_of.size()));  // outside
    for (unsigned depth = 1; depth <= max_depth; ++depth) {
        const DepthProbe pr = probe_depth_states(r.dfa, labels, r.outside, k, depth, max_states, build_formula, max_formula_types);
        if (pr.status == DepthProbe::Status::Conflict) continue;
        if (pr.status != DepthProbe::Status::Separates) return std::nullopt;
        // Without the formulas (not asked for, or over max_formula_types): null formulas.
        const bool built = pr.state_formulas.size() == label_of.size() + 1;
        // members: the entry, then the others increasing; the output is in increasing state order
        std::vector<std::size_t> order(members.size());
        std::iota(order.begin(), order.end(), std::size_t{0});
        std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return members[a] < members[b]; });
        std::vector<ltl::Formula> out;
        for (std::size_t i : order) out.push_back(built ? pr.state_formulas[static_cast<std::size_t>(labels[i])] : ltl::Formula());
        if (depth_out) *depth_out = depth;
        return out;
    }
    return std::nullopt;
}

ltl::Formula theorem_10_8_formula(const Dfa& minimal, const TransientDag& dag, const std::vector<ltl::Formula>& residual,
                                  const std::vector<std::vector<std::vector<ltl::Formula>>>& tracking) {
    using ltl::Formula;
    const std::size_t n = minimal.num_states(), sigma = minimal.num_symbols();
    const Sccs sc = sccs_of(minimal);
    const auto& comp = sc.comp;
    auto letter = [&](Symbol a) { return Formula::atom(minimal.alphabet[a]); };
    // The transient SCCs (a single state, or a tracked SCC with its index), predecessors first in a
    // topological order: an SCC is placed once every transient state outside it that enters it is.
    std::vector<std::size_t> tracked_of(sc.size.size(), SIZE_MAX);
    for (std::size_t i = 0; i < dag.tracked.size(); ++i) tracked_of[comp[dag.tracked[i].states.front()]] = i;
    std::vector<std::vector<State>> groups;
    std::vector<char> group_seen(sc.size.size(), 0);
    for (State p : dag.transient)
        if (!group_seen[comp[p]]) {
            group_seen[comp[p]] = 1;
            groups.push_back(tracked_of[comp[p]] != SIZE_MAX ? dag.tracked[tracked_of[comp[p]]].states : std::vector<State>{p});
        }
    std::vector<std::size_t> order;
    std::vector<char> placed(n, 0), group_placed(groups.size(), 0);
    for (bool progress = true; progress && order.size() < groups.size();) {
        progress = false;
        for (std::size_t g = 0; g < groups.size(); ++g) {
            if (group_placed[g]) continue;
            const std::uint32_t c = comp[groups[g].front()];
            bool ready = true;
            for (State r : dag.transient)
                for (Symbol a = 0; a < sigma && ready; ++a)
                    if (comp[r] != c && !placed[r] && comp[minimal.next(r, a)] == c) ready = false;
            if (!ready) continue;
            group_placed[g] = 1, order.push_back(g), progress = true;
            for (State p : groups[g]) placed[p] = 1;
        }
    }
    // States alike (one class of Theorem 10.12) have the same formulas: each disjunct once.
    auto any_distinct = [](std::vector<Formula> fs) {
        std::sort(fs.begin(), fs.end(), [](Formula a, Formula b) { return a.id() < b.id(); });
        fs.erase(std::unique(fs.begin(), fs.end(), [](Formula a, Formula b) { return a.id() == b.id(); }), fs.end());
        return ltl::disjunction(fs);
    };
    std::vector<std::optional<Formula>> before(n);
    // "the transition from a transient state of another SCC by a ends here in target":
    // Before_{p'} & a over those pairs
    auto entering = [&](State target) {
        std::vector<Formula> ways;
        for (State r : dag.transient)
            for (Symbol a = 0; a < sigma; ++a)
                if (comp[r] != comp[target] && minimal.next(r, a) == target) ways.push_back(Formula::conj(*before[r], letter(a)));
        return any_distinct(std::move(ways));
    };
    // chi with each Y<=j χ replaced by Y<=j (after & χ'): read on the positions after an entry only.
    auto relativized = [&](Formula chi, Formula after) {
        return ltl::rebuilt(chi, [&](Formula g, Formula c0, Formula c1) {
            if (g.op() == ltl::Op::Yesterday) return Formula::yesterday(Formula::conj(after, c0));
            if (g.op() == ltl::Op::BoundedYesterday) return Formula::bounded_yesterday(Formula::conj(after, c0), g.k());
            return ltl::with_children(g, c0, c1);
        });
    };
    for (std::size_t g : order) {
        const std::vector<State>& states = groups[g];
        const std::size_t t = tracked_of[comp[states.front()]];
        const std::vector<State> entries = t == SIZE_MAX ? states : dag.tracked[t].entries;
        // in[m]: the run is in states[m] before this position (given it has not left the SCC)
        std::vector<std::vector<Formula>> in(states.size());
        for (std::size_t j = 0; j < entries.size(); ++j) {
            const State e = entries[j];
            const Formula eb = e == minimal.initial ? Formula::tt() : Formula::past(entering(e));
            for (std::size_t m = 0; m < states.size(); ++m) {
                if (t == SIZE_MAX) {
                    in[m].push_back(eb);
                    continue;
                }
                const Formula chi = tracking.at(t).at(j).at(m);
                if (chi.op() == ltl::Op::False) continue;
                in[m].push_back(e == minimal.initial ? chi : Formula::conj(eb, relativized(chi, eb)));
            }
        }
        std::vector<Formula> exits;
        for (std::size_t m = 0; m < states.size(); ++m) {
            std::vector<Formula> leave;
            for (Symbol a = 0; a < sigma; ++a)
                if (comp[minimal.next(states[m], a)] != comp[states[m]]) leave.push_back(letter(a));
            if (!leave.empty() && !in[m].empty()) exits.push_back(Formula::conj(ltl::disjunction(in[m]), ltl::disjunction(leave)));
        }
        for (std::size_t m = 0; m < states.size(); ++m) {
            const Formula inside = ltl::disjunction(in[m]);
            before[states[m]] = exits.empty() ? inside : Formula::conj(inside, Formula::neg(Formula::past(any_distinct(exits))));
        }
    }
    std::vector<Formula> parts;
    for (std::size_t g : order)
        for (State p : groups[g])
            if (minimal.accepting[p]) parts.push_back(*before[p]);
    for (std::size_t i = 0; i < dag.entries.size(); ++i) {
        const Formula after = Formula::past(entering(dag.entries[i]));
        parts.push_back(Formula::conj(after, relativized(residual.at(i), after)));
    }
    return any_distinct(std::move(parts));
}

}  // namespace ltlkit::automata::algebra
