// The past-time monitor construction (automata/monitor.hh) against the direct semantics
// (ltl/semantics.hh): two independent routes to the same language.
#include <catch2/catch.hpp>

#include <chrono>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "automata/algorithms.hh"
#include "automata/monitor.hh"
#include "automata/regex.hh"
#include "ltl/fragment.hh"
#include "ltl/parser.hh"
#include "ltl/printer.hh"
#include "ltl/semantics.hh"

using namespace ltlkit;
using automata::Dfa;
using ltl::Formula;
using ltl::FragmentKind;

namespace {

// A small random formula generator restricted to the operators of one fragment.
struct Generator {
    std::mt19937_64 rng;
    FragmentKind kind;
    unsigned k = 2;
    std::vector<std::string> letters;

    std::size_t pick(std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng); }

    Formula leaf() {
        const std::size_t r = pick(letters.size() + 2);
        if (r < letters.size()) return Formula::atom(letters[r]);
        if (r == letters.size() && pick(3) == 0) return Formula::tt();
        return Formula::atom(letters[pick(letters.size())]);
    }
    Formula temporal(Formula a, Formula b) {
        std::vector<int> ops;  // 0 P, 1 H, 2 Y, 3 Y<=k, 4 S
        switch (kind) {
            case FragmentKind::P: ops = {0, 1}; break;
            case FragmentKind::Y: ops = {2}; break;
            case FragmentKind::YLeqK: ops = {3}; break;
            case FragmentKind::PY: ops = {0, 1, 2, 0, 2}; break;
            case FragmentKind::PYLeqK: ops = {0, 1, 3, 0, 3}; break;
            case FragmentKind::S: ops = {0, 1, 2, 3, 4, 4, 4}; break;
            case FragmentKind::None: ops = {}; break;
        }
        switch (ops[pick(ops.size())]) {
            case 0: return Formula::past(a);
            case 1: return Formula::historically(a);
            case 2: return Formula::yesterday(a);
            case 3: return Formula::bounded_yesterday(a, k);
            default: return Formula::since(a, b);
        }
    }
    Formula gen(int size) {
        if (size <= 1) return leaf();
        const std::size_t r = pick(10);
        if (r < 4) return temporal(gen(size - 1), gen(size / 2));
        if (r < 5) return Formula::neg(gen(size - 1));
        Formula a = gen(size / 2), b = gen(size - size / 2);
        switch (pick(4)) {
            case 0: return Formula::conj(a, b);
            case 1: return Formula::disj(a, b);
            case 2: return Formula::implies(a, b);
            default: return Formula::iff(a, b);
        }
    }
    // A random formula whose syntactic fragment is exactly `kind`.
    Formula formula() {
        for (;;) {
            if (kind == FragmentKind::YLeqK || kind == FragmentKind::PYLeqK) k = 2 + static_cast<unsigned>(pick(3));
            Formula f = gen(2 + static_cast<int>(pick(10)));
            if (ltl::fragment_of(f).kind == kind) return f;
        }
    }
};

// Every word over `letters` of length ≤ max_len, by DFS, checking dfa against holds_at_eos.
// Returns the number of words checked; on the first disagreement fills `bad`.
std::size_t check_all_words(Formula f, const Dfa& d, std::size_t max_len, std::string& bad) {
    std::vector<std::string> word;
    std::size_t checked = 0;
    std::function<bool(automata::State)> dfs = [&](automata::State q) {
        ++checked;
        if (d.is_accepting(q) != ltl::holds_at_eos(f, word)) {
            bad = "'";
            for (const auto& s : word) bad += s + " ";
            bad += "'";
            return false;
        }
        if (word.size() == max_len) return true;
        for (std::size_t a = 0; a < d.num_symbols(); ++a) {
            word.push_back(d.alphabet[a]);
            const bool ok = dfs(d.next(q, static_cast<automata::Symbol>(a)));
            word.pop_back();
            if (!ok) return false;
        }
        return true;
    };
    dfs(d.initial);
    return checked;
}

Dfa compile_text(const std::string& text, std::vector<std::string> alphabet = {}) {
    auto f = ltl::parse_formula(text);
    REQUIRE(f.ok());
    auto al = automata::formula_alphabet(*f, alphabet);
    REQUIRE(al.ok());
    auto d = automata::compile(*f, *al);
    REQUIRE(d.ok());
    return *d;
}

