// Extended regular expressions: the derivative DFA against the backtracking reference matcher,
// and against direct descriptions of a few languages.
#include <catch2/catch.hpp>

#include <functional>
#include <random>
#include <regex>
#include <string>

#include "automata/algorithms.hh"
#include "automata/regex.hh"

using namespace ltlkit;
using namespace ltlkit::automata;

namespace {

std::vector<Word> all_words(std::size_t sigma, std::size_t max_len) {
    std::vector<Word> out = {{}};
    std::size_t begin = 0;
    for (std::size_t len = 1; len <= max_len; ++len) {
        std::size_t end = out.size();
        for (std::size_t i = begin; i < end; ++i)
            for (Symbol s = 0; s < sigma; ++s) {
                Word w = out[i];
                w.push_back(s);
                out.push_back(std::move(w));
            }
        begin = end;
    }
    return out;
}

Dfa compile_ok(const std::string& re, const std::vector<std::string>& alphabet = {}) {
    auto r = compile_regex(re, alphabet);
    INFO("regex: " << re);
    if (!r.ok()) FAIL("error: " << r.error().render());
    return r.value();
}

std::string random_regex(std::mt19937_64& rng, const std::vector<std::string>& symbols, int depth) {
    auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
    if (depth <= 0 || pick(6) == 0) {
        int r = pick(static_cast<int>(symbols.size()) * 4 + 4);
        if (r < static_cast<int>(symbols.size()) * 4) return symbols[static_cast<std::size_t>(r) % symbols.size()];
        const char* specials[] = {".", "ε", "()", "∅"};
        return specials[r - static_cast<int>(symbols.size()) * 4];
    }
    auto sub = [&] { return random_regex(rng, symbols, depth - 1); };
    switch (pick(9)) {
        case 0: case 1: { auto a = sub(); return "(" + a + " " + sub() + ")"; }
        case 2: case 3: { auto a = sub(); return "(" + a + "|" + sub() + ")"; }
        case 4: { auto a = sub(); return "(" + a + "&" + sub() + ")"; }
        case 5: return "!(" + sub() + ")";
        case 6: return "(" + sub() + ")*";
        case 7: return "(" + sub() + ")+";
        default: return "(" + sub() + ")?";
    }
}

}  // namespace

TEST_CASE("regex DFA agrees with the backtracking matcher on random regexes, all words up to length 6",
          "[regex]") {
    std::mt19937_64 rng(424242);
    const std::vector<std::string> alphabet = {"a", "b"};
    const auto words = all_words(2, 6);
    int nontrivial = 0;  // the random regexes must not all define trivial languages
    for (int i = 0; i < 250; ++i) {
        std::string re = random_regex(rng, alphabet, 1 + i % 5);
        INFO("regex: " << re);
        Dfa d = compile_ok(re, alphabet);
        REQUIRE(d.alphabet == alphabet);
        REQUIRE(is_minimal(d));
        nontrivial += d.num_states() >= 4;
        for (const Word& w : words) {
            auto ref = regex_matches_reference(re, alphabet, w);
            REQUIRE(ref.ok());
            INFO("word: " << format_word(alphabet, w));
            REQUIRE(d.accepts(w) == ref.value());
        }
    }
    INFO("regexes with >= 4 states: " << nontrivial);
    CHECK(nontrivial >= 30);
}

TEST_CASE("regex DFA agrees with the matcher over three symbols, with a multi-character alphabet",
          "[regex]") {
    std::mt19937_64 rng(99);
    const std::vector<std::string> alphabet = {"x1", "x", "yz"};
    const auto words = all_words(3, 4);
    for (int i = 0; i < 100; ++i) {
        std::string re = random_regex(rng, alphabet, 1 + i % 4);
        INFO("regex: " << re);
        Dfa d = compile_ok(re, alphabet);
        for (const Word& w : words) {
            auto ref = regex_matches_reference(re, alphabet, w);
            REQUIRE(ref.ok());
            REQUIRE(d.accepts(w) == ref.value());
        }
    }
}

