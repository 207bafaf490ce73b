// The peak-memory estimate of train / eval / verify (neural/memory.hh: the --max-memory-gb limit). memory.cc is
// torch-free, so it is compiled right into this symbolic test (no LibTorch needed).
#include <catch2/catch.hpp>

#include "neural/memory.cc"  // NOLINT(bugprone-suspicious-include)

using namespace ltlkit::neural;

namespace {
// `c` with another architecture.
Config with_arch(Config c, Architecture::Kind kind, int k = 0) {
    c.model.arch = {kind, k};
    return c;
}
}  // namespace

TEST_CASE("parameter count of the default transformer", "[memory]") {
    Config c;  // 5 layers, d 64, 8 heads, d_ff 256, no PE
    const MemoryEstimate e = estimate_memory(with_arch(c, Architecture::Kind::Global), 2);
    // per layer: qkv 64*192+192, out 64*64+64, ff 64*256+256 + 256*64+64, two layer norms 4*64
    const double per_layer = 64 * 192 + 192 + 64 * 64 + 64 + 64 * 256 + 256 + 256 * 64 + 64 + 4 * 64;
    const double params = 3 * 64 + 5 * per_layer + 2 * 64 + 64 + 1;
    CHECK(e.parameters == Approx(params * 4));
    CHECK(e.optimizer == Approx(3 * params * 4));
    CHECK(e.train_tokens == 41);
    CHECK(e.test_tokens == 501);
    // The paper/standard profiles fit easily under the default limit.
    CHECK(e.peak() < 1e9);
    CHECK(check_memory(e, kDefaultMaxMemoryGb, "training").ok());
}

TEST_CASE("global attention grows with N squared, local with N times k", "[memory]") {
    Config c;
    c.training.train_max = 1000;
    c.evaluation.test_max = 1000;
    const double g1 = estimate_memory(with_arch(c, Architecture::Kind::Global), 2).training;
    const double l1 = estimate_memory(with_arch(c, Architecture::Kind::Local, 2), 2).training;
    const double h1 = estimate_memory(with_arch(c, Architecture::Kind::Hybrid, 2), 2).training;
    CHECK(l1 < h1);
    CHECK(h1 < g1);
    c.training.train_max = 2001;  // N doubles (tokens = length + 1)
    const double g2 = estimate_memory(with_arch(c, Architecture::Kind::Global), 2).training;
    const double l2 = estimate_memory(with_arch(c, Architecture::Kind::Local, 2), 2).training;
    CHECK(g2 / g1 > 3.5);  // dominated by batch x heads x N^2
    CHECK(l2 / l1 == Approx(2.0).epsilon(0.01));
    // Doubling the batch doubles the training activations.
    c.training.batch *= 2;
    CHECK(estimate_memory(with_arch(c, Architecture::Kind::Global), 2).training == Approx(2 * g2));
}

TEST_CASE("the attention scores dominate: batch x heads x N^2 x layers", "[memory]") {
    Config c;
    c.training.train_max = 9999;  // N = 10^4
    c.evaluation.test_max = 10000;
    const MemoryEstimate e = estimate_memory(with_arch(c, Architecture::Kind::Global), 2);
    const double scores = 128.0 * 8 * 1e4 * 1e4 * 5;  // elements of one score tensor over the layers
    CHECK(e.training >= scores * 4);
    CHECK(e.training <= scores * 4 * 8);
    CHECK(e.training > e.evaluation);
}

TEST_CASE("evaluation chunks follow the predictor's budgets", "[memory]") {
    Config c;
    c.evaluation.test_max = 100000;  // one word per chunk, N^2 scores for it
    const MemoryEstimate e = estimate_eval_memory(with_arch(c, Architecture::Kind::Global), 2);
    CHECK(e.optimizer == 0);
    CHECK(e.training == 0);
    CHECK(e.evaluation >= 8.0 * 1e5 * 1e5 * 4 / 5);  // one layer's heads, 8 x N^2 floats
    auto r = check_memory(e, 16, "evaluation");
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().exit_code == 3);
    CHECK(r.error().message.find("> --max-memory-gb 16; raise --max-memory-gb") != std::string::npos);
    CHECK(r.error().message.find("evaluation at length 100000") != std::string::npos);
}

TEST_CASE("the LSTM baseline and the limit message of training", "[memory]") {
    Config c;
    c.model.arch = {Architecture::Kind::Lstm, 0};
    const MemoryEstimate small = estimate_memory(c, 3);
    CHECK(small.parameters > 4.0 * 256 * (64 + 256) * 4);
    CHECK(check_memory(small, 1, "lstm").ok());
    c.training.batch = 1 << 20;
    c.training.train_max = 5000;
    const MemoryEstimate big = estimate_memory(c, 3);
    auto r = check_memory(big, 16, "the run");
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().message.rfind("the run would need about ", 0) == 0);
    CHECK(r.error().message.find("a training batch of 1048576 words of length 5000") != std::string::npos);
}
