// `ltlkit generate FORMULA | --regex R | --dfa FILE | --suite FILE --out DIR`: balanced, uniformly
// sampled, reproducible datasets (docs/SYNTAX.md §11), with adversarial sets from the classifier's
// witness families for every architecture predicted to fail (docs/SYNTAX.md §12).
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "automata/algebra/adversarial.hh"
#include "automata/algebra/classify.hh"
#include "automata/dataset.hh"
#include "automata/sampler.hh"
#include "cli/command.hh"
#include "cli/common.hh"
#include "cli/interrupt.hh"

namespace ltlkit::cli {
namespace {

using namespace automata;

constexpr std::size_t kDefaultMaxDatasetBytes = std::size_t{8} << 30;  // --max-dataset-bytes: 8 GiB

struct GenerateArgs {
    LanguageArgs lang;
    std::string suite;
    std::string out;
    std::string train_lengths = "1:40";
    std::string test_lengths = "41:500";
    std::size_t per_length = 512;
    std::size_t boundary_per_length = 16;
    std::size_t adversarial_per_family = 64;
    std::uint64_t seed = 1;
    std::string format = "tsv";
    unsigned max_k = 4;
    std::size_t max_elements = 1'000'000;
    std::size_t max_dataset_bytes = kDefaultMaxDatasetBytes;
    bool no_adversarial = false;
    bool force = false;
    bool progress = false;
    bool quiet = false;
    bool json = false;
};

std::string kind_name(InputKind k) {
    switch (k) {
        case InputKind::Formula: return "formula";
        case InputKind::Regex: return "regex";
        case InputKind::DfaFile: return "dfa";
    }
    return "formula";
}

// The adversarial sets (one per architecture predicted to fail, with its witness family) and the
// predictions, recorded in meta.json under "extra".
void add_adversarial(const Language& L, const GenerateArgs& a, DatasetOptions& o) {
    using namespace automata::algebra;
    nlohmann::ordered_json extra;
    if (L.fragment) extra["fragment"] = *L.fragment;
    if (a.no_adversarial) {
        extra["adversarial"] = "disabled (--no-adversarial)";
        o.extra_meta_json = extra.dump();
        return;
    }
    ClassifyOptions co;
    co.max_k = a.max_k;
    co.max_elements = a.max_elements;
    auto c = classify(L.dfa, co);
    if (!c.ok()) {
        // Still a useful dataset without adversarial sets; say why in meta.json and on stderr.
        extra["classification_error"] = c.error().message;
        std::cerr << "ltlkit: warning: " << printable(L.spec.name + ": no adversarial sets (" + c.error().message + ")")
                  << "\n";
        o.extra_meta_json = extra.dump();
        return;
    }
    nlohmann::ordered_json preds = nlohmann::ordered_json::object();
    for (const auto& arch : predicted_architectures(a.max_k)) {
        const ArchPrediction p = predict(*c, arch);
        const std::string name = to_string(arch);
        preds[name] = {{"prediction", to_string(p.prediction)}, {"reason", p.reason}};
        if (p.prediction != Prediction::Fails) continue;
        if (auto spec = adversarial_spec(p, L.dfa.alphabet))
            o.adversarial.push_back(*spec);
        else
            preds[name]["adversarial"] = "no witness family";
    }
    extra["predictions"] = preds;
    o.extra_meta_json = extra.dump();
}

// Where generation is, for the Ctrl-C message (cli/interrupt.hh).
struct Position {
    std::string dir;
    int percent = -1;
    int index = 0, count = 0;

    void update_note() const {
        std::string note = "stopped generating " + dir;
        if (percent >= 0) note += " at " + std::to_string(percent) + "%";
        if (count > 1)
            note += " (dataset " + std::to_string(index + 1) + " of " + std::to_string(count) +
                    "; finished ones are kept, and verified on a rerun)";
        set_interrupt_note(note + "; rerun the same command to generate it (it starts over; no --force needed)");
    }
};
Position g_position;

// Progress on stderr: a live bar on a terminal; in a pipe or log (with --progress), a plain line
// when the percentage has changed, at most every few seconds, and one at the end.
class ProgressPrinter {
public:
    ProgressPrinter(std::string name, bool show) : name_(std::move(name)), show_(show), live_(isatty(2)) {}

