// Bounded-depth types for the window fragments (docs/WINDOWS.md §4): does the depth-d type of the
// EOS position, in LTL[Y<=k] (window modality) or LTL[P,Y<=k] (window and strict past), determine
// membership in a regular language? Two positions have the same depth-d type iff they agree on
// every formula of the fragment of modal depth <= d, so
//   - a conflict (two words, one accepted, one rejected, with equal depth-d EOS types) proves that
//     no defining formula of the fragment has depth <= d;
//   - separation (no conflict among all words) proves that the language is in the fragment.
// probe_depth decides this exactly by exploring the product of the DFA with a deterministic
// automaton that tracks, per depth j < d, the depth-j types of the last k positions (and, with the
// past, the set of depth-j types seen so far); eos_depth_types_equal is the direct route on two
// given words, used by the certificate checker and the tests.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "automata/dfa.hh"
#include "ltl/formula.hh"

namespace ltlkit::automata::algebra {

struct DepthProbe {
    enum class Status { Separates, Conflict, Limit };
    Status status = Status::Limit;
    unsigned depth = 0;
    Word accepted, rejected;  // Conflict: shortest-first pair with equal depth-d EOS types
    std::size_t states = 0;   // product states explored
    std::size_t eos_types = 0;
    // Separates, when an alphabet was given: the defining formula, the disjunction of the
    // characteristic formulas of the accepted EOS types (or the negated disjunction of the rejected
    // ones, whichever has fewer terms); a type's formula fixes its label, says that every type of
    // its window occurs in the window (Y<=k) and nothing else does, and the same for P.
    ltl::Formula formula;
    // Separates: the window types that formula refers to (the EOS types met and the types of their
    // windows and past sets), a lower bound on its distinct subformulas.
    std::size_t formula_types = 0;
    // probe_depth_states, Separates with a formula: per label, the disjunction of the
    // characteristic formulas of the EOS types its words meet (false for a label met by none).
    std::vector<ltl::Formula> state_formulas;
};

// Explores at most max_states product states (Status::Limit beyond).
// Stops early (Status::Limit) when the installed search budget (budget.hh) runs out.
// build_formula: the formula is built only when it refers to at most max_formula_types types
// (0 = any number); above, formula stays null and formula_types says how many it would need.
DepthProbe probe_depth(const Dfa& dfa, unsigned k, bool hybrid, unsigned depth, std::size_t max_states,
                       bool build_formula = false, std::size_t max_formula_types = 0);

// The same exploration, window modality only, with the EOS label annotated by the set of the word's
// letters and, with every_position, each position's label by the set of letters strictly before it:
// the depth-d types of the formulas of LTL[P,Y<=k] whose P applies to letters only ("P b", "H a"; with
// every_position also under the windows). Separation proves membership in LTL[P,Y<=k] (the formula:
// characteristic formulas of the annotated types, each annotation written with P b and ¬P b); a
// conflict proves nothing about LTL[P,Y<=k]. docs/WINDOWS.md §4b. At most kMaxPastLetters letters
// (Status::Limit above).
inline constexpr std::size_t kMaxPastLetters = 8;
DepthProbe probe_depth_past_letters(const Dfa& dfa, unsigned k, unsigned depth, bool every_position, std::size_t max_states,
                                    bool build_formula = false, std::size_t max_formula_types = 0);

// The same exploration for LTL[Y<=k], each EOS type labelled by labels[q] (labels 0..m-1, one per
// DFA state) for the state q the word reaches rather than by its acceptance, the words whose run
// ends in `avoid` (kNoAvoid: none) left out: Separates when the depth-d EOS type of every other word
// determines the label of the state it reaches (then state_formulas[l] holds at the EOS of such a
// word iff its state has label l); Conflict: two such words (in accepted, rejected) whose states
// have different labels, with equal types. A word that passes through `avoid` ends there when
// `avoid` is a sink. Used to track the state inside an SCC from its entry (Theorem 10.12,
// docs/WINDOWS.md §10).
DepthProbe probe_depth_states(const Dfa& dfa, const std::vector<std::int32_t>& labels, State avoid, unsigned k, unsigned depth,
                              std::size_t max_states, bool build_formula = false, std::size_t max_formula_types = 0);

// Do the EOS positions of u and v have the same depth-d type? Computed on the words themselves.
bool eos_depth_types_equal(const Word& u, const Word& v, unsigned k, bool hybrid, unsigned depth);

}  // namespace ltlkit::automata::algebra
