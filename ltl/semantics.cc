// Direct evaluation of docs/SYNTAX.md §3 by dynamic programming over positions 1..n+1, one truth vector per
// distinct subformula (children first). P, H and S use their one-step recurrences
// (P at i+1 = φ(i) ∨ P at i; S at i+1 = ψ(i) ∨ (φ(i) ∧ S at i)); Y<=k scans its window.
#include "ltl/semantics.hh"

#include <unordered_map>

namespace ltlkit::ltl {

std::vector<bool> evaluate_all_positions(Formula f, const std::vector<std::string>& word) {
    const std::size_t n = word.size();
    const std::size_t m = n + 1;  // positions 1..n+1 are indices 0..n
    std::unordered_map<std::size_t, std::vector<bool>> val;
    std::vector<bool>* last = nullptr;
    for (Formula g : subformulas_postorder(f)) {
        std::vector<bool> v(m, false);
        auto c = [&](std::size_t i) -> const std::vector<bool>& { return val.at(g.child(i).id()); };
        switch (g.op()) {
            case Op::True: v.assign(m, true); break;
            case Op::False: break;
            case Op::Atom:
                for (std::size_t i = 0; i < n; ++i) v[i] = word[i] == g.name();
                break;  // no symbol holds at EOS (index n)
            case Op::Not: {
                const auto& a = c(0);
                for (std::size_t i = 0; i < m; ++i) v[i] = !a[i];
                break;
            }
            case Op::And: {
                const auto &a = c(0), &b = c(1);
                for (std::size_t i = 0; i < m; ++i) v[i] = a[i] && b[i];
                break;
            }
            case Op::Or: {
                const auto &a = c(0), &b = c(1);
                for (std::size_t i = 0; i < m; ++i) v[i] = a[i] || b[i];
                break;
            }
            case Op::Implies: {
                const auto &a = c(0), &b = c(1);
                for (std::size_t i = 0; i < m; ++i) v[i] = !a[i] || b[i];
                break;
            }
            case Op::Iff: {
                const auto &a = c(0), &b = c(1);
                for (std::size_t i = 0; i < m; ++i) v[i] = a[i] == b[i];
                break;
            }
            case Op::Past: {  // ∃ j < i
                const auto& a = c(0);
                for (std::size_t i = 1; i < m; ++i) v[i] = v[i - 1] || a[i - 1];
                break;
            }
            case Op::Historically: {  // ∀ j < i (true at position 1)
                const auto& a = c(0);
                v[0] = true;
                for (std::size_t i = 1; i < m; ++i) v[i] = v[i - 1] && a[i - 1];
                break;
            }
            case Op::Yesterday: {
                const auto& a = c(0);
                for (std::size_t i = 1; i < m; ++i) v[i] = a[i - 1];
                break;
            }
            case Op::BoundedYesterday: {  // ∃ j, max(1, i-k) <= j <= i-1
                const auto& a = c(0);
                const std::size_t k = g.k();
                for (std::size_t i = 1; i < m; ++i) {
                    std::size_t lo = i >= k ? i - k : 0;
                    bool any = false;
                    for (std::size_t j = lo; j < i && !any; ++j) any = a[j];
                    v[i] = any;
                }
                break;
            }
            case Op::Since: {  // ∃ j < i: ψ(j) ∧ ∀ j < l < i: φ(l)
                const auto &phi = c(0), &psi = c(1);
                for (std::size_t i = 1; i < m; ++i) v[i] = psi[i - 1] || (phi[i - 1] && v[i - 1]);
                break;
            }
        }
        last = &(val[g.id()] = std::move(v));
    }
    return last ? *last : std::vector<bool>(m, false);
}

bool holds_at_eos(Formula f, const std::vector<std::string>& word) {
    return evaluate_all_positions(f, word).back();
}

}  // namespace ltlkit::ltl
