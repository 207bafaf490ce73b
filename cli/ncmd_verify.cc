// `ltlkit verify`: classify → predict → datasets → train → evaluate → verdicts → report.
#ifdef LTLKIT_HAVE_ALGEBRA
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <thread>

#include "base/file.hh"
#include "automata/lock.hh"
#include "automata/sampler.hh"
#include "cli/command.hh"
#include "cli/common.hh"
#include "cli/interrupt.hh"
#include "cli/run_summary.hh"
#include "neural/memory.hh"
#include "neural/calibrate.hh"
#include "neural/cost.hh"
#include "neural/verify/verify.hh"

namespace ltlkit::cli {
namespace {

namespace nv = ltlkit::neural::verify;

std::vector<std::string> split_csv(const std::string& s) {
    std::vector<std::string> out;
    std::stringstream in(s);
    std::string part;
    while (std::getline(in, part, ','))
        if (!part.empty()) out.push_back(part);
    return out;
}

// The command that starts a worker process of this verify: this executable's `verify` (absolute),
// quiet when this one is. The library adds the output folder and the session; a worker reads the
// plan from there, never the user's command line (nv::run_worker).
std::vector<std::string> worker_command(bool quiet) {
    std::error_code ec;
    const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (ec) return {};
    std::vector<std::string> args{exe.string(), "verify"};
    if (quiet) args.push_back("--quiet");
    return args;
}

struct VerifyArgs {
    LanguageArgs lang;
    std::string suite;
    std::string archs = "global,local-1,local-2,hybrid-1,hybrid-2";
    std::string profile;  // default: a profile file's "profile", else nv::kDefaultProfile
    int seeds = 0;
    std::uint64_t seed = 1;
    std::string out = "results/verify";
    std::string shard;
    int threads = 0;
    std::string device = "auto";
    std::string published;
    std::string test_distribution = "uniform";
    std::vector<std::string> only;
    std::string cells_file;
    double max_memory_gb = neural::kDefaultMaxMemoryGb;
    bool json = false;
    std::string worker, worker_session;
    int estimate = 0;  // --estimate N: print the grid's cost split into N shards, write nothing
    nv::ProfileSizes sizes;  // --steps, --layers, --d-model, --heads, --test-lengths, --per-length
    std::string test_lengths, profile_file;
    double max_hours = 4;
    bool accept_cost = false, quiet = false;
    bool list_profiles = false, markdown = false;  // --list-profiles [--markdown]: the profile table
};

// `verify --worker j/J --worker-session S --out OUT --device D`, started by a verify with --threads.
int run_worker_command(const VerifyArgs& a) {
    take(nv::parse_shard(a.worker));  // j/J: which worker, for the process list only
    nv::WorkerOptions w;
    w.out = a.out;
    w.session = a.worker_session;
    w.device = take(neural::parse_device(a.device));
    if (a.quiet)  // warnings still show
        w.log = [](const std::string& line) {
            if (line.rfind("warning", 0) == 0) std::cerr << line << std::endl;
        };
    take(nv::run_worker(w));  // worker processes keep the default signal actions: they end with their parent
    return 0;
}

// Every language's count tables and every architecture's peak memory per run against their
// limits, before anything is written (exit 3, naming the option).
void check_limits(const nv::VerifyOptions& o, double max_memory_gb) {
    const neural::Config& base = o.profile.base;
    for (const auto& lang : o.languages) {
        take(automata::Sampler::check_table_cells(
            lang.dfa, static_cast<std::size_t>(std::max({base.training.train_max, base.evaluation.test_max, 0})),
            automata::default_max_table_cells()));
        for (const auto& arch : o.archs) {
            neural::Config c = base;
            c.model.arch = arch;
            take(neural::check_memory(
                neural::estimate_memory(c, static_cast<int>(lang.dfa.num_symbols())),
                max_memory_gb, "a run of " + to_string(arch) + " (profile " + o.profile.name + ")"));
        }
    }
}

// The grid's runs by architecture (every cell, or the cells of --only/--cells), each run of one
// torch thread on o.device: what both estimates below count.
std::vector<neural::Work> grid_work(const nv::VerifyOptions& o) {
    std::map<std::string, std::size_t> cells;  // architecture -> cells of the grid
    if (o.cells.empty())
        for (const auto& arch : o.archs) cells[to_string(arch)] += o.languages.size();
    else
        for (const auto& cell : o.cells)
            if (auto c = nv::parse_cell(cell); c.ok()) ++cells[to_string(c->second)];
    const std::size_t per_cell = o.profile.lrs.size() * static_cast<std::size_t>(o.seeds.value_or(o.profile.seeds));
    std::vector<neural::Work> work;
    for (const auto& arch : o.archs) {
        const std::size_t n = cells[to_string(arch)] * per_cell;
        if (n == 0) continue;
        neural::Config c = o.profile.base;
        c.model.arch = arch;
        c.runtime.threads = 1;  // as each run of verify
        c.runtime.device = o.device;
        work.push_back({c, n});
    }
    return work;
}

// `--estimate N`: the grid's size and cost split into N array tasks, as KEY=VALUE lines on stdout
// (read by examples/slurm/verify-array.sh; docs/CLUSTER.md). The same estimate as say_cost's
// (neural::estimate_work: calibrated here when the assumed rate says the grid takes over 10 s).
void print_estimate(const nv::VerifyOptions& o, int shards) {
    const bool gpu = o.device == neural::Device::Cuda;
    const auto e = neural::estimate_work(grid_work(o), shards, gpu);
    char hours[32];
    std::snprintf(hours, sizeof hours, "%.2f", e.grid_hours);
    std::cout << "runs=" << e.runs << "\nshards=" << e.shards << "\nruns_per_shard=" << e.runs_per_shard
              << "\ndevice=" << (gpu ? "cuda" : "cpu") << "\nseconds_per_run=" << std::lround(e.seconds_per_run)
              << "\ntask_time_limit=" << neural::slurm_time(e.task_seconds) << "\ngrid_hours=" << hours
              << "\nunit=" << (gpu ? "GPU-hours" : "core-hours") << "\nmeasured=" << (e.measured ? "yes" : "no")
              << "\nassumptions=" << e.assumptions << "\n";
}

// Before anything runs: the work and its estimated time on this device (stderr), and on a CPU a
// refusal when the grid would take longer than --max-hours, unless --accept-cost (exit 3). The
// estimate is neural::estimate_work's, as `--estimate`'s: a grid that the assumed (pessimistic)
// rate puts over 10 s is measured first, each architecture's model trained and evaluated here for
// a moment.
void say_cost(const nv::VerifyOptions& o, const VerifyArgs& a) {
    const bool gpu = o.device == neural::Device::Cuda;
    const auto work = grid_work(o);
    std::size_t all = 0;
    for (const auto& w : work) all += w.runs;
    const std::size_t runs = (all + static_cast<std::size_t>(o.shard_count) - 1) /
                             static_cast<std::size_t>(std::max(o.shard_count, 1));
    const int parallel = gpu ? 1 : std::max(1, std::min(o.threads, static_cast<int>(std::max<std::size_t>(runs, 1))));
    const auto e = neural::estimate_work(work, std::max(o.shard_count, 1), gpu);
    const double per_run = e.seconds_per_run;
    const std::string how = e.measured ? e.assumptions + "; the whole step budget is counted, so runs that stop at the "
                                                         "fit check take less"
                                       : "a pessimistic estimate: " + e.assumptions;
    const double wall = static_cast<double>(runs) * per_run / parallel;
    const auto& m = o.profile.base.model;
    const auto& t = o.profile.base.training;
    const auto& v = o.profile.base.evaluation;
    if (!a.quiet)
        std::cerr << "verify: " << runs << " run(s), profile " << o.profile.name << " (" << m.layers << " layers × d "
                  << m.d_model << " × " << m.heads << " heads, " << t.steps << " steps × batch " << t.batch
                  << ", test lengths " << v.test_min << ".." << v.test_max << " × " << v.per_length
                  << "): about " << fmt_duration(per_run) << " per run, " << fmt_duration(wall)
                  << " in all on this " << (gpu ? std::string("GPU") : "CPU (" + std::to_string(parallel) + " at once)")
                  << ", runs already finished in the output folder included (" << how << ")\n";
    if (!gpu && wall > a.max_hours * 3600 && !a.accept_cost) {
        Error err = make_error("this grid would take about " + fmt_duration(wall) + " on this CPU (" +
                               std::to_string(runs) + " runs × " + fmt_duration(per_run) +
                               "), over --max-hours " + [&] { char b[32]; std::snprintf(b, sizeof b, "%g", a.max_hours); return std::string(b); }() +
                               ": try --profile first, size it (--steps, --test-lengths, --per-length, --layers, "
                               "--d-model, --heads, --profile-file), split it (--shard, docs/CLUSTER.md), or pass "
                               "--accept-cost to run it anyway");
        err.exit_code = 3;
        fail(err);
    }
}

// The Ctrl-C message of a verify: runs finished, the runs interrupted, and the command that resumes.
void set_verify_note(const nv::VerifyState& s, const std::string& command) {
    std::string note = "verify stopped with " + std::to_string(s.finished) + " of " + std::to_string(s.total) +
                       " runs finished";
    if (s.running.empty()) {
        note += s.finished == s.total ? " (while writing the report)" : "; no run was in progress";
    } else {
        note += "; interrupted: ";
        for (std::size_t i = 0; i < s.running.size(); ++i) {
            const auto& r = s.running[i];
            note += (i ? ", " : "") + r.name;
            if (r.step >= 0)
                note += " at step " + std::to_string(r.step) + " of " + std::to_string(r.total) +
                        (r.checkpoint > 0 ? " (checkpoint at step " + std::to_string(r.checkpoint) + ")"
                                          : " (no checkpoint yet)");
        }
    }
    set_interrupt_note(note + "; finished runs are kept and interrupted ones resume from their checkpoints; resume "
                              "with the same command: " + command);
}

int run_verify_command(const VerifyArgs& a) {
    if (!a.worker.empty()) return run_worker_command(a);
    if (a.list_profiles) {  // docs/PROTOCOL.md "Profiles" is this table (tests/cli/doc_truths.sh)
        std::cout << nv::profile_table(a.markdown);
        return 0;
    }
    if (a.markdown) fail("--markdown goes with --list-profiles");
    nv::VerifyOptions o;
    std::vector<automata::LanguageSpec> specs;  // a suite's languages, compiled below (once each)
    if (!a.suite.empty()) {
        if (!a.lang.formula.empty() || !a.lang.regex.empty() || !a.lang.dfa_file.empty())
            fail("give either --suite or one language (FORMULA, --regex, --dfa), not both");
        specs = take(automata::read_suite(a.suite));
        if (!a.lang.alphabet.empty()) {
            const auto alphabet = take(automata::parse_alphabet(a.lang.alphabet));
            for (auto& spec : specs)
                if (spec.alphabet.empty()) spec.alphabet = alphabet;
        }
        for (auto& spec : specs) {
            spec.max_states = a.lang.max_states;
            spec.max_work = a.lang.max_work;
        }
        if (specs.empty()) fail(a.suite + ": the suite has no language");
    } else {
        o.languages.push_back(load_language_or_fail(a.lang));
    }
    o.archs.clear();
    for (const auto& name : split_csv(a.archs)) o.archs.push_back(take(neural::parse_architecture(name)));
    if (o.archs.empty()) fail("--archs: no architecture given");
    // The profile, sized by a profile file and then by the command line's sizes.
    nv::ProfileSizes sizes = a.profile_file.empty() ? nv::ProfileSizes{} : take(nv::read_profile_file(a.profile_file));
    nv::ProfileSizes cli_sizes = a.sizes;
    if (!a.test_lengths.empty()) {
        const auto r = take(automata::parse_length_range(a.test_lengths));
        if (r.lo < 1 || r.hi > 100000) fail("--test-lengths " + a.test_lengths + ": expected A:B with 1 <= A <= B <= 100000");
        cli_sizes.test_lengths = std::pair{static_cast<int>(r.lo), static_cast<int>(r.hi)};
    }
    sizes = sizes.merged_with(cli_sizes);
    const std::string profile_name = !a.profile.empty() ? a.profile : sizes.profile.value_or(nv::kDefaultProfile);
    o.profile = take(nv::apply_sizes(take(nv::profile_by_name(profile_name)), sizes));
    o.profile.base.evaluation.test_distribution = take(neural::parse_test_distribution(a.test_distribution));
    if (a.seeds > 0) o.seeds = a.seeds;
    o.base_seed = a.seed;
    o.out = a.out;
    if (!a.cells_file.empty()) o.cells = take(nv::read_cells_file(a.cells_file));
    for (const auto& cell : a.only) o.cells.push_back(cell);
    if (!a.shard.empty()) std::tie(o.shard_index, o.shard_count) = take(nv::parse_shard(a.shard));
    o.device = take(neural::parse_device(a.device));
    o.threads = a.threads > 0 ? a.threads : std::max(1u, std::thread::hardware_concurrency());
    o.worker_command = worker_command(a.quiet);
    // The papers' numbers: --published FILE, or the suite's sibling NAME.published.tsv when present.
    std::string published = a.published;
    if (published.empty() && !a.suite.empty()) {
        std::filesystem::path sibling(a.suite);
        sibling.replace_extension(".published.tsv");
        std::error_code ec;
        if (std::filesystem::is_regular_file(sibling, ec)) published = sibling.string();
    }
    if (!published.empty()) o.published = take(nv::read_published(published));
    // Each language compiled here, once: verify plans and trains with these.
    if (!specs.empty()) o.languages = take(nv::load_languages(specs));
    check_limits(o, a.max_memory_gb);
    flush_notes();
    if (a.estimate > 0) {
        print_estimate(o, a.estimate);
        return 0;
    }
    take(nv::check_verify_options(o));  // its errors before the estimate
    // A folder another verify holds is refused before the calibration (run_verify locks it).
    take(automata::check_folder_free(o.out));
    say_cost(o, a);
    if (a.quiet)  // warnings still show
        o.log = [](const std::string& line) {
            if (line.rfind("warning", 0) == 0) std::cerr << line << std::endl;
        };
    {
        const std::string command = own_command_text();
        catch_interrupts("verify stopped while planning (classifying, generating the datasets); rerun the same "
                         "command: " + command);
        o.on_state = [command](const nv::VerifyState& s) { set_verify_note(s, command); };
    }
    auto summary = take(nv::run_verify(o));
    release_interrupts();
    if (summary.report) {
        const auto& r = *summary.report;
        if (a.json) {
            std::cout << take(read_file(r.verdicts));
        } else {
            std::cout << "\n" << r.summary;
            std::cout << "(prediction→verdict successes/fitted runs; " << r.runs_found << " of " << r.runs_planned
                      << " runs finished)\n";
        }
        if (o.shard_count > 1)
            std::cerr << "shard " << o.shard_index << "/" << o.shard_count
                      << " finished; merge the shards with: ltlkit report DIR... (one DIR per shard)\n";
        (a.json ? std::cerr : std::cout) << "Report: " << r.html << "  (also report.md, verdicts.json, verdicts.csv, verdicts.tex, results.jsonl in "
                                         << o.out << ")\n";
        (a.json ? std::cerr : std::cout) << r.evidence << "\n";
    }
    return 0;
}

LTLKIT_COMMAND(CommandDef{
    "verify",
    "End to end: classify, predict, generate, train, evaluate, judge, report.\n"
    "Example: ltlkit verify --suite examples/quick.suite --profile quick --archs global,local-1,hybrid-1",
    [](CLI::App& app) -> Runner {
        auto a = std::make_shared<VerifyArgs>();
        add_language_options(app, a->lang);
        app.add_option("--suite", a->suite,
                       "Suite file: name<TAB>alphabet<TAB>formula|regex|dfa<TAB>text per line (docs/SYNTAX.md)");
        app.add_option("--archs", a->archs,
                       "Architectures, comma-separated (global, local-K, hybrid-K, lstm; default: " + a->archs + ")")
            ->type_name("LIST");
        std::string names;
        for (const auto& n : nv::profile_names()) names += (names.empty() ? "" : "|") + n;
        const auto default_rule = nv::profile_by_name(nv::kDefaultProfile).value().base.evaluation.success_rule;
        app.add_option("--profile", a->profile,
                       "Model sizes, steps, evaluation lengths and success rule (default: " +
                           std::string(nv::kDefaultProfile) + ", judged by " + neural::to_string(default_rule) + ": " +
                           neural::describe(default_rule) + "; cpu: the papers' lengths on a CPU; --list-profiles "
                           "shows every profile's rule)")
            ->type_name(names);
        app.add_flag("--list-profiles", a->list_profiles,
                     "Print every profile's sizes, success rule and fit check, then exit (docs/PROTOCOL.md "
                     "\"Profiles\" is this table)");
        app.add_flag("--markdown", a->markdown, "With --list-profiles: as a Markdown table");
        app.add_option("--profile-file", a->profile_file,
                       "Size the run from a JSON file: {\"profile\": \"quick\", \"steps\": 300, \"layers\": 2, "
                       "\"d_model\": 16, \"heads\": 2, \"test_lengths\": \"41:60\", \"per_length\": 8} (any subset; "
                       "options given on the command line win)")
            ->type_name("FILE");
        app.add_option("--test-lengths", a->test_lengths, "Evaluate at these lengths, A:B (default: the profile's)")
            ->type_name("A:B");
        app.add_option("--per-length", a->sizes.per_length, "Test words per length (default: the profile's)")
            ->check(at_least(1));
        app.add_option("--layers", a->sizes.layers, "Model layers (default: the profile's)")->check(at_least(1));
        app.add_option("--d-model", a->sizes.d_model, "Model width; d-ff keeps its ratio (default: the profile's)")
            ->check(at_least(1));
        app.add_option("--heads", a->sizes.heads, "Attention heads, dividing --d-model (default: the profile's)")
            ->check(at_least(1));
        app.add_option("--only", a->only,
                       "Run only this cell, LANGUAGE:ARCH (repeat the option for more; recorded in plan.json)")
            ->type_name("CELL")
            ->allow_extra_args(false);
        app.add_option("--cells", a->cells_file,
                       "Run only the cells listed in FILE, one LANGUAGE:ARCH per line ('#' comments)")
            ->type_name("FILE");
        app.add_option("--seeds", a->seeds, "Seeds per learning rate (default: the profile's)")->check(at_least(1));
        app.add_option("--seed", a->seed, "First seed index (runs use seed indices S..S+N-1; default: 1)");
        app.add_option("--out", a->out, "Output folder (default: " + a->out + ")")->type_name("DIR");
        app.add_option("--shard", a->shard, "i/n: run only the runs whose index mod n == i");
        app.add_option("--threads", a->threads,
                       "Runs trained at once, one torch thread each (default: the number of cores)")
            ->check(at_least(1));
        app.add_option("--steps", a->sizes.steps, "Training steps (default: the profile's)")->check(at_least(1));
        app.add_option("--max-hours", a->max_hours,
                       "On a CPU, refuse a grid estimated to take longer than this many hours (default 4; the "
                       "estimate is printed before anything runs)")
            ->check(positive_real());
        app.add_flag("--accept-cost", a->accept_cost, "Run even when the estimate exceeds --max-hours");
        app.add_flag("--quiet,-q", a->quiet, "Print no cost estimate and progress lines on stderr (errors still)");
        app.add_option("--device", a->device, "Where runs train (default: auto, CUDA when available)")
            ->type_name("auto|cpu|cuda")
            ->check(one_of(kDeviceNames));
        app.add_option("--test-distribution", a->test_distribution,
                       "uniform (default: the dataset's balanced uniform test split) | lc25 (LC25's samplers: "
                       "near-miss rejected words, one occurrence for Σ*fΣ*, lengths with accepted words only; "
                       "docs/PROTOCOL.md); recorded in plan.json and each run's identity")
            ->check(one_of({"uniform", "lc25"}));
        app.add_option("--published", a->published,
                       "Published numbers to show beside ours (TSV: language, architecture, statistic, value, "
                       "source; default: the suite's NAME.published.tsv when it exists)");
        app.add_option("--max-memory-gb", a->max_memory_gb,
                       "Refuse (before writing anything) when the estimated peak memory of one run exceeds "
                       "this many GiB (default 16)")
            ->check(positive_real());
        add_table_cells_option(app);
        app.add_flag("--json", a->json, "Print verdicts.json on stdout");
        app.add_option("--estimate", a->estimate,
                       "Print the grid's runs and estimated cost split into N array tasks (KEY=VALUE lines: "
                       "runs, seconds per run, a time limit per task, the grid's core- or GPU-hours), then exit "
                       "without writing anything (docs/CLUSTER.md)")
            ->type_name("N")
            ->check(at_least(1));
        app.add_option("--worker", a->worker)->group("");
        app.add_option("--worker-session", a->worker_session)->group("");
        return [a] { return run_verify_command(*a); };
    }});

}  // namespace
}  // namespace ltlkit::cli
#endif
