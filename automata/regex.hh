// Extended regular expressions -> DFA by Brzozowski derivatives (Brzozowski 1964) over
// similarity-normalized terms: | concatenation * + ? ( ) . & ! ε () ∅.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "automata/dfa.hh"

namespace ltlkit::automata {

// Symbols: with a non-empty `alphabet`, the alphabet's symbols (longest match, spaces between
// them allowed); without it, every lowercase letter is a symbol and the alphabet is the set of
// letters used (sorted). Errors carry 1-based line:column. Result is minimal and canonical.
Result<Dfa> compile_regex(const std::string& regex, const std::vector<std::string>& alphabet,
                          std::size_t max_states = 1'000'000);

// Backtracking matcher of the same syntax, used as the independent reference in tests.
// (Exponential; only for short words.)
Result<bool> regex_matches_reference(const std::string& regex,
                                     const std::vector<std::string>& alphabet, const Word& w);

}  // namespace ltlkit::automata