TEST_CASE("& is intersection and ! is complement", "[regex]") {
    const std::vector<std::string> ab = {"a", "b"};
    auto count = [](const Word& w, Symbol s) { return std::count(w.begin(), w.end(), s); };
    const std::vector<std::pair<std::string, std::function<bool(const Word&)>>> cases = {
        {"!(a*)", [&](const Word& w) { return count(w, 1) > 0; }},
        {"!(.*b.*) ", [&](const Word& w) { return count(w, 1) == 0; }},
        {".*a.* & .*b.*", [&](const Word& w) { return count(w, 0) > 0 && count(w, 1) > 0; }},
        {"!(.*a.*) | !(.*b.*)", [&](const Word& w) { return count(w, 0) == 0 || count(w, 1) == 0; }},
        {"((a|b)(a|b))* & !(.*bb.*)", [&](const Word& w) {
             for (std::size_t i = 0; i + 1 < w.size(); ++i)
                 if (w[i] == 1 && w[i + 1] == 1) return false;
             return w.size() % 2 == 0;
         }},
        {"!ε", [](const Word& w) { return !w.empty(); }},
        {"!a b", [](const Word& w) { return !w.empty() && w.back() == 1 && !(w.size() == 2 && w[0] == 0); }},
        {"!!a", [](const Word& w) { return w == Word{0}; }},
        {"a* & b*", [](const Word& w) { return w.empty(); }},
    };
    for (const auto& [re, member] : cases) {
        Dfa d = compile_ok(re, ab);
        for (const Word& w : all_words(2, 6)) {
            INFO(re << " on " << format_word(ab, w));
            REQUIRE(d.accepts(w) == member(w));
        }
    }
}

TEST_CASE("ε and () are the empty word, ∅ the empty language", "[regex]") {
    const std::vector<std::string> ab = {"a", "b"};
    for (const char* eps : {"ε", "()", "( )", "ε*", "∅*", "()()"}) {
        Dfa d = compile_ok(eps, ab);
        INFO(eps);
        CHECK(count_accepted(d, 4) == std::vector<std::uint64_t>{1, 0, 0, 0, 0});
        CHECK(d.num_states() == 2);
    }
    for (const char* empty : {"∅", "a∅", "∅|∅", "a & b", "∅+"}) {
        Dfa d = compile_ok(empty, ab);
        INFO(empty);
        CHECK(count_accepted(d, 4) == std::vector<std::uint64_t>{0, 0, 0, 0, 0});
        CHECK(d.num_states() == 1);
    }
    CHECK(count_accepted(compile_ok("!∅", ab), 3) == std::vector<std::uint64_t>{1, 2, 4, 8});
    CHECK(count_accepted(compile_ok("a?b+", ab), 3) == std::vector<std::uint64_t>{0, 1, 2, 2});
}

TEST_CASE("symbols: longest match of alphabet symbols, spaces allowed, letters without an alphabet",
          "[regex]") {
    const std::vector<std::string> sigma = {"a", "ab", "b"};
    Dfa one = compile_ok("ab", sigma);
    CHECK(one.accepts({1}));
    CHECK_FALSE(one.accepts({0, 2}));
    Dfa two = compile_ok("a b", sigma);
    CHECK(two.accepts({0, 2}));
    CHECK_FALSE(two.accepts({1}));
    Dfa named = compile_ok("open_paren (x | close_paren)* close_paren", {"open_paren", "close_paren", "x"});
    CHECK(named.alphabet == std::vector<std::string>{"open_paren", "close_paren", "x"});
    CHECK(named.accepts({0, 2, 1, 1}));
    CHECK_FALSE(named.accepts({0, 2}));
    // without an alphabet: every lowercase letter is a symbol, alphabet = sorted letters used
    Dfa letters = compile_ok("c (b | a)* c");
    CHECK(letters.alphabet == std::vector<std::string>{"a", "b", "c"});
    CHECK(letters.accepts({2, 0, 1, 2}));
    CHECK(compile_ok("ab").alphabet == std::vector<std::string>{"a", "b"});
    CHECK(compile_ok("ab").accepts({0, 1}));
    CHECK(compile_ok("a.").accepts({0, 0}));
    // the given order of the alphabet is kept
    CHECK(compile_ok("a", {"b", "a"}).alphabet == std::vector<std::string>{"b", "a"});
}

TEST_CASE("the result is minimal: (a|b)*a(a|b)^n has 2^(n+1) states", "[regex]") {
    std::string re = "(a|b)*a";
    for (int n = 0; n <= 8; ++n) {
        Dfa d = compile_ok(re, {"a", "b"});
        CHECK(d.num_states() == (std::size_t{1} << (n + 1)));
        CHECK(is_minimal(d));
        re += "(a|b)";
    }
}

