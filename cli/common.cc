#include "cli/common.hh"

#include <fstream>
#include <iostream>

#include "automata/dfa.hh"
#include "automata/sampler.hh"
#include "cli/command.hh"

namespace ltlkit::cli {

void add_language_options(CLI::App& app, LanguageArgs& args, bool positional_formula) {
    if (positional_formula)
        app.add_option("FORMULA", args.formula, "Past-LTL formula (SPEC §2), e.g. 'P(b & Y a)'");
    app.add_option("--regex", args.regex, "Extended regular expression instead of a formula");
    app.add_option("--dfa", args.dfa_file, "DFA JSON file instead of a formula");
    app.add_option("--alphabet", args.alphabet, "Alphabet, comma-separated, in this order (a,b,c)");
    app.add_option("--max-states", args.max_states,
                   "Stop when a construction exceeds this many states (default 1000000)");
}

void add_table_cells_option(CLI::App& app) {
    app.add_option_function<std::size_t>(
        "--max-table-cells", [](const std::size_t& cells) { automata::set_default_max_table_cells(cells); },
        "Stop when the sampler's count tables (2 labels x lengths x states x symbols) exceed this many "
        "8-byte cells (default " + std::to_string(automata::kDefaultMaxTableCells) + ")");
}

automata::LanguageSpec language_spec(const LanguageArgs& args) {
    int given = !args.formula.empty() + !args.regex.empty() + !args.dfa_file.empty();
    if (given != 1)
        fail(given == 0 ? "no language given: pass a FORMULA, --regex R or --dfa FILE"
                        : "give exactly one of FORMULA, --regex and --dfa");
    automata::LanguageSpec spec;
    if (!args.formula.empty()) {
        spec.kind = automata::InputKind::Formula;
        spec.text = args.formula;
    } else if (!args.regex.empty()) {
        spec.kind = automata::InputKind::Regex;
        spec.text = args.regex;
    } else {
        spec.kind = automata::InputKind::DfaFile;
        spec.text = args.dfa_file;
    }
    spec.name = spec.text;
    spec.alphabet = take(automata::parse_alphabet(args.alphabet));
    spec.max_states = args.max_states;
    return spec;
}

automata::Language load_language_or_fail(const LanguageArgs& args) {
    return take(automata::load_language(language_spec(args)));
}

std::vector<NumberedLine> read_numbered_lines(const std::string& path, bool skip_blank) {
    std::vector<NumberedLine> lines;
    auto consume = [&](std::istream& in) {
        std::string line;
        int number = 0;
        while (std::getline(in, line)) {
            ++number;
            if (!line.empty() && line.back() == '\r') line.pop_back();
            auto first = line.find_first_not_of(" \t");
            if (skip_blank && (first == std::string::npos || line[first] == '#')) continue;
            lines.push_back({line, number});
        }
    };
    if (path == "-") {
        consume(std::cin);
    } else {
        std::ifstream in(path);
        if (!in) fail(path + ": cannot open file for reading");
        consume(in);
    }
    return lines;
}

std::vector<std::string> word_to_symbols(const std::vector<std::string>& alphabet,
                                         const automata::Word& w) {
    return automata::word_symbols(alphabet, w);
}

}  // namespace ltlkit::cli
