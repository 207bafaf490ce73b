// The LC25 / LC26 suites: every line is classified and lands in the class the papers state.
#include <catch2/catch.hpp>

#include <map>
#include <set>

#include "automata/algebra/classify.hh"
#include "automata/language.hh"

using namespace ltlkit;
using namespace ltlkit::automata;
using namespace ltlkit::automata::algebra;

namespace {

// name -> {class id -> expected membership}; the papers' statements (docs/CLASSES.md §2 names).
using Expect = std::map<std::string, bool>;
const std::map<std::string, Expect>& expectations() {
    static const std::map<std::string, Expect> e = {
        // LC25
        {"PARITY", {{"star_free", false}, {"r_trivial", false}, {"locally_r_trivial", false}}},
        {"DYCK-(1,2)", {{"star_free", true}, {"r_trivial", false}}},
        {"DYCK-(1,1)", {{"star_free", true}, {"r_trivial", false}}},
        {"LT-2", {{"locally_testable", true}, {"r_trivial", false}, {"star_free", true}}},
        {"RDP-1", {{"r_trivial", false}, {"star_free", true}}},
        {"LAST", {{"r_trivial", false}, {"definite", true}}},
        {"PT-2", {{"piecewise_testable", true}, {"r_trivial", true}}},
        {"LT-1", {{"piecewise_testable", true}, {"r_trivial", true}, {"locally_testable", true}}},
        {"LDP-1", {{"r_trivial", true}}},
        {"LDP-2", {{"r_trivial", true}}},
        {"FIRST", {{"r_trivial", true}, {"reverse_definite", true}, {"definite", false}}},
        {"BB", {{"r_trivial", true}, {"definite", false}}},
        {"LAST-F", {{"definite", true}, {"r_trivial", false}}},
        {"PT-2-F", {{"piecewise_testable", true}, {"r_trivial", true}}},
        {"LT-2-F", {{"locally_testable", true}, {"r_trivial", false}, {"locally_r_trivial", true}}},
        // LC26
        {"SIGMA*A", {{"definite", true}}},
        {"SIGMA*AB", {{"definite", true}}},
        {"ASIGMA*", {{"r_trivial", true}, {"definite", false}}},
        {"SUBSEQ-AB", {{"r_trivial", true}, {"definite", false}}},
        {"(AB)*", {{"locally_r_trivial", true}, {"r_trivial", false}, {"definite", false}}},
        {"FACTOR-AB", {{"locally_r_trivial", true}, {"r_trivial", false}, {"definite", false}}},
        {"RDP-1-C", {{"locally_r_trivial", false}, {"star_free", true}}},
        {"DYCK-2-BOUNDED", {{"locally_r_trivial", false}, {"star_free", true}}},
    };
    return e;
}

void check_suite(const std::string& file) {
    auto specs = read_suite(std::string(LTLKIT_SOURCE_DIR) + "/examples/" + file);
    REQUIRE(specs.ok());
    REQUIRE(!specs->empty());
    ClassifyOptions o;
    o.max_k = 1;  // the windows k >= 2 are helper G's (tests/test_window_*.cc); this test is about the classes
    for (const auto& spec : *specs) {
        INFO(file << ": " << spec.name);
        auto it = expectations().find(spec.name);
        REQUIRE(it != expectations().end());
        auto L = load_language(spec);
        REQUIRE(L.ok());
        auto c = classify(L->dfa, o);
        REQUIRE(c.ok());
        for (const auto& [cls, want] : it->second) {
            INFO("class " << cls);
            REQUIRE(c->classes.at(*parse_class_id(cls)).has_value());
            CHECK(*c->classes.at(*parse_class_id(cls)) == want);
        }
        // The architecture predictions follow the classes (docs/CLASSES.md §4).
        CHECK((predict(*c, *parse_architecture("global")).prediction == Prediction::Recognizes) == (c->classes.at(ClassKind::RTrivial) == true));
        CHECK((predict(*c, *parse_architecture("local-1")).prediction == Prediction::Recognizes) == (c->classes.at(ClassKind::Definite) == true));
        CHECK((predict(*c, *parse_architecture("hybrid-1")).prediction == Prediction::Recognizes) ==
              (c->classes.at(ClassKind::LocallyRTrivial) == true));
        if (predict(*c, *parse_architecture("global")).prediction == Prediction::Fails) CHECK(predict(*c, *parse_architecture("global")).witness.has_value());
    }
}

}  // namespace

TEST_CASE("Every LC25 suite language is in the class LC25 states", "[suites]") { check_suite("lc25.suite"); }
TEST_CASE("Every LC25 extra language is in the class LC25 states", "[suites]") { check_suite("lc25-extras.suite"); }
TEST_CASE("Every LC26 suite language is in the class LC26 states", "[suites]") { check_suite("lc26.suite"); }
