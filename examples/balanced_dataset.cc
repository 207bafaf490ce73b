// Generate an exact, balanced dataset of a language (uniform among the words of each length and
// label), read it back, and count the labels per split.
//   balanced_dataset 'Y a' DIR
#include <iostream>
#include <string>

#include "automata/dataset.hh"
#include "automata/language.hh"

using namespace ltlkit;

int main(int argc, char** argv) {
    automata::LanguageSpec spec;  // a formula here; InputKind::Regex and DfaFile work alike
    spec.text = argc > 1 ? argv[1] : "Y a";
    spec.alphabet = {"a", "b"};
    const std::string dir = argc > 2 ? argv[2] : "dataset";
    auto language = automata::load_language(spec);
    if (!language) {
        std::cerr << "balanced_dataset: " << language.error().render() << "\n";
        return language.error().exit_code;
    }
    automata::DatasetOptions options;
    options.train = {1, 8};
    options.test = {9, 12};
    options.per_length = 16;
    options.boundary_per_length = 4;
    options.seed = 7;
    options.language_name = options.language_text = spec.text;
    options.language_kind = "formula";
    auto report = automata::generate_dataset(language->dfa, dir, options);
    if (!report) {
        std::cerr << "balanced_dataset: " << report.error().one_line() << "\n";
        return report.error().exit_code;
    }
    auto dataset = automata::read_dataset(dir);  // checks hashes and every label against the DFA
    if (!dataset) {
        std::cerr << "balanced_dataset: " << dataset.error().one_line() << "\n";
        return dataset.error().exit_code;
    }
    bool balanced = true;
    for (const auto& [name, split] : dataset->splits) {
        std::size_t accepted = 0;
        for (const auto& e : split.examples) accepted += e.label ? 1 : 0;
        const std::size_t rejected = split.examples.size() - accepted;
        std::cout << name << ": " << split.examples.size() << " words, " << accepted << " accepted, " << rejected
                  << " rejected\n";
        if (accepted != rejected) balanced = false;
    }
    std::cout << (balanced ? "balanced\n" : "not balanced\n");
    return balanced ? 0 : 1;
}
