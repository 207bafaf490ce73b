// The class vocabulary (automata/class_id.hh) and what the class table says of each class
// (automata/algebra/classes.hh): every id round-trips through its name, and the table's inclusions,
// refuting identities and refuting families agree with the deciders on random DFAs (each class
// decided by a route other than the one the row's data was written from).
#include <catch2/catch.hpp>

#include <set>

#include <nlohmann/json.hpp>

#include "automata/algebra/classes.hh"
#include "automata/algebra/classify.hh"
#include "automata/algebra/prediction_suite.hh"
#include "automata/algebra/subregular.hh"
#include "automata/algorithms.hh"
#include "automata/dfa_json.hh"
#include "automata/random.hh"

using namespace ltlkit;
using namespace ltlkit::automata;
using namespace ltlkit::automata::algebra;

namespace {

std::vector<ClassId> every_id() {
    std::vector<ClassId> all;
    for (ClassFamily f : {ClassFamily::Table, ClassFamily::Subregular})
        for (ClassKind k : class_kinds(f)) all.push_back(k);
    for (unsigned k : {0u, 1u, 2u, 3u, 10u, 64u, 9999u})
        for (bool hybrid : {false, true}) all.push_back(window_class_id(hybrid, k));
    return all;
}

}  // namespace

TEST_CASE("Every class id round-trips through to_string and parse_class_id, and names are distinct", "[class_id]") {
    std::set<std::string> names;
    for (const ClassId& id : every_id()) {
        const std::string text = to_string(id);
        INFO(text);
        CHECK(names.insert(text).second);
        auto back = parse_class_id(text);
        REQUIRE(back);
        CHECK(*back == id);
        CHECK(back->family() == (id.is_window() ? ClassFamily::Window : id.family()));
        CHECK(window_stem_of(text).has_value() == id.is_window());
    }
    CHECK(class_kinds(ClassFamily::Table).size() == class_table().size());
    CHECK(class_kinds(ClassFamily::Subregular).size() == subregular_class_ids().size());
    // Not names: a kind's spelling other than its own, a window without a plain decimal k.
    for (const char* bad : {"", "Definite", "definite ", "local_k", "local_k:", "local_k:x", "local_k:2x", "local_k:-2",
                            "hybrid_k:12345", "local_k:+2", "sl", "window"}) {
        INFO(bad);
        CHECK_FALSE(parse_class_id(bad).has_value());
    }
    CHECK(parse_class_id("local_k:0002") == window_class_id(false, 2));
    CHECK_FALSE(parse_class_id("local_k:0002", 3).has_value());
    CHECK(*window_stem_of("hybrid_k:x") == ClassKind::HybridK);
    // Maps keyed by ClassId list their keys in the order of the names (the JSON objects' order).
    ClassMap<int> m;
    for (const ClassId& id : every_id()) m[id] = 0;
    std::string last;
    for (const auto& [id, v] : m) {
        CHECK(last < to_string(id));
        last = to_string(id);
    }
}

TEST_CASE("The class table has one row per table kind, in enumerator order, and nothing else", "[class_id]") {
    const auto kinds = class_kinds(ClassFamily::Table);
    REQUIRE(class_table().size() == kinds.size());
    for (std::size_t i = 0; i < kinds.size(); ++i) {
        CHECK(class_table()[i].kind == kinds[i]);
        CHECK(find_class(kinds[i]) == &class_table()[i]);
        CHECK(class_table()[i].by_semigroup != nullptr);
        CHECK_FALSE(class_table()[i].refuted_by.empty());
    }
    for (const ClassId& id : every_id())
        if (id.family() != ClassFamily::Table) CHECK(find_class(id) == nullptr);
    // Each architecture of the 1-windows is predicted by exactly one row.
    using A = Architecture;
    for (const A& arch : {A{A::Kind::Global, 0}, A{A::Kind::Local, 1}, A{A::Kind::Hybrid, 1}}) {
        int rows = 0;
        for (const auto& row : class_table()) rows += row.arch && *row.arch == arch;
        CHECK(rows == 1);
        CHECK(predicting_class(arch).has_value());
    }
    CHECK(predicting_class(A{A::Kind::Local, 3}) == window_class_id(false, 3));
    CHECK(predicting_class(A{A::Kind::Hybrid, 2}) == window_class_id(true, 2));
    CHECK_FALSE(predicting_class(A{A::Kind::Lstm, 0}).has_value());
}

