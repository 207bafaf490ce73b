#include "neural/verify/verdict.hh"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>

#include "neural/verify/profiles.hh"

namespace ltlkit::neural::verify {

std::string to_string(Expectation e) {
    switch (e) {
        case Expectation::Recognizes: return "recognizes";
        case Expectation::Fails: return "fails";
        case Expectation::Unknown: return "unknown";
    }
    return "unknown";
}

std::string to_string(VerdictKind v) {
    switch (v) {
        case VerdictKind::Pending: return "pending";
        case VerdictKind::Inconclusive: return "inconclusive";
        case VerdictKind::Evidence: return "evidence";
        case VerdictKind::Confirmed: return "confirmed";
        case VerdictKind::NotReproduced: return "not_reproduced";
        case VerdictKind::Contradicted: return "contradicted";
    }
    return "inconclusive";
}

Result<Expectation> expectation_from_string(const std::string& s) {
    if (s == "recognizes") return Expectation::Recognizes;
    if (s == "fails") return Expectation::Fails;
    if (s == "unknown") return Expectation::Unknown;
    return make_error("unknown prediction '" + s + "' (expected recognizes, fails or unknown)");
}

namespace {

// Continued fraction for I_x(a, b) by the modified Lentz method (Numerical Recipes 3rd ed. §6.4,
// `betacf`); converges fast for x < (a+1)/(a+b+2).
double beta_continued_fraction(double a, double b, double x) {
    constexpr int kMaxIterations = 10000;
    constexpr double kEps = 1e-15, kTiny = 1e-300;
    const double qab = a + b, qap = a + 1, qam = a - 1;
    double c = 1, d = 1 - qab * x / qap;
    if (std::fabs(d) < kTiny) d = kTiny;
    d = 1 / d;
    double h = d;
    for (int m = 1; m <= kMaxIterations; ++m) {
        const int m2 = 2 * m;
        double aa = m * (b - m) * x / ((qam + m2) * (a + m2));
        d = 1 + aa * d;
        if (std::fabs(d) < kTiny) d = kTiny;
        c = 1 + aa / c;
        if (std::fabs(c) < kTiny) c = kTiny;
        d = 1 / d;
        h *= d * c;
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
        d = 1 + aa * d;
        if (std::fabs(d) < kTiny) d = kTiny;
        c = 1 + aa / c;
        if (std::fabs(c) < kTiny) c = kTiny;
        d = 1 / d;
        const double del = d * c;
        h *= del;
        if (std::fabs(del - 1) < kEps) break;
    }
    return h;
}

}  // namespace

// Numerical Recipes 3rd ed. §6.4 (`betai`).
double incomplete_beta(double x, double a, double b) {
    if (x <= 0) return 0;
    if (x >= 1) return 1;
    const double log_front = std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) +
                             a * std::log(x) + b * std::log1p(-x);
    const double front = std::exp(log_front);
    if (x < (a + 1) / (a + b + 2)) return front * beta_continued_fraction(a, b, x) / a;
    return 1 - front * beta_continued_fraction(b, a, 1 - x) / b;
}

