// `ltlkit compile FORMULA | --regex R | --dfa FILE`: the minimal complete DFA of a language
// (docs/SYNTAX.md) as DFA JSON (docs/SYNTAX.md §9), Graphviz DOT or a readable transition table.
#include <chrono>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "automata/algorithms.hh"
#include "automata/dfa_json.hh"
#include "automata/dot.hh"
#include "base/file.hh"
#include "automata/language.hh"
#include "cli/command.hh"
#include "cli/common.hh"

namespace ltlkit::cli {
namespace {

struct CompileArgs {
    LanguageArgs lang;
    std::string format = "text";
    bool no_minimize = false;
    bool hide_sink = false;
    bool json = false;
    std::string input;
    std::string output;
};


const char* kind_name(automata::InputKind k) {
    switch (k) {
        case automata::InputKind::Formula: return "formula";
        case automata::InputKind::Regex: return "regex";
        case automata::InputKind::DfaFile: return "dfa";
    }
    return "formula";
}

// A readable transition table: '>' marks the initial state, '*' accepting ones.
std::string to_text(const automata::Dfa& d) {
    const std::size_t n = d.num_states(), m = d.num_symbols();
    std::string out = "alphabet:";
    for (const auto& s : d.alphabet) out += " " + s;
    std::size_t acc = 0;
    for (auto f : d.accepting) acc += f;
    out += "\nstates: " + std::to_string(n) + " (initial " + std::to_string(d.initial) + ", " +
           std::to_string(acc) + " accepting";
    const long sink = automata::find_rejecting_sink(d);
    if (sink >= 0) out += ", rejecting sink " + std::to_string(sink);
    out += ")\n";
    std::size_t width = std::to_string(n).size() + 1;
    for (const auto& s : d.alphabet) width = std::max(width, s.size());
    auto pad = [&](const std::string& s) { return std::string(width + 2 - std::min(width + 1, s.size()), ' ') + s; };
    out += "   " + std::string(width, ' ');
    for (const auto& s : d.alphabet) out += pad(s);
    out += "\n";
    for (std::size_t q = 0; q < n; ++q) {
        std::string mark = std::string(q == d.initial ? ">" : " ") + (d.accepting[q] ? "*" : " ");
        std::string num = std::to_string(q);
        out += mark + " " + std::string(width - num.size(), ' ') + num;
        for (std::size_t a = 0; a < m; ++a) out += pad(std::to_string(d.delta[q * m + a]));
        out += "\n";
    }
    return out;
}

std::string render(const automata::Language& l, const CompileArgs& a) {
    const automata::Dfa& d = l.dfa;
    if (a.json) {
        nlohmann::json j;
        j["input"] = l.spec.text;
        j["kind"] = kind_name(l.spec.kind);
        j["fragment"] = l.fragment ? nlohmann::json(*l.fragment) : nlohmann::json(nullptr);
        j["alphabet"] = d.alphabet;
        j["alphabet_inferred"] = alphabet_inferred(l);
        j["states"] = d.num_states();
        j["minimal"] = l.spec.minimize || automata::is_minimal(d);
        j["dfa"] = nlohmann::json::parse(automata::to_json(d));
        if (a.format == "dot") j["dot"] = automata::to_dot(d, {a.hide_sink});
        return j.dump() + "\n";
    }
    if (a.format == "json") return automata::to_json(d) + "\n";
    if (a.format == "dot") return automata::to_dot(d, {a.hide_sink});
    return to_text(d);
}

LTLKIT_COMMAND(CommandDef{
    "compile",
    "Compile a formula, regex or DFA file to its minimal complete DFA (JSON, DOT or a table)",
    [](CLI::App& app) -> Runner {
        auto a = std::make_shared<CompileArgs>();
        add_language_options(app, a->lang);
        app.add_option("--format", a->format, "Output format: text (a transition table, default), json (DFA JSON, docs/SYNTAX.md) or dot")
            ->check(CLI::IsMember({"json", "dot", "text"}));
        app.add_flag("--no-minimize", a->no_minimize,
                     "Formulas: print the reachable past-time monitor, canonically numbered, not minimized "
                     "(DFA files: their reachable part; regexes are always minimal)");
        app.add_flag("--hide-sink", a->hide_sink, "DOT: leave out the rejecting sink (drawn grey otherwise)");
        app.add_flag("--json", a->json,
                     "One JSON object per language: input, kind, fragment, alphabet, alphabet_inferred, states, minimal, dfa "
                     "(and dot with --format dot)");
        app.add_option("--input", a->input,
                       "Read formulas from FILE ('-' = stdin), one per line ('#' and blank lines skipped); "
                       "the outputs follow in order");
        app.add_option("-o,--output", a->output, "Write to FILE (atomically) instead of stdout");
        app.footer(
            "Examples:\n"
            "  ltlkit compile 'P(b & Y a)'                    # Σ*abΣ* as a transition table\n"
            "  ltlkit compile --format json 'Y<=2 a' --alphabet a,b,c\n"
            "  ltlkit compile --regex '(ab)*' --format dot --hide-sink | dot -Tsvg > ab.svg\n"
            "  ltlkit compile --dfa lang.json --alphabet a,b,c --format json\n"
            "  printf 'Y a\\nH a\\n' | ltlkit compile --input - --json --alphabet a,b");
        return [a] {
            const std::vector<automata::Language> langs = load_languages(a->lang, a->input, !a->no_minimize);
            std::string out;
            for (std::size_t i = 0; i < langs.size(); ++i) {
                if (i && !a->json && a->format != "json") out += "\n";
                if (!a->input.empty() && !a->json && a->format == "text") out += "# " + langs[i].spec.text + "\n";
                out += render(langs[i], *a);
            }
            if (!a->output.empty()) {
                take(write_output_file(a->output, out));
            } else {
                write_stdout(out);
            }
            return 0;
        };
    }});

}  // namespace
}  // namespace ltlkit::cli
