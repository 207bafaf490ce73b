// Suites of the prediction classes (automata/algebra/prediction_suite.hh, docs/SUBREGULAR.md §5b):
// every drawn DFA re-classified by another route (the semigroup identity of each class row, the
// independent certificate checker for the window answers) and checked against its constraints;
// reproducibility; contradictions refused; the inclusion rules checked on random DFAs.
#include <catch2/catch.hpp>

#include <map>
#include <set>

#include "automata/algebra/certificate_check.hh"
#include "automata/algebra/classes.hh"
#include "automata/algebra/classify.hh"
#include "automata/algebra/prediction_suite.hh"
#include "automata/algebra/subregular.hh"
#include "automata/algorithms.hh"
#include "automata/dfa_json.hh"
#include "automata/monitor.hh"
#include "ltl/fragment.hh"
#include "automata/random.hh"
#include "ltl/printer.hh"

using namespace ltlkit;
using namespace ltlkit::automata;
using namespace ltlkit::automata::algebra;

namespace {

ClassId cls(const std::string& t) {
    auto r = parse_suite_class(t);
    REQUIRE(r.ok());
    return *r;
}

// The answer for `c` by a route other than the draw's: the class row's semigroup identity, the
// certificate checker on classify's window certificate, or the subregular decision.
Answer independent_answer(const Dfa& d, const ClassId& c) {
    switch (c.family()) {
        case ClassFamily::Table: {
            auto S = SemigroupAnalysis::of(d, 1'000'000);
            REQUIRE(S.ok());
            return find_class(c)->by_semigroup(**S).member ? Answer::Yes : Answer::No;
        }
        case ClassFamily::Subregular: {
            auto dec = decide_subregular(c, d);
            REQUIRE(dec);
            return !dec->member ? Answer::Unknown : *dec->member ? Answer::Yes : Answer::No;
        }
        default: {
            ClassifyOptions o;
            o.max_k = c.k;
            auto cl = classify(d, o);
            REQUIRE(cl.ok());
            const ClassId id = c;
            const Answer a = (c.hybrid() ? cl->hybrid_k : cl->local_k).at(c.k);
            if (a == Answer::Unknown) return a;
            std::string why;
            auto held = check_certificate_json(certificate_to_json(cl->certificates.at(id), d), &why);
            INFO(to_string(id) << ": " << why);
            REQUIRE(held.ok());
            REQUIRE(*held);
            return a;
        }
    }
}

void check_draw(const PredictionSuiteRequest& r, const PredictionSuiteDraw& s) {
    REQUIRE(s.dfas.size() == r.count);
    REQUIRE(s.answers.size() == r.count);
    std::set<std::string> seen;
    for (std::size_t i = 0; i < s.dfas.size(); ++i) {
        const Dfa& d = s.dfas[i];
        INFO("DFA " << i << ": " << to_json(d));
        CHECK(is_minimal(d));
        CHECK(d.num_states() >= r.min_states);
        CHECK(d.num_states() <= r.max_states);
        CHECK(seen.insert(to_json(d)).second);
        for (const auto& c : r.constraints) {
            INFO("constraint " << c.text());
            const Answer want = c.member ? Answer::Yes : Answer::No;
            bool recorded = false;
            for (const auto& a : s.answers[i])
                if (a.cls == c.cls) {
                    recorded = true;
                    CHECK(a.answer == want);
                }
            CHECK(recorded);
            CHECK(independent_answer(d, c.cls) == want);
        }
    }
}

PredictionSuiteRequest request(const std::vector<ClassConstraint>& cs, std::size_t count, std::uint64_t seed,
                               std::size_t letters = 2) {
    PredictionSuiteRequest r;
    r.constraints = cs;
    r.alphabet = letters == 2 ? std::vector<std::string>{"a", "b"} : std::vector<std::string>{"a", "b", "c"};
    r.count = count;
    r.seed = seed;
    r.min_states = 3;
    r.max_states = 6;
    r.max_draws = 20'000;
    return r;
}

}  // namespace

