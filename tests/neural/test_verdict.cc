// Verdict rules (docs/PROTOCOL.md table, every row, 1a and 1b with and without a ceiling) on synthetic run results, and the Clopper–Pearson
// interval against closed forms and published values. Torch-free.
#include <catch2/catch.hpp>

#include <cmath>

#include <map>

#include <nlohmann/json.hpp>

#include "neural/verify/published.hh"
#include "neural/verify/verdict.hh"

using namespace ltlkit::neural;
using namespace ltlkit::neural::verify;

namespace {

Architecture named(const std::string& name) { return *parse_architecture(name); }

RunResult run(bool success, double mean, int n_star, std::optional<double> adv = std::nullopt,
              bool failed_to_fit = false, double lr = 3e-4) {
    RunResult r;
    r.config.training.lr = lr;
    r.success = success;
    r.mean_accuracy = mean;
    r.n_star = n_star;
    r.adversarial_accuracy = adv;
    r.failed_to_fit = failed_to_fit;
    r.train_accuracy = failed_to_fit ? 0.8 : 1.0;
    return r;
}

}  // namespace

TEST_CASE("incomplete beta matches its closed forms", "[verdict]") {
    for (double x : {0.01, 0.2, 0.5, 0.73, 0.99}) {
        CHECK(incomplete_beta(x, 1, 1) == Approx(x).epsilon(1e-12));
        CHECK(incomplete_beta(x, 3, 1) == Approx(std::pow(x, 3)).epsilon(1e-12));
        CHECK(incomplete_beta(x, 1, 4) == Approx(1 - std::pow(1 - x, 4)).epsilon(1e-12));
        // Symmetry I_x(a, b) = 1 - I_{1-x}(b, a).
        CHECK(incomplete_beta(x, 2.5, 7) == Approx(1 - incomplete_beta(1 - x, 7, 2.5)).margin(1e-13));
    }
    CHECK(incomplete_beta(0.5, 6, 6) == Approx(0.5).epsilon(1e-12));
    CHECK(incomplete_beta(0, 2, 3) == 0);
    CHECK(incomplete_beta(1, 2, 3) == 1);
}

TEST_CASE("beta quantile inverts the incomplete beta", "[verdict]") {
    for (double p : {0.025, 0.3, 0.5, 0.975})
        for (auto [a, b] : {std::pair{1.0, 1.0}, {2.0, 9.0}, {10.0, 1.0}, {0.5, 0.5}})
            CHECK(incomplete_beta(beta_quantile(p, a, b), a, b) == Approx(p).margin(1e-10));
}

TEST_CASE("Clopper-Pearson interval: closed forms at 0/n and n/n, symmetry, published values", "[verdict]") {
    for (int n : {1, 3, 5, 10, 30}) {
        auto [lo0, hi0] = clopper_pearson(0, n);
        CHECK(lo0 == 0);
        CHECK(hi0 == Approx(1 - std::pow(0.025, 1.0 / n)).epsilon(1e-9));
        auto [lon, hin] = clopper_pearson(n, n);
        CHECK(lon == Approx(std::pow(0.025, 1.0 / n)).epsilon(1e-9));
        CHECK(hin == 1);
        for (int k = 0; k <= n; ++k) {  // k successes of n mirror n-k successes
            auto [lo, hi] = clopper_pearson(k, n);
            auto [mlo, mhi] = clopper_pearson(n - k, n);
            CHECK(lo == Approx(1 - mhi).margin(1e-9));
            CHECK(hi == Approx(1 - mlo).margin(1e-9));
            CHECK(lo <= static_cast<double>(k) / n);
            CHECK(hi >= static_cast<double>(k) / n);
        }
    }
    // 5/10: [0.187086, 0.812914]; 1/10: [0.002529, 0.445016] (e.g. R binom.test, statsmodels "beta").
    auto [lo5, hi5] = clopper_pearson(5, 10);
    CHECK(lo5 == Approx(0.187086).margin(1e-6));
    CHECK(hi5 == Approx(0.812914).margin(1e-6));
    auto [lo1, hi1] = clopper_pearson(1, 10);
    CHECK(lo1 == Approx(0.002529).margin(1e-6));
    CHECK(hi1 == Approx(0.445016).margin(1e-6));
    auto [lz, hz] = clopper_pearson(0, 0);
    CHECK(lz == 0);
    CHECK(hz == 1);
}

