// `ltlkit verify`: for each language, classify → predictions per architecture →
// datasets (test, boundary, adversarial) → every (language, arch, seed, lr) run through
// neural::train_and_evaluate → verdicts → report. Reruns skip finished runs and resume
// interrupted ones; --shard i/n takes the runs with index mod n == i; --threads N trains N runs at
// once in worker processes (one torch thread each, so results do not depend on N).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "automata/language.hh"
#include "base/error.hh"
#include "neural/run.hh"
#include "neural/verify/cells.hh"
#include "neural/verify/plan.hh"
#include "neural/verify/profiles.hh"
#include "neural/verify/report.hh"

namespace ltlkit::neural::verify {

// Where a verify stands, for a caller that must be able to say it at any moment (the CLI's Ctrl-C
// message): runs of this shard finished (result.json written) of the shard's runs, and the runs in
// progress, each as "[i/N] language arch label" and, when trained in this process, the step reached
// and the step of its last checkpoint (-1: unknown, in a worker process).
struct VerifyState {
    struct Running {
        std::string name;
        int step = -1, total = 0, checkpoint = -1;
    };
    std::size_t finished = 0, total = 0;
    std::vector<Running> running;
};

struct VerifyOptions {
    // The suite, or one language, each compiled to its minimal DFA once by the caller (load_languages,
    // or automata::load_language for one): verify plans, checks and trains with these and compiles
    // no language again.
    std::vector<automata::Language> languages;
    std::vector<Architecture> archs = {{Architecture::Kind::Global, 0}, {Architecture::Kind::Local, 1},
                                       {Architecture::Kind::Local, 2},  {Architecture::Kind::Hybrid, 1},
                                       {Architecture::Kind::Hybrid, 2}};
    Profile profile;
    // Cells to run, each "LANGUAGE:ARCH" (a language name of the suite, an architecture of archs);
    // empty: every language × architecture. Recorded in the plan; languages without one are left out.
    std::vector<std::string> cells;
    std::optional<int> seeds;      // overrides the profile's seeds per learning rate
    std::uint64_t base_seed = 1;   // seed indices base_seed .. base_seed + seeds - 1
    std::string out = "results/verify";
    int shard_index = 0, shard_count = 1;
    int threads = 1;               // runs trained at once (worker processes when > 1)
    Device device = Device::Auto;  // passed to every run
    // argv that starts this program's worker entry point (the CLI: its own executable and
    // "verify", with --quiet when quiet); the library appends --out OUT --worker j/J --worker-session S
    // --device D, nothing of the user's command line: a worker reads the plan from OUT
    // (run_worker). Empty: runs are trained in this process.
    std::vector<std::string> worker_command;
    // Stop after training this many runs (tests: simulates a run killed midway).
    std::size_t max_runs = std::numeric_limits<std::size_t>::max();
    bool write_report = true;
    std::optional<Published> published;  // the papers' numbers, shown beside ours in the report
    // Progress lines (default: stderr), and a hook on every training progress report (tests).
    std::function<void(const std::string&)> log;
    std::function<void(const RunPlan&, const std::string& rundir, const Progress&)> on_progress;
    // Called whenever the state changes (a run starts, steps, checkpoints or ends; with worker
    // processes, about once a second while they train).
    std::function<void(const VerifyState&)> on_state;
};

struct VerifySummary {
    Plan plan;
    std::size_t runs_in_shard = 0, runs_skipped = 0, runs_trained = 0;
    std::optional<ReportFiles> report;
};

// Compiles each language of a suite to its minimal DFA, in order (the first error is returned):
// what VerifyOptions::languages holds.
Result<std::vector<automata::Language>> load_languages(const std::vector<automata::LanguageSpec>& specs);

// The name a language goes by in a plan, cells and messages: its suite name, else its text.
std::string language_name(const automata::LanguageSpec& spec);

// Builds the plan (classify, predict, datasets in OUT/data/<language>/), writes OUT/plan.json.
Result<Plan> prepare(const VerifyOptions& options);

// What run_verify refuses before touching OUT (shards, seeds, archs, cells, no language), for a
// caller that wants those errors before anything else it prints (verify's cost estimate).
Result<bool> check_verify_options(const VerifyOptions& options);

// The whole pipeline; the report is written with every run found in OUT (a shard's report only
// shows its own runs until `ltlkit report` merges the shards).
Result<VerifySummary> run_verify(const VerifyOptions& options);

// A worker process of `verify --threads J` (started by run_verify with o.worker_command): it reads
// OUT/plan.json and the session's run list OUT/.claims/S/runs.json that its parent wrote, reads the
// datasets of those runs' languages from OUT/data, and trains the runs it claims first (O_EXCL
// files in OUT/.claims/S/), under its parent's lock. It parses no suite and compiles or classifies
// no language; a run whose identity the datasets read back do not reproduce is refused.
struct WorkerOptions {
    std::string out, session;
    Device device = Device::Auto;
    std::function<void(const std::string&)> log;  // progress lines (default: stderr)
};
Result<bool> run_worker(const WorkerOptions& options);

// A folder name for a language: [A-Za-z0-9._-] kept, anything else replaced, a short hash of the
// name appended when something was replaced (so different names never collide).
std::string language_dir_name(const std::string& name);

// "i/n" with 0 <= i < n.
Result<std::pair<int, int>> parse_shard(const std::string& text);

}  // namespace ltlkit::neural::verify
