// Recognizers (PROTOCOL.md "Models", "Training", "Evaluation"): banded vs dense attention, strict
// masks, hand-set weights, resume, learning, and the metrics of result.json.
#include <torch/torch.h>  // before Catch2: glog defines CHECK

#include <catch2/catch.hpp>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>

#include <nlohmann/json.hpp>

#include "automata/sampler.hh"
#include "neural/internal.hh"
#include "neural/model.hh"
#include "neural/run.hh"

using namespace ltlkit;
using namespace ltlkit::neural;
namespace fs = std::filesystem;

namespace {

// Σ*a over {a, b}: state 1 = "last symbol was a".
automata::Dfa ends_with_a() {
    automata::Dfa d;
    d.alphabet = {"a", "b"};
    d.initial = 0;
    d.accepting = {0, 1};
    d.delta = {1, 0, 1, 0};
    return d;
}

// aΣ* over {a, b}: 0 initial, 1 accepting sink, 2 rejecting sink.
automata::Dfa starts_with_a() {
    automata::Dfa d;
    d.alphabet = {"a", "b"};
    d.initial = 0;
    d.accepting = {0, 1, 0};
    d.delta = {1, 2, 1, 1, 2, 2};
    return d;
}

fs::path scratch(const std::string& name) {
    auto p = fs::temp_directory_path() / ("ltlkit-test-neural-" + std::to_string(::getpid()) + "-" + name);
    fs::remove_all(p);
    return p;
}

torch::Tensor rand_double(std::vector<int64_t> shape) {
    return torch::randn(shape, torch::kDouble).requires_grad_(true);
}

}  // namespace

