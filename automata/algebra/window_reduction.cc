// Theorem 10.6 of docs/WINDOWS.md §10 (window_reduction.hh): bottom SCCs, residuals, and window
// families moved behind a word into a bottom SCC.
#include "automata/algebra/window_reduction.hh"

#include <deque>

#include "automata/algorithms.hh"
#include "automata/algebra/budget.hh"
#include "automata/algebra/window_complete.hh"
#include "automata/algebra/window_strategies.hh"
#include "automata/algebra/windows.hh"

namespace ltlkit::automata::algebra {

namespace {

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

}  // namespace

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

}  // namespace ltlkit::automata::algebra
