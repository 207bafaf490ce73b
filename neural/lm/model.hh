// The causal language model in LibTorch: token embedding, an absolute positional encoding (learned
// or sinusoidal) or RoPE inside attention, pre-LN blocks of the recognizers (neural/model.hh:
// global / k-local banded heads, standard or strict masks), final LN, output layer tied to the
// embedding (embeddings scaled by sqrt(d) at the input). PRIVATE, torch-only header: include it only from neural/lm/*.cc and tests/neural.
#pragma once

#include <torch/torch.h>

#include <memory>
#include <string>
#include <vector>

#include "neural/lm/lm.hh"
#include "neural/model.hh"

namespace ltlkit::neural::lm {

class LanguageModelImpl : public torch::nn::Module {
public:
    // Throws std::invalid_argument on a bad config (check_lm_config first).
    LanguageModelImpl(const LmConfig& c, int vocab);
    // tokens [B, N] int64 -> next-token logits [B, N, V]; N above the learned table throws.
    torch::Tensor forward(const torch::Tensor& tokens);
    // Dense N x N reference masks instead of the banded kernels (tests).
    void set_reference(bool on);
    long parameter_count();

    torch::nn::Embedding embed{nullptr}, pos{nullptr};
    std::vector<Block> blocks;
    torch::nn::LayerNorm final_ln{nullptr};
    PositionalEncoding pe;
    int d_model, context;
};
TORCH_MODULE(LanguageModel);

// Summed negative log-likelihood (nats), scored tokens and characters of `split` under `model`:
// non-overlapping windows of `context` tokens, each predicting its next tokens (every token but the
// first is scored once); at most max_tokens scored tokens when > 0.
SplitScore score_split(LanguageModel& model, const Split& split, int context, long max_tokens,
                       torch::Device device);

}  // namespace ltlkit::neural::lm