TEST_CASE("rule 1: every run failed_to_fit is inconclusive for a predicted recognizer or no prediction",
          "[verdict]") {
    const std::vector<RunResult> runs = {run(true, 1.0, 500, 1.0, true), run(false, 0.6, 40, std::nullopt, true)};
    for (auto p : {Expectation::Recognizes, Expectation::Unknown}) {
        const Verdict v = judge("L", named("global"), p, runs);
        CHECK(v.verdict == VerdictKind::Inconclusive);
        CHECK(v.rule == 1);
        CHECK(v.stats.fitted == 0);
        CHECK(v.stats.failed_to_fit == 2);
        CHECK(v.failed_to_fit_runs.size() == 2);
    }
    CHECK(judge("L", named("global"), Expectation::Recognizes, {}).verdict == VerdictKind::Inconclusive);
    CHECK(judge("L", named("global"), Expectation::Fails, {}).verdict == VerdictKind::Inconclusive);
}

TEST_CASE("rules 1a and 1b: a predicted failure that no run fits is confirmed only at the ceiling",
          "[verdict]") {
    const std::vector<RunResult> unfit = {run(false, 0.82, 40, 0.5, true), run(false, 0.81, 40, 0.5, true)};
    SECTION("the training ceiling is below the fit threshold: rule 1a, confirmed at the ceiling") {
        CellCeiling c;
        c.train = 0.827;  // Σ*a under a 2-layer local-2 model
        const Verdict v = judge("L", named("local-2"), Expectation::Fails, unfit, {}, c);
        CHECK(v.verdict == VerdictKind::Confirmed);
        CHECK(v.rule == 1);
        CHECK(v.rule_id == "1a");
        CHECK(v.mark == "at_the_ceiling");
        CHECK(v.reason.find("82.70%") != std::string::npos);
    }
    SECTION("the ceiling allows a fit: rule 1b, inconclusive, not fitted") {
        CellCeiling c;
        c.train = 0.9977;
        const Verdict v = judge("L", named("local-2"), Expectation::Fails, unfit, {}, c);
        CHECK(v.verdict == VerdictKind::Inconclusive);
        CHECK(v.rule_id == "1b");
        CHECK(v.mark == "not_fitted");
        CHECK(v.reason.find("a fit was possible") != std::string::npos);
    }
    SECTION("no ceiling (global, hybrid, or unknown): rule 1b") {
        for (const char* arch : {"global", "hybrid-2", "local-2"}) {
            CellCeiling c;
            c.note = "unknown";
            const Verdict v = judge("L", named(arch), Expectation::Fails, unfit, {}, c);
            CHECK(v.verdict == VerdictKind::Inconclusive);
            CHECK(v.rule_id == "1b");
            CHECK(v.mark == "not_fitted");
        }
    }
    SECTION("exactly at the threshold is not below it") {
        CellCeiling c;
        c.train = kFitThreshold;
        CHECK(judge("L", named("local-1"), Expectation::Fails, unfit, {}, c).rule_id == "1b");
    }
    SECTION("a predicted recognizer stays at rule 1 whatever the ceiling") {
        CellCeiling c;
        c.train = 0.5;
        const Verdict v = judge("L", named("local-1"), Expectation::Recognizes, unfit, {}, c);
        CHECK(v.verdict == VerdictKind::Inconclusive);
        CHECK(v.rule_id == "1");
    }
    SECTION("verdicts.json: no fitted run gives null accuracies, and the ceiling and mark are written") {
        CellCeiling c;
        c.train = 0.827;
        c.test = 0.8;
        const auto j = nlohmann::json::parse(verdict_to_json(judge("L", named("local-2"), Expectation::Fails, unfit, {}, c)));
        CHECK(j.at("mean_accuracy").is_null());
        CHECK(j.at("max_accuracy").is_null());
        CHECK(j.at("n_star_max").is_null());
        CHECK(j.at("rule_id") == "1a");
        CHECK(j.at("mark") == "at_the_ceiling");
        CHECK(j.at("ceiling").at("train").get<double>() == Approx(0.827));
        CHECK(j.at("ceiling").at("test_sample").is_null());
        const auto fitted = nlohmann::json::parse(
            verdict_to_json(judge("L", named("global"), Expectation::Recognizes, {run(true, 1.0, 500)})));
        CHECK(fitted.at("mean_accuracy").get<double>() == 1.0);
        CHECK(fitted.at("mark").is_null());
    }
}

