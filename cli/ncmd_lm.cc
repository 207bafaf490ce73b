// `ltlkit lm train|eval|sweep`: causal language models with global, local-K and hybrid-K attention
// on WikiText-2 (word level) or any UTF-8 text (char or byte level). A thin layer over neural/lm/lm.hh.
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>

#include "cli/command.hh"
#include "cli/common.hh"
#include "neural/lm/lm.hh"

namespace ltlkit::cli {
namespace {

namespace lm = neural::lm;

// Options that override the profile's value only when given.
struct ConfigOptions {
    std::string profile = "cpu";
    std::vector<std::function<void(lm::LmConfig&)>> apply;
    bool quiet = false;

    // An option for field `field` of the config's part `part`.
    template <class Part, class T>
    void add(CLI::App& app, const std::string& name, Part lm::LmConfig::*part, T Part::*field, const std::string& help) {
        auto value = std::make_shared<T>();
        CLI::Option* o = app.add_option(name, *value, help);
        apply.push_back([o, value, part, field](lm::LmConfig& c) {
            if (o->count() > 0) c.*part.*field = *value;
        });
    }
    // An option whose text `parse` turns into the field's value; its error is prefixed by `context`.
    template <class Part, class T>
    void add_parsed(CLI::App& app, const std::string& name, Part lm::LmConfig::*part, T Part::*field,
                    Result<T> (*parse)(const std::string&), const std::string& context, const std::string& help) {
        auto text = std::make_shared<std::string>();
        CLI::Option* o = app.add_option(name, *text, help);
        apply.push_back([o, text, part, field, parse, context](lm::LmConfig& c) {
            if (o->count() == 0) return;
            auto value = parse(*text);
            if (!value.ok()) fail(context + value.error().message);
            c.*part.*field = *value;
        });
    }
    void flag(CLI::App& app, const std::string& name, bool lm::LmModel::*field, const std::string& help) {
        CLI::Option* o = app.add_flag(name, help);
        apply.push_back([o, field](lm::LmConfig& c) {
            if (o->count() > 0) c.model.*field = true;
        });
    }
    lm::LmConfig config() const {
        lm::LmConfig c = take(lm::lm_profile(profile));
        for (const auto& f : apply) f(c);
        take(lm::check_lm_config(c));
        return c;
    }
};

void add_exec_options(CLI::App& app, ConfigOptions& o) {
    constexpr auto runtime = &lm::LmConfig::runtime;
    o.add(app, "--threads", runtime, &lm::LmRuntime::threads, "CPU threads (default 1)");
    o.add_parsed(app, "--device", runtime, &lm::LmRuntime::device, &neural::parse_device, "",
                 "auto | cpu | cuda (profile gpu: cuda; otherwise auto)");
    o.add(app, "--eval-tokens", runtime, &lm::LmRuntime::eval_tokens, "Score at most this many tokens per split (default 0: all)");
}

void add_model_options(CLI::App& app, ConfigOptions& o, bool with_arch) {
    constexpr auto model = &lm::LmConfig::model;
    constexpr auto training = &lm::LmConfig::training;
    constexpr auto runtime = &lm::LmConfig::runtime;
    app.add_option("--profile", o.profile, "cpu (default: 2 layers, d 128, 4 heads, context 128, batch 16, 400 steps) | gpu (GPT-2 small: 12 layers, d 768, 12 heads, context 512)");
    if (with_arch) {
        o.add_parsed(app, "--arch", model, &lm::LmModel::arch, &neural::parse_architecture, "",
                     "global (default) | local-K | hybrid-K");
        o.add_parsed(app, "--pe", model, &lm::LmModel::pe, &neural::parse_positional_encoding, "--pe: ",
                     "Positional encoding: learned (default) | sinusoidal | rope | none");
        o.add(app, "--seed", training, &lm::LmTraining::seed, "Seed of initialization and batches (default 1)");
    }
    o.add(app, "--layers", model, &lm::LmModel::layers, "Transformer layers");
    o.add(app, "--d-model", model, &lm::LmModel::d_model, "Model width");
    o.add(app, "--heads", model, &lm::LmModel::heads, "Attention heads (hybrid-K: ceil(h/2) global, floor(h/2) K-local)");
    o.add(app, "--d-ff", model, &lm::LmModel::d_ff, "Feed-forward width");
    o.add(app, "--context", model, &lm::LmModel::context, "Tokens per training and evaluation window (learned PE rows)");
    o.add(app, "--steps", training, &lm::LmTraining::steps, "Training steps");
    o.add(app, "--batch", training, &lm::LmTraining::batch, "Windows per step");
    o.add(app, "--lr", training, &lm::LmTraining::lr, "Peak Adam learning rate (warm-up, then cosine decay to 10%)");
    o.add(app, "--warmup", training, &lm::LmTraining::warmup, "Warm-up steps");
    o.add(app, "--checkpoint-every", runtime, &lm::LmRuntime::checkpoint_every, "Steps between checkpoints (and at the end)");
    o.add(app, "--log-every", runtime, &lm::LmRuntime::log_every, "Steps between progress lines");
    o.add(app, "--eval-every", runtime, &lm::LmRuntime::eval_every, "Steps between validation losses in metrics.jsonl (default: at the end)");
    o.flag(app, "--strict", &lm::LmModel::strict, "Strict masks (j < i): position 1 attends to nothing (zero vector); default standard causal masks (j <= i)");
    o.flag(app, "--hybrid-layers", &lm::LmModel::hybrid_by_layer, "hybrid-K: alternate local and global layers (local first) instead of mixing heads");
    add_exec_options(app, o);
    app.add_flag("--quiet,-q", o.quiet, "No progress lines");
}

struct CorpusOptions {
    std::string wikitext, tokenizer;
    lm::CorpusFiles files;
};

void add_corpus_options(CLI::App& app, CorpusOptions& o) {
    app.add_option("--wikitext", o.wikitext, "Folder with WikiText-2's wiki.train.tokens, wiki.valid.tokens, wiki.test.tokens (word level)");
    app.add_option("--train", o.files.train, "Training text (UTF-8)");
    app.add_option("--valid", o.files.valid, "Validation text");
    app.add_option("--test", o.files.test, "Test text");
    app.add_option("--tokenizer", o.tokenizer, "word | char | byte (default: word for --wikitext, else char)");
}

lm::Corpus load_corpus(const CorpusOptions& o) {
    lm::CorpusFiles f = o.files;
    if (!o.wikitext.empty()) {
        if (!f.train.empty() || !f.valid.empty() || !f.test.empty())
            fail("give either --wikitext DIR or --train/--valid/--test, not both");
        f = lm::wikitext_files(o.wikitext);
    } else {
        if (f.train.empty() && f.valid.empty() && f.test.empty())
            fail("no corpus given: pass --wikitext DIR or --train FILE --valid FILE --test FILE");
        if (f.train.empty() || f.valid.empty() || f.test.empty())
            fail("--train, --valid and --test are all needed (one text file per split)");
        f.tokenizer = "char";
    }
    if (!o.tokenizer.empty()) f.tokenizer = o.tokenizer;
    return take(lm::read_corpus(f));
}

lm::LmProgressFn progress_printer(bool quiet, std::string prefix = "") {
    if (quiet) return nullptr;
    return [prefix](const lm::LmProgress& p) {
        std::fprintf(stderr, "%sstep %d/%d  loss %.4f  lr %.2e  %.0f tok/s  eta %.0fs\n", prefix.c_str(), p.step,
                     p.total, p.loss, p.lr, p.tokens_per_second, std::ceil(p.eta_seconds));
    };
}

void print_result(const lm::LmResult& r, const std::string& rundir, bool json) {
    if (json) {
        std::cout << lm::lm_result_to_json(r);
        return;
    }
    for (auto [name, s] : {std::pair{"valid", &r.valid}, std::pair{"test", &r.test}})
        std::cout << format("%-5s perplexity %.3f per token, %.4f per character, %.4f bits per character (%ld tokens, %ld characters)\n",
                    name, s->ppl_token(), s->ppl_char(), s->bits_per_char(), s->tokens, s->chars);
    std::cout << format("unigram baseline: valid perplexity %.3f per token\n", r.unigram_valid_ppl);
    std::cout << format("%d steps, %.1f s training, %.0f tokens/s, %ld parameters: %s/result.json\n", r.steps_done,
                r.train_seconds, r.tokens_per_second, r.parameters, rundir.c_str());
}

std::vector<std::string> split_list(const std::string& s) {
    std::vector<std::string> out;
    std::string cur;
    for (char ch : s + ",") {
        if (ch == ',') {
            if (!cur.empty()) out.push_back(cur);
            cur.clear();
        } else if (ch != ' ') {
            cur += ch;
        }
    }
    return out;
}

LTLKIT_COMMAND(CommandDef{
    "lm",
    "Causal language models with global, local-K and hybrid-K attention (train, eval, sweep)\n"
    "Example: ltlkit lm train --train t.txt --valid v.txt --test e.txt --arch hybrid-1 --pe rope --out runs/lm1\n"
    "         (each takes --json: train and eval print result.json on stdout, sweep table.json)",
    [](CLI::App& app) -> Runner {
        app.require_subcommand(1);
        // train
        auto* train = app.add_subcommand("train", "Train one language model and report validation and test perplexity");
        auto tc = std::make_shared<ConfigOptions>();
        auto tcorpus = std::make_shared<CorpusOptions>();
        auto tout = std::make_shared<std::string>();
        auto tjson = std::make_shared<bool>(false);
        add_corpus_options(*train, *tcorpus);
        add_model_options(*train, *tc, true);
        train->add_option("--out", *tout, "Run folder (run.json, checkpoint.pt, metrics.jsonl, result.json); resumed when it holds a checkpoint")->required();
        train->add_flag("--json", *tjson, "Print result.json on stdout");
        train->footer(
            "Examples:\n"
            "  ltlkit lm train --train t.txt --valid v.txt --test e.txt --arch hybrid-1 --pe rope --out runs/lm1\n"
            "  ltlkit lm train --train t.txt --valid v.txt --test e.txt --arch local-2 --steps 200 --json --out runs/lm2\n"
            "Rerunning the same command resumes from the run folder's checkpoint.");
        // eval
        auto* eval = app.add_subcommand("eval", "Re-evaluate a trained run (optionally on other validation/test files)");
        auto ec = std::make_shared<ConfigOptions>();
        auto erun = std::make_shared<std::string>();
        auto evalid = std::make_shared<std::string>(), etest = std::make_shared<std::string>();
        auto ejson = std::make_shared<bool>(false);
        auto econtext = std::make_shared<int>(0);
        eval->add_option("RUNDIR", *erun, "Run folder written by `ltlkit lm train`")->required();
        eval->add_option("--valid", *evalid, "Validation text (default: the run's)");
        eval->add_option("--test", *etest, "Test text (default: the run's)");
        eval->add_option("--context", *econtext, "Score windows of this many tokens (default: the training context; learned positions cannot go above it)");
        add_exec_options(*eval, *ec);
        eval->add_flag("--json", *ejson, "Print result.json on stdout");
        eval->footer(
            "Examples:\n"
            "  ltlkit lm eval runs/lm1                      # the run's validation and test files\n"
            "  ltlkit lm eval runs/lm1 --test other.txt --context 512 --json");
        // sweep
        auto* sweep = app.add_subcommand("sweep", "Train pattern x k x positional encoding x seed; table and figure of perplexities");
        auto sc = std::make_shared<ConfigOptions>();
        auto scorpus = std::make_shared<CorpusOptions>();
        auto sout = std::make_shared<std::string>();
        auto patterns = std::make_shared<std::string>("global,local,hybrid");
        auto ks = std::make_shared<std::string>("1,2,4");
        auto archs = std::make_shared<std::string>();
        auto pes = std::make_shared<std::string>("learned,rope,sinusoidal");
        auto seeds = std::make_shared<int>(2);
        auto table_only = std::make_shared<bool>(false);
        add_corpus_options(*sweep, *scorpus);
        add_model_options(*sweep, *sc, false);
        sweep->add_option("--patterns", *patterns, "Attention patterns (default global,local,hybrid)");
        sweep->add_option("--ks", *ks, "Window sizes k of local and hybrid (default 1,2,4)");
        sweep->add_option("--archs", *archs, "Explicit list instead of --patterns x --ks (e.g. global,local-1,hybrid-1)");
        sweep->add_option("--pes", *pes, "Positional encodings (default learned,rope,sinusoidal)");
        sweep->add_option("--seeds", *seeds, "Seeds 1..S per cell (default 2)");
        sweep->add_flag("--table-only", *table_only, "Train nothing: write the table and figure of the runs already finished");
        sweep->add_option("--out", *sout, "Sweep folder: one run folder per (pattern, encoding, seed), table.md, table.json, figure.svg")->required();
        auto sjson = std::make_shared<bool>(false);
        sweep->add_flag("--json", *sjson, "Print table.json on stdout (instead of the table)");
        sweep->footer(
            "Examples:\n"
            "  ltlkit lm sweep --train t.txt --valid v.txt --test e.txt --patterns local,hybrid --ks 1,2 --pes rope --seeds 1 --out sweeps/s1\n"
            "  ltlkit lm sweep --train t.txt --valid v.txt --test e.txt --archs global,hybrid-1 --table-only --json --out sweeps/s1\n"
            "A second call skips every finished run (an interrupted one resumes).");

        return [=]() -> int {
            if (train->parsed()) {
                const lm::LmConfig c = tc->config();
                const lm::Corpus corpus = load_corpus(*tcorpus);
                auto r = take(lm::train_lm(c, corpus, *tout, progress_printer(tc->quiet)));
                print_result(r, *tout, *tjson);
                return 0;
            }
            if (eval->parsed()) {
                auto run = take(lm::read_lm_run(*erun));
                lm::CorpusFiles f = run.second;
                if (!evalid->empty()) f.valid = *evalid;
                if (!etest->empty()) f.test = *etest;
                const lm::LmConfig exec = ec->config();
                auto r = take(lm::evaluate_lm(*erun, take(lm::read_corpus(f)), exec.runtime, *econtext));
                print_result(r, *erun, *ejson);
                return 0;
            }
            lm::SweepSpec spec;
            spec.base = sc->config();
            spec.out = *sout;
            spec.seeds = *seeds;
            spec.table_only = *table_only;
            for (const auto& pe : split_list(*pes)) {
                auto value = neural::parse_positional_encoding(pe);
                if (!value.ok()) fail("--pe: " + value.error().message);
                spec.pes.push_back(*value);
            }
            if (!archs->empty()) {
                for (const auto& a : split_list(*archs)) spec.archs.push_back(take(neural::parse_architecture(a)));
            } else {
                std::vector<int> kv;
                for (const auto& k : split_list(*ks)) {
                    try {
                        std::size_t used = 0;
                        kv.push_back(std::stoi(k, &used));
                        if (used != k.size() || kv.back() < 1) throw std::invalid_argument(k);
                    } catch (const std::exception&) {
                        fail("--ks: '" + k + "' is not a window size k >= 1");
                    }
                }
                std::vector<neural::Architecture::Kind> kinds;
                for (const auto& p : split_list(*patterns)) {
                    if (p == "global") kinds.push_back(neural::Architecture::Kind::Global);
                    else if (p == "local") kinds.push_back(neural::Architecture::Kind::Local);
                    else if (p == "hybrid") kinds.push_back(neural::Architecture::Kind::Hybrid);
                    else fail("--patterns: unknown pattern '" + p + "' (expected global, local or hybrid)");
                }
                spec.archs = lm::sweep_archs(kinds, kv);
            }
            const lm::Corpus corpus = load_corpus(*scorpus);
            auto cells = take(lm::run_sweep(
                spec, corpus,
                [quiet = sc->quiet](const std::string& name, bool skipped) {
                    if (!quiet) std::fprintf(stderr, "%s %s\n", skipped ? "done already:" : "run", name.c_str());
                },
                progress_printer(sc->quiet, "  ")));
            if (*sjson) {
                std::cout << lm::sweep_json(cells);
                return 0;
            }
            std::cout << lm::sweep_markdown(cells);
            std::cout << "table: " << *sout << "/table.md, " << *sout << "/table.json; figure: " << *sout << "/figure.svg\n";
            return 0;
        };
    }});

}  // namespace
}  // namespace ltlkit::cli
