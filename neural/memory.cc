// Peak-memory estimate of a run (neural/memory.hh). Torch-free: it only counts tensor elements of
// the model in neural/model.cc and of the training step and the batched predictor in
// neural/train.cc, so tests/test_memory.cc compiles it without LibTorch.
#include "neural/memory.hh"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace ltlkit::neural {

namespace {

constexpr double kFloat = 4;  // bytes per float32 element

struct Heads {
    double global = 0, local = 0;  // heads summed over the layers
    int window = 0;                // the window of the local heads
};

// Global and k-local heads summed over all layers, as the model builds them (run.hh head_layout).
Heads heads_over_layers(const Config& c) {
    const HeadLayout layout = head_layout(c.model);
    const int window = layout.local_window();
    return {double(layout.heads_with_window(0)), window > 0 ? double(layout.heads_with_window(window)) : 0.0, window};
}

double parameter_count(const Config& c, int num_symbols) {
    const double d = c.model.d_model, ff = c.model.d_ff, v = num_symbols + 1;
    if (!c.model.arch.is_transformer()) {
        const double h = c.model.lstm_hidden;
        return v * d + 4 * h * (d + h) + 8 * h + h + 1;
    }
    const double per_layer = (3 * d * d + 3 * d) + (d * d + d) + (d * ff + ff) + (ff * d + d) + 4 * d;
    double p = v * d + c.model.layers * per_layer + 2 * d + d + 1;
    if (c.model.pe == PositionalEncoding::Learned)
        p += (c.model.max_positions > 0 ? c.model.max_positions
                                         : std::max(c.training.train_max, c.evaluation.test_max) + 1) *
             d;
    return p;
}

// Float elements of the activations of one forward pass over `batch` words of n tokens; with
// `all_layers` every layer's (kept for backward), else the largest single layer's (inference).
double activation_elements(const Config& c, double batch, double n, bool all_layers) {
    const double d = c.model.d_model;
    if (!c.model.arch.is_transformer()) return batch * n * (d + 8.0 * c.model.lstm_hidden);
    const Heads h = heads_over_layers(c);
    const double layers = all_layers ? c.model.layers : 1;
    const double scale = all_layers ? 1 : 1.0 / std::max(1, c.model.layers);  // one layer's share of the heads
    const double d_head = d / std::max(1, c.model.heads);
    const double k = h.window;
    const double base = layers * batch * n * (10 * d + 2.0 * c.model.d_ff);
    const double global = h.global * scale * batch * n * n * 3;
    const double local = h.local * scale * batch * n * (k + 1) * (2 * d_head + 3);
    return base + global + local;
}

// Words per inference chunk of n tokens, under the larger (GPU) limits: an upper bound on either device.
double eval_chunk(const Config& c, double n) { return chunk_words(eval_chunks(true), c, n); }

std::string gib(double bytes) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g", bytes / (1024.0 * 1024 * 1024));
    return buf;
}

}  // namespace

EvalChunks eval_chunks(bool cuda) {
    if (cuda) return {1 << 16, 1 << 25};
    return {1 << 14, 1 << 20};
}

double chunk_words(const EvalChunks& limits, const Config& c, double n) {
    double words = limits.tokens / n;
    if (c.model.arch.is_transformer()) words = std::min(words, limits.scores / (std::max(1, c.model.heads) * n * n));
    return std::max(1.0, std::floor(words));
}

double MemoryEstimate::peak() const { return parameters + optimizer + std::max(training, evaluation); }

MemoryEstimate estimate_eval_memory(const Config& c, int num_symbols) {
    MemoryEstimate e;
    e.parameters = parameter_count(c, num_symbols) * kFloat;
    e.test_tokens = std::max({c.evaluation.test_max, c.training.train_max, 0}) + 1;
    const double n = e.test_tokens;
    e.evaluation = activation_elements(c, eval_chunk(c, n), n, false) * kFloat;
    return e;
}

MemoryEstimate estimate_memory(const Config& c, int num_symbols) {
    MemoryEstimate e = estimate_eval_memory(c, num_symbols);
    e.optimizer = 3 * e.parameters;  // gradients, Adam's m and v
    e.train_tokens = std::max(c.training.train_max, 0) + 1;
    e.train_batch = std::max(c.training.batch, 1);
    // Forward activations kept for backward, and as much again for their gradients.
    e.training = 2 * activation_elements(c, e.train_batch, e.train_tokens, true) * kFloat;
    return e;
}

Result<bool> check_memory(const MemoryEstimate& est, double max_gb, const std::string& what) {
    const double limit = max_gb * 1024.0 * 1024 * 1024;
    if (est.peak() <= limit) return true;
    const bool train = est.training >= est.evaluation;
    const std::string detail =
        train ? "a training batch of " + std::to_string(est.train_batch) + " words of length " +
                    std::to_string(est.train_tokens - 1)
              : "evaluation at length " + std::to_string(est.test_tokens - 1);
    char max_text[32];
    std::snprintf(max_text, sizeof max_text, "%g", max_gb);
    return limit_error(what + " would need about " + gib(est.peak()) + " GiB of memory (" + detail + ") > --max-memory-gb " +
                       max_text + "; raise --max-memory-gb or lower the batch, lengths or model size");
}

}  // namespace ltlkit::neural