TEST_CASE("a run above its ceiling beyond sampling error is named", "[verdict]") {
    CellCeiling c;
    c.train = 0.9898;  // (ab)* under a 2-layer local-4 model
    RunResult r = run(false, 0.9, 60);
    r.config.evaluation.fit_words = 1000;
    r.train_accuracy = 0.999;  // 999 of 1,000: the 99.9% lower bound 99.08% is above 98.98%
    CHECK(ceiling_violations(c, {r}, {"seed1"}).size() == 1);
    r.train_accuracy = 0.992;  // 992 of 1,000 (lower bound 97.9%) is within sampling error
    CHECK(ceiling_violations(c, {r}, {"seed1"}).empty());
    r.config.evaluation.fit_words = 100000;  // ... but not 99,200 of 100,000 (lower bound 99.11%)
    CHECK(ceiling_violations(c, {r}, {"seed1"}).size() == 1);
    // The exact ceiling of the run's own test words is compared exactly.
    CellCeiling t;
    t.test_sample = 0.9;
    RunResult u = run(false, 0.9, 60);
    u.per_length_accuracy = {{41, 0.9}};
    CHECK(ceiling_violations(t, {u}, {}).empty());
    u.mean_accuracy = 0.9001;
    const auto v = ceiling_violations(t, {u}, {"seed2"});
    REQUIRE(v.size() == 1);
    CHECK(v[0].run == "seed2");
    // judge carries them into the verdict.
    CHECK(judge("L", named("local-4"), Expectation::Fails, {u}, {"seed2"}, t).ceiling_violations.size() == 1);
}

TEST_CASE("published numbers: LC25's LSTM sd and the test distribution are read, and a bad one is refused",
          "[verdict][published]") {
    auto p = read_published(std::string(LTLKIT_SOURCE_DIR) + "/examples/lc25.published.tsv");
    REQUIRE(p.ok());
    CHECK(p->test_distribution == "lc25");
    const std::map<std::string, double> sd = {{"DYCK-(1,2)", 1.0}, {"DYCK-(1,1)", 17.3}, {"PT-2", 1.1},
                                              {"LT-1", 14.2},     {"PARITY", 0},        {"LDP-2", 0}};
    for (const auto& [lang, value] : sd) {
        const auto* v = p->find(lang, "lstm", "sd");
        REQUIRE(v);
        CHECK(v->value == Approx(value));
    }
    // Every LSTM row with a mean has an sd.
    for (const auto& v : p->values)
        if (v.arch == "lstm" && v.statistic == "mean") CHECK(p->find(v.language, "lstm", "sd"));
    auto lc26 = read_published(std::string(LTLKIT_SOURCE_DIR) + "/examples/lc26.published.tsv");
    REQUIRE(lc26.ok());
    CHECK(lc26->test_distribution.empty());
    auto bad = parse_published("# test-distribution: gaussian\nlanguage\tarchitecture\tstatistic\tvalue\tsource\n", "x.tsv");
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.error().line == 1);
}

TEST_CASE("rule 2: an unknown prediction gives evidence, also when the theory does not apply", "[verdict]") {
    const std::vector<RunResult> runs = {run(true, 1.0, 500), run(false, 0.7, 60)};
    const Verdict v = judge("L", named("local-2"), Expectation::Unknown, runs);
    CHECK(v.verdict == VerdictKind::Evidence);
    CHECK(v.rule == 2);
    CHECK(v.stats.successes == 1);
    // A learned positional encoding: predictions do not apply (docs/PROTOCOL.md "Models": NoPE only).
    auto pe = runs;
    for (auto& r : pe) r.config.model.pe = PositionalEncoding::Learned;
    const Verdict w = judge("L", named("global"), Expectation::Recognizes, pe);
    CHECK(w.verdict == VerdictKind::Evidence);
    CHECK(w.prediction == Expectation::Unknown);
    auto ns = runs;
    ns[0].config.model.strict = false;
    CHECK(judge("L", named("global"), Expectation::Fails, ns).verdict == VerdictKind::Evidence);
    CHECK(judge("L", named("lstm"), Expectation::Fails, runs).verdict == VerdictKind::Evidence);
}

TEST_CASE("rule 3: a predicted recognizer is confirmed by one successful fitted run", "[verdict]") {
    const std::vector<RunResult> runs = {run(false, 0.8, 60), run(true, 1.0, 500), run(false, 0.5, 40, {}, true)};
    const Verdict v = judge("L", named("local-1"), Expectation::Recognizes, runs);
    CHECK(v.verdict == VerdictKind::Confirmed);
    CHECK(v.rule == 3);
    CHECK(v.stats.runs == 3);
    CHECK(v.stats.fitted == 2);
    CHECK(v.stats.successes == 1);
    CHECK(v.stats.max_accuracy == Approx(1.0));
    CHECK(v.stats.mean_accuracy == Approx(0.9));
    CHECK(v.stats.std_accuracy == Approx(std::sqrt(0.02)));
    CHECK(v.stats.n_star_max == 500);
}

