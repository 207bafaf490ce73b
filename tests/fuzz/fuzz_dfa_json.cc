// Fuzz target: the strict DFA JSON reader, then JSON round-trip and minimization invariants.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "automata/algorithms.hh"
#include "automata/dfa_json.hh"
#include "automata/dot.hh"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace ltlkit;
    if (size > 1 << 18) return 0;
    auto dfa = automata::dfa_from_json(std::string(reinterpret_cast<const char*>(data), size));
    if (!dfa.ok()) {
        // An error quotes a bounded excerpt of the input, built without recursion (deep JSON).
        if (dfa.error().render().size() > 4000) std::abort();  // 500 + 200 characters, 4 bytes at most each
        return 0;
    }
    if (!dfa->validate().ok()) std::abort();  // the reader must only return valid DFAs
    auto again = automata::dfa_from_json(automata::to_json(*dfa));
    if (!again.ok() || !(again.value() == dfa.value())) std::abort();
    if (dfa->num_states() > 2000) return 0;
    automata::Dfa m = automata::minimize(*dfa);
    if (automata::distinguishing_word(*dfa, m).has_value()) std::abort();
    if (!(automata::minimize(m) == m)) std::abort();
    (void)automata::to_dot(m);
    return 0;
}
