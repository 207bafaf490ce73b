// Printing formulas so that parse_formula(to_string(f)) == f (same hash-consed node).
#pragma once

#include <string>

#include "ltl/formula.hh"

namespace ltlkit::ltl {

// ASCII syntax with the minimal parentheses that the precedence table of docs/SYNTAX.md §2 needs.
std::string to_string(Formula f);
// Same, with the Unicode operator forms (¬ ∧ ∨ → ↔ ⊤ ⊥ Y≤k).
std::string to_unicode(Formula f);

}  // namespace ltlkit::ltl