// The DFA's language on all words up to max_len equals `pred` (words as symbol strings).
void require_language(const Dfa& d, const std::function<bool(const std::string&)>& pred,
                      std::size_t max_len = 7) {
    std::string w;
    std::function<void(automata::State)> dfs = [&](automata::State q) {
        INFO("word '" << w << "'");
        REQUIRE(d.is_accepting(q) == pred(w));
        if (w.size() == max_len) return;
        for (std::size_t a = 0; a < d.num_symbols(); ++a) {
            w += d.alphabet[a];
            dfs(d.next(q, static_cast<automata::Symbol>(a)));
            w.pop_back();
        }
    };
    dfs(d.initial);
}

void fragment_agreement(FragmentKind kind, std::uint64_t seed) {
    Generator g{std::mt19937_64(seed), kind, 2, {}};
    const std::vector<std::string> two{"a", "b"}, three{"a", "b", "c"};
    std::size_t words = 0;
    for (int i = 0; i < 1000; ++i) {
        // One formula in ten over three letters (9,841 words up to length 8), the rest over two.
        g.letters = (i % 10 == 0) ? three : two;
        Formula f = g.formula();
        const bool minimize = i % 2 == 0;
        auto d = automata::compile(f, g.letters, {1'000'000, minimize});
        INFO("formula " << ltl::to_string(f) << (minimize ? " (minimized)" : " (not minimized)"));
        REQUIRE(d.ok());
        if (minimize) REQUIRE(automata::is_minimal(*d));
        std::string bad;
        words += check_all_words(f, *d, 8, bad);
        INFO("disagreement on " << bad);
        REQUIRE(bad.empty());
    }
    CHECK(words >= 1000 * 511);
}

}  // namespace

TEST_CASE("monitor DFA agrees with the semantics on all words up to length 8, LTL[P]", "[monitor]") {
    fragment_agreement(FragmentKind::P, 11);
}
TEST_CASE("monitor DFA agrees with the semantics on all words up to length 8, LTL[Y]", "[monitor]") {
    fragment_agreement(FragmentKind::Y, 12);
}
TEST_CASE("monitor DFA agrees with the semantics on all words up to length 8, LTL[Y<=k]", "[monitor]") {
    fragment_agreement(FragmentKind::YLeqK, 13);
}
TEST_CASE("monitor DFA agrees with the semantics on all words up to length 8, LTL[P,Y]", "[monitor]") {
    fragment_agreement(FragmentKind::PY, 14);
}
TEST_CASE("monitor DFA agrees with the semantics on all words up to length 8, LTL[P,Y<=k]", "[monitor]") {
    fragment_agreement(FragmentKind::PYLeqK, 15);
}
TEST_CASE("monitor DFA agrees with the semantics on all words up to length 8, LTL[S]", "[monitor]") {
    fragment_agreement(FragmentKind::S, 16);
}

TEST_CASE("every example of docs/SYNTAX.md §4 has the stated language", "[monitor]") {
    const std::vector<std::string> ab{"a", "b"};
    auto contains = [](const std::string& w, const std::string& sub) { return w.find(sub) != std::string::npos; };
    require_language(compile_text("Y a", ab), [](const std::string& w) { return !w.empty() && w.back() == 'a'; });
    require_language(compile_text("P(a & !P true)", ab), [](const std::string& w) { return !w.empty() && w[0] == 'a'; });
    require_language(compile_text("P(b & P a)", ab), [](const std::string& w) {
        auto i = w.find('a');
        return i != std::string::npos && w.find('b', i + 1) != std::string::npos;
    });
    require_language(compile_text("P(b & Y a)", ab), [&](const std::string& w) { return contains(w, "ab"); });
    require_language(compile_text("!P true", ab), [](const std::string& w) { return w.empty(); });
    require_language(compile_text("a", ab), [](const std::string&) { return false; });
    require_language(compile_text("!a", ab), [](const std::string&) { return true; });
    // The semantic table, one operator at a time (strictness: the current position never counts).
    require_language(compile_text("Y<=2 a", ab), [&](const std::string& w) {
        return contains(w.substr(w.size() >= 2 ? w.size() - 2 : 0), "a");
    });
    require_language(compile_text("H a", ab), [](const std::string& w) { return w.find('b') == std::string::npos; });
    require_language(compile_text("a S b", ab), [](const std::string& w) {
        auto j = w.rfind('b');
        return j != std::string::npos && w.find_first_not_of('a', j + 1) == std::string::npos;
    });
    // Minimal sizes of the examples (complete DFAs, with the rejecting sink where there is one).
    CHECK(compile_text("Y a", ab).num_states() == 2);
    CHECK(compile_text("P(a & !P true)", ab).num_states() == 3);
    CHECK(compile_text("P(b & P a)", ab).num_states() == 3);
    CHECK(compile_text("!P true", ab).num_states() == 2);
    CHECK(compile_text("a", ab).num_states() == 1);
}

