// Extended regular expressions -> DFA by Brzozowski derivatives (Brzozowski 1964) over
// similarity-normalized terms: | concatenation * + ? ( ) . & ! ε () ∅.
//
// Precedence, lowest first: `r | s`, then `r & s` (intersection), then concatenation `r s`, then
// prefix `!r` (complement w.r.t. the alphabet), then postfix `r*`, `r+`, `r?`. So `!ab` is (!a)b,
// `!a*` is !(a*), `a|b&c` is a|(b&c). Atoms: a symbol, `.` (any symbol of the alphabet), `ε` or
// `()` (the empty word), `∅` (the empty language), `( r )`. Whitespace is ignored.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "automata/dfa.hh"

namespace ltlkit::automata {

// Symbols: with a non-empty `alphabet`, the alphabet's symbols (longest match, spaces between
// them allowed); without it, every lowercase letter is a symbol and the alphabet is the set of
// letters used (sorted). Errors carry 1-based line:column. Result is minimal and canonical.
// `max_work` bounds the derivatives' terms (each counted by its size; 0 = none): exit 3 beyond it.
Result<Dfa> compile_regex(const std::string& regex, const std::vector<std::string>& alphabet,
                          std::size_t max_states = 1'000'000, std::size_t max_work = 0);

// The same language by another route: one minimal DFA per node of the syntax tree, built bottom-up
// (ε-NFAs and the subset construction for concatenation and iteration, products for | and &,
// complement for !), independent of the derivatives. Exit code 3 beyond max_states (--max-states).
Result<Dfa> compile_regex_compositionally(const std::string& regex, const std::vector<std::string>& alphabet,
                                          std::size_t max_states = 1'000'000);

// Membership by the compositional DFA: the independent reference of `accepts --check` and the
// tests, linear in |w| once the automaton is built. Symbols of w index the same alphabet
// compile_regex uses: `alphabet` when non-empty, else the sorted letters of the regex.
Result<bool> regex_matches_reference(const std::string& regex,
                                     const std::vector<std::string>& alphabet, const Word& w);

// A third route for tests on short words: plain backtracking over every split (exponential).
Result<bool> regex_matches_backtracking(const std::string& regex,
                                        const std::vector<std::string>& alphabet, const Word& w);

}  // namespace ltlkit::automata
