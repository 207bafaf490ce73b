// Strict reading of input and safe printing of errors: the strict JSON reader against nlohmann's
// own parser, printable() and Error::render() against an independent UTF-8 decoder, and suite
// errors placed at FILE:LINE.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "automata/dfa_json.hh"
#include "base/checksum.hh"
#include "base/text.hh"
#include "base/json.hh"
#include "automata/language.hh"
#include "base/error.hh"
#include "ltl/parser.hh"

using namespace ltlkit;
using namespace ltlkit::automata;

namespace {

// Code points of a UTF-8 string, or false when it is not valid UTF-8 (decoded with mbrtowc-free
// bit arithmetic written for this test: shortest forms only, no surrogates, at most U+10FFFF).
bool decode_utf8(const std::string& s, std::vector<char32_t>& out) {
    out.clear();
    for (std::size_t i = 0; i < s.size();) {
        const auto c = static_cast<unsigned char>(s[i]);
        int n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
        if (n == 0 || i + n > s.size()) return false;
        char32_t cp = n == 1 ? c : c & (0x7F >> n);
        for (int k = 1; k < n; ++k) {
            const auto d = static_cast<unsigned char>(s[i + k]);
            if ((d >> 6) != 2) return false;
            cp = (cp << 6) | (d & 0x3F);
        }
        static const char32_t min_of[] = {0, 0, 0x80, 0x800, 0x10000};
        if (cp < min_of[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
        out.push_back(cp);
        i += n;
    }
    return true;
}

// Undoes printable()'s escapes (valid for inputs without a backslash).
std::string unescape(const std::string& s) {
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '\\' && i + 3 < s.size() && s[i + 1] == 'x') {
            out += static_cast<char>(std::stoi(s.substr(i + 2, 2), nullptr, 16));
            i += 3;
        } else if (s[i] == '\\' && i + 5 < s.size() && s[i + 1] == 'u') {
            const int cp = std::stoi(s.substr(i + 2, 4), nullptr, 16);
            out += static_cast<char>(0xC0 | (cp >> 6));
            out += static_cast<char>(0x80 | (cp & 0x3F));
            i += 5;
        } else {
            out += s[i];
        }
    }
    return out;
}

std::string random_bytes(std::mt19937& rng, std::size_t n) {
    // Mostly text, some controls, some multi-byte characters and stray bytes; never a backslash.
    static const std::vector<std::string> pieces = {"a", "b", " ", "(", "\t", "\n", "\r", "\x1b", std::string(1, '\0'),
                                                    "\x7f", "é", "→", "😀", "\xc2\x9b", "\xe2\x82", "\xff", "\xc0\xaf",
                                                    "\xed\xa0\x80"};
    std::string s;
    while (s.size() < n) s += pieces[rng() % pieces.size()];
    return s;
}

}  // namespace

TEST_CASE("printable: valid UTF-8, no control byte, the input recoverable, bounded width", "[error]") {
    std::mt19937 rng(17);
    for (int round = 0; round < 2000; ++round) {
        const std::string in = random_bytes(rng, rng() % 120);
        const std::string wide = printable(in, 100000);
        std::vector<char32_t> cps;
        REQUIRE(decode_utf8(wide, cps));
        for (char32_t cp : cps) CHECK(((cp >= 0x20 && cp != 0x7F && !(cp >= 0x80 && cp <= 0x9F)) || cp == '\t'));
        CHECK(unescape(wide) == in);
        // Bounded: at most max characters, still valid UTF-8, start and end kept around "…".
        const std::size_t max = 10 + rng() % 40;
        const std::string narrow = printable(in, max);
        REQUIRE(decode_utf8(narrow, cps));
        CHECK(cps.size() <= max);
        if (narrow != wide) {
            const auto dots = narrow.find("…");
            REQUIRE(dots != std::string::npos);
            CHECK(wide.compare(0, dots, narrow, 0, dots) == 0);
            const std::string tail = narrow.substr(dots + std::string("…").size());
            CHECK(wide.compare(wide.size() - tail.size(), tail.size(), tail) == 0);
        }
    }
}