// Bisection on the monotone map x -> I_x(a, b) (to 1e-15, at most 200 halvings).
double beta_quantile(double p, double a, double b) {
    if (p <= 0) return 0;
    if (p >= 1) return 1;
    double lo = 0, hi = 1;
    for (int i = 0; i < 200 && hi - lo > 1e-15; ++i) {
        const double mid = 0.5 * (lo + hi);
        if (incomplete_beta(mid, a, b) < p)
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}

// Clopper & Pearson (1934), "The use of confidence or fiducial limits illustrated in the case of
// the binomial", Biometrika 26(4): the bounds are beta quantiles.
std::pair<double, double> clopper_pearson(int k, int n, double confidence) {
    if (n <= 0) return {0, 1};
    k = std::clamp(k, 0, n);
    const double alpha = 1 - confidence;
    const double lower = k == 0 ? 0.0 : beta_quantile(alpha / 2, k, n - k + 1);
    const double upper = k == n ? 1.0 : beta_quantile(1 - alpha / 2, k + 1, n - k);
    return {lower, upper};
}

RunStats run_stats(const std::vector<RunResult>& runs) {
    RunStats s;
    s.runs = static_cast<int>(runs.size());
    std::vector<double> acc;
    double adv_sum = 0;
    int adv_n = 0;
    bool first_nstar = true;
    for (const auto& r : runs) {
        if (r.failed_to_fit) {
            ++s.failed_to_fit;
            continue;
        }
        ++s.fitted;
        if (r.success) ++s.successes;
        acc.push_back(r.mean_accuracy);
        if (first_nstar || r.n_star > s.n_star_max) s.n_star_max = r.n_star;
        first_nstar = false;
        if (r.adversarial_accuracy) {
            s.adversarial_accuracy = std::max(s.adversarial_accuracy.value_or(0.0), *r.adversarial_accuracy);
            adv_sum += *r.adversarial_accuracy;
            ++adv_n;
        }
        if (r.boundary_accuracy)
            s.boundary_accuracy = std::max(s.boundary_accuracy.value_or(0.0), *r.boundary_accuracy);
    }
    if (adv_n > 0) s.adversarial_mean_accuracy = adv_sum / adv_n;
    if (!acc.empty()) {
        s.max_accuracy = *std::max_element(acc.begin(), acc.end());
        double sum = 0;
        for (double a : acc) sum += a;
        s.mean_accuracy = sum / static_cast<double>(acc.size());
        if (acc.size() > 1) {
            double ss = 0;
            for (double a : acc) ss += (a - s.mean_accuracy) * (a - s.mean_accuracy);
            s.std_accuracy = std::sqrt(ss / static_cast<double>(acc.size() - 1));
        }
    }
    s.success_interval = clopper_pearson(s.successes, s.fitted);
    return s;
}

namespace {

std::string fmt(const char* f, double x) {
    char buf[64];
    std::snprintf(buf, sizeof buf, f, x);
    return buf;
}

std::string pct(double x) { return fmt("%.1f%%", 100 * x); }

// The theory (docs/CLASSES.md §4) speaks about strict masks without positional encoding, and about
// transformers only.
bool theory_applies(const Architecture& arch, const std::vector<RunResult>& runs) {
    if (arch.kind == Architecture::Kind::Lstm) return false;
    for (const auto& r : runs) {
        const ModelConfig& m = r.config.model;
        if (m.pe != PositionalEncoding::None || !m.strict || m.arch.kind == Architecture::Kind::Lstm) return false;
    }
    return true;
}

}  // namespace

std::vector<CeilingViolation> ceiling_violations(const CellCeiling& ceiling, const std::vector<RunResult>& runs,
                                                 const std::vector<std::string>& labels) {
    std::vector<CeilingViolation> out;
    // The lower end of a one-sided 99.9% interval for k right answers of n (Clopper–Pearson).
    auto lower = [](double accuracy, long n) {
        if (n <= 0) return 0.0;
        const int k = static_cast<int>(std::lround(accuracy * static_cast<double>(n)));
        return clopper_pearson(k, static_cast<int>(n), 0.998).first;
    };
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const RunResult& r = runs[i];
        const std::string label = i < labels.size() ? labels[i] : "seed " + std::to_string(r.seed);
        if (ceiling.train) {
            const double lo = lower(r.train_accuracy, r.config.evaluation.fit_words);
            if (lo > *ceiling.train)
                out.push_back({label, "training accuracy " + fmt("%.2f%%", 100 * r.train_accuracy) + " on " +
                                          std::to_string(r.config.evaluation.fit_words) +
                                          " fresh words is above the training ceiling " +
                                          fmt("%.2f%%", 100 * *ceiling.train) + " (99.9% lower bound " +
                                          fmt("%.2f%%", 100 * lo) + ")"});
        }
        if (r.per_length_accuracy.empty()) continue;
        if (ceiling.test_sample) {
            if (r.mean_accuracy > *ceiling.test_sample + 1e-9)
                out.push_back({label, "mean test accuracy " + fmt("%.3f%%", 100 * r.mean_accuracy) +
                                          " is above the exact ceiling of its own test words " +
                                          fmt("%.3f%%", 100 * *ceiling.test_sample)});
        } else if (ceiling.test) {
            long words = 0;
            for (const auto& [n, c] : r.per_length_labels) words += c.accepted + c.rejected;
            if (words == 0)
                words = static_cast<long>(r.per_length_accuracy.size()) * r.config.evaluation.per_length;
            const double lo = lower(r.mean_accuracy, words);
            if (lo > *ceiling.test)
                out.push_back({label, "mean test accuracy " + fmt("%.2f%%", 100 * r.mean_accuracy) +
                                          " is above the test ceiling " + fmt("%.2f%%", 100 * *ceiling.test) +
                                          " (99.9% lower bound " + fmt("%.2f%%", 100 * lo) + ")"});
        }
    }
    return out;
}

