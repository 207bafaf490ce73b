// `ltlkit classify FORMULA | --regex R | --dfa FILE`: the classes (docs/SYNTAX.md §12) with one line of
// evidence each, the window answers, the predictions per architecture, and optionally
// every certificate as a file.
#include <algorithm>
#include <array>
#include <filesystem>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "automata/algebra/budget.hh"
#include "automata/algebra/classification_json.hh"
#include "automata/algebra/classes.hh"
#include "automata/algebra/classify.hh"
#include "automata/algebra/subregular.hh"
#include "base/file.hh"
#include "cli/command.hh"
#include "cli/common.hh"

namespace ltlkit::cli {
namespace {

using namespace automata;
using namespace automata::algebra;

struct ClassifyArgs {
    LanguageArgs lang;
    unsigned max_k = 4;
    std::size_t max_elements = 1'000'000;
    std::size_t formula_cap = 200'000;
    std::size_t window_budget = 200'000;
    unsigned probe_depth = 8;
    std::size_t probe_states = 500'000;
    std::uint64_t window_work = ClassifyOptions::kDefaultWindowWork;
    double window_time = 0;
    std::string window_clock = "wall";
    std::size_t window_memory_mb = 400;
    bool json = false;
    bool no_subregular = false;
    SubregularOptions subregular;
    std::string certificates;
    std::string input;
};

std::string file_name(const automata::ClassId& id) {
    std::string s = to_string(id);
    for (char& c : s)
        if (c == ':') c = '-';
    return s + ".json";
}

void write_certificates(const Classification& c, const automata::Language& L, const std::string& dir) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) fail(dir + ": cannot create folder: " + ec.message(), 4);
    for (const auto& [id, cert] : c.certificates) {
        auto path = (std::filesystem::path(dir) / file_name(id)).string();
        take(write_output_file(path, certificate_to_json(cert, L.dfa) + "\n"));
    }
}

std::string word_or_empty(const std::vector<std::string>& alphabet, const automata::Word& w) {
    return w.empty() ? "'' (the empty word)" : automata::format_word(alphabet, w);
}

// The subregular section (docs/SUBREGULAR.md): mark, name with parameters, fact, and the prediction
// that follows from the class, wrapped like the class rows.
std::string render_subregular_text(const std::vector<SubregularDecision>& ds, std::size_t width);

std::string mark(std::optional<bool> v) { return !v ? "?" : *v ? "✓" : "✗"; }
std::string mark(Answer v) { return v == Answer::Yes ? "✓" : v == Answer::No ? "✗" : "?"; }

std::string render_subregular_text(const std::vector<SubregularDecision>& ds, std::size_t width) {
    std::vector<std::pair<std::string, const SubregularDecision*>> rows;
    std::size_t label_width = 0;
    for (const auto& d : ds) {
        std::string ps;
        for (auto& [k, v] : d.params.items()) ps += (ps.empty() ? "" : ", ") + k + "=" + (v.is_string() ? v.get<std::string>() : v.dump());
        rows.push_back({to_string(d.id) + (ps.empty() ? "" : " (" + ps + ")"), &d});
        label_width = std::max(label_width, display_width(rows.back().first));
    }
    std::string out = "subregular classes (docs/SUBREGULAR.md):\n";
    for (const auto& [label, d] : rows) {
        out += wrap_text("  " + mark(d->member) + " " + pad_right(label, label_width) + "  " + d->fact, width, 4 + label_width + 2);
        if (auto note = subregular_prediction_note(*d); !note.empty())
            out += wrap_text(std::string(4 + label_width + 2, ' ') + "⇒ " + note, width, 4 + label_width + 4);
    }
    return out;
}

