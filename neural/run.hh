// The neural verifier's public API (docs/PROTOCOL.md): configure, train, checkpoint/resume and evaluate
// one recognizer run. Torch-free header (pimpl in the .cc files), so the CLI and the verifier do not
// pay the LibTorch compile cost.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "automata/architecture.hh"
#include "automata/dataset.hh"
#include "automata/dfa.hh"
#include "base/error.hh"
#include "neural/pairs.hh"

namespace ltlkit::neural {

// The settings of one run, in four parts that are compared, hashed and stored each as a whole.
// Saved in each checkpoint and in run.json and result.json, as one flat JSON object.

// Where a transformer learns positions: nowhere (NoPE), a learned absolute table, the sinusoidal
// table of Vaswani et al. 2017, or rotary embeddings inside attention (Su et al. 2021).
enum class PositionalEncoding { None, Learned, Sinusoidal, Rope };
std::string to_string(PositionalEncoding pe);  // "none" | "learned" | "sinusoidal" | "rope"
Result<PositionalEncoding> parse_positional_encoding(const std::string& name);

// The recognizer's architecture (docs/PROTOCOL.md "Models"): the library's value type
// (automata/architecture.hh), the one the theory predicts for.
using automata::Architecture;
using automata::HeadLayout;
using automata::HybridMode;
using automata::parse_architecture;

// How a run's success is judged from its evaluation (docs/PROTOCOL.md "Evaluation"). The rules'
// thresholds and their descriptions are defined here once: neural/eval.cc applies them, and
// `train --help`, `verify --list-profiles` and the docs (checked by tests/cli/doc_truths.sh) say them.
enum class SuccessRule {
    Exact,   // accuracy == 1.0 at every test length
    Bins99,  // every bin's mean accuracy >= kBinSuccess (profiles with small samples: first, quick, demo)
};
std::string to_string(SuccessRule rule);  // "exact" | "bins99"
Result<SuccessRule> parse_success_rule(const std::string& name);
// What the rule asks, in words: "accuracy 1.0 at every test length, no test word wrong" | "mean
// accuracy >= 0.99 in every bin of test lengths 1-100, 101-200, ...". Both also need a fitted run.
std::string describe(SuccessRule rule);

// A run below this accuracy on fresh training-distribution words is failed_to_fit (docs/PROTOCOL.md
// "Training", "Fit check").
inline constexpr double kFitThreshold = 0.99;
// Bins99: the least mean accuracy of every bin of test lengths (1-100, 101-200, ...; eval.cc).
inline constexpr double kBinSuccess = 0.99;
// The fit check's sample: the protocol asks for at least this many fresh words (EvaluationConfig::
// fit_words; every listed verify profile keeps it, tests/cli/doc_truths.sh checks).
inline constexpr int kMinFitWords = 4000;

// Where a run trains: Auto is CUDA when a CUDA device is available, else the CPU.
enum class Device { Auto, Cpu, Cuda };
std::string to_string(Device device);  // "auto" | "cpu" | "cuda"
Result<Device> parse_device(const std::string& name);

// What the recognizer is: the architecture and its sizes.
struct ModelConfig {
    Architecture arch;               // global by default
    int layers = 5;
    int d_model = 64;
    int heads = 8;
    int d_ff = 256;                  // feed-forward width
    PositionalEncoding pe = PositionalEncoding::None;
    bool strict = true;              // strict masks (j < i); false: non-strict (j <= i)
    bool pre_ln = false;             // post-LN by default
    bool hybrid_by_layer = false;    // hybrid: alternate whole layers (local first) instead of heads
    int lstm_hidden = 256;
    int max_positions = 0;           // learned PE rows (0: derived from the lengths, +1 for EOS)
    bool operator==(const ModelConfig&) const = default;
};
// The head groups per layer of the model `m` describes: its architecture's layout for its layers,
// heads and hybrid mode. What the recognizer builds (model.cc), the memory estimate counts
// (memory.cc) and run.json records ("layout", read by Python's recognizer). Inline: memory.cc is
// compiled without the rest of neural/ (tests/test_memory.cc).
inline HeadLayout head_layout(const ModelConfig& m) {
    return m.arch.head_layout(m.layers, m.heads, m.hybrid_by_layer ? HybridMode::Layers : HybridMode::Heads);
}

// How it is trained (docs/PROTOCOL.md "Training").
struct TrainingConfig {
    int steps = 20000;
    int batch = 128;
    double lr = 3e-4;
    double grad_clip = 1.0;
    std::uint64_t seed = 1;
    int train_min = 1, train_max = 40;
    // Training until the fit (off when fit_check_every is 0): every fit_check_every steps, the
    // accuracy on fit_check_words fresh words of the training distribution (drawn with their own
    // seed, so the trajectory is that of a fixed-length run); once it is >= fit_target, training
    // goes on fit_extra_steps more steps and stops. `steps` is then the budget.
    int fit_check_every = 0;
    int fit_check_words = 2000;
    double fit_target = 0.99;
    int fit_extra_steps = 0;
    bool operator==(const TrainingConfig&) const = default;
};

// Which words a sampled test draws at each length (docs/PROTOCOL.md "Evaluation"):
//   Uniform: half accepted, half rejected, each uniform among the words of that length and label;
//   Lc25:    LC25's negative samplers (automata/dataset.hh lc25_test_sample): rejected words are
//            near misses of accepted ones (one symbol changed), and per language the rules of LC25
//            (exactly one occurrence for LT-1/LT-2, even lengths only for Dyck).
enum class TestDistribution { Uniform, Lc25 };
std::string to_string(TestDistribution d);  // "uniform" | "lc25"
Result<TestDistribution> parse_test_distribution(const std::string& name);

// How the trained model is judged (docs/PROTOCOL.md "Evaluation").
struct EvaluationConfig {
    int test_min = 41, test_max = 500;
    int per_length = 512;
    // Fresh training-distribution words for the failed_to_fit check: docs/PROTOCOL.md asks for at
    // least kMinFitWords (with 1,000, a 98.98% ceiling "fit" at 99.0-99.6% by sampling error alone).
    int fit_words = kMinFitWords;
    SuccessRule success_rule = SuccessRule::Exact;
    TestDistribution test_distribution = TestDistribution::Uniform;
    bool operator==(const EvaluationConfig&) const = default;
};

// Where and how often: changes neither the trained model nor its results (no identity holds it).
struct RuntimeConfig {
    int threads = 1;
    Device device = Device::Auto;
    int checkpoint_every = 500;      // steps between checkpoints (and at the end)
    int log_every = 100;             // steps between progress lines (0: silent)
    bool operator==(const RuntimeConfig&) const = default;
};

// Every setting of one run, by part: config.model.layers, config.training.lr, ...
struct Config {
    ModelConfig model;
    TrainingConfig training;
    EvaluationConfig evaluation;
    RuntimeConfig runtime;
    bool operator==(const Config&) const = default;
};

// A labelled word set used in evaluation; pair ids are kept for boundary/adversarial sets.
struct LabelledWord {
    automata::Word word;
    bool label = false;
    long pair = -1;
};

struct EvalSets {
    std::vector<LabelledWord> test;         // empty: sampled uniformly per length from the DFA
    std::vector<LabelledWord> boundary;     // optional
    std::vector<LabelledWord> adversarial;  // optional (from the classifier's certificates)
    // What each adversarial pair tests, by pair id (verify marks them control, forced or
    // informative); a pair not listed is PairKind::Adversarial. Derived from the words, the
    // architecture and the prediction, so in no identity.
    std::map<long, PairKind> adversarial_kinds;
    // Training words (a dataset's train split). Empty: training samples uniformly from the DFA.
    // Used by train_and_evaluate only; lengths outside train_min..train_max are ignored.
    std::vector<LabelledWord> train;
    // A dataset's validation split: the validation words of metrics.jsonl when training on `train`
    // (without a dataset, fresh sampled words); in no identity and no result.
    std::vector<LabelledWord> validation;
};

// The sets of a dataset read with automata::read_dataset: train, validation, test, boundary and
// adversarial-<arch> (empty when the dataset has no such split).
EvalSets eval_sets_from_dataset(const automata::Dataset& ds, const Architecture& arch);
// The smallest and largest word length of a split (false when the split is missing or empty).
bool split_length_range(const automata::Dataset& ds, const std::string& split, int& lo, int& hi);

// What a stored run is bound to: the language and the complete configuration and data that
// produced it. Two runs are interchangeable only when their identities are equal; every reuse
// (resume from a checkpoint, a finished result, a report, a merge of shards) compares them whole.
//   training   = SHA-256 of {canonical minimal DFA (alphabet included), the model and training
//                parts of Config, the training words when a dataset's train split is used};
//                `steps` is left out, so a run resumed with more steps continues its checkpoint.
//   evaluation = SHA-256 of {training, steps, the evaluation part of Config, the test, boundary
//                and adversarial sets (or "sampled" when the test set is drawn from the DFA)}.
// The runtime part (threads, device, checkpoint_every, log_every) changes neither and is left out.
struct RunIdentity {
    std::string dfa;         // SHA-256 of the canonical DFA JSON
    std::string data;        // SHA-256 of the evaluation sets
    std::string training;
    std::string evaluation;
    bool operator==(const RunIdentity&) const = default;
};
RunIdentity run_identity(const automata::Dfa& dfa, const Config& config, const EvalSets& sets);
// The data part alone, and run_identity with it given: a caller that identifies many runs over the
// same evaluation sets (verify: every seed and learning rate of an architecture) hashes them once.
std::string data_identity(const EvalSets& sets);
RunIdentity run_identity(const automata::Dfa& dfa, const Config& config, const EvalSets& sets,
                         const std::string& data);
// The first part in which `got` differs from `want` ("language (DFA)", "training configuration",
// "evaluation settings or data"), nullopt when equal.
std::optional<std::string> identity_mismatch(const RunIdentity& want, const RunIdentity& got);
// The Config fields that differ, "layers 2 (now 5), lr 0.003 (now 0.0003)", for error messages;
// the runtime part, which identities leave out, is skipped.
std::string config_differences(const Config& want, const Config& got);

// Right answers / words of each label at one test length (docs/PROTOCOL.md "Evaluation").
struct LabelCounts {
    long accepted_right = 0, accepted = 0;  // words of the language
    long rejected_right = 0, rejected = 0;  // words outside it
    bool operator==(const LabelCounts&) const = default;
};

// A length where one label has fewer than this share of its half of the sample (or none): its
// plain accuracy is dominated by the other label, so the report names it.
inline constexpr double kScarceLabelShare = 0.5;

// Per-label summary over the test lengths (from RunResult::per_length_labels).
struct LabelSummary {
    std::optional<double> accepted_accuracy, rejected_accuracy;  // pooled over every test word of that label
    // Mean over the lengths that have both labels of (accepted accuracy + rejected accuracy) / 2.
    std::optional<double> balanced_accuracy;
    int lengths = 0;                  // test lengths
    int lengths_both = 0;             // with words of both labels
    int lengths_only_accepted = 0, lengths_only_rejected = 0;
    int lengths_scarce_accepted = 0, lengths_scarce_rejected = 0;  // both, one below kScarceLabelShare
};
// `expected_per_label`: the sample's quota of each label (per_length / 2).
LabelSummary summarize_labels(const std::map<int, LabelCounts>& per_length, double expected_per_label);

// result.json (docs/PROTOCOL.md "Evaluation"); to_json/from_json in run.cc.
// What a run's probe past its test lengths found (neural/verify/probe.hh; RUNDIR/probe.json, read
// with the run by verify's report, never written into result.json).
struct ProbeOutcome {
    std::size_t pairs = 0;
    std::size_t min_length = 0, max_length = 0;  // the shortest and the longest word probed
    // The first pair (in increasing r) answered wrong on either word: its r and its longer word's
    // length; nullopt when the run answers every pair right.
    std::optional<std::size_t> first_wrong_r, first_wrong_length;
};

struct RunResult {
    Config config;
    RunIdentity identity;                        // what produced this result
    std::string language;                        // a name for the report
    std::map<int, double> per_length_accuracy;   // length -> accuracy in [0,1]
    // length -> right answers per label; empty in a result.json written before they were measured.
    std::map<int, LabelCounts> per_length_labels;
    double mean_accuracy = 0;
    double min_bin_accuracy = 0;
    std::map<std::string, double> bin_accuracy;  // "41-100" -> accuracy
    int n_star = 0;
    double train_accuracy = 0;
    std::optional<double> adversarial_accuracy;
    std::optional<double> boundary_accuracy;
    // Adversarial pairs evaluated, and how many of them got the same answer for both words (a
    // constant answer shows as every pair); nullopt before they were measured.
    std::optional<long> adversarial_pairs, adversarial_same_answer;
    // Not in result.json: the per-pair outputs of the adversarial and the boundary set, written
    // beside it (pairs.hh, RESULT-pairs.tsv; boundary pairs without their words).
    std::vector<PairOutput> adversarial_outputs, boundary_outputs;
    bool failed_to_fit = false;
    bool success = false;
    double wall_seconds = 0;      // training + evaluation
    double train_seconds = 0;
    double tokens_per_second = 0;   // training
    double eval_seconds = 0;        // evaluation (test, fit, boundary and adversarial words)
    double eval_tokens_per_second = 0;
    int steps_done = 0;
    std::uint64_t seed = 0;
    std::string git_revision;
    std::string device;
    bool already_finished = false;  // not stored: train_and_evaluate found this result on disk
    std::optional<ProbeOutcome> probe;  // not stored: RUNDIR/probe.json when verify probed the run
};
std::string result_to_json(const RunResult& r);
// The run's pair outputs (adversarial, then boundary) as pairs.hh's TSV.
std::string pairs_tsv(const RunResult& r, const std::vector<std::string>& alphabet);
// Validates: every key above present, accuracies in [0, 1], lengths as keys, a valid config.
Result<RunResult> result_from_json(const std::string& text);

// The config as JSON (the "config" object of result.json) and back (missing keys: defaults).
std::string config_to_json(const Config& c);
Result<Config> config_from_json(const std::string& text);

// What a run folder holds besides the checkpoint: RUNDIR/run.json = {config, language, dfa}
// (written by train_and_evaluate before training starts), so `ltlkit eval RUNDIR` needs no language.
struct RunInfo {
    Config config;
    std::string language;
    automata::Dfa dfa;
    RunIdentity identity;
};
Result<RunInfo> read_run_info(const std::string& rundir);

// A progress report. Step: after every training step (step of total). Log: every log_every steps,
// with the window's loss and accuracy. Resume: training continues from the checkpoint's step.
// Checkpoint: a checkpoint of `step` was written. Evaluation: test lengths done (step) of total,
// words so far (reported once with step 0 when the evaluation starts, and with step == total once
// every test length is done).
struct Progress {
    // FitCheck: training accuracy on fresh words (train_accuracy) at `step`, with training until
    // the fit; total is then the step where training stops (the budget until the fit is reached).
    enum class Phase { Step, Log, Resume, Checkpoint, Evaluation, FitCheck };
    Phase phase = Phase::Log;
    int step = 0, total = 0;
    double loss = 0, train_accuracy = 0, tokens_per_second = 0, eta_seconds = 0;
    long words = 0;
};
using ProgressFn = std::function<void(const Progress&)>;

// Auto resolved to where a run would train: Cuda when a CUDA device is available, else Cpu;
// Cpu; Cuda (error when no CUDA device is available).
Result<Device> resolve_device(Device device);

// The settings of `ltlkit train` and `ltlkit eval` that the user did not give, sized for the device
// the run uses: on "cuda" the standard budget, on "cpu" one that finishes in minutes.
struct DeviceDefaults {
    int steps = 0;       // training steps
    int per_length = 0;  // evaluation words per test length
};
DeviceDefaults device_defaults(Device device);

// Which settings a command chose from DeviceDefaults because they were not given; recorded in
// run.json as "defaults": {"device": ..., field: value, ...}. Nothing is recorded when empty.
struct ChosenDefaults {
    Device device = Device::Cpu;  // resolved: Cpu or Cuda
    std::map<std::string, int> values;
};

// Trains (resuming from RUNDIR/checkpoint.pt when it exists and its identity matches), writing
// checkpoints atomically, then evaluates and writes RUNDIR/result.json atomically. RUNDIR is locked
// for the duration (a second process fails at once). A RUNDIR that holds a run of another language
// or training configuration is refused before anything is written; a finished run of the same
// identity is returned as it is (already_finished set), without training or evaluating again.
Result<RunResult> train_and_evaluate(const automata::Dfa& dfa, const Config& config,
                                     const std::string& rundir, const EvalSets& sets,
                                     const std::string& language_name,
                                     const ProgressFn& progress = nullptr,
                                     const ChosenDefaults& defaults = {});

// Re-evaluates a finished run (ltlkit eval) with other lengths or sets; writes
// RUNDIR/eval_file_name(config), never the training run's result.json.
// From `overrides` only the evaluation part and threads/device are used: start from
// read_run_info(rundir)->config.
std::string eval_file_name(const Config& c);  // "eval-41-500-n512.json"
Result<RunResult> evaluate_run(const automata::Dfa& dfa, const std::string& rundir,
                               const Config& overrides, const EvalSets& sets,
                               const ProgressFn& progress = nullptr);

}  // namespace ltlkit::neural
