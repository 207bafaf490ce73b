// Parser, printer and fragments of docs/SYNTAX.md §2 and docs/CLASSES.md §1.
#include <catch2/catch.hpp>

#include <random>
#include <string>

#include "ltl/formula.hh"
#include "ltl/fragment.hh"
#include "ltl/parser.hh"
#include "ltl/printer.hh"
#include "support/random_formula.hh"

using namespace ltlkit;
using namespace ltlkit::ltl;

namespace {

Formula parse_ok(const std::string& text) {
    auto r = parse_formula(text);
    INFO("formula: " << text);
    if (!r.ok()) FAIL("parse error: " << r.error().render());
    return r.value();
}

Formula A() { return Formula::atom("a"); }
Formula B() { return Formula::atom("b"); }
Formula C() { return Formula::atom("c"); }
Formula D() { return Formula::atom("d"); }

// Is fragment `small` contained in fragment `big` (as sets of formulas)?
bool contained(Fragment small, Fragment big) {
    using K = FragmentKind;
    if (small == big || small.kind == K::None || big.kind == K::S) return true;
    switch (big.kind) {
        case K::P: return small.kind == K::P;
        case K::Y: return small.kind == K::Y || small.kind == K::YLeqK;
        case K::YLeqK: return false;
        case K::PY: return small.kind != K::S;
        case K::PYLeqK: return small.kind == K::P || ((small.kind == K::YLeqK) && small.k == big.k);
        default: return false;
    }
}

}  // namespace

TEST_CASE("hash-consing shares equal subformulas and ids are dense", "[ltl]") {
    Formula f = Formula::conj(Formula::past(A()), Formula::past(A()));
    REQUIRE(f.child(0) == f.child(1));
    REQUIRE(Formula::bounded_yesterday(A(), 2) != Formula::bounded_yesterday(A(), 3));
    REQUIRE(Formula::bounded_yesterday(A(), 1) != Formula::yesterday(A()));  // kept as written
    REQUIRE(Formula::conj(A(), B()) != Formula::conj(B(), A()));               // never rewritten
    REQUIRE(dag_size(f) == 3);
    REQUIRE(tree_size(f) == 5);
    REQUIRE(temporal_depth(Formula::since(Formula::past(A()), Formula::yesterday(Formula::yesterday(B())))) == 3);
    REQUIRE(atoms(parse_ok("P(b0 & Y a) | c_1")) == std::vector<std::string>{"a", "b0", "c_1"});
    auto post = subformulas_postorder(parse_ok("P(b & Y a) | b"));
    REQUIRE(post.size() == 6);
    for (std::size_t i = 0; i < post.size(); ++i)
        for (std::size_t c = 0; c < post[i].arity(); ++c) {
            auto it = std::find(post.begin(), post.end(), post[i].child(c));
            REQUIRE(it < post.begin() + static_cast<long>(i));
        }
    // ids are dense: a fresh node gets the next id
    Formula x = Formula::atom("fresh_atom_for_id_test");
    Formula y = Formula::atom("fresh_atom_for_id_test_2");
    REQUIRE(y.id() == x.id() + 1);
}

TEST_CASE("precedence and associativity follow the table of docs/SYNTAX.md §2", "[ltl][parser]") {
    using F = Formula;
    CHECK(parse_ok("a <-> b -> c | d") == F::iff(A(), F::implies(B(), F::disj(C(), D()))));
    CHECK(parse_ok("a | b & c") == F::disj(A(), F::conj(B(), C())));
    CHECK(parse_ok("a & b S c") == F::conj(A(), F::since(B(), C())));
    CHECK(parse_ok("!a S b") == F::since(F::neg(A()), B()));
    CHECK(parse_ok("P a S Y b") == F::since(F::past(A()), F::yesterday(B())));
    CHECK(parse_ok("a -> b -> c") == F::implies(A(), F::implies(B(), C())));
    CHECK(parse_ok("a <-> b <-> c") == F::iff(F::iff(A(), B()), C()));
    CHECK(parse_ok("a S b S c") == F::since(F::since(A(), B()), C()));
    CHECK(parse_ok("a & b & c") == F::conj(F::conj(A(), B()), C()));
    CHECK(parse_ok("a | b | c") == F::disj(F::disj(A(), B()), C()));
    CHECK(parse_ok("a & (b & c)") == F::conj(A(), F::conj(B(), C())));
    CHECK(parse_ok("(a -> b) -> c") == F::implies(F::implies(A(), B()), C()));
    CHECK(parse_ok("!P Y<=3 H a") == F::neg(F::past(F::bounded_yesterday(F::historically(A()), 3))));
    CHECK(parse_ok("!a & b") == F::conj(F::neg(A()), B()));
    CHECK(parse_ok("a -> b <-> c") == F::iff(F::implies(A(), B()), C()));
    CHECK(parse_ok("true | false") == F::disj(F::tt(), F::ff()));
    CHECK(parse_ok("PY a") == F::past(F::yesterday(A())));
    CHECK(parse_ok("Pa") == F::past(A()));
}