TEST_CASE("rule 4: a predicted recognizer with no successful run is not reproduced, with the best N*",
          "[verdict]") {
    // The failed_to_fit run claims success but is not judged.
    const std::vector<RunResult> runs = {run(false, 0.9, 120), run(false, 0.95, 230), run(true, 1.0, 500, {}, true)};
    const Verdict v = judge("L", named("global"), Expectation::Recognizes, runs);
    CHECK(v.verdict == VerdictKind::NotReproduced);
    CHECK(v.rule == 4);
    CHECK(v.stats.n_star_max == 230);
    CHECK(v.reason.find("230") != std::string::npos);
}

TEST_CASE("rule 5: a predicted failure that passes the random and the adversarial test is contradicted",
          "[verdict]") {
    const std::vector<RunResult> runs = {run(false, 0.7, 50, 0.5), run(true, 1.0, 500, 0.995)};
    const Verdict v = judge("L", named("global"), Expectation::Fails, runs, {"seed1-lr0.0003", "seed2-lr0.0003"});
    CHECK(v.verdict == VerdictKind::Contradicted);
    CHECK(v.rule == 5);
    CHECK(v.reason.find("seed2-lr0.0003") != std::string::npos);
    CHECK(*v.stats.adversarial_accuracy == Approx(0.995));
}

TEST_CASE("rule 6: a predicted failure is confirmed otherwise", "[verdict]") {
    SECTION("no run succeeds") {
        const Verdict v = judge("L", named("local-1"), Expectation::Fails, {run(false, 0.5, 40, 0.5)});
        CHECK(v.verdict == VerdictKind::Confirmed);
        CHECK(v.rule == 6);
    }
    SECTION("random test passed, adversarial set failed: the reason gives both numbers") {
        const Verdict v = judge("L", named("local-2"), Expectation::Fails, {run(true, 1.0, 500, 0.5)});
        CHECK(v.verdict == VerdictKind::Confirmed);
        CHECK(v.rule == 6);
        CHECK(v.reason.find("random 100.0%, adversarial 50.0%") == 0);
    }
    SECTION("adversarial passed but not the random test") {
        const Verdict v = judge("L", named("global"), Expectation::Fails, {run(false, 0.98, 80, 1.0)});
        CHECK(v.verdict == VerdictKind::Confirmed);
    }
    SECTION("the only passing run did not fit") {
        const Verdict v = judge("L", named("global"), Expectation::Fails, {run(true, 1.0, 500, 1.0, true), run(false, 0.6, 40, 0.5)});
        CHECK(v.verdict == VerdictKind::Confirmed);
        CHECK(v.failed_to_fit_runs.size() == 1);
    }
    SECTION("no adversarial set") {
        const Verdict v = judge("L", named("global"), Expectation::Fails, {run(true, 1.0, 500)});
        CHECK(v.verdict == VerdictKind::Confirmed);
        CHECK(v.reason.find("no adversarial set") != std::string::npos);
    }
}

TEST_CASE("per-configuration statistics group the runs by learning rate", "[verdict]") {
    const std::vector<RunResult> runs = {run(true, 1.0, 500, {}, false, 1e-4), run(false, 0.8, 90, {}, false, 1e-4),
                                         run(false, 0.6, 41, {}, false, 5e-4)};
    const Verdict v = judge("L", named("global"), Expectation::Recognizes, runs);
    REQUIRE(v.per_config.size() == 2);
    CHECK(v.per_config[0].lr == Approx(1e-4));
    CHECK(v.per_config[0].stats.successes == 1);
    CHECK(v.per_config[0].stats.fitted == 2);
    CHECK(v.per_config[0].stats.mean_accuracy == Approx(0.9));
    CHECK(v.per_config[1].stats.successes == 0);
    auto [lo, hi] = clopper_pearson(1, 2);
    CHECK(v.per_config[0].stats.success_interval.first == Approx(lo));
    CHECK(v.per_config[0].stats.success_interval.second == Approx(hi));
    const std::string j = verdict_to_json(v);
    for (const char* key : {"\"language\"", "\"arch\"", "\"prediction\"", "\"verdict\"", "\"runs\"", "\"successes\"",
                            "\"max_accuracy\"", "\"mean_accuracy\"", "\"adversarial_accuracy\"", "\"n_star_max\"",
                            "\"per_config\""})
        CHECK(j.find(key) != std::string::npos);
}
