#include "automata/language.hh"

#include <atomic>
#include <filesystem>
#include <set>
#include <sstream>

#include "automata/algorithms.hh"
#include "automata/dfa_json.hh"
#include "base/file.hh"
#include "base/text.hh"
#include "base/trace.hh"
#include "automata/monitor.hh"
#include "automata/regex.hh"
#include "ltl/fragment.hh"
#include "ltl/parser.hh"

namespace ltlkit::automata {

namespace {

// Line, column (characters) and line text of the first occurrence of atom `symbol` in formula
// text (outside '#' comments), so an out-of-alphabet error points at it as a parse error does.
bool locate_atom(const std::string& text, const std::string& symbol, Error& e) {
    int line = 1, column = 1;
    std::size_t line_start = 0;
    auto is_start = [](char c) { return c >= 'a' && c <= 'z'; };
    auto is_cont = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'; };
    for (std::size_t i = 0; i < text.size();) {
        const char c = text[i];
        if (c == '#') {
            while (i < text.size() && text[i] != '\n') ++i;
            continue;
        }
        if (c == '\n') {
            ++line;
            column = 1;
            line_start = ++i;
            continue;
        }
        if (is_start(c) && !(i > 0 && is_cont(text[i - 1]))) {
            std::size_t j = i;
            while (j < text.size() && is_cont(text[j])) ++j;
            if (text.compare(i, j - i, symbol) == 0 && j - i == symbol.size()) {
                std::size_t end = text.find('\n', line_start);
                e.line = line;
                e.column = column;
                e.source_line = text.substr(line_start, end == std::string::npos ? std::string::npos : end - line_start);
                return true;
            }
            column += static_cast<int>(j - i);
            i = j;
            continue;
        }
        if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++column;
        ++i;
    }
    return false;
}

Result<Language> load_unplaced(const LanguageSpec& spec);

// An error of the language of a suite line, placed in the suite: a formula or regex error points
// into the suite line; any other error keeps its own text after "FILE:LINE: language 'NAME': ".
Error placed_in_suite(const LanguageSpec& spec, const Error& e) {
    Error out = e;
    out.origin = spec.suite_file;
    out.line = spec.suite_line;
    if (e.origin.empty() && e.line == 1 && e.column > 0 && spec.text.find('\n') == std::string::npos) {
        out.column = spec.text_column + e.column - 1;
        out.source_line = spec.suite_line_text;
    } else {
        out.message = "language '" + spec.name + "': " + e.one_line();
        out.column = 0;
        out.source_line.clear();
    }
    return out;
}

std::atomic<std::size_t> languages_compiled_count{0};

}  // namespace

std::size_t languages_compiled() { return languages_compiled_count.load(std::memory_order_relaxed); }

Result<Language> load_language(const LanguageSpec& spec) {
    languages_compiled_count.fetch_add(1, std::memory_order_relaxed);
    trace_event("compile " + (spec.name.empty() ? spec.text : spec.name));  // tests only (base/trace.hh)
    auto lang = load_unplaced(spec);
    if (lang.ok() || spec.suite_line == 0) return lang;
    return placed_in_suite(spec, lang.error());
}

namespace {

Result<Language> load_unplaced(const LanguageSpec& spec) {
    Language lang;
    lang.spec = spec;
    switch (spec.kind) {
        case InputKind::Formula: {
            auto f = ltl::parse_formula(spec.text);
            if (!f.ok()) return f.error();
            auto alphabet = formula_alphabet(*f, spec.alphabet);
            if (!alphabet.ok()) {
                Error e = alphabet.error();
                for (const auto& s : ltl::atoms(*f))
                    if (e.message.find("'" + s + "'") != std::string::npos && locate_atom(spec.text, s, e)) break;
                return e;
            }
            CompileOptions options;
            options.max_states = spec.max_states;
            options.max_work = spec.max_work;
            options.minimize = spec.minimize;
            auto d = compile(*f, *alphabet, options);
            if (!d.ok()) return d.error();
            lang.formula = *f;
            lang.fragment = ltl::fragment_of(*f).name();
            lang.dfa = std::move(*d);
            return lang;
        }
        case InputKind::Regex: {
            auto d = compile_regex(spec.text, spec.alphabet, spec.max_states, spec.max_work);
            if (!d.ok()) return d.error();
            lang.dfa = minimize(*d);
            return lang;
        }
        case InputKind::DfaFile: {
            std::filesystem::path path(spec.text);
            if (path.is_relative() && !spec.base_dir.empty()) path = std::filesystem::path(spec.base_dir) / path;
            auto d = read_dfa_file(path.string());
            if (!d.ok()) return d.error();
            Dfa dfa = std::move(*d);
            if (!spec.alphabet.empty()) {
                auto w = with_alphabet(dfa, spec.alphabet);
                if (!w.ok()) {
                    Error e = w.error();
                    e.origin = path.string();
                    return e;
                }
                dfa = std::move(*w);
            }
            if (dfa.num_states() > spec.max_states)
                return limit_error(path.string() + ": the DFA has " + std::to_string(dfa.num_states()) +
                                   " states, more than --max-states " + std::to_string(spec.max_states) +
                                   "; raise --max-states to load it");
            lang.dfa = spec.minimize ? minimize(dfa) : canonical(dfa);
            return lang;
        }
    }
    return make_error("unknown input kind");
}

}  // namespace

Result<std::vector<std::string>> parse_alphabet(const std::string& csv) {
    std::vector<std::string> out;
    auto first = csv.find_first_not_of(" \t");
    if (first == std::string::npos) return out;
    std::size_t start = 0;
    for (;;) {
        std::size_t comma = csv.find(',', start);
        std::string sym = csv.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        auto b = sym.find_first_not_of(" \t");
        auto e = sym.find_last_not_of(" \t");
        sym = b == std::string::npos ? "" : sym.substr(b, e - b + 1);
        if (sym.empty()) return make_error("alphabet '" + csv + "': empty symbol (write symbols separated by commas, e.g. a,b,c)");
        if (sym.find(' ') != std::string::npos || has_control_byte(sym))
            return make_error("alphabet '" + csv + "': symbol '" + sym + "' contains a space or a control character");
        if (!is_valid_utf8(sym))
            return make_error("alphabet '" + csv + "': symbol '" + sym + "' is not valid UTF-8 (every output quotes it in JSON)");
        for (const auto& s : out)
            if (s == sym) return make_error("alphabet '" + csv + "': symbol '" + sym + "' appears twice");
        out.push_back(sym);
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    return out;
}

bool alphabet_inferred(const Language& l) {
    return l.spec.alphabet.empty() && l.spec.kind != InputKind::DfaFile;
}

std::string braced_alphabet(const std::vector<std::string>& alphabet) {
    std::string s = "{";
    for (std::size_t i = 0; i < alphabet.size(); ++i) s += (i ? "," : "") + alphabet[i];
    return s + "}";
}

std::optional<Error> inferred_alphabet_error(const std::vector<std::string>& alphabet, const std::string& from) {
    if (alphabet.size() >= 2) return std::nullopt;
    const std::string sym = alphabet.empty() ? "a" : alphabet.front();
    const std::string example = sym == "a" ? "a,b" : "a," + sym;
    return make_error("the alphabet inferred from " + from + " is " + braced_alphabet(alphabet) +
                      ", a single symbol, over which the question is degenerate; pass --alphabet with every "
                      "symbol you mean (e.g. --alphabet " + example + "), or --alphabet " + sym + " to confirm " +
                      braced_alphabet(alphabet));
}

Result<std::vector<LanguageSpec>> read_suite(const std::string& path) {
    auto text = read_file(path);
    if (!text.ok()) return text.error();
    if (auto bom = check_no_byte_order_mark(*text); !bom.ok()) {
        Error e = bom.error();
        e.origin = path;
        return e;
    }
    const std::string base = std::filesystem::path(path).parent_path().string();
    std::vector<LanguageSpec> out;
    std::set<std::string> names;
    std::istringstream in(*text);
    std::string line;
    int number = 0;
    auto column_of = [](const std::string& l, std::size_t byte) {
        int column = 1;
        for (std::size_t i = 0; i < byte && i < l.size(); ++i)
            if ((static_cast<unsigned char>(l[i]) & 0xC0) != 0x80) ++column;
        return column;
    };
    auto error_at = [&](const std::string& l, std::size_t byte, const std::string& message) {
        Error e = make_error(message);
        e.origin = path;
        e.line = number;
        e.column = column_of(l, byte);
        e.source_line = l;
        return e;
    };
    while (std::getline(in, line)) {
        ++number;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        auto first = line.find_first_not_of(" \t");
        if (first == std::string::npos || line[first] == '#') continue;
        std::size_t t1 = line.find('\t');
        std::size_t t2 = t1 == std::string::npos ? t1 : line.find('\t', t1 + 1);
        std::size_t t3 = t2 == std::string::npos ? t2 : line.find('\t', t2 + 1);
        if (t3 == std::string::npos) {
            const int fields = 1 + (t1 != std::string::npos) + (t2 != std::string::npos);
            return error_at(line, line.size(),
                            "expected 4 tab-separated fields (name, alphabet, formula|regex|dfa, text), found " +
                                std::to_string(fields));
        }
        LanguageSpec spec;
        spec.name = line.substr(0, t1);
        if (spec.name.empty() || has_control_byte(spec.name) || !is_valid_utf8(spec.name) || spec.name.find_first_of(" /\\") != std::string::npos || spec.name[0] == '.')
            return error_at(line, 0,
                            "bad language name '" + spec.name + "' (non-empty, no spaces, slashes or control characters)");
        // It names folders (DIR/NAME, runs/NAME/...): a file name has at most 255 bytes.
        if (spec.name.size() > kMaxLanguageName)
            return error_at(line, 0, "language name of " + std::to_string(spec.name.size()) + " bytes; at most " +
                                         std::to_string(kMaxLanguageName) + " (it names a folder)");
        if (!names.insert(spec.name).second)
            return error_at(line, 0, "language name '" + spec.name + "' appears twice in the suite");
        auto alphabet = parse_alphabet(line.substr(t1 + 1, t2 - t1 - 1));
        if (!alphabet.ok()) return error_at(line, t1 + 1, alphabet.error().message);
        spec.alphabet = *alphabet;
        const std::string kind = line.substr(t2 + 1, t3 - t2 - 1);
        if (kind == "formula")
            spec.kind = InputKind::Formula;
        else if (kind == "regex")
            spec.kind = InputKind::Regex;
        else if (kind == "dfa")
            spec.kind = InputKind::DfaFile;
        else
            return error_at(line, t2 + 1, "expected formula, regex or dfa, not '" + kind + "'");
        spec.text = line.substr(t3 + 1);
        if (spec.text.find_first_not_of(" \t") == std::string::npos)
            return error_at(line, t3 + 1, "empty " + kind + " for language '" + spec.name + "'");
        // A suite states every alphabet: only a DFA file carries its own.
        if (spec.alphabet.empty() && spec.kind != InputKind::DfaFile)
            return error_at(line, t1 + 1, "no alphabet for the " + kind + " of language '" + spec.name +
                                              "' (write its symbols, e.g. a,b, in the second field; only dfa "
                                              "lines may leave it empty)");
        spec.base_dir = base;
        spec.suite_file = path;
        spec.suite_line = number;
        spec.text_column = column_of(line, t3 + 1);
        spec.suite_line_text = line;
        out.push_back(std::move(spec));
    }
    if (out.empty()) {
        Error e = make_error("no language in the suite (every line is blank or a comment)");
        e.origin = path;
        return e;
    }
    return out;
}

}  // namespace ltlkit::automata
