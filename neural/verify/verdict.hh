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

// The theory's prediction (docs/CLASSES.md §4): the library's type (automata/architecture.hh),
// with its to_string and parse_prediction.
using automata::Prediction;
using automata::parse_prediction;

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

// The accuracy below which a run is failed_to_fit (docs/PROTOCOL.md "Training"): the one that
// neural/eval.cc applies (neural/run.hh).
using neural::kFitThreshold;

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

// What a cell's adversarial set is (docs/PROTOCOL.md "Evaluation"): every pair forced (the
// architecture maps both words to one vector at any weights), none forced, or some. Whether a run
// had a set at all is its own (RunResult::adversarial_accuracy).
enum class PairSetKind { Unmarked, Forced, Informative, Mixed };
// From the plan's marking ("forced" | "informative" | "mixed"; "" in a plan written before the
// marking: Unmarked).
PairSetKind parse_pair_set_kind(const std::string& marking);
// Unmarked resolved: Forced for a local architecture (every local-k pair of a witness family is
// forced), Informative otherwise.
PairSetKind resolve(PairSetKind kind, const Architecture& arch);

// What a verdict rests on (docs/PROTOCOL.md "Verdict", the evidence kinds). One table: the name
// written in verdicts.json, the phrase of the report's tables, and the group it belongs to.
enum class EvidenceKind {
    None,                // pending, or no prediction to test (rule 2)
    NotFitted,           // every run failed to fit and nothing follows (rules 1, 1b)
    Success,             // a run succeeds on the random test and passes its control pairs (rule 3)
    SuccessNoControls,   // a run succeeds on the random test; the cell had no control pairs (rule 3)
    ControlsFailed,      // runs pass the random test but not their control pairs (rule 4)
    NoSuccess,           // no fitted run passes the random test (rule 4)
    AtTheCeiling,        // no model of the architecture at this depth can fit (rule 1a)
    ForcedPairs,         // fitted runs pass the random test and fail forced pairs only (rule 6)
    LengthFailure,       // a run fitted exactly (or degrading with length) fails longer words (rule 6)
    InformativePairs,    // a run passes the random test and fails informative pairs (rule 6)
    FlatFit,             // fitted below 100% and as (in)accurate at every length: no evidence (rule 7)
    Untested,            // a run passes the random test and there is no adversarial set (rule 7)
    ProbeFailure,        // a run passes both tests and errs on the witness family past the test lengths (rule 6)
    PassesAdversarial,   // a run passes the random test and the adversarial set (rule 5)
};
// How a kind counts: a success, a failure that follows from the architecture without training,
// a failure observed on trained models, or no evidence.
enum class EvidenceGroup { Success, ByArchitecture, Observed, Contradiction, NoEvidence };
struct EvidenceInfo {
    EvidenceKind kind;
    const char* id;      // verdicts.json "evidence": "success", "at_the_ceiling", ...
    const char* phrase;  // the report's tables
    EvidenceGroup group;
    // The summary table's mark after a verdict ("†", "‡", ...; "" for none) and its legend line,
    // printed only for the marks that appear (report_json.cc render_summary).
    const char* mark;
    const char* legend;
};
const EvidenceInfo& evidence_info(EvidenceKind k);
// The kinds with a summary mark, in EvidenceKind's order: the order of the summary's legend.
std::vector<EvidenceKind> marked_evidence();
// Every mark and its legend (`ltlkit report --legend [--markdown]`; docs/PROTOCOL.md "Verdict" lists
// this table, tests/cli/doc_truths.sh compares): "MARK<TAB>id<TAB>legend" lines, or a Markdown table.
std::string evidence_legend(bool markdown);
std::string to_string(EvidenceKind k);
std::string to_string(EvidenceGroup g);  // "success" | "by_architecture" | "observed" | "contradiction" | "none"

// The threshold of "passes a pair set" (the adversarial set of rule 5, the control pairs of rule 3).
inline constexpr double kPairSetPass = 0.99;

// A run that succeeds on the random test and passes its adversarial set (kPairSetPass): what no run of
// a cell predicted to fail may do (rule 5, unless the probe past the test lengths finds the failure),
// so the condition under which verify probes such a run (probe.hh needs_probe).
inline bool passes_both_tests(const RunResult& r) {
    return r.success && r.adversarial_accuracy && *r.adversarial_accuracy >= kPairSetPass;
}

struct Verdict {
    std::string language, arch;
    Prediction prediction = Prediction::Unknown;  // after the NoPE / strict-mask rule
    VerdictKind verdict = VerdictKind::Inconclusive;
    int rule = 0;         // the docs/PROTOCOL.md table row that decided (1..6)
    std::string rule_id;  // the row as written there: "1", "1a", "1b", "2", ..., "7"
    // Which kind of evidence a cell whose runs all failed to fit rests on: "at_the_ceiling" (rule
    // 1a), "not_fitted" (rule 1b, and rule 1 for a `recognizes` prediction); "flat_fit" or
    // "untested" (rule 7); empty otherwise. The same as `evidence` for those kinds.
    std::string mark;
    EvidenceKind evidence = EvidenceKind::None;
    // A confirmed verdict: the only ones that count as real evidence (docs/PROTOCOL.md "Verdict").
    bool real_evidence() const { return verdict == VerdictKind::Confirmed; }
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
// `adversarial` says what the cell's adversarial set is (for a predicted recognizer: its control
// pairs): a failure on forced pairs follows from the architecture, one on informative pairs is
// observed (rule 6). A predicted recognizer is confirmed only by a run that passes its controls too.
Verdict judge(const std::string& language, const Architecture& arch, Prediction prediction,
              const std::vector<RunResult>& runs, const std::vector<std::string>& labels = {},
              const CellCeiling& ceiling = {}, PairSetKind adversarial = PairSetKind::Unmarked);

// How one fitted run of a cell predicted to fail fails (docs/PROTOCOL.md "Verdict", rules 5-7):
// PassesAdversarial, ProbeFailure (it passes both tests and its probe, RunResult::probe, errs),
// ForcedPairs, InformativePairs, Untested, LengthFailure or FlatFit
// (`adversarial` resolved: not Unmarked).
EvidenceKind failure_kind(const RunResult& r, PairSetKind adversarial);

// {"language", "arch", "prediction", "verdict", "rule", "rule_id", "mark", "reason", "runs",
//  "fitted", "failed_to_fit", "successes", "success_interval", "max_accuracy", "mean_accuracy",
//  "std_accuracy", "adversarial_accuracy", "boundary_accuracy", "n_star_max", "per_config",
//  "ceiling": {"train", "test", "test_sample", "note"}, "ceiling_violations": [{"run", "what"}]};
// the accuracies over fitted runs are null when no run fit.
std::string verdict_to_json(const Verdict& v);

}  // namespace ltlkit::neural::verify
