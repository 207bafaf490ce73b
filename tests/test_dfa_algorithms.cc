// DFA algorithms (automata/algorithms.hh), words (dfa.hh) and I/O (dfa_json.hh, dot.hh, base/file.hh, language.hh), each
// checked against a brute-force route over all short words.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <random>
#include <set>

#include "automata/algorithms.hh"
#include "automata/dfa_json.hh"
#include "automata/dot.hh"
#include "base/file.hh"
#include "automata/language.hh"

using namespace ltlkit;
using namespace ltlkit::automata;

namespace {

Dfa random_dfa(std::mt19937_64& rng, std::size_t n, std::size_t m) {
    Dfa d;
    for (std::size_t i = 0; i < m; ++i) d.alphabet.push_back(std::string(1, static_cast<char>('a' + i)));
    d.initial = static_cast<State>(rng() % n);
    for (std::size_t q = 0; q < n; ++q) d.accepting.push_back(rng() % 3 == 0);
    for (std::size_t i = 0; i < n * m; ++i) d.delta.push_back(static_cast<State>(rng() % n));
    return d;
}

// All words of length ≤ max_len, shortest first, then lexicographically by symbol index.
std::vector<Word> all_words(std::size_t m, std::size_t max_len) {
    std::vector<Word> out{Word{}};
    for (std::size_t i = 0; i < out.size(); ++i) {
        if (out[i].size() == max_len) continue;
        for (std::size_t a = 0; a < m; ++a) {
            Word w = out[i];
            w.push_back(static_cast<Symbol>(a));
            out.push_back(w);
        }
    }
    return out;
}

// Myhill–Nerode by brute force: reachable states with distinct acceptance vectors over all words
// of length ≤ n (two states of an n-state DFA that differ at all differ on a word shorter than n).
std::size_t nerode_classes(const Dfa& d) {
    const std::size_t n = d.num_states();
    std::set<State> reachable;
    for (const Word& w : all_words(d.num_symbols(), n)) reachable.insert(d.run(d.initial, w));
    const auto words = all_words(d.num_symbols(), n);
    std::set<std::vector<bool>> sigs;
    for (State q : reachable) {
        std::vector<bool> sig;
        for (const Word& w : words) sig.push_back(d.is_accepting(d.run(q, w)));
        sigs.insert(sig);
    }
    return sigs.size();
}

Dfa permuted(const Dfa& d, std::mt19937_64& rng) {
    const std::size_t n = d.num_states(), m = d.num_symbols();
    std::vector<State> perm(n);
    for (std::size_t i = 0; i < n; ++i) perm[i] = static_cast<State>(i);
    std::shuffle(perm.begin(), perm.end(), rng);
    Dfa p = d;
    p.initial = perm[d.initial];
    for (std::size_t q = 0; q < n; ++q) {
        p.accepting[perm[q]] = d.accepting[q];
        for (std::size_t a = 0; a < m; ++a) p.delta[perm[q] * m + a] = perm[d.delta[q * m + a]];
    }
    return p;
}

}  // namespace

TEST_CASE("minimization matches a brute-force Myhill–Nerode class count on random DFAs", "[dfa]") {
    std::mt19937_64 rng(1);
    for (int it = 0; it < 1500; ++it) {
        const std::size_t n = 1 + rng() % 7, m = 1 + rng() % 3;
        Dfa d = random_dfa(rng, n, m);
        Dfa mn = minimize(d);
        REQUIRE(mn.validate().ok());
        REQUIRE(mn.num_states() == nerode_classes(d));
        for (const Word& w : all_words(m, 6)) REQUIRE(mn.accepts(w) == d.accepts(w));
    }
}

TEST_CASE("minimize is idempotent, canonical and invariant under state renumbering", "[dfa]") {
    std::mt19937_64 rng(2);
    for (int it = 0; it < 1000; ++it) {
        Dfa d = random_dfa(rng, 1 + rng() % 30, 1 + rng() % 4);
        Dfa mn = minimize(d);
        CHECK(minimize(mn) == mn);
        CHECK(canonical(mn) == mn);
        CHECK(is_minimal(mn));
        Dfa p = permuted(d, rng);
        CHECK(minimize(p) == mn);
        CHECK(canonical(p) == canonical(d));
        CHECK(is_minimal(d) == (canonical(d).num_states() == d.num_states() && mn.num_states() == d.num_states()));
    }
}

