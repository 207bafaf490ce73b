// Private to neural/verify: the stages of `ltlkit verify` and what they hand each other. The calls
// go one way, top to bottom (docs/ARCHITECTURE.md "neural/verify/"):
//   verify.cc    run_verify, prepare: the order of the stages, the report
//   prepare.cc   the plan: fresh, or the output folder's plan reused or extended (plan.json)
//   schedule.cc  the runs of a shard, worker processes and their claims, a worker's entry point
//   execute.cc   one run trained (or found finished) and its progress lines
//   datasets.cc  a language's datasets on disk, the evaluation sets of each architecture
//   planning.cc  the plan from the classifier's answers and the evaluation sets (no I/O)
//   probe.cc     finished runs that pass both tests of a predicted failure, probed past the test lengths
//   migrate.cc   an older plan.json completed (report's caller), from datasets and planning
#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "automata/algebra/classify.hh"
#include "automata/dfa.hh"
#include "base/error.hh"
#include "neural/run.hh"
#include "neural/verify/plan.hh"
#include "neural/verify/profiles.hh"
#include "neural/verify/verify.hh"

namespace ltlkit::neural::verify {

// Progress lines (default: stderr, which holds no results).
using LogFn = std::function<void(const std::string&)>;
void emit(const LogFn& log, const std::string& line);

// ---- planning.cc (no I/O)

// What a run needs beyond the plan: the DFA and the evaluation sets per architecture.
struct LanguageContext {
    automata::Dfa dfa;
    std::vector<LabelledWord> test, boundary;
    std::map<std::string, std::vector<LabelledWord>> adversarial;  // architecture name -> set
    std::map<std::string, std::map<long, PairKind>> pair_kinds;     // architecture name -> pair id -> kind
    std::string dataset_repaired;  // a dataset file that failed its checksum and was regenerated
    std::string test_rule;         // how the test words were drawn, when not the dataset's uniform split
};

// A plan with what its runs need: each language's context, parallel to plan.languages.
struct Prepared {
    Plan plan;
    std::vector<LanguageContext> contexts;
};

// The settings of one run: the plan's (the profile's), with the run's architecture, learning rate
// and seed, one torch thread (results do not depend on --threads) and the device.
Config run_config(const Plan& plan, const RunPlan& r, Device device);

// The classifier's options for a plan's architectures.
automata::algebra::ClassifyOptions classify_options(const std::vector<Architecture>& archs);

// The predictions of a classified language for the plan's architectures, and the control
// predictions whose adversarial sets the language's datasets also hold (local-1's certificate when
// no architecture is predicted to fail with a witness and some is not predicted to fail).
struct Predictions {
    std::vector<automata::algebra::ArchPrediction> archs, controls;
};
Predictions predict_archs(const automata::algebra::Classification& cls, const std::vector<Architecture>& archs);
// The rule of that control, on each architecture's (prediction, whether it has a witness family):
// no architecture predicted to fail with a witness, and some not predicted to fail. Also read by a
// worker process from the plan (datasets.cc read_language_context), which has no classification.
bool needs_local1_control(const std::vector<std::pair<Prediction, bool>>& archs);
inline const Architecture kLocal1Control{Architecture::Kind::Local, 1};

// A language as the plan records it: names, input, minimal DFA and its classes (datasets, test
// words and architectures are added by prepare).
LanguagePlan describe_language(const automata::Language& language,
                               const automata::algebra::Classification& classification);

// One architecture's prediction for a language, with its witness family in words and the marking
// of its adversarial set.
ArchPlan arch_plan(const Architecture& arch, const automata::algebra::ArchPrediction& pred, const LanguagePlan& lp,
                   const LanguageContext& ctx, const Profile& prof);

// The chosen cells as (language name, architecture name); each names a language of the suite and an
// architecture of --archs.
Result<std::set<std::pair<std::string, std::string>>> chosen_cells(const VerifyOptions& o);

// Everything that can be refused is refused before OUT is touched.
Result<bool> check_options(const VerifyOptions& o);

// The run list of a plan whose languages are known, each run with its seed, identity and folder.
void plan_runs(Plan& plan, const std::vector<LanguageContext>& contexts,
               const std::set<std::pair<std::string, std::string>>& cells);

// ---- prepare.cc

// The plan of a command with each language's context: made fresh when OUT holds no plan.json (or a
// damaged one); else the folder's plan, reused when it holds the command's languages (same
// minimal DFAs) and cells with the same settings (no language classified again; datasets read
// back), extended by the command's new languages and cells, or refused with a one-line error
// naming the setting that differs (other profile settings, seeds, learning rates, another DFA for
// a language name, an architecture the plan lacks, a new cell in a shard's folder). A folder's
// plan never loses a language, a cell or a finished run. plan.json written when write_files.
Result<Prepared> prepare_plan(const VerifyOptions& o, bool write_files);

// Whether a run of the plan is one of the command's cells (its languages × its architectures, or
// its --only/--cells).
bool in_command(const VerifyOptions& o, const Plan& plan, const RunPlan& r);

// ---- datasets.cc

// The evaluation sets of one architecture's runs of a language.
EvalSets eval_sets(const LanguageContext& ctx, const Architecture& arch);

// The evaluation sets of a language in DATA (docs/SYNTAX.md §11 layout), generated when
// write_files, then read back into ctx (ctx.dfa set by the caller).
Result<bool> language_dataset(LanguageContext& ctx, const LanguagePlan& lp,
                              const std::vector<automata::algebra::ArchPrediction>& preds,
                              const std::vector<automata::algebra::ArchPrediction>& control_preds, const Profile& prof,
                              const std::filesystem::path& data, bool write_files, bool controls = true);

// A language's context read back from its datasets in DATA, as prepare left them, from the plan
// alone (no classification; worker processes and a folder whose plan is reused): the DFA is the
// plan's, the predictions and controls those the plan records.
Result<LanguageContext> read_language_context(const Plan& plan, const LanguagePlan& lp, const std::filesystem::path& data);

// ---- execute.cc

// The VerifyState of one verify, told to on_state at every change.
class StateTracker {
public:
    StateTracker(std::function<void(const VerifyState&)> on_state, std::size_t finished, std::size_t total);
    void start(const std::string& name, int steps);
    void progress(const Progress& p);
    void finish();
    void set(std::size_t finished, std::vector<VerifyState::Running> running);

private:
    void tell() const;
    std::function<void(const VerifyState&)> on_state_;
    VerifyState state_;
};

// "[i/N] language arch label".
std::string run_name(const Plan& plan, const RunPlan& r);

// Where and how runs are trained: what execute_run needs beyond the plan and the run.
struct RunSettings {
    std::string out;
    Device device = Device::Auto;
    LogFn log;
    std::function<void(const RunPlan&, const std::string& rundir, const Progress&)> on_progress;
};

// Trains (or resumes) one run. Returns true when it trained, false when result.json was there.
Result<bool> execute_run(const Prepared& pr, const RunPlan& r, const RunSettings& s, StateTracker& tracker);

// ---- schedule.cc

// The runs of one shard (index mod n == i), in plan order.
std::vector<const RunPlan*> shard_runs(const Plan& plan, int shard_index, int shard_count);

// A finished run whose result.json fails its checksum is run again (DURABILITY.md): evaluated from
// its checkpoint, or trained again when that is gone.
void remove_damaged_results(const std::string& out, const LogFn& log, const std::vector<const RunPlan*>& runs);

// The worker pool: `jobs` worker processes (o.worker_command), each claiming runs of `pending` by
// O_EXCL files in OUT/.claims/S/ and training them with one torch thread. Waits for all of them;
// with o.on_state, polls about once a second which runs are finished and which are claimed.
Result<bool> train_in_workers(const VerifyOptions& o, const Plan& plan, const std::vector<const RunPlan*>& mine,
                              const std::vector<const RunPlan*>& pending, int jobs);

// Trains the runs one after the other in this process, at most max_runs of them; with a claims
// folder (a worker process), only those it claims first there (O_EXCL files named by run index).
struct TrainCounts {
    std::size_t trained = 0, skipped = 0;
};
Result<bool> train_here(const Prepared& pr, const std::vector<const RunPlan*>& runs, const RunSettings& s,
                        StateTracker& tracker, const std::string& claims, std::size_t max_runs, TrainCounts& counts);

// ---- probe.cc (probe.hh)

// The probe stage, after training: each finished run of `runs` in a cell predicted to fail that
// passes both its tests (needs_probe) and has no readable probe.json is scored from its
// checkpoint on its prediction's witness family at lengths past the test range (probe_rs), and
// RUNDIR/probe.json written; a line says what it found. A run without a checkpoint is named and
// left unprobed. Returns how many runs it probed.
Result<std::size_t> probe_runs(const Plan& plan, const std::string& out, const std::vector<const RunPlan*>& runs,
                               Device device, const LogFn& log);

}  // namespace ltlkit::neural::verify
