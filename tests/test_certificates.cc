// Certificates (docs/CLASSES.md §3): every certificate classify emits on random DFAs re-verifies with the
// independent checker, and tampered certificates are rejected.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "automata/algebra/classes.hh"
#include "automata/algebra/classify.hh"
#include "automata/algorithms.hh"
#include "automata/dfa_json.hh"
#include "automata/random.hh"
#include "support/dfa_builders.hh"

using namespace ltlkit;
using namespace ltlkit::automata;
using namespace ltlkit::automata::algebra;

namespace {

using ltlkit::testing::random_shaped_dfa;

bool holds(const std::string& json, std::string* why = nullptr) {
    auto r = check_certificate_json(json, why);
    return r.ok() && *r;
}

}  // namespace

TEST_CASE("Every certificate emitted on random minimal DFAs re-verifies", "[certificates]") {
    Rng rng(123);
    ClassifyOptions o;
    o.max_k = 2;
    o.max_elements = 20'000;
    o.window_budget = 3'000;  // the windows search is helper G's; keep this test about certificates
    std::map<std::string, std::size_t> kinds;
    for (int iter = 0; iter < 120; ++iter) {
        Dfa d = minimize(random_shaped_dfa(rng, 2 + rng.below(5), 2 + rng.below(2)));
        o.max_k = iter % 6 == 0 ? 2 : 1;  // the windows (helper G's search) on a sixth of them
        auto c = classify(d, o);
        REQUIRE(c.ok());
        for (const auto& [id, cert] : c->certificates) {
            if (cert.kind == CertificateKind::SearchExhausted) continue;  // "unknown" answers prove nothing
            const std::string json = certificate_to_json(cert, d);
            std::string why;
            INFO("certificate " << id << " kind " << to_string(cert.kind) << ": " << json);
            bool ok = holds(json, &why);
            INFO("checker: " << why);
            CHECK(ok);
            kinds[id + "/" + to_string(cert.kind)]++;
            // Concrete pairs are [accepted, rejected].
            for (const auto& [u, v] : cert.pairs) {
                CHECK(d.accepts(u));
                CHECK(!d.accepts(v));
            }
        }
    }
    CHECK(kinds.size() >= 15);
}

TEST_CASE("Tampered certificates are rejected", "[certificates]") {
    Rng rng(77);
    ClassifyOptions o;
    o.max_k = 1;
    o.max_elements = 20'000;
    std::size_t tampered = 0;
    for (int iter = 0; iter < 80; ++iter) {
        Dfa d = minimize(random_shaped_dfa(rng, 3 + rng.below(4), 2));
        auto c = classify(d, o);
        REQUIRE(c.ok());
        Dfa e = d;
        e.accepting[0] ^= 1;
        const bool e_minimal = is_minimal(e);
        auto ce = classify(e, o);
        REQUIRE(ce.ok());
        for (const auto& [id, cert] : c->certificates) {
            auto j = nlohmann::json::parse(certificate_to_json(cert, d));
            // 1. Claim the opposite membership, keeping the evidence.
            {
                auto t = j;
                t["member"] = !j["member"].get<bool>();
                INFO("flipped " << t.dump());
                CHECK(!holds(t.dump()));
                ++tampered;
            }
            // 2. Another language: flip the acceptance of one state (and keep the claim).
            {
                if (e_minimal && id.find(':') == std::string::npos) {
                    auto t = j;
                    t["dfa"] = nlohmann::json::parse(to_json(e));
                    // The claim may still be true of the new language; only count it when it is not.
                    auto v = ce->classes.at(id);
                    if (v && *v != cert.member) {
                        INFO("other language " << t.dump());
                        CHECK(!holds(t.dump()));
                        ++tampered;
                    }
                }
            }
            // 3. Break a family: replace y by z so membership no longer differs.
            if (j.contains("family")) {
                auto t = j;
                t["family"]["z"] = t["family"]["y"];
                t["family"].erase("x2");
                INFO("family " << t.dump());
                CHECK(!holds(t.dump()));
                ++tampered;
            }
            // 4. A wrong member formula.
            if (j.contains("formula")) {
                auto t = j;
                t["formula"] = "Y a | P b";
                CHECK(!holds(t.dump()));
                ++tampered;
            }
        }
    }
    CHECK(tampered >= 500);
}

TEST_CASE("Malformed certificates are bad input, not a verdict", "[certificates]") {
    CHECK(!check_certificate_json("not json").ok());
    CHECK(!check_certificate_json("{}").ok());
    CHECK(!check_certificate_json(R"({"dfa": {"alphabet": ["a"]}, "class": "definite", "member": true, "kind": "x"})").ok());
    CHECK(!check_certificate_json(
               R"({"dfa": {"alphabet": ["a"], "initial": 0, "accepting": [0], "transitions": [[0]]}, "class": "nope", "member": true, "kind": "x"})")
               .ok());
}