TEST_CASE("regex errors carry line:column and say what was expected", "[regex]") {
    struct Case {
        std::string re;
        std::vector<std::string> alphabet;
        int line, column;
        std::string needle;
    };
    const std::vector<Case> cases = {
        {"", {}, 0, 0, "expected a regular expression"},
        {"a|", {}, 1, 3, "expected a symbol"},
        {"(a b", {}, 1, 5, "expected ')'"},
        {"a b)", {}, 1, 4, "')'"},
        {"a*|*", {}, 1, 4, "found '*'"},
        {"aB", {}, 1, 2, "--alphabet"},
        {"ε ∅ Z", {}, 1, 5, "'Z'"},
        {"a c", {"a", "b"}, 1, 3, "alphabet"},
        {"a\n|  x", {"a"}, 2, 4, "alphabet"},
    };
    for (const auto& c : cases) {
        INFO("regex: " << c.re);
        auto r = compile_regex(c.re, c.alphabet);
        REQUIRE_FALSE(r.ok());
        INFO("error: " << r.error().render());
        if (c.line) {
            CHECK(r.error().line == c.line);
            CHECK(r.error().column == c.column);
        }
        CHECK(r.error().message.find(c.needle) != std::string::npos);
        CHECK(r.error().exit_code == 2);
    }
    for (const char* no_symbol : {"ε", "()*", "∅", "."}) {
        auto r = compile_regex(no_symbol, {});
        REQUIRE_FALSE(r.ok());
        CHECK(r.error().message.find("--alphabet") != std::string::npos);
    }
    CHECK_FALSE(compile_regex("a", {"a", "a"}).ok());
}

TEST_CASE("regex construction respects --max-states", "[regex]") {
    std::string re = "(a|b)*a";
    for (int i = 0; i < 12; ++i) re += "(a|b)";
    auto r = compile_regex(re, {"a", "b"}, 100);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().exit_code == 3);
    CHECK(r.error().message.find("--max-states") != std::string::npos);
    CHECK(compile_regex(re, {"a", "b"}, 1'000'000).ok());
}

TEST_CASE("long regexes: chains of concatenation and | do not nest", "[regex]") {
    std::string word, alts;
    for (int i = 0; i < 20000; ++i) word += (i % 3 ? "a" : "b ");
    Dfa d = compile_ok(word, {"a", "b"});
    CHECK(d.num_states() == 20002);  // a single word of length n: n+1 states and a sink
    for (int i = 0; i < 3000; ++i) {
        if (i) alts += '|';
        alts += i % 2 ? "ab" : "bb";
    }
    Dfa e = compile_ok(alts, {"a", "b"});
    CHECK(count_accepted(e, 3) == std::vector<std::uint64_t>{0, 0, 2, 0});
}

TEST_CASE("deeply nested regexes are an error, not a crash", "[regex]") {
    auto r = compile_regex(std::string(100000, '(') + "a" + std::string(100000, ')'), {});
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().message.find("nested too deeply") != std::string::npos);
    REQUIRE_FALSE(compile_regex(std::string(100000, '!') + "a", {}).ok());
    CHECK(compile_regex(std::string(400, '(') + "a" + std::string(400, ')') + "b", {}).ok());
}

TEST_CASE("long chains of postfix operators and of nullable terms do not recurse deeply", "[regex]") {
    // These overflowed the stack (segfault of `ltlkit compile --regex`): a node per postfix operator
    // and a concatenation re-associated by recursion. (The derivative along a long a*a*a*... was
    // recursive too; a deep case is not tested here because its union of suffixes is quadratic.)
    Dfa star = compile_ok("a" + std::string(100000, '*') + "b", {"a", "b"});
    CHECK(count_accepted(star, 3) == std::vector<std::uint64_t>{0, 1, 1, 1});  // a*b
    CHECK(compile_ok("(a+)?b", {"a", "b"}) == compile_ok("a*b", {"a", "b"}));
    CHECK(compile_ok("(a?)+b", {"a", "b"}) == compile_ok("a*b", {"a", "b"}));
    CHECK(compile_ok("a+++b", {"a", "b"}) == compile_ok("aa*b", {"a", "b"}));
    CHECK(compile_ok("a???b", {"a", "b"}) == compile_ok("(a|())b", {"a", "b"}));
    std::string chain;
    for (int i = 0; i < 2000; ++i) chain += "a*";
    CHECK(compile_ok(chain + "b", {"a", "b"}) == compile_ok("a*b", {"a", "b"}));
    Dfa loop = compile_ok("(" + std::string(50000, 'a') + ")*", {"a"});  // concat(suffix, loop)
    CHECK(loop.num_states() == 50000);
}

