// Formula -> DFA by the past-time monitor construction: after reading w the state holds what is
// needed to evaluate every subformula at the EOS position |w|+1 (the truth values of the temporal
// subformulas at the last position plus the window history Y<=k needs). Only reachable states.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "automata/dfa.hh"
#include "ltl/formula.hh"

namespace ltlkit::automata {

struct CompileOptions {
    std::size_t max_states = 1'000'000;  // monitor states built before giving up (--max-states)
    bool minimize = true;                // false: the reachable monitor, canonically numbered
    // Steps before giving up (--max-work; 0 = none): each transition built costs the size of the
    // monitor's program and state, so deep nesting is bounded in time and memory too.
    // The library's default is none; the CLI's languages (LanguageSpec) use kDefaultMaxWork.
    // Last, so that the positional {max_states, minimize} of earlier callers keeps its meaning.
    std::size_t max_work = 0;
    // Polled once per monitor state built, with that state's cost in the units of max_work (the
    // program size times the letters + 1); true stops the construction with a limit error (exit 3).
    // The window strategies charge their search budget with it (docs/WINDOWS.md §5b), so that
    // compiling a candidate formula back is bounded like every other step of a search.
    std::function<bool(std::size_t step_cost)> interrupted = {};
};

// The alphabet of f: its atoms, sorted, unless `alphabet` is non-empty, in which case it must
// contain every atom (the error names the first missing one). A formula with no atom and no
// alphabet is an error that asks for --alphabet.
Result<std::vector<std::string>> formula_alphabet(ltl::Formula f,
                                                  const std::vector<std::string>& alphabet);

// Compiles f over `alphabet` (already resolved by formula_alphabet).
Result<Dfa> compile(ltl::Formula f, const std::vector<std::string>& alphabet,
                    const CompileOptions& options = {});

}  // namespace ltlkit::automata
