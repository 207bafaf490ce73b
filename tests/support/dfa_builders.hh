// Small helpers shared by the tests to build DFAs by hand.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "automata/dfa.hh"

namespace ltlkit::testing {

// A DFA from its parts (delta row-major, as in automata::Dfa).
inline automata::Dfa make_dfa(std::vector<std::string> alphabet, automata::State initial,
                              std::vector<std::uint8_t> accepting, std::vector<automata::State> delta) {
    automata::Dfa d;
    d.alphabet = std::move(alphabet);
    d.initial = initial;
    d.accepting = std::move(accepting);
    d.delta = std::move(delta);
    return d;
}

}  // namespace ltlkit::testing