TEST_CASE("minimization of large DFAs equals Moore's refinement", "[dfa]") {
    std::mt19937_64 rng(3);
    for (int it = 0; it < 5; ++it) {
        Dfa d = random_dfa(rng, 2000 + rng() % 3000, 2 + rng() % 2);
        // Moore 1956: refine by (class, classes of successors) to a fixpoint.
        Dfa c = canonical(d);
        const std::size_t n = c.num_states(), m = c.num_symbols();
        std::vector<std::size_t> cls(n);
        for (std::size_t q = 0; q < n; ++q) cls[q] = c.accepting[q];
        std::size_t count = 0;
        for (;;) {
            std::map<std::vector<std::size_t>, std::size_t> ids;
            std::vector<std::size_t> next(n);
            for (std::size_t q = 0; q < n; ++q) {
                std::vector<std::size_t> sig{cls[q]};
                for (std::size_t a = 0; a < m; ++a) sig.push_back(cls[c.delta[q * m + a]]);
                next[q] = ids.emplace(sig, ids.size()).first->second;
            }
            cls = next;
            if (ids.size() == count) break;
            count = ids.size();
        }
        CHECK(minimize(d).num_states() == count);
    }
}

TEST_CASE("the distinguishing word is the shortest, lexicographically least, and distinguishes", "[dfa]") {
    std::mt19937_64 rng(4);
    // Two DFAs with p and q states that differ at all differ on a word of length < p·q; all_words
    // lists words shortest first, then lexicographically, so the first difference is the answer.
    std::vector<std::vector<Word>> words(4);
    for (std::size_t m = 1; m <= 3; ++m) words[m] = all_words(m, m == 3 ? 9 : 16);
    int equivalent = 0, different = 0;
    for (int it = 0; it < 1500; ++it) {
        const std::size_t m = 1 + rng() % 3;
        const std::size_t cap = m == 3 ? 3 : 4;
        Dfa a = random_dfa(rng, 1 + rng() % cap, m);
        // Half of the time compare with an equivalent DFA (renumbered, minimized), sometimes tweaked.
        Dfa b = rng() % 2 ? permuted(minimize(a), rng) : random_dfa(rng, 1 + rng() % cap, m);
        if (rng() % 4 == 0) b.accepting[rng() % b.num_states()] ^= 1;
        std::optional<Word> brute;
        for (const Word& w : words[m])
            if (a.accepts(w) != b.accepts(w)) {
                brute = w;
                break;
            }
        auto got = distinguishing_word(a, b);
        REQUIRE(got.has_value() == brute.has_value());
        if (got) {
            ++different;
            CHECK(*got == *brute);
            CHECK(a.accepts(*got) != b.accepts(*got));
        } else {
            ++equivalent;
        }
    }
    CHECK(equivalent > 100);
    CHECK(different > 100);
}

TEST_CASE("distinguishing word re-indexes b's alphabet to a's order", "[dfa]") {
    Dfa a;  // Σ*a over (a, b)
    a.alphabet = {"a", "b"};
    a.accepting = {0, 1};
    a.delta = {1, 0, 1, 0};
    auto b = with_alphabet(a, {"b", "a"});
    REQUIRE(b.ok());
    CHECK(!distinguishing_word(a, *b));
    Dfa c = complement(*b);
    auto w = distinguishing_word(a, c);
    REQUIRE(w);
    CHECK(w->empty());
}

TEST_CASE("product and complement agree with the pointwise Boolean operations", "[dfa]") {
    std::mt19937_64 rng(6);
    const std::vector<std::function<bool(bool, bool)>> ops = {
        [](bool x, bool y) { return x && y; }, [](bool x, bool y) { return x || y; },
        [](bool x, bool y) { return x != y; }, [](bool x, bool y) { return x && !y; }};
    for (int it = 0; it < 400; ++it) {
        const std::size_t m = 1 + rng() % 3;
        Dfa a = random_dfa(rng, 1 + rng() % 6, m), b = random_dfa(rng, 1 + rng() % 6, m);
        const auto& op = ops[it % ops.size()];
        Dfa p = product(a, b, op);
        REQUIRE(p.validate().ok());
        CHECK(canonical(p) == p);  // BFS-built: reachable and canonically numbered
        Dfa c = complement(a);
        for (const Word& w : all_words(m, 6)) {
            REQUIRE(p.accepts(w) == op(a.accepts(w), b.accepts(w)));
            REQUIRE(c.accepts(w) == !a.accepts(w));
        }
    }
}