TEST_CASE("three routes agree: derivative DFA, compositional DFA, backtracking, on random regexes and words", "[regex]") {
    std::mt19937_64 rng(16016);
    const std::vector<std::string> alphabet = {"a", "b", "c"};
    const auto words = all_words(3, 4);
    for (int i = 0; i < 150; ++i) {
        std::string re = random_regex(rng, alphabet, 1 + i % 4);
        INFO("regex: " << re);
        Dfa d = compile_ok(re, alphabet);
        auto c = compile_regex_compositionally(re, alphabet);
        REQUIRE(c.ok());
        CHECK(!distinguishing_word(d, *c));
        for (const Word& w : words) {
            auto back = regex_matches_backtracking(re, alphabet, w);
            REQUIRE(back.ok());
            REQUIRE(c->accepts(w) == back.value());
        }
    }
}

TEST_CASE("the reference matcher is linear in the word: .*a.*a.*a.*a.*b on 2,001 letters", "[regex]") {
    const std::vector<std::string> ab = {"a", "b"};
    Word w(2001, 0);
    w.back() = 1;
    auto r = regex_matches_reference(".*a.*a.*a.*a.*b", ab, w);
    REQUIRE(r.ok());
    CHECK(*r);
    w.back() = 0;
    CHECK(!*regex_matches_reference(".*a.*a.*a.*a.*b", ab, w));
    // Long random words against the derivative DFA.
    std::mt19937_64 rng(5);
    Dfa d = compile_ok("(a|b)*ab(a|b)*&!(.*bbb.*)", ab);
    for (int i = 0; i < 20; ++i) {
        Word u(5000);
        for (auto& s : u) s = Symbol(rng() % 2);
        CHECK(*regex_matches_reference("(a|b)*ab(a|b)*&!(.*bbb.*)", ab, u) == d.accepts(u));
    }
}

namespace {

// A random regex in the syntax ltlkit and ECMAScript share (docs/SYNTAX.md "Regexes"): symbols,
// '.', classes [..] and [^..], concatenation, |, and the quantifiers *, +, ?, {n}, {m,n}, {m,},
// each on a symbol, a class or a parenthesized group (ECMAScript reads r{n}? and r*? as lazy
// quantifiers and refuses r**, so a quantifier never follows another).
std::string shared_regex(std::mt19937_64& rng, const std::vector<std::string>& symbols, int depth) {
    auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
    auto atom = [&]() -> std::string {
        switch (pick(6)) {
            case 0: return ".";
            case 1: case 2: {  // a class of one to all symbols, maybe negated
                std::string c = pick(3) == 0 ? "[^" : "[";
                bool any = false;
                for (const auto& s : symbols)
                    if (pick(2) == 0) c += s, any = true;
                if (!any) c += symbols[static_cast<std::size_t>(pick(static_cast<int>(symbols.size())))];
                return c + "]";
            }
            default: return symbols[static_cast<std::size_t>(pick(static_cast<int>(symbols.size())))];
        }
    };
    auto quantified = [&](std::string a) -> std::string {
        switch (pick(10)) {
            case 0: return a + "*";
            case 1: return a + "+";
            case 2: return a + "?";
            case 3: return a + "{" + std::to_string(pick(4)) + "}";
            case 4: { const int m = pick(3); return a + "{" + std::to_string(m) + "," + std::to_string(m + pick(3)) + "}"; }
            case 5: return a + "{" + std::to_string(pick(3)) + ",}";
            default: return a;
        }
    };
    if (depth <= 0 || pick(5) == 0) return quantified(atom());
    auto sub = [&] { return shared_regex(rng, symbols, depth - 1); };
    switch (pick(3)) {
        case 0: { auto a = sub(); return a + sub(); }
        case 1: { auto a = sub(); return "(" + a + "|" + sub() + ")"; }
        default: return quantified("(" + sub() + ")");
    }
}

std::string spelled(const Word& w, const std::vector<std::string>& alphabet) {
    std::string s;
    for (Symbol x : w) s += alphabet[x];
    return s;
}

}  // namespace

