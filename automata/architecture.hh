// The attention architectures the theory makes predictions for (docs/CLASSES.md §4) and the
// recognizers the neural verifier trains (docs/PROTOCOL.md "Models"), as one value type, with the
// prediction the theory makes for one of them. Names appear only where text is read or written:
// "global", "local-K", "hybrid-K", "lstm". The value answers what its kind means (its window at EOS,
// whether it is a transformer, its head groups per layer) here, once: the model, the memory
// estimate, the ceilings, the verdicts and Python's recognizer (through run.json) ask it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "base/error.hh"

namespace ltlkit::automata {

// How hybrid-k mixes its two masks (docs/PROTOCOL.md "Models"): in every layer ceil(h/2) global
// heads then floor(h/2) k-local heads, or whole layers, k-local at even indices (local first).
enum class HybridMode { Heads, Layers };

// Heads [first, first + count) of one layer share one mask: the k of a k-local mask, 0 = global.
struct HeadGroup {
    int first = 0, count = 0;
    int window = 0;  // 0 = global
    bool operator==(const HeadGroup&) const = default;
};

// The head groups of every layer of a transformer, in head order, none empty (count >= 1), their
// counts summing to the heads of the layer. An LSTM has no layers here.
struct HeadLayout {
    std::vector<std::vector<HeadGroup>> layers;
    // Heads of this window (0 = global) summed over the layers.
    int heads_with_window(int window) const;
    // The window of the k-local heads (0 when every head is global); a layout has at most one.
    int local_window() const;
    bool operator==(const HeadLayout&) const = default;
};

// Every head global, every head k-local, hybrid-k (global and k-local heads, or layers), or an
// LSTM. k is 0 for Global and Lstm.
struct Architecture {
    enum class Kind { Global, Local, Hybrid, Lstm };
    Kind kind = Kind::Global;
    int k = 0;
    bool operator==(const Architecture&) const = default;

    // A transformer recognizer (every kind but the LSTM baseline).
    bool is_transformer() const;
    // The window each layer's EOS position attends to: k for local-k, whose EOS vector after L layers
    // is a function of the last L·k symbols (docs/CEILING.md); nullopt where the EOS can read the whole
    // word: a global head (global; hybrid-k in either mode, even a one-layer Layers model) or the LSTM.
    std::optional<int> eos_window() const;
    // Why eos_window() is nullopt, as the report says it after "none for ": "global attention
    // (every position is in reach)", "hybrid attention (its global heads see every position)",
    // "the LSTM"; empty for a bounded window.
    std::string unbounded_reason() const;
    // The head groups per layer of a transformer with `layers` layers of `heads` heads each
    // (docs/PROTOCOL.md "Models"); no layers for the LSTM. The recognizer builds its masks from it.
    HeadLayout head_layout(int layers, int heads, HybridMode mode = HybridMode::Heads) const;
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