Verdict judge(const std::string& language, const Architecture& arch, Expectation prediction,
              const std::vector<RunResult>& runs, const std::vector<std::string>& labels,
              const CellCeiling& ceiling) {
    Verdict v;
    v.language = language;
    v.arch = to_string(arch);
    v.prediction = theory_applies(arch, runs) ? prediction : Expectation::Unknown;
    v.stats = run_stats(runs);
    std::map<double, std::vector<RunResult>> by_lr;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        by_lr[runs[i].config.training.lr].push_back(runs[i]);
        if (runs[i].failed_to_fit)
            v.failed_to_fit_runs.push_back(i < labels.size() ? labels[i]
                                                             : "seed " + std::to_string(runs[i].seed) +
                                                                   " lr " + format_lr(runs[i].config.training.lr));
    }
    for (const auto& [lr, rs] : by_lr) v.per_config.push_back({lr, run_stats(rs)});
    const RunStats& s = v.stats;
    const std::string ratio = std::to_string(s.successes) + "/" + std::to_string(s.fitted);

    v.ceiling = ceiling;
    v.ceiling_violations = ceiling_violations(ceiling, runs, labels);
    // Rules 1, 1a, 1b: no run fit its training distribution.
    if (s.fitted == 0) {
        v.rule = 1;
        v.rule_id = "1";
        v.verdict = VerdictKind::Inconclusive;
        if (s.runs == 0) {
            v.reason = "no finished run";
            return v;
        }
        double best_train = 0;
        for (const auto& r : runs) best_train = std::max(best_train, r.train_accuracy);
        const std::string every = "every run (" + std::to_string(s.runs) +
                                  ") failed to fit its training distribution (best training accuracy " +
                                  pct(best_train) + ")";
        if (v.prediction != Expectation::Fails) {
            v.mark = "not_fitted";
            v.reason = every;
            return v;
        }
        if (ceiling.train && *ceiling.train < kFitThreshold) {  // Rule 1a
            v.rule_id = "1a";
            v.mark = "at_the_ceiling";
            v.verdict = VerdictKind::Confirmed;
            v.reason = every + ", and no model of this architecture at this depth can: its ceiling there is " +
                       fmt("%.2f%%", 100 * *ceiling.train) + " < " + pct(kFitThreshold) +
                       ", so the predicted failure shows on the training lengths already";
            return v;
        }
        v.rule_id = "1b";  // Rule 1b
        v.mark = "not_fitted";
        v.reason = every + "; " +
                   (ceiling.train ? "its ceiling there is " + fmt("%.2f%%", 100 * *ceiling.train) + ", so a fit was possible"
                                  : "its ceiling is unknown" + (ceiling.note.empty() ? std::string() : " (" + ceiling.note + ")")) +
                   ": no evidence either way";
        return v;
    }
    // Rule 2: no prediction to test.
    if (v.prediction == Expectation::Unknown) {
        v.rule = 2;
        v.rule_id = "2";
        v.verdict = VerdictKind::Evidence;
        v.reason = (prediction == Expectation::Unknown ? "no prediction" : "the theory does not cover this setup") +
                   std::string("; ") + ratio + " runs succeed, best mean accuracy " + pct(s.max_accuracy);
        return v;
    }
    if (v.prediction == Expectation::Recognizes) {
        if (s.successes > 0) {  // Rule 3
            v.rule = 3;
            v.rule_id = "3";
            v.verdict = VerdictKind::Confirmed;
            v.reason = ratio + " runs succeed";
        } else {  // Rule 4
            v.rule = 4;
            v.rule_id = "4";
            v.verdict = VerdictKind::NotReproduced;
            v.reason = "no run succeeds (0/" + std::to_string(s.fitted) + "); best N* = " +
                       std::to_string(s.n_star_max) + ", best mean accuracy " + pct(s.max_accuracy);
        }
        return v;
    }
    // Rule 5: a predicted failure that a run passes on the random test AND on the adversarial set.
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const RunResult& r = runs[i];
        if (!r.failed_to_fit && r.success && r.adversarial_accuracy && *r.adversarial_accuracy >= 0.99) {
            v.rule = 5;
            v.rule_id = "5";
            v.verdict = VerdictKind::Contradicted;
            v.reason = "run " +
                       (i < labels.size() ? labels[i] : "seed " + std::to_string(r.seed)) +
                       " succeeds on the random test and scores " + pct(*r.adversarial_accuracy) +
                       " on the adversarial set; investigate";
            return v;
        }
    }
    // Rule 6.
    v.rule = 6;
    v.rule_id = "6";
    v.verdict = VerdictKind::Confirmed;
    if (s.successes == 0)
        v.reason = "no run succeeds (0/" + std::to_string(s.fitted) + "); best mean accuracy " +
                   pct(s.max_accuracy);
    else if (s.adversarial_accuracy) {
        // The succeeding runs' numbers: what the failure rests on, e.g. "random 100.0%, adversarial 50.0%".
        double best_random = 0, best_adv = 0;
        for (const auto& r : runs)
            if (!r.failed_to_fit && r.success) {
                best_random = std::max(best_random, r.mean_accuracy);
                best_adv = std::max(best_adv, r.adversarial_accuracy.value_or(0.0));
            }
        v.reason = "random " + pct(best_random) + ", adversarial " + pct(best_adv) + ": " + ratio +
                   " fitted runs pass the random test, the adversarial set exposes them";
    } else
        v.reason = ratio + " runs pass the random test and no adversarial set was available";
    return v;
}

