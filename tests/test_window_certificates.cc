// The window certificate checker (automata/algebra/window_certificate_check.cc): the certificates of
// the window decisions re-verify (LC26's Σ*a, random DFAs, unknown and depth-type answers) and
// tampered or malformed certificates are rejected.
#include <catch2/catch.hpp>

#include <map>
#include <random>
#include <set>

#include <nlohmann/json.hpp>

#include "automata/algebra/classify.hh"
#include "automata/algebra/depth_probe.hh"
#include "automata/algebra/windows.hh"
#include "automata/algorithms.hh"
#include "automata/dfa_json.hh"
#include "automata/monitor.hh"
#include "ltl/fragment.hh"
#include "ltl/parser.hh"
#include "ltl/printer.hh"
#include "ltl/semantics.hh"
#include "support/dfa_builders.hh"
#include "support/random_formula.hh"
#include "support/window_support.hh"

using namespace ltlkit;
using namespace ltlkit::testing;  // and through it ltlkit::automata and ltlkit::automata::algebra

TEST_CASE("LC26: Σ*a (Y a) is not in LTL[Y<=k] nor LTL[P,Y<=k] for k = 2, 3, 4, and the certificates re-verify",
          "[windows]") {
    Dfa d = dfa_of("Y a");
    for (unsigned k = 2; k <= 4; ++k) {
        for (bool hybrid : {false, true}) {
            WindowDecision w = hybrid ? decide_hybrid_k(d, k) : decide_local_k(d, k);
            INFO("k = " << k << (hybrid ? " hybrid" : " local") << ": " << w.certificate.fact);
            REQUIRE(w.answer == Answer::No);
            CHECK(to_string(w.certificate.class_id) == (hybrid ? "hybrid_k:" : "local_k:") + std::to_string(k));
            REQUIRE(w.certificate.family);
            CHECK(reverifies(w.certificate, d));
            for (const auto& [acc, rej] : w.certificate.pairs) {
                CHECK(d.accepts(acc));
                CHECK(!d.accepts(rej));
            }
        }
        // LC26's own family (ab^{k-1})^r·a / (ab^{k-1})^r passes the checker as well.
        Word p{0};
        for (unsigned i = 1; i < k; ++i) p.push_back(1);
        CHECK(family_eos_bisimilar(p, Word{0}, Word{}, k, false));
        CHECK(family_eos_bisimilar(p, Word{0}, Word{}, k, true));
        CHECK(membership_differs_from(d, {}, p, Word{0}, Word{}) == std::optional<std::size_t>(1));
        // With window 1 (the operator Y) the same family is separated: Y a tells the tails apart.
        CHECK(!family_eos_bisimilar(p, Word{0}, Word{}, 1, false));
    }
}

TEST_CASE("Random small DFAs: every window certificate re-verifies, no families agree on bounded-depth types, answers are monotone",
          "[windows]") {
    std::mt19937_64 rng(42);
    std::size_t definite = 0, lrt = 0, unknown = 0, total = 0;
    for (int trial = 0; trial < 200 && (definite < 25 || lrt < 12); ++trial) {
        Dfa d = random_dfa(rng, 2 + trial % 4, trial % 5 == 4 ? 3 : 2);
        bool def = definite_by_pair_graph(d);
        bool loc = locally_r_trivial_by_pair_graph(d);
        if (def) REQUIRE(loc);  // definite ⊂ locally R-trivial
        if (!loc) continue;
        (def ? definite : lrt)++;
        INFO(to_json(d));
        for (unsigned k = 2; k <= 3; ++k) {
            std::optional<WindowDecision> local;
            if (def) local = decide_local_k(d, k);
            WindowDecision hyb = decide_hybrid_k(d, k);
            for (const WindowDecision* w : {local ? &*local : nullptr, &hyb}) {
                if (!w) continue;
                ++total;
                const bool hybrid = w == &hyb;
                INFO(to_string(w->certificate.class_id) << ": " << w->certificate.fact);
                if (w->answer == Answer::Unknown) {
                    ++unknown;
                    continue;
                }
                CHECK(reverifies(w->certificate, d));
                if (w->answer == Answer::No) {
                    const WordFamily& f = *w->certificate.family;
                    TypeTable types;
                    const int depth = 3;
                    std::size_t r = std::max<std::size_t>(f.r_min, (depth + 1) * (k + 1) + 2);
                    Word u = pumped(f.x, f.p, r, f.y), v = pumped(f.x, f.p, r, f.z);
                    CHECK(d.accepts(u) != d.accepts(v));
                    CHECK(types.eos_type(u, k, hybrid, depth) == types.eos_type(v, k, hybrid, depth));
                }
            }
            if (local) {  // LTL[Y<=k] ⊆ LTL[P,Y<=k]
                if (local->answer == Answer::Yes) CHECK(hyb.answer != Answer::No);
                if (hyb.answer == Answer::No) CHECK(local->answer != Answer::Yes);
            }
        }
    }
    CHECK(definite >= 10);
    CHECK(lrt >= 5);
    WARN("window decisions on random DFAs: " << total << ", unknown: " << unknown);
}

