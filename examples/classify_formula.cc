// Classify a past-LTL formula: its classes (docs/CLASSES.md §2), the prediction per attention architecture
// (docs/CLASSES.md §4), and every certificate (docs/CLASSES.md §3) re-verified by the independent checker. The alphabet
// follows the rule of `ltlkit classify` (docs/SYNTAX.md §5): the formula's symbols unless given,
// and an inferred alphabet of a single symbol is refused.
//   classify_formula 'P(b & Y a)'
//   classify_formula 'Y a' --alphabet a,b
#include <iostream>
#include <string>

#include "automata/algebra/classify.hh"
#include "automata/certificate.hh"
#include "automata/language.hh"
#include "ltl/printer.hh"

using namespace ltlkit;

int main(int argc, char** argv) {
    automata::LanguageSpec spec;  // a formula (the default kind)
    spec.text = spec.name = argc > 1 ? argv[1] : "P(b & Y a)";
    if (argc == 4 && std::string(argv[2]) == "--alphabet") {
        auto alphabet = automata::parse_alphabet(argv[3]);
        if (!alphabet) {
            std::cerr << "classify_formula: " << alphabet.error().one_line() << "\n";
            return alphabet.error().exit_code;
        }
        spec.alphabet = *alphabet;
    } else if (argc > 2) {
        std::cerr << "usage: classify_formula FORMULA [--alphabet a,b]\n";
        return 2;
    }
    auto lang = automata::load_language(spec);  // parsed, compiled and minimized
    if (!lang) {
        std::cerr << "classify_formula: " << lang.error().render() << "\n";
        return lang.error().exit_code;
    }
    if (automata::alphabet_inferred(*lang))
        if (auto e = automata::inferred_alphabet_error(lang->dfa.alphabet, "the formula")) {
            std::cerr << "classify_formula: " << e->one_line() << "\n";
            return e->exit_code;
        }
    const ltl::Formula formula = *lang->formula;
    const automata::Dfa& dfa = lang->dfa;
    auto c = automata::algebra::classify(dfa);
    if (!c) {
        std::cerr << "classify_formula: " << c.error().one_line() << "\n";
        return c.error().exit_code;
    }

    std::cout << "formula " << ltl::to_string(formula) << ": minimal DFA with " << c->states << " states\n";
    for (const auto& [id, member] : c->classes)
        std::cout << "class " << id << ": " << (!member ? "unknown" : *member ? "yes" : "no") << "\n";
    for (const auto& arch : {"global", "local-1", "local-2", "hybrid-1", "hybrid-2"})
        std::cout << "prediction " << arch << ": " << to_string(automata::algebra::predict(*c, arch).prediction) << "\n";

    int bad = 0;
    for (const auto& [id, cert] : c->certificates) {
        const std::string json = automata::certificate_to_json(cert, dfa);
        std::string why;
        auto holds = automata::algebra::check_certificate_json(json, &why);
        std::cout << "certificate " << id << " (" << automata::to_string(cert.kind) << "): " << cert.fact << " ["
                  << (holds && *holds ? "checked" : "FAILS") << "]\n";
        if (!holds || !*holds) ++bad;
    }
    return bad == 0 ? 0 : 1;
}
