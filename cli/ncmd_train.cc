// `ltlkit train`: train one recognizer on a language (or a generated dataset), then evaluate it and
// write RUNDIR/result.json. A thin layer over neural/run.hh.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>

#include "automata/dataset.hh"
#include "automata/sampler.hh"
#include "cli/command.hh"
#include "cli/run_summary.hh"
#include "cli/common.hh"
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

struct TrainArgs {
    LanguageArgs lang;
    std::string dataset, out, train_lengths, test_lengths, pe = "none";
    std::string arch = "global", success_rule = neural::to_string(neural::EvaluationConfig{}.success_rule), device = "auto", test_distribution = "uniform";
    neural::Config c;
    double max_memory_gb = neural::kDefaultMaxMemoryGb;
    bool pre_ln = false, non_strict = false, hybrid_layers = false, quiet = false, json = false;
};


LTLKIT_COMMAND(CommandDef{
    "train", "Train a recognizer (global, local-K, hybrid-K transformer or LSTM) on a language",
    [](CLI::App& app) -> Runner {
        auto a = std::make_shared<TrainArgs>();
        add_language_options(app, a->lang);
        auto& c = a->c;
        app.add_option("--dataset", a->dataset, "Train on a folder written by `ltlkit generate` (its train split; test, boundary, adversarial-ARCH for evaluation)");
        app.add_option("--arch", a->arch, "global | local-K | hybrid-K | lstm (default global)");
        app.add_option("--layers", c.model.layers, "Transformer layers (default 5)")->check(at_least(1));
        app.add_option("--d-model", c.model.d_model, "Model width (default 64)")->check(at_least(1));
        app.add_option("--heads", c.model.heads, "Attention heads (default 8)")->check(at_least(1));
        app.add_option("--d-ff", c.model.d_ff, "Feed-forward width (default 256)")->check(at_least(1));
        app.add_option("--pe", a->pe, "Positional encoding: none (default, NoPE) | learned | sinusoidal | rope")
            ->check(one_of({"none", "learned", "sinusoidal", "rope"}));
        app.add_option("--lstm-hidden", c.model.lstm_hidden, "LSTM hidden size (default 256)")->check(at_least(1));
        const auto cpu = neural::device_defaults(neural::Device::Cpu), cuda = neural::device_defaults(neural::Device::Cuda);
        app.add_option("--steps", c.training.steps,
                       "Training steps (default " + std::to_string(cuda.steps) + " on CUDA, " +
                           std::to_string(cpu.steps) + " on CPU)")->check(at_least(0));
        app.add_option("--fit-check-every", c.training.fit_check_every,
                       "Train until the fit: every N steps the accuracy on fresh training words; stop once it "
                       "reaches --fit-target (--steps is then the budget; default 0: off)")
            ->check(at_least(0));
        app.add_option("--fit-check-words", c.training.fit_check_words, "Fresh words per fit check (default 2000)")
            ->check(at_least(2));
        app.add_option("--fit-target", c.training.fit_target, "Accuracy at which training until the fit stops (default 0.99)")
            ->check(positive_real());  // at most 1: checked by the library before anything is written
        app.add_option("--fit-extra-steps", c.training.fit_extra_steps,
                       "Steps trained after the fit check reached --fit-target (default 0)")
            ->check(at_least(0));
        app.add_option("--batch", c.training.batch, "Words per step, half per label (default 128)")->check(at_least(2));
        app.add_option("--lr", c.training.lr, "Adam learning rate (default 3e-4)")->check(positive_real());
        app.add_option("--seed", c.training.seed, "Seed of initialization and sampling (default 1)");
        app.add_option("--train-lengths", a->train_lengths, "Training lengths A:B (default 1:40)");
        app.add_option("--test-lengths", a->test_lengths, "Test lengths A:B (default 41:500)");
        app.add_option("--per-length", c.evaluation.per_length,
                       "Test words per length (default " + std::to_string(cuda.per_length) + " on CUDA, " +
                           std::to_string(cpu.per_length) + " on CPU)")->check(at_least(1));
        app.add_option("--success-rule", a->success_rule,
                       [] {  // the rules as neural/run.hh says them, the default first
                           const neural::SuccessRule def = neural::EvaluationConfig{}.success_rule;
                           std::string text;
                           for (auto rule : {neural::SuccessRule::Exact, neural::SuccessRule::Bins99})
                               text += (text.empty() ? "" : " | ") + neural::to_string(rule) + " (" +
                                       (rule == def ? "default: " : "") + neural::describe(rule) + ")";
                           return text + "; each verify profile's rule: ltlkit verify --list-profiles";
                       }())
            ->check(one_of({"exact", "bins99"}));
        app.add_option("--test-distribution", a->test_distribution,
                       "uniform (default: half accepted, half rejected, uniform) | lc25 (LC25's samplers: near-miss "
                       "rejected words, docs/PROTOCOL.md)")
            ->check(one_of({"uniform", "lc25"}));
        app.add_option("--threads", c.runtime.threads, "CPU threads (default 1)")->check(at_least(1));
        app.add_option("--device", a->device,
                       "auto (default: CUDA when available) | cpu | cuda; the defaults of --steps and --per-length "
                       "follow the device")
            ->check(one_of(kDeviceNames));
        app.add_option("--checkpoint-every", c.runtime.checkpoint_every, "Steps between checkpoints (default 500)")
            ->check(at_least(1));
        app.add_option("--log-every", c.runtime.log_every, "Steps between progress lines (default 100)")->check(at_least(0));
        app.add_flag("--pre-ln", a->pre_ln, "Pre-LN blocks (default post-LN)");
        app.add_flag("--non-strict", a->non_strict, "Non-strict masks: a position also attends to itself");
        app.add_flag("--hybrid-layers", a->hybrid_layers, "hybrid-K: alternate local and global layers (local first) instead of mixing heads");
        app.add_option("--max-memory-gb", a->max_memory_gb,
                       "Refuse (before training) when the estimated peak memory exceeds this many GiB (default 16)")
            ->check(positive_real());
        add_table_cells_option(app);
        app.add_flag("--quiet,-q", a->quiet, "No cost estimate and no progress lines");
        app.add_flag("--json", a->json, "Print result.json on stdout");
        app.add_option("--out", a->out, "Run folder (checkpoint.pt, run.json, result.json); resumed when it holds a checkpoint")->required();
        app.footer(
            "Examples:\n"
            "  ltlkit train 'Y a' --alphabet a,b --arch local-1 --out runs/last-a-local1\n"
            "  ltlkit train 'Y a' --alphabet a,b --arch global --steps 2000 --test-lengths 41:100 --out runs/x\n"
            "  ltlkit train --dataset data/last-a --arch hybrid-1 --out runs/y   # train and evaluate on a dataset\n"
            "Rerunning the same command resumes from the run folder's checkpoint (Ctrl-C says where it stopped);\n"
            "a finished run is reported as already finished. Defaults not given on the command line are chosen\n"
            "for the device and recorded in RUNDIR/run.json (\"defaults\"). Syntax: docs/SYNTAX.md.");
        return [a, &app]() -> int {
            // From the start: a signal while the language is compiled and the folder checked
            // says so too (the handler installed by main said it before parsing).
            catch_interrupts("stopped before training " + a->out + " started; nothing was written; rerun the same command: " +
                             own_command_text());
            auto& c = a->c;
            c.model.pe = take(neural::parse_positional_encoding(a->pe));
            c.model.pre_ln = a->pre_ln;
            c.model.strict = !a->non_strict;
            c.model.hybrid_by_layer = a->hybrid_layers;
            c.model.arch = take(neural::parse_architecture(a->arch));
            c.evaluation.success_rule = take(neural::parse_success_rule(a->success_rule));
            c.evaluation.test_distribution = take(neural::parse_test_distribution(a->test_distribution));
            c.runtime.device = take(neural::parse_device(a->device));
            if (c.model.arch.is_transformer() && c.model.d_model % c.model.heads != 0)
                fail("--d-model " + std::to_string(c.model.d_model) + " must be a multiple of --heads " +
                     std::to_string(c.model.heads) + " (each head gets d_model / heads dimensions)");
            automata::Dfa dfa;
            std::string name;
            neural::EvalSets sets;
            if (!a->dataset.empty()) {
                if (!a->lang.formula.empty() || !a->lang.regex.empty() || !a->lang.dfa_file.empty())
                    fail("give either a language (FORMULA, --regex, --dfa) or --dataset, not both");
                auto ds = take(automata::read_dataset(a->dataset));
                dfa = ds.dfa;
                name = a->dataset;
                sets = neural::eval_sets_from_dataset(ds, c.model.arch);
                if (sets.train.empty()) fail(a->dataset + ": the dataset has no train split");
                if (a->train_lengths.empty())
                    neural::split_length_range(ds, "train", c.training.train_min, c.training.train_max);
                if (a->test_lengths.empty())
                    neural::split_length_range(ds, "test", c.evaluation.test_min, c.evaluation.test_max);
            } else {
                auto lang = load_language_or_fail(a->lang);
                dfa = lang.dfa;
                name = lang.spec.name;
            }
            if (!a->train_lengths.empty())
                set_range(a->train_lengths, "--train-lengths", c.training.train_min, c.training.train_max);
            if (!a->test_lengths.empty())
                set_range(a->test_lengths, "--test-lengths", c.evaluation.test_min, c.evaluation.test_max);
            neural::ChosenDefaults chosen;
            chosen.device = take(neural::resolve_device(c.runtime.device));
            const auto defaults = neural::device_defaults(chosen.device);
            if (!app.count("--steps")) c.training.steps = chosen.values["steps"] = defaults.steps;
            if (!app.count("--per-length")) c.evaluation.per_length = chosen.values["per_length"] = defaults.per_length;
            // Limits before anything is written or allocated (exit 3, naming the option).
            take(automata::Sampler::check_table_cells(dfa,
                                                      static_cast<std::size_t>(
                                                          std::max({c.training.train_max, c.evaluation.test_max, 0})),
                                                      automata::default_max_table_cells()));
            take(neural::check_memory(neural::estimate_memory(c, static_cast<int>(dfa.num_symbols())),
                                      a->max_memory_gb, "the run (" + to_string(c.model.arch) + ")"));
            flush_notes();
            auto estimate = std::make_shared<CostEstimateOnce>("train", c, chosen.device == neural::Device::Cuda, true,
                                                               a->quiet);
            auto position = std::make_shared<RunPosition>(a->out, true);
            const bool quiet = a->quiet;
            neural::ProgressFn progress = [position, quiet, estimate](const neural::Progress& p) {
                (*estimate)(p);
                (*position)(p);
                if (p.phase == neural::Progress::Phase::Resume)
                    std::fprintf(stderr, "resuming from step %d of %d (its checkpoint)\n", p.step, p.total);
                else if (!quiet)
                    print_progress(p);
            };
            auto r = take(neural::train_and_evaluate(dfa, c, a->out, sets, name, progress, chosen));
            return finish_run_command(r, a->out, a->json);
        };
    }});

}  // namespace
}  // namespace ltlkit::cli
