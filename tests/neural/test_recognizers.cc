// Recognizers (docs/PROTOCOL.md "Models", "Training", "Evaluation"): banded vs dense attention, strict
// masks, hand-set weights, resume, learning, and the metrics of result.json.
#include "fixtures.hh"  // torch before Catch2: glog defines CHECK

#include <algorithm>
#include <cmath>
#include <random>
#include <thread>

#include <nlohmann/json.hpp>

#include "base/checksum.hh"
#include "automata/sampler.hh"
#include "neural/internal.hh"
#include "neural/model.hh"
#include "neural/run.hh"

using namespace ltlkit;
using namespace ltlkit::neural;
using namespace ltlkit::neural::testing;

TEST_CASE("banded and global attention agree with the dense masked reference on outputs and gradients",
          "[neural][attention]") {
    torch::set_num_threads(1);
    check_attention_against_dense(torch::kCPU);
}

TEST_CASE("the last layer computed at EOS only equals the full forward pass, outputs and gradients",
          "[neural][attention]") {
    torch::manual_seed(11);
    torch::set_num_threads(1);
    for (std::string arch : {"global", "local-1", "local-2", "local-5", "hybrid-1", "hybrid-3"})
        for (std::string pe : {"none", "learned", "sinusoidal", "rope"})
            for (bool strict : {true, false})
                for (bool pre_ln : {false, true})
                    for (int layers : {1, 2}) {
                        INFO(arch << " pe " << pe << " strict " << strict << " pre_ln " << pre_ln << " layers "
                                  << layers);
                        Config c;
                        c.model.arch = *parse_architecture(arch);
                        c.model.layers = layers;
                        c.model.d_model = 8;
                        c.model.heads = 2;
                        c.model.d_ff = 16;
                        c.model.pe = *parse_positional_encoding(pe);
                        c.model.strict = strict;
                        c.model.pre_ln = pre_ln;
                        TransformerRecognizer m(c, 3, 64);
                        m.to(torch::kDouble);
                        // Words of lengths 0, 1, 2, 7 and 20 in one padded batch.
                        std::vector<automata::Word> words;
                        for (int n : {0, 1, 2, 7, 20}) {
                            automata::Word w;
                            for (int i = 0; i < n; ++i) w.push_back(static_cast<automata::Symbol>((i * 7 + n) % 3));
                            words.push_back(w);
                        }
                        std::vector<const automata::Word*> ptrs;
                        for (const auto& w : words) ptrs.push_back(&w);
                        auto [tok, eos] = encode_words(ptrs, 3);
                        auto fast = m.forward(tok, eos);
                        auto full = m.read(m.hidden(tok), eos);
                        REQUIRE(fast.sizes() == full.sizes());
                        CHECK(torch::allclose(fast, full, 1e-10, 1e-12));
                        auto pf = m.parameters();
                        auto gf = torch::autograd::grad({fast.sum()}, pf, {}, false, false, true);
                        auto gr = torch::autograd::grad({full.sum()}, pf, {}, false, false, true);
                        for (std::size_t i = 0; i < pf.size(); ++i) {
                            if (!gf[i].defined() || !gr[i].defined()) {
                                CHECK(gf[i].defined() == gr[i].defined());
                                continue;
                            }
                            CHECK(torch::allclose(gf[i], gr[i], 1e-9, 1e-11));
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
                c.model.arch = *parse_architecture(arch);
                c.model.layers = layers;
                c.model.d_model = 16;
                c.model.heads = 4;
                c.model.d_ff = 32;
                c.model.strict = strict;
                const Architecture spec = c.model.arch;
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
                long reach = spec.kind == Architecture::Kind::Local ? layers * spec.k : E;
                INFO(arch << " strict " << strict << " layers " << layers);
                for (long j = 0; j < n_tokens; ++j) {
                    const double gj = g[j].item<double>();
                    REQUIRE(std::isfinite(gj));
                    if (j < E - reach) CHECK(gj == 0.0);
                    if (j >= E - reach && spec.kind == Architecture::Kind::Local) CHECK(gj > 0.0);
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
                c.model.arch = *parse_architecture(arch);
                c.model.layers = 2;
                c.model.d_model = 8;
                c.model.heads = 2;
                c.model.d_ff = 16;
                c.model.pe = *parse_positional_encoding(pe);
                c.model.pre_ln = pre_ln;
                c.model.lstm_hidden = 8;
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

TEST_CASE("the predictor's chunks: one word per pass and the default chunks give the same logits, for every architecture",
          "[neural][eval]") {
    // make_predictor bounds a chunk by B·N tokens and, for attention, B·heads·N² scores; an LSTM has
    // no scores, so its chunks hold many long words where a transformer's hold one. Either way the
    // logits must be those of each word alone (padding after EOS is never read).
    torch::manual_seed(9);
    torch::set_num_threads(1);
    std::mt19937_64 rng(4);
    std::vector<automata::Word> words;
    for (int i = 0; i < 60; ++i) {
        automata::Word w(rng() % 300);
        for (auto& s : w) s = static_cast<automata::Symbol>(rng() % 3);
        words.push_back(std::move(w));
    }
    std::vector<const automata::Word*> ptrs;
    for (const auto& w : words) ptrs.push_back(&w);
    for (std::string arch : {"global", "local-2", "hybrid-1", "lstm"}) {
        Config c;
        c.model.arch = *parse_architecture(arch);
        c.model.layers = 2;
        c.model.d_model = 16;
        c.model.heads = 2;
        c.model.d_ff = 32;
        c.model.lstm_hidden = 32;
        auto m = make_recognizer(c, 3);
        CHECK(m->has_attention() == c.model.arch.is_transformer());
        const auto alone = make_predictor(m, torch::kCPU, 3, c.model.heads, EvalChunks{1, 1})(ptrs);
        const auto chunked = make_predictor(m, torch::kCPU, 3, c.model.heads)(ptrs);
        REQUIRE(alone.size() == chunked.size());
        double worst = 0;
        for (std::size_t i = 0; i < alone.size(); ++i) worst = std::max(worst, double(std::abs(alone[i] - chunked[i])));
        INFO(arch);
        CHECK(worst < 1e-4);
    }
}

TEST_CASE("a one-layer 1-local model with hand-set weights recognizes Σ*a at every length up to 1000",
          "[neural]") {
    torch::set_num_threads(1);
    check_hand_set_last_a(torch::kCPU, 1000);
}

TEST_CASE("a run resumed from its checkpoint equals the uninterrupted run bit for bit", "[neural][train]") {
    check_resume_bit_for_bit("cpu");
}

TEST_CASE("training batches follow docs/PROTOCOL.md: one length, half accepted, half rejected, uniform",
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
    r.identity = run_identity(ends_with_a(), r.config, {});
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
    CHECK_FALSE(result_from_json(json_with_checksum(bad.dump())).ok());
    bad = nlohmann::json::parse(result_to_json(r));
    bad.erase("n_star");
    CHECK_FALSE(result_from_json(json_with_checksum(bad.dump())).ok());
    bad = nlohmann::json::parse(result_to_json(r));
    bad.erase("identity");
    CHECK_FALSE(result_from_json(json_with_checksum(bad.dump())).ok());
}

TEST_CASE("result.json: numbers too large, fractional, negative or infinite for their field are errors", "[neural]") {
    const std::string h = sha256_hex("x");
    const std::string good =
        R"({"config":{"arch":"global"},"identity":{"dfa_sha256":")" + h + R"(","data_sha256":")" + h +
        R"(","training":")" + h + R"(","evaluation":")" + h + R"("},"per_length_accuracy":{"41":1.0},)"
        R"("mean_accuracy":1.0,"min_bin_accuracy":1.0,"n_star":41,"train_accuracy":1.0,)"
        R"("adversarial_accuracy":null,"failed_to_fit":false,"wall_seconds":1.5,"seed":7})";
    REQUIRE(result_from_json(json_with_checksum(good)).ok());
    // The text with one replacement, under a valid checksum where the text still parses (so that
    // the range checks, not the checksum, refuse it).
    auto with = [&](const std::string& from, const std::string& to) {
        std::string s = good;
        s.replace(s.find(from), from.size(), to);
        try {
            return json_with_checksum(s);
        } catch (const std::exception&) {
            return s;
        }
    };
    // A float read into an int field would be undefined behaviour; 1e999 is refused by the parser.
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

TEST_CASE("parse_architecture accepts global, local-K, hybrid-K, lstm and nothing else", "[neural]") {
    CHECK(parse_architecture("global")->kind == Architecture::Kind::Global);
    CHECK(parse_architecture("local-3")->k == 3);
    CHECK(parse_architecture("hybrid-1")->kind == Architecture::Kind::Hybrid);
    CHECK(parse_architecture("lstm")->kind == Architecture::Kind::Lstm);
    for (const char* bad : {"local-0", "local-", "local-x", "hybrid", "transformer", "local--1"})
        CHECK_FALSE(parse_architecture(bad).ok());
    CHECK(parse_architecture("local-0").error().message == "architecture 'local-0': K must be at least 1");
    CHECK(parse_architecture("hybrid-x").error().message ==
          "architecture 'hybrid-x': expected hybrid-K with an integer K >= 1");
    CHECK(parse_architecture("gru").error().message ==
          "unknown architecture 'gru' (expected global, local-K, hybrid-K or lstm)");
    // The names are the ones parsed, and the parsed values the ones named.
    for (const char* name : {"global", "local-1", "local-12", "hybrid-1", "hybrid-7", "lstm"}) {
        INFO(name);
        CHECK(to_string(*parse_architecture(name)) == name);
    }
    CHECK(*parse_architecture(to_string(Architecture{Architecture::Kind::Hybrid, 3})) ==
          Architecture{Architecture::Kind::Hybrid, 3});
    CHECK_FALSE(*parse_architecture("local-2") == *parse_architecture("hybrid-2"));
    // hybrid heads: ceil(h/2) global then floor(h/2) local; by layer: local first.
    const Architecture hybrid2 = *parse_architecture("hybrid-2");
    auto g = hybrid2.head_layout(1, 5).layers.at(0);
    REQUIRE(g.size() == 2);
    CHECK((g[0].count == 3 && g[0].window == 0 && g[1].first == 3 && g[1].count == 2 && g[1].window == 2));
    CHECK((hybrid2.head_layout(1, 1).layers.at(0) == std::vector<HeadGroup>{{0, 1, 0}}));  // one head: global
    const HeadLayout by_layer = hybrid2.head_layout(2, 4, HybridMode::Layers);
    CHECK((by_layer.layers.at(0) == std::vector<HeadGroup>{{0, 4, 2}}));
    CHECK((by_layer.layers.at(1) == std::vector<HeadGroup>{{0, 4, 0}}));
    // The window at EOS: bounded for local-k only; the LSTM is no transformer and has no heads.
    CHECK(parse_architecture("local-3")->eos_window() == 3);
    for (const char* name : {"global", "hybrid-3", "lstm"}) {
        INFO(name);
        CHECK_FALSE(parse_architecture(name)->eos_window());
        CHECK_FALSE(parse_architecture(name)->unbounded_reason().empty());
    }
    CHECK(parse_architecture("local-3")->unbounded_reason().empty());
    CHECK_FALSE(parse_architecture("lstm")->is_transformer());
    CHECK(parse_architecture("lstm")->head_layout(3, 4).layers.empty());
}

namespace {
// The window of every head of one attention module, measured from its behaviour, not read from its
// groups: with the values of all other heads zeroed, the last position's output depends on the
// inputs at the positions the head sees (strict: the k before it, or all of them for a global head).
std::vector<int> measured_windows(MultiHeadAttentionImpl& attn, int d_model, long n) {
    torch::NoGradGuard outer;
    const torch::Tensor w = attn.qkv->weight.clone(), b = attn.qkv->bias.clone();
    std::vector<int> out;
    for (int h = 0; h < attn.heads; ++h) {
        for (int o = 0; o < attn.heads; ++o)
            if (o != h) {  // value rows of head o: 2d + o*dh .. 2d + (o+1)*dh
                attn.qkv->weight.narrow(0, 2 * d_model + o * attn.d_head, attn.d_head).zero_();
                attn.qkv->bias.narrow(0, 2 * d_model + o * attn.d_head, attn.d_head).zero_();
            }
        auto x = torch::randn({1, n, d_model}).requires_grad_(true);
        {
            torch::AutoGradMode on(true);
            attn.forward(x).select(1, n - 1).sum().backward();
        }
        auto moved = x.grad().select(0, 0).abs().sum(1).narrow(0, 0, n - 1).gt(0);  // positions before the last
        const int seen = static_cast<int>(moved.sum().item<long>());
        out.push_back(seen == n - 1 ? 0 : seen);
        attn.qkv->weight.copy_(w);
        attn.qkv->bias.copy_(b);
    }
    return out;
}
}  // namespace

TEST_CASE("the head layout is the model's: each head's measured window equals its group's, random architectures",
          "[neural][attention]") {
    torch::manual_seed(5);
    torch::set_num_threads(1);
    std::mt19937 rng(17);
    auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    const std::vector<std::string> kinds{"global", "local-", "hybrid-", "lstm"};
    for (int trial = 0; trial < 40; ++trial) {
        Config c;
        std::string name = kinds[static_cast<std::size_t>(pick(0, 3))];
        if (name.back() == '-') name += std::to_string(pick(1, 4));
        c.model.arch = *parse_architecture(name);
        c.model.layers = pick(1, 4);
        c.model.heads = pick(1, 5);
        c.model.d_model = 4 * c.model.heads;
        c.model.d_ff = 8;
        c.model.lstm_hidden = 4;
        c.model.hybrid_by_layer = pick(0, 1) == 1;
        INFO(name << " layers " << c.model.layers << " heads " << c.model.heads << " by layer " << c.model.hybrid_by_layer);
        const HeadLayout layout = head_layout(c.model);
        auto model = make_recognizer(c, 2);
        auto* t = dynamic_cast<TransformerRecognizer*>(model.get());
        CHECK((t != nullptr) == c.model.arch.is_transformer());
        if (!t) {
            CHECK(layout.layers.empty());
            continue;
        }
        REQUIRE(layout.layers.size() == t->blocks.size());
        int global = 0;
        for (std::size_t l = 0; l < t->blocks.size(); ++l) {
            std::vector<int> want;
            for (const auto& g : layout.layers[l])
                for (int i = 0; i < g.count; ++i) want.push_back(g.window);
            const auto got = measured_windows(*t->blocks[l]->attn, c.model.d_model, 12);
            CHECK(got == want);
            global += static_cast<int>(std::count(got.begin(), got.end(), 0));
        }
        CHECK(global == layout.heads_with_window(0));
        CHECK(layout.heads_with_window(0) + (layout.local_window() ? layout.heads_with_window(layout.local_window()) : 0) ==
              c.model.layers * c.model.heads);
    }
}

TEST_CASE("success rules and devices are named as in the JSON and on the command line", "[neural]") {
    for (const char* name : {"exact", "bins99"}) CHECK(to_string(*parse_success_rule(name)) == name);
    for (const char* name : {"auto", "cpu", "cuda"}) CHECK(to_string(*parse_device(name)) == name);
    CHECK(parse_success_rule("bins90").error().message == "unknown success rule 'bins90' (expected exact or bins99)");
    CHECK(parse_device("gpu").error().message == "unknown device 'gpu' (expected auto, cpu or cuda)");
}

TEST_CASE("config JSON: the default config's text, and a stored config read and written back unchanged",
          "[neural][identity]") {
    // The text run identities hash (run.hh): a change here changes every stored run's identity.
    const std::string defaults =
        R"({"arch":"global","batch":128,"checkpoint_every":500,"d_ff":256,"d_model":64,"device":"auto",)"
        R"("fit_words":4000,"grad_clip":1.0,"heads":8,"hybrid_by_layer":false,"layers":5,"log_every":100,)"
        R"("lr":0.0003,"lstm_hidden":256,"max_positions":0,"pe":"none","per_length":512,"pre_ln":false,)"
        R"("seed":1,"steps":20000,"strict":true,"success_rule":"exact","test_max":500,"test_min":41,)"
        R"("threads":1,"train_max":40,"train_min":1})";
    CHECK(config_to_json(Config{}) == defaults);
    const std::string stored =
        R"({"arch":"hybrid-3","batch":32,"checkpoint_every":10,"d_ff":64,"d_model":32,"device":"cpu",)"
        R"("fit_words":50,"grad_clip":0.5,"heads":4,"hybrid_by_layer":true,"layers":2,"log_every":5,)"
        R"("lr":0.001,"lstm_hidden":16,"max_positions":7,"pe":"rope","per_length":4,"pre_ln":true,)"
        R"("seed":77,"steps":600,"strict":false,"success_rule":"bins99","test_max":16,"test_min":9,)"
        R"("threads":2,"train_max":8,"train_min":2})";
    auto c = config_from_json(stored);
    REQUIRE(c.ok());
    CHECK(c->model.arch == Architecture{Architecture::Kind::Hybrid, 3});
    CHECK(c->evaluation.success_rule == SuccessRule::Bins99);
    CHECK(c->runtime.device == Device::Cpu);
    CHECK(config_to_json(*c) == stored);
    // The test distribution is written only when not the default (older identities stay valid).
    auto lc25 = config_from_json(R"({"test_distribution":"lc25"})");
    REQUIRE(lc25.ok());
    CHECK(lc25->evaluation.test_distribution == TestDistribution::Lc25);
    CHECK(config_to_json(*lc25).find(R"("test_distribution":"lc25")") != std::string::npos);
    CHECK(config_from_json(R"({"test_distribution":"normal"})").error().message ==
          "unknown test distribution 'normal' (expected uniform or lc25)");
    CHECK(config_from_json(R"({"arch":"local-0"})").error().message == "architecture 'local-0': K must be at least 1");
    CHECK(config_from_json(R"({"success_rule":"x"})").error().message ==
          "unknown success rule 'x' (expected exact or bins99)");
    CHECK(config_from_json(R"({"device":"gpu"})").error().message == "unknown device 'gpu' (expected auto, cpu or cuda)");
}

TEST_CASE("a small global model learns aΣ* on CPU and is exact up to length 200", "[neural][train][long]") {
    check_learns_a_sigma("cpu");
}

TEST_CASE("training after an evaluation at the same length in the same thread (the cached causal mask)",
          "[neural][attention]") {
    // verify trains and evaluates run after run in one process: a resumed run that only evaluates
    // (c10::InferenceMode) may be the first to need the global mask of a length the next run trains
    // on. Each architecture in a fresh thread, so that no mask is cached before the evaluation.
    for (std::string arch : {"global", "hybrid-2"}) {
        std::string failure;
        std::thread t([&] {
            try {
                torch::manual_seed(3);
                torch::set_num_threads(1);
                Config c = tiny_config("cpu");
                c.model.arch = *parse_architecture(arch);
                auto m = make_recognizer(c, 2);
                const automata::Word w(37, 1);  // a length no other test in this thread used
                auto [tok, eos] = encode_words({&w, &w}, 2);
                {
                    c10::InferenceMode evaluation;
                    (void)m->forward(tok, eos);
                }
                m->forward(tok, eos).sum().backward();
            } catch (const std::exception& e) {
                failure = e.what();
            }
        });
        t.join();
        INFO(arch << ": " << failure.substr(0, 200));
        CHECK(failure.empty());
    }
}
