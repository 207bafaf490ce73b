// Options and helpers shared by the commands: the language input (FORMULA | --regex | --dfa,
// --alphabet), JSON output, batch input.
#pragma once

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

#include "automata/language.hh"

namespace ltlkit::cli {

struct LanguageArgs {
    std::string formula;   // positional FORMULA
    std::string regex;     // --regex
    std::string dfa_file;  // --dfa
    std::string alphabet;  // --alphabet a,b,c
    std::size_t max_states = 1'000'000;
};

// Adds FORMULA (positional, optional when `positional_formula`), --regex, --dfa, --alphabet,
// --max-states.
void add_language_options(CLI::App& app, LanguageArgs& args, bool positional_formula = true);

// --max-table-cells N: the limit of the uniform sampler's count tables, for the whole process
// (automata::set_default_max_table_cells; exit 3 above it).
void add_table_cells_option(CLI::App& app);

// Exactly one of FORMULA / --regex / --dfa must be given (else exit 2 with a clear message).
automata::LanguageSpec language_spec(const LanguageArgs& args);
automata::Language load_language_or_fail(const LanguageArgs& args);

// Lines of FILE ("-" = stdin) with their 1-based numbers, for batch input and error positions.
// skip_blank drops blank and '#' comment lines (formulas); words keep blank lines (the empty
// word). An unreadable file or one that starts with a byte order mark fails with exit 2, a
// directory with exit 4.
struct NumberedLine {
    std::string text;
    int number = 0;
};
std::vector<NumberedLine> read_numbered_lines(const std::string& path, bool skip_blank = true);

// The symbol names of a word, for JSON output.
std::vector<std::string> word_to_symbols(const std::vector<std::string>& alphabet,
                                         const automata::Word& w);

// Strict option values, for every option of `app` and of its subcommands. A number (CLI11 type
// INT, UINT or FLOAT) is only a plain decimal number: digits, with a leading '-' only for signed
// integers (no octal or hex, no wrap-around of a negative value into an unsigned option, no
// saturation of a value beyond 64 bits; narrower types are range-checked by CLI11), and a real is
// finite (no nan or inf). A named option's text value is not empty (it would read as "not
// given"; positional values such as the empty word stay allowed). Called once by main after the
// commands are set up; a refused value is a usage error (exit 2) before any command runs.
void strict_option_values(CLI::App& app);
// Validators for an option's bounds (strict as above; the message names the bound).
CLI::Validator at_least(long long min);  // a whole number >= min (min >= 0)
CLI::Validator positive_real();          // a finite real > 0
CLI::Validator one_of(std::vector<std::string> names);  // one of `names`, spelled exactly
inline const std::vector<std::string> kDeviceNames{"auto", "cpu", "cuda"};

}  // namespace ltlkit::cli
