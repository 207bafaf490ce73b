// `ltlkit suite --class C [--k K] [--t T] --alphabet a,b --count N --seed S --out FILE.suite`:
// random minimal DFAs of a subregular class (docs/SUBREGULAR.md §5), and `ltlkit suite --class X
// [--class Y] [--not Z] [--stratum NAME] ...`: of a conjunction of classes of any family, or of a
// stratum of the predictions (docs/SUBREGULAR.md §5b); written as DFA files in FILE-dfa/ and a
// suite (docs/SYNTAX.md §10) that `ltlkit verify --suite` and `generate --suite` read.
#include <filesystem>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "automata/algebra/prediction_suite.hh"
#include "automata/algebra/subregular.hh"
#include "automata/dfa_json.hh"
#include "base/file.hh"
#include "automata/language.hh"
#include "cli/command.hh"

namespace ltlkit::cli {
namespace {

struct SuiteArgs {
    std::vector<std::string> classes, nots;
    std::string stratum, alphabet = "a,b", out, from = "dfas", fragment;
    int depth = 3;
    unsigned k = 0, t = 0, max_k = 0;
    std::size_t count = 10, min_states = 1, max_states = 6, max_draws = 200'000;
    std::uint64_t seed = 1;
    bool json = false;
    bool proper_tier = false;
    bool list_strata = false;
};

namespace alg = automata::algebra;

// The folder FILE-dfa next to the suite file (created) and its name as the suite lines cite it.
std::pair<std::filesystem::path, std::string> dfa_folder(const std::string& out) {
    const std::filesystem::path o(out);
    std::filesystem::path stem = o;
    stem.replace_extension();
    const std::string dir_name = stem.filename().string() + "-dfa";
    const std::filesystem::path dir = o.parent_path() / dir_name;
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) fail(dir.string() + ": cannot create folder: " + ec.message(), 4);
    return {dir, dir_name};
}

std::string constraints_text(const std::vector<alg::ClassConstraint>& cs) {
    std::string s;
    for (const auto& c : cs) s += (s.empty() ? "" : ", ") + c.text();
    return s.empty() ? "none (every language)" : s;
}

int list_strata(bool json) {
    if (json) {
        std::cout << alg::prediction_strata_json().dump() << "\n";
        return 0;
    }
    for (const auto& st : alg::prediction_strata()) {
        std::string preds;
        for (const auto& p : st.predictions) preds += (preds.empty() ? "" : ", ") + p.arch + (p.recognizes ? " recognizes" : " fails");
        std::cout << st.name << "\n  classes:     " << constraints_text(st.constraints) << "\n  predictions: " << preds
                  << "\n  " << st.description << "\n";
    }
    return 0;
}

// Suites of the prediction classes (docs/SUBREGULAR.md §5b).
int prediction_suite(const SuiteArgs& a) {
    if (a.k || a.t || a.proper_tier)
        fail(std::string(a.k ? "--k" : a.t ? "--t" : "--proper-tier") +
             " is an option of a suite of one subregular class (--class SL ...) only");
    alg::PredictionSuiteRequest r;
    auto cs = alg::suite_constraints(a.stratum, a.classes, a.nots);
    if (!cs) fail("suite: " + cs.error().message);
    r.constraints = *cs;
    const alg::PredictionStratum* st = a.stratum.empty() ? nullptr : alg::find_stratum(a.stratum);
    r.alphabet = take(automata::parse_alphabet(a.alphabet));
    r.count = a.count, r.seed = a.seed, r.min_states = a.min_states, r.max_states = a.max_states;
    r.max_draws = a.max_draws, r.max_k = a.max_k;
    if (a.from == "formulas") {
        if (a.fragment.empty()) fail("--from formulas needs --fragment P|Y|Y<=K|P,Y|P,Y<=K");
        auto fr = alg::parse_suite_fragment(a.fragment);
        if (!fr) fail("--fragment: " + fr.error().message);
        r.formulas = alg::FormulaSource{*fr, a.depth};
    } else if (a.from != "dfas") {
        fail("--from: '" + a.from + "' is neither dfas nor formulas");
    } else if (!a.fragment.empty()) {
        fail("--fragment is an option of --from formulas");
    }
    auto drawn = alg::draw_prediction_suite(r);
    if (!drawn) fail("suite: " + drawn.error().message, drawn.error().exit_code);
    auto [dir, dir_name] = dfa_folder(a.out);
    std::filesystem::path stem(a.out);
    const std::string base = stem.stem().string();
    const std::string what = constraints_text(r.constraints) + (st ? " (stratum " + st->name + ")" : std::string());
    std::string text = "# " + std::to_string(r.count) + " random minimal DFAs of " + what + " over " + a.alphabet + ", " +
                       std::to_string(r.min_states) + ".." + std::to_string(r.max_states) + " states, seed " +
                       std::to_string(r.seed) + " (ltlkit suite; rejection sampling, docs/SUBREGULAR.md §5b)\n";
    text += "# constraints: " + alg::constraints_json(r.constraints).dump() + "\n";
    if (st) text += "# stratum: " + st->name + "\n";
    if (r.formulas) text += "# from: formulas of " + r.formulas->fragment.name() + ", depth " + std::to_string(r.formulas->depth) + "\n";
    text += "# predictions: " + alg::predictions_json(alg::forced_predictions(alg::request_facts(r))).dump() + "\n";
    text += "# windows asked: " + (drawn->max_k >= 2 ? "2.." + std::to_string(drawn->max_k) : std::string("none")) + "\n";
    text += "# draws: " + std::to_string(drawn->draws) + "\n";
    text += "# rejected_unknown: " + std::to_string(drawn->rejected_unknown) + "\n";
    text += "# rejected_size: " + std::to_string(drawn->rejected_size) + ", rejected_duplicate: " +
            std::to_string(drawn->rejected_duplicate) + "\n";
    nlohmann::ordered_json j = alg::prediction_suite_json(r, *drawn, st, base);
    for (std::size_t i = 0; i < drawn->dfas.size(); ++i) {
        auto& lang = j["languages"][i];
        const std::string name = lang["name"];
        lang["file"] = dir_name + "/" + name + ".json";
        take(write_output_file((dir / (name + ".json")).string(), automata::to_json(drawn->dfas[i]) + "\n"));
        text += "# " + lang["answers"].dump() + " " + std::to_string(drawn->dfas[i].num_states()) + " states, generator " +
                drawn->generators[i] + "\n";
        if (r.formulas) text += name + "\t" + a.alphabet + "\tformula\t" + std::string(lang["formula"]) + "\n";
        else text += name + "\t" + a.alphabet + "\tdfa\t" + dir_name + "/" + name + ".json\n";
    }
    take(write_output_file(a.out, text));
    if (a.json) {
        nlohmann::ordered_json out{{"out", a.out}};
        for (auto& [key, value] : j.items()) out[key] = value;
        std::cout << out.dump() << "\n";
        return 0;
    }
    std::cout << "wrote " << a.out << ": " << drawn->dfas.size() << " languages of " << what << " (" << drawn->draws
              << " candidates drawn, " << drawn->rejected_unknown << " dropped for an unknown answer)\n";
    return 0;
}

int subregular_suite(const SuiteArgs& a) {
    automata::algebra::SuiteRequest r;
    r.cls = a.classes.front();
    if (a.k) r.k = a.k;
    if (a.t) r.t = a.t;
    r.alphabet = take(automata::parse_alphabet(a.alphabet));
    r.count = a.count, r.seed = a.seed, r.min_states = a.min_states, r.max_states = a.max_states;
    r.max_draws = a.max_draws;
    r.proper_tier = a.proper_tier;
    auto drawn = automata::algebra::draw_suite(r);
    if (!drawn) {
        const bool limit = drawn.error().message.rfind("only ", 0) == 0;
        fail("suite: " + drawn.error().message, limit ? 3 : 2);
    }
    auto [dir, dir_name] = dfa_folder(a.out);
    nlohmann::ordered_json listed = nlohmann::ordered_json::array();
    std::string text = "# " + std::to_string(r.count) + " random minimal DFAs of class " + r.cls +
                       (r.k ? " with least k = " + std::to_string(*r.k) : std::string()) +
                       (r.t ? ", t = " + std::to_string(*r.t) : std::string()) + " over " + a.alphabet +
                       ", seed " + std::to_string(r.seed) + ", " + std::to_string(drawn->draws) +
                       " candidates drawn (ltlkit suite; rejection sampling, docs/SUBREGULAR.md §5)\n";
    for (std::size_t i = 0; i < drawn->dfas.size(); ++i) {
        std::string name = r.cls + (r.k ? std::to_string(*r.k) : std::string()) + "-" + std::to_string(i + 1);
        const auto& dec = drawn->decisions[i];
        take(write_output_file((dir / (name + ".json")).string(), automata::to_json(drawn->dfas[i]) + "\n"));
        text += "# " + dec.params.dump() + " " + std::to_string(drawn->dfas[i].num_states()) + " states\n";
        text += name + "\t" + a.alphabet + "\tdfa\t" + dir_name + "/" + name + ".json\n";
        listed.push_back({{"name", name}, {"file", dir_name + "/" + name + ".json"}, {"params", dec.params},
                          {"states", drawn->dfas[i].num_states()}});
    }
    take(write_output_file(a.out, text));
    if (a.json) {
        nlohmann::ordered_json j{{"out", a.out}, {"class", r.cls}, {"count", drawn->dfas.size()}, {"draws", drawn->draws},
                                 {"languages", listed}};
        std::cout << j.dump() << "\n";
        return 0;
    }
    std::cout << "wrote " << a.out << ": " << drawn->dfas.size() << " languages of class " << r.cls << " ("
              << drawn->draws << " candidates drawn)\n";
    return 0;
}

LTLKIT_COMMAND(CommandDef{
    "suite",
    "Write a suite of random minimal DFAs of given classes (subregular, class-table, window) or of a prediction stratum",
    [](CLI::App& app) -> Runner {
        auto a = std::make_shared<SuiteArgs>();
        app.add_option("--class", a->classes,
                       "A class the languages are in (repeatable): a subregular class (finite, cofinite, SL, SP, LT, PT, LTT, "
                       "TSL, DA, aperiodic_commutative), a class-table row (definite, r_trivial, locally_r_trivial, ...), "
                       "local_k:K or hybrid_k:K (K >= 2), or none (= --not locally_r_trivial)");
        app.add_option("--not", a->nots, "A class the languages are not in (repeatable; the names of --class)");
        app.add_option("--stratum", a->stratum, "A named stratum of the predictions (see --list-strata); --class/--not add to it");
        app.add_flag("--list-strata", a->list_strata, "List the strata (name, classes, predictions) and exit");
        app.add_option("--max-k", a->max_k,
                       "Windows 2..K asked by the classification of a candidate (default: the largest K a class names)");
        app.add_option("--from", a->from, "dfas (default): random DFAs; formulas: random formulas of --fragment");
        app.add_option("--fragment", a->fragment, "With --from formulas: P, Y, Y<=K, P,Y or P,Y<=K");
        app.add_option("--depth", a->depth, "With --from formulas: nesting depth of the formulas (1..8, default 3)");
        app.add_option("--k", a->k, "The least k the languages must have (one subregular --class: SL, SP, LT, PT, LTT, TSL; 0 = any)");
        app.add_option("--t", a->t, "The least threshold t for that k (LTT; 0 = any)");
        app.add_option("--alphabet", a->alphabet, "Comma-separated symbols (default a,b)");
        app.add_option("--count", a->count, "Number of distinct languages (default 10)")->check(CLI::Range(1, 100000));
        app.add_option("--seed", a->seed, "Seed of the draw (default 1): the same seed gives the same suite");
        app.add_option("--min-states", a->min_states,
                       "Fewest states (default 1): of a drawn DFA before minimizing (one subregular class), of a kept minimal DFA (otherwise)");
        app.add_option("--max-states", a->max_states, "Most states of a drawn and of a kept minimal DFA (default 6)");
        app.add_option("--max-draws", a->max_draws, "Give up (exit 3) after this many candidates (default 200000)");
        app.add_flag("--proper-tier", a->proper_tier,
                     "TSL only: keep only languages whose tier (the letters that are not free) is a proper subset of the alphabet");
        app.add_flag("--json", a->json,
                     "Print one JSON object (out, the constraints or class, count, draws, rejected_unknown, languages ...)");
        app.add_option("--out", a->out, "The suite file to write; its DFAs go to the folder FILE-dfa next to it");
        app.footer("Examples:\n  ltlkit suite --class SL --k 2 --alphabet a,b,c --count 20 --seed 7 --out sl2.suite\n"
                   "  ltlkit suite --class r_trivial --not definite --count 10 --out rt.suite\n"
                   "  ltlkit suite --stratum lrt_only_not_hybrid2 --alphabet a,b --min-states 3 --max-states 8 --out s.suite\n"
                   "  ltlkit verify --suite sl2.suite ...\n"
                   "Sampling (docs/SUBREGULAR.md §5, §5b): rejection sampling of random DFAs (and, for SL, TSL and SP, of\n"
                   "random forbidden sets; for the prediction classes, of random definite DFAs and of products of a definite\n"
                   "and a partially ordered DFA), minimized, kept when every constraint holds and the language is new.");
        return [a] {
            if (a->list_strata) return list_strata(a->json);
            if (a->out.empty()) fail("--out is required (the suite file to write)");
            if (a->classes.empty() && a->nots.empty() && a->stratum.empty() && a->from == "dfas")
                fail("give the classes: --class C (repeatable), --not C or --stratum NAME (see --list-strata)");
            const bool one_subregular = a->classes.size() == 1 && a->nots.empty() && a->stratum.empty() && a->max_k == 0 &&
                                        a->from == "dfas" && a->fragment.empty() &&
                                        automata::algebra::is_subregular_class(a->classes.front());
            return one_subregular ? subregular_suite(*a) : prediction_suite(*a);
        };
    }});

}  // namespace
}  // namespace ltlkit::cli