TEST_CASE("Every stratum is drawable at 2 letters and every drawn DFA meets its constraints by another route",
          "[prediction_suite]") {
    for (const auto& st : prediction_strata()) {
        INFO("stratum " << st.name);
        auto r = request(st.constraints, 3, 11);
        auto s = draw_prediction_suite(r);
        INFO((s.ok() ? "" : s.error().message));
        REQUIRE(s.ok());
        check_draw(r, *s);
        CHECK(s->draws >= r.count);
        // The predictions the stratum states are classify's predictions for each drawn language.
        for (const Dfa& d : s->dfas) {
            ClassifyOptions o;
            o.max_k = s->max_k;
            auto c = classify(d, o);
            REQUIRE(c.ok());
            for (const auto& p : st.predictions) {
                INFO("architecture " << p.arch);
                auto arch = parse_architecture(p.arch);
                REQUIRE(arch.ok());
                CHECK(predict(*c, *arch).prediction == (p.recognizes ? Prediction::Recognizes : Prediction::Fails));
            }
        }
    }
}

TEST_CASE("Strata name the 1-window predictions their classes force", "[prediction_suite]") {
    auto pred = [](const std::string& name) {
        std::map<std::string, bool> m;
        for (const auto& p : find_stratum(name)->predictions) m[p.arch] = p.recognizes;
        return m;
    };
    CHECK(pred("rt_definite") == std::map<std::string, bool>{{"global", true}, {"local-1", true}, {"hybrid-1", true}});
    CHECK(pred("rt_not_definite") == std::map<std::string, bool>{{"global", true}, {"local-1", false}, {"hybrid-1", true}});
    CHECK(pred("definite_not_rt") == std::map<std::string, bool>{{"global", false}, {"local-1", true}, {"hybrid-1", true}});
    CHECK(pred("lrt_only") == std::map<std::string, bool>{{"global", false}, {"local-1", false}, {"hybrid-1", true}});
    CHECK(pred("none") == std::map<std::string, bool>{{"global", false}, {"local-1", false}, {"hybrid-1", false}});
    CHECK(pred("definite_not_local2").at("local-2") == false);
    CHECK(pred("definite_local2").at("hybrid-2") == true);  // LTL[Y<=2] ⊆ LTL[P,Y<=2]
    CHECK(pred("lrt_only_not_hybrid2").at("local-2") == false);  // not definite
    CHECK(pred("lrt_only_hybrid2").at("hybrid-2") == true);
    CHECK(find_stratum("no_such") == nullptr);
}

TEST_CASE("Prediction suites are reproducible from the seed, at 3 letters as well", "[prediction_suite]") {
    auto r = request({{cls("locally_r_trivial"), true}, {cls("r_trivial"), false}, {cls("definite"), false}}, 4, 5, 3);
    auto a = draw_prediction_suite(r), b = draw_prediction_suite(r);
    REQUIRE(a.ok());
    REQUIRE(b.ok());
    check_draw(r, *a);
    CHECK(a->dfas == b->dfas);
    CHECK(a->draws == b->draws);
    CHECK(a->generators == b->generators);
    r.seed = 6;
    auto c = draw_prediction_suite(r);
    REQUIRE(c.ok());
    CHECK(c->dfas != a->dfas);
}

TEST_CASE("Subregular and window constraints combine with the class rows", "[prediction_suite]") {
    auto r = request({{cls("locally_r_trivial"), true}, {cls("r_trivial"), false}, {cls("SL"), false}}, 3, 2);
    auto s = draw_prediction_suite(r);
    REQUIRE(s.ok());
    check_draw(r, *s);
    r = request({{cls("r_trivial"), true}, {cls("PT"), false}, {cls("definite"), false}}, 3, 4);
    s = draw_prediction_suite(r);
    REQUIRE(s.ok());
    check_draw(r, *s);
    r = request({{cls("hybrid_k:3"), false}, {cls("locally_r_trivial"), true}}, 2, 9);
    s = draw_prediction_suite(r);
    REQUIRE(s.ok());
    CHECK(s->max_k == 3);
    check_draw(r, *s);
}

