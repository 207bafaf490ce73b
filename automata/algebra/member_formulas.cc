// Member formulas of the classes (docs/CLASSES.md §3): an LTL[P] formula for a partially ordered
// DFA and an LTL[Y] decision tree for a definite language, compiled back by the tests and the checker.
#include "automata/algebra/classes.hh"

#include <algorithm>
#include <functional>
#include <numeric>
#include <unordered_map>

#include "ltl/builder.hh"
#include "ltl/formula.hh"

namespace ltlkit::automata::algebra {

namespace {
using ltl::Formula;
Formula letters(const Dfa& d, const std::vector<Symbol>& as) {
    Formula f = Formula::ff();
    for (Symbol a : as) f = ltl::simplified_disj(f, Formula::atom(d.alphabet[a]));
    return f;
}
}  // namespace

// LC25 Lemma C.1 (partially ordered DFA -> LTL[P]): with E_q = "q was entered before now" and
// L_q = "q was left before now", the current state is q iff E_q ∧ ¬L_q; E_q0 = true,
// E_q = P(∨_{p·a=q, p≠q} a ∧ S_p), L_q = P(E_q ∧ ∨_{q·a≠q} a). Well-founded because the run
// never returns to a state it left. Evaluated at EOS this reads the state after the whole word.
std::optional<ltl::Formula> partially_ordered_formula(const Dfa& d) {
    DfaAnalysis A(d);
    const std::size_t n = d.num_states(), k = d.num_symbols();
    if (A.num_scc() != n) return std::nullopt;
    // The transitions into each state from the others, by source state and then letter.
    std::vector<std::vector<std::pair<State, Symbol>>> into(n);
    for (State p = 0; p < n; ++p)
        for (std::size_t a = 0; a < k; ++a)
            if (const State q = d.next(p, Symbol(a)); q != p) into[q].emplace_back(p, Symbol(a));
    // Topological order: SCC numbers are reverse topological, so decreasing SCC number.
    std::vector<State> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](State a, State b) { return A.scc(a) > A.scc(b); });
    std::vector<Formula> S(n), E(n);
    std::vector<char> done(n, 0);
    for (State q : order) {
        Formula e = Formula::ff();
        if (q == d.initial) e = Formula::tt();
        else {
            const auto& in = into[q];
            for (std::size_t i = 0; i < in.size();) {
                const State p = in[i].first;
                std::vector<Symbol> as;
                for (; i < in.size() && in[i].first == p; ++i) as.push_back(in[i].second);
                e = ltl::simplified_disj(e, ltl::simplified_conj(letters(d, as), S[p]));  // p precedes q, so S[p] is built
            }
            e = ltl::simplified_past(e);
        }
        std::vector<Symbol> exits;
        for (std::size_t a = 0; a < k; ++a)
            if (d.next(q, Symbol(a)) != q) exits.push_back(Symbol(a));
        Formula left = ltl::simplified_past(ltl::simplified_conj(e, letters(d, exits)));
        E[q] = e;
        S[q] = ltl::simplified_conj(e, ltl::simplified_neg(left));
        done[q] = 1;
    }
    Formula f = Formula::ff();
    for (State q = 0; q < n; ++q)
        if (d.is_accepting(q)) f = ltl::simplified_disj(f, S[q]);
    return f;
}

// Definite language of degree d: a decision tree over the last symbols. F(v) holds at position i
// when the symbols from i on are v; it is constant when all states {q·v} agree, else
// (¬Y⊤ ∧ [q0·v ∈ F]) ∨ ∨_a Y(a ∧ F(av)).
std::optional<ltl::Formula> definite_formula(const Dfa& d, std::size_t max_nodes) {
    // Each node costs a tuple of n states: at most kDefiniteFormulaWork tuple entries in all.
    max_nodes = std::min(max_nodes, kDefiniteFormulaWork / std::max<std::size_t>(d.num_states(), 1));
    DfaAnalysis A(d);
    if (!A.pair_graph_longest_path()) return std::nullopt;
    const std::size_t n = d.num_states(), k = d.num_symbols();
    // F depends on v only through the tuple (q·v)_q, and tuple(av)[q] = tuple(v)[q·a]: memoize. The
    // memo is keyed by two independent 64-bit hashes of the tuple instead of the tuple (n states per
    // node); a collision of both would give a wrong formula, which compiling it back (check-certificate,
    // the tests) would expose.
    struct Key128 {
        std::uint64_t a, b;
        bool operator==(const Key128&) const = default;
    };
    struct Key128Hash {
        std::size_t operator()(const Key128& k) const noexcept { return std::size_t(k.a ^ (k.b * 0x9e3779b97f4a7c15ULL)); }
    };
    std::unordered_map<Key128, Formula, Key128Hash> memo;
    auto hash_of = [](const std::vector<State>& tv) {
        std::uint64_t h1 = 0x9e3779b97f4a7c15ULL, h2 = 0xc2b2ae3d27d4eb4fULL;
        for (State x : tv) {
            h1 = (h1 ^ x) * 0xff51afd7ed558ccdULL, h1 ^= h1 >> 29;
            h2 = (h2 + x + 0x165667b19e3779f9ULL) * 0xc4ceb9fe1a85ec53ULL, h2 ^= h2 >> 31;
        }
        return Key128{h1, h2};
    };
    std::size_t nodes = 0;
    bool too_big = false;
    std::function<Formula(const std::vector<State>&)> F = [&](const std::vector<State>& tv) -> Formula {
        const Key128 h = hash_of(tv);
        if (auto it = memo.find(h); it != memo.end()) return it->second;
        if (++nodes > max_nodes) {
            too_big = true;
            return Formula::ff();
        }
        bool acc = false, rej = false;
        for (State s : tv) (d.is_accepting(s) ? acc : rej) = true;
        Formula f;
        if (!rej) f = Formula::tt();
        else if (!acc) f = Formula::ff();
        else {
            f = d.is_accepting(tv[d.initial]) ? ltl::simplified_neg(Formula::yesterday(Formula::tt())) : Formula::ff();
            std::vector<std::pair<Formula, std::vector<Symbol>>> groups;
            for (std::size_t a = 0; a < k; ++a) {
                std::vector<State> ta(n);
                for (State q = 0; q < n; ++q) ta[q] = tv[d.next(q, Symbol(a))];
                Formula g = F(ta);
                if (g.op() == ltl::Op::False) continue;
                auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& x) { return x.first == g; });
                if (it == groups.end()) groups.push_back({g, {Symbol(a)}});
                else it->second.push_back(Symbol(a));
            }
            for (const auto& [g, as] : groups) f = ltl::simplified_disj(f, Formula::yesterday(ltl::simplified_conj(letters(d, as), g)));
        }
        memo.emplace(h, f);
        return f;
    };
    std::vector<State> id(n);
    std::iota(id.begin(), id.end(), 0);
    Formula f = F(id);
    if (too_big) return std::nullopt;
    return f;
}

}  // namespace ltlkit::automata::algebra
