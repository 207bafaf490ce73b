// Direct evaluation of the semantics of docs/SYNTAX.md §3 on a word: the reference every construction is
// tested against. O(|w| · |f| · k) by dynamic programming over positions.
#pragma once

#include <string>
#include <vector>

#include "ltl/formula.hh"

namespace ltlkit::ltl {

// w is a sequence of symbol names. Returns whether w, |w|+1 ⊨ f (evaluation at EOS, docs/SYNTAX.md §1).
bool holds_at_eos(Formula f, const std::vector<std::string>& word);

// Truth value of f at every position 1..n+1 (index i-1 in the result).
std::vector<bool> evaluate_all_positions(Formula f, const std::vector<std::string>& word);

}  // namespace ltlkit::ltl
