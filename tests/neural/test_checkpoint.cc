// One checkpoint format (neural/checkpoint.hh) for the recognizers and the language models: each
// kind saves and loads back through it (metadata, parameters, optimizer state: the state digest
// after loading equals the one written), a checkpoint of one kind is refused by the other, and the
// language models' older format and corrupted files are refused with one line saying what to do.
#include <torch/torch.h>  // before Catch2: glog defines CHECK

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "base/file.hh"
#include "neural/checkpoint.hh"
#include "neural/lm/lm.hh"
#include "neural/lm/model.hh"
#include "neural/model.hh"
#include "tests/neural/fixtures.hh"

namespace {

using namespace ltlkit;
using namespace ltlkit::neural;
namespace fs = std::filesystem;

// A one-layer language model of context 8.
lm::LmConfig tiny_lm() {
    lm::LmConfig c;
    c.model.layers = 1;
    c.model.d_model = 16;
    c.model.heads = 2;
    c.model.d_ff = 32;
    c.model.context = 8;
    return c;
}

// A few Adam steps on random data, so that the optimizer has state to save.
template <class Forward>
void train_a_little(torch::optim::Optimizer& opt, Forward forward) {
    for (int i = 0; i < 3; ++i) {
        opt.zero_grad();
        forward().pow(2).mean().backward();
        opt.step();
    }
}

// Writes the model through the one format, reads it back into a fresh model and optimizer (as
// resume does), and checks the metadata and the state digest.
template <class Make>
void round_trip(const std::string& kind, const std::string& other_kind, Make make, const fs::path& path) {
    torch::manual_seed(7);
    auto [model, opt, forward] = make();
    train_a_little(*opt, forward);
    CheckpointMeta m;
    m.kind = kind;
    m.config = "{\"a\": 1}";
    m.key = "key-" + kind;
    m.step = 3;
    m.rng = "12 34";
    m.tokens = 96;
    m.train_seconds = 1.25;
    REQUIRE(write_checkpoint(path.string(), m, *model, *opt).ok());
    const std::string written = checkpoint_header_state(path.string());
    CHECK(written == checkpoint_state_digest(m, *model, *opt));
    torch::manual_seed(8);  // other initial weights: the load must replace them
    auto [fresh, fresh_opt, fresh_forward] = make();
    CHECK(checkpoint_state_digest(m, *fresh, *fresh_opt) != written);
    torch::serialize::InputArchive a;
    auto back = read_checkpoint_file(path.string(), kind, a, torch::kCPU);
    INFO((back.ok() ? "" : back.error().message));
    REQUIRE(back.ok());
    CHECK(back->kind == kind);
    CHECK(back->config == m.config);
    CHECK(back->key == m.key);
    CHECK(back->step == m.step);
    CHECK(back->rng == m.rng);
    CHECK(back->tokens == m.tokens);
    CHECK(back->train_seconds == m.train_seconds);
    torch::serialize::InputArchive am, ao;
    a.read("model", am);
    fresh->load(am);
    a.read("optimizer", ao);
    fresh_opt->load(ao);
    CHECK(checkpoint_state_digest(*back, *fresh, *fresh_opt) == written);
    // The other kind's reader refuses it.
    torch::serialize::InputArchive b;
    auto wrong = read_checkpoint_file(path.string(), other_kind, b, torch::kCPU);
    REQUIRE_FALSE(wrong.ok());
    CHECK(wrong.error().message.find("holds a") != std::string::npos);
}

}  // namespace

TEST_CASE("checkpoints: a recognizer and a language model round-trip through the one format", "[checkpoint]") {
    const auto dir = testing::scratch("checkpoint-format");
    fs::create_directories(dir);
    round_trip(
        kRecognizerCheckpoint, kLanguageModelCheckpoint,
        [] {
            Config c = testing::tiny_config("cpu");
            std::shared_ptr<Recognizer> r = make_recognizer(c, 2);
            auto opt = std::make_shared<torch::optim::Adam>(r->parameters(), torch::optim::AdamOptions(1e-2));
            auto tokens = torch::randint(0, 2, {4, 5}, torch::kLong);
            tokens.select(1, 4).fill_(2);  // EOS (= |Σ|) last
            std::function<torch::Tensor()> forward = [r, tokens] {
                return r->forward(tokens, torch::full({4}, 4, torch::kLong));
            };
            return std::make_tuple(std::static_pointer_cast<torch::nn::Module>(r),
                                   std::static_pointer_cast<torch::optim::Optimizer>(opt), forward);
        },
        dir / "recognizer.pt");
    round_trip(
        kLanguageModelCheckpoint, kRecognizerCheckpoint,
        [] {
            lm::LanguageModel model(tiny_lm(), 11);
            auto opt = std::make_shared<torch::optim::Adam>(model->parameters(), torch::optim::AdamOptions(1e-2));
            auto tokens = torch::randint(0, 11, {2, 8}, torch::kLong);
            std::function<torch::Tensor()> forward = [model, tokens]() mutable { return model->forward(tokens); };
            return std::make_tuple(std::static_pointer_cast<torch::nn::Module>(model.ptr()),
                                   std::static_pointer_cast<torch::optim::Optimizer>(opt), forward);
        },
        dir / "lm.pt");
    fs::remove_all(dir);
}

TEST_CASE("checkpoints: the older language-model format, a bare archive and a flipped byte are refused in one line",
          "[checkpoint]") {
    const auto dir = testing::scratch("checkpoint-refused");
    fs::create_directories(dir);
    auto refused = [&](const std::string& name, const std::string& bytes, const std::string& says) {
        const auto path = (dir / name).string();
        std::ofstream(path, std::ios::binary) << bytes;
        torch::serialize::InputArchive a;
        auto r = read_checkpoint_file(path, kLanguageModelCheckpoint, a, torch::kCPU);
        INFO(name);
        REQUIRE_FALSE(r.ok());
        const std::string line = r.error().one_line();
        INFO(line);
        CHECK(line.find(says) != std::string::npos);
        CHECK(line.find(kCheckpointAdvice) != std::string::npos);
        CHECK(line.find('\n') == std::string::npos);
    };
    refused("old-lm.pt", "ltlkit-lm-checkpoint 1 sha256=00\nPK\x03\x04rest", "older ltlkit (ltlkit-lm-checkpoint)");
    refused("bare.pt", std::string("PK\x03\x04", 4) + "rest", "no checksum header");
    // A real checkpoint with one byte of its archive flipped.
    lm::LanguageModel model(tiny_lm(), 5);
    torch::optim::Adam opt(model->parameters(), torch::optim::AdamOptions(1e-2));
    CheckpointMeta m;
    m.kind = kLanguageModelCheckpoint;
    const auto good = (dir / "good.pt").string();
    REQUIRE(write_checkpoint(good, m, *model, opt).ok());
    auto text = read_file(good);
    REQUIRE(text.ok());
    std::string bytes = *text;
    bytes[bytes.size() / 2] ^= 0x01;
    refused("flipped.pt", bytes, "checksum mismatch");
    fs::remove_all(dir);
}