// The text report: classes with their evidence, then one line per prediction with its reason and
// labelled witnesses; every row wrapped to `width` columns under its own text column.
std::string render_text(const Classification& c, const automata::Language& L, const ClassifyArgs& a, std::size_t width) {
    std::string out = "language: " + L.spec.name + "\n";
    std::string alphabet;
    for (std::size_t i = 0; i < c.alphabet.size(); ++i) alphabet += (i ? "," : "") + c.alphabet[i];
    out += wrap_text("alphabet: " + alphabet + (alphabet_inferred(L) ? " (inferred)" : "") +
                         "   fragment: " + (L.fragment ? *L.fragment : std::string("-")) +
                         "   minimal DFA: " + std::to_string(c.states) + " states",
                     width, 2);
    out += "\nclasses:\n";
    std::vector<std::array<std::string, 3>> rows;  // mark, label, evidence
    for (const auto& row : class_table()) {
        auto v = c.classes.at(row.id());
        std::string label = to_string(row.id());
        if (row.kind == automata::ClassKind::Definite && c.definite_degree) label += " (degree " + std::to_string(*c.definite_degree) + ")";
        rows.push_back({mark(v), label, v ? c.certificates.at(row.id()).fact : c.null_reasons.at(row.id())});
    }
    for (bool hybrid : {false, true})
        for (const auto& [k, v] : hybrid ? c.hybrid_k : c.local_k)
            rows.push_back({mark(v), to_string(window_class_id(hybrid, k)), c.certificates.at(window_class_id(hybrid, k)).fact});
    std::size_t label_width = 0;
    for (const auto& r : rows) label_width = std::max(label_width, display_width(r[1]));
    for (const auto& r : rows)
        out += wrap_text("  " + r[0] + " " + pad_right(r[1], label_width) + "  " + r[2], width, 4 + label_width + 2);
    out += "\npredictions:\n";
    const std::vector<Architecture> archs = predicted_architectures(a.max_k);
    std::size_t arch_width = 0;
    for (const auto& arch : archs) arch_width = std::max(arch_width, to_string(arch).size());
    const std::size_t verdict_width = std::string("recognizes,").size();
    const std::size_t indent = 2 + arch_width + 2 + verdict_width + 1;
    for (const auto& arch : archs) {
        const ArchPrediction p = predict(c, arch);
        out += wrap_text("  " + pad_right(to_string(arch), arch_width) + "  " + pad_right(to_string(p.prediction) + ",", verdict_width) +
                             " because " + explain_prediction(c, p, &L.dfa),
                         width, indent);
        if (auto w = labelled_witness(p, L.dfa))
            out += wrap_text(std::string(indent, ' ') + "accepted: " + word_or_empty(c.alphabet, w->first) +
                                 ", rejected: " + word_or_empty(c.alphabet, w->second),
                             width, indent);
    }
    return out;
}

