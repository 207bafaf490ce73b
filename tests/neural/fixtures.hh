// Fixtures shared by the CPU tests (test_recognizers.cc) and the CUDA tests (test_cuda.cc), so that
// the GPU runs exactly the checks the CPU runs, on another device.
#pragma once

#include <torch/torch.h>  // before Catch2: glog defines CHECK

#include <catch2/catch.hpp>

#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <unistd.h>

#include "automata/dfa.hh"
#include "automata/sampler.hh"
#include "neural/internal.hh"
#include "neural/training.hh"
#include "neural/run.hh"

namespace ltlkit::neural::testing {

// Σ*a over {a, b}: state 1 = "last symbol was a".
inline automata::Dfa ends_with_a() {
    automata::Dfa d;
    d.alphabet = {"a", "b"};
    d.initial = 0;
    d.accepting = {0, 1};
    d.delta = {1, 0, 1, 0};
    return d;
}

// aΣ* over {a, b}: 0 initial, 1 accepting sink, 2 rejecting sink.
inline automata::Dfa starts_with_a() {
    automata::Dfa d;
    d.alphabet = {"a", "b"};
    d.initial = 0;
    d.accepting = {0, 1, 0};
    d.delta = {1, 2, 1, 1, 2, 2};
    return d;
}

inline std::filesystem::path scratch(const std::string& name) {
    auto p = std::filesystem::temp_directory_path() /
             ("ltlkit-test-neural-" + std::to_string(::getpid()) + "-" + name);
    std::filesystem::remove_all(p);
    return p;
}

// A one-layer 1-local model with hand-set weights that recognizes Σ*a at every length.
// e(a) = (1, -1), e(b) = (-1, 1), e(EOS) = 0. The attention copies the previous position's vector
// (values and output projection = identity); both LayerNorms map ±(1, -1) to itself; the readout
// takes the first coordinate: logit +1 after a, -1 after b, 0 for the empty word.
inline std::shared_ptr<TransformerRecognizer> hand_set_last_a_model() {
    Config c;
    c.model.arch = {Architecture::Kind::Local, 1};
    c.model.layers = 1;
    c.model.d_model = 2;
    c.model.heads = 1;
    c.model.d_ff = 1;
    auto model = std::make_shared<TransformerRecognizer>(c, 2, 0);
    auto& m = *model;
    torch::NoGradGuard ng;
    for (auto& p : m.parameters()) p.zero_();
    m.embed->weight.copy_(torch::tensor({1.0, -1.0, -1.0, 1.0, 0.0, 0.0}).view({3, 2}));
    auto& attn = m.blocks[0]->attn;
    attn->qkv->weight.narrow(0, 4, 2).copy_(torch::eye(2));
    attn->out->weight.copy_(torch::eye(2));
    m.readout->weight.copy_(torch::tensor({1.0f, 0.0f}).view({1, 2}));
    m.blocks[0]->ln1->weight.fill_(1);
    m.blocks[0]->ln2->weight.fill_(1);
    return model;
}

// Every word over {a, b} up to length 10, then two random words (one ending in each letter) of
// every length 11..max_len.
inline std::vector<automata::Word> last_a_test_words(int max_len) {
    std::vector<automata::Word> words;
    for (int len = 0; len <= 10; ++len)
        for (int bits = 0; bits < (1 << len); ++bits) {
            automata::Word w;
            for (int i = 0; i < len; ++i) w.push_back((bits >> i) & 1);
            words.push_back(w);
        }
    std::mt19937 gen(11);
    for (int len = 11; len <= max_len; ++len)
        for (int last = 0; last < 2; ++last) {
            automata::Word w(static_cast<std::size_t>(len));
            for (auto& s : w) s = gen() & 1;
            w.back() = static_cast<automata::Symbol>(last);
            words.push_back(w);
        }
    return words;
}

// The tiny training configuration of the resume tests.
inline Config tiny_config(const std::string& device) {
    Config c;
    c.model.arch = {Architecture::Kind::Hybrid, 1};
    c.model.layers = 2;
    c.model.d_model = 16;
    c.model.heads = 2;
    c.model.d_ff = 32;
    c.training.batch = 16;
    c.training.lr = 1e-3;
    c.training.train_min = 1;
    c.training.train_max = 12;
    c.evaluation.test_min = 13;
    c.evaluation.test_max = 14;
    c.evaluation.per_length = 8;
    c.evaluation.fit_words = 16;
    c.runtime.threads = 1;
    c.runtime.device = *parse_device(device);
    c.runtime.log_every = 0;
    c.training.seed = 42;
    return c;
}

// The small global model of "learns aΣ*": 600 steps, tested on lengths 41..200.
inline Config learn_a_sigma_config(const std::string& device) {
    Config c;
    c.model.arch = {Architecture::Kind::Global, 0};
    c.model.layers = 2;
    c.model.d_model = 32;
    c.model.heads = 4;
    c.model.d_ff = 64;
    c.training.steps = 600;
    c.training.batch = 32;
    c.training.lr = 1e-3;
    c.training.train_max = 40;
    c.evaluation.test_min = 41;
    c.evaluation.test_max = 200;
    c.evaluation.per_length = 16;
    c.runtime.threads = 1;
    c.runtime.device = *parse_device(device);
    c.runtime.log_every = 0;
    c.runtime.checkpoint_every = 0;
    c.training.seed = 1;
    return c;
}

// Banded (local_attention) and global attention against the dense masked reference, outputs and
// gradients, in double precision on `dev`, for strict and non-strict masks and every window k.
inline void check_attention_against_dense(torch::Device dev) {
    torch::manual_seed(7);
    const auto opts = torch::TensorOptions().dtype(torch::kDouble).device(dev);
    auto leaf = [&](std::vector<int64_t> shape) { return torch::randn(shape, opts).requires_grad_(true); };
    for (bool strict : {true, false})
        for (long n : {1L, 2L, 3L, 5L, 8L, 17L, 40L})
            for (int k : {0, 1, 2, 3, 4, 7, 16, 39, 40, 64}) {
                INFO("device " << dev << " strict " << strict << " N " << n << " k " << k);
                auto q = leaf({2, 3, n, 4}), kk = leaf({2, 3, n, 4}), v = leaf({2, 3, n, 4});
                auto r = torch::randn({2, 3, n, 4}, opts);
                auto fast = k == 0 ? global_attention(q, kk, v, strict) : local_attention(q, kk, v, k, strict);
                // (1-local strict is a shift of v: q and k are unused, their gradient is zero.)
                auto gf = torch::autograd::grad({(fast * r).sum()}, {q, kk, v}, {}, false, false, true);
                for (int i = 0; i < 3; ++i)
                    if (!gf[i].defined()) gf[i] = torch::zeros_like(q);
                auto ref = dense_reference_attention(q, kk, v, k, strict);
                auto gr = torch::autograd::grad({(ref * r).sum()}, {q, kk, v});
                REQUIRE(fast.sizes() == ref.sizes());
                REQUIRE(fast.device() == dev);
                CHECK(torch::allclose(fast, ref, 1e-10, 1e-12));
                for (int i = 0; i < 3; ++i) {
                    REQUIRE(torch::isfinite(gf[i]).all().item<bool>());
                    CHECK(torch::allclose(gf[i], gr[i], 1e-10, 1e-12));
                }
                if (strict) {  // position 1 sees nothing: exactly zero
                    CHECK(fast.select(2, 0).abs().max().item<double>() == 0.0);
                }
            }
}

// The hand-set Σ*a model, run through make_predictor on `dev`, is exact on last_a_test_words.
inline void check_hand_set_last_a(torch::Device dev, int max_len) {
    auto model = hand_set_last_a_model();
    auto predict = make_predictor(model, dev, 2, 1);
    const auto dfa = ends_with_a();
    const auto words = last_a_test_words(max_len);
    std::vector<const automata::Word*> ptrs;
    for (const auto& w : words) ptrs.push_back(&w);
    auto logits = predict(ptrs);
    REQUIRE(logits.size() == words.size());
    long wrong = 0;
    for (std::size_t i = 0; i < words.size(); ++i) wrong += (logits[i] > 0) != dfa.accepts(words[i]);
    CHECK(wrong == 0);
}

// Training 30 steps equals training 13 steps, stopping, and resuming to 30, parameter for parameter;
// the checkpoint reloads to the same model; another configuration refuses to resume.
inline void check_resume_bit_for_bit(const std::string& device) {
    namespace fs = std::filesystem;
    const auto dfa = starts_with_a();
    auto sampler = automata::Sampler::create(dfa, 20);
    REQUIRE(sampler.ok());
    auto dist = TrainingDistribution::from_sampler(*sampler, 1, 12);
    REQUIRE(dist.ok());
    Config c = tiny_config(device);
    c.runtime.checkpoint_every = 7;
    auto dir_a = scratch("resume-a-" + device), dir_b = scratch("resume-b-" + device);
    c.training.steps = 30;
    auto a = train_model(c, 2, *dist, dir_a.string(), nullptr);
    INFO((a.ok() ? "" : a.error().message));
    REQUIRE(a.ok());
    c.training.steps = 13;  // stops at 13 (checkpoints at 7 and 13), then resumes to 30
    REQUIRE(train_model(c, 2, *dist, dir_b.string(), nullptr).ok());
    c.training.steps = 30;
    auto b = train_model(c, 2, *dist, dir_b.string(), nullptr);
    REQUIRE(b.ok());
    CHECK(b->steps_done == 30);
    auto pa = a->model->named_parameters(), pb = b->model->named_parameters();
    REQUIRE(pa.size() == pb.size());
    for (const auto& item : pa) {
        INFO(item.key());
        CHECK(torch::equal(item.value(), pb[item.key()]));
    }
    const auto dev = a->model->parameters().front().device();
    auto loaded = load_checkpoint((dir_a / "checkpoint.pt").string(), 2, dev);
    REQUIRE(loaded.ok());
    CHECK(loaded->first.training.steps == 30);
    auto pl = loaded->second->named_parameters();
    for (const auto& item : pa) CHECK(torch::equal(item.value(), pl[item.key()]));
    c.training.lr = 5e-4;
    CHECK_FALSE(train_model(c, 2, *dist, dir_a.string(), nullptr).ok());
    fs::remove_all(dir_a);
    fs::remove_all(dir_b);
}

// A small global model trained on lengths 1..40 is exact on aΣ* up to length 200 (N* = 200).
inline void check_learns_a_sigma(const std::string& device) {
    const auto dfa = starts_with_a();
    auto dir = scratch("learn-a-sigma-" + device);
    auto r = train_and_evaluate(dfa, learn_a_sigma_config(device), dir.string(), {}, "a.*");
    REQUIRE(r.ok());
    INFO("train accuracy " << r->train_accuracy << " N* " << r->n_star << " mean " << r->mean_accuracy);
    CHECK_FALSE(r->failed_to_fit);
    CHECK(r->n_star == 200);
    CHECK(r->success);
    CHECK(std::filesystem::exists(dir / "result.json"));
    std::filesystem::remove_all(dir);
}

}  // namespace ltlkit::neural::testing
