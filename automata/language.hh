// A language as the user gives it (formula, regex or DFA file) resolved to its minimal DFA, and
// suites of languages (docs/SYNTAX.md §10). Every command that takes a language goes through here.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "automata/dfa.hh"
#include "ltl/formula.hh"

namespace ltlkit::automata {

enum class InputKind { Formula, Regex, DfaFile };

struct LanguageSpec {
    InputKind kind = InputKind::Formula;
    std::string text;                   // formula / regex / path of the DFA JSON
    std::vector<std::string> alphabet;  // explicit alphabet (may be empty)
    std::string name;                   // suite name or the text itself
    std::string base_dir;               // for DFA paths relative to a suite file
    std::size_t max_states = 1'000'000;
    std::size_t max_work = kDefaultMaxWork;  // --max-work (monitor.hh, regex.hh)
    // false: a formula gives its reachable monitor and a DFA file its reachable part, both
    // canonically numbered but not minimized (`compile --no-minimize`); regexes are always minimal.
    bool minimize = true;
    // Where a suite line gave this language (suite_line 0: not from a suite): load_language's
    // errors then say FILE:LINE, and a formula or regex error points into the suite line.
    std::string suite_file;
    int suite_line = 0;
    int text_column = 0;  // 1-based column (characters) of `text` in the suite line
    std::string suite_line_text;
};

struct Language {
    LanguageSpec spec;
    std::optional<ltl::Formula> formula;  // only for InputKind::Formula
    std::optional<std::string> fragment;  // fragment name (docs/CLASSES.md §1) for formulas; nullopt otherwise
    Dfa dfa;                              // minimal, complete, canonical (unless !spec.minimize)
};

Result<Language> load_language(const LanguageSpec& spec);
// How many times this process has called load_language, failed calls included: a statistic, by
// which tests check that a pipeline (e.g. verify) compiles each language once.
std::size_t languages_compiled();

// Suite file: name<TAB>alphabet<TAB>formula|regex|dfa<TAB>text, '#' comments, blank lines ignored.
// The alphabet may be empty only on dfa lines (the file gives it).
// Errors carry FILE:LINE; a suite without a language, or one that starts with a UTF-8 byte order
// mark, is an error.
// A language name names folders (DIR/NAME); at most this many bytes (file names have 255).
inline constexpr std::size_t kMaxLanguageName = 200;
Result<std::vector<LanguageSpec>> read_suite(const std::string& path);

// "a,b,c" -> {"a","b","c"}; empty -> {}. Rejects empty or duplicate symbols.
Result<std::vector<std::string>> parse_alphabet(const std::string& csv);

// The alphabet rule of docs/SYNTAX.md §5 shared by the CLI, the Python module and the examples: a
// formula or regex given without an alphabet is over the symbols it mentions (inferred; a DFA
// file carries its own), and an inferred alphabet of a single symbol is refused, since over {a}
// every question about "a" is degenerate (an explicit alphabet confirms it).
bool alphabet_inferred(const Language& l);
// The refusal for an alphabet inferred from `from` ("the formula", "the two languages"), with the
// --alphabet that confirms it; nullopt when the alphabet has two symbols or more.
std::optional<Error> inferred_alphabet_error(const std::vector<std::string>& alphabet, const std::string& from);
// "{a,b}".
std::string braced_alphabet(const std::vector<std::string>& alphabet);

}  // namespace ltlkit::automata
