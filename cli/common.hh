// Options and helpers shared by the commands: the language input (FORMULA | --regex | --dfa,
// --alphabet), JSON output, batch input.
#pragma once

#include <CLI/CLI.hpp>

#include <optional>
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
    std::size_t max_work = automata::kDefaultMaxWork;  // --max-work
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

// The alphabet of a formula or regex given without --alphabet is inferred: the symbols it
// mentions. load_language_checked says so on stderr ("ltlkit: note: ..."), and refuses an inferred
// alphabet of a single symbol (over {a} every question about "a" is degenerate) with exit 2 unless
// --alphabet confirms it. Every command that takes a language loads it through here.
// `where` is added to "the formula" / "the regex" in the messages (e.g. " on line 3").
Result<automata::Language> load_language_checked(const automata::LanguageSpec& spec, const std::string& where = "");
// The same rule for an alphabet inferred from several inputs at once (equiv's union): an error
// when it has fewer than two symbols, else the note on stderr. `from` says where it came from.
std::optional<Error> check_inferred_alphabet(const std::vector<std::string>& alphabet, const std::string& from);
// The note alone ("ltlkit: note: alphabet inferred from FROM: {a,b}; pass --alphabet to set it"),
// queued: notes are printed by flush_notes(), which main calls when a command succeeds (a failing
// command prints its one error line only) and long commands call once their input is checked.
void note_inferred_alphabet(const std::vector<std::string>& alphabet, const std::string& from);
void flush_notes();

// The languages a command works on: one per line of --input FILE ('-' = stdin; formulas, '#'
// and blank lines skipped) when `input` is set, else the single language of `args`. A bad line
// fails with FILE:LINE; nothing is printed before every language is loaded.
std::vector<automata::Language> load_languages(const LanguageArgs& args, const std::string& input,
                                               bool minimize = true);

// A CLI11 check for --alphabet: an empty or blank value is an error (exit 2), never "infer".
CLI::Validator nonempty_alphabet();

// Lines of FILE ("-" = stdin) with their 1-based numbers, for batch input and error positions.
// skip_blank drops blank and '#' comment lines (formulas); words keep blank lines (the empty
// word). An unreadable file or one that starts with a byte order mark fails with exit 2, a
// directory with exit 4.
struct NumberedLine {
    std::string text;
    int number = 0;
};
std::vector<NumberedLine> read_numbered_lines(const std::string& path, bool skip_blank = true);

// Columns of the terminal stdout writes to: $COLUMNS when set, else the terminal's width, else 80
// (a pipe or a file).
std::size_t terminal_width();
// Display columns of UTF-8 text (one per code point), and `text` padded with spaces to `width`.
std::size_t display_width(const std::string& text);
std::string pad_right(const std::string& text, std::size_t width);
// `text` broken at spaces into lines of at most `width` columns (a longer word keeps its own
// line), continuation lines indented by `indent` spaces; every line ends with a newline.
std::string wrap_text(const std::string& text, std::size_t width, std::size_t indent);

// The symbol names of a word, for JSON output.
std::vector<std::string> word_to_symbols(const std::vector<std::string>& alphabet,
                                         const automata::Word& w);

// Standard output, through one checked writer. init_stdout() (main, first) makes std::cout write
// straight to file descriptor 1 and check every write(2); a stdout that was closed when the
// process started is held open on /dev/null (so that no file the command opens takes
// descriptor 1) and every write to it fails. write_stdout() writes and fails (exit 4, "cannot
// write to standard output: REASON; the output is incomplete") at the first failed write;
// stdout_error() is that error when a write has failed (main checks it after every command, so
// a full disk, /dev/full or a closed stdout never exits 0).
void init_stdout();
void write_stdout(const std::string& text);
// printf-style text for std::cout (so that formatted output goes through the same writer).
std::string format(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
std::optional<Error> stdout_error();

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
