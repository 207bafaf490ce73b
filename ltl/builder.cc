#include "ltl/builder.hh"

namespace ltlkit::ltl {

namespace {
Formula fold(const std::vector<Formula>& fs, Formula empty, Formula (*op)(Formula, Formula)) {
    if (fs.empty()) return empty;
    Formula f = fs[0];
    for (std::size_t i = 1; i < fs.size(); ++i) f = op(f, fs[i]);
    return f;
}
bool is(Formula f, Op op) { return f.op() == op; }
}  // namespace

Formula disjunction(const std::vector<Formula>& fs) { return fold(fs, Formula::ff(), &Formula::disj); }
Formula conjunction(const std::vector<Formula>& fs) { return fold(fs, Formula::tt(), &Formula::conj); }

namespace {
// a op b with `absorbing` (false for ∧, true for ∨) and `neutral` constants simplified away.
Formula simplified(Formula a, Formula b, Op absorbing, Op neutral, Formula (*op)(Formula, Formula)) {
    if (is(a, absorbing) || is(b, absorbing)) return is(a, absorbing) ? a : b;
    if (is(a, neutral)) return b;
    if (is(b, neutral)) return a;
    if (a == b) return a;
    return op(a, b);
}
}  // namespace

Formula simplified_conj(Formula a, Formula b) { return simplified(a, b, Op::False, Op::True, &Formula::conj); }
Formula simplified_disj(Formula a, Formula b) { return simplified(a, b, Op::True, Op::False, &Formula::disj); }

Formula simplified_neg(Formula a) {
    if (is(a, Op::True)) return Formula::ff();
    if (is(a, Op::False)) return Formula::tt();
    return Formula::neg(a);
}

Formula simplified_past(Formula a) { return is(a, Op::False) ? Formula::ff() : Formula::past(a); }

Formula if_then_else(Formula f, Formula a, Formula b) {
    const bool at = is(a, Op::True), af = is(a, Op::False), bt = is(b, Op::True), bf = is(b, Op::False);
    const Formula nf = Formula::neg(f);
    if (at && bf) return f;
    if (af && bt) return nf;
    if (at) return Formula::disj(f, b);
    if (af) return Formula::conj(nf, b);
    if (bt) return Formula::disj(nf, a);
    if (bf) return Formula::conj(f, a);
    return Formula::disj(Formula::conj(f, a), Formula::conj(nf, b));
}

}  // namespace ltlkit::ltl
