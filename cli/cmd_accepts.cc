// `ltlkit accepts FORMULA WORD...`: membership of words (docs/SYNTAX.md §8) in a language,
// through its minimal DFA; --check re-evaluates every word by the direct semantics.
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "automata/algorithms.hh"
#include "automata/language.hh"
#include "automata/regex.hh"
#include "cli/command.hh"
#include "cli/common.hh"
#include "ltl/printer.hh"
#include "ltl/semantics.hh"

namespace ltlkit::cli {
namespace {

struct AcceptsArgs {
    LanguageArgs lang;
    std::vector<std::string> words;
    std::string words_file;
    std::string input;
    bool check = false;
    bool json = false;
};


struct Verdicts {
    const automata::Language* lang;
    std::vector<automata::Word> words;
    std::vector<bool> accepted;
};

// --check: an independent route to the same answer. Formulas: the direct semantics; regexes:
// the compositional DFA (one automaton per operator, not derivatives); DFA files: the DFA as read.
void check_word(const automata::Language& l, const automata::Word& w, bool got) {
    const auto symbols = automata::word_symbols(l.dfa.alphabet, w);
    bool expected = got;
    std::string route;
    switch (l.spec.kind) {
        case automata::InputKind::Formula:
            expected = ltl::holds_at_eos(*l.formula, symbols);
            route = "the direct semantics";
            break;
        case automata::InputKind::Regex: {
            auto r = automata::regex_matches_reference(l.spec.text, l.spec.alphabet, w);
            if (!r.ok()) fail(r.error());  // symbols index the same alphabet as the DFA's
            expected = *r;
            route = "the compositional regex automaton";
            break;
        }
        case automata::InputKind::DfaFile: {
            automata::LanguageSpec s = l.spec;
            s.minimize = false;
            automata::Language raw = take(automata::load_language(s));
            auto raw_word = take(automata::parse_word(raw.dfa.alphabet, automata::format_word(l.dfa.alphabet, w)));
            expected = raw.dfa.accepts(raw_word);
            route = "the DFA as read";
            break;
        }
    }
    if (expected != got) {
        Error e;
        e.message = "internal disagreement on word '" + automata::format_word(l.dfa.alphabet, w) +
                    "': the minimal DFA says " + (got ? "1" : "0") + " but " + route + " says " +
                    (expected ? "1" : "0") + " (please report this bug)";
        e.exit_code = 4;
        fail(e);
    }
}

LTLKIT_COMMAND(CommandDef{
    "accepts",
    "Print WORD<TAB>1|0 for each word: is it in the language?",
    [](CLI::App& app) -> Runner {
        auto a = std::make_shared<AcceptsArgs>();
        add_language_options(app, a->lang);
        app.add_option("WORD", a->words,
                       "Words, letter by letter when every symbol is one character (abba), else "
                       "space-separated symbols in one argument ('b0 a b1'); '' is the empty word");
        app.add_option("--words", a->words_file, "Read words from FILE ('-' = stdin), one per line (a blank line is the empty word)");
        app.add_option("--input", a->input,
                       "Read formulas from FILE ('-' = stdin), one per line; every word is checked against each "
                       "(output: FORMULA<TAB>WORD<TAB>1|0)");
        app.add_flag("--check", a->check,
                     "Also evaluate each word directly (formula semantics at EOS, the regex compiled operator by operator, "
                     "or the unminimized DFA) and fail with exit 4 on any disagreement");
        app.add_flag("--json", a->json, "One JSON object per language: input, alphabet, alphabet_inferred, results [{word, symbols, accepted}]");
        app.footer(
            "Examples:\n"
            "  ltlkit accepts 'P(b & Y a)' ab ba '' abab     # ab 1, ba 0, '' 0, abab 1\n"
            "  ltlkit accepts --check 'a S b' --alphabet a,b,c abaa cab\n"
            "  ltlkit accepts --regex '(ab)*' abab aba\n"
            "  printf 'Y a\\nH a\\n' | ltlkit accepts --input - --alphabet a,b aa ab");
        return [a, &app] {
            // With --regex/--dfa (or --input), the first positional is a word, not a formula.
            std::vector<std::string> words = a->words;
            const bool other_source = !a->lang.regex.empty() || !a->lang.dfa_file.empty() || !a->input.empty();
            if (other_source && app.get_option("FORMULA")->count() > 0) {
                words.insert(words.begin(), a->lang.formula);
                a->lang.formula.clear();
            }
            if (a->input == "-" && a->words_file == "-") fail("--input and --words cannot both read stdin");
            if (!a->words_file.empty())
                for (const auto& l : read_numbered_lines(a->words_file, false)) words.push_back(l.text);
            const std::vector<automata::Language> langs = load_languages(a->lang, a->input);
            // Parse every word against every language before printing anything.
            std::vector<Verdicts> all;
            for (const auto& l : langs) {
                Verdicts v{&l, {}, {}};
                for (const auto& text : words) {
                    auto w = automata::parse_word(l.dfa.alphabet, text);
                    if (!w.ok()) {
                        Error e = w.error();
                        if (langs.size() > 1) e.message = "language '" + l.spec.text + "': " + e.message;
                        fail(e);
                    }
                    v.words.push_back(*w);
                    v.accepted.push_back(l.dfa.accepts(*w));
                    if (a->check) check_word(l, *w, v.accepted.back());
                }
                all.push_back(std::move(v));
            }
            std::string out;
            for (const auto& v : all) {
                const auto& alphabet = v.lang->dfa.alphabet;
                if (a->json) {
                    nlohmann::json j;
                    j["input"] = v.lang->spec.text;
                    j["alphabet"] = alphabet;
                    j["alphabet_inferred"] = alphabet_inferred(*v.lang);
                    j["results"] = nlohmann::json::array();
                    for (std::size_t i = 0; i < v.words.size(); ++i)
                        j["results"].push_back({{"word", automata::format_word(alphabet, v.words[i])},
                                                {"symbols", automata::word_symbols(alphabet, v.words[i])},
                                                {"accepted", static_cast<bool>(v.accepted[i])}});
                    if (a->check) j["checked"] = true;
                    out += j.dump() + "\n";
                    continue;
                }
                for (std::size_t i = 0; i < v.words.size(); ++i) {
                    if (!a->input.empty()) out += v.lang->spec.text + "\t";
                    out += automata::format_word(alphabet, v.words[i]) + "\t" + (v.accepted[i] ? "1" : "0") + "\n";
                }
            }
            write_stdout(out);
            return 0;
        };
    }});

}  // namespace
}  // namespace ltlkit::cli
