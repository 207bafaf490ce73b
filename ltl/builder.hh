// Ways to build formulas beyond the node factories of formula.hh: folds over a list, and
// constructors that simplify at the constants. The factories never rewrite (a formula is kept as
// written, docs/SYNTAX.md §2); these are for formulas that the library generates itself.
#pragma once

#include <functional>
#include <vector>

#include "ltl/formula.hh"

namespace ltlkit::ltl {

// φ1 ∨ … ∨ φn and φ1 ∧ … ∧ φn folded from the left ((φ1 ∨ φ2) ∨ φ3 …), without simplification;
// false (resp. true) for an empty list.
Formula disjunction(const std::vector<Formula>& fs);
Formula conjunction(const std::vector<Formula>& fs);

// ∧, ∨, ¬ and P simplified at the constants (a ∧ true = a, a ∨ true = true, ¬false = true,
// P false = false) and at equal operands (a ∧ a = a); otherwise the plain node.
Formula simplified_conj(Formula a, Formula b);
Formula simplified_disj(Formula a, Formula b);
Formula simplified_neg(Formula a);
Formula simplified_past(Formula a);

// "if f then a else b", (f ∧ a) ∨ (¬f ∧ b), written f, ¬f, f ∨ b, ¬f ∧ b, ¬f ∨ a or f ∧ a when a or
// b is a constant.
Formula if_then_else(Formula f, Formula a, Formula b);

// The node g's operator applied to new children c0, c1 (null where g has fewer): g itself for an
// atom or a constant, Y<=k keeping g's window.
Formula with_children(Formula g, Formula c0, Formula c1);

// f rebuilt bottom-up over its DAG (each distinct subformula once): every node g becomes
// node(g, c0, c1), given the rebuilt children; `with_children` rebuilds it unchanged.
Formula rebuilt(Formula f, const std::function<Formula(Formula g, Formula c0, Formula c1)>& node);

}  // namespace ltlkit::ltl
