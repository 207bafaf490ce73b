// A complete deterministic finite automaton over a finite, ordered alphabet of symbol names.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "base/error.hh"

namespace ltlkit::automata {

// The default of --max-work: the steps a construction (formula monitor, regex derivatives) may
// take before it stops with exit 3, so that its time and memory are bounded, not only its states
// (docs/ERRORS.md, "Limits"; calibrated in docs/PERFORMANCE.md, "Compilation work").
inline constexpr std::size_t kDefaultMaxWork = 2'000'000'000;

using State = std::uint32_t;
using Symbol = std::uint32_t;        // index into Dfa::alphabet
using Word = std::vector<Symbol>;

// Invariant: delta.size() == num_states() * alphabet.size(), every entry < num_states(),
// accepting.size() == num_states(), initial < num_states() (a DFA has at least one state).
struct Dfa {
    std::vector<std::string> alphabet;
    State initial = 0;
    std::vector<std::uint8_t> accepting;  // 0/1 per state
    std::vector<State> delta;             // row-major: delta[q * alphabet.size() + a]

    std::size_t num_states() const { return accepting.size(); }
    std::size_t num_symbols() const { return alphabet.size(); }
    State next(State q, Symbol a) const { return delta[q * alphabet.size() + a]; }
    State run(State q, const Word& w) const;
    bool accepts(const Word& w) const { return accepting[run(initial, w)] != 0; }
    bool is_accepting(State q) const { return accepting[q] != 0; }

    // Checks the invariant; the message names the first offending state/symbol.
    Result<bool> validate() const;

    friend bool operator==(const Dfa&, const Dfa&) = default;  // structural (same numbering)
};

// --- words (docs/SYNTAX.md §8: letter by letter when every symbol is one character, else space-separated)

// True when every symbol of the alphabet is a single character.
bool single_char_alphabet(const std::vector<std::string>& alphabet);
std::string format_word(const std::vector<std::string>& alphabet, const Word& w);
// Parses a word written as in format_word; with a single-character alphabet both "abba" and
// "a b b a" are accepted. The empty string is the empty word. Errors name the offending symbol.
Result<Word> parse_word(const std::vector<std::string>& alphabet, const std::string& text);
std::vector<std::string> word_symbols(const std::vector<std::string>& alphabet, const Word& w);

}  // namespace ltlkit::automata
