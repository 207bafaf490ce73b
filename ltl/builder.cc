#include "ltl/builder.hh"

#include <unordered_map>

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

Formula with_children(Formula g, Formula c0, Formula c1) {
    switch (g.op()) {
        case Op::Not: return Formula::neg(c0);
        case Op::And: return Formula::conj(c0, c1);
        case Op::Or: return Formula::disj(c0, c1);
        case Op::Implies: return Formula::implies(c0, c1);
        case Op::Iff: return Formula::iff(c0, c1);
        case Op::Since: return Formula::since(c0, c1);
        case Op::Past: return Formula::past(c0);
        case Op::Yesterday: return Formula::yesterday(c0);
        case Op::Historically: return Formula::historically(c0);
        case Op::BoundedYesterday: return Formula::bounded_yesterday(c0, g.k());
        case Op::True: case Op::False: case Op::Atom: return g;
    }
    return g;
}

Formula rebuilt(Formula f, const std::function<Formula(Formula g, Formula c0, Formula c1)>& node) {
    std::unordered_map<const void*, Formula> done;
    for (Formula g : subformulas_postorder(f)) {
        const Formula c0 = g.arity() > 0 ? done.at(g.child(0).node()) : Formula();
        const Formula c1 = g.arity() > 1 ? done.at(g.child(1).node()) : Formula();
        done[g.node()] = node(g, c0, c1);
    }
    return done.at(f.node());
}

}  // namespace ltlkit::ltl
