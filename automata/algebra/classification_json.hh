// The public JSON of a classification (docs/CLASSES.md §3–4): what `ltlkit classify --json`
// prints and the Python module's classify() returns, written here only.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "automata/algebra/classify.hh"
#include "automata/algebra/subregular.hh"

namespace ltlkit::automata::algebra {

// What the JSON says beside the classification: how the language was given and how far the
// predictions reach.
struct ClassificationJsonContext {
    unsigned max_k = 4;                   // predictions for global, local-1..max_k, hybrid-1..max_k
    bool alphabet_inferred = false;       // docs/SYNTAX.md §5
    std::optional<std::string> input;     // the "input" key (classify --input: the line's text); absent when nullopt
    std::optional<std::string> fragment;  // the formula's fragment (docs/CLASSES.md §1); null otherwise
    // The "subregular" key (docs/SUBREGULAR.md), last; absent when null.
    const std::vector<SubregularDecision>* subregular = nullptr;
};

// {alphabet, alphabet_inferred, [input], fragment, states, classes (in the class table's order),
// definite_degree, local_k, hybrid_k, predictions, prediction_reasons, witnesses (accepted and
// rejected word of each `fails` prediction with a family), certificates (certificate_to_json, or
// {class, member: null, reason} for an undecided class), [subregular]}.
nlohmann::ordered_json classification_to_json(const Classification& c, const Dfa& dfa,
                                              const ClassificationJsonContext& context);

}  // namespace ltlkit::automata::algebra
