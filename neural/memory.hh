// A torch-free estimate of a run's peak memory (the limits), checked by train, eval and verify
// before anything is allocated, so a configuration that cannot fit fails at once with exit 3 and
// the option that raises the limit (--max-memory-gb), instead of being killed hours later.
#pragma once

#include <string>

#include "base/error.hh"
#include "neural/run.hh"

namespace ltlkit::neural {

// The batched predictor's chunk limits (make_predictor in neural/train.cc): at most `tokens` B · N
// and `scores` B · heads · N² (the scores of a global attention layer) per forward pass.
struct EvalChunks {
    double tokens = 0;
    double scores = 0;
};
// On the CPU, chunks small enough that a layer's attention scores stay in cache (2^14 tokens, 2^20
// scores: 2.0-2.5x the tokens/s of the earlier 2^16 / 2^25 on global and hybrid models,
// docs/PERFORMANCE.md "Evaluation chunks"); on a GPU, large chunks (2^16, 2^25) that fill it.
EvalChunks eval_chunks(bool cuda);
// Words of n tokens (EOS included) in one forward pass under `limits`: B · N <= tokens and, for a
// transformer, B · heads · N² <= scores (an LSTM has no attention scores); at least 1.
double chunk_words(const EvalChunks& limits, const Config& c, double n);

// Default of --max-memory-gb.
inline constexpr double kDefaultMaxMemoryGb = 16;

// Bytes (float32 everywhere; a rough upper estimate, not an exact account of LibTorch's allocator).
struct MemoryEstimate {
    double parameters = 0;  // the model's parameters
    double optimizer = 0;   // their gradients and Adam's two moments
    double training = 0;    // activations of one training step (forward kept for backward, and its gradients):
                            // per layer batch × N × (10 d + 2 d_ff), plus batch × heads × N² × 3 for global
                            // heads or batch × heads × N × (k+1) × (2 d_head + 3) for k-local heads,
                            // at N = longest training length + 1 (EOS)
    double evaluation = 0;  // one inference chunk at the longest test length (no gradients; the chunk is
                            // as large as the predictor's limits let it be on a GPU, the larger ones)
    int train_tokens = 0;   // N of training (longest training word + EOS)
    int test_tokens = 0;    // N of evaluation
    int train_batch = 0;
    double peak() const;    // parameters + optimizer + max(training, evaluation)
};

// The estimate for `c` (arch, layers, d_model, heads, d_ff, lstm_hidden, pe, batch, train_max,
// test_max) on an alphabet of num_symbols symbols.
MemoryEstimate estimate_memory(const Config& c, int num_symbols);
// Eval only (`ltlkit eval`): no optimizer state, no training step.
MemoryEstimate estimate_eval_memory(const Config& c, int num_symbols);

// A limit error (exit 3) naming --max-memory-gb when est.peak() exceeds max_gb GiB; `what` says
// whose estimate it is (e.g. "training global").
// ("<what> would need about X GiB of memory (...) > --max-memory-gb M; raise --max-memory-gb ...").
Result<bool> check_memory(const MemoryEstimate& est, double max_gb, const std::string& what);

}  // namespace ltlkit::neural