TEST_CASE("Contradictory constraints, bad names and bad windows are refused before any draw", "[prediction_suite]") {
    auto refused = [](const std::vector<ClassConstraint>& cs) {
        PredictionSuiteRequest r;
        r.constraints = cs;
        r.alphabet = {"a", "b"};
        r.max_draws = 1;  // a refusal after drawing would say "only 0 of ..." instead
        auto s = draw_prediction_suite(r);
        REQUIRE(!s.ok());
        INFO(s.error().message);
        CHECK(s.error().message.rfind("contradictory constraints: ", 0) == 0);
        CHECK(s.error().message.find('\n') == std::string::npos);
        CHECK(s.error().exit_code == 2);
    };
    refused({{cls("definite"), true}, {cls("locally_r_trivial"), false}});
    refused({{cls("definite"), true}, {cls("definite"), false}});
    refused({{cls("local_k:2"), true}, {cls("definite"), false}});
    refused({{cls("local_k:2"), true}, {cls("hybrid_k:2"), false}});
    refused({{cls("r_trivial"), true}, {cls("hybrid_k:3"), false}});
    refused({{cls("local_k:4"), true}, {cls("local_k:2"), false}});
    refused({{cls("hybrid_k:2"), true}, {cls("star_free"), false}});
    refused({{cls("PT"), true}, {cls("r_trivial"), false}});
    refused({{cls("finite"), true}, {cls("LT"), false}});
    refused({{cls("definite"), true}, {cls("SL"), false}});
    refused({{cls("r_trivial"), true}, {cls("definite"), true}, {cls("piecewise_testable"), false}});
    // Consistent ones pass the closure.
    CHECK(close_constraints({{cls("local_k:2"), true}, {cls("local_k:4"), false}}).ok());
    CHECK(close_constraints({{cls("definite"), true}, {cls("r_trivial"), false}, {cls("local_k:2"), false}}).ok());
    for (const char* bad : {"definit", "local_k:1", "local_k:", "hybrid_k:x", "local_k:65", "local_k:2x", "none"}) {
        auto p = parse_suite_class(bad);
        INFO(bad);
        REQUIRE(!p.ok());
        CHECK(p.error().message.find(bad) != std::string::npos);
    }
    CHECK(cls("hybrid_k:12").k == 12);
    CHECK(to_string(cls("hybrid_k:12")) == "hybrid_k:12");
    PredictionSuiteRequest r;
    r.constraints = {{cls("local_k:3"), true}};
    r.alphabet = {"a", "b"};
    r.max_k = 2;
    CHECK(!draw_prediction_suite(r).ok());
}

TEST_CASE("The closure's inclusions hold on random DFAs and include classes.hh's class_implies", "[prediction_suite]") {
    // Every fact the closure derives from one class answer of a random DFA is classify's answer.
    Rng rng(3);
    std::vector<ClassId> all;
    for (const auto& row : class_table()) all.push_back(cls(to_string(row.id())));
    for (const auto& id : subregular_class_ids()) all.push_back(cls(to_string(id)));
    for (const char* w : {"local_k:2", "hybrid_k:2", "local_k:4", "hybrid_k:4"}) all.push_back(cls(w));
    std::size_t derived = 0;
    for (int trial = 0; trial < 60; ++trial) {
        const std::vector<std::string> ab = trial % 4 == 3 ? std::vector<std::string>{"a", "b", "c"} : std::vector<std::string>{"a", "b"};
        Dfa d = minimize(trial % 3 == 0 ? random_definite_dfa(rng, 1 + unsigned(rng.below(2)), ab)
                                        : random_shaped_dfa(rng, 1 + rng.below(4), ab));
        ClassifyOptions o;
        o.max_k = 4;
        auto c = classify(d, o);
        REQUIRE(c.ok());
        std::vector<ClassConstraint> facts;
        for (const auto& x : all)
            if (auto a = class_answer(*c, d, x); a != Answer::Unknown) facts.push_back({x, a == Answer::Yes});
        INFO(to_json(d));
        // All the answers together are consistent with the rules...
        CHECK(close_constraints(facts).ok());
        // ...and what one answer implies is what classify says.
        for (const auto& f : facts) {
            auto one = close_constraints({f});
            REQUIRE(one.ok());
            for (const auto& k : one->known) {
                const Answer a = class_answer(*c, d, k.cls);
                INFO(f.text() << " implies " << k.text());
                if (a != Answer::Unknown) CHECK((a == Answer::Yes) == k.member);
                ++derived;
            }
        }
    }
    CHECK(derived > 1000);
    for (const auto& a : class_table())
        for (const auto& b : class_table())
            if (class_implies(a.id(), b.id())) {
                auto c = close_constraints({{a.id(), true}});
                REQUIRE(c.ok());
                CHECK(c->of(b.id()) == true);
            }
}

