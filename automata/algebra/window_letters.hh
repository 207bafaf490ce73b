// Letters that act alike (docs/WINDOWS.md §10, Proposition 10.9): two letters whose columns in the
// minimal DFA are equal (the same element of the syntactic monoid) can be merged. L is in LTL[Y<=k]
// (resp. LTL[P,Y<=k]) iff its restriction to one letter per class is, with the same formulas up to
// widening each kept letter's atom to the disjunction of its class, and the same word families. So a
// window question over {a, b, c, d} where c and d act like b is asked over {a, b}, where every
// strategy works on fewer letters and Corollary 10.5's certified range is larger.
#pragma once

#include <functional>
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

// Every word of a certificate (its family, its pairs, the window field x) with each letter s
// replaced by letter(s); loop markers are kept.
void rename_words(Certificate& c, const std::function<Symbol(Symbol)>& letter);

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

// Zero letters (docs/WINDOWS.md §10, Proposition 10.10): a letter whose column sends every state to
// one sink. With Z the zero letters and Γ the others, L is in LTL[P,Y<=k] iff L ∩ Γ* is (over Γ):
// a formula φ for L ∩ Γ* becomes P Z | φ or !P Z & φ for L (a word with a letter of Z ends in their
// one sink; P, the strict past, sees the letter at EOS), and a formula for L read with the atoms of
// Z false defines L ∩ Γ*.
// For LTL[Y<=k] only the second half holds: a "no" on L ∩ Γ* is a "no" on L. Removing Z can leave
// a DFA with zero letters of its own; the reduction is repeated until none is left (steps).
struct ZeroStep {
    std::vector<std::string> letters;  // the zero letters removed at this step, alphabet order
    bool accepting = false;            // whether their sink accepts (one sink: a sink's row is fixed
                                       // by every letter, so two constant columns have one value)
};
struct ZeroLetters {
    Dfa reduced;                 // minimal and canonical, over the letters kept (alphabet order kept)
    std::vector<Symbol> kept;    // reduced symbol -> original symbol
    std::vector<ZeroStep> steps;  // in the order removed
    std::vector<std::string> letters() const;  // every removed letter, in the original alphabet's order
};

// nullopt when `minimal` has no zero letter, or only zero letters (nothing would be left).
std::optional<ZeroLetters> zero_letters(const Dfa& minimal);

// A formula over the kept letters defining L ∩ Γ* as one defining L (innermost step first):
// φ ↦ P Z | φ when the zero letters' sink accepts, !P Z & φ when it rejects.
ltl::Formula lift_zero_formula(ltl::Formula f, const ZeroLetters& z);

// The hybrid question on z.reduced as one for `minimal`: a "yes" formula lifted and compiled back
// (an ordinary formula certificate, route "zero_letters:..."); anything else keeps its certificate
// with its words mapped back and the field "zero_letters", which tells the checker to remove them
// before re-verifying it.
WindowDecision lift_zero_decision(WindowDecision reduced, const ZeroLetters& z, const Dfa& minimal, unsigned k,
                                  const WindowOptions& options);

}  // namespace ltlkit::automata::algebra