TEST_CASE("banded and global attention agree with the dense masked reference on outputs and gradients",
          "[neural][attention]") {
    torch::manual_seed(7);
    torch::set_num_threads(1);
    for (bool strict : {true, false})
        for (long n : {1L, 2L, 3L, 5L, 8L, 17L, 40L})
            for (int k : {0, 1, 2, 3, 4, 7, 16, 39, 40, 64}) {
                INFO("strict " << strict << " N " << n << " k " << k);
                auto q = rand_double({2, 3, n, 4}), kk = rand_double({2, 3, n, 4}), v = rand_double({2, 3, n, 4});
                auto r = torch::randn({2, 3, n, 4}, torch::kDouble);
                auto fast = k == 0 ? global_attention(q, kk, v, strict) : local_attention(q, kk, v, k, strict);
                // (1-local strict is a shift of v: q and k are unused, their gradient is zero.)
                auto gf = torch::autograd::grad({(fast * r).sum()}, {q, kk, v}, {}, false, false, true);
                for (int i = 0; i < 3; ++i)
                    if (!gf[i].defined()) gf[i] = torch::zeros_like(q);
                auto ref = dense_reference_attention(q, kk, v, k, strict);
                auto gr = torch::autograd::grad({(ref * r).sum()}, {q, kk, v});
                REQUIRE(fast.sizes() == ref.sizes());
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

TEST_CASE("strict masks: the EOS logit has zero gradient outside the mask's reach", "[neural][attention]") {
    torch::manual_seed(3);
    torch::set_num_threads(1);
    const long n_tokens = 30;  // 29 symbols + EOS
    for (std::string arch : {"local-1", "local-3", "local-8", "hybrid-2", "global"})
        for (bool strict : {true, false})
            for (int layers : {1, 2}) {
                Config c;
                c.arch = arch;
                c.layers = layers;
                c.d_model = 16;
                c.heads = 4;
                c.d_ff = 32;
                c.strict = strict;
                auto spec = *parse_arch(arch);
                TransformerRecognizer m(c, 2, 64);
                m.to(torch::kDouble);
                auto tok = torch::randint(0, 2, {1, n_tokens}, torch::kLong);
                tok.index_put_({0, n_tokens - 1}, 2);
                auto x = m.embed_tokens(tok).detach().requires_grad_(true);
                auto logit = m.read(m.from_embeddings(x), torch::full({1}, n_tokens - 1, torch::kLong));
                auto g = torch::autograd::grad({logit.sum()}, {x})[0].abs().sum(-1).squeeze(0);  // [N]
                // Reach of the EOS (0-based index E) through `layers` layers: the residual keeps E,
                // each local layer reaches k further back; a global head reaches everything.
                const long E = n_tokens - 1;
                long reach = spec.kind == ArchSpec::Local ? layers * spec.k : E;
                INFO(arch << " strict " << strict << " layers " << layers);
                for (long j = 0; j < n_tokens; ++j) {
                    const double gj = g[j].item<double>();
                    REQUIRE(std::isfinite(gj));
                    if (j < E - reach) CHECK(gj == 0.0);
                    if (j >= E - reach && spec.kind == ArchSpec::Local) CHECK(gj > 0.0);
                }
            }
}

TEST_CASE("position 1 and the empty word give finite logits and gradients for every architecture",
          "[neural][attention]") {
    torch::manual_seed(5);
    torch::set_num_threads(1);
    for (std::string arch : {"global", "local-1", "local-2", "hybrid-1", "lstm"})
        for (std::string pe : {"none", "learned", "sinusoidal", "rope"})
            for (bool pre_ln : {false, true}) {
                Config c;
                c.arch = arch;
                c.layers = 2;
                c.d_model = 8;
                c.heads = 2;
                c.d_ff = 16;
                c.pe = pe;
                c.pre_ln = pre_ln;
                c.lstm_hidden = 8;
                auto m = make_recognizer(c, 3);
                automata::Word empty, one{1}, two{0, 2};
                auto [tok, eos] = encode_words({&empty, &one, &two}, 3);
                auto logits = m->forward(tok, eos);
                INFO(arch << " " << pe << " pre_ln " << pre_ln);
                REQUIRE(torch::isfinite(logits).all().item<bool>());
                logits.sum().backward();
                for (const auto& p : m->parameters())
                    if (p.grad().defined()) REQUIRE(torch::isfinite(p.grad()).all().item<bool>());
            }
}

TEST_CASE("a one-layer 1-local model with hand-set weights recognizes Σ*a at every length up to 1000",
          "[neural]") {
    torch::set_num_threads(1);
    Config c;
    c.arch = "local-1";
    c.layers = 1;
    c.d_model = 2;
    c.heads = 1;
    c.d_ff = 1;
    auto model = std::make_shared<TransformerRecognizer>(c, 2, 0);
    auto& m = *model;
    {
        torch::NoGradGuard ng;
        for (auto& p : m.parameters()) p.zero_();
        // e(a) = (1, -1), e(b) = (-1, 1), e(EOS) = 0. The attention copies the previous position's
        // vector (values and output projection = identity); both LayerNorms map ±(1, -1) to itself;
        // the readout takes the first coordinate: logit +1 after a, -1 after b, 0 for the empty word.
        m.embed->weight.copy_(torch::tensor({1.0, -1.0, -1.0, 1.0, 0.0, 0.0}).view({3, 2}));
        auto& attn = m.blocks[0]->attn;
        attn->qkv->weight.narrow(0, 4, 2).copy_(torch::eye(2));
        attn->out->weight.copy_(torch::eye(2));
        m.readout->weight.copy_(torch::tensor({1.0f, 0.0f}).view({1, 2}));
        m.blocks[0]->ln1->weight.fill_(1);
        m.blocks[0]->ln2->weight.fill_(1);
    }
    auto predict = make_predictor(model, torch::kCPU, 2, 1);
    const auto dfa = ends_with_a();
    std::vector<automata::Word> words;
    for (int len = 0; len <= 10; ++len)  // every word up to length 10
        for (int bits = 0; bits < (1 << len); ++bits) {
            automata::Word w;
            for (int i = 0; i < len; ++i) w.push_back((bits >> i) & 1);
            words.push_back(w);
        }
    std::mt19937 gen(11);
    for (int len = 11; len <= 1000; ++len)
        for (int last = 0; last < 2; ++last) {
            automata::Word w(static_cast<std::size_t>(len));
            for (auto& s : w) s = gen() & 1;
            w.back() = static_cast<automata::Symbol>(last);
            words.push_back(w);
        }
    std::vector<const automata::Word*> ptrs;
    for (const auto& w : words) ptrs.push_back(&w);
    auto logits = predict(ptrs);
    long wrong = 0;
    for (std::size_t i = 0; i < words.size(); ++i) wrong += (logits[i] > 0) != dfa.accepts(words[i]);
    CHECK(wrong == 0);
}

namespace {
Config tiny_config() {
    Config c;
    c.arch = "hybrid-1";
    c.layers = 2;
    c.d_model = 16;
    c.heads = 2;
    c.d_ff = 32;
    c.batch = 16;
    c.lr = 1e-3;
    c.train_min = 1;
    c.train_max = 12;
    c.test_min = 13;
    c.test_max = 14;
    c.per_length = 8;
    c.fit_words = 16;
    c.threads = 1;
    c.device = "cpu";
    c.log_every = 0;
    c.seed = 42;
    return c;
}
}  // namespace

TEST_CASE("a run resumed from its checkpoint equals the uninterrupted run bit for bit", "[neural][train]") {
    const auto dfa = starts_with_a();
    auto sampler = automata::Sampler::create(dfa, 20);
    REQUIRE(sampler.ok());
    auto dist = TrainingDistribution::from_sampler(*sampler, 1, 12);
    REQUIRE(dist.ok());
    Config c = tiny_config();
    c.checkpoint_every = 7;
    auto dir_a = scratch("resume-a"), dir_b = scratch("resume-b");
    c.steps = 30;
    auto a = train_model(c, 2, *dist, dir_a.string(), nullptr);
    INFO((a.ok() ? "" : a.error().message));
    REQUIRE(a.ok());
    c.steps = 13;  // stops at 13 (checkpoints at 7 and 13), then resumes to 30
    REQUIRE(train_model(c, 2, *dist, dir_b.string(), nullptr).ok());
    c.steps = 30;
    auto b = train_model(c, 2, *dist, dir_b.string(), nullptr);
    REQUIRE(b.ok());
    CHECK(b->steps_done == 30);
    auto pa = a->model->named_parameters(), pb = b->model->named_parameters();
    REQUIRE(pa.size() == pb.size());
    for (const auto& item : pa) {
        INFO(item.key());
        CHECK(torch::equal(item.value(), pb[item.key()]));
    }
    // The checkpoint file itself reloads to the same model.
    auto loaded = load_checkpoint((dir_a / "checkpoint.pt").string(), 2, torch::kCPU);
    REQUIRE(loaded.ok());
    CHECK(loaded->first.steps == 30);
    auto pl = loaded->second->named_parameters();
    for (const auto& item : pa) CHECK(torch::equal(item.value(), pl[item.key()]));
    // Another training configuration refuses to resume.
    c.lr = 5e-4;
    CHECK_FALSE(train_model(c, 2, *dist, dir_a.string(), nullptr).ok());
    fs::remove_all(dir_a);
    fs::remove_all(dir_b);
}

TEST_CASE("training batches follow PROTOCOL.md: one length, half accepted, half rejected, uniform",
          "[neural][train]") {
    const auto dfa = ends_with_a();
    auto sampler = automata::Sampler::create(dfa, 10);
    REQUIRE(sampler.ok());
    auto dist = TrainingDistribution::from_sampler(*sampler, 1, 3);
    REQUIRE(dist.ok());
    automata::Rng rng(9);
    std::map<std::size_t, int> lengths;
    for (int t = 0; t < 300; ++t) {
        std::vector<automata::Word> w;
        std::vector<std::uint8_t> l;
        dist->draw(10, rng, w, l);
        REQUIRE(w.size() == 10);
        for (std::size_t i = 0; i < w.size(); ++i) {
            REQUIRE(w[i].size() == w[0].size());
            REQUIRE(dfa.accepts(w[i]) == (l[i] != 0));
            REQUIRE(l[i] == (i < 5 ? 1 : 0));
        }
        lengths[w[0].size()]++;
    }
    CHECK(lengths.size() == 3);
    for (auto& [n, k] : lengths) CHECK(k > 60);
    // Even-length words over {a}: no length has both labels, so the halves get their own lengths.
    automata::Dfa even;
    even.alphabet = {"a"};
    even.accepting = {1, 0};
    even.delta = {1, 0};
    auto se = automata::Sampler::create(even, 10);
    REQUIRE(se.ok());
    auto de = TrainingDistribution::from_sampler(*se, 1, 8);
    REQUIRE(de.ok());
    CHECK(de->padded());
    std::vector<automata::Word> w;
    std::vector<std::uint8_t> l;
    de->draw(4, rng, w, l);
    CHECK(w[0].size() % 2 == 0);
    CHECK(w[3].size() % 2 == 1);
}

TEST_CASE("summaries: bins of 100 lengths, min bin, N*, and result.json round trip", "[neural][eval]") {
    RunResult r;
    for (int n = 41; n <= 250; ++n) r.per_length_accuracy[n] = 1.0;
    r.per_length_accuracy[130] = 0.5;
    summarize_lengths(r);
    CHECK(r.n_star == 129);
    REQUIRE(r.bin_accuracy.size() == 3);
    CHECK(r.bin_accuracy.at("41-100") == 1.0);
    CHECK(r.bin_accuracy.at("101-200") == Approx(0.995));
    CHECK(r.bin_accuracy.at("201-250") == 1.0);
    CHECK(r.min_bin_accuracy == Approx(0.995));
    CHECK(r.mean_accuracy == Approx(1.0 - 0.5 / 210));
    r.per_length_accuracy[41] = 0.9;
    summarize_lengths(r);
    CHECK(r.n_star == 40);
    r.adversarial_accuracy = 0.25;
    r.seed = 123456789012345ULL;
    auto back = result_from_json(result_to_json(r));
    REQUIRE(back.ok());
    CHECK(back->per_length_accuracy == r.per_length_accuracy);
    CHECK(back->n_star == r.n_star);
    CHECK(back->seed == r.seed);
    CHECK(back->adversarial_accuracy == r.adversarial_accuracy);
    CHECK_FALSE(back->boundary_accuracy.has_value());
    CHECK_FALSE(result_from_json("{}").ok());
    CHECK_FALSE(result_from_json(std::string(R"({"config": {"arch": "local-0"}})")).ok());
    auto bad = nlohmann::json::parse(result_to_json(r));
    bad["per_length_accuracy"]["130"] = 1.5;
    CHECK_FALSE(result_from_json(bad.dump()).ok());
    bad = nlohmann::json::parse(result_to_json(r));
    bad.erase("n_star");
    CHECK_FALSE(result_from_json(bad.dump()).ok());
}

TEST_CASE("result.json: numbers that do not fit their field are errors (fuzz regressions)", "[neural]") {
    const std::string good =
        R"({"config":{"arch":"global"},"per_length_accuracy":{"41":1.0},"mean_accuracy":1.0,)"
        R"("min_bin_accuracy":1.0,"n_star":41,"train_accuracy":1.0,"adversarial_accuracy":null,)"
        R"("failed_to_fit":false,"wall_seconds":1.5,"seed":7})";
    REQUIRE(result_from_json(good).ok());
    auto with = [&](const std::string& from, const std::string& to) {
        std::string s = good;
        s.replace(s.find(from), from.size(), to);
        return s;
    };
    // A float into an int field was undefined behaviour (UBSan); 1e999 is refused by the parser.
    for (const auto& [from, to] : std::vector<std::pair<std::string, std::string>>{
             {"\"n_star\":41", "\"n_star\":1e10"}, {"\"n_star\":41", "\"n_star\":4.5"},
             {"\"n_star\":41", "\"n_star\":4294967296"}, {"\"seed\":7", "\"seed\":-1"},
             {"\"seed\":7", "\"seed\":-1.5"}, {"\"wall_seconds\":1.5", "\"wall_seconds\":1e999"},
             {"\"arch\":\"global\"", "\"arch\":\"global\",\"layers\":-1e300"},
             {"\"arch\":\"global\"", "\"arch\":\"global\",\"lr\":-1e999"}}) {
        INFO(to);
        CHECK_FALSE(result_from_json(with(from, to)).ok());
    }
    auto integral = result_from_json(with("\"n_star\":41", "\"n_star\":41.0"));
    REQUIRE(integral.ok());
    CHECK(integral->n_star == 41);
}

TEST_CASE("parse_arch accepts global, local-K, hybrid-K, lstm and nothing else", "[neural]") {
    CHECK(parse_arch("global")->kind == ArchSpec::Global);
    CHECK(parse_arch("local-3")->k == 3);
    CHECK(parse_arch("hybrid-1")->kind == ArchSpec::Hybrid);
    CHECK(parse_arch("lstm")->kind == ArchSpec::Lstm);
    for (const char* bad : {"local-0", "local-", "local-x", "hybrid", "transformer", "local--1"})
        CHECK_FALSE(parse_arch(bad).ok());
    // hybrid heads: ceil(h/2) global then floor(h/2) local; by layer: local first.
    auto g = head_groups(*parse_arch("hybrid-2"), 5, 0, false);
    REQUIRE(g.size() == 2);
    CHECK((g[0].count == 3 && g[0].window == 0 && g[1].count == 2 && g[1].window == 2));
    CHECK(head_groups(*parse_arch("hybrid-2"), 4, 0, true)[0].window == 2);
    CHECK(head_groups(*parse_arch("hybrid-2"), 4, 1, true)[0].window == 0);
}

TEST_CASE("a small global model learns aΣ* on CPU and is exact up to length 200", "[neural][train][long]") {
    const auto dfa = starts_with_a();
    Config c;
    c.arch = "global";
    c.layers = 2;
    c.d_model = 32;
    c.heads = 4;
    c.d_ff = 64;
    c.steps = 600;
    c.batch = 32;
    c.lr = 1e-3;
    c.train_max = 40;
    c.test_min = 41;
    c.test_max = 200;
    c.per_length = 16;
    c.threads = 1;
    c.device = "cpu";
    c.log_every = 0;
    c.checkpoint_every = 0;
    c.seed = 1;
    auto dir = scratch("learn-a-sigma");
    auto r = train_and_evaluate(dfa, c, dir.string(), {}, "a.*");
    REQUIRE(r.ok());
    INFO("train accuracy " << r->train_accuracy << " N* " << r->n_star << " mean " << r->mean_accuracy);
    CHECK_FALSE(r->failed_to_fit);
    CHECK(r->n_star == 200);
    CHECK(r->success);
    CHECK(fs::exists(dir / "result.json"));
    fs::remove_all(dir);
}