TEST_CASE("The rt_definite languages are the finite and cofinite ones (docs/SUBREGULAR.md §5b)", "[prediction_suite]") {
    for (std::size_t letters : {2, 3}) {
        auto r = request(find_stratum("rt_definite")->constraints, 12, 7, letters);
        r.min_states = 1;
        auto s = draw_prediction_suite(r);
        REQUIRE(s.ok());
        for (const Dfa& d : s->dfas) {
            INFO(to_json(d));
            const bool finite = *decide_subregular(ClassKind::Finite, d)->member, cofinite = *decide_subregular(ClassKind::Cofinite, d)->member;
            CHECK((finite || cofinite));
        }
    }
    // And conversely a finite language of 3+ states is drawn in that stratum.
    auto r = request({{cls("finite"), true}}, 3, 1);
    auto s = draw_prediction_suite(r);
    REQUIRE(s.ok());
    check_draw(r, *s);
    for (const Dfa& d : s->dfas) {
        DfaAnalysis A(d);
        CHECK(find_class(ClassKind::RTrivial)->by_dfa(A).member);
        CHECK(find_class(ClassKind::Definite)->by_dfa(A).member);
    }
}

TEST_CASE("Formula suites: formulas of the fragment whose languages meet the constraints", "[prediction_suite]") {
    struct Case {
        const char* fragment;
        std::vector<ClassConstraint> cs;
    };
    const std::vector<Case> cases = {
        {"P,Y", {{cls("r_trivial"), false}, {cls("definite"), false}}},
        {"P", {{cls("piecewise_testable"), false}}},
        {"Y<=2", {{cls("r_trivial"), false}}},
        {"P,Y<=2", {{cls("local_k:2"), false}, {cls("r_trivial"), false}}},
        {"LTL[Y]", {}},
    };
    for (const auto& k : cases) {
        INFO("fragment " << k.fragment);
        auto fr = parse_suite_fragment(k.fragment);
        REQUIRE(fr.ok());
        auto r = request(k.cs, 3, 13);
        r.formulas = FormulaSource{*fr, 3};
        auto s = draw_prediction_suite(r);
        INFO((s.ok() ? "" : s.error().message));
        REQUIRE(s.ok());
        check_draw(r, *s);
        REQUIRE(s->formulas.size() == s->dfas.size());
        const ClassConstraint own = fragment_class(*fr);
        for (std::size_t i = 0; i < s->dfas.size(); ++i) {
            INFO(ltl::to_string(s->formulas[i]));
            const auto got = ltl::fragment_of(s->formulas[i]);
            CHECK((got.kind == fr->kind || got.kind == ltl::FragmentKind::None || fr->kind == ltl::FragmentKind::PY ||
                   (got.kind == ltl::FragmentKind::P && fr->kind == ltl::FragmentKind::PYLeqK) ||
                   (got.kind == ltl::FragmentKind::YLeqK && fr->kind == ltl::FragmentKind::PYLeqK)));
            auto compiled = compile(s->formulas[i], r.alphabet);
            REQUIRE(compiled.ok());
            CHECK(minimize(*compiled) == s->dfas[i]);
            CHECK(independent_answer(s->dfas[i], own.cls) == Answer::Yes);
        }
    }
    auto r = request({{cls("definite"), false}}, 2, 1);
    r.formulas = FormulaSource{*parse_suite_fragment("Y"), 3};
    auto s = draw_prediction_suite(r);
    REQUIRE(!s.ok());
    CHECK(s.error().message.find("contradictory constraints") != std::string::npos);
    r = request({{cls("hybrid_k:2"), false}}, 2, 1);
    r.formulas = FormulaSource{*parse_suite_fragment("P"), 3};
    CHECK(!draw_prediction_suite(r).ok());  // LTL[P] ⊆ LTL[P,Y<=2]
    for (const char* bad : {"Q", "Y<=1", "P,Y<=", "S", "Y<=99"}) {
        INFO(bad);
        auto p = parse_suite_fragment(bad);
        REQUIRE(!p.ok());
        CHECK(p.error().message.find(bad) != std::string::npos);
    }
}

TEST_CASE("Random definite DFAs are definite and partially ordered ones R-trivial", "[prediction_suite]") {
    Rng rng(8);
    for (int i = 0; i < 40; ++i) {
        Dfa d = minimize(random_definite_dfa(rng, 1 + unsigned(rng.below(3)), {"a", "b", "c"}));
        DfaAnalysis A(d);
        CHECK(find_class(ClassKind::Definite)->by_dfa(A).member);
        auto po = minimize(random_shaped_dfa(rng, 1 + rng.below(6), {"a", "b"}, 1));
        DfaAnalysis B(po);
        CHECK(find_class(ClassKind::RTrivial)->by_dfa(B).member);
    }
}