LTLKIT_COMMAND(CommandDef{
    "classify",
    "Decide the classes of a language (with certificates) and predict which attention architectures recognize it",
    [](CLI::App& app) -> Runner {
        auto a = std::make_shared<ClassifyArgs>();
        add_language_options(app, a->lang);
        app.add_option("--max-k", a->max_k, "Largest window k for local_k / hybrid_k and the predictions (default 4)")
            ->check(CLI::Range(1u, 64u));
        app.add_option("--max-elements", a->max_elements,
                       "Largest syntactic semigroup enumerated (classes decided only through it are null above)");
        app.add_option("--formula-cap", a->formula_cap, "Member formulas of larger tree size are omitted from certificates");
        app.add_option("--window-budget", a->window_budget,
                       "Search steps per local_k / hybrid_k question before the depth probe (default 200000)");
        app.add_option("--probe-depth", a->probe_depth,
                       "Depths 1..D of the exact depth probe behind an unknown window answer (docs/WINDOWS.md §4; default 8)")
            ->check(CLI::Range(0u, 64u));
        app.add_option("--probe-states", a->probe_states,
                       "Product states the depth probe explores per depth (default 500000)");
        app.add_option("--window-work", a->window_work,
                       "Search steps (polls of the searches and the depth probe) shared by the local_k / hybrid_k questions, each an "
                       "equal share of what is left, and what is left at the end goes to the questions it stopped, asked again; a "
                       "question out of steps answers unknown and says so. Counted in work, not "
                       "time, so the answers do not depend on the machine or its load (default " +
                           std::to_string(ClassifyOptions::kDefaultWindowWork) + ", at most about 1.7 s of CPU and 150 MB on 4-letter DFAs of up to 12 states; 0 = no limit)");
        app.add_option("--window-time", a->window_time,
                       "Also bound the window questions by seconds (see --window-clock), shared the same way; the answers then "
                       "depend on the machine's speed and load (default: none)")
            ->check(CLI::Range(0.0, 1e6));
        app.add_option("--window-clock", a->window_clock,
                       "What --window-time measures: wall (elapsed time; the default) or cpu (the CPU time of the thread that classifies, "
                       "so that the answers do not depend on the machine's load)")
            ->check(CLI::IsMember({"wall", "cpu"}));
        app.add_option("--window-memory", a->window_memory_mb,
                       "Memory (MiB) a local_k / hybrid_k question may add to the process's resident memory before it stops "
                       "and answers unknown (default 400; 0 = no limit)")
            ->check(CLI::Range(std::size_t(0), std::size_t(1) << 30));
        app.add_flag("--json", a->json,
                     "Print one JSON object (alphabet, alphabet_inferred, fragment, states, classes, definite_degree, "
                     "local_k, hybrid_k, predictions, prediction_reasons, witnesses, certificates, subregular); with --input, "
                     "one object per line");
        app.add_flag("--no-subregular", a->no_subregular,
                     "Skip the subregular classes (finite, SL, SP, LT, PT, LTT, TSL, DA, ...; docs/SUBREGULAR.md)");
        app.add_option("--sl-max-states", a->subregular.max_pair_states,
                       "Live states up to which SL and TSL build their pair graph (4 bytes per pair; above: null); SP's pair search "
                       "stops after N²/8 pairs (default 4000; 10000 takes about 200 MB; at most 30000)")
            ->check(CLI::Range(std::size_t(1), SubregularLimitCaps::max_pair_states));
        app.add_option("--type-max-states", a->subregular.max_type_states,
                       "Product states of one k-type search (the least k of LT, PT, LTT; default 20000, at most 5000000)")
            ->check(CLI::Range(std::size_t(1), SubregularLimitCaps::max_type_states));
        app.add_option("--subregular-max-k", a->subregular.max_k, "Largest k searched for LT, PT and LTT (default 4, at most 16)")
            ->check(CLI::Range(1u, SubregularLimitCaps::max_k));
        app.add_option("--subregular-max-t", a->subregular.max_t, "Largest threshold t searched for LTT (default 3, at most 16)")
            ->check(CLI::Range(1u, SubregularLimitCaps::max_t));
        app.add_option("--subregular-max-elements", a->subregular.max_elements,
                       "Largest syntactic semigroup of the subregular classes DA and LTT (lowered so that elements x states stay "
                       "under 5e7; default 20000, at most 1000000)")
            ->check(CLI::Range(std::size_t(1), SubregularLimitCaps::max_elements));
        app.add_option("--certificates", a->certificates,
                       "Write one certificate file per class into DIR (with --input: into DIR/N for the N-th formula)");
        app.add_option("--input", a->input,
                       "Read formulas from FILE ('-' = stdin), one per line ('#' and blank lines skipped); the "
                       "classifications follow in order");
        app.footer("Examples:\n  ltlkit classify 'P(b & Y a)' --alphabet a,b\n"
                   "  ltlkit classify --regex '(ab)*' --alphabet a,b --json\n"
                   "  ltlkit classify --dfa lang.json --certificates certs/\n"
                   "  printf 'Y a\\nP(b & Y a)\\n' | ltlkit classify --input - --alphabet a,b --max-k 2\n"
                   "Syntax and semantics: docs/SYNTAX.md. Predictions: global <-> R-trivial (LTL[P]), local-1 <-> "
                   "definite (LTL[Y]),\nhybrid-1 <-> locally R-trivial (LTL[P,Y]), local-k / hybrid-k <-> LTL[Y<=k] / "
                   "LTL[P,Y<=k] (docs/WINDOWS.md).");
        return [a] {
            const std::vector<automata::Language> langs = load_languages(a->lang, a->input);
            ClassifyOptions o;
            o.max_k = a->max_k;
            o.max_elements = a->max_elements;
            o.formula_cap = a->formula_cap;
            o.window_budget = a->window_budget;
            o.probe_depth = a->probe_depth;
            o.probe_states = a->probe_states;
            o.window_work = a->window_work;
            o.window_time_s = a->window_time;
            set_budget_clock(a->window_clock == "cpu" ? BudgetClockKind::ThreadCpu : BudgetClockKind::Wall);
            o.window_memory_bytes = a->window_memory_mb << 20;
            o.progress = [](const std::string& question, double seconds, std::size_t rss) {
                std::cerr << "ltlkit: classify: " << question << ": still searching after " << int(seconds) << " s, "
                          << (rss >> 20) << " MiB resident\n";
            };
            std::vector<Classification> results;
            for (const auto& L : langs) {
                ClassifyOptions lo = o;
                if (L.formula) lo.source = *L.formula;  // a formula already in a window fragment is its own certificate
                results.push_back(take(classify(L.dfa, lo)));
            }
            if (!a->certificates.empty()) {
                for (std::size_t i = 0; i < langs.size(); ++i) {
                    std::filesystem::path dir(a->certificates);
                    if (!a->input.empty()) dir /= std::to_string(i + 1);
                    write_certificates(results[i], langs[i], dir.string());
                }
            }
            // The subregular classes (docs/SUBREGULAR.md), their certificates next to the others.
            std::vector<std::vector<SubregularDecision>> sub(langs.size());
            for (std::size_t i = 0; i < langs.size() && !a->no_subregular; ++i) sub[i] = classify_subregular(langs[i].dfa, a->subregular);
            for (std::size_t i = 0; i < langs.size() && !a->certificates.empty(); ++i)
                for (const auto& d : sub[i]) {
                    std::filesystem::path dir(a->certificates);
                    if (!a->input.empty()) dir /= std::to_string(i + 1);
                    take(write_output_file((dir / (to_string(d.id) + ".json")).string(), subregular_certificate_json(d, langs[i].dfa) + "\n"));
                }
            std::string out;
            for (std::size_t i = 0; i < langs.size(); ++i) {
                if (a->json) {
                    ClassificationJsonContext context;
                    context.max_k = a->max_k;
                    context.alphabet_inferred = alphabet_inferred(langs[i]);
                    if (!a->input.empty()) context.input = langs[i].spec.text;
                    context.fragment = langs[i].fragment;
                    if (!a->no_subregular) context.subregular = &sub[i];
                    out += classification_to_json(results[i], langs[i].dfa, context).dump(a->input.empty() ? 2 : -1) + "\n";
                } else {
                    out += (i ? "\n" : "") + render_text(results[i], langs[i], *a, terminal_width());
                    if (!a->no_subregular) out += "\n" + render_subregular_text(sub[i], terminal_width());
                }
            }
            write_stdout(out);
            return 0;
        };
    }});

}  // namespace
}  // namespace ltlkit::cli
