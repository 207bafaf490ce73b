// Small helpers shared by the tests to build DFAs by hand.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "automata/dfa.hh"
#include "automata/random.hh"

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

// A random complete DFA over the letters a, b, ... of one of four shapes, so that every class of
// docs/CLASSES.md §2 gets members: uniform, partially ordered (no edge to a smaller state), mostly
// self-loops, and shift-register-like (definite-looking).
inline automata::Dfa random_shaped_dfa(automata::Rng& rng, std::size_t n, std::size_t k) {
    using automata::State;
    automata::Dfa d;
    for (std::size_t a = 0; a < k; ++a) d.alphabet.push_back(std::string(1, char('a' + a)));
    d.accepting.resize(n);
    for (auto& x : d.accepting) x = std::uint8_t(rng.below(2));
    d.delta.resize(n * k);
    const auto shape = rng.below(4);
    for (std::size_t q = 0; q < n; ++q)
        for (std::size_t a = 0; a < k; ++a) {
            State t;
            switch (shape) {
                case 0: t = State(rng.below(n)); break;
                case 1: t = State(q + rng.below(n - q)); break;
                case 2: t = rng.below(3) == 0 ? State(rng.below(n)) : State(q); break;
                default: t = State((q * k + a + rng.below(2)) % n); break;
            }
            d.delta[q * k + a] = t;
        }
    return d;
}

}  // namespace ltlkit::testing
