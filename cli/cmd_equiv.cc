// `ltlkit equiv A B`: are two languages equal? Exit 0 when they are, 1 when not (with a shortest
// word on which they differ), 2 on bad input. A and B are formulas, or `regex:R` / `dfa:FILE`.
#include <algorithm>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "automata/algorithms.hh"
#include "automata/language.hh"
#include "cli/command.hh"
#include "cli/common.hh"

namespace ltlkit::cli {
namespace {

struct EquivArgs {
    std::string a, b;
    std::string alphabet;
    std::size_t max_states = 1'000'000;
    std::size_t max_work = automata::kDefaultMaxWork;
    std::string input;
    bool json = false;
};

// "regex:R" and "dfa:FILE" select the input kind; "formula:F" or plain text is a formula (a
// formula never contains ':', so the prefixes are unambiguous).
automata::LanguageSpec spec_of(const std::string& text, const EquivArgs& args, const std::string& side) {
    automata::LanguageSpec spec;
    spec.text = text;
    if (text.rfind("regex:", 0) == 0) {
        spec.kind = automata::InputKind::Regex;
        spec.text = text.substr(6);
    } else if (text.rfind("dfa:", 0) == 0) {
        spec.kind = automata::InputKind::DfaFile;
        spec.text = text.substr(4);
    } else if (text.rfind("formula:", 0) == 0) {
        spec.text = text.substr(8);
    }
    if (spec.text.find_first_not_of(" \t\r\n") == std::string::npos) fail("language " + side + " is empty");
    spec.name = text;
    spec.alphabet = take(automata::parse_alphabet(args.alphabet));
    spec.max_states = args.max_states;
    spec.max_work = args.max_work;
    return spec;
}

struct Outcome {
    std::string a_text, b_text;
    std::vector<std::string> alphabet;
    std::optional<automata::Word> word;
    bool a_accepts = false;
    bool alphabet_inferred = false;
};

// Loads both sides over one alphabet: --alphabet when given, else the union of both (sorted when
// both sides had sorted alphabets, else A's order then B's extra symbols).
Outcome compare(const std::string& a_text, const std::string& b_text, const EquivArgs& args, Error* error) {
    automata::LanguageSpec sa = spec_of(a_text, args, "A"), sb = spec_of(b_text, args, "B");
    auto load = [&](const automata::LanguageSpec& s, const std::string& side) -> std::optional<automata::Language> {
        auto r = automata::load_language(s);
        if (!r.ok()) {
            *error = r.error();
            // Keep "LINE:COL: ..." first for parse errors (docs/SYNTAX.md §2); say the side at the end.
            if (error->origin.empty() && error->line == 0)
                error->message = "language " + side + ": " + error->message;
            else
                error->message += " (in language " + side + ")";
            return std::nullopt;
        }
        return std::move(r.value());
    };
    Outcome o{a_text, b_text, {}, std::nullopt, false};
    auto la = load(sa, "A");
    if (!la) return o;
    auto lb = load(sb, "B");
    if (!lb) return o;
    if (sa.alphabet.empty() && la->dfa.alphabet != lb->dfa.alphabet) {
        std::vector<std::string> u = la->dfa.alphabet;
        for (const auto& s : lb->dfa.alphabet)
            if (std::find(u.begin(), u.end(), s) == u.end()) u.push_back(s);
        if (std::is_sorted(la->dfa.alphabet.begin(), la->dfa.alphabet.end()) &&
            std::is_sorted(lb->dfa.alphabet.begin(), lb->dfa.alphabet.end()))
            std::sort(u.begin(), u.end());
        sa.alphabet = sb.alphabet = u;
        la = load(sa, "A");
        if (!la) return o;
        lb = load(sb, "B");
        if (!lb) return o;
    }
    o.alphabet = la->dfa.alphabet;
    o.alphabet_inferred = args.alphabet.empty() && (sa.kind != automata::InputKind::DfaFile ||
                                                    sb.kind != automata::InputKind::DfaFile);
    if (o.alphabet_inferred) {
        if (auto e = check_inferred_alphabet(o.alphabet, "the two languages")) {
            *error = *e;
            return o;
        }
    }
    bool over = false;
    o.word = automata::distinguishing_word(la->dfa, lb->dfa, args.max_states, &over);
    if (over) {
        *error = limit_error("comparing A and B builds more than " + std::to_string(args.max_states) +
                             " pairs of states; raise --max-states to compare them");
        return o;
    }
    if (o.word) o.a_accepts = la->dfa.accepts(*o.word);
    return o;
}

std::string show(const std::vector<std::string>& alphabet, const automata::Word& w) {
    return w.empty() ? "'' (the empty word)" : "'" + automata::format_word(alphabet, w) + "'";
}

LTLKIT_COMMAND(CommandDef{
    "equiv",
    "Decide whether two languages are equal (exit 0 equal, 1 not, with a shortest word that differs)",
    [](CLI::App& app) -> Runner {
        auto a = std::make_shared<EquivArgs>();
        app.add_option("A", a->a, "First language: a formula, or regex:R, or dfa:FILE (formula:F also works)");
        app.add_option("B", a->b, "Second language, same forms");
        app.add_option("--alphabet", a->alphabet,
                       "Alphabet for both sides (default: the union of both sides' symbols, said on stderr; "
                       "a single inferred symbol is refused)")
            ->check(nonempty_alphabet());
        app.add_option("--max-states", a->max_states,
                       "Stop when an automaton, or the pairs of states compared in the product of A and B, "
                       "exceed this many (default 1000000)");
        app.add_option("--max-work", a->max_work,
                       "Stop when building the DFA of a formula or regex takes more than this many steps (default " +
                           std::to_string(automata::kDefaultMaxWork) + "; 0 = no limit)");
        app.add_option("--input", a->input,
                       "Read pairs from FILE ('-' = stdin), one 'A<TAB>B' per line; exit 1 if any pair differs");
        app.add_flag("--json", a->json,
                     "One JSON object per pair: a, b, alphabet, alphabet_inferred, equivalent, and when not: word, symbols, accepted_by");
        app.footer(
            "Languages are formulas by default; prefix 'regex:' for an extended regular expression and\n"
            "'dfa:' for a DFA JSON file.\n"
            "Examples:\n"
            "  ltlkit equiv 'H a' '!P !a' --alphabet a,b      # equivalent (exit 0)\n"
            "  ltlkit equiv 'P(b & Y a)' 'regex:.*ab.*'      # equivalent over the inferred {a,b}\n"
            "  ltlkit equiv 'Y<=2 a' 'Y a' --alphabet a,b     # not equivalent: 'ab' (exit 1)\n"
            "  ltlkit equiv 'Y a' dfa:last_a.json --alphabet a,b");
        return [a] {
            std::vector<std::pair<std::string, std::string>> pairs;
            std::vector<int> lines;
            const std::string origin = a->input == "-" ? "<stdin>" : a->input;
            if (!a->input.empty()) {
                if (!a->a.empty() || !a->b.empty()) fail("give either A and B or --input, not both");
                for (const NumberedLine& numbered : read_numbered_lines(a->input)) {
                    const std::string& line = numbered.text;
                    const int number = numbered.number;
                    auto tab = line.find('\t');
                    if (tab == std::string::npos) {
                        Error e;
                        e.origin = origin;
                        e.line = number;
                        e.message = "expected two languages separated by a tab";
                        fail(e);
                    }
                    pairs.emplace_back(line.substr(0, tab), line.substr(tab + 1));
                    lines.push_back(number);
                }
            } else {
                if (a->a.empty() || a->b.empty()) fail("give two languages A and B (or --input FILE)");
                pairs.emplace_back(a->a, a->b);
                lines.push_back(0);
            }
            std::vector<Outcome> outcomes;
            for (std::size_t i = 0; i < pairs.size(); ++i) {
                Error e;
                e.message.clear();
                Outcome o = compare(pairs[i].first, pairs[i].second, *a, &e);
                if (!e.message.empty()) {
                    if (lines[i] && e.origin.empty()) {
                        if (e.line == 0)
                            e.origin = origin + ":" + std::to_string(lines[i]);
                        else  // a position inside one side of the pair: keep it, name the line
                            e.message += " [" + origin + " line " + std::to_string(lines[i]) + "]";
                    }
                    fail(e);
                }
                outcomes.push_back(std::move(o));
            }
            std::string out;
            bool all_equal = true;
            for (const auto& o : outcomes) {
                all_equal = all_equal && !o.word;
                if (a->json) {
                    nlohmann::json j = {{"a", o.a_text}, {"b", o.b_text}, {"alphabet", o.alphabet},
                                          {"alphabet_inferred", o.alphabet_inferred}, {"equivalent", !o.word}};
                    if (o.word) {
                        j["word"] = automata::format_word(o.alphabet, *o.word);
                        j["symbols"] = automata::word_symbols(o.alphabet, *o.word);
                        j["accepted_by"] = o.a_accepts ? "A" : "B";
                    }
                    out += j.dump() + "\n";
                    continue;
                }
                if (!a->input.empty()) out += o.a_text + "\t" + o.b_text + "\t";
                if (!o.word) {
                    out += "equivalent\n";
                } else {
                    out += "not equivalent: " + show(o.alphabet, *o.word) + " is accepted by " +
                           (o.a_accepts ? "A" : "B") + " and rejected by " + (o.a_accepts ? "B" : "A") +
                           " (a shortest such word)\n";
                }
            }
            write_stdout(out);
            return all_equal ? 0 : 1;
        };
    }});

}  // namespace
}  // namespace ltlkit::cli
