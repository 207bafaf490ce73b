// Certificates (docs/CLASSES.md §3): every certificate classify emits on random DFAs re-verifies with the
// independent checker, tampered certificates are rejected, and the typed reader (certificate_from_json)
// inverts the writer and names the bad field of a malformed certificate.
#include <catch2/catch.hpp>

#include <set>

#include <nlohmann/json.hpp>

#include "automata/algebra/certificate_json.hh"
#include "automata/algebra/classes.hh"
#include "automata/algebra/classify.hh"
#include "automata/algebra/subregular.hh"
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
            kinds[to_string(id) + "/" + to_string(cert.kind)]++;
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
                if (e_minimal && !id.is_window()) {
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

TEST_CASE("certificate_from_json inverts certificate_to_json on every certificate of random DFAs", "[certificates]") {
    Rng rng(321);
    ClassifyOptions o;
    o.max_elements = 20'000;
    o.window_budget = 3'000;
    std::set<std::string> kinds;
    std::size_t read = 0;
    for (int iter = 0; iter < 60; ++iter) {
        Dfa d = minimize(random_shaped_dfa(rng, 2 + rng.below(5), 2 + rng.below(2)));
        o.max_k = iter % 4 == 0 ? 2 : 1;  // window certificates (families with loop markers, unknowns) too
        auto c = classify(d, o);
        REQUIRE(c.ok());
        for (const auto& [id, cert] : c->certificates) {
            const std::string json = certificate_to_json(cert, d);
            INFO(json);
            auto back = certificate_from_json(json);
            INFO((back.ok() ? "" : back.error().message));
            REQUIRE(back.ok());
            // Two routes to the same certificate: its fields as read, and the writer on what was read.
            const Certificate& r = back->certificate;
            CHECK(back->dfa == d);
            CHECK(r.class_id == cert.class_id);
            CHECK(r.kind == cert.kind);
            CHECK(r.unknown == cert.unknown);
            if (!cert.unknown) CHECK(r.member == cert.member);
            CHECK(r.fact == cert.fact);
            CHECK(r.formula == cert.formula);
            CHECK(r.pairs == cert.pairs);
            CHECK(r.family.has_value() == cert.family.has_value());
            if (cert.family && r.family) CHECK(family_to_json(*r.family, d.alphabet) == family_to_json(*cert.family, d.alphabet));
            // The reader keeps the kind-specific fields untyped; they are the typed fields' to_json and the
            // others, and fields_from_json reads the typed ones back.
            nlohmann::json fields = to_json(cert.fields, d.alphabet);
            const nlohmann::json others = nlohmann::json::parse(cert.extra_json);
            for (auto it = others.begin(); it != others.end(); ++it) fields[it.key()] = it.value();
            CHECK(nlohmann::json::parse(r.extra_json) == fields);
            auto typed = fields_from_json(nlohmann::json::parse(json), d.alphabet);
            REQUIRE(typed);
            CHECK(to_json(*typed, d.alphabet) == to_json(cert.fields, d.alphabet));  // words come back in name order
            CHECK(certificate_to_json(r, back->dfa) == json);
            kinds.insert(to_string(cert.kind));
            ++read;
        }
    }
    CHECK(read >= 500);
    CHECK(kinds.size() >= 8);
}

TEST_CASE("certificate_from_json refuses a malformed certificate with one line naming the field", "[certificates]") {
    Certificate cert;
    cert.class_id = ClassKind::Definite;
    cert.member = false;
    cert.kind = CertificateKind::SuffixFamily;
    cert.fact = "a fact";
    cert.family = WordFamily{{0}, {1}, {0}, {0}, 1, Word{1}, {}, {}};
    cert.pairs = {{Word{0}, Word{1}}};
    const Dfa d = ltlkit::testing::make_dfa({"a", "b"}, 0, {0, 1}, {1, 0, 1, 0});
    const auto good = nlohmann::json::parse(certificate_to_json(cert, d));
    REQUIRE(certificate_from_json(good.dump()).ok());
    const std::vector<std::pair<std::string, nlohmann::json>> bad = {
        {"dfa", {{"alphabet", {"a"}}}},
        {"class", 3},
        {"member", "yes"},
        {"kind", "x"},
        {"kind", 1},
        {"fact", false},
        {"formula", 2},
        {"formula_omitted", nlohmann::json::array()},
        {"family", "x p y"},
        {"family", {{"x", "a"}, {"p", "c"}, {"y", ""}, {"z", ""}}},
        {"family", {{"x", "a"}, {"p", "a"}, {"y", ""}, {"z", ""}, {"x2", 3}}},
        {"pairs", nlohmann::json::parse(R"([["a"]])")},
        {"pairs", nlohmann::json::parse(R"([["a", "c"]])")},
        {"pairs", "a b"},
    };
    for (const auto& [field, value] : bad) {
        auto j = good;
        j[field] = value;
        auto r = certificate_from_json(j.dump());
        INFO(field << " = " << value.dump());
        REQUIRE_FALSE(r.ok());
        const std::string line = r.error().one_line();
        INFO(line);
        CHECK(line.find(field) != std::string::npos);
        CHECK(line.find('\n') == std::string::npos);
        CHECK_FALSE(check_certificate_json(j.dump()).ok());  // bad input for the checker too
    }
    for (const char* missing : {"dfa", "class", "member", "kind"}) {
        auto j = good;
        j.erase(missing);
        auto r = certificate_from_json(j.dump());
        REQUIRE_FALSE(r.ok());
        CHECK(r.error().message.find(std::string("\"") + missing + "\"") != std::string::npos);
    }
    CHECK_FALSE(certificate_from_json("[1, 2]").ok());
    CHECK_FALSE(certificate_from_json("{").ok());
}

TEST_CASE("check_certificate_json refuses forged subregular certificates given as text", "[certificates][subregular]") {
    // The public entry point (ltlkit check-certificate, Python check_certificate) dispatches the
    // subregular certificates to their checker: genuine ones hold, a forged member flag or least k
    // does not (docs/SUBREGULAR.md §6). Issue 44's forgery: LT / PT member with k = 1 for a
    // language that is not LT / PT.
    Rng rng(4401);
    std::size_t forged = 0;
    for (int iter = 0; iter < 60; ++iter) {
        Dfa d = minimize(random_shaped_dfa(rng, 2 + rng.below(4), 2));
        for (const auto& x : classify_subregular(d)) {
            if (!x.member) continue;
            auto j = nlohmann::json::parse(subregular_certificate_json(x, d));
            INFO(to_string(x.id) << ": " << j.dump());
            CHECK(holds(j.dump()));
            auto f = j;
            f["member"] = !*x.member;
            CHECK_FALSE(holds(f.dump()));
            if (!*x.member && (x.id == ClassKind::LT || x.id == ClassKind::PT)) {
                f = j;
                f["member"] = true, f["k"] = 1, f["params"] = {{"k", 1}};
                CHECK_FALSE(holds(f.dump()));
                f.erase("params");
                CHECK_FALSE(holds(f.dump()));
                ++forged;
            }
            if (x.params.contains("k")) {
                f = j;
                f["params"]["k"] = x.params["k"].get<int>() + 1;
                if (f.contains("k")) f["k"] = f["params"]["k"];
                CHECK_FALSE(holds(f.dump()));
                ++forged;
            }
        }
    }
    CHECK(forged >= 40);
}
