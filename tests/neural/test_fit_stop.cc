// Training until the fit (TrainingConfig::fit_check_every) and the flat parameters of training:
// a run that stops at its fit check is the fixed-length run of that many steps, resumes to the same
// model, and records where it stopped; the fit settings are part of the evaluation identity only.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "automata/sampler.hh"
#include "fixtures.hh"
#include "neural/internal.hh"
#include "neural/training.hh"

using namespace ltlkit;
using namespace ltlkit::neural;
using namespace ltlkit::neural::testing;

namespace {

// Σ*a, 1-local: fits within a few hundred steps of the tiny configuration.
Config until_fit_config() {
    Config c = tiny_config("cpu");
    c.model.arch = {Architecture::Kind::Local, 1};
    c.model.layers = 1;
    c.training.steps = 600;  // the budget
    c.training.fit_check_every = 20;
    c.training.fit_check_words = 200;
    c.training.fit_target = 0.99;
    c.runtime.checkpoint_every = 50;
    c.runtime.log_every = 10;
    return c;
}

// The fit-check lines of RUNDIR/metrics.jsonl: (step, accuracy).
std::vector<std::pair<int, double>> fit_checks(const std::filesystem::path& dir) {
    std::vector<std::pair<int, double>> out;
    std::ifstream in(dir / "metrics.jsonl");
    for (std::string line; std::getline(in, line);) {
        const auto j = nlohmann::json::parse(line);
        if (j.contains("fit_accuracy")) out.push_back({j.at("step").get<int>(), j.at("fit_accuracy").get<double>()});
    }
    return out;
}

void check_same_parameters(Recognizer& a, Recognizer& b) {
    auto pa = a.named_parameters(), pb = b.named_parameters();
    REQUIRE(pa.size() == pb.size());
    for (const auto& item : pa) {
        INFO(item.key());
        CHECK(torch::equal(item.value(), pb[item.key()]));
    }
}

}  // namespace

TEST_CASE("training until the fit stops at the first check at the target, as the fixed run of that length",
          "[neural][train]") {
    const auto dfa = ends_with_a();
    auto sampler = automata::Sampler::create(dfa, 20);
    REQUIRE(sampler.ok());
    auto dist = TrainingDistribution::from_sampler(*sampler, 1, 12);
    REQUIRE(dist.ok());
    const Config c = until_fit_config();
    auto dir = scratch("until-fit"), fixed_dir = scratch("until-fit-fixed"), resumed_dir = scratch("until-fit-resumed");
    auto a = train_model(c, 2, *dist, dir.string(), nullptr);
    INFO((a.ok() ? "" : a.error().message));
    REQUIRE(a.ok());
    REQUIRE(a->steps_done < c.training.steps);
    CHECK(a->steps_done % c.training.fit_check_every == 0);
    // Every check before the last one is below the target, the last one at or above it.
    const auto checks = fit_checks(dir);
    REQUIRE(!checks.empty());
    CHECK(checks.back().first == a->steps_done);
    CHECK(checks.back().second >= c.training.fit_target);
    for (std::size_t i = 0; i + 1 < checks.size(); ++i) {
        CHECK(checks[i].first == static_cast<int>(i + 1) * c.training.fit_check_every);
        CHECK(checks[i].second < c.training.fit_target);
    }
    // The check's words have a seed of their own: the trajectory is the fixed run's.
    Config fixed = c;
    fixed.training.fit_check_every = 0;
    fixed.training.steps = a->steps_done;
    auto b = train_model(fixed, 2, *dist, fixed_dir.string(), nullptr);
    REQUIRE(b.ok());
    check_same_parameters(*a->model, *b->model);
    // Interrupted before the stop (a smaller budget), then resumed with the full one: the same stop
    // and the same model; a rerun after the stop trains no further.
    Config part = c;
    part.training.steps = a->steps_done / 2;
    REQUIRE(train_model(part, 2, *dist, resumed_dir.string(), nullptr).ok());
    auto r = train_model(c, 2, *dist, resumed_dir.string(), nullptr);
    REQUIRE(r.ok());
    CHECK(r->steps_done == a->steps_done);
    check_same_parameters(*a->model, *r->model);
    CHECK(fit_checks(resumed_dir) == checks);
    auto again = train_model(c, 2, *dist, dir.string(), nullptr);
    REQUIRE(again.ok());
    CHECK(again->steps_done == a->steps_done);
    check_same_parameters(*a->model, *again->model);
    for (const auto& d : {dir, fixed_dir, resumed_dir}) std::filesystem::remove_all(d);
}