TEST_CASE("Unicode forms give the same node as the ASCII forms", "[ltl][parser]") {
    CHECK(parse_ok("¬a ∧ b ∨ c → d ↔ ⊤") == parse_ok("!a & b | c -> d <-> true"));
    CHECK(parse_ok("Y≤3 a ∧ ⊥") == parse_ok("Y<=3 a & false"));
    CHECK(parse_ok("Y ≤ 12 a") == parse_ok("Y<=12 a"));
}

TEST_CASE("whitespace and comments are free", "[ltl][parser]") {
    Formula want = Formula::conj(Formula::bounded_yesterday(A(), 2), B());
    CHECK(parse_ok("Y <= 2 a & b") == want);
    CHECK(parse_ok("Y<=2 a&b") == want);
    CHECK(parse_ok("  Y\t<=\t2\ta\n&\n b  ") == want);
    CHECK(parse_ok("# a comment\nY<=2 a # trailing comment\n & b # end") == want);
    CHECK(parse_ok("Y # comment between\n <= 2 a & b") == want);
    CHECK(parse_ok("Y<=1 a") == Formula::bounded_yesterday(A(), 1));
}

TEST_CASE("printer output parses back to the same node on random formulas", "[ltl][printer]") {
    std::mt19937_64 rng(20261129);
    const std::vector<std::string> atoms = {"a", "b", "c0", "long_name"};
    int n = 0;
    for (const Fragment& fr : testing::all_fragments(3)) {
        for (int i = 0; i < 300; ++i, ++n) {
            Formula f = testing::random_formula(rng, fr, atoms, 1 + i % 7);
            std::string s = to_string(f);
            auto back = parse_formula(s);
            INFO(s);
            REQUIRE(back.ok());
            REQUIRE(back.value() == f);
            auto u = parse_formula(to_unicode(f));
            REQUIRE(u.ok());
            REQUIRE(u.value() == f);
            REQUIRE(contained(fragment_of(f), fr));
        }
    }
    REQUIRE(n >= 1000);
}

TEST_CASE("printer uses minimal parentheses", "[ltl][printer]") {
    CHECK(to_string(parse_ok("a -> (b -> c)")) == "a -> b -> c");
    CHECK(to_string(parse_ok("((a -> b) -> c)")) == "(a -> b) -> c");
    CHECK(to_string(parse_ok("(a <-> b) <-> c")) == "a <-> b <-> c");
    CHECK(to_string(parse_ok("a <-> (b <-> c)")) == "a <-> (b <-> c)");
    CHECK(to_string(parse_ok("(a & b) & c")) == "a & b & c");
    CHECK(to_string(parse_ok("a & (b & c)")) == "a & (b & c)");
    CHECK(to_string(parse_ok("(a | (b & c))")) == "a | b & c");
    CHECK(to_string(parse_ok("(a | b) & c")) == "(a | b) & c");
    CHECK(to_string(parse_ok("(!a) S (b S c)")) == "!a S (b S c)");
    CHECK(to_string(parse_ok("!(a S b)")) == "!(a S b)");
    CHECK(to_string(parse_ok("Y<=2 (a)")) == "Y<=2 a");
    CHECK(to_unicode(parse_ok("!a & Y<=2 true")) == "¬a ∧ Y≤2 ⊤");
}

TEST_CASE("fragment is the smallest containing the operators (docs/CLASSES.md §1)", "[ltl][fragment]") {
    auto frag = [](const std::string& s) { return fragment_of(parse_ok(s)).name(); };
    CHECK(frag("a & !b") == "none");
    CHECK(frag("true") == "none");
    CHECK(frag("P a") == "LTL[P]");
    CHECK(frag("H a") == "LTL[P]");
    CHECK(frag("Y a") == "LTL[Y]");
    CHECK(frag("Y<=1 a") == "LTL[Y]");
    CHECK(frag("Y<=2 a") == "LTL[Y<=2]");
    CHECK(frag("Y<=2 a & Y<=2 Y<=2 b") == "LTL[Y<=2]");
    CHECK(frag("Y<=2 a & Y b") == "LTL[Y]");
    CHECK(frag("Y<=2 a & Y<=3 b") == "LTL[Y]");
    CHECK(frag("Y<=2 a & Y<=1 b") == "LTL[Y]");
    CHECK(frag("P(b & Y a)") == "LTL[P,Y]");
    CHECK(frag("H Y<=3 a") == "LTL[P,Y<=3]");
    CHECK(frag("P Y<=3 a | Y<=4 b") == "LTL[P,Y]");
    CHECK(frag("a S b") == "LTL[S]");
    CHECK(frag("Y (a S b)") == "LTL[S]");
    Fragment f = fragment_of(parse_ok("P Y<=3 a"));
    CHECK(f.kind == FragmentKind::PYLeqK);
    CHECK(f.k == 3);
    CHECK(f.has_past());
    CHECK(!f.has_since());
    CHECK(fragment_of(parse_ok("a S b")).has_since());
}

