// Random formulas of a fragment for prediction suites (prediction_suite.hh, docs/SUBREGULAR.md §5b),
// with the portable RNG of automata/random.hh.
#include "automata/algebra/prediction_suite.hh"
#include "automata/random.hh"

namespace ltlkit::automata::algebra {

Result<ltl::Fragment> parse_suite_fragment(const std::string& text) {
    std::string t = text;
    if (t.rfind("LTL[", 0) == 0 && t.size() > 5 && t.back() == ']') t = t.substr(4, t.size() - 5);
    ltl::Fragment f;
    auto window = [&](const std::string& num) -> bool {
        if (num.empty() || num.size() > 2 || num.find_first_not_of("0123456789") != std::string::npos) return false;
        f.k = unsigned(std::stoul(num));
        return f.k >= 2 && f.k <= 64;
    };
    if (t == "P") f.kind = ltl::FragmentKind::P;
    else if (t == "Y") f.kind = ltl::FragmentKind::Y;
    else if (t == "P,Y") f.kind = ltl::FragmentKind::PY;
    else if (t.rfind("Y<=", 0) == 0 && window(t.substr(3))) f.kind = ltl::FragmentKind::YLeqK;
    else if (t.rfind("P,Y<=", 0) == 0 && window(t.substr(5))) f.kind = ltl::FragmentKind::PYLeqK;
    else return make_error("unknown fragment '" + text + "' (P, Y, Y<=K, P,Y or P,Y<=K with 2 <= K <= 64)");
    return f;
}

ClassConstraint fragment_class(const ltl::Fragment& f) {
    auto c = [](ClassId id) { return ClassConstraint{id, true}; };
    switch (f.kind) {
        case ltl::FragmentKind::P: return c(ClassKind::RTrivial);
        case ltl::FragmentKind::Y: return c(ClassKind::Definite);
        case ltl::FragmentKind::YLeqK: return c(window_class_id(false, unsigned(f.k)));
        case ltl::FragmentKind::PYLeqK: return c(window_class_id(true, unsigned(f.k)));
        default: return c(ClassKind::LocallyRTrivial);
    }
}

ltl::Formula random_fragment_formula(Rng& rng, const ltl::Fragment& fragment, const std::vector<std::string>& atoms, int depth) {
    using ltl::Formula;
    using K = ltl::FragmentKind;
    if (depth <= 0 || rng.below(8) == 0) {
        const std::size_t r = rng.below(atoms.size() * 6 + 1);
        if (r < atoms.size() * 6) return Formula::atom(atoms[r % atoms.size()]);
        return rng.below(2) ? Formula::tt() : Formula::ff();
    }
    enum Choice { Not, And, Or, Implies, Iff, Past, Hist, Yest, YWin };
    std::vector<Choice> choices = {Not, Not, And, And, Or, Or, Implies, Iff};
    const bool past = fragment.kind == K::P || fragment.kind == K::PY || fragment.kind == K::PYLeqK;
    const bool yest = fragment.kind == K::Y || fragment.kind == K::PY;
    const bool win = fragment.kind == K::YLeqK || fragment.kind == K::PYLeqK;
    for (int i = 0; i < 3; ++i) {  // temporal operators weigh 3 against the 8 Boolean ones
        if (past) choices.push_back(i % 2 ? Hist : Past), choices.push_back(Past);
        if (yest) choices.push_back(Yest);
        if (win) choices.push_back(YWin);
    }
    auto sub = [&] { return random_fragment_formula(rng, fragment, atoms, depth - 1); };
    switch (choices[rng.below(choices.size())]) {
        case Not: return Formula::neg(sub());
        case And: { Formula a = sub(); return Formula::conj(a, sub()); }
        case Or: { Formula a = sub(); return Formula::disj(a, sub()); }
        case Implies: { Formula a = sub(); return Formula::implies(a, sub()); }
        case Iff: { Formula a = sub(); return Formula::iff(a, sub()); }
        case Past: return Formula::past(sub());
        case Hist: return Formula::historically(sub());
        case Yest: return Formula::yesterday(sub());
        case YWin: return Formula::bounded_yesterday(sub(), fragment.k);
    }
    return Formula::tt();
}

}  // namespace ltlkit::automata::algebra
