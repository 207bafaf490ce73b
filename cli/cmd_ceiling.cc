// `ltlkit ceiling LANGUAGE --arch local-K --layers L`: the exact best accuracy any L-layer k-local
// NoPE strict-mask recognizer can reach on a word distribution (docs/CEILING.md), or on the words
// of a dataset split (--dataset DIR), or on the LC25 near-miss test words that `verify
// --test-distribution lc25` draws (--distribution lc25).
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "automata/ceiling.hh"
#include "automata/dataset.hh"
#include "automata/random.hh"
#include "cli/command.hh"
#include "cli/common.hh"

namespace ltlkit::cli {
namespace {

using namespace automata;

struct CeilingArgs {
    LanguageArgs lang;
    std::string arch;
    unsigned layers = 2;
    std::string distribution = "training";
    std::string lengths;  // default per distribution
    std::size_t per_length = 512;
    std::string dataset, split = "test", weighting;
    std::string name;  // --distribution lc25: the language's name in its suite (the sample's seed)
    std::size_t max_dp_states = 4'000'000;
    double time_limit = 120;
    bool rows = false, json = false;
};

std::string percent(double x) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f%%", 100 * x);
    return buf;
}

std::string render_text(const CeilingResult& r, const std::string& language, bool rows) {
    std::string out = "language: " + language + "\n";
    out += "architecture: " + r.arch + ", " + std::to_string(r.layers) + " layer" + (r.layers == 1 ? "" : "s") +
           " (the EOS vector depends on the last " + std::to_string(r.window * r.layers) + " symbols at most)\n";
    out += "distribution: " + to_string(r.distribution);
    if (r.distribution == CeilingDistribution::Empirical)
        out += " (" + std::to_string(r.words) + " words, lengths " + to_string(r.lengths) + ", weighting " +
               to_string(r.weighting) + ")\n";
    else
        out += ", lengths " + to_string(r.lengths) +
               (r.distribution == CeilingDistribution::Test ? ", " + std::to_string(r.per_length) + " words per length" : "") +
               "\n";
    if (r.exact)
        out += "ceiling: " + percent(*r.value) + " (exact)\n";
    else
        out += "ceiling: between " + percent(r.lower) + " and " + percent(r.upper) + " (not exact: " + r.reason +
               "; lower = " + (r.lower_layers ? "the exact ceiling at " + std::to_string(r.lower_layers) + " layers"
                                                : std::string("the best constant answer")) +
               ", upper = a model that sees the last " + std::to_string(r.window * r.layers) + " symbols exactly)\n";
    out += "best constant answer: " + percent(r.constant_accuracy) + " (" + (r.constant_label ? "accept" : "reject") + ")\n";
    char buf[160];
    std::snprintf(buf, sizeof buf, "EOS types: %zu, states explored: %zu, %.2f s\n", r.types, r.states_explored, r.seconds);
    out += buf;
    if (rows) {
        out += "\nlength   share  positive  accuracy   optimum     upper\n";
        for (const auto& row : r.per_length_rows) {
            std::snprintf(buf, sizeof buf, "%6zu  %6.4f  %8.4f  %8s  %8s  %8s\n", row.length, row.share, row.positive_share,
                          row.accuracy ? percent(*row.accuracy).c_str() : "-", percent(row.optimum).c_str(),
                          percent(row.optimum_upper).c_str());
            out += buf;
        }
    }
    return out;
}

LTLKIT_COMMAND(CommandDef{
    "ceiling",
    "The exact best accuracy any L-layer k-local NoPE recognizer can reach on a word distribution (docs/CEILING.md)",
    [](CLI::App& app) -> Runner {
        auto a = std::make_shared<CeilingArgs>();
        add_language_options(app, a->lang);
        app.add_option("--arch", a->arch, "Architecture: local-K (global, hybrid-K and lstm have no ceiling)")->required();
        app.add_option("--layers", a->layers, "Layers L >= 1 (default 2, the cpu profile's depth)");
        app.add_option("--distribution", a->distribution,
                       "training (neural/data.cc: lengths with both labels, half per label; default), test (the "
                       "evaluation's balanced sample per length, mean over lengths), uniform (all words of each length) "
                       "or lc25 (exactly the LC25 near-miss test words `verify --test-distribution lc25` draws for the "
                       "language named by --name, --per-length per length; weighting by length, as the evaluation)")
            ->check(one_of({"training", "test", "uniform", "lc25"}));
        app.add_option("--lengths", a->lengths, "Word lengths A:B (default 1:40; test: 41:500)");
        app.add_option("--per-length", a->per_length, "test: words per length of the evaluation sample (default 512)")
            ->check(at_least(1));
        app.add_option("--name", a->name,
                       "lc25: the language's name in its suite (e.g. 'DYCK-(1,1)'), which seeds the sample as in verify "
                       "(default: the language's own name)");
        app.add_option("--dataset", a->dataset,
                       "The best accuracy on exactly the words of a dataset folder written by `ltlkit generate` "
                       "(the language is then read from its meta.json unless given)");
        app.add_option("--split", a->split, "With --dataset: the split (default test)");
        app.add_option("--weighting", a->weighting,
                       "With --dataset: words (every word the same) or lengths (every length the same, as the "
                       "evaluation's mean over lengths); default lengths for the test split, words otherwise")
            ->check(one_of({"words", "lengths"}));
        app.add_option("--max-dp-states", a->max_dp_states,
                       "Live states per step of the exact programme before it stops and reports bounds (default 4000000)")
            ->check(at_least(1));
        app.add_option("--time-limit", a->time_limit,
                       "Seconds before the exact programme stops and reports bounds (default 120; 0 = no limit)")
            ->check(CLI::Range(0.0, 1e6));
        app.add_flag("--rows", a->rows, "Also print one row per length (share, accuracy of the optimal classifier, per-length optimum)");
        app.add_flag("--json", a->json,
                     "Print one JSON object (arch, window, layers, distribution, lengths, exact, value, lower, upper, "
                     "lower_layers, reason, constant_accuracy, constant_label, types, states_explored, seconds, "
                     "per_length_rows)");
        app.footer("Examples:\n  ltlkit ceiling --regex '.*a' --alphabet a,b --arch local-2 --layers 2\n"
                   "  ltlkit ceiling --regex '.*ab.*' --alphabet a,b,c --arch local-2 --layers 5 --distribution test --json\n"
                   "  ltlkit ceiling --arch local-1 --layers 2 --dataset data/sigma-a --split train\n"
                   "The ceiling is an upper bound on every run's accuracy on that distribution (docs/CEILING.md).");
        return [a] {
            CeilingQuery q;
            q.arch = a->arch;
            q.layers = a->layers;
            q.per_length = a->per_length;
            q.max_states = a->max_dp_states;
            q.max_seconds = a->time_limit;
            q.progress = [](const std::string& line) { std::cerr << "ltlkit: ceiling: " << line << "\n" << std::flush; };
            if (q.layers < 1) fail("--layers: expected L >= 1, got 0");
            CeilingResult r;
            std::string name;
            if (!a->dataset.empty()) {
                if (!a->lengths.empty()) fail("--lengths does not apply to --dataset (the split's words are used)");
                Dataset ds = take(read_dataset(a->dataset, true));
                const Split* split = ds.find(a->split);
                if (!split) {
                    std::string names;
                    for (const auto& [n, s] : ds.splits) names += (names.empty() ? "" : ", ") + n;
                    fail(a->dataset + ": no split '" + a->split + "' (the dataset has " + names + ")");
                }
                const bool lang_given = !a->lang.formula.empty() || !a->lang.regex.empty() || !a->lang.dfa_file.empty();
                name = a->dataset + " (split " + a->split + ")";
                if (lang_given) {
                    const Language L = load_language_or_fail(a->lang);
                    if (L.dfa.alphabet != ds.alphabet)
                        fail("the language's alphabet differs from the dataset's (meta.json)");
                }
                q.distribution = CeilingDistribution::Empirical;
                q.weighting = a->weighting.empty() ? (a->split == "test" ? CeilingWeighting::Lengths : CeilingWeighting::Words)
                                                   : take(parse_ceiling_weighting(a->weighting));
                r = take(empirical_ceiling(split->examples, ds.alphabet.size(), q));
            } else if (a->distribution == "lc25") {
                // The words of neural/verify/datasets.cc's LC25 test split: same sampler, same seed, same order.
                if (!a->weighting.empty()) fail("--weighting applies to --dataset only");
                const Language L = load_language_or_fail(a->lang);
                name = a->name.empty() ? L.spec.name : a->name;
                const LengthRange lengths = take(parse_length_range(a->lengths.empty() ? "41:500" : a->lengths));
                auto sampler = take(Lc25TestSampler::create(L.dfa, lengths.hi));
                Rng rng(derive_seed({"lc25-test", name}));
                std::vector<Example> words;
                for (std::size_t n = lengths.lo; n <= lengths.hi; ++n)
                    for (auto& ex : sampler.sample(n, a->per_length, rng)) words.push_back(std::move(ex));
                if (words.empty()) fail("--distribution lc25: no length of " + to_string(lengths) + " has an accepted word");
                q.distribution = CeilingDistribution::Empirical;
                q.weighting = CeilingWeighting::Lengths;
                r = take(empirical_ceiling(words, L.dfa.num_symbols(), q));
                name += " (LC25 near-miss test words, " + std::to_string(a->per_length) + " per length)";
            } else {
                if (!a->name.empty()) fail("--name applies to --distribution lc25 only");
                const Language L = load_language_or_fail(a->lang);
                name = L.spec.name;
                q.distribution = take(parse_ceiling_distribution(a->distribution));
                if (!a->weighting.empty()) fail("--weighting applies to --dataset only");
                q.lengths = take(parse_length_range(
                    !a->lengths.empty() ? a->lengths : q.distribution == CeilingDistribution::Test ? "41:500" : "1:40"));
                auto res = receptive_field_ceiling(L.dfa, q);
                if (!res) fail(res.error());
                r = *res;
            }
            if (a->json) {
                auto j = nlohmann::ordered_json::parse(ceiling_to_json(r));
                nlohmann::ordered_json out;
                out["language"] = name;
                for (auto& [key, value] : j.items()) out[key] = value;
                std::cout << out.dump(2) << "\n";
            } else {
                std::cout << render_text(r, name, a->rows);
            }
            std::cout << std::flush;
            return 0;
        };
    }});

}  // namespace
}  // namespace ltlkit::cli