TEST_CASE("The window certificate checker rejects tampered certificates and malformed input", "[windows]") {
    Dfa d = dfa_of("Y a");
    WindowDecision w = decide_local_k(d, 2);
    REQUIRE(w.answer == Answer::No);
    Certificate c = w.certificate;
    CHECK(reverifies(c, d));
    // a family whose tails are not bisimilar (k = 2 window sees the last symbol difference "a" vs "b")
    Certificate bad = c;
    bad.family = WordFamily{{}, {1}, {0}, {}, 1, std::nullopt, {}, {}};
    CHECK(!reverifies(bad, d));
    // membership does not differ
    bad.family = WordFamily{{}, {0, 1}, {}, {0, 1}, 1, std::nullopt, {}, {}};
    CHECK(!reverifies(bad, d));
    // a "yes" with a formula outside the fragment, or defining another language
    Certificate yes = window_certificate(window_class_id(false, 2), true, CertificateKind::Formula);
    yes.formula = "Y a";
    CHECK(!reverifies(yes, d));  // LTL[Y], not LTL[Y<=2]
    yes.formula = "Y<=2 a";
    CHECK(!reverifies(yes, d));  // another language
    Dfa e = dfa_of("Y<=2 a");
    CHECK(reverifies(yes, e));
    yes.class_id = window_class_id(false, 3);
    CHECK(!reverifies(yes, e));  // Y<=2 is not in LTL[Y<=3] syntactically
    yes.class_id = window_class_id(true, 2);
    CHECK(reverifies(yes, e));
    std::string why;
    CHECK(!check_window_certificate("{not json", &why).ok());
    CHECK(!check_window_certificate(R"({"class": "local_k:2"})", &why).ok());
    CHECK(!check_window_certificate(cert_json(c, d).replace(cert_json(c, d).find("local_k:2"), 9, "local_k:1"), &why).ok());
}

// --- the bounded-depth probe (depth_probe.hh): an exact computation of "do the depth-d EOS types
// determine membership", compared with the direct per-word types, with the formula search (a
// "yes" formula of depth D means no conflict at depth D) and with the folded-graph "no"s (never
// separated at any depth).

TEST_CASE("Unknown and depth-type certificates: the checker re-verifies the depth bound and the exploration", "[windows]") {
    // δ = 12,11,31,00, F = {1}: "the word leaves (ba(a|b))*" (docs/WINDOWS.md §7), hybrid_k:2.
    Dfa d = ltlkit::testing::make_dfa(AB, 0, {0, 1, 0, 0}, {1, 2, 1, 1, 3, 1, 0, 0});
    Certificate u = window_certificate(window_class_id(true, 2), false, CertificateKind::SearchExhausted);
    u.unknown = true;
    u.pairs = {{*parse_word(AB, "baababa"), *parse_word(AB, "baabab")}};
    u.window = WindowFields{.k = 2, .depth_lower_bound = 2};
    CHECK(reverifies(u, d));
    u.window = WindowFields{.k = 2, .depth_lower_bound = 3};  // the depth-3 types of this pair differ
    CHECK(!reverifies(u, d));
    u.window = WindowFields{.k = 2, .depth_lower_bound = 2};
    u.pairs = {{*parse_word(AB, "baabab"), *parse_word(AB, "baababa")}};  // not [accepted, rejected]
    CHECK(!reverifies(u, d));
    u.window = WindowFields{.k = 2};  // no bound: nothing to re-verify
    CHECK(!reverifies(u, d));
    // A "yes" by exhaustive exploration: Y<=2 (a & Y<=2 b) has depth 2, so depth 2 separates and 1 does not.
    Dfa e = dfa_of("Y<=2 (a & Y<=2 b)");
    Certificate y = window_certificate(window_class_id(false, 2), true, CertificateKind::DepthTypes);
    y.window = WindowFields{.k = 2, .depth = 2};
    CHECK(reverifies(y, e));
    y.window = WindowFields{.k = 2, .depth = 1};
    CHECK(!reverifies(y, e));
    y.window = WindowFields{.k = 2};
    std::string why;
    CHECK(!check_window_certificate(cert_json(y, e), &why).ok());
}