TEST_CASE("render: one line of context, bounded, with the caret under the column", "[error]") {
    std::mt19937 rng(23);
    for (int round = 0; round < 500; ++round) {
        Error e = make_error(random_bytes(rng, rng() % 800));
        std::string line = random_bytes(rng, 1 + rng() % 3000);
        for (char& c : line)
            if (c == '\n') c = 'n';
        std::vector<char32_t> chars;
        // Columns count characters; a stray byte counts as one.
        std::vector<std::string> source_chars;
        for (std::size_t i = 0; i < line.size();) {
            std::size_t n = 1;
            while (n <= 4 && i + n <= line.size() && !decode_utf8(line.substr(i, n), chars)) ++n;
            if (n > 4 || i + n > line.size()) n = 1;
            source_chars.push_back(line.substr(i, n));
            i += n;
        }
        e.source_line = line;
        e.column = 1 + static_cast<int>(rng() % source_chars.size());
        const std::string r = e.render();
        std::vector<std::string> lines;
        for (std::size_t start = 0;;) {
            const auto nl = r.find('\n', start);
            lines.push_back(r.substr(start, nl == std::string::npos ? std::string::npos : nl - start));
            if (nl == std::string::npos) break;
            start = nl + 1;
        }
        REQUIRE(lines.size() == 3);
        std::vector<char32_t> first, context, caret;
        REQUIRE(decode_utf8(lines[0], first));
        REQUIRE(decode_utf8(lines[1], context));
        REQUIRE(decode_utf8(lines[2], caret));
        CHECK(first.size() <= kMaxMessageChars);
        CHECK(context.size() <= kMaxContextChars + 2);
        REQUIRE(caret.back() == U'^');
        // The context shows, at the caret, the printable form of the character at the column.
        const std::string at_caret = printable(source_chars[e.column - 1], 100);
        std::vector<char32_t> want;
        REQUIRE(decode_utf8(at_caret, want));
        const std::size_t pos = caret.size() - 1;
        REQUIRE(pos + want.size() <= context.size());
        CHECK(std::vector<char32_t>(context.begin() + pos, context.begin() + pos + want.size()) == want);
    }
}

TEST_CASE("parse_json: the strict reader agrees with nlohmann's except for duplicate keys", "[io]") {
    std::mt19937 rng(29);
    const std::vector<std::string> names = {"a", "b", "initial", "k\\\"q", "\\u0061", "é"};
    for (int round = 0; round < 3000; ++round) {
        // A random document; `dup_at` is the offset of the first repeated key's second occurrence.
        std::string text;
        std::size_t dup_at = std::string::npos;
        std::function<void(int)> value = [&](int depth) {
            const unsigned pick = depth > 3 ? rng() % 3 : rng() % 5;
            if (pick == 0) text += std::to_string(static_cast<int>(rng() % 100) - 50);
            else if (pick == 1) text += "\"s\"";
            else if (pick == 2) text += rng() % 2 ? "true" : "null";
            else if (pick == 3) {
                text += "[";
                const unsigned n = rng() % 4;
                for (unsigned i = 0; i < n; ++i) {
                    if (i) text += ", ";
                    value(depth + 1);
                }
                text += "]";
            } else {
                text += "{";
                std::vector<std::string> used;
                const unsigned n = rng() % 4;
                for (unsigned i = 0; i < n; ++i) {
                    if (i) text += rng() % 2 ? ",\n " : ", ";
                    std::string k = names[rng() % names.size()];
                    // "\u0061" and "a" are the same key once decoded.
                    const std::string decoded = k == "\\u0061" ? "a" : k;
                    bool repeated = false;
                    for (const auto& u : used) repeated = repeated || u == decoded;
                    if (repeated && dup_at == std::string::npos) dup_at = text.size();
                    used.push_back(decoded);
                    text += "\"" + k + "\": ";
                    value(depth + 1);
                }
                text += "}";
            }
        };
        value(0);
        const auto strict = parse_json<nlohmann::json>(text);
        const auto lenient = nlohmann::json::parse(text);
        if (dup_at == std::string::npos) {
            REQUIRE(strict.ok());
            CHECK(*strict == lenient);
            CHECK(parse_json<nlohmann::ordered_json>(text).ok());
        } else {
            INFO(text);
            REQUIRE(!strict.ok());
            CHECK(strict.error().message.rfind("duplicate key ", 0) == 0);
            const auto where = text_position(text, dup_at);
            CHECK(strict.error().line == where.line);
            CHECK(strict.error().column == where.column);
            CHECK(strict.error().source_line == where.line_text);
            CHECK(!parse_json<nlohmann::ordered_json>(text).ok());
        }
    }
}

TEST_CASE("parse_json: the key and the object holding it are named, a BOM and bad syntax are refused", "[io]") {
    auto r = parse_json<nlohmann::json>("{\"x\": [1, {\"k\": 1, \"k\": 2}]}");
    REQUIRE(!r.ok());
    CHECK(r.error().message == "duplicate key \"k\" in the object at /x/1 (a key may appear only once in an object)");
    CHECK(r.error().column == 20);
    auto bom = parse_json<nlohmann::json>("\xEF\xBB\xBF{}");
    REQUIRE(!bom.ok());
    CHECK(bom.error().message.find("byte order mark") != std::string::npos);
    auto bad = parse_json<nlohmann::json>("{\n  \"a\": 1\n  \"b\": 2}");
    REQUIRE(!bad.ok());
    CHECK(bad.error().message.rfind("malformed JSON", 0) == 0);
    CHECK(bad.error().line == 3);
    // The checksum check names a duplicate key instead of calling the file corrupted.
    const std::string file = json_with_checksum("{\"a\": 1, \"b\": 2}", 0);
    CHECK(json_checksum_state(file) == ChecksumState::Valid);
    const std::string twice = "{\"a\": 1, \"a\": 1," + file.substr(file.find("\"b\""));
    CHECK(json_checksum_state(twice) == ChecksumState::Mismatch);
    auto c = check_json_checksum("f.json", twice, "regenerate it");
    REQUIRE(!c.ok());
    CHECK(c.error().one_line().rfind("f.json:1:10: duplicate key \"a\"", 0) == 0);
    // DFA files go through the same reader.
    auto d = dfa_from_json(R"({"alphabet": ["a"], "initial": 0, "initial": 0, "accepting": [], "transitions": [[0]]})");
    REQUIRE(!d.ok());
    CHECK(d.error().message.find("duplicate key \"initial\"") != std::string::npos);
}