TEST_CASE("Y<=1 is Y and H is !P!, state for state after minimization", "[monitor]") {
    const std::vector<std::string> ab{"a", "b"};
    CHECK(compile_text("Y<=1 (a & Y b)", ab) == compile_text("Y (a & Y b)", ab));
    CHECK(compile_text("H (a -> Y b)", ab) == compile_text("!P !(a -> Y b)", ab));
    CHECK(compile_text("P a", ab) == compile_text("true S a", ab));
}

TEST_CASE("Y<=k a has k+1 minimal states and distinguishes the window", "[monitor]") {
    for (unsigned k = 1; k <= 12; ++k) {
        Dfa d = compile_text("Y<=" + std::to_string(k) + " a", {"a", "b"});
        CHECK(d.num_states() == k + 1);
    }
}

TEST_CASE("formula alphabet: sorted atoms, explicit alphabets must cover them", "[monitor]") {
    auto f = ltl::parse_formula("P(c & Y a)");
    REQUIRE(f.ok());
    auto al = automata::formula_alphabet(*f, {});
    REQUIRE(al.ok());
    CHECK(*al == std::vector<std::string>{"a", "c"});
    auto given = automata::formula_alphabet(*f, {"c", "b", "a"});
    REQUIRE(given.ok());
    CHECK(*given == std::vector<std::string>{"c", "b", "a"});
    auto missing = automata::formula_alphabet(*f, {"a", "b"});
    REQUIRE(!missing.ok());
    CHECK(missing.error().message.find("'c'") != std::string::npos);
    auto none = automata::formula_alphabet(*ltl::parse_formula("P true"), {});
    REQUIRE(!none.ok());
    CHECK(none.error().message.find("--alphabet") != std::string::npos);
    // With an explicit alphabet order, the symbol order of the DFA follows it.
    Dfa d = compile_text("Y a", {"b", "a"});
    CHECK(d.alphabet == std::vector<std::string>{"b", "a"});
}

TEST_CASE("a monitor larger than max_states stops with a limit error naming --max-states", "[monitor]") {
    // Y-chains of depth 12 over two letters: 2^12 reachable windows.
    std::string text = "a";
    for (int i = 0; i < 12; ++i) text = "Y(" + text + " | b & Y b)";
    auto f = ltl::parse_formula(text);
    REQUIRE(f.ok());
    auto small = automata::compile(*f, {"a", "b"}, {100, true});
    REQUIRE(!small.ok());
    CHECK(small.error().exit_code == 3);
    CHECK(small.error().message.find("--max-states") != std::string::npos);
    auto big = automata::compile(*f, {"a", "b"}, {1'000'000, true});
    REQUIRE(big.ok());
}

TEST_CASE("the unminimized monitor is canonical, reachable and equivalent to the minimized one", "[monitor]") {
    Generator g{std::mt19937_64(99), FragmentKind::S, 2, {"a", "b", "c"}};
    for (int i = 0; i < 200; ++i) {
        Formula f = g.formula();
        auto raw = automata::compile(f, g.letters, {1'000'000, false});
        auto min = automata::compile(f, g.letters, {1'000'000, true});
        REQUIRE(raw.ok());
        REQUIRE(min.ok());
        CHECK(automata::canonical(*raw) == *raw);
        CHECK(automata::minimize(*raw) == *min);
        CHECK(!automata::distinguishing_word(*raw, *min));
    }
}

TEST_CASE("a monitor with 10^5 reachable states compiles and minimizes (the 17th-last symbol)", "[monitor]") {
    // Y^17 a: "the 17th symbol from the end is a", whose minimal DFA has 2^17 states
    // (the classic exponential case), so every reachable state of the monitor is needed.
    std::string text = "a";
    for (int i = 0; i < 17; ++i) text = "Y " + text;
    auto f = ltl::parse_formula(text);
    REQUIRE(f.ok());
    auto t0 = std::chrono::steady_clock::now();
    auto raw = automata::compile(*f, {"a", "b"}, {1'000'000, false});
    REQUIRE(raw.ok());
    auto d = automata::minimize(*raw);
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    WARN("Y^17 a: reachable " << raw->num_states() << ", minimal " << d.num_states() << ", " << s << " s");
    CHECK(raw->num_states() == (1u << 17));
    CHECK(d.num_states() == (1u << 17));
    // The same language with the window in one operator: P(a & Y<=... ) is not it, but
    // Y(Y(...)) and its reachable monitor must agree on random long words.
    std::mt19937 rng(5);
    for (int i = 0; i < 200; ++i) {
        std::vector<std::string> w;
        automata::Word aw;
        for (int j = 0, n = static_cast<int>(rng() % 40); j < n; ++j) {
            aw.push_back(rng() % 2);
            w.push_back(aw.back() ? "b" : "a");
        }
        CHECK(d.accepts(aw) == ltl::holds_at_eos(*f, w));
    }
}

