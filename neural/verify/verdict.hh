// Verdicts per (language, architecture) from the runs' results (docs/PROTOCOL.md "Verdict"), and the
// per-configuration statistics (max, mean ± std, successes k/n with a Clopper–Pearson interval).
// Torch-free: works on RunResult values (neural/run.hh) only.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "neural/run.hh"

namespace ltlkit::neural::verify {

enum class Expectation { Recognizes, Fails, Unknown };  // the theory's prediction (docs/CLASSES.md §4)
std::string to_string(Expectation e);                   // "recognizes" | "fails" | "unknown"
Result<Expectation> expectation_from_string(const std::string& s);

// Regularized incomplete beta function I_x(a, b) (Numerical Recipes 3rd ed. §6.4: Lentz's
// continued fraction, with the symmetry I_x(a,b) = 1 - I_{1-x}(b,a) for fast convergence).
double incomplete_beta(double x, double a, double b);
// The p-quantile of Beta(a, b): bisection on I_x(a, b) = p (I is increasing in x).
double beta_quantile(double p, double a, double b);
// Exact (Clopper & Pearson 1934) two-sided interval for k successes out of n, at `confidence`:
// [B(α/2; k, n−k+1), B(1−α/2; k+1, n−k)], with 0 / 1 at k = 0 / k = n. n = 0 gives [0, 1].
std::pair<double, double> clopper_pearson(int k, int n, double confidence = 0.95);

// Statistics over a set of runs. Accuracies are the runs' mean accuracies over test lengths;
// only runs that fit count (failed_to_fit runs are counted in `failed_to_fit`).
struct RunStats {
    int runs = 0;           // all runs, including failed_to_fit
    int failed_to_fit = 0;
    int fitted = 0;         // the n of successes k/n
    int successes = 0;
    double max_accuracy = 0, mean_accuracy = 0, std_accuracy = 0;  // sample std (n−1); 0 for n ≤ 1
    std::pair<double, double> success_interval{0, 1};              // Clopper–Pearson 95%
    int n_star_max = 0;
    std::optional<double> adversarial_accuracy;       // max over fitted runs that have one
    std::optional<double> adversarial_mean_accuracy;  // mean over fitted runs that have one
    std::optional<double> boundary_accuracy;          // max over fitted runs that have one
};
RunStats run_stats(const std::vector<RunResult>& runs);

// One configuration = one learning rate (seeds vary) of one (language, architecture).
struct ConfigStats {
    double lr = 0;
    RunStats stats;
};

// The accuracy below which a run is failed_to_fit (docs/PROTOCOL.md "Training").
inline constexpr double kFitThreshold = 0.99;

// A cell's receptive-field ceilings (docs/PROTOCOL.md "Ceilings"): the exact best accuracy any
// model of the cell's architecture at the runs' depth can reach, whatever its weights. Known only
// for k-local NoPE strict-mask models (automata/ceiling.hh); nullopt otherwise (global, hybrid,
// LSTM, other encodings, or not computable), with the reason in `note`.
struct CellCeiling {
    std::optional<double> train;        // on the training distribution
    std::optional<double> test;         // on the test distribution, mean over the test lengths
    std::optional<double> test_sample;  // on the runs' own test words (exact; mean over lengths)
    std::string note;
};

// A run whose accuracy exceeds its ceiling beyond sampling error (a bug to investigate).
struct CeilingViolation {
    std::string run;    // its label
    std::string what;   // one line: which accuracy, the ceiling, the tolerance
};
// The violations of `runs` against `ceiling`: training accuracy (fresh sample of fit_words words)
// above the training ceiling where the lower end of its 99.9% Clopper–Pearson interval is; mean
// test accuracy above the exact ceiling of the runs' own test words (when known, compared
// exactly up to rounding), else above the test-distribution ceiling beyond the same interval.
std::vector<CeilingViolation> ceiling_violations(const CellCeiling& ceiling, const std::vector<RunResult>& runs,
                                                 const std::vector<std::string>& labels);

// The verdict of a cell (docs/PROTOCOL.md "Verdict"); `pending` before any run of it finished.
enum class VerdictKind { Pending, Inconclusive, Evidence, Confirmed, NotReproduced, Contradicted };
// "pending" | "inconclusive" | "evidence" | "confirmed" | "not_reproduced" | "contradicted"
std::string to_string(VerdictKind v);

struct Verdict {
    std::string language, arch;
    Expectation prediction = Expectation::Unknown;  // after the NoPE / strict-mask rule
    VerdictKind verdict = VerdictKind::Inconclusive;
    int rule = 0;         // the docs/PROTOCOL.md table row that decided (1..6)
    std::string rule_id;  // the row as written there: "1", "1a", "1b", "2", ..., "6"
    // Which kind of evidence a cell whose runs all failed to fit rests on: "at_the_ceiling" (rule
    // 1a), "not_fitted" (rule 1b, and rule 1 for a `recognizes` prediction); empty otherwise.
    std::string mark;
    std::string reason;   // one line a person can read
    CellCeiling ceiling;
    std::vector<CeilingViolation> ceiling_violations;
    RunStats stats;       // over all runs of the cell
    std::vector<ConfigStats> per_config;  // by learning rate, ascending
    std::vector<std::string> failed_to_fit_runs;  // labels of the runs not judged
};

// The rules of docs/PROTOCOL.md "Verdict" in order. A prediction the theory does not cover
// (positional encoding other than `none`, non-strict masks, the LSTM baseline) is treated as
// `unknown`. When every run failed to fit: rule 1 for `recognizes` and `unknown` (inconclusive);
// for `fails`, rule 1a (confirmed, *at the ceiling*) when the cell's training ceiling is below
// kFitThreshold — the architecture at this depth provably cannot fit, so the predicted failure
// shows on the training lengths already — else rule 1b (inconclusive, *not fitted*: a fit was
// possible, or the ceiling is unknown, and training did not find it).
// `labels` (optional, parallel to `runs`) name the runs in reasons, e.g. "seed1-lr0.003".
Verdict judge(const std::string& language, const Architecture& arch, Expectation prediction,
              const std::vector<RunResult>& runs, const std::vector<std::string>& labels = {},
              const CellCeiling& ceiling = {});

// {"language", "arch", "prediction", "verdict", "rule", "rule_id", "mark", "reason", "runs",
//  "fitted", "failed_to_fit", "successes", "success_interval", "max_accuracy", "mean_accuracy",
//  "std_accuracy", "adversarial_accuracy", "boundary_accuracy", "n_star_max", "per_config",
//  "ceiling": {"train", "test", "test_sample", "note"}, "ceiling_violations": [{"run", "what"}]};
// the accuracies over fitted runs are null when no run fit.
std::string verdict_to_json(const Verdict& v);

}  // namespace ltlkit::neural::verify
