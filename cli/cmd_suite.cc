// `ltlkit suite --class C [--k K] [--t T] --alphabet a,b --count N --seed S --out FILE.suite`:
// random minimal DFAs of a subregular class (docs/SUBREGULAR.md §5), written as DFA files in
// FILE-dfa/ and a suite (docs/SYNTAX.md §10) that `ltlkit verify --suite` and `generate --suite` read.
#include <filesystem>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "automata/algebra/subregular.hh"
#include "automata/dfa_json.hh"
#include "base/file.hh"
#include "automata/language.hh"
#include "cli/command.hh"

namespace ltlkit::cli {
namespace {

struct SuiteArgs {
    std::string cls, alphabet = "a,b", out;
    unsigned k = 0, t = 0;
    std::size_t count = 10, min_states = 1, max_states = 6, max_draws = 200'000;
    std::uint64_t seed = 1;
    bool json = false;
    bool proper_tier = false;
};

LTLKIT_COMMAND(CommandDef{
    "suite",
    "Write a suite of random minimal DFAs of one subregular class (SL, SP, LT, PT, LTT, TSL, DA, ...)",
    [](CLI::App& app) -> Runner {
        auto a = std::make_shared<SuiteArgs>();
        app.add_option("--class", a->cls, "finite, cofinite, SL, SP, LT, PT, LTT, TSL, DA or aperiodic_commutative")->required();
        app.add_option("--k", a->k, "The least k the languages must have (SL, SP, LT, PT, LTT, TSL; 0 = any)");
        app.add_option("--t", a->t, "The least threshold t for that k (LTT; 0 = any)");
        app.add_option("--alphabet", a->alphabet, "Comma-separated symbols (default a,b)");
        app.add_option("--count", a->count, "Number of distinct languages (default 10)")->check(CLI::Range(1, 100000));
        app.add_option("--seed", a->seed, "Seed of the draw (default 1): the same seed gives the same suite");
        app.add_option("--min-states", a->min_states, "Fewest states of a drawn DFA before minimizing (default 1)");
        app.add_option("--max-states", a->max_states, "Most states of a drawn and of a kept minimal DFA (default 6)");
        app.add_option("--max-draws", a->max_draws, "Give up (exit 3) after this many candidates (default 200000)");
        app.add_flag("--proper-tier", a->proper_tier,
                     "TSL only: keep only languages whose tier (the letters that are not free) is a proper subset of the alphabet");
        app.add_flag("--json", a->json, "Print one JSON object (out, class, count, draws, languages: name, file, params, states)");
        app.add_option("--out", a->out, "The suite file to write; its DFAs go to the folder FILE-dfa next to it")->required();
        app.footer("Examples:\n  ltlkit suite --class SL --k 2 --alphabet a,b,c --count 20 --seed 7 --out sl2.suite\n"
                   "  ltlkit verify --suite sl2.suite ...\n"
                   "Sampling (docs/SUBREGULAR.md §5): rejection sampling of random DFAs (and, for SL, TSL and SP, of\n"
                   "random forbidden sets), minimized, kept when the class and least k match and the language is new.");
        return [a] {
            automata::algebra::SuiteRequest r;
            r.cls = a->cls;
            if (a->k) r.k = a->k;
            if (a->t) r.t = a->t;
            r.alphabet = take(automata::parse_alphabet(a->alphabet));
            r.count = a->count, r.seed = a->seed, r.min_states = a->min_states, r.max_states = a->max_states;
            r.max_draws = a->max_draws;
            r.proper_tier = a->proper_tier;
            auto drawn = automata::algebra::draw_suite(r);
            if (!drawn) {
                const bool limit = drawn.error().message.rfind("only ", 0) == 0;
                fail("suite: " + drawn.error().message, limit ? 3 : 2);
            }
            const std::filesystem::path out(a->out);
            std::filesystem::path stem = out;
            stem.replace_extension();
            const std::string dir_name = stem.filename().string() + "-dfa";
            const std::filesystem::path dir = out.parent_path() / dir_name;
            std::error_code ec;
            std::filesystem::create_directories(dir, ec);
            if (ec) fail(dir.string() + ": cannot create folder: " + ec.message(), 4);
            nlohmann::ordered_json listed = nlohmann::ordered_json::array();
            std::string text = "# " + std::to_string(r.count) + " random minimal DFAs of class " + r.cls +
                               (r.k ? " with least k = " + std::to_string(*r.k) : std::string()) +
                               (r.t ? ", t = " + std::to_string(*r.t) : std::string()) + " over " + a->alphabet +
                               ", seed " + std::to_string(r.seed) + ", " + std::to_string(drawn->draws) +
                               " candidates drawn (ltlkit suite; rejection sampling, docs/SUBREGULAR.md §5)\n";
            for (std::size_t i = 0; i < drawn->dfas.size(); ++i) {
                std::string name = r.cls + (r.k ? std::to_string(*r.k) : std::string()) + "-" + std::to_string(i + 1);
                const auto& dec = drawn->decisions[i];
                take(write_output_file((dir / (name + ".json")).string(), automata::to_json(drawn->dfas[i]) + "\n"));
                text += "# " + dec.params.dump() + " " + std::to_string(drawn->dfas[i].num_states()) + " states\n";
                text += name + "\t" + a->alphabet + "\tdfa\t" + dir_name + "/" + name + ".json\n";
                listed.push_back({{"name", name}, {"file", dir_name + "/" + name + ".json"}, {"params", dec.params},
                                  {"states", drawn->dfas[i].num_states()}});
            }
            take(write_output_file(a->out, text));
            if (a->json) {
                nlohmann::ordered_json j{{"out", a->out}, {"class", r.cls}, {"count", drawn->dfas.size()}, {"draws", drawn->draws},
                                         {"languages", listed}};
                std::cout << j.dump() << "\n";
                return 0;
            }
            std::cout << "wrote " << a->out << ": " << drawn->dfas.size() << " languages of class " << r.cls << " ("
                      << drawn->draws << " candidates drawn)\n";
            return 0;
        };
    }});

}  // namespace
}  // namespace ltlkit::cli
