// Transformer recognizers with per-head global / k-local strict masks, and the LSTM baseline
// (docs/PROTOCOL.md "Models"). Attention written by hand so that one source builds against LibTorch
// 1.13 (CPU) and 2.x (CUDA).
#include "neural/model.hh"

#include <map>
#include <tuple>

#include <cmath>
#include <stdexcept>

namespace ltlkit::neural {

namespace F = torch::nn::functional;

namespace {

// A finite "minus infinity": masked scores underflow to exactly 0 after softmax, and a row with
// nothing visible stays finite (then zeroed explicitly), so neither outputs nor gradients are NaN.
constexpr double kMasked = -1e30;

torch::TensorOptions bool_on(const torch::Tensor& t) {
    return torch::TensorOptions().dtype(torch::kBool).device(t.device());
}

// [N, 1] factor: 1 where position i sees at least one position, 0 otherwise (strict: i = 0).
torch::Tensor has_any_row(long n, bool strict, const torch::Tensor& like) {
    auto f = torch::ones({n, 1}, like.options());
    if (strict && n > 0) f.index_put_({0}, 0);
    return f;
}

}  // namespace

// Scaled dot-product attention (Vaswani et al. 2017) with a causal mask: O(N^2) per head.
torch::Tensor global_attention(const torch::Tensor& q, const torch::Tensor& k,
                               const torch::Tensor& v, bool strict) {
    const long n = q.size(2);
    const double scale = 1.0 / std::sqrt(static_cast<double>(q.size(3)));
    // Scaling q (B·H·N·dh values) instead of the scores (B·H·N·N) saves one N×N pass each way.
    auto scores = torch::matmul(q * scale, k.transpose(-2, -1));  // [B,H,N,N]
    // visible(i, j) = j < i (strict) or j <= i: the complement is triu from diagonal 0 / 1.
    // The mask depends only on (N, strict, device): kept per thread and reused across calls.
    thread_local std::map<std::tuple<long, bool, std::string>, torch::Tensor> masks;
    auto& hidden = masks[{n, strict, q.device().str()}];
    if (!hidden.defined()) {
        // Made as a normal tensor even when first needed inside an evaluation (c10::InferenceMode):
        // an inference tensor cannot be saved for backward, and the next training in this thread
        // (verify trains run after run in one process) would reuse it and fail.
        c10::InferenceMode normal_tensor(false);
        hidden = torch::ones({n, n}, bool_on(q)).triu(strict ? 0 : 1);
    }
    auto p = torch::softmax(scores.masked_fill_(hidden, kMasked), -1);  // in place: scores is ours
    auto out = torch::matmul(p, v);
    if (strict) out = out * has_any_row(n, strict, q);
    return out;
}

// Banded (sliding-window) attention, Beltagy et al. 2020 (Longformer) style, here strict: each
// position gathers its k predecessors as a strided window view, O(N*k) time and memory.
torch::Tensor local_attention(const torch::Tensor& q, const torch::Tensor& k,
                              const torch::Tensor& v, int window, bool strict) {
    if (window < 1) throw std::invalid_argument("local attention needs k >= 1");
    const long n = q.size(2);
    if (strict && window == 1) {
        // The only visible position of i is i-1 (weight softmax([s]) = 1 exactly): a shift of v.
        return F::pad(v, F::PadFuncOptions({0, 0, 1, 0})).narrow(2, 0, n);
    }
    const long kw = window;
    const double scale = 1.0 / std::sqrt(static_cast<double>(q.size(3)));
    // Padded keys/values: padded index t holds original position t - k. Window w of position i
    // (w = 0..k) is original position j = i - k + w; strict drops w = k (j = i).
    const long width = strict ? kw : kw + 1;
    auto kp = F::pad(k, F::PadFuncOptions({0, 0, kw, 0})).unfold(2, kw + 1, 1);  // [B,H,N,dh,k+1]
    auto vp = F::pad(v, F::PadFuncOptions({0, 0, kw, 0})).unfold(2, kw + 1, 1);
    if (strict) {
        kp = kp.narrow(-1, 0, kw);
        vp = vp.narrow(-1, 0, kw);
    }
    auto scores = torch::matmul(q.unsqueeze(-2), kp).squeeze(-2) * scale;  // [B,H,N,width]
    // j = i - k + w >= 0 <=> w >= k - i.
    auto iw = torch::arange(width, torch::TensorOptions().dtype(torch::kLong).device(q.device()));
    auto ii = torch::arange(n, torch::TensorOptions().dtype(torch::kLong).device(q.device()));
    auto hidden = iw.unsqueeze(0) < (kw - ii).unsqueeze(1);  // [N, width]
    auto p = torch::softmax(scores.masked_fill(hidden, kMasked), -1);
    auto out = torch::matmul(vp, p.unsqueeze(-1)).squeeze(-1);  // [B,H,N,dh]
    if (strict) out = out * has_any_row(n, strict, q);
    return out;
}

torch::Tensor dense_reference_attention(const torch::Tensor& q, const torch::Tensor& k,
                                        const torch::Tensor& v, int window, bool strict) {
    const long n = q.size(2);
    // visible(i, j) straight from docs/PROTOCOL.md with 1-based positions.
    std::vector<std::uint8_t> vis(static_cast<std::size_t>(n * n), 0);
    std::vector<std::uint8_t> any(static_cast<std::size_t>(n), 0);
    for (long i = 1; i <= n; ++i)
        for (long j = 1; j <= n; ++j) {
            bool ok = strict ? j < i : j <= i;
            if (window > 0) ok = ok && j >= std::max(1L, i - window);
            if (ok) {
                vis[(i - 1) * n + (j - 1)] = 1;
                any[i - 1] = 1;
            }
        }
    auto visible = torch::from_blob(vis.data(), {n, n}, torch::kUInt8).to(torch::kBool).to(q.device());
    auto has = torch::from_blob(any.data(), {n, 1}, torch::kUInt8).to(q.dtype()).to(q.device());
    auto scores = torch::matmul(q, k.transpose(-2, -1)) / std::sqrt(static_cast<double>(q.size(3)));
    // Rows without a visible position: all scores set to 0 (uniform weights), output zeroed below.
    auto fill = torch::where(has.to(torch::kBool), torch::full({n, 1}, -INFINITY, q.options()),
                             torch::zeros({n, 1}, q.options()));
    scores = torch::where(visible, scores, fill.expand({n, n}));
    auto p = torch::softmax(scores, -1);
    return torch::matmul(p, v) * has;
}

MultiHeadAttentionImpl::MultiHeadAttentionImpl(int d_model, int heads_, std::vector<HeadGroup> g,
                                               bool strict_, bool rope_)
    : groups(std::move(g)), heads(heads_), d_head(d_model / heads_), strict(strict_), rope(rope_) {
    if (d_model % heads_ != 0) throw std::invalid_argument("d_model must be a multiple of heads");
    if (rope && d_head % 2 != 0) throw std::invalid_argument("rope needs an even head dimension");
    qkv = register_module("qkv", torch::nn::Linear(d_model, 3 * d_model));
    out = register_module("out", torch::nn::Linear(d_model, d_model));
}

namespace {
// Rotary position embedding (Su et al. 2021, RoFormer), half-split form, positions 1..N.
torch::Tensor apply_rope(const torch::Tensor& x) {
    const long n = x.size(2), dh = x.size(3), half = dh / 2;
    auto o = x.options();
    auto inv = torch::pow(10000.0, -torch::arange(half, o) * (2.0 / static_cast<double>(dh)));
    auto ang = torch::arange(1, n + 1, o).unsqueeze(1) * inv.unsqueeze(0);  // [N, half]
    auto c = ang.cos(), s = ang.sin();
    auto x1 = x.narrow(-1, 0, half), x2 = x.narrow(-1, half, half);
    return torch::cat({x1 * c - x2 * s, x1 * s + x2 * c}, -1);
}
}  // namespace

torch::Tensor MultiHeadAttentionImpl::forward(const torch::Tensor& x) {
    const long b = x.size(0), n = x.size(1), d = x.size(2);
    // [B,N,3,H,dh] -> [3,B,H,N,dh]
    auto t = qkv->forward(x).view({b, n, 3, heads, d_head}).permute({2, 0, 3, 1, 4});
    auto q = t[0], k = t[1], v = t[2];
    if (rope) {
        q = apply_rope(q);
        k = apply_rope(k);
    }
    std::vector<torch::Tensor> parts;
    for (const auto& g : groups) {
        if (g.count == 0) continue;
        auto qs = q.narrow(1, g.first, g.count), ks = k.narrow(1, g.first, g.count),
             vs = v.narrow(1, g.first, g.count);
        if (reference)
            parts.push_back(dense_reference_attention(qs, ks, vs, g.window, strict));
        else if (g.window == 0 || g.window >= n)  // a window covering the input is global
            parts.push_back(global_attention(qs, ks, vs, strict));
        else
            parts.push_back(local_attention(qs, ks, vs, g.window, strict));
    }
    auto a = parts.size() == 1 ? parts[0] : torch::cat(parts, 1);  // [B,H,N,dh]
    return out->forward(a.transpose(1, 2).reshape({b, n, d}));
}

torch::Tensor MultiHeadAttentionImpl::forward_at(const torch::Tensor& x, const torch::Tensor& at) {
    const long b = x.size(0), n = x.size(1), d = x.size(2);
    auto t = qkv->forward(x).view({b, n, 3, heads, d_head}).permute({2, 0, 3, 1, 4});  // [3,B,H,N,dh]
    auto q = t[0], k = t[1], v = t[2];
    if (rope) {
        q = apply_rope(q);
        k = apply_rope(k);
    }
    // The query of each word at its position: [B,H,1,dh].
    auto idx = at.view({b, 1, 1, 1}).expand({b, heads, 1, d_head});
    auto qa = q.gather(2, idx);
    const double scale = 1.0 / std::sqrt(static_cast<double>(d_head));
    auto scores = torch::matmul(qa * scale, k.transpose(-2, -1));  // [B,H,1,N]
    auto j = torch::arange(n, at.options()).view({1, n});          // key positions
    auto i = at.view({b, 1});                                        // query positions
    std::vector<torch::Tensor> parts;
    for (const auto& g : groups) {
        if (g.count == 0) continue;
        // visible(i, j) as in global_attention / local_attention: j < i (or j <= i when not
        // strict), and j >= i - window for a window.
        auto visible = strict ? j < i : j <= i;
        if (g.window > 0) visible = visible & (j >= i - g.window);
        auto sg = scores.narrow(1, g.first, g.count).masked_fill(visible.logical_not().view({b, 1, 1, n}), kMasked);
        auto pg = torch::softmax(sg, -1);
        auto og = torch::matmul(pg, v.narrow(1, g.first, g.count));  // [B,count,1,dh]
        // A position that sees nothing attends to nothing: the zero vector.
        og = og * visible.any(1).view({b, 1, 1, 1}).to(og.dtype());
        parts.push_back(og);
    }
    auto a = parts.size() == 1 ? parts[0] : torch::cat(parts, 1);  // [B,H,1,dh]
    return out->forward(a.reshape({b, d}));
}

BlockImpl::BlockImpl(int d_model, int heads, int d_ff, std::vector<HeadGroup> groups, bool strict,
                     bool rope, bool pre_ln_)
    : pre_ln(pre_ln_) {
    attn = register_module("attn", MultiHeadAttention(d_model, heads, std::move(groups), strict, rope));
    ln1 = register_module("ln1", torch::nn::LayerNorm(std::vector<int64_t>{d_model}));
    ln2 = register_module("ln2", torch::nn::LayerNorm(std::vector<int64_t>{d_model}));
    ff1 = register_module("ff1", torch::nn::Linear(d_model, d_ff));
    ff2 = register_module("ff2", torch::nn::Linear(d_ff, d_model));
}

torch::Tensor BlockImpl::forward(const torch::Tensor& x) {
    if (pre_ln) {
        auto h = x + attn->forward(ln1->forward(x));
        return h + ff2->forward(torch::relu(ff1->forward(ln2->forward(h))));
    }
    auto h = ln1->forward(x + attn->forward(x));
    return ln2->forward(h + ff2->forward(torch::relu(ff1->forward(h))));
}

torch::Tensor BlockImpl::forward_at(const torch::Tensor& x, const torch::Tensor& at) {
    const long b = x.size(0), d = x.size(2);
    auto xa = x.gather(1, at.view({b, 1, 1}).expand({b, 1, d})).squeeze(1);  // [B, d]
    if (pre_ln) {
        auto h = xa + attn->forward_at(ln1->forward(x), at);
        return h + ff2->forward(torch::relu(ff1->forward(ln2->forward(h))));
    }
    auto h = ln1->forward(xa + attn->forward_at(x, at));
    return ln2->forward(h + ff2->forward(torch::relu(ff1->forward(h))));
}

torch::Tensor sinusoidal_table(long n, int d_model, const torch::TensorOptions& o) {
    auto p = torch::arange(1, n + 1, o).unsqueeze(1);
    auto i2 = torch::arange(0, d_model, 2, o);
    auto ang = p * torch::pow(10000.0, -i2 / static_cast<double>(d_model)).unsqueeze(0);
    auto table = torch::zeros({n, d_model}, o);
    table.index_put_({torch::indexing::Slice(), torch::indexing::Slice(0, torch::indexing::None, 2)}, ang.sin());
    table.index_put_({torch::indexing::Slice(), torch::indexing::Slice(1, torch::indexing::None, 2)},
                     ang.cos().narrow(1, 0, d_model / 2));
    return table;
}

int learned_rows(const Config& c) {
    if (c.model.max_positions > 0) return c.model.max_positions;
    return std::max(c.training.train_max, c.evaluation.test_max) + 1;
}

TransformerRecognizer::TransformerRecognizer(const Config& c, int num_symbols, int max_pos)
    : pe(c.model.pe), d_model(c.model.d_model), max_positions(max_pos), pre_ln(c.model.pre_ln) {
    if (c.model.layers < 1 || c.model.d_model < 1 || c.model.heads < 1 || c.model.d_ff < 1)
        throw std::invalid_argument("layers, d_model, heads and d_ff must be positive");
    embed = register_module("embed", torch::nn::Embedding(num_symbols + 1, d_model));
    if (pe == PositionalEncoding::Learned) pos = register_module("pos", torch::nn::Embedding(max_positions, d_model));
    const HeadLayout layout = head_layout(c.model);
    for (int l = 0; l < c.model.layers; ++l) {
        blocks.push_back(register_module(
            "block" + std::to_string(l),
            Block(d_model, c.model.heads, c.model.d_ff, layout.layers[static_cast<std::size_t>(l)], c.model.strict,
                  pe == PositionalEncoding::Rope, pre_ln)));
    }
    if (pre_ln) final_ln = register_module("final_ln", torch::nn::LayerNorm(std::vector<int64_t>{d_model}));
    readout = register_module("readout", torch::nn::Linear(d_model, 1));
}

void TransformerRecognizer::set_reference(bool on) {
    for (auto& b : blocks) b->attn->reference = on;
}

torch::Tensor TransformerRecognizer::hidden(const torch::Tensor& tokens) {
    return from_embeddings(embed_tokens(tokens));
}

torch::Tensor TransformerRecognizer::from_embeddings(const torch::Tensor& input) {
    auto x = input;
    for (auto& b : blocks) x = b->forward(x);
    if (pre_ln) x = final_ln->forward(x);
    return x;
}

torch::Tensor TransformerRecognizer::read(const torch::Tensor& h, const torch::Tensor& eos) {
    auto at = h.index({torch::arange(h.size(0), eos.options()), eos});  // [B, d]
    return readout->forward(at).squeeze(-1);
}

torch::Tensor TransformerRecognizer::embed_tokens(const torch::Tensor& tokens) {
    const long n = tokens.size(1);
    auto x = embed->forward(tokens);
    if (pe == PositionalEncoding::Learned) {
        if (n > max_positions)
            throw std::length_error("input of " + std::to_string(n) +
                                    " tokens exceeds the learned positional table (" +
                                    std::to_string(max_positions) + " rows)");
        x = x + pos->forward(torch::arange(n, tokens.options()));
    } else if (pe == PositionalEncoding::Sinusoidal) {
        x = x + sinusoidal_table(n, d_model, x.options()).unsqueeze(0);
    }
    return x;
}

torch::Tensor TransformerRecognizer::forward(const torch::Tensor& tokens, const torch::Tensor& eos) {
    // The reference attention (tests) goes the long way, through every position of every layer.
    if (blocks.empty() || blocks.back()->attn->reference) return read(hidden(tokens), eos);
    auto x = embed_tokens(tokens);
    for (std::size_t l = 0; l + 1 < blocks.size(); ++l) x = blocks[l]->forward(x);
    auto h = blocks.back()->forward_at(x, eos);  // [B, d]
    if (pre_ln) h = final_ln->forward(h);
    return readout->forward(h).squeeze(-1);
}

LstmRecognizer::LstmRecognizer(const Config& c, int num_symbols) {
    embed = register_module("embed", torch::nn::Embedding(num_symbols + 1, c.model.d_model));
    lstm = register_module(
        "lstm", torch::nn::LSTM(torch::nn::LSTMOptions(c.model.d_model, c.model.lstm_hidden).batch_first(true)));
    readout = register_module("readout", torch::nn::Linear(c.model.lstm_hidden, 1));
}

torch::Tensor LstmRecognizer::forward(const torch::Tensor& tokens, const torch::Tensor& eos) {
    auto h = std::get<0>(lstm->forward(embed->forward(tokens)));  // [B, N, hidden]
    auto at = h.index({torch::arange(h.size(0), eos.options()), eos});
    return readout->forward(at).squeeze(-1);
}

std::shared_ptr<Recognizer> make_recognizer(const Config& c, int num_symbols) {
    if (!c.model.arch.is_transformer()) return std::make_shared<LstmRecognizer>(c, num_symbols);
    return std::make_shared<TransformerRecognizer>(c, num_symbols, learned_rows(c));
}

std::pair<torch::Tensor, torch::Tensor> encode_words(const std::vector<const automata::Word*>& words,
                                                     int num_symbols) {
    const long b = static_cast<long>(words.size());
    long n = 0;
    for (const auto* w : words) n = std::max(n, static_cast<long>(w->size()) + 1);
    auto tokens = torch::full({b, n}, static_cast<long>(num_symbols), torch::kLong);
    auto eos = torch::empty({b}, torch::kLong);
    auto* tp = tokens.data_ptr<int64_t>();
    auto* ep = eos.data_ptr<int64_t>();
    for (long i = 0; i < b; ++i) {
        const auto& w = *words[static_cast<std::size_t>(i)];
        for (std::size_t j = 0; j < w.size(); ++j) tp[i * n + static_cast<long>(j)] = w[j];
        ep[i] = static_cast<long>(w.size());
    }
    return {tokens, eos};
}

}  // namespace ltlkit::neural
