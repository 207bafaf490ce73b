// Verdict rules (docs/PROTOCOL.md table, every row, 1a and 1b with and without a ceiling) on synthetic run results, and the Clopper–Pearson
// interval against closed forms and published values. Torch-free.
#include <catch2/catch.hpp>

#include <cmath>

#include <map>
#include <random>

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
    for (auto p : {Prediction::Recognizes, Prediction::Unknown}) {
        const Verdict v = judge("L", named("global"), p, runs);
        CHECK(v.verdict == VerdictKind::Inconclusive);
        CHECK(v.rule == 1);
        CHECK(v.stats.fitted == 0);
        CHECK(v.stats.failed_to_fit == 2);
        CHECK(v.failed_to_fit_runs.size() == 2);
    }
    CHECK(judge("L", named("global"), Prediction::Recognizes, {}).verdict == VerdictKind::Inconclusive);
    CHECK(judge("L", named("global"), Prediction::Fails, {}).verdict == VerdictKind::Inconclusive);
}

TEST_CASE("rules 1a and 1b: a predicted failure that no run fits is confirmed only at the ceiling",
          "[verdict]") {
    const std::vector<RunResult> unfit = {run(false, 0.82, 40, 0.5, true), run(false, 0.81, 40, 0.5, true)};
    SECTION("the training ceiling is below the fit threshold: rule 1a, confirmed at the ceiling") {
        CellCeiling c;
        c.train = 0.827;  // Σ*a under a 2-layer local-2 model
        const Verdict v = judge("L", named("local-2"), Prediction::Fails, unfit, {}, c);
        CHECK(v.verdict == VerdictKind::Confirmed);
        CHECK(v.rule == 1);
        CHECK(v.rule_id == "1a");
        CHECK(v.mark == "at_the_ceiling");
        CHECK(v.reason.find("82.70%") != std::string::npos);
    }
    SECTION("the ceiling allows a fit: rule 1b, inconclusive, not fitted") {
        CellCeiling c;
        c.train = 0.9977;
        const Verdict v = judge("L", named("local-2"), Prediction::Fails, unfit, {}, c);
        CHECK(v.verdict == VerdictKind::Inconclusive);
        CHECK(v.rule_id == "1b");
        CHECK(v.mark == "not_fitted");
        CHECK(v.reason.find("a fit was possible") != std::string::npos);
    }
    SECTION("no ceiling (global, hybrid, or unknown): rule 1b") {
        for (const char* arch : {"global", "hybrid-2", "local-2"}) {
            CellCeiling c;
            c.note = "unknown";
            const Verdict v = judge("L", named(arch), Prediction::Fails, unfit, {}, c);
            CHECK(v.verdict == VerdictKind::Inconclusive);
            CHECK(v.rule_id == "1b");
            CHECK(v.mark == "not_fitted");
        }
    }
    SECTION("exactly at the threshold is not below it") {
        CellCeiling c;
        c.train = kFitThreshold;
        CHECK(judge("L", named("local-1"), Prediction::Fails, unfit, {}, c).rule_id == "1b");
    }
    SECTION("a predicted recognizer stays at rule 1 whatever the ceiling") {
        CellCeiling c;
        c.train = 0.5;
        const Verdict v = judge("L", named("local-1"), Prediction::Recognizes, unfit, {}, c);
        CHECK(v.verdict == VerdictKind::Inconclusive);
        CHECK(v.rule_id == "1");
    }
    SECTION("verdicts.json: no fitted run gives null accuracies, and the ceiling and mark are written") {
        CellCeiling c;
        c.train = 0.827;
        c.test = 0.8;
        const auto j = nlohmann::json::parse(verdict_to_json(judge("L", named("local-2"), Prediction::Fails, unfit, {}, c)));
        CHECK(j.at("mean_accuracy").is_null());
        CHECK(j.at("max_accuracy").is_null());
        CHECK(j.at("n_star_max").is_null());
        CHECK(j.at("rule_id") == "1a");
        CHECK(j.at("mark") == "at_the_ceiling");
        CHECK(j.at("ceiling").at("train").get<double>() == Approx(0.827));
        CHECK(j.at("ceiling").at("test_sample").is_null());
        const auto fitted = nlohmann::json::parse(
            verdict_to_json(judge("L", named("global"), Prediction::Recognizes, {run(true, 1.0, 500)})));
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
    CHECK(judge("L", named("local-4"), Prediction::Fails, {u}, {"seed2"}, t).ceiling_violations.size() == 1);
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
    const Verdict v = judge("L", named("local-2"), Prediction::Unknown, runs);
    CHECK(v.verdict == VerdictKind::Evidence);
    CHECK(v.rule == 2);
    CHECK(v.stats.successes == 1);
    // A learned positional encoding: predictions do not apply (docs/PROTOCOL.md "Models": NoPE only).
    auto pe = runs;
    for (auto& r : pe) r.config.model.pe = PositionalEncoding::Learned;
    const Verdict w = judge("L", named("global"), Prediction::Recognizes, pe);
    CHECK(w.verdict == VerdictKind::Evidence);
    CHECK(w.prediction == Prediction::Unknown);
    auto ns = runs;
    ns[0].config.model.strict = false;
    CHECK(judge("L", named("global"), Prediction::Fails, ns).verdict == VerdictKind::Evidence);
    CHECK(judge("L", named("lstm"), Prediction::Fails, runs).verdict == VerdictKind::Evidence);
}

TEST_CASE("rule 3: a predicted recognizer is confirmed by one successful fitted run", "[verdict]") {
    const std::vector<RunResult> runs = {run(false, 0.8, 60), run(true, 1.0, 500), run(false, 0.5, 40, {}, true)};
    const Verdict v = judge("L", named("local-1"), Prediction::Recognizes, runs);
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
    const Verdict v = judge("L", named("global"), Prediction::Recognizes, runs);
    CHECK(v.verdict == VerdictKind::NotReproduced);
    CHECK(v.rule == 4);
    CHECK(v.stats.n_star_max == 230);
    CHECK(v.reason.find("230") != std::string::npos);
}

TEST_CASE("rule 5: a predicted failure that passes the random and the adversarial test is contradicted",
          "[verdict]") {
    const std::vector<RunResult> runs = {run(false, 0.7, 50, 0.5), run(true, 1.0, 500, 0.995)};
    const Verdict v = judge("L", named("global"), Prediction::Fails, runs, {"seed1-lr0.0003", "seed2-lr0.0003"});
    CHECK(v.verdict == VerdictKind::Contradicted);
    CHECK(v.rule == 5);
    CHECK(v.reason.find("seed2-lr0.0003") != std::string::npos);
    CHECK(*v.stats.adversarial_accuracy == Approx(0.995));
}

TEST_CASE("rule 6: a predicted failure is confirmed by a fitted run that fails where the theory says, with its kind",
          "[verdict]") {
    SECTION("no run succeeds, fitted exactly: an observed length failure") {
        const Verdict v = judge("L", named("local-1"), Prediction::Fails, {run(false, 0.5, 40, 0.5)});
        CHECK(v.verdict == VerdictKind::Confirmed);
        CHECK(v.rule == 6);
        CHECK(v.evidence == EvidenceKind::LengthFailure);
        CHECK(evidence_info(v.evidence).group == EvidenceGroup::Observed);
    }
    SECTION("random test passed, forced pairs failed: by the architecture; the reason gives both numbers") {
        const Verdict v = judge("L", named("local-2"), Prediction::Fails, {run(true, 1.0, 500, 0.5)});
        CHECK(v.verdict == VerdictKind::Confirmed);
        CHECK(v.rule == 6);
        CHECK(v.evidence == EvidenceKind::ForcedPairs);  // unmarked local: forced
        CHECK(evidence_info(v.evidence).group == EvidenceGroup::ByArchitecture);
        CHECK(v.reason.find("random 100.0%, adversarial 50.0%") == 0);
        CHECK(judge("L", named("local-2"), Prediction::Fails, {run(true, 1.0, 500, 0.5)}, {}, {}, PairSetKind::Mixed)
                  .evidence == EvidenceKind::ForcedPairs);
    }
    SECTION("random test passed, informative pairs failed: observed") {
        const Verdict v = judge("L", named("global"), Prediction::Fails, {run(true, 1.0, 500, 0.5)});
        CHECK(v.evidence == EvidenceKind::InformativePairs);  // unmarked global: informative
        CHECK(judge("L", named("local-2"), Prediction::Fails, {run(true, 1.0, 500, 0.5)}, {}, {},
                    PairSetKind::Informative)
                  .evidence == EvidenceKind::InformativePairs);
    }
    SECTION("adversarial passed but not the random test, fitted exactly") {
        const Verdict v = judge("L", named("global"), Prediction::Fails, {run(false, 0.98, 80, 1.0)});
        CHECK(v.verdict == VerdictKind::Confirmed);
        CHECK(v.evidence == EvidenceKind::LengthFailure);
    }
    SECTION("the only passing run did not fit") {
        const Verdict v = judge("L", named("global"), Prediction::Fails, {run(true, 1.0, 500, 1.0, true), run(false, 0.6, 40, 0.5)});
        CHECK(v.verdict == VerdictKind::Confirmed);
        CHECK(v.failed_to_fit_runs.size() == 1);
    }
    SECTION("the strongest kind of the runs decides: a length failure over forced pairs") {
        const Verdict v = judge("L", named("local-2"), Prediction::Fails, {run(true, 1.0, 500, 0.5), run(false, 0.7, 45, 0.5)});
        CHECK(v.evidence == EvidenceKind::LengthFailure);
        CHECK(v.reason.find("seed") != std::string::npos);
    }
}

namespace {

// A run fitted at `train` on 4,000 fresh words, test lengths 41..200 at 32 words each, with the
// given accuracy per length bin (41-100, 101-200), so not a success.
RunResult binned(double train, double bin1, double bin2) {
    RunResult r = run(false, (bin1 * 60 + bin2 * 100) / 160, 40);
    r.train_accuracy = train;
    r.config.evaluation.fit_words = 4000;
    r.config.evaluation.per_length = 32;
    for (int n = 41; n <= 200; ++n) r.per_length_accuracy[n] = n <= 100 ? bin1 : bin2;
    r.bin_accuracy = {{"41-100", bin1}, {"101-200", bin2}};
    r.min_bin_accuracy = std::min(bin1, bin2);
    return r;
}

}  // namespace

TEST_CASE("rule 7: a flat sub-100% fit and an untested pass are inconclusive, not confirmations", "[verdict]") {
    SECTION("fitted at 99.5%, 99.3% and 99.2% on the bins: within sampling error, flat") {
        const RunResult r = binned(0.995, 0.993, 0.992);
        CHECK(failure_kind(r, PairSetKind::Informative) == EvidenceKind::FlatFit);
        const Verdict v = judge("L", named("global"), Prediction::Fails, {r});
        CHECK(v.verdict == VerdictKind::Inconclusive);
        CHECK(v.rule_id == "7");
        CHECK(v.mark == "flat_fit");
        CHECK_FALSE(v.real_evidence());
    }
    SECTION("fitted at 99.5%, 90% on the long bin: degrades with length") {
        const RunResult r = binned(0.995, 0.993, 0.90);
        CHECK(failure_kind(r, PairSetKind::Informative) == EvidenceKind::LengthFailure);
        CHECK(judge("L", named("global"), Prediction::Fails, {r}).verdict == VerdictKind::Confirmed);
    }
    SECTION("fitted exactly: any failure of the random test is a length failure") {
        CHECK(failure_kind(binned(1.0, 0.999, 0.998), PairSetKind::Informative) == EvidenceKind::LengthFailure);
    }
    SECTION("a flat fit and a forced-pair failure: the forced pairs confirm") {
        const Verdict v = judge("L", named("local-2"), Prediction::Fails, {binned(0.995, 0.993, 0.992), run(true, 1.0, 500, 0.5)});
        CHECK(v.verdict == VerdictKind::Confirmed);
        CHECK(v.evidence == EvidenceKind::ForcedPairs);
    }
    SECTION("a run passes the random test and there is no adversarial set") {
        const Verdict v = judge("L", named("global"), Prediction::Fails, {run(true, 1.0, 500)});
        CHECK(v.verdict == VerdictKind::Inconclusive);
        CHECK(v.evidence == EvidenceKind::Untested);
        CHECK(v.reason.find("no adversarial set") != std::string::npos);
    }
}

TEST_CASE("rule 3 needs the controls: a recognizer that passes the random test but not its control pairs is not confirmed",
          "[verdict]") {
    SECTION("controls passed") {
        const Verdict v = judge("L", named("global"), Prediction::Recognizes, {run(true, 1.0, 500, 1.0)});
        CHECK(v.verdict == VerdictKind::Confirmed);
        CHECK(v.evidence == EvidenceKind::Success);
        CHECK(v.reason.find("control pairs") != std::string::npos);
    }
    SECTION("controls failed (first-a under global at 59.4%)") {
        const Verdict v = judge("L", named("global"), Prediction::Recognizes, {run(true, 1.0, 200, 0.594)});
        CHECK(v.verdict == VerdictKind::NotReproduced);
        CHECK(v.rule == 4);
        CHECK(v.evidence == EvidenceKind::ControlsFailed);
        CHECK(v.reason.find("59.4%") != std::string::npos);
    }
    SECTION("one run of two passes its controls") {
        const Verdict v = judge("L", named("global"), Prediction::Recognizes,
                                {run(true, 1.0, 200, 0.594), run(true, 1.0, 500, 0.995)}, {"seed1", "seed2"});
        CHECK(v.verdict == VerdictKind::Confirmed);
        CHECK(v.reason.find("seed2") != std::string::npos);
    }
    SECTION("no control pairs: the boundary pairs stand in") {
        RunResult r = run(true, 1.0, 500);
        r.boundary_accuracy = 0.8;
        CHECK(judge("L", named("local-1"), Prediction::Recognizes, {r}).evidence == EvidenceKind::ControlsFailed);
        r.boundary_accuracy = 1.0;
        const Verdict v = judge("L", named("local-1"), Prediction::Recognizes, {r});
        CHECK(v.evidence == EvidenceKind::Success);
        CHECK(v.reason.find("boundary pairs") != std::string::npos);
        r.boundary_accuracy.reset();
        CHECK(judge("L", named("local-1"), Prediction::Recognizes, {r}).evidence == EvidenceKind::SuccessNoControls);
    }
}

TEST_CASE("evidence kinds agree with the verdicts on random cells: confirmed exactly when the group is evidence",
          "[verdict]") {
    std::mt19937 rng(7), probe_rng(8);
    std::uniform_real_distribution<double> u(0, 1);
    const char* archs[] = {"global", "local-1", "local-2", "hybrid-1"};
    const Prediction preds[] = {Prediction::Recognizes, Prediction::Fails, Prediction::Unknown};
    std::map<EvidenceKind, int> seen;
    for (int trial = 0; trial < 3000; ++trial) {
        std::vector<RunResult> runs;
        const int n = 1 + static_cast<int>(u(rng) * 3);
        for (int i = 0; i < n; ++i) {
            RunResult r = binned(u(rng) < 0.3 ? 1.0 : 0.985 + 0.015 * u(rng), 0.9 + 0.1 * u(rng), 0.5 + 0.5 * u(rng));
            r.failed_to_fit = r.train_accuracy < kFitThreshold;
            r.success = u(rng) < 0.5;
            if (u(rng) < 0.7) r.adversarial_accuracy = u(rng) < 0.3 ? 1.0 : u(rng);
            if (u(rng) < 0.5) r.boundary_accuracy = u(rng) < 0.5 ? 1.0 : u(rng);
            if (u(probe_rng) < 0.6) {  // a probe past the test lengths, erring or not (its own stream)
                r.probe = ProbeOutcome{12, 201, 4000, std::nullopt, std::nullopt};
                if (u(probe_rng) < 0.8) {
                    r.probe->first_wrong_r = 90;
                    r.probe->first_wrong_length = 300;
                }
            }
            runs.push_back(r);
        }
        CellCeiling c;
        if (u(rng) < 0.5) c.train = 0.9 + 0.1 * u(rng);
        const auto kind = static_cast<PairSetKind>(static_cast<int>(u(rng) * 4));
        const Verdict v = judge("L", named(archs[trial % 4]), preds[trial % 3], runs, {}, c, kind);
        ++seen[v.evidence];
        const EvidenceGroup g = evidence_info(v.evidence).group;
        const bool evidence = g == EvidenceGroup::Success || g == EvidenceGroup::ByArchitecture || g == EvidenceGroup::Observed;
        CHECK(v.real_evidence() == evidence);
        CHECK((v.verdict == VerdictKind::Contradicted) == (g == EvidenceGroup::Contradiction));
        // A success needs a prediction of recognizes; a failure kind needs one of fails.
        if (g == EvidenceGroup::Success) CHECK(v.prediction == Prediction::Recognizes);
        if (g == EvidenceGroup::ByArchitecture || g == EvidenceGroup::Observed) CHECK(v.prediction == Prediction::Fails);
        // The kind's id round-trips through verdicts.json.
        const auto j = nlohmann::json::parse(verdict_to_json(v));
        CHECK(j.at("evidence") == to_string(v.evidence));
        CHECK(j.at("real_evidence") == v.real_evidence());
    }
    // Every kind but `none` (rule 2 and pending) is reached by these cells.
    for (EvidenceKind k : {EvidenceKind::NotFitted, EvidenceKind::Success, EvidenceKind::ControlsFailed,
                           EvidenceKind::NoSuccess, EvidenceKind::AtTheCeiling, EvidenceKind::ForcedPairs,
                           EvidenceKind::LengthFailure, EvidenceKind::InformativePairs, EvidenceKind::FlatFit,
                           EvidenceKind::Untested, EvidenceKind::PassesAdversarial, EvidenceKind::SuccessNoControls,
                           EvidenceKind::ProbeFailure})
        CHECK(seen[k] > 0);
}

TEST_CASE("per-configuration statistics group the runs by learning rate", "[verdict]") {
    const std::vector<RunResult> runs = {run(true, 1.0, 500, {}, false, 1e-4), run(false, 0.8, 90, {}, false, 1e-4),
                                         run(false, 0.6, 41, {}, false, 5e-4)};
    const Verdict v = judge("L", named("global"), Prediction::Recognizes, runs);
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
