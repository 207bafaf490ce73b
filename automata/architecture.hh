// The attention architectures the theory makes predictions for (docs/CLASSES.md §4) and the
// recognizers the neural verifier trains (docs/PROTOCOL.md "Models"), as one value type, with the
// prediction the theory makes for one of them. Names appear only where text is read or written:
// "global", "local-K", "hybrid-K", "lstm".
#pragma once

#include <string>
#include <vector>

#include "base/error.hh"

namespace ltlkit::automata {

// Every head global, every head k-local, hybrid-k (global and k-local heads, or layers), or an
// LSTM. k is 0 for Global and Lstm.
struct Architecture {
    enum class Kind { Global, Local, Hybrid, Lstm };
    Kind kind = Kind::Global;
    int k = 0;
    bool operator==(const Architecture&) const = default;
};
std::string to_string(const Architecture& arch);  // "global" | "local-K" | "hybrid-K" | "lstm"
// Parses "global", "local-K", "hybrid-K", "lstm" (K >= 1, plain decimal); Error otherwise.
Result<Architecture> parse_architecture(const std::string& name);
// The architectures a classification predicts for, in the order `classify` lists them: global,
// local-1..local-max_k, hybrid-1..hybrid-max_k.
std::vector<Architecture> predicted_architectures(unsigned max_k);

// The theory's prediction for an architecture (docs/CLASSES.md §4).
enum class Prediction { Recognizes, Fails, Unknown };
std::string to_string(Prediction p);  // "recognizes" | "fails" | "unknown"
Result<Prediction> parse_prediction(const std::string& name);

}  // namespace ltlkit::automata