TEST_CASE("with_alphabet reorders symbols and sends new ones to a rejecting sink", "[dfa]") {
    std::mt19937_64 rng(7);
    for (int it = 0; it < 200; ++it) {
        Dfa d = random_dfa(rng, 1 + rng() % 6, 2);  // a, b
        auto e = with_alphabet(d, {"c", "b", "a"});
        REQUIRE(e.ok());
        REQUIRE(e->validate().ok());
        for (const Word& w : all_words(3, 5)) {
            // New symbol 0 is c; 1 is b; 2 is a.
            const bool has_c = std::find(w.begin(), w.end(), 0u) != w.end();
            Word orig;
            for (Symbol s : w) orig.push_back(s == 2 ? 0 : 1);
            REQUIRE(e->accepts(w) == (!has_c && d.accepts(orig)));
        }
    }
    Dfa d = random_dfa(rng, 3, 2);
    auto bad = with_alphabet(d, {"a"});
    REQUIRE(!bad.ok());
    CHECK(bad.error().message.find("'b'") != std::string::npos);
}

TEST_CASE("count_accepted agrees with enumeration", "[dfa]") {
    std::mt19937_64 rng(8);
    for (int it = 0; it < 200; ++it) {
        const std::size_t m = 1 + rng() % 3;
        Dfa d = random_dfa(rng, 1 + rng() % 6, m);
        auto counts = count_accepted(d, 6);
        REQUIRE(counts.size() == 7);
        std::vector<std::uint64_t> brute(7, 0);
        for (const Word& w : all_words(m, 6)) brute[w.size()] += d.accepts(w);
        CHECK(counts == brute);
    }
}

TEST_CASE("words: formatting and parsing round-trip (docs/SYNTAX.md §8)", "[dfa]") {
    const std::vector<std::string> ab{"a", "b"}, multi{"a", "b0", "b1"};
    CHECK(single_char_alphabet(ab));
    CHECK(!single_char_alphabet(multi));
    CHECK(format_word(ab, {0, 1, 1, 0}) == "abba");
    CHECK(format_word(multi, {1, 0, 2}) == "b0 a b1");
    CHECK(*parse_word(ab, "abba") == Word{0, 1, 1, 0});
    CHECK(*parse_word(ab, "a b b a") == Word{0, 1, 1, 0});
    CHECK(parse_word(ab, "")->empty());
    CHECK(*parse_word(multi, "b0 a b1") == Word{1, 0, 2});
    auto bad = parse_word(ab, "abc");
    REQUIRE(!bad.ok());
    CHECK(bad.error().message.find("'c'") != std::string::npos);
    auto bad2 = parse_word(multi, "b0 b2");
    REQUIRE(!bad2.ok());
    CHECK(bad2.error().message.find("'b2'") != std::string::npos);
    std::mt19937_64 rng(9);
    for (int i = 0; i < 100; ++i) {
        Word w;
        for (int j = 0, n = static_cast<int>(rng() % 8); j < n; ++j) w.push_back(static_cast<Symbol>(rng() % 3));
        CHECK(*parse_word(multi, format_word(multi, w)) == w);
    }
}

TEST_CASE("DFA JSON is exactly docs/SYNTAX.md §9 and round-trips", "[dfa][io]") {
    const std::string spec = R"({"alphabet": ["a","b"], "initial": 0, "accepting": [1], "transitions": [[1,0],[1,0]]})";
    auto d = dfa_from_json(spec);
    REQUIRE(d.ok());
    CHECK(to_json(*d) == spec);
    std::mt19937_64 rng(10);
    for (int it = 0; it < 200; ++it) {
        Dfa r = random_dfa(rng, 1 + rng() % 20, rng() % 4);
        auto back = dfa_from_json(to_json(r));
        REQUIRE(back.ok());
        CHECK(*back == r);
    }
    // Pretty-printed input is fine too.
    auto pretty = dfa_from_json("{\n  \"alphabet\": [\"x\"],\n  \"initial\": 0,\n  \"accepting\": [],\n  \"transitions\": [[0]]\n}\n");
    REQUIRE(pretty.ok());
    CHECK(pretty->num_states() == 1);
}