TEST_CASE("training until the fit: an unreachable target trains the whole budget, and bad settings are errors",
          "[neural][train]") {
    // aΣ* under 1-local attention: the EOS vector depends on the last symbol only, so no model
    // reaches 99% on words of lengths 1..12.
    const auto dfa = starts_with_a();
    auto sampler = automata::Sampler::create(dfa, 20);
    REQUIRE(sampler.ok());
    auto dist = TrainingDistribution::from_sampler(*sampler, 1, 12);
    REQUIRE(dist.ok());
    Config c = until_fit_config();
    c.training.steps = 40;
    c.training.fit_check_every = 10;
    auto dir = scratch("until-fit-budget");
    auto a = train_model(c, 2, *dist, dir.string(), nullptr);
    REQUIRE(a.ok());
    CHECK(a->steps_done == 40);
    const auto checks = fit_checks(dir);
    REQUIRE(checks.size() == 4);
    for (const auto& [step, acc] : checks) CHECK(acc < 0.99);
    std::filesystem::remove_all(dir);
    for (int field = 0; field < 5; ++field) {
        Config b = until_fit_config();
        if (field == 0) b.training.fit_target = 1.5;
        if (field == 1) b.training.fit_target = 0;
        if (field == 2) b.training.fit_check_words = 1;
        if (field == 3) b.training.fit_extra_steps = -1;
        if (field == 4) b.training.fit_check_every = -5;
        INFO("field " << field);
        auto r = train_model(b, 2, *dist, "", nullptr);
        REQUIRE_FALSE(r.ok());
        CHECK(r.error().message.find("--fit-") != std::string::npos);
    }
}

TEST_CASE("training until the fit: its settings change the evaluation identity only, and only when on",
          "[identity]") {
    const auto dfa = ends_with_a();
    Config off;
    const auto id_off = run_identity(dfa, off, {});
    // Off: the config's JSON has no fit key, so runs made before this option keep their identities.
    CHECK(config_to_json(off).find("fit_check") == std::string::npos);
    Config on = off;
    on.training.fit_check_every = 500;
    const auto id_on = run_identity(dfa, on, {});
    CHECK(id_on.training == id_off.training);
    CHECK(id_on.evaluation != id_off.evaluation);
    auto back = config_from_json(config_to_json(on));
    REQUIRE(back.ok());
    CHECK(*back == on);
    for (int field = 0; field < 4; ++field) {
        Config x = on;
        if (field == 0) x.training.fit_check_every = 250;
        if (field == 1) x.training.fit_check_words = 4000;
        if (field == 2) x.training.fit_target = 0.995;
        if (field == 3) x.training.fit_extra_steps = 100;
        const auto id = run_identity(dfa, x, {});
        INFO("field " << field);
        CHECK(id.training == id_on.training);
        CHECK(id.evaluation != id_on.evaluation);
        CHECK_FALSE(config_differences(x, on).empty());
    }
    CHECK(config_differences(on, off).find("fit_check_every") != std::string::npos);
}

TEST_CASE("flat parameters: the parameters are views of one tensor, gradients land in the flat gradient",
          "[neural][train]") {
    Config c = tiny_config("cpu");
    auto model = make_recognizer(c, 2);
    std::vector<torch::Tensor> before;
    for (const auto& p : model->parameters()) before.push_back(p.detach().clone());
    FlatParameters flat(*model);
    std::int64_t total = 0;
    std::size_t i = 0;
    for (const auto& p : model->parameters()) {
        CHECK(torch::equal(p, before[i++]));  // values kept
        CHECK(p.data_ptr<float>() == flat.values().data_ptr<float>() + total);
        total += p.numel();
    }
    CHECK(flat.values().numel() == total);
    // Two backward passes add up in the flat gradient, as in separate gradients.
    auto tok = torch::tensor({0, 1, 0, 2}, torch::kLong).view({1, 4});
    auto eos = torch::tensor({3}, torch::kLong);
    model->forward(tok, eos).sum().backward();
    model->forward(tok, eos).sum().backward();
    std::vector<torch::Tensor> grads;
    for (const auto& p : model->parameters()) grads.push_back(p.grad().reshape({-1}));
    CHECK(torch::equal(torch::cat(grads), flat.values().grad()));
    CHECK(flat.values().grad().abs().sum().item<double>() > 0);
    flat.zero_grad();
    for (const auto& p : model->parameters()) CHECK(p.grad().abs().sum().item<double>() == 0);
}