    void operator()(std::uint64_t done, std::uint64_t total) {
        const double frac = total ? static_cast<double>(done) / static_cast<double>(total) : 1.0;
        const int percent = static_cast<int>(frac * 100);
        if (percent != g_position.percent) {
            g_position.percent = percent;
            g_position.update_note();
        }
        if (!show_ || percent == last_percent_) return;
        const auto now = std::chrono::steady_clock::now();
        const bool finished = done >= total;
        if (live_) {
            const int width = 30, filled = static_cast<int>(frac * width);
            std::string bar(static_cast<std::size_t>(filled), '#');
            bar.append(static_cast<std::size_t>(width - filled), ' ');
            std::fprintf(stderr, "\r%s [%s] %3d%% (%.1f M symbols)%s", name_.c_str(), bar.c_str(), percent,
                         static_cast<double>(done) / 1e6, finished ? "\n" : "");
        } else {
            if (!finished && last_percent_ >= 0 && now - last_line_ < kPlainInterval) return;
            std::fprintf(stderr, "%s: %d%% (%.1f of %.1f M symbols)\n", name_.c_str(), percent,
                         static_cast<double>(done) / 1e6, static_cast<double>(total) / 1e6);
            last_line_ = now;
        }
        last_percent_ = percent;
        std::fflush(stderr);
    }

private:
    static constexpr std::chrono::seconds kPlainInterval{5};
    std::string name_;
    bool show_, live_;
    int last_percent_ = -1;
    std::chrono::steady_clock::time_point last_line_{};
};

// Bytes the dataset of `dfa` will take on disk, estimated from the arguments alone (before anything
// is sampled or written): every split's words at every length of its range, each word as its
// symbols plus a generous per-line overhead (label, pair id, JSON keys); adversarial sets counted
// for every architecture that could be predicted to fail.
double planned_dataset_bytes(const Dfa& dfa, const DatasetOptions& o, const GenerateArgs& a) {
    std::size_t widest = 1;
    for (const auto& s : dfa.alphabet) widest = std::max(widest, s.size());
    const double per_symbol = widest == 1 && o.format != DatasetFormat::Flare ? 1.0 : static_cast<double>(widest) + 1;
    constexpr double kLineOverhead = 32;
    // Σ over lengths n in r of (n symbols + overhead), per word.
    auto per_word_sum = [&](const LengthRange& r) {
        const double lo = static_cast<double>(r.lo), hi = static_cast<double>(r.hi), count = hi - lo + 1;
        return per_symbol * (lo + hi) * count / 2 + kLineOverhead * count;
    };
    double bytes = 2 * static_cast<double>(o.per_length) * per_word_sum(o.train);  // train, validation
    bytes += static_cast<double>(o.per_length) * per_word_sum(o.test);
    bytes += 2 * static_cast<double>(o.boundary_per_length) * per_word_sum(o.test);
    if (!a.no_adversarial) {
        const double archs = 1 + 2.0 * a.max_k;
        bytes += archs * 2 * static_cast<double>(o.adversarial_per_family) *
                 (per_symbol * static_cast<double>(o.test.hi) + kLineOverhead);
    }
    return bytes;
}

int generate_one(const Language& L, const std::string& dir, const GenerateArgs& a, const DatasetOptions& base) {
    const LanguageSpec& spec = L.spec;
    DatasetOptions o = base;
    o.language_name = spec.name;
    o.language_kind = kind_name(spec.kind);
    o.language_text = spec.text;
    add_adversarial(L, a, o);
    g_position.dir = dir;
    g_position.percent = -1;
    g_position.update_note();
    auto printer = std::make_shared<ProgressPrinter>(spec.name, a.progress || isatty(2));
    o.progress = [printer](std::uint64_t done, std::uint64_t total) { (*printer)(done, total); };
    GenerateReport r = take(generate_dataset(L.dfa, dir, o));
    for (const auto& w : r.warnings) std::cerr << "ltlkit: warning: " << dir << ": " << w << "\n";
    if (a.json) {
        nlohmann::ordered_json j;
        j["dir"] = dir;
        j["language"] = spec.name;
        j["alphabet"] = L.dfa.alphabet;
        j["alphabet_inferred"] = alphabet_inferred(L);
        j["unchanged"] = r.unchanged;
        j["files"] = r.files;
        j["words"] = r.words;
        j["symbols"] = r.symbols;
        j["shortfalls"] = r.shortfalls;
        j["warnings"] = r.warnings;
        j["adversarial_notes"] = r.skipped_families;
        std::cout << j.dump() << "\n" << std::flush;
    } else if (!a.quiet) {
        std::cout << dir << ": " << (r.unchanged ? "unchanged (verified " : "wrote ") << r.files.size()
                  << " files, " << r.words << " words, " << r.symbols << " symbols";
        if (r.unchanged) std::cout << ")";
        if (!r.shortfalls.empty()) std::cout << "; " << r.shortfalls.size() << " shortfalls (see meta.json)";
        if (!r.skipped_families.empty()) std::cout << "; " << r.skipped_families.size() << " adversarial notes";
        std::cout << "\n";
    }
    return 0;
}

LTLKIT_COMMAND(CommandDef{
    "generate",
    "Generate a balanced, uniformly sampled, reproducible dataset (train/validation/test/boundary/adversarial)",
    [](CLI::App& app) -> Runner {
        auto a = std::make_shared<GenerateArgs>();
        add_language_options(app, a->lang);
        app.add_option("--suite", a->suite, "Suite file: one dataset per language, in DIR/<name>");
        app.add_option("--out,-o", a->out, "Output folder (created; must be empty or hold this very dataset)")->required();
        app.add_option("--train-lengths", a->train_lengths, "Train and validation lengths A:B (default 1:40)");
        app.add_option("--test-lengths", a->test_lengths, "Test lengths A:B (default 41:500)");
        app.add_option("--per-length", a->per_length, "Words per length and split, half per label (default 512)")
            ->check(at_least(1));
        app.add_option("--boundary-per-length", a->boundary_per_length, "Boundary pairs per test length (default 16)");
        app.add_option("--adversarial-per-family", a->adversarial_per_family,
                       "Adversarial pairs per witness family, spread over the test lengths (default 64)");
        app.add_option("--seed", a->seed, "Seed (default 1): same arguments, same bytes");
        app.add_option("--format", a->format, "tsv (default), jsonl or flare (main.tok + labels.txt per split folder)");
        app.add_option("--max-k", a->max_k, "Architectures local-1..K and hybrid-1..K for the adversarial sets (default 4)")
            ->check(CLI::Range(1u, 64u));
        app.add_option("--max-elements", a->max_elements, "Semigroup limit of the classifier (default 1000000)");
        app.add_option("--max-dataset-bytes", a->max_dataset_bytes,
                       "Refuse (before writing anything) when the planned dataset would exceed this many "
                       "bytes (default " + std::to_string(kDefaultMaxDatasetBytes) + ", 8 GiB)");
        add_table_cells_option(app);
        app.add_flag("--no-adversarial", a->no_adversarial, "Skip the classifier and the adversarial sets");
        app.add_flag("--force", a->force, "Write into a non-empty DIR holding something else");
        app.add_flag("--progress", a->progress,
                     "Progress on stderr even when it is not a terminal: then a plain line when the percentage "
                     "changes, at most every 5 s (a terminal gets a live bar without this flag)");
        app.add_flag("--quiet,-q", a->quiet, "No summary line on stdout");
        app.add_flag("--json", a->json,
                     "One JSON object per dataset on stdout instead of the summary line: dir, language, alphabet, "
                     "alphabet_inferred, unchanged, files, words, symbols, shortfalls, warnings, adversarial_notes");
        app.footer(
            "Examples:\n  ltlkit generate 'Y a' --alphabet a,b --out data/last-a\n"
            "  ltlkit generate --regex '(ab)*' --alphabet a,b --test-lengths 41:100 --per-length 64 --out d\n"
            "  ltlkit generate --suite examples/lc26.suite --out data/");
        return [a] {
            DatasetOptions o;
            o.train = take(parse_length_range(a->train_lengths));
            o.test = take(parse_length_range(a->test_lengths));
            o.format = take(parse_dataset_format(a->format));
            o.per_length = a->per_length;
            o.boundary_per_length = a->boundary_per_length;
            o.adversarial_per_family = a->adversarial_per_family;
            o.seed = a->seed;
            o.force = a->force;
            std::vector<LanguageSpec> specs;
            std::vector<std::string> dirs;
            if (a->suite.empty()) {
                specs.push_back(language_spec(a->lang));
                dirs.push_back(a->out);
            } else {
                if (!a->lang.formula.empty() || !a->lang.regex.empty() || !a->lang.dfa_file.empty())
                    fail("give either a language or --suite, not both");
                specs = take(read_suite(a->suite));
                for (auto& spec : specs) {
                    if (spec.name.empty() || spec.name.find('/') != std::string::npos || spec.name == "." || spec.name == ".." ||
                        spec.name.size() > automata::kMaxLanguageName)
                        fail(a->suite + ": language name '" + spec.name + "' cannot be a folder name");
                    spec.max_states = a->lang.max_states;
                    spec.max_work = a->lang.max_work;
                    dirs.push_back((std::filesystem::path(a->out) / spec.name).string());
                }
            }
            // Every language and every limit is checked before anything is written.
            std::vector<Language> languages;
            double bytes = 0;
            const std::size_t max_length = std::max(o.train.hi, o.test.hi);
            for (const auto& spec : specs) {
                languages.push_back(take(load_language_checked(spec)));
                bytes += planned_dataset_bytes(languages.back().dfa, o, *a);
                if (bytes > static_cast<double>(a->max_dataset_bytes)) {
                    char text[32];
                    std::snprintf(text, sizeof text, "%.3g", bytes);
                    fail(limit_error(std::string("the planned dataset") + (specs.size() > 1 ? "s" : "") +
                                     " would take about " + text + " bytes (--per-length " + std::to_string(o.per_length) +
                                     " and --boundary-per-length " + std::to_string(o.boundary_per_length) +
                                     " over lengths " + to_string(o.train) + " and " + to_string(o.test) +
                                     ") > --max-dataset-bytes " +
                                     std::to_string(a->max_dataset_bytes) +
                                     "; raise --max-dataset-bytes or lower these"));
                }
                take(Sampler::check_table_cells(languages.back().dfa, max_length, default_max_table_cells()));
            }
            flush_notes();
            g_position.count = static_cast<int>(languages.size());
            catch_interrupts("stopped generating; rerun the same command to generate it");
            for (std::size_t i = 0; i < languages.size(); ++i) {
                g_position.index = static_cast<int>(i);
                generate_one(languages[i], dirs[i], *a, o);
            }
            release_interrupts();
            return 0;
        };
    }});

}  // namespace
}  // namespace ltlkit::cli
