// Classify a past-LTL formula: its classes (SPEC §4), the prediction per attention architecture
// (SPEC §7), and every certificate (SPEC §6) re-verified by the independent checker.
//   classify_formula 'P(b & Y a)'
#include <iostream>
#include <string>

#include "automata/algebra/classify.hh"
#include "automata/monitor.hh"
#include "ltl/parser.hh"
#include "ltl/printer.hh"

using namespace ltlkit;

int main(int argc, char** argv) {
    const std::string text = argc > 1 ? argv[1] : "P(b & Y a)";
    auto formula = ltl::parse_formula(text);
    if (!formula) {
        std::cerr << "classify_formula: " << formula.error().render() << "\n";
        return formula.error().exit_code;
    }
    auto alphabet = automata::formula_alphabet(*formula, {});
    if (!alphabet) {
        std::cerr << "classify_formula: " << alphabet.error().one_line() << "\n";
        return alphabet.error().exit_code;
    }
    auto dfa = automata::compile(*formula, *alphabet);  // minimal DFA by the monitor construction
    if (!dfa) {
        std::cerr << "classify_formula: " << dfa.error().one_line() << "\n";
        return dfa.error().exit_code;
    }
    auto c = automata::algebra::classify(*dfa);
    if (!c) {
        std::cerr << "classify_formula: " << c.error().one_line() << "\n";
        return c.error().exit_code;
    }

    std::cout << "formula " << ltl::to_string(*formula) << ": minimal DFA with " << c->states << " states\n";
    for (const auto& [id, member] : c->classes)
        std::cout << "class " << id << ": " << (!member ? "unknown" : *member ? "yes" : "no") << "\n";
    for (const auto& arch : {"global", "local-1", "local-2", "hybrid-1", "hybrid-2"})
        std::cout << "prediction " << arch << ": " << to_string(automata::algebra::predict(*c, arch).prediction) << "\n";

    int bad = 0;
    for (const auto& [id, cert] : c->certificates) {
        const std::string json = automata::certificate_to_json(cert, *dfa);
        std::string why;
        auto holds = automata::algebra::check_certificate_json(json, &why);
        std::cout << "certificate " << id << " (" << automata::to_string(cert.kind) << "): " << cert.fact << " ["
                  << (holds && *holds ? "checked" : "FAILS") << "]\n";
        if (!holds || !*holds) ++bad;
    }
    return bad == 0 ? 0 : 1;
}