TEST_CASE("suites: errors of a suite line's language say FILE:LINE, empty suites and BOMs are refused", "[io]") {
    const auto dir = std::filesystem::temp_directory_path() / ("ltlkit-test-strict-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const std::string path = (dir / "s.suite").string();
    auto write = [&](const std::string& text) { std::ofstream(path, std::ios::binary) << text; };
    auto first_error = [&]() -> Error {
        auto suite = read_suite(path);
        if (!suite.ok()) return suite.error();
        for (auto spec : *suite) {
            spec.max_states = 50;
            auto l = load_language(spec);
            if (!l.ok()) return l.error();
        }
        return make_error("no error");
    };
    // A formula error points into the suite line, at the same character as in the formula alone.
    const std::string formula = "P(a &&b)";
    write("ok\ta,b\tformula\tY a\n# comment\nbad\ta,b\tformula\t" + formula + "\n");
    Error e = first_error();
    const Error alone = ltl::parse_formula(formula).error();
    CHECK(e.origin == path);
    CHECK(e.line == 3);
    CHECK(e.source_line.substr(e.column - 1) == formula.substr(alone.column - 1));
    // Any other error keeps its own text after FILE:LINE and its exit code.
    write("big\ta,b\tformula\tY Y Y Y Y Y Y Y a\n");
    e = first_error();
    CHECK(e.one_line().rfind(path + ":1: language 'big': the monitor", 0) == 0);
    CHECK(e.exit_code == 3);
    write("d\ta,b\tdfa\tmissing.json\n");
    e = first_error();
    CHECK(e.one_line().rfind(path + ":1: language 'd': ", 0) == 0);
    write("# only a comment\n\n");
    e = first_error();
    CHECK(e.origin == path);
    CHECK(e.message.find("no language") != std::string::npos);
    write("\xEF\xBB\xBFok\ta,b\tformula\tY a\n");
    e = first_error();
    CHECK(e.line == 1);
    CHECK(e.message.find("byte order mark") != std::string::npos);
    // A directory is an I/O error.
    auto d = read_suite(dir.string());
    REQUIRE(!d.ok());
    CHECK(d.error().exit_code == 4);
    CHECK(d.error().message.find("is a directory") != std::string::npos);
    std::filesystem::remove_all(dir);
}

TEST_CASE("parse_json: nesting deeper than the bound is refused at its bracket, and excerpts are bounded", "[io]") {
    using ltlkit::json_excerpt;
    using ltlkit::kMaxJsonDepth;
    using ltlkit::parse_json;
    for (std::size_t depth : {kMaxJsonDepth - 1, kMaxJsonDepth, kMaxJsonDepth + 1, std::size_t(100000)}) {
        const std::string text = "{\"a\": " + std::string(depth - 1, '[') + std::string(depth - 1, ']') + "}";
        auto r = parse_json<nlohmann::json>(text);
        if (depth <= kMaxJsonDepth) {
            REQUIRE(r.ok());
            // the excerpt of a deep value: bounded, no recursion
            const std::string e = json_excerpt(r.value()["a"]);
            CHECK(e.size() <= 64);
            CHECK(e.rfind("[[[[", 0) == 0);
        } else {
            REQUIRE_FALSE(r.ok());
            CHECK(r.error().message.find("nested deeper than") != std::string::npos);
            CHECK(r.error().line == 1);
            CHECK(r.error().column == static_cast<int>(6 + kMaxJsonDepth));  // the bracket of level 129
        }
    }
    // an excerpt is the dump itself when short, cut at a character boundary otherwise
    auto v = nlohmann::json::parse(R"({"k":[1,"é",null,{"x":true}]})");
    CHECK(json_excerpt(v) == v.dump());
    const std::string cut = json_excerpt(nlohmann::json(std::string(200, 'x') + "é"), 10);
    CHECK(cut.size() <= 16);
    CHECK(cut.find("…") != std::string::npos);
    // a number too large for a double: LINE:COL of the number
    auto big = parse_json<nlohmann::json>("{\"a\": [1,\n  1E99999]}");
    REQUIRE_FALSE(big.ok());
    CHECK(big.error().line == 2);
    CHECK(big.error().column == 3);
}
