// Algorithms over complete DFAs: minimization, canonical numbering, Boolean operations,
// equivalence. Free functions over the Dfa data type (after Mata's nfa/algorithms.hh).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>

#include "automata/dfa.hh"

namespace ltlkit::automata {

// Removes unreachable states and renumbers canonically: BFS from the initial state, successors
// visited in alphabet order. Two minimal DFAs of one language become equal (operator==).
Dfa canonical(const Dfa& d);

// Hopcroft's partition refinement (Hopcroft 1971), O(n·|Σ|·log n); the result is minimal,
// complete and canonically numbered.
Dfa minimize(const Dfa& d);

// Is d minimal (all states reachable and pairwise distinguishable)?
bool is_minimal(const Dfa& d);

// The same DFA over the letters `keep` only (renumbered in that order); states unchanged (not
// minimized: states only the other letters reach stay).
Dfa restrict_letters(const Dfa& d, const std::vector<Symbol>& keep);

// Complement (same alphabet): accepting states flipped.
Dfa complement(const Dfa& d);

// Product over the same alphabet (alphabets must be equal, in the same order); accepting iff
// combine(accept_a, accept_b). Only reachable pairs are built. Not minimized.
Dfa product(const Dfa& a, const Dfa& b, const std::function<bool(bool, bool)>& combine);

// Shortest (then lexicographically least by symbol index) word on which a and b differ, or
// nullopt when they are equivalent. Alphabets must be equal as sets; b is re-indexed to a's order.
// The search stops, returning nullopt with *over_limit = true, once it has built more than
// max_pairs pairs of states (`equiv --max-states`).
std::optional<Word> distinguishing_word(const Dfa& a, const Dfa& b, std::size_t max_pairs = SIZE_MAX,
                                        bool* over_limit = nullptr);

// Same DFA over another order (or superset) of the alphabet: symbols missing from d go to a fresh
// rejecting sink. Every symbol of d must be in the new alphabet.
Result<Dfa> with_alphabet(const Dfa& d, const std::vector<std::string>& alphabet);

// Number of words of each length 0..max_len accepted (saturating at UINT64_MAX); for tests.
std::vector<std::uint64_t> count_accepted(const Dfa& d, std::size_t max_len);

}  // namespace ltlkit::automata
