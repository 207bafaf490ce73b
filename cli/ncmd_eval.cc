// `ltlkit eval RUNDIR`: re-evaluate a trained run with other test lengths or a dataset's sets,
// writing RUNDIR/eval-A-B-nN.json (the training run's result.json stays). A thin layer over neural/run.hh.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <map>
#include <memory>

#include "automata/lock.hh"
#include "automata/dataset.hh"
#include "automata/sampler.hh"
#include "cli/command.hh"
#include "cli/common.hh"
#include "cli/run_summary.hh"
#include "neural/memory.hh"
#include "neural/run.hh"

namespace ltlkit::cli {
namespace {

void set_range(const std::string& text, const char* option, int& lo, int& hi) {
    auto r = automata::parse_length_range(text);
    if (!r.ok()) fail(std::string(option) + ": " + r.error().message);
    lo = static_cast<int>(r->lo);
    hi = static_cast<int>(r->hi);
}

struct EvalArgs {
    std::string rundir, dataset, test_lengths, success_rule, device, test_distribution;
    int per_length = 0, threads = 0;
    double max_memory_gb = neural::kDefaultMaxMemoryGb;
    bool json = false, quiet = false;
};


LTLKIT_COMMAND(CommandDef{
    "eval", "Evaluate a trained run on long, boundary and adversarial words",
    [](CLI::App& app) -> Runner {
        auto a = std::make_shared<EvalArgs>();
        app.add_option("RUNDIR", a->rundir, "Run folder written by `ltlkit train`")->required();
        app.add_option("--test-lengths", a->test_lengths, "Test lengths A:B (default: the run's)");
        const auto cpu = neural::device_defaults(neural::Device::Cpu);
        app.add_option("--per-length", a->per_length,
                       "Test words per length (default: the run's, at most " + std::to_string(cpu.per_length) +
                           " when evaluating on CPU; on CUDA the run's)")->check(at_least(1));
        app.add_option("--dataset", a->dataset, "Evaluate on a dataset's test, boundary and adversarial-ARCH files");
        app.add_option("--success-rule", a->success_rule, "exact | bins99 (default: the run's)")
            ->check(one_of({"exact", "bins99"}));
        app.add_option("--test-distribution", a->test_distribution,
                       "uniform (default: the run's; half accepted, half rejected, uniform) | lc25 (LC25's samplers: near-miss "
                       "rejected words, docs/PROTOCOL.md)")
            ->check(one_of({"uniform", "lc25"}));
        app.add_option("--threads", a->threads, "CPU threads (default: the run's)")->check(at_least(1));
        app.add_option("--device", a->device, "auto | cpu | cuda (default: the run's)")->check(one_of(kDeviceNames));
        app.add_option("--max-memory-gb", a->max_memory_gb,
                       "Refuse when the estimated peak memory of the evaluation exceeds this many GiB (default 16)")
            ->check(positive_real());
        add_table_cells_option(app);
        app.add_flag("--json", a->json, "Print the evaluation result (JSON) on stdout");
        app.add_flag("--quiet,-q", a->quiet, "No cost estimate and no progress lines");
        app.footer(
            "Examples:\n"
            "  ltlkit eval runs/x --test-lengths 41:200\n"
            "  ltlkit eval runs/x --dataset data/last-a --json   # its test, boundary and adversarial sets");
        return [a, &app]() -> int {
            catch_interrupts("");
            auto position = std::make_shared<RunPosition>(a->rundir, false);
            // A run that train is writing is busy, not broken (its checkpoint may not exist yet).
            take(automata::check_folder_free(a->rundir));
            auto info = take(neural::read_run_info(a->rundir));
            neural::Config c = info.config;
            if (app.count("--per-length")) c.evaluation.per_length = a->per_length;
            if (app.count("--success-rule")) c.evaluation.success_rule = take(neural::parse_success_rule(a->success_rule));
            if (app.count("--test-distribution"))
                c.evaluation.test_distribution = take(neural::parse_test_distribution(a->test_distribution));
            if (app.count("--threads")) c.runtime.threads = a->threads;
            if (app.count("--device")) c.runtime.device = take(neural::parse_device(a->device));
            const auto device = take(neural::resolve_device(c.runtime.device));
            if (!app.count("--per-length") && device == neural::Device::Cpu)
                c.evaluation.per_length = std::min(c.evaluation.per_length, neural::device_defaults(device).per_length);
            neural::EvalSets sets;
            if (!a->dataset.empty()) {
                auto ds = take(automata::read_dataset(a->dataset));
                if (!(ds.dfa == info.dfa))
                    fail(a->dataset + ": the dataset's language differs from the run's");
                sets = neural::eval_sets_from_dataset(ds, c.model.arch);
                sets.train.clear();  // the training accuracy uses the run's training distribution
                sets.validation.clear();
                if (a->test_lengths.empty())
                    neural::split_length_range(ds, "test", c.evaluation.test_min, c.evaluation.test_max);
                // The dataset's words per test length, so that the eval file is named by what it holds.
                if (!app.count("--per-length"))
                    if (const auto* test = ds.find("test")) {
                        std::map<std::size_t, int> per_length;
                        int most = 0;
                        for (const auto& e : test->examples) most = std::max(most, ++per_length[e.word.size()]);
                        if (most > 0) c.evaluation.per_length = most;
                    }
            }
            if (!a->test_lengths.empty())
                set_range(a->test_lengths, "--test-lengths", c.evaluation.test_min, c.evaluation.test_max);
            // Limits before anything is rewritten (exit 3, naming the option).
            take(automata::Sampler::check_table_cells(info.dfa,
                                                      static_cast<std::size_t>(
                                                          std::max({c.training.train_max, c.evaluation.test_max, 0})),
                                                      automata::default_max_table_cells()));
            take(neural::check_memory(neural::estimate_eval_memory(c, static_cast<int>(info.dfa.num_symbols())),
                                      a->max_memory_gb, "the evaluation (" + to_string(c.model.arch) + ")"));
            const bool quiet = a->quiet;
            auto estimate = std::make_shared<CostEstimateOnce>("eval", c, device == neural::Device::Cuda, false, quiet);
            neural::ProgressFn progress = [position, quiet, estimate](const neural::Progress& p) {
                (*estimate)(p);
                (*position)(p);
                if (!quiet) print_progress(p);
            };
            position->set_result_file(neural::eval_file_name(c));
            auto r = take(neural::evaluate_run(info.dfa, a->rundir, c, sets, progress));
            return finish_run_command(r, a->rundir, a->json, neural::eval_file_name(c));
        };
    }});

}  // namespace
}  // namespace ltlkit::cli
