// The recognizers of docs/PROTOCOL.md in LibTorch: decoder-only transformers whose heads are global or
// k-local (strict by default), and the LSTM baseline. PRIVATE, torch-only header: include it only
// from neural/*.cc, tests/neural and bench/neural (the public API is neural/run.hh, torch-free).
#pragma once

#include <torch/torch.h>

#include <memory>
#include <string>
#include <vector>

#include "neural/run.hh"

namespace ltlkit::neural {

// ---- attention kernels on per-head tensors q, k, v of shape [B, H, N, dh] -> [B, H, N, dh]:
// the attention-weighted sums of values, before the output projection. A position with nothing
// to attend to (position 1 under strict masks) gets the zero vector, never NaN. `window` = k of a
// k-local mask; 0 = global.

// Dense causal attention: j < i (strict) or j <= i, O(N^2) scores.
torch::Tensor global_attention(const torch::Tensor& q, const torch::Tensor& k,
                               const torch::Tensor& v, bool strict);
// Banded attention: max(1, i-k) <= j < i (strict) or <= i, O(N*k) time and memory: the k (k+1)
// predecessors of each position are gathered as strided windows, never an N x N mask. For k = 1
// strict it is exactly a shift of the values (softmax over one score is 1).
torch::Tensor local_attention(const torch::Tensor& q, const torch::Tensor& k,
                              const torch::Tensor& v, int window, bool strict);
// The reference for tests only: an explicit N x N mask built from the definition.
torch::Tensor dense_reference_attention(const torch::Tensor& q, const torch::Tensor& k,
                                        const torch::Tensor& v, int window, bool strict);

// Heads [first, first + count) of a layer share one mask (automata/architecture.hh: the groups of
// each layer are Architecture::head_layout's).
using automata::HeadGroup;

// The sinusoidal positional table of Vaswani et al. 2017 §3.5 for positions 1..n, [n, d_model].
torch::Tensor sinusoidal_table(long n, int d_model, const torch::TensorOptions& options);

class MultiHeadAttentionImpl : public torch::nn::Module {
public:
    MultiHeadAttentionImpl(int d_model, int heads, std::vector<HeadGroup> groups, bool strict,
                           bool rope);
    // x: [B, N, d] -> [B, N, d].
    torch::Tensor forward(const torch::Tensor& x);
    // The output at one query position per word, at[b] (0-based), with every key of x visible to it
    // under the heads' masks: [B, d]. Equals forward(x)[b, at[b]] at O(N) instead of O(N^2) cost
    // per word for global heads (a recognizer reads only the final layer at EOS).
    torch::Tensor forward_at(const torch::Tensor& x, const torch::Tensor& at);

    torch::nn::Linear qkv{nullptr}, out{nullptr};  // fused q|k|v projection, output projection
    std::vector<HeadGroup> groups;
    int heads, d_head;
    bool strict, rope;
    bool reference = false;  // use dense_reference_attention (tests)
};
TORCH_MODULE(MultiHeadAttention);

class BlockImpl : public torch::nn::Module {
public:
    BlockImpl(int d_model, int heads, int d_ff, std::vector<HeadGroup> groups, bool strict,
              bool rope, bool pre_ln);
    torch::Tensor forward(const torch::Tensor& x);
    // The block's output at position at[b] of each word: [B, d] (= forward(x)[b, at[b]]).
    torch::Tensor forward_at(const torch::Tensor& x, const torch::Tensor& at);

    MultiHeadAttention attn{nullptr};
    torch::nn::LayerNorm ln1{nullptr}, ln2{nullptr};
    torch::nn::Linear ff1{nullptr}, ff2{nullptr};
    bool pre_ln;
};
TORCH_MODULE(Block);

// A recognizer maps tokens [B, N] (int64; symbols 0..|Σ|-1, EOS = |Σ|, padding after each word's
// EOS is ignored by causality) and the EOS index of each word [B] to one logit per word [B].
class Recognizer : public torch::nn::Module {
public:
    virtual torch::Tensor forward(const torch::Tensor& tokens, const torch::Tensor& eos) = 0;
    // Longest input (symbols + EOS) the model accepts; 0 = unbounded.
    virtual long max_tokens() const { return 0; }
    virtual void set_reference(bool) {}
    // Whether the model has attention layers, whose B · heads · N² scores bound the evaluation's
    // chunks (make_predictor); a recurrent model's chunks are bounded by their tokens alone.
    virtual bool has_attention() const { return false; }
};

class TransformerRecognizer : public Recognizer {
public:
    TransformerRecognizer(const Config& c, int num_symbols, int max_positions);
    // read(hidden(tokens), eos), computed with the last layer at the EOS positions only.
    torch::Tensor forward(const torch::Tensor& tokens, const torch::Tensor& eos) override;
    // The final-layer vectors [B, N, d] (before the readout).
    torch::Tensor hidden(const torch::Tensor& tokens);
    // Token embeddings plus the absolute positional encoding (learned / sinusoidal), [B, N, d].
    torch::Tensor embed_tokens(const torch::Tensor& tokens);
    // The layers (and final LN for pre-LN) on given input vectors [B, N, d] (tests take gradients
    // with respect to them), and the readout at the EOS indices.
    torch::Tensor from_embeddings(const torch::Tensor& x);
    torch::Tensor read(const torch::Tensor& h, const torch::Tensor& eos);
    long max_tokens() const override { return pe == PositionalEncoding::Learned ? max_positions : 0; }
    void set_reference(bool on) override;
    bool has_attention() const override { return true; }

    torch::nn::Embedding embed{nullptr}, pos{nullptr};
    std::vector<Block> blocks;
    torch::nn::LayerNorm final_ln{nullptr};  // pre-LN only
    torch::nn::Linear readout{nullptr};
    PositionalEncoding pe;
    int d_model, max_positions;
    bool pre_ln;
};

class LstmRecognizer : public Recognizer {
public:
    LstmRecognizer(const Config& c, int num_symbols);
    torch::Tensor forward(const torch::Tensor& tokens, const torch::Tensor& eos) override;

    torch::nn::Embedding embed{nullptr};
    torch::nn::LSTM lstm{nullptr};
    torch::nn::Linear readout{nullptr};
};

// Builds the model a Config describes (throws std::invalid_argument on a bad config).
std::shared_ptr<Recognizer> make_recognizer(const Config& c, int num_symbols);
// Rows of the learned positional table: config.max_positions, else max(train, test) length + 1.
int learned_rows(const Config& c);

// Tokens [B, N] and EOS indices [B] for words over an alphabet of num_symbols symbols.
std::pair<torch::Tensor, torch::Tensor> encode_words(const std::vector<const automata::Word*>& words,
                                                     int num_symbols);

}  // namespace ltlkit::neural
