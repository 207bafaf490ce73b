// `ltlkit sweep`: random languages of the prediction strata (automata/algebra/prediction_suite.hh)
// verified level by level (docs/PROTOCOL.md "Sweeps"). The sweep folder holds
//   sweep-config.json   the request (a rerun with other settings is refused; the same one resumes)
//   languages.json      every drawn language: stratum, alphabet, states, architectures, predictions
//   sweep.suite, sweep-dfa/NAME.json   the suite that each level's `ltlkit verify` reads
//   level-L/cells.txt   the cells of level L (level 0: all; level L+1: those of level L without
//                       real evidence that more training can change), level-L/command.txt
//   level-L/            the level's verify folder (with --shard i/n: level-L/shard-i, merged into
//                       level-L by the report merge)
//   sweep.md, sweep.json  the report, rebuilt from the folders by build_sweep_report.
// Each level is one `ltlkit verify` process (run by the caller), so a level resumes as verify does
// and a finished level trains nothing again. Torch-free.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "base/error.hh"
#include "neural/verify/profiles.hh"

namespace ltlkit::neural::verify {

struct SweepRequest {
    std::vector<std::string> strata;            // names of prediction_strata(); empty: all of them
    // --suite FILE: the languages of a suite file (docs/SYNTAX.md §10) instead of drawn ones, each
    // under `archs` (empty: global, local-1, hybrid-1 and the k = 2 windows that differ, as drawn
    // languages); strata, per_stratum, alphabet_sizes and the state range are then unused.
    std::string suite;
    std::vector<std::string> archs;
    std::size_t per_stratum = 10;               // languages per stratum
    std::vector<std::size_t> alphabet_sizes = {2, 3};  // language j of a stratum: sizes[j % n] letters
    std::size_t min_states = 3, max_states = 8;  // of the minimal complete DFA
    std::uint64_t seed = 1;
    std::string profile = "demo";  // level 0's profile; the levels above size it (sweep_level)
    int levels = 3;                // level 0 and at most levels - 1 escalations
    double max_hours = 24;         // the estimated cost of all levels run, on this CPU
    // Settings of the run only (not recorded: they do not change what is trained).
    int shard_index = 0, shard_count = 1;
    std::optional<int> only_level;  // --level L: run only that level (its previous one must be complete)
    int threads = 1;
    std::string device = "cpu";
    bool quiet = false;
};

// The request as recorded in sweep-config.json (the fields that decide what is drawn and trained).
std::string sweep_config_json(const SweepRequest& r);
// The first setting in which a stored sweep-config.json differs from `r` ("" when none).
Result<std::string> sweep_config_difference(const std::string& stored_json, const SweepRequest& r);

struct SweepLanguage {
    std::string name, stratum;
    std::vector<std::string> alphabet;
    std::size_t states = 0;
    std::string generator;
    std::vector<std::string> archs;                 // in order: global, local-1, hybrid-1, [local-2], [hybrid-2]
    std::map<std::string, std::string> predictions;  // arch -> recognizes | fails | unknown
    std::string windows_note;                        // why local-2 / hybrid-2 were or were not added
    std::string file;  // its minimal DFA in the sweep folder (sweep-dfa/NAME.json), once written or read back
};

// Draws the languages of `r` (each stratum over each alphabet size its share, reproducibly from
// r.seed), classifies each with windows up to 2 and chooses its architectures: global, local-1 and
// hybrid-1, plus local-2 (hybrid-2) where the answer of LTL[Y<=2] (LTL[P,Y<=2]) differs from that
// of k = 1. Interleaved by stratum (the first language of every stratum, then the second, ...), so
// that a partial sweep has every stratum. `log` gets one line per stratum.
Result<std::vector<SweepLanguage>> draw_sweep_languages(const SweepRequest& r,
                                                        const std::function<void(const std::string&)>& log);
// Writes languages.json, sweep.suite and sweep-dfa/ into `dir` (atomically, each file).
Result<bool> write_sweep_languages(const std::string& dir, const std::vector<SweepLanguage>& langs,
                                   const std::vector<std::string>& dfa_json);
Result<std::vector<SweepLanguage>> read_sweep_languages(const std::string& dir);
// A language's record in languages.json (JSON text of one object: name, stratum, alphabet, states,
// generator, file, archs, predictions, windows_note).
std::string sweep_language_json(const SweepLanguage& l);

// What level L trains: level 0 the profile as it is; level 1 four times its step budget and three
// seeds (a profile that trains until the fit stops at the fit check, so the budget is only a bound);
// level L >= 2 in addition twice the width (d_model and heads) and 4^(L-1) times the steps.
struct SweepLevel {
    int level = 0;
    ProfileSizes sizes;
    int first_seed = 1;       // the level's seed indices are first_seed .. first_seed + seeds - 1 (verify --seed)
    std::string description;  // one line
};
Result<SweepLevel> sweep_level(const Profile& base, int level);

// Whether a judged cell goes to the next level, and why (or why not) in words. Escalated: cells with
// a prediction, without real evidence and not contradicted, whose evidence more training can change
// (not_fitted, flat_fit, no_success, controls_failed). Not: confirmed, contradicted, no prediction,
// untested (no adversarial set exists at any training), pending.
struct EscalationDecision {
    bool escalate = false;
    std::string why;
};
EscalationDecision escalation_of(const std::string& verdict, const std::string& evidence, const std::string& prediction);
// The same for the step from level `from` to level `to`, knowing the cell's runs at `from`: a level
// that changes only the step budget (same seeds, same model) trains the same models again for a
// cell whose every run fitted before its budget (training stops at the fit check), so such a cell
// is not escalated to it (its evidence, e.g. controls_failed, cannot change there).
EscalationDecision escalation_to(const std::string& verdict, const std::string& evidence, const std::string& prediction,
                                 int runs, bool every_run_fitted, const SweepLevel& from, const SweepLevel& to);
// The rule the sweep and its report share: into a next level already planned with the cell (by an
// earlier binary, or an earlier sitting) a cell goes by escalation_of, since the plan stands;
// otherwise escalation_to decides.
EscalationDecision escalation_into(const std::string& verdict, const std::string& evidence, const std::string& prediction,
                                   int runs, bool every_run_fitted, const SweepLevel& from, const SweepLevel& to,
                                   bool planned_with_it);

// The estimated seconds of `runs_per_cell` runs of each cell (arch names) under `profile` sized by
// `sizes`, on a CPU (neural/cost.hh, verify's estimate).
// With `measured0` (arch -> seconds per run of level 0 measured on this device), each arch's
// seconds are the measured ones scaled by the ratio of the assumed-rate estimates of the level and
// of level 0; without it (or for an arch it lacks), the assumed rate (pessimistic).
Result<double> estimate_level_seconds(const Profile& profile, const ProfileSizes& sizes,
                                      const std::vector<std::string>& cell_archs,
                                      const std::map<std::string, double>* measured0 = nullptr);

// The report of the sweep in `dir`, rebuilt from its folders only: sweep.json and sweep.md written
// atomically. Returns the one-line summary ("real evidence: N of M cells ...").
struct SweepReport {
    std::string summary;
    std::size_t cells = 0, judged = 0, real_evidence = 0;
    std::string json, markdown;
};
Result<SweepReport> build_sweep_report(const std::string& dir);

// The seconds of one run of a Config measured on this device (neural/calibrate.hh), or an Error.
using SecondsPerRun = std::function<Result<double>(const Config& c)>;

// The whole sweep. `run_verify_argv` runs `ltlkit verify ARGS` (the caller's process; its exit code,
// or an Error); `log` prints progress lines.
struct SweepHooks {
    std::function<Result<int>(const std::vector<std::string>& args)> run_verify_argv;
    std::function<void(const std::string&)> log;
    // Optional: the seconds of one run of `c` measured on this device (neural/calibrate.hh); the
    // cost said first then rests on it instead of the assumed rate.
    SecondsPerRun seconds_per_run;
};
Result<SweepReport> run_sweep(const SweepRequest& r, const std::string& dir, const SweepHooks& hooks);

// `--estimate N`: the sweep's cost as KEY=VALUE lines (languages, cells, level-0 runs and hours, the
// worst case over all levels, a Slurm time limit per task of level 0 split into N shards). Draws the
// languages in memory when `dir` holds none; writes nothing.
// With `seconds_per_run`, the same calibration as the cost run_sweep says first (one estimate).
Result<std::string> estimate_sweep(const SweepRequest& r, const std::string& dir, int shards,
                                   const std::function<void(const std::string&)>& log,
                                   const SecondsPerRun& seconds_per_run = nullptr);

}  // namespace ltlkit::neural::verify