namespace {

// A random chain of unary operators (P, H, Y, Y<=k) over a random base, sometimes conjoined with
// one of its own subchains so that chains share nodes and bases.
Formula random_chain(std::mt19937_64& rng, const std::vector<std::string>& letters) {
    auto pick = [&](std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng); };
    Formula base = Formula::atom(letters[pick(letters.size())]);
    if (pick(3) == 0) base = Formula::conj(base, Formula::yesterday(Formula::atom(letters[pick(letters.size())])));
    if (pick(4) == 0) base = Formula::neg(base);
    std::vector<Formula> links{base};
    Formula f = base;
    const std::size_t length = 1 + pick(7);
    const bool only_h = pick(4) == 0;
    for (std::size_t i = 0; i < length; ++i) {
        if (only_h) f = Formula::historically(f);
        else
            switch (pick(4)) {
                case 0: f = Formula::past(f); break;
                case 1: f = Formula::yesterday(f); break;
                case 2: f = Formula::bounded_yesterday(f, 2 + static_cast<unsigned>(pick(2))); break;
                default: f = Formula::past(f); break;
            }
        links.push_back(f);
    }
    switch (pick(4)) {
        case 0: return Formula::conj(f, Formula::neg(links[pick(links.size())]));
        case 1: return Formula::disj(f, links[pick(links.size())]);
        default: return f;
    }
}

std::string dots(std::size_t n, const char* one) {
    std::string s;
    for (std::size_t i = 0; i < n; ++i) s += one;
    return s;
}

}  // namespace

TEST_CASE("chains of unary operators share a counter per base and keep their semantics", "[monitor]") {
    std::mt19937_64 rng(2026);
    const std::vector<std::string> ab{"a", "b"}, abc{"a", "b", "c"};
    for (int i = 0; i < 400; ++i) {
        const auto& letters = i % 5 == 0 ? abc : ab;
        Formula f = random_chain(rng, letters);
        INFO("formula " << ltl::to_string(f));
        for (bool minimize : {true, false}) {
            auto d = automata::compile(f, letters, {1'000'000, minimize});
            REQUIRE(d.ok());
            std::string bad;
            check_all_words(f, *d, i % 5 == 0 ? 6 : 9, bad);
            INFO("disagreement on " << bad);
            REQUIRE(bad.empty());
        }
    }
}

TEST_CASE("deep chains P^n a and H^n a have the language of their regex and n+1 states", "[monitor]") {
    // P is strict: P^n a holds at EOS iff some a lies at least n positions before EOS, i.e. the
    // first a is followed by at least n-1 symbols; H^n a iff every symbol that far back is a, i.e.
    // the first b (if any) is followed by at most n-2 symbols. (Regexes with one reading of each
    // word, so that their derivative automata stay small.)
    const std::vector<std::string> ab{"a", "b"};
    for (std::size_t n : {1u, 2u, 5u, 64u, 300u}) {
        INFO("depth " << n);
        const Dfa p = compile_text(dots(n, "P ") + "a", ab);
        auto p_regex = automata::compile_regex("b*a" + dots(n - 1, ".") + ".*", ab);
        REQUIRE(p_regex.ok());
        CHECK(p == *p_regex);
        CHECK(p.num_states() == n + 1);
        if (n % 2 == 0) CHECK(compile_text(dots(n / 2, "P Y ") + "a", ab) == p);
        CHECK(compile_text(dots(n - 1, "Y ") + "P a", ab) == p);
        const Dfa h = compile_text(dots(n, "H ") + "a", ab);
        auto h_regex = automata::compile_regex(n == 1 ? std::string("a*") : "a*(b" + dots(n - 2, ".?") + ")?", ab);
        REQUIRE(h_regex.ok());
        CHECK(h == *h_regex);
        // The reachable monitor is the minimal DFA: one counter, no state per subformula.
        auto raw = automata::compile(*ltl::parse_formula(dots(n, "P ") + "a"), ab, {1'000'000, false});
        REQUIRE(raw.ok());
        CHECK(raw->num_states() == n + 1);
    }
}
