#include "neural/verify/verdict.hh"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>

#include "neural/verify/profiles.hh"

namespace ltlkit::neural::verify {

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

// The Clopper–Pearson interval (two-sided, at `confidence`) of an accuracy measured on n words.
std::pair<double, double> interval(double accuracy, long n, double confidence) {
    if (n <= 0) return {0, 1};
    const int k = static_cast<int>(std::lround(accuracy * static_cast<double>(n)));
    return clopper_pearson(k, static_cast<int>(n), confidence);
}

// The theory (docs/CLASSES.md §4) speaks about strict masks without positional encoding, and about
// transformers only.
bool theory_applies(const Architecture& arch, const std::vector<RunResult>& runs) {
    if (!arch.is_transformer()) return false;
    for (const auto& r : runs) {
        const ModelConfig& m = r.config.model;
        if (m.pe != PositionalEncoding::None || !m.strict || !m.arch.is_transformer()) return false;
    }
    return true;
}

}  // namespace

std::vector<CeilingViolation> ceiling_violations(const CellCeiling& ceiling, const std::vector<RunResult>& runs,
                                                 const std::vector<std::string>& labels) {
    std::vector<CeilingViolation> out;
    // The lower end of a one-sided 99.9% interval for k right answers of n (Clopper–Pearson).
    auto lower = [](double accuracy, long n) { return interval(accuracy, n, 0.998).first; };
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

PairSetKind parse_pair_set_kind(const std::string& marking) {
    if (marking == "forced") return PairSetKind::Forced;
    if (marking == "informative") return PairSetKind::Informative;
    if (marking == "mixed") return PairSetKind::Mixed;
    return PairSetKind::Unmarked;
}

PairSetKind resolve(PairSetKind kind, const Architecture& arch) {
    if (kind != PairSetKind::Unmarked) return kind;
    return arch.eos_window() ? PairSetKind::Forced : PairSetKind::Informative;
}

namespace {

// The evidence kinds, in EvidenceKind's order (docs/PROTOCOL.md "Verdict").
constexpr EvidenceInfo kEvidence[] = {
    {EvidenceKind::None, "none", "no prediction", EvidenceGroup::NoEvidence, "", ""},
    {EvidenceKind::NotFitted, "not_fitted", "not fitted", EvidenceGroup::NoEvidence, "", ""},
    {EvidenceKind::Success, "success", "a fitted run succeeds and passes its controls", EvidenceGroup::Success, "", ""},
    {EvidenceKind::SuccessNoControls, "success_no_controls", "a fitted run succeeds (no control pairs)",
     EvidenceGroup::Success, "", ""},
    {EvidenceKind::ControlsFailed, "controls_failed", "runs pass the random test, not their controls",
     EvidenceGroup::NoEvidence, "c", "controls failed (rule 4): passes the random test, not its control pairs"},
    {EvidenceKind::NoSuccess, "no_success", "no fitted run succeeds", EvidenceGroup::NoEvidence, "", ""},
    {EvidenceKind::AtTheCeiling, "at_the_ceiling", "at the ceiling", EvidenceGroup::ByArchitecture, "†",
     "at the ceiling (rule 1a): no run fit, and no model of this depth can"},
    {EvidenceKind::ForcedPairs, "forced_pairs", "fails forced pairs only", EvidenceGroup::ByArchitecture, "‡",
     "by the architecture: fitted runs fail forced pairs only (rule 6)"},
    {EvidenceKind::LengthFailure, "length_failure", "fitted, fails longer words", EvidenceGroup::Observed, "", ""},
    {EvidenceKind::InformativePairs, "informative_pairs", "fails informative pairs", EvidenceGroup::Observed, "", ""},
    {EvidenceKind::FlatFit, "flat_fit", "fitted below 100%, flat across lengths", EvidenceGroup::NoEvidence, "~",
     "flat fit (rule 7): fitted below 100% and as accurate at every length, no evidence"},
    {EvidenceKind::Untested, "untested", "passes the random test, no adversarial set", EvidenceGroup::NoEvidence, "?",
     "untested (rule 7): passes the random test, no adversarial set"},
    {EvidenceKind::ProbeFailure, "probe_failure", "passes both tests, errs on the family past the test lengths",
     EvidenceGroup::Observed, "", ""},
    {EvidenceKind::PassesAdversarial, "passes_adversarial", "passes the adversarial set", EvidenceGroup::Contradiction, "", ""},
};
static_assert(std::size(kEvidence) == static_cast<std::size_t>(EvidenceKind::PassesAdversarial) + 1);

// The number of test words of the lengths LO..HI of a run (its label counts, else per_length each).
long words_in(const RunResult& r, int lo, int hi) {
    long words = 0;
    for (auto it = r.per_length_labels.lower_bound(lo); it != r.per_length_labels.end() && it->first <= hi; ++it)
        words += it->second.accepted + it->second.rejected;
    if (words == 0)
        for (auto it = r.per_length_accuracy.lower_bound(lo); it != r.per_length_accuracy.end() && it->first <= hi; ++it)
            words += r.config.evaluation.per_length;
    return words;
}

// A fitted run that fails the random test degrades with length when it was exact on its fresh
// training words, or when some length bin is below its training accuracy beyond sampling error
// (the bin's 99.9% upper bound under the training accuracy's 99.9% lower bound). Otherwise it is
// as accurate on long words as on short ones: a flat, sub-100% fit, not a length failure.
bool degrades_with_length(const RunResult& r) {
    const long fit = r.config.evaluation.fit_words;
    if (fit > 0 && r.train_accuracy >= 1 - 0.5 / static_cast<double>(fit)) return true;
    const double train_low = interval(r.train_accuracy, fit, 0.999).first;
    for (const auto& [bin, acc] : r.bin_accuracy) {
        const auto dash = bin.find('-');
        if (dash == std::string::npos) continue;
        const int lo = std::atoi(bin.c_str()), hi = std::atoi(bin.c_str() + dash + 1);
        if (interval(acc, words_in(r, lo, hi), 0.999).second < train_low) return true;
    }
    return false;
}

// The evidence kinds a predicted failure's fitted runs show, strongest first (rule 6 takes the first).
constexpr EvidenceKind kFailureOrder[] = {EvidenceKind::LengthFailure, EvidenceKind::InformativePairs,
                                          EvidenceKind::ProbeFailure, EvidenceKind::ForcedPairs, EvidenceKind::FlatFit,
                                          EvidenceKind::Untested};

}  // namespace

const EvidenceInfo& evidence_info(EvidenceKind k) { return kEvidence[static_cast<std::size_t>(k)]; }
std::string to_string(EvidenceKind k) { return evidence_info(k).id; }

std::vector<EvidenceKind> marked_evidence() {
    std::vector<EvidenceKind> out;
    for (const auto& e : kEvidence)
        if (*e.mark != '\0') out.push_back(e.kind);
    return out;
}

std::string evidence_legend(bool markdown) {
    std::string out = markdown ? "| mark | evidence | legend |\n|---|---|---|\n" : "";
    for (EvidenceKind k : marked_evidence()) {
        const EvidenceInfo& e = evidence_info(k);
        if (markdown)
            out.append("| `").append(e.mark).append("` | `").append(e.id).append("` | ").append(e.legend).append(" |\n");
        else
            out.append(e.mark).append("\t").append(e.id).append("\t").append(e.legend).append("\n");
    }
    return out;
}
std::string to_string(EvidenceGroup g) {
    switch (g) {
        case EvidenceGroup::Success: return "success";
        case EvidenceGroup::ByArchitecture: return "by_architecture";
        case EvidenceGroup::Observed: return "observed";
        case EvidenceGroup::Contradiction: return "contradiction";
        case EvidenceGroup::NoEvidence: return "none";
    }
    return "none";
}

EvidenceKind failure_kind(const RunResult& r, PairSetKind adversarial) {
    if (r.success) {
        if (!r.adversarial_accuracy) return EvidenceKind::Untested;
        if (passes_both_tests(r))
            return r.probe && r.probe->first_wrong_r ? EvidenceKind::ProbeFailure : EvidenceKind::PassesAdversarial;
        // A mixed set may fail on its forced pairs only: counted as the architecture's.
        return adversarial == PairSetKind::Informative ? EvidenceKind::InformativePairs : EvidenceKind::ForcedPairs;
    }
    return degrades_with_length(r) ? EvidenceKind::LengthFailure : EvidenceKind::FlatFit;
}

Verdict judge(const std::string& language, const Architecture& arch, Prediction prediction,
              const std::vector<RunResult>& runs, const std::vector<std::string>& labels,
              const CellCeiling& ceiling, PairSetKind adversarial) {
    Verdict v;
    v.language = language;
    v.arch = to_string(arch);
    v.prediction = theory_applies(arch, runs) ? prediction : Prediction::Unknown;
    v.stats = run_stats(runs);
    auto label_of = [&](std::size_t i) {
        return i < labels.size() ? labels[i] : "seed " + std::to_string(runs[i].seed);
    };
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
    auto set = [&](int rule, const char* id, VerdictKind kind, EvidenceKind evidence) {
        v.rule = rule;
        v.rule_id = id;
        v.verdict = kind;
        v.evidence = evidence;
        if (evidence == EvidenceKind::NotFitted || evidence == EvidenceKind::AtTheCeiling ||
            evidence == EvidenceKind::FlatFit || evidence == EvidenceKind::Untested)
            v.mark = to_string(evidence);
    };

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
        if (v.prediction != Prediction::Fails) {
            set(1, "1", VerdictKind::Inconclusive, EvidenceKind::NotFitted);
            v.reason = every;
            return v;
        }
        if (ceiling.train && *ceiling.train < kFitThreshold) {  // Rule 1a
            set(1, "1a", VerdictKind::Confirmed, EvidenceKind::AtTheCeiling);
            v.reason = every + ", and no model of this architecture at this depth can: its ceiling there is " +
                       fmt("%.2f%%", 100 * *ceiling.train) + " < " + pct(kFitThreshold) +
                       ", so the predicted failure shows on the training lengths already";
            return v;
        }
        set(1, "1b", VerdictKind::Inconclusive, EvidenceKind::NotFitted);  // Rule 1b
        v.reason = every + "; " +
                   (ceiling.train ? "its ceiling there is " + fmt("%.2f%%", 100 * *ceiling.train) + ", so a fit was possible"
                                  : "its ceiling is unknown" + (ceiling.note.empty() ? std::string() : " (" + ceiling.note + ")")) +
                   ": no evidence either way";
        return v;
    }
    // Rule 2: no prediction to test.
    if (v.prediction == Prediction::Unknown) {
        set(2, "2", VerdictKind::Evidence, EvidenceKind::None);
        v.reason = (prediction == Prediction::Unknown ? "no prediction" : "the theory does not cover this setup") +
                   std::string("; ") + ratio + " runs succeed, best mean accuracy " + pct(s.max_accuracy);
        return v;
    }
    if (v.prediction == Prediction::Recognizes) {
        // Rule 3: a run that succeeds on the random test and passes its control pairs (docs/PROTOCOL.md
        // "Evaluation": the pairs of the language's failing architectures; where the cell has none,
        // its boundary pairs, words one edit apart with different labels).
        auto control_of = [](const RunResult& r) {
            return r.adversarial_accuracy ? r.adversarial_accuracy : r.boundary_accuracy;
        };
        auto controls_of = [](const RunResult& r) {
            return r.adversarial_accuracy ? "control pairs" : "boundary pairs (the cell has no control pairs)";
        };
        std::optional<std::size_t> passed, random_only;
        double best_control = 0;
        for (std::size_t i = 0; i < runs.size(); ++i) {
            const RunResult& r = runs[i];
            if (r.failed_to_fit || !r.success) continue;
            const std::optional<double> control = control_of(r);
            if (!control || *control >= kPairSetPass) {
                if (!passed || (control && !control_of(runs[*passed]))) passed = i;  // prefer a measured one
            } else {
                best_control = std::max(best_control, *control);
                if (!random_only) random_only = i;
            }
        }
        if (passed) {
            const std::optional<double> control = control_of(runs[*passed]);
            set(3, "3", VerdictKind::Confirmed, control ? EvidenceKind::Success : EvidenceKind::SuccessNoControls);
            v.reason = ratio + " runs succeed on the random test; " +
                       (control ? "run " + label_of(*passed) + " also scores " + pct(*control) + " on its " +
                                      controls_of(runs[*passed])
                                : std::string("no control or boundary pairs were evaluated"));
        } else if (random_only) {
            set(4, "4", VerdictKind::NotReproduced, EvidenceKind::ControlsFailed);
            v.reason = ratio + " runs succeed on the random test, but none passes its " + controls_of(runs[*random_only]) +
                       " (best " +
                       pct(best_control) + " < " + pct(kPairSetPass) + "): the model found a shortcut the pairs expose";
        } else {
            set(4, "4", VerdictKind::NotReproduced, EvidenceKind::NoSuccess);
            v.reason = "no run succeeds (0/" + std::to_string(s.fitted) + "); best N* = " +
                       std::to_string(s.n_star_max) + ", best mean accuracy " + pct(s.max_accuracy);
        }
        return v;
    }
    // Rules 5-7: what each fitted run of a predicted failure shows.
    std::map<EvidenceKind, std::size_t> first_run;  // kind -> the first run showing it
    for (std::size_t i = 0; i < runs.size(); ++i)
        if (!runs[i].failed_to_fit) first_run.emplace(failure_kind(runs[i], resolve(adversarial, arch)), i);
    if (auto it = first_run.find(EvidenceKind::PassesAdversarial); it != first_run.end()) {  // Rule 5
        set(5, "5", VerdictKind::Contradicted, EvidenceKind::PassesAdversarial);
        const RunResult& r = runs[it->second];
        v.reason = "run " + label_of(it->second) + " succeeds on the random test and scores " +
                   pct(*r.adversarial_accuracy) + " on the adversarial set" +
                   (r.probe ? ", and answers its witness family right at every probed length (" +
                                  std::to_string(r.probe->min_length) + " to " + std::to_string(r.probe->max_length) + ")"
                            : std::string(" (not probed past the test lengths)")) +
                   "; investigate";
        return v;
    }
    EvidenceKind kind = EvidenceKind::FlatFit;
    for (EvidenceKind k : kFailureOrder)
        if (first_run.count(k)) {
            kind = k;
            break;
        }
    const RunResult& r = runs[first_run.at(kind)];
    const std::string who = "run " + label_of(first_run.at(kind));
    switch (kind) {
        case EvidenceKind::LengthFailure:
            set(6, "6", VerdictKind::Confirmed, kind);
            v.reason = who + " fits its training lengths (" + fmt("%.2f%%", 100 * r.train_accuracy) +
                       " on fresh words) and fails longer ones (worst length bin " + pct(r.min_bin_accuracy) +
                       ", N* " + std::to_string(r.n_star) + "); " + ratio + " runs succeed";
            break;
        case EvidenceKind::InformativePairs:
        case EvidenceKind::ForcedPairs:
            set(6, "6", VerdictKind::Confirmed, kind);
            v.reason = "random " + pct(r.mean_accuracy) + ", adversarial " + pct(*r.adversarial_accuracy) + ": " +
                       ratio + " fitted runs pass the random test, the adversarial set exposes them" +
                       (kind == EvidenceKind::ForcedPairs
                            ? " (its pairs are forced: the architecture cannot tell them apart at any weights)"
                            : "");
            break;
        case EvidenceKind::ProbeFailure:
            set(6, "6", VerdictKind::Confirmed, kind);
            v.reason = who + " passes the random test and scores " + pct(*r.adversarial_accuracy) +
                       " on the adversarial set, but errs on its witness family past the test lengths: first at r = " +
                       std::to_string(*r.probe->first_wrong_r) + " (length " + std::to_string(*r.probe->first_wrong_length) +
                       "; probed " + std::to_string(r.probe->min_length) + " to " + std::to_string(r.probe->max_length) +
                       "); " + ratio + " runs succeed";
            break;
        case EvidenceKind::Untested:
            set(7, "7", VerdictKind::Inconclusive, kind);
            v.reason = who + " passes the random test and there is no adversarial set to expose the failure";
            break;
        default:
            set(7, "7", VerdictKind::Inconclusive, EvidenceKind::FlatFit);
            v.reason = "every fitted run fails as it fits: " + who + " has " + fmt("%.2f%%", 100 * r.train_accuracy) +
                       " on fresh training words and " + pct(r.min_bin_accuracy) +
                       " in its worst test bin, within sampling error: a sub-100% fit, not a length failure";
            break;
    }
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
    j["evidence"] = to_string(v.evidence);
    j["evidence_group"] = to_string(evidence_info(v.evidence).group);
    j["real_evidence"] = v.real_evidence();
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