TEST_CASE("DFA JSON errors name the missing state and symbol, and JSON errors their line:column", "[dfa][io]") {
    auto partial = dfa_from_json(R"({"alphabet": ["a","b"], "initial": 0, "accepting": [1], "transitions": [[1,0],[1]]})");
    REQUIRE(!partial.ok());
    CHECK(partial.error().message.find("state 1 has no transition on symbol 'b'") != std::string::npos);
    auto null_entry = dfa_from_json(R"({"alphabet": ["a","b"], "initial": 0, "accepting": [], "transitions": [[null,0],[1,1]]})");
    REQUIRE(!null_entry.ok());
    CHECK(null_entry.error().message.find("state 0 has no transition on symbol 'a'") != std::string::npos);
    auto target = dfa_from_json(R"({"alphabet": ["a"], "initial": 0, "accepting": [], "transitions": [[3]]})");
    REQUIRE(!target.ok());
    CHECK(target.error().message.find("goes to 3") != std::string::npos);
    auto init = dfa_from_json(R"({"alphabet": ["a"], "initial": 2, "accepting": [], "transitions": [[0]]})");
    REQUIRE(!init.ok());
    CHECK(init.error().message.find("initial state 2") != std::string::npos);
    auto missing = dfa_from_json(R"({"alphabet": ["a"], "accepting": [], "transitions": [[0]]})");
    REQUIRE(!missing.ok());
    CHECK(missing.error().message.find("\"initial\"") != std::string::npos);
    auto dup = dfa_from_json(R"({"alphabet": ["a","a"], "initial": 0, "accepting": [], "transitions": [[0,0]]})");
    REQUIRE(!dup.ok());
    auto malformed = dfa_from_json("{\"alphabet\": [\"a\"],\n  \"initial\": 0,,\n}");
    REQUIRE(!malformed.ok());
    CHECK(malformed.error().line == 2);
    CHECK(malformed.error().column == 16);  // the second comma
    CHECK(malformed.error().message.find("malformed JSON") != std::string::npos);
    CHECK(malformed.error().source_line == "  \"initial\": 0,,");
    // Fuzz regression: a number too large for a double threw json's out_of_range out of the reader.
    auto overflow = dfa_from_json(R"({"initial": 1E99999, "alphabet": ["a"], "accepting": [], "transitions": [[0]]})");
    REQUIRE(!overflow.ok());
    CHECK(overflow.error().message.find("malformed JSON") != std::string::npos);
}

TEST_CASE("DOT output: initial arrow, double circles, grey or hidden sink", "[dfa][io]") {
    auto d = dfa_from_json(R"({"alphabet": ["a","b"], "initial": 0, "accepting": [1], "transitions": [[1,2],[1,1],[2,2]]})");
    REQUIRE(d.ok());
    CHECK(find_rejecting_sink(*d) == 2);
    const std::string dot = to_dot(*d);
    CHECK(dot.find("__start -> 0") != std::string::npos);
    CHECK(dot.find("1 [shape=doublecircle]") != std::string::npos);
    CHECK(dot.find("2 [shape=circle, color=grey") != std::string::npos);
    CHECK(dot.find("1 -> 1 [label=\"a,b\"]") != std::string::npos);
    const std::string hidden = to_dot(*d, {true});
    CHECK(hidden.find("-> 2") == std::string::npos);
    CHECK(hidden.find("  2 [") == std::string::npos);
}

