// Compile an extended regular expression to a DFA, minimize it, and print it in Graphviz DOT.
//   regex_to_dot '(ab)*' | dot -Tsvg > ab.svg
#include <iostream>
#include <string>

#include "automata/algorithms.hh"
#include "automata/dot.hh"
#include "automata/regex.hh"

using namespace ltlkit;

int main(int argc, char** argv) {
    const std::string regex = argc > 1 ? argv[1] : "(ab)*";
    auto dfa = automata::compile_regex(regex, {});  // Brzozowski derivatives
    if (!dfa) {
        std::cerr << "regex_to_dot: " << dfa.error().render() << "\n";
        return dfa.error().exit_code;
    }
    const automata::Dfa minimal = automata::minimize(*dfa);  // Hopcroft; canonical numbering
    std::cerr << "regex_to_dot: " << dfa->num_states() << " states, minimal: " << minimal.num_states() << "\n";
    std::cout << automata::to_dot(minimal);
    return 0;
}
