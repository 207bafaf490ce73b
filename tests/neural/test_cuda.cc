// The same checks on a CUDA device (tag [cuda], ctest label `cuda`: `make test-cuda`, never part of
// `make test`). Each test fails, rather than passing vacuously, where no CUDA device is visible.
#include "fixtures.hh"  // torch before Catch2: glog defines CHECK

#include <string>
#include <vector>

using namespace ltlkit;
using namespace ltlkit::neural;
using namespace ltlkit::neural::testing;

namespace {

void require_cuda() {
    if (!torch::cuda::is_available())
        FAIL("no CUDA device is visible to LibTorch: the [cuda] tests need one (make test-cuda on a GPU machine)");
}

}  // namespace

TEST_CASE("CUDA: banded and global attention agree with the dense masked reference", "[neural][cuda]") {
    require_cuda();
    check_attention_against_dense(torch::kCUDA);
}

TEST_CASE("CUDA: every architecture gives the CPU model's logits and gradients", "[neural][cuda]") {
    require_cuda();
    torch::manual_seed(5);
    for (std::string arch : {"global", "local-1", "local-3", "hybrid-1", "hybrid-2", "lstm"})
        for (std::string pe : {"none", "rope"})
            for (bool strict : {true, false}) {
                if (arch == "lstm" && (pe != "none" || !strict)) continue;
                Config c;
                c.model.arch = *parse_architecture(arch);
                c.model.layers = 2;
                c.model.d_model = 16;
                c.model.heads = 4;
                c.model.d_ff = 32;
                c.model.pe = *parse_positional_encoding(pe);
                c.model.strict = strict;
                c.model.lstm_hidden = 16;
                auto cpu = make_recognizer(c, 3);
                cpu->to(torch::kDouble);
                auto gpu = make_recognizer(c, 3);
                {
                    torch::NoGradGuard ng;
                    auto src = cpu->parameters(), dst = gpu->parameters();
                    REQUIRE(src.size() == dst.size());
                    for (std::size_t i = 0; i < src.size(); ++i) dst[i].set_data(src[i].clone());
                }
                gpu->to(torch::kCUDA);
                std::vector<automata::Word> words;
                std::mt19937 gen(3);
                for (int len : {0, 1, 2, 5, 17, 64, 300}) {
                    automata::Word w(static_cast<std::size_t>(len));
                    for (auto& s : w) s = static_cast<automata::Symbol>(gen() % 3);
                    words.push_back(w);
                }
                std::vector<const automata::Word*> ptrs;
                for (const auto& w : words) ptrs.push_back(&w);
                auto [tok, eos] = encode_words(ptrs, 3);
                auto lc = cpu->forward(tok, eos);
                auto lg = gpu->forward(tok.to(torch::kCUDA), eos.to(torch::kCUDA));
                INFO(arch << " pe " << pe << " strict " << strict);
                REQUIRE(lg.device().is_cuda());
                CHECK(torch::allclose(lc, lg.cpu(), 1e-9, 1e-9));
                lc.sum().backward();
                lg.sum().backward();
                auto pc = cpu->named_parameters(), pg = gpu->named_parameters();
                for (const auto& item : pc) {
                    INFO(item.key());
                    const auto& gc = item.value().grad();
                    const auto& gg = pg[item.key()].grad();
                    REQUIRE(gc.defined() == gg.defined());
                    if (gc.defined()) CHECK(torch::allclose(gc, gg.cpu(), 1e-8, 1e-9));
                }
            }
}

TEST_CASE("CUDA: the hand-set 1-local model recognizes Σ*a at every length up to 10000", "[neural][cuda]") {
    require_cuda();
    check_hand_set_last_a(torch::kCUDA, 10000);
}

TEST_CASE("CUDA: a run resumed from its checkpoint equals the uninterrupted run bit for bit",
          "[neural][cuda][train]") {
    require_cuda();
    check_resume_bit_for_bit("cuda");
}

TEST_CASE("CUDA: a small global model learns aΣ* and is exact up to length 200", "[neural][cuda][train]") {
    require_cuda();
    check_learns_a_sigma("cuda");
}
