// Random past-LTL formulas for tests: every operator of the formula belongs to the requested
// fragment (docs/CLASSES.md §1), so fragment_of(result) is that fragment or a smaller one.
#pragma once

#include <cstddef>
#include <random>
#include <string>
#include <vector>

#include "ltl/formula.hh"
#include "ltl/fragment.hh"

namespace ltlkit::testing {

namespace detail {
template <class Rng>
std::size_t pick(Rng& rng, std::size_t n) {
    return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng);
}
}  // namespace detail

// A formula of temporal+Boolean nesting depth <= `depth` over `atoms` (non-empty), using only the
// operators of `fragment`: None = Boolean only; P = P, H; Y = Y and Y<=j for j in 1..3 (mixed
// windows stay in LTL[Y]); YLeqK = Y<=k only (fragment.k >= 2); PY = P, H, Y, Y<=j;
// PYLeqK = P, H, Y<=k; S = everything including S. Boolean connectives include -> and <->.
template <class Rng>
ltl::Formula random_formula(Rng& rng, ltl::Fragment fragment, const std::vector<std::string>& atoms,
                            int depth) {
    using ltl::Formula;
    using K = ltl::FragmentKind;
    if (depth <= 0 || detail::pick(rng, 8) == 0) {
        std::size_t r = detail::pick(rng, atoms.size() * 6 + 1);
        if (r < atoms.size() * 6) return Formula::atom(atoms[r % atoms.size()]);
        return detail::pick(rng, 2) ? Formula::tt() : Formula::ff();
    }
    enum Choice { Not, And, Or, Implies, Iff, Past, Hist, Yest, YWin, Since };
    std::vector<Choice> choices = {Not, Not, And, And, Or, Or, Implies, Iff};
    const K kind = fragment.kind;
    const bool past = kind == K::P || kind == K::PY || kind == K::PYLeqK || kind == K::S;
    const bool yest = kind == K::Y || kind == K::PY || kind == K::S;
    const bool win = kind != K::None && kind != K::P;  // Y<=j of some kind
    const int temporal_weight = 3;
    for (int i = 0; i < temporal_weight; ++i) {
        if (past) choices.push_back(i % 2 ? Hist : Past), choices.push_back(Past);
        if (yest) choices.push_back(Yest);
        if (win) choices.push_back(YWin);
        if (kind == K::S) choices.push_back(Since);
    }
    auto sub = [&] { return random_formula(rng, fragment, atoms, depth - 1); };
    switch (choices[detail::pick(rng, choices.size())]) {
        case Not: return Formula::neg(sub());
        case And: { Formula a = sub(); return Formula::conj(a, sub()); }
        case Or: { Formula a = sub(); return Formula::disj(a, sub()); }
        case Implies: { Formula a = sub(); return Formula::implies(a, sub()); }
        case Iff: { Formula a = sub(); return Formula::iff(a, sub()); }
        case Past: return Formula::past(sub());
        case Hist: return Formula::historically(sub());
        case Yest: return Formula::yesterday(sub());
        case YWin: {
            unsigned k = (kind == K::YLeqK || kind == K::PYLeqK)
                             ? (fragment.k >= 2 ? fragment.k : 2)
                             : static_cast<unsigned>(1 + detail::pick(rng, 3));
            return Formula::bounded_yesterday(sub(), k);
        }
        case Since: { Formula a = sub(); return Formula::since(a, sub()); }
    }
    return Formula::tt();
}

template <class Rng>
ltl::Formula random_formula(Rng& rng, ltl::FragmentKind kind, const std::vector<std::string>& atoms,
                            int depth, unsigned k = 2) {
    ltl::Fragment fr;
    fr.kind = kind;
    fr.k = (kind == ltl::FragmentKind::YLeqK || kind == ltl::FragmentKind::PYLeqK) ? k : 1;
    return random_formula(rng, fr, atoms, depth);
}

// All fragments, with the windows used for the bounded ones; handy for "for every fragment" loops.
inline std::vector<ltl::Fragment> all_fragments(unsigned k = 2) {
    using K = ltl::FragmentKind;
    std::vector<ltl::Fragment> out;
    for (K kind : {K::None, K::P, K::Y, K::YLeqK, K::PY, K::PYLeqK, K::S}) {
        ltl::Fragment fr;
        fr.kind = kind;
        fr.k = (kind == K::YLeqK || kind == K::PYLeqK) ? k : 1;
        out.push_back(fr);
    }
    return out;
}

}  // namespace ltlkit::testing
