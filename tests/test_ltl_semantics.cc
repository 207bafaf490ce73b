// The direct semantics of docs/SYNTAX.md §3 against descriptions of the languages, and against a literal
// quantifier-by-quantifier evaluator written here from the table (a second, independent route).
#include <catch2/catch.hpp>

#include <functional>
#include <random>
#include <string>
#include <vector>

#include "ltl/formula.hh"
#include "ltl/parser.hh"
#include "ltl/printer.hh"
#include "ltl/semantics.hh"
#include "support/random_formula.hh"

using namespace ltlkit;
using namespace ltlkit::ltl;
using Word = std::vector<std::string>;

namespace {

Formula parse_ok(const std::string& text) {
    auto r = parse_formula(text);
    if (!r.ok()) FAIL("parse error in '" << text << "': " << r.error().render());
    return r.value();
}

// All words over `sigma` of length 0..max_len.
std::vector<Word> all_words(const std::vector<std::string>& sigma, std::size_t max_len) {
    std::vector<Word> out = {{}};
    std::size_t begin = 0;
    for (std::size_t len = 1; len <= max_len; ++len) {
        std::size_t end = out.size();
        for (std::size_t i = begin; i < end; ++i)
            for (const auto& s : sigma) {
                Word w = out[i];
                w.push_back(s);
                out.push_back(std::move(w));
            }
        begin = end;
    }
    return out;
}

std::string join(const Word& w) {
    std::string s;
    for (const auto& x : w) s += (s.empty() ? "" : " ") + x;
    return s;
}

// docs/SYNTAX.md §3 read literally: position i in 1..n+1, quantifiers over j as written.
bool literal(Formula f, const Word& w, std::size_t i) {
    const std::size_t n = w.size();
    switch (f.op()) {
        case Op::True: return true;
        case Op::False: return false;
        case Op::Atom: return i <= n && w[i - 1] == f.name();
        case Op::Not: return !literal(f.child(0), w, i);
        case Op::And: return literal(f.child(0), w, i) && literal(f.child(1), w, i);
        case Op::Or: return literal(f.child(0), w, i) || literal(f.child(1), w, i);
        case Op::Implies: return !literal(f.child(0), w, i) || literal(f.child(1), w, i);
        case Op::Iff: return literal(f.child(0), w, i) == literal(f.child(1), w, i);
        case Op::Past:
            for (std::size_t j = 1; j < i; ++j)
                if (literal(f.child(0), w, j)) return true;
            return false;
        case Op::Historically:
            for (std::size_t j = 1; j < i; ++j)
                if (!literal(f.child(0), w, j)) return false;
            return true;
        case Op::Yesterday: return i > 1 && literal(f.child(0), w, i - 1);
        case Op::BoundedYesterday: {
            std::size_t lo = i > f.k() ? i - f.k() : 1;
            for (std::size_t j = lo; j < i; ++j)
                if (literal(f.child(0), w, j)) return true;
            return false;
        }
        case Op::Since:
            for (std::size_t j = 1; j < i; ++j) {
                if (!literal(f.child(1), w, j)) continue;
                bool all = true;
                for (std::size_t l = j + 1; l < i && all; ++l) all = literal(f.child(0), w, l);
                if (all) return true;
            }
            return false;
    }
    return false;
}

bool contains_factor(const Word& w, const Word& u) {
    if (u.size() > w.size()) return false;
    for (std::size_t i = 0; i + u.size() <= w.size(); ++i)
        if (std::equal(u.begin(), u.end(), w.begin() + static_cast<long>(i))) return true;
    return false;
}
bool contains_subsequence(const Word& w, const Word& u) {
    std::size_t j = 0;
    for (std::size_t i = 0; i < w.size() && j < u.size(); ++i)
        if (w[i] == u[j]) ++j;
    return j == u.size();
}

}  // namespace

