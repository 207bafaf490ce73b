// Letters that act alike (docs/WINDOWS.md §10, Proposition 10.9): two letters whose columns in the
// minimal DFA are equal (the same element of the syntactic monoid) can be merged. L is in LTL[Y<=k]
// (resp. LTL[P,Y<=k]) iff its restriction to one letter per class is, with the same formulas up to
// widening each kept letter's atom to the disjunction of its class, and the same word families. So a
// window question over {a, b, c, d} where c and d act like b is asked over {a, b}, where every
// strategy works on fewer letters and Corollary 10.5's certified range is larger.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "automata/algebra/windows.hh"
#include "automata/dfa.hh"
#include "ltl/formula.hh"

namespace ltlkit::automata::algebra {

struct LetterClasses {
    Dfa reduced;                   // minimal and canonical, over the first letter of each class (alphabet order kept)
    std::vector<Symbol> kept;      // reduced symbol -> the original letter it stands for
    std::vector<Symbol> class_of;  // original symbol -> reduced symbol
};

// nullopt when no two letters of `minimal` have equal columns.
std::optional<LetterClasses> letters_acting_alike(const Dfa& minimal);

// The number of letter classes (the alphabet size of the reduced DFA; the DFA's own when none merge).
std::size_t letter_classes(const Dfa& minimal);

// "c, d act as b" for the merged letters, in alphabet order.
std::string merged_letters_phrase(const LetterClasses& m, const Dfa& minimal);

// A reduced word as a word of the original alphabet (loop markers kept).
Word lift_word(const Word& w, const LetterClasses& m);

// The reduced formula over the original alphabet: each kept letter's atom becomes the disjunction of
// its class (in alphabet order).
ltl::Formula lift_formula(ltl::Formula f, const LetterClasses& m, const std::vector<std::string>& alphabet);

// The reduced question's decision as one for `minimal`: a formula widened and compiled back, words
// mapped back; its fact opened by the merged letters. Precondition: `reduced` answers the same
// question (k, hybrid) for m.reduced.
WindowDecision lift_decision(WindowDecision reduced, const LetterClasses& m, const Dfa& minimal, unsigned k, bool hybrid,
                             const WindowOptions& options);

}  // namespace ltlkit::automata::algebra