TEST_CASE("files: atomic writes, readable errors, DFA files with an alphabet", "[dfa][io]") {
    const auto dir = std::filesystem::temp_directory_path() / ("ltlkit-test-dfa-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const std::string path = (dir / "d.json").string();
    REQUIRE(write_file_atomic(path, R"({"alphabet": ["b","a"], "initial": 0, "accepting": [1], "transitions": [[0,1],[0,1]]})").ok());
    REQUIRE(*read_file(path) == R"({"alphabet": ["b","a"], "initial": 0, "accepting": [1], "transitions": [[0,1],[0,1]]})");
    auto missing = read_file((dir / "nope.json").string());
    REQUIRE(!missing.ok());
    CHECK(missing.error().message.find("nope.json") != std::string::npos);
    LanguageSpec spec;
    spec.kind = InputKind::DfaFile;
    spec.text = path;
    spec.alphabet = {"a", "b", "c"};
    auto lang = load_language(spec);
    REQUIRE(lang.ok());
    CHECK(lang->dfa.alphabet == std::vector<std::string>{"a", "b", "c"});
    CHECK(lang->dfa.num_states() == 3);  // Σ*a plus the sink for c
    CHECK(is_minimal(lang->dfa));
    CHECK(!lang->fragment);
    std::filesystem::remove_all(dir);
}

TEST_CASE("suites: fields, comments, and errors with line numbers", "[dfa][io]") {
    const auto dir = std::filesystem::temp_directory_path() / ("ltlkit-test-suite-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const std::string path = (dir / "s.suite").string();
    {
        std::ofstream out(path);
        out << "# a comment\n\nlast_a\ta,b\tformula\tY a\nabab\ta,b\tregex\t(ab)*\nfile\t\tdfa\td.json\n";
    }
    auto suite = read_suite(path);
    REQUIRE(suite.ok());
    REQUIRE(suite->size() == 3);
    CHECK((*suite)[0].name == "last_a");
    CHECK((*suite)[0].alphabet == std::vector<std::string>{"a", "b"});
    CHECK((*suite)[0].kind == InputKind::Formula);
    CHECK((*suite)[1].kind == InputKind::Regex);
    CHECK((*suite)[2].alphabet.empty());  // a DFA file carries its alphabet
    CHECK((*suite)[2].kind == InputKind::DfaFile);
    CHECK((*suite)[2].base_dir == dir.string());
    {
        std::ofstream out(path);
        out << "ok\ta\tformula\tY a\n\nbad\ta,b\tformula\n";
    }
    auto bad = read_suite(path);
    REQUIRE(!bad.ok());
    CHECK(bad.error().line == 3);
    CHECK(bad.error().origin == path);
    {
        std::ofstream out(path);
        out << "x\ta,,b\tformula\tY a\n";
    }
    auto bad_alpha = read_suite(path);
    REQUIRE(!bad_alpha.ok());
    CHECK(bad_alpha.error().line == 1);
    CHECK(bad_alpha.error().column == 3);
    for (const char* kind : {"formula", "regex"}) {  // only a dfa line may leave the alphabet empty
        {
            std::ofstream out(path);
            out << "ok\ta,b\tformula\tY a\nx\t\t" << kind << "\ta\n";
        }
        auto no_alpha = read_suite(path);
        REQUIRE(!no_alpha.ok());
        CHECK(no_alpha.error().line == 2);
        CHECK(no_alpha.error().column == 3);
        CHECK(no_alpha.error().message.find("no alphabet") != std::string::npos);
    }
    std::filesystem::remove_all(dir);
}

TEST_CASE("alphabets: commas, no empty or duplicate symbols", "[dfa][io]") {
    CHECK(parse_alphabet("")->empty());
    CHECK(*parse_alphabet("a,b,c") == std::vector<std::string>{"a", "b", "c"});
    CHECK(*parse_alphabet(" b0 , a ") == std::vector<std::string>{"b0", "a"});
    CHECK(!parse_alphabet("a,,b").ok());
    CHECK(!parse_alphabet("a,b,a").ok());
}

TEST_CASE("a formula symbol outside the alphabet is reported at its line:column", "[dfa][io]") {
    LanguageSpec spec;
    spec.text = "P(a &\n  Y c)";
    spec.alphabet = {"a", "b"};
    auto lang = load_language(spec);
    REQUIRE(!lang.ok());
    CHECK(lang.error().line == 2);
    CHECK(lang.error().column == 5);
    CHECK(lang.error().message.find("'c'") != std::string::npos);
    spec.text = "P(a & Y b)";
    auto good = load_language(spec);
    REQUIRE(good.ok());
    CHECK(*good->fragment == "LTL[P,Y]");
    CHECK(good->dfa.num_states() == 3);
}