TEST_CASE("every example of docs/SYNTAX.md §4 defines the stated language on all words up to length 6",
          "[ltl][semantics]") {
    const std::vector<std::pair<std::string, std::function<bool(const Word&)>>> examples = {
        {"Y a", [](const Word& w) { return !w.empty() && w.back() == "a"; }},
        {"P(a & !P true)", [](const Word& w) { return !w.empty() && w.front() == "a"; }},
        {"P(b & P a)", [](const Word& w) { return contains_subsequence(w, {"a", "b"}); }},
        {"P(b & Y a)", [](const Word& w) { return contains_factor(w, {"a", "b"}); }},
        {"!P true", [](const Word& w) { return w.empty(); }},
        {"a", [](const Word&) { return false; }},
        {"!a", [](const Word&) { return true; }},
        {"true", [](const Word&) { return true; }},
        {"false", [](const Word&) { return false; }},
        {"H a", [](const Word& w) { return std::all_of(w.begin(), w.end(), [](auto& x) { return x == "a"; }); }},
        {"Y<=2 b", [](const Word& w) { return contains_factor(Word(w.size() >= 2 ? w.end() - 2 : w.begin(), w.end()), {"b"}); }},
        {"Y Y a", [](const Word& w) { return w.size() >= 2 && w[w.size() - 2] == "a"; }},
        // a S b at EOS: some b, followed only by a's
        {"a S b", [](const Word& w) {
             for (std::size_t j = w.size(); j-- > 0;) {
                 if (w[j] == "b") return true;
                 if (w[j] != "a") return false;
             }
             return false;
         }},
        {"Y(a S b)", [](const Word& w) {
             if (w.empty()) return false;
             for (std::size_t j = w.size() - 1; j-- > 0;) {
                 if (w[j] == "b") return true;
                 if (w[j] != "a") return false;
             }
             return false;
         }},
    };
    const auto words = all_words({"a", "b"}, 6);
    REQUIRE(words.size() == 127);
    for (const auto& [text, member] : examples) {
        Formula f = parse_ok(text);
        for (const Word& w : words) {
            INFO(text << " on '" << join(w) << "'");
            REQUIRE(holds_at_eos(f, w) == member(w));
        }
    }
}

TEST_CASE("the DP evaluator agrees with the literal semantics at every position", "[ltl][semantics]") {
    std::mt19937_64 rng(7);
    const std::vector<std::string> atoms = {"a", "b", "c"};
    const auto words = all_words(atoms, 4);
    for (const Fragment& fr : testing::all_fragments(2)) {
        for (int i = 0; i < 60; ++i) {
            Formula f = testing::random_formula(rng, fr, atoms, 4);
            for (std::size_t wi = 0; wi < words.size(); wi += 1 + static_cast<std::size_t>(rng() % 3)) {
                const Word& w = words[wi];
                auto all = evaluate_all_positions(f, w);
                REQUIRE(all.size() == w.size() + 1);
                for (std::size_t pos = 1; pos <= w.size() + 1; ++pos) {
                    INFO(to_string(f) << " on '" << join(w) << "' at " << pos);
                    REQUIRE(all[pos - 1] == literal(f, w, pos));
                }
                REQUIRE(holds_at_eos(f, w) == all.back());
            }
        }
    }
}

TEST_CASE("H is !P!, Y<=1 is Y, Y<=k is a disjunction of Y-chains, on random words", "[ltl][semantics]") {
    std::mt19937_64 rng(11);
    const std::vector<std::string> atoms = {"a", "b"};
    for (int i = 0; i < 200; ++i) {
        Formula phi = testing::random_formula(rng, FragmentKind::S, atoms, 3);
        const unsigned k = 1 + static_cast<unsigned>(rng() % 4);
        Formula h = Formula::historically(phi);
        Formula notpnot = Formula::neg(Formula::past(Formula::neg(phi)));
        Formula y1 = Formula::bounded_yesterday(phi, 1);
        Formula y = Formula::yesterday(phi);
        Formula yk = Formula::bounded_yesterday(phi, k);
        Formula chain = Formula::yesterday(phi), chains = chain;
        for (unsigned j = 2; j <= k; ++j) {
            chain = Formula::yesterday(chain);
            chains = Formula::disj(chains, chain);
        }
        for (int t = 0; t < 20; ++t) {
            Word w(rng() % 10);
            for (auto& s : w) s = atoms[rng() % 2];
            INFO(to_string(phi) << " k=" << k << " on '" << join(w) << "'");
            auto a = evaluate_all_positions(h, w), b = evaluate_all_positions(notpnot, w);
            REQUIRE(a == b);
            REQUIRE(evaluate_all_positions(y1, w) == evaluate_all_positions(y, w));
            REQUIRE(evaluate_all_positions(yk, w) == evaluate_all_positions(chains, w));
        }
    }
}

TEST_CASE("no symbol holds at EOS, and the current position is excluded from P, Y<=k and S",
          "[ltl][semantics]") {
    const Word ab = {"a", "b"};
    CHECK_FALSE(holds_at_eos(parse_ok("b"), ab));
    CHECK(holds_at_eos(parse_ok("Y b"), ab));
    CHECK(evaluate_all_positions(parse_ok("P b"), ab) == std::vector<bool>{false, false, true});
    CHECK(evaluate_all_positions(parse_ok("Y<=5 a"), ab) == std::vector<bool>{false, true, true});
    CHECK(evaluate_all_positions(parse_ok("true S a"), ab) == std::vector<bool>{false, true, true});
    CHECK(evaluate_all_positions(parse_ok("H false"), ab) == std::vector<bool>{true, false, false});
    CHECK(evaluate_all_positions(parse_ok("b"), ab) == std::vector<bool>{false, true, false});
    CHECK(holds_at_eos(parse_ok("!P true"), {}));
    CHECK(holds_at_eos(parse_ok("H a"), {}));
}
