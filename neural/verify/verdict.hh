// Verdicts per (language, architecture) from the runs' results (PROTOCOL.md "Verdict"), and the
// per-configuration statistics (max, mean ± std, successes k/n with a Clopper–Pearson interval).
// Torch-free: works on RunResult values (neural/run.hh) only.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "neural/run.hh"

namespace ltlkit::neural::verify {

enum class Expectation { Recognizes, Fails, Unknown };  // the theory's prediction (SPEC §7)
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

// The verdict of a cell (PROTOCOL.md "Verdict"); `pending` before any run of it finished.
enum class VerdictKind { Pending, Inconclusive, Evidence, Confirmed, NotReproduced, Contradicted };
// "pending" | "inconclusive" | "evidence" | "confirmed" | "not_reproduced" | "contradicted"
std::string to_string(VerdictKind v);

struct Verdict {
    std::string language, arch;
    Expectation prediction = Expectation::Unknown;  // after the NoPE / strict-mask rule
    VerdictKind verdict = VerdictKind::Inconclusive;
    int rule = 0;         // the PROTOCOL.md table row that decided (1..6)
    std::string reason;   // one line a person can read
    RunStats stats;       // over all runs of the cell
    std::vector<ConfigStats> per_config;  // by learning rate, ascending
    std::vector<std::string> failed_to_fit_runs;  // labels of the runs not judged
};

// The PROTOCOL.md rules in order. A prediction the theory does not cover (positional encoding
// other than `none`, non-strict masks, the LSTM baseline) is treated as `unknown`. One refinement
// of PROTOCOL.md's table: when the prediction is `fails` and every run failed to fit, the failure
// shows already on the training lengths, so the verdict is `confirmed` (rule 6, with that reason)
// instead of `inconclusive`; rule 1 is unchanged for `recognizes` and `unknown`.
// `labels` (optional, parallel to `runs`) name the runs in reasons, e.g. "seed1-lr0.003".
Verdict judge(const std::string& language, const Architecture& arch, Expectation prediction,
              const std::vector<RunResult>& runs, const std::vector<std::string>& labels = {});

// {"language", "arch", "prediction", "verdict", "rule", "reason", "runs", "fitted",
//  "failed_to_fit", "successes", "success_interval", "max_accuracy", "mean_accuracy",
//  "std_accuracy", "adversarial_accuracy", "boundary_accuracy", "n_star_max", "per_config"}.
std::string verdict_to_json(const Verdict& v);

}  // namespace ltlkit::neural::verify