TEST_CASE("The table's inclusions, refuting identities and refuting families agree with the deciders on random DFAs",
          "[class_id]") {
    Rng rng(41);
    std::size_t fired = 0, refutations = 0;
    std::map<std::string, std::size_t> premises_held;
    const auto windows = window_inclusions({2, 4});
    for (int trial = 0; trial < 150; ++trial) {
        const std::vector<std::string> ab = trial % 4 == 3 ? std::vector<std::string>{"a", "b", "c"} : std::vector<std::string>{"a", "b"};
        const Dfa d = minimize(trial % 3 == 0 ? random_definite_dfa(rng, 1 + unsigned(rng.below(2)), ab)
                                              : random_shaped_dfa(rng, 1 + rng.below(5), ab));
        INFO(to_json(d));
        auto S = SemigroupAnalysis::of(d, 100'000);
        REQUIRE(S.ok());
        DfaAnalysis A(d);
        ClassifyOptions o;
        o.max_k = 4;
        auto c = classify(d, o);
        REQUIRE(c.ok());
        // Membership by a second route: the semigroup identity for the table (the DFA criterion must
        // agree), the subregular deciders, classify's window answers.
        auto member = [&](const ClassId& id) -> std::optional<bool> {
            switch (id.family()) {
                case ClassFamily::Table: {
                    const ClassRow& row = *find_class(id);
                    const ClassDecision s = row.by_semigroup(**S);
                    if (row.by_dfa) CHECK(row.by_dfa(A).member == s.member);
                    return s.member;
                }
                case ClassFamily::Subregular: return decide_subregular(id, d)->member;
                case ClassFamily::Window: {
                    const Answer a = class_answer(*c, d, id);
                    return a == Answer::Unknown ? std::nullopt : std::optional<bool>(a == Answer::Yes);
                }
            }
            return std::nullopt;
        };
        for (const auto* list : {&class_inclusions(), &windows})
            for (const Inclusion& inc : *list) {
                bool all = true;
                for (const ClassId& p : inc.if_all) all = all && member(p) == true;
                if (!all) continue;
                ++fired;
                ++premises_held[to_string(inc.then)];
                INFO(to_string(inc.if_all.front()) << " ⊆ " << to_string(inc.then) << ": " << inc.why);
                CHECK(member(inc.then) != false);
            }
        // A non-member's refutation is one the row lists.
        for (const ClassRow& row : class_table()) {
            INFO(to_string(row.id()));
            const ClassDecision s = row.by_semigroup(**S);
            if (!s.member && s.certificate.kind == CertificateKind::IdentityViolation) {
                const auto* v = std::get_if<ViolationFields>(&s.certificate.fields);
                REQUIRE(v);
                CHECK(std::find(row.refuted_by.begin(), row.refuted_by.end(), v->identity) != row.refuted_by.end());
                ++refutations;
            }
            if (!row.by_dfa) continue;
            const ClassDecision f = row.by_dfa(A);
            if (!f.member && f.certificate.family) CHECK(row.refuting_family == f.certificate.kind);
        }
    }
    CHECK(fired > 1000);
    CHECK(refutations > 100);
    // Every table class but reverse_definite (which includes no other) concludes an inclusion that fired.
    for (const auto& row : class_table()) {
        INFO(to_string(row.id()));
        if (row.kind != ClassKind::ReverseDefinite) CHECK(premises_held[to_string(row.id())] > 0);
    }
}