TEST_CASE("classes and counts: the DFA against std::regex (ECMAScript, anchored) on every word up to length 7",
          "[regex]") {
    // Two independent routes: our parser and derivative DFA, and the standard library's
    // backtracking ECMAScript engine with std::regex_match (the whole word must match).
    std::mt19937_64 rng(4242);
    const std::vector<std::string> alphabet = {"a", "b", "c"};
    const auto words = all_words(3, 7);
    int nontrivial = 0;
    for (int i = 0; i < 120; ++i) {
        const std::string re = shared_regex(rng, alphabet, 1 + i % 4);
        INFO("regex: " << re);
        const Dfa d = compile_ok(re, alphabet);
        const std::regex ecma(re, std::regex::ECMAScript);
        std::size_t accepted = 0;
        for (const Word& w : words) {
            const std::string text = spelled(w, alphabet);
            INFO("word: '" << text << "'");
            const bool ours = d.accepts(w);
            REQUIRE(ours == std::regex_match(text, ecma));
            accepted += ours;
        }
        nontrivial += accepted > 0 && accepted < words.size();
    }
    CHECK(nontrivial > 60);  // the random regexes are not all trivial languages
}

TEST_CASE("classes and counts: the compositional route agrees, and the counts unfold as written", "[regex]") {
    const std::vector<std::string> ab = {"a", "b"};
    auto same = [&](const std::string& x, const std::string& y, const std::vector<std::string>& alphabet) {
        INFO(x << " vs " << y);
        CHECK(!distinguishing_word(compile_ok(x, alphabet), compile_ok(y, alphabet)));
        auto c = compile_regex_compositionally(x, alphabet);
        REQUIRE(c.ok());
        CHECK(!distinguishing_word(*c, compile_ok(y, alphabet)));
    };
    same("[ab]", "a|b", ab);
    same("[^a]", "b", ab);
    same("[^a]", "b|c", {"a", "b", "c"});
    same("[^ab]", "∅", ab);
    same("[ba a]", "a|b", ab);  // order, repetition and spaces do not matter
    same("a{3}", "aaa", ab);
    same("a{0}", "ε", ab);
    same("a{2,4}", "aa|aaa|aaaa", ab);
    same("a{2,}", "aaa*", ab);
    same("(ab){1,2}b", "abb|ababb", ab);
    same("a{2}*", "(aa)*", ab);     // a quantifier after a count applies to the counted whole
    same("a{1,2}?", "ε|a|aa", ab);  // optional, not ECMAScript's lazy quantifier
    same("[ab]{2}", "..", ab);
    same("[xy]z", "xz|yz", {"x", "y", "z"});
    // multi-character symbols inside a class: longest match, as outside
    same("[ab a]{2}", "(ab|a)(ab|a)", {"a", "ab"});
    // without an alphabet: the letters used, classes included
    Dfa letters = compile_ok("[bc]a");
    CHECK(letters.alphabet == std::vector<std::string>{"a", "b", "c"});
}

TEST_CASE("malformed classes and counts: one-line errors with the position", "[regex]") {
    struct Case {
        std::string re;
        std::vector<std::string> alphabet;
        int line, column;
        std::string needle;
    };
    const std::vector<Case> cases = {
        {"[ab", {}, 1, 4, "expected ']' to close the class '[' at 1:1"},
        {"[]", {}, 1, 2, "lists no symbol"},
        {"a[^b]", {}, 1, 3, "--alphabet"},
        {"[a-c]", {}, 1, 3, "ranges"},
        {"[aB]", {}, 1, 3, "'B'"},
        {"[ax]", {"a", "b"}, 1, 3, "'x'"},
        {"a]", {}, 1, 2, "unbalanced ']'"},
        {"a}", {}, 1, 2, "unbalanced '}'"},
        {"{2}", {}, 1, 1, "needs something before it"},
        {"a|{2}", {}, 1, 3, "needs something before it"},
        {"a{", {}, 1, 3, "expected a count after '{'"},
        {"a{x}", {}, 1, 3, "found 'x'"},
        {"a{,3}", {}, 1, 3, "expected a count"},
        {"a{2", {}, 1, 4, "expected '}' to close the count '{' at 1:2"},
        {"a{2,3,4}", {}, 1, 6, "expected '}'"},
        {"a{3,2}", {}, 1, 6, "minimum above its maximum"},
        {"a{1001}", {}, 1, 7, "over 1000"},
        {"(a{1000}){1000}", {}, 1, 15, "nodes once expanded"},
        {"b\n  a{2,1}", {}, 2, 8, "at 2:4"},
    };
    for (const auto& c : cases) {
        INFO("regex: " << c.re);
        auto r = compile_regex(c.re, c.alphabet);
        REQUIRE_FALSE(r.ok());
        const std::string text = r.error().render();
        INFO("error: " << text);
        CHECK(r.error().line == c.line);
        CHECK(r.error().column == c.column);
        CHECK(r.error().message.find(c.needle) != std::string::npos);
        CHECK(r.error().message.find('\n') == std::string::npos);
        CHECK(r.error().exit_code == 2);
    }
}