TEST_CASE("parse errors carry line, character column and what was expected", "[ltl][parser]") {
    struct Case {
        std::string text;
        int line, column;
        std::string needle;
    };
    const std::vector<Case> cases = {
        {"", 1, 1, "expected a formula"},
        {"   ", 1, 4, "expected a formula"},
        {"a &", 1, 4, "expected a formula"},
        {"a && b", 1, 3, "'&&'"},
        {"a || b", 1, 3, "'||'"},
        {"a => b", 1, 3, "'=>'"},
        {"Y<=0 a", 1, 4, "k >= 1"},
        {"Y <= a", 1, 6, "window"},
        {"(a & b", 1, 7, "expected ')'"},
        {"a & b)", 1, 6, "')'"},
        {"a % b", 1, 3, "unknown character '%'"},
        {"X a", 1, 1, "future-time operator (next)"},
        {"b & O a", 1, 5, "writes 'once' as P"},
        {"F a", 1, 1, "the past counterpart is P"},
        {"G a", 1, 1, "the past counterpart is H"},
        {"a U b", 1, 3, "the past counterpart is S"},
        {"a W b", 1, 3, "weak until"},
        {"a R b", 1, 3, "release"},
        {"Z a", 1, 1, "'!Y !a'"},
        {"~a", 1, 1, "expected '!' for negation"},
        {"B a", 1, 1, "unknown character 'B'"},
        {"a\n& (b |\n c d)", 3, 4, "expected"},
        {"¬¬a ∧ ⊤ @", 1, 9, "unknown character '@'"},  // multi-byte characters count as one column
        {"→ a", 1, 1, "found '→'"},
        {"a ∧ ()", 1, 6, "expected a formula"},
        {"# comment\n  a b", 2, 5, "expected an operator"},
        {"a1 & 1a", 1, 6, "unknown character '1'"},
    };
    for (const auto& c : cases) {
        INFO("input: " << c.text);
        auto r = parse_formula(c.text);
        REQUIRE_FALSE(r.ok());
        INFO("error: " << r.error().render());
        CHECK(r.error().line == c.line);
        CHECK(r.error().column == c.column);
        CHECK(r.error().message.find(c.needle) != std::string::npos);
        CHECK(r.error().exit_code == 2);
        CHECK(r.error().one_line().rfind(std::to_string(c.line) + ":" + std::to_string(c.column) + ": ", 0) == 0);
    }
}

TEST_CASE("error rendering shows the line and a caret under the character column", "[ltl][error]") {
    auto r = parse_formula("¬¬a ∧ ⊤ @ b");
    REQUIRE_FALSE(r.ok());
    REQUIRE(r.error().source_line == "¬¬a ∧ ⊤ @ b");
    std::string rendered = r.error().render();
    auto nl = rendered.find('\n');
    REQUIRE(nl != std::string::npos);
    std::string caret_line = rendered.substr(rendered.rfind('\n') + 1);
    // the caret is preceded by the 2-space indent and column-1 characters
    REQUIRE(caret_line == std::string(2 + 8, ' ') + "^");
    Error e;
    e.message = "boom";
    e.origin = "suite.txt";
    e.line = 3;
    CHECK(e.one_line() == "suite.txt:3: boom");
    CHECK(e.render() == "suite.txt:3: boom");
}

TEST_CASE("deep parentheses and long operator chains parse and print without recursion", "[ltl][parser]") {
    std::string deep;
    for (int i = 0; i < 50000; ++i) deep += "P(a & ";
    deep += "b";
    deep += std::string(50000, ')');
    auto r = parse_formula(deep);
    REQUIRE(r.ok());
    CHECK(temporal_depth(r.value()) == 50000);
    std::string printed;
    for (int i = 0; i < 50000; ++i) printed += "P (a & ";
    printed += "b" + std::string(50000, ')');
    CHECK(to_string(r.value()) == printed);
    CHECK(parse_formula(printed).value() == r.value());
    // prefix chains, left-assoc and right-assoc chains are parsed and printed without recursion
    for (const std::string& op : {std::string(" & "), std::string(" -> "), std::string(" S "), std::string(" <-> ")}) {
        std::string chain = "a";
        for (int i = 0; i < 50000; ++i) chain += op + (i % 2 ? "a" : "b");
        auto c = parse_formula(chain);
        REQUIRE(c.ok());
        CHECK(to_string(c.value()) == chain);
        CHECK(tree_size(c.value()) == 100001);
    }
    std::string nots;
    for (int i = 0; i < 50000; ++i) nots += "!Y P ";
    nots += "a";
    auto n = parse_formula(nots);
    REQUIRE(n.ok());
    CHECK(parse_formula(to_string(n.value())).value() == n.value());
    CHECK(temporal_depth(n.value()) == 100000);
}
