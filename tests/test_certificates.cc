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
            // The reader types every kind-specific field ltlkit writes, window certificates' included,
            // and leaves none untyped; the class fields read by fields_from_json agree.
            CHECK(r.untyped.empty());
            CHECK(r.fields.index() == cert.fields.index());
            CHECK(to_json(r.fields, d.alphabet) == to_json(cert.fields, d.alphabet));  // words come back in name order
            CHECK(r.window == cert.window);
            auto typed = fields_from_json(nlohmann::json::parse(json), d.alphabet);
            REQUIRE(typed);
            CHECK(to_json(*typed, d.alphabet) == to_json(cert.fields, d.alphabet));
            CHECK(certificate_to_json(r, back->dfa) == json);
            kinds.insert(to_string(cert.kind));
            ++read;
        }
    }
    CHECK(read >= 500);
    CHECK(kinds.size() >= 8);
}

TEST_CASE("certificate_from_json types the fields of each kind and refuses a field of the wrong type", "[certificates]") {
    const Dfa d = ltlkit::testing::make_dfa({"a", "b"}, 0, {0, 1}, {1, 0, 1, 0});
    auto base = [&](const std::string& cls, const char* kind, nlohmann::json member) {
        nlohmann::json j = nlohmann::json::parse(to_json(d));
        return nlohmann::json{{"dfa", j}, {"class", cls}, {"member", member}, {"kind", kind}, {"fact", "f"}};
    };
    // Each kind's fields come back as its struct, and a key no struct covers stays untyped.
    auto depth = base("local_k:2", "depth_types", true);
    depth["k"] = 2;
    depth["depth"] = 3;
    depth["note"] = "kept";
    auto r = certificate_from_json(depth.dump());
    REQUIRE(r.ok());
    REQUIRE(r->certificate.window);
    CHECK(r->certificate.window->depth == 3u);
    CHECK(r->certificate.window->k == 2u);
    CHECK(r->certificate.untyped == nlohmann::ordered_json{{"note", "kept"}});
    CHECK(nlohmann::json::parse(certificate_to_json(r->certificate, r->dfa)) == depth);
    auto unknown = base("hybrid_k:3", "search_exhausted", nullptr);
    unknown["depth_lower_bound"] = 2;
    unknown["budget"] = {{"bound", "memory"}, {"bytes", 1024}, {"option", "--window-memory"}};
    r = certificate_from_json(unknown.dump());
    REQUIRE(r.ok());
    REQUIRE(r->certificate.window);
    const WindowFields& s = *r->certificate.window;
    CHECK(s.depth_lower_bound == 2u);
    REQUIRE(s.budget);
    CHECK((s.budget->bound == BudgetStop::Bound::Memory && s.budget->amount == 1024));
    auto implied = base("r_trivial", "implied", true);
    implied["by"] = "definite";
    r = certificate_from_json(implied.dump());
    REQUIRE(r.ok());
    CHECK(std::get<ImpliedFields>(r->certificate.fields).by == ClassId(ClassKind::Definite));
    // A window field of the wrong type: the reader refuses it in one line naming it (exit 2).
    const std::vector<std::pair<nlohmann::json, std::string>> bad = {
        {[&] { auto j = depth; j["depth"] = "three"; return j; }(), "depth"},
        {[&] { auto j = depth; j["types"] = 1; return j; }(), "types"},
        {[&] { auto j = unknown; j["depth_lower_bound"] = -1; return j; }(), "depth_lower_bound"},
        {[&] { auto j = depth; j["complete"] = {{"sigma", 2}}; return j; }(), "complete"},
        {[&] { auto j = base("hybrid_k:2", "hybrid_bisimulation", false); j["reduction"] = 7; return j; }(), "reduction"},
        {[&] { auto j = base("hybrid_k:2", "hybrid_bisimulation", false); j["x"] = "c"; return j; }(), "x"},
    };
    for (const auto& [j, field] : bad) {
        INFO(j.dump());
        auto e = certificate_from_json(j.dump());
        REQUIRE_FALSE(e.ok());
        const std::string line = e.error().one_line();
        INFO(line);
        CHECK(line.find(field) != std::string::npos);
        CHECK(line.find('\n') == std::string::npos);
        CHECK_FALSE(check_certificate_json(j.dump()).ok());
    }
    // A class field that names nothing stays untyped, as written; the checker refuses the certificate
    // where it would use the field: "by" naming no class fails, a missing one or an unknown identity
    // is bad input.
    auto forged = implied;
    forged["by"] = "nonsense";
    r = certificate_from_json(forged.dump());
    REQUIRE(r.ok());
    CHECK(std::holds_alternative<std::monostate>(r->certificate.fields));
    CHECK(r->certificate.untyped == nlohmann::ordered_json{{"by", "nonsense"}});
    std::string why;
    auto verdict = check_certificate_json(forged.dump(), &why);
    REQUIRE(verdict.ok());
    CHECK_FALSE(*verdict);
    CHECK(why.find("nonsense") != std::string::npos);
    const std::vector<std::pair<nlohmann::json, std::string>> refused = {
        {[&] { auto j = implied; j.erase("by"); return j; }(), "by"},
        {[&] { auto j = base("definite", "identity_violation", false); j["identity"] = "x_e"; j["words"] = {{"e", 3}}; return j; }(), "words"},
        {[&] { auto j = base("definite", "identity_violation", false); j["identity"] = "zz"; j["words"] = nlohmann::json::object(); return j; }(), "zz"},
    };
    for (const auto& [j, field] : refused) {
        INFO(j.dump());
        REQUIRE(certificate_from_json(j.dump()).ok());
        auto e = check_certificate_json(j.dump());
        REQUIRE_FALSE(e.ok());
        INFO(e.error().one_line());
        CHECK(e.error().one_line().find(field) != std::string::npos);
    }
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