namespace {

nlohmann::json opt(const std::optional<double>& x) {
    return x ? nlohmann::json(*x) : nlohmann::json(nullptr);
}

// The accuracies over fitted runs are null when no run fit (0.0 would read as a measurement).
nlohmann::json stats_json(const RunStats& s) {
    auto over_fitted = [&](double x) { return s.fitted > 0 ? nlohmann::json(x) : nlohmann::json(nullptr); };
    return {{"runs", s.runs},
            {"fitted", s.fitted},
            {"failed_to_fit", s.failed_to_fit},
            {"successes", s.successes},
            {"success_interval", {s.success_interval.first, s.success_interval.second}},
            {"max_accuracy", over_fitted(s.max_accuracy)},
            {"mean_accuracy", over_fitted(s.mean_accuracy)},
            {"std_accuracy", over_fitted(s.std_accuracy)},
            {"adversarial_accuracy", opt(s.adversarial_accuracy)},
            {"adversarial_mean_accuracy", opt(s.adversarial_mean_accuracy)},
            {"boundary_accuracy", opt(s.boundary_accuracy)},
            {"n_star_max", s.fitted > 0 ? nlohmann::json(s.n_star_max) : nlohmann::json(nullptr)}};
}

}  // namespace

std::string verdict_to_json(const Verdict& v) {
    nlohmann::json j = stats_json(v.stats);
    j["language"] = v.language;
    j["arch"] = v.arch;
    j["prediction"] = to_string(v.prediction);
    j["verdict"] = to_string(v.verdict);
    j["rule"] = v.rule;
    j["rule_id"] = v.rule_id;
    j["mark"] = v.mark.empty() ? nlohmann::json(nullptr) : nlohmann::json(v.mark);
    j["reason"] = v.reason;
    j["ceiling"] = {{"train", opt(v.ceiling.train)},
                    {"test", opt(v.ceiling.test)},
                    {"test_sample", opt(v.ceiling.test_sample)},
                    {"note", v.ceiling.note}};
    nlohmann::json viol = nlohmann::json::array();
    for (const auto& c : v.ceiling_violations) viol.push_back({{"run", c.run}, {"what", c.what}});
    j["ceiling_violations"] = viol;
    j["failed_to_fit_runs"] = v.failed_to_fit_runs;
    nlohmann::json pc = nlohmann::json::array();
    for (const auto& c : v.per_config) {
        nlohmann::json cj = stats_json(c.stats);
        cj["lr"] = c.lr;
        pc.push_back(cj);
    }
    j["per_config"] = pc;
    return j.dump();
}

}  // namespace ltlkit::neural::verify
