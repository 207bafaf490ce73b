// The subregular classes of docs/SUBREGULAR.md, each against a second route: the SL-k and SP-k
// languages rebuilt from their forbidden factors / subsequences (and languages built that way
// first, then classified), brute force over all words up to a length for closure properties and
// k-types, the semigroup identities evaluated on every pair of elements, the class table's own
// deciders; every certificate re-verified by the checker; the inclusions between the classes.
#include <catch2/catch.hpp>

#include <map>
#include <set>

#include "automata/algebra/classes.hh"
#include "automata/algebra/subregular.hh"
#include "automata/algebra/subregular_internal.hh"
#include "automata/dfa_json.hh"
#include "automata/algorithms.hh"
#include "support/dfa_builders.hh"

using namespace ltlkit;
using namespace ltlkit::automata;
using namespace ltlkit::automata::algebra;
using ltlkit::automata::algebra::subregular::sl_allowed_factors;
using ltlkit::automata::algebra::subregular::sl_all_factors;

namespace {

std::vector<Word> words_up_to(std::size_t ns, std::size_t len) {
    std::vector<Word> out{Word{}};
    for (std::size_t i = 0; i < out.size(); ++i)
        if (out[i].size() < len)
            for (Symbol a = 0; a < ns; ++a) {
                Word w = out[i];
                w.push_back(a);
                out.push_back(w);
            }
    return out;
}

std::map<std::string, SubregularDecision> by_id(const std::vector<SubregularDecision>& v) {
    std::map<std::string, SubregularDecision> m;
    for (const auto& d : v) m.emplace(to_string(d.id), d);
    return m;
}

std::size_t k_of(const SubregularDecision& d) { return d.params.at("k").get<std::size_t>(); }

// Every certificate holds under the independent checker.
void check_all_certificates(const Dfa& d, const std::vector<SubregularDecision>& ds) {
    for (const auto& x : ds) {
        if (!x.member) continue;
        std::string why;
        auto r = check_subregular_certificate(nlohmann::json::parse(subregular_certificate_json(x, d)), &why);
        INFO(to_string(x.id) << ": " << x.fact << " / " << why << "\n" << subregular_certificate_json(x, d));
        REQUIRE(r.ok());
        CHECK(*r);
    }
}

// Brute force: membership is a function of the type on all words up to max_len.
template <class F>
bool consistent_up_to(const Dfa& d, const std::vector<Word>& words, F type) {
    std::map<decltype(type(Word{})), bool> seen;
    for (const Word& w : words) {
        auto [it, fresh] = seen.emplace(type(w), d.accepts(w));
        if (!fresh && it->second != d.accepts(w)) return false;
    }
    return true;
}

}  // namespace

TEST_CASE("subregular classes agree with a second route on random minimal DFAs", "[subregular]") {
    Rng rng(35);
    std::size_t counts[4] = {0, 0, 0, 0};
    for (int iter = 0; iter < 800; ++iter) {
        const std::size_t n = 1 + rng.below(5), k = 2 + rng.below(2);
        const Dfa d = minimize(testing::random_shaped_dfa(rng, n, k));
        const auto all = classify_subregular(d);
        const auto m = by_id(all);
        INFO("iteration " << iter << ": " << to_json(d));
        check_all_certificates(d, all);
        const auto words = words_up_to(k, k == 2 ? 7 : 5);
        DfaAnalysis A(d);
        auto table = [&](const char* id) { return find_class(*parse_class_id(id))->by_dfa(A).member; };

        // finite / cofinite: pumping (an infinite set has a word of length in [n, 2n)).
        for (bool co : {false, true}) {
            const auto c = count_accepted(co ? complement(d) : d, 2 * d.num_states());
            bool finite = true;
            for (std::size_t len = d.num_states(); len < 2 * d.num_states(); ++len) finite &= c[len] == 0;
            CHECK(m.at(co ? "cofinite" : "finite").member == finite);
        }
        // SL: the pair graph's least k against the language of the allowed factors, k = 1..4.
        REQUIRE(m.at("SL").member.has_value());
        for (unsigned kk = 1; kk <= 4; ++kk) {
            auto allowed = sl_allowed_factors(d, kk, 1'000'000);
            REQUIRE(allowed);
            std::set<Word> ok(allowed->begin(), allowed->end());
            std::vector<Word> forbidden;
            for (const Word& f : sl_all_factors(k, kk))
                if (!ok.count(f)) forbidden.push_back(f);
            const bool sl_k = !distinguishing_word(sl_dfa_from_forbidden(d.alphabet, kk, forbidden), d);
            CHECK(sl_k == (*m.at("SL").member && k_of(m.at("SL")) <= kk));
        }
        // SP: closure under deleting a letter, by brute force on short words.
        bool closed = true;
        for (const Word& w : words)
            if (d.accepts(w))
                for (std::size_t i = 0; i < w.size() && closed; ++i) {
                    Word x = w;
                    x.erase(x.begin() + long(i));
                    closed = d.accepts(x);
                }
        if (m.at("SP").member == true) CHECK(closed);
        // LT, PT: the class table's deciders, and the least k against brute-force types.
        CHECK(m.at("LT").member == table("locally_testable"));
        CHECK(m.at("PT").member == table("piecewise_testable"));
        if (m.at("PT").params.contains("k"))
            CHECK(consistent_up_to(d, words, [&](const Word& w) { return pt_type(w, unsigned(k_of(m.at("PT")))); }));
        if (m.at("LT").params.contains("k"))
            CHECK(consistent_up_to(d, words, [&](const Word& w) { return lt_type(w, unsigned(k_of(m.at("LT")))); }));
        if (m.at("LTT").params.contains("t")) {
            const unsigned kk = unsigned(k_of(m.at("LTT"))), t = m.at("LTT").params.at("t").get<unsigned>();
            CHECK(consistent_up_to(d, words, [&](const Word& w) { return ltt_type(w, kk, t); }));
        }
        // DA, LTT, aperiodic commutative: the identities on every pair / the generators of the semigroup.
        auto S = SemigroupAnalysis::of(d, 5'000);
        REQUIRE(S.ok());
        const auto& s = (*S)->s;
        bool da = true, commutative = true;
        for (Element x = 0; x < s.size(); ++x)
            for (Element y = 0; y < s.size(); ++y) {
                const Element w = s.omega(s.product(x, y));
                da &= s.product(s.product(w, x), w) == w;
                commutative &= s.product(x, y) == s.product(y, x);
            }
        const bool aperiodic = (*S)->green.h_trivial(s.size());
        CHECK(m.at("DA").member == (aperiodic && da));
        CHECK(m.at("aperiodic_commutative").member == (aperiodic && commutative));
        // Inclusions (docs/SUBREGULAR.md §1).
        auto yes = [&](const char* id) { return m.at(id).member == true; };
        if (yes("finite") || yes("cofinite")) CHECK(table("definite"));
        if (yes("finite")) CHECK(yes("SL"));
        if (yes("SL")) CHECK((yes("LT") && yes("TSL") && k_of(m.at("TSL")) <= k_of(m.at("SL"))));
        if (yes("SL") && m.at("LT").params.contains("k")) CHECK(k_of(m.at("LT")) <= k_of(m.at("SL")));
        if (yes("LT")) CHECK(yes("LTT"));
        if (yes("SP")) CHECK(yes("PT"));
        if (yes("SP") && m.at("PT").params.contains("k")) CHECK(k_of(m.at("PT")) <= k_of(m.at("SP")));
        if (yes("PT")) CHECK((yes("DA") && table("r_trivial")));
        if (yes("aperiodic_commutative")) CHECK(yes("PT"));
        if (yes("LTT") || yes("DA")) CHECK(aperiodic);
        if (yes("LT")) CHECK(table("locally_r_trivial"));
        counts[0] += yes("SL"), counts[1] += yes("SP"), counts[2] += yes("LTT"), counts[3] += yes("DA");
    }
    // The draw reaches every class often enough for the checks above to mean something.
    for (std::size_t c : counts) CHECK(c >= 50);
}

TEST_CASE("languages built from forbidden factors and subsequences are classified back", "[subregular]") {
    Rng rng(7);
    for (int iter = 0; iter < 100; ++iter) {
        const std::size_t ns = 2 + rng.below(2);
        std::vector<std::string> alphabet;
        for (std::size_t a = 0; a < ns; ++a) alphabet.push_back(std::string(1, char('a' + a)));
        // SL-k from random forbidden factors.
        const unsigned k = 1 + unsigned(rng.below(3));
        std::vector<Word> all = sl_all_factors(ns, k), forbidden;
        for (const Word& f : all)
            if (rng.below(4) == 0) forbidden.push_back(f);
        const Dfa sl = sl_dfa_from_forbidden(alphabet, k, forbidden);
        const auto msl = by_id(classify_subregular(sl));
        INFO(to_json(sl));
        REQUIRE(msl.at("SL").member == true);
        CHECK(k_of(msl.at("SL")) <= k);
        check_all_certificates(sl, classify_subregular(sl));
        // SP from random forbidden subsequences of length 1..3.
        std::vector<Word> subs;
        const std::size_t count = rng.below(4);
        std::size_t longest = 0;
        for (std::size_t i = 0; i < count; ++i) {
            Word w(1 + rng.below(3));
            for (auto& x : w) x = Symbol(rng.below(ns));
            subs.push_back(w), longest = std::max(longest, w.size());
        }
        const Dfa sp = sp_dfa_from_forbidden(alphabet, subs);
        const auto msp = by_id(classify_subregular(sp));
        INFO(to_json(sp));
        REQUIRE(msp.at("SP").member == true);
        CHECK(k_of(msp.at("SP")) <= std::max<std::size_t>(longest, 1));
        check_all_certificates(sp, classify_subregular(sp));
    }
}

TEST_CASE("tampered subregular certificates are rejected", "[subregular]") {
    // "no aa" over {a, b}: SL-2 with the forbidden factor aa.
    const Dfa d = minimize(testing::make_dfa({"a", "b"}, 0, {1, 1, 0}, {1, 0, 2, 0, 2, 2}));
    const auto m = by_id(classify_subregular(d));
    REQUIRE(m.at("SL").member == true);
    REQUIRE(k_of(m.at("SL")) == 2);
    auto j = nlohmann::json::parse(subregular_certificate_json(m.at("SL"), d));
    REQUIRE(check_subregular_certificate(j).value());
    auto t = j;
    t["forbidden"].erase(0);  // one forbidden factor fewer: another language
    CHECK_FALSE(check_subregular_certificate(t).value());
    t = j;
    t["k"] = 3;  // the "below" triple has |x| = 1, not 2
    CHECK_FALSE(check_subregular_certificate(t).value());
    // SP: "at most one a" (forbidden subsequence aa).
    const Dfa sp = sp_dfa_from_forbidden({"a", "b"}, {Word{0, 0}});
    const auto msp = by_id(classify_subregular(sp));
    REQUIRE(msp.at("SP").member == true);
    CHECK(msp.at("SL").member == false);  // SP is not included in SL
    auto js = nlohmann::json::parse(subregular_certificate_json(msp.at("SP"), sp));
    REQUIRE(check_subregular_certificate(js).value());
    js["forbidden"] = nlohmann::json::array({"aaa"});
    CHECK_FALSE(check_subregular_certificate(js).value());
}

namespace {

bool refused(const nlohmann::json& j, std::string* why = nullptr) {
    auto r = check_subregular_certificate(j, why);
    return !r.ok() || !*r;
}

// (member, params) of a decision, the claim a certificate of that class makes.
nlohmann::json claim_of(const SubregularDecision& d) {
    return nlohmann::json{{"member", d.member ? nlohmann::json(*d.member) : nlohmann::json(nullptr)}, {"params", d.params}};
}

}  // namespace

TEST_CASE("forged subregular certificates are refused, genuine ones hold, over random minimal DFAs", "[subregular][certificates]") {
    // Each genuine certificate is forged field by field. A forged claim (class, member, params) is
    // refused unless it is what the deciders answer for that class; forged evidence (a word list,
    // the tier, forbidden factors, a refuting pair, a repeated field) is always refused.
    Rng rng(4404);
    std::map<std::string, std::size_t> forged, genuine;
    for (int iter = 0; iter < 160; ++iter) {
        Dfa d;
        const std::size_t ns = 2 + rng.below(2);
        std::vector<std::string> alphabet;
        for (std::size_t a = 0; a < ns; ++a) alphabet.push_back(std::string(1, char('a' + a)));
        if (iter % 3 == 0) {  // SL-k with k up to 3 (LT, LTT with k >= 2 follow)
            const unsigned k = 1 + unsigned(rng.below(3));
            std::vector<Word> f;
            for (const Word& w : sl_all_factors(ns, k))
                if (rng.below(4) == 0) f.push_back(w);
            d = sl_dfa_from_forbidden(alphabet, k, f);
        } else if (iter % 3 == 1) {
            std::vector<Word> f(1 + rng.below(2));
            for (auto& w : f) {
                w.resize(1 + rng.below(3));
                for (auto& x : w) x = Symbol(rng.below(ns));
            }
            d = sp_dfa_from_forbidden(alphabet, f);
        } else {
            d = minimize(testing::random_shaped_dfa(rng, 1 + rng.below(5), ns));
        }
        const auto all = classify_subregular(d);
        std::map<std::string, nlohmann::json> truth;
        for (const auto& x : all) truth[to_string(x.id)] = claim_of(x);
        auto claim_true = [&](const nlohmann::json& f) {
            if (!f.contains("class") || !f["class"].is_string() || !truth.count(f["class"].get<std::string>())) return false;
            return truth.at(f["class"]) == nlohmann::json{{"member", f["member"]}, {"params", f.value("params", nlohmann::json())}};
        };
        for (const auto& x : all) {
            if (!x.member) continue;
            const auto j = nlohmann::json::parse(subregular_certificate_json(x, d));
            INFO("iteration " << iter << " " << to_string(x.id) << ": " << j.dump());
            std::string why;
            CHECK_FALSE(refused(j, &why));
            INFO("genuine: " << why);
            ++genuine[to_string(x.id) + (*x.member ? "/yes" : "/no")];
            std::vector<std::pair<std::string, nlohmann::json>> claims, evidence;
            auto f = j;
            f["member"] = !*x.member;
            claims.push_back({"member", f});
            for (const auto& id : subregular_class_ids())
                if (id != x.id) f = j, f["class"] = to_string(id), claims.push_back({"class->" + to_string(id), f});
            for (const auto& [key, value] : j["params"].items()) {
                f = j, f["params"].erase(key), claims.push_back({"drop params." + key, f});
                if (value.is_number_unsigned()) {
                    for (int delta : {-1, 1}) {
                        const long long v = value.get<long long>() + delta;
                        if (v < 0) continue;
                        f = j, f["params"][key] = v;
                        if (j.contains(key)) f[key] = v;  // the repeated field forged too
                        claims.push_back({"params." + key + (delta > 0 ? "+1" : "-1"), f});
                    }
                }
            }
            for (const char* key : {"k", "t", "words", "k_above", "k_at_most"})
                if (!j["params"].contains(key)) f = j, f["params"][key] = 2, claims.push_back({std::string("add params.") + key, f});
            // Evidence.
            for (const char* key : {"k", "words"})
                if (j.contains(key) && j[key].is_number_unsigned()) f = j, f[key] = j[key].get<long long>() + 1, evidence.push_back({std::string("field ") + key, f});
            for (const char* key : {"forbidden", "accepted", "rejected", "tier"})
                if (j.contains(key) && j[key].is_array() && !j[key].empty()) {
                    f = j, f[key].erase(0), evidence.push_back({std::string("drop one of ") + key, f});
                    f = j, f[key].push_back(j[key][0]), evidence.push_back({std::string("repeat one of ") + key, f});
                    if (std::string(key) == "tier" && j["params"].contains("tier")) f = j, f["params"]["tier"].erase(0), f["tier"].erase(0), evidence.push_back({"tier and params.tier", f});
                }
            if (j.contains("tier") && j["tier"].size() < d.alphabet.size()) {
                f = j;
                for (const auto& a : d.alphabet)
                    if (std::find(j["tier"].begin(), j["tier"].end(), a) == j["tier"].end()) {
                        f["tier"].push_back(a);
                        if (j["params"].contains("tier")) f["params"]["tier"].push_back(a);
                    }
                evidence.push_back({"a free letter added to the tier", f});
            }
            for (const char* key : {"below", "below_k", "below_t"})
                if (j.contains(key) && j[key].contains("accepted")) {
                    f = j, std::swap(f[key]["accepted"], f[key]["rejected"]), evidence.push_back({std::string("swap ") + key, f});
                    f = j, f.erase(key), evidence.push_back({std::string("drop ") + key, f});
                }
            if (j.contains("below") && j["below"].contains("x")) f = j, f.erase("below"), evidence.push_back({"drop the SL triple", f});
            if (j.contains("by") && j["by"].contains("params") && j["by"]["params"].contains("k")) {
                f = j, f["by"]["params"]["k"] = j["by"]["params"]["k"].get<long long>() + 1, evidence.push_back({"the subclass's k", f});
            }
            // The DFA forged (an acceptance flipped or an edge redirected): the claim must hold of the new one.
            std::size_t tries = 0;
            for (std::size_t change = 0; change < d.num_states() * (1 + d.delta.size()); ++change) {
                Dfa e = d;
                if (change < d.num_states()) e.accepting[change] ^= 1;  // one state's acceptance, or one edge redirected
                else e.delta[change % d.delta.size()] = State((e.delta[change % d.delta.size()] + 1 + change / d.delta.size()) % d.num_states());
                if (!is_minimal(e)) continue;
                if (++tries > 6) break;
                f = j, f["dfa"] = nlohmann::json::parse(to_json(e));
                const bool same = claim_of(*decide_subregular(x.id, e)) == claim_of(x);
                INFO("forged dfa: " << f.dump());
                if (!same) {
                    CHECK(refused(f));
                    ++forged[to_string(x.id) + "/dfa"];
                    break;
                }
            }
            for (const auto& [what, c] : claims) {
                if (claim_true(c)) continue;
                INFO("forged " << what << ": " << c.dump());
                std::string w;
                CHECK(refused(c, &w));
                INFO("checker: " << w);
                const bool delta = what.size() > 2 && (what.substr(what.size() - 2) == "+1" || what.substr(what.size() - 2) == "-1");
                ++forged[to_string(x.id) + "/" + (delta ? what.substr(0, what.size() - 2) : what)];
            }
            for (const auto& [what, c] : evidence) {
                INFO("forged " << what << ": " << c.dump());
                std::string w;
                CHECK(refused(c, &w));
                INFO("checker: " << w);
                ++forged[to_string(x.id) + "/" + what];
            }
        }
    }
    // Every class met with both answers where the draw allows, and the fields that carry the
    // parameters were forged.
    for (const char* g : {"finite/yes", "finite/no", "cofinite/yes", "SL/yes", "SL/no", "TSL/yes", "TSL/no", "SP/yes", "SP/no", "LT/yes",
                          "LT/no", "PT/yes", "PT/no", "LTT/yes", "LTT/no", "DA/yes", "DA/no", "aperiodic_commutative/yes",
                          "aperiodic_commutative/no"}) {
        INFO(g);
        CHECK(genuine[g] >= 3);
    }
    for (const char* g : {"SL/params.k", "TSL/params.k", "TSL/drop one of tier", "SP/params.k", "LT/params.k", "PT/params.k", "LTT/params.k",
                          "LTT/params.t", "finite/params.words", "finite/drop one of accepted", "SL/drop one of forbidden",
                          "SP/drop one of forbidden", "LT/member", "PT/member", "SL/member", "LTT/member", "DA/member",
                          "aperiodic_commutative/member", "LTT/swap below_k", "LTT/swap below_t", "SL/class->SP", "SL/dfa", "LT/dfa",
                          "finite/dfa", "SP/dfa", "TSL/dfa", "LTT/dfa", "PT/dfa"}) {
        INFO(g);
        CHECK(forged[g] >= 1);
    }
}

TEST_CASE("reported parameters never contradict the class inclusions", "[subregular]") {
    // docs/SUBREGULAR.md §1: finite ⊆ SL-(longest+2), SL-k ⊆ LT-k ⊆ LTT-(k,1), SL-k ⊆ TSL-k,
    // SP-k ⊆ PT-k. With the default limits and with small ones (so that the searches stop early and
    // the subclass's k is what bounds the superclass's), every certificate holds too.
    Rng rng(4242);
    std::size_t bounded = 0;
    for (int iter = 0; iter < 300; ++iter) {
        const std::size_t ns = 2 + rng.below(2);
        Dfa d;
        if (iter % 2 == 0) {
            std::vector<std::string> alphabet;
            for (std::size_t a = 0; a < ns; ++a) alphabet.push_back(std::string(1, char('a' + a)));
            const unsigned k = 1 + unsigned(rng.below(4));
            std::vector<Word> f;
            for (const Word& w : sl_all_factors(ns, k))
                if (rng.below(5) == 0) f.push_back(w);
            d = sl_dfa_from_forbidden(alphabet, k, f);
        } else {
            d = minimize(testing::random_shaped_dfa(rng, 1 + rng.below(6), ns));
        }
        SubregularOptions small;
        small.max_k = 1 + unsigned(rng.below(3));
        small.max_t = 1 + unsigned(rng.below(2));
        small.max_type_states = 5 + rng.below(60);
        for (const SubregularOptions& o : {SubregularOptions{}, small}) {
            const auto all = classify_subregular(d, o);
            const auto m = by_id(all);
            INFO("iteration " << iter << ": " << to_json(d) << "\nmax_k " << o.max_k << " max_type_states " << o.max_type_states);
            for (const auto& x : all) INFO(to_string(x.id) << ": " << x.params.dump() << " " << x.fact);
            check_all_certificates(d, all);
            auto yes = [&](const char* id) { return m.at(id).member == true; };
            auto p = [&](const char* id) { return m.at(id).params; };
            // The least k of a superclass: exact, or between k_above + 1 and k_at_most.
            auto within = [&](const char* id, std::size_t upper) {
                const auto q = p(id);
                if (q.contains("k")) return q["k"].get<std::size_t>() <= upper;
                if (!q.contains("k_at_most") || q["k_at_most"].get<std::size_t>() > upper) return false;  // the bound is reported
                return !q.contains("k_above") || q["k_above"].get<std::size_t>() < upper;
            };
            if (yes("SL")) {
                const std::size_t k = p("SL")["k"];
                CHECK(yes("LT"));
                CHECK(within("LT", k));
                CHECK(yes("LTT"));
                CHECK(within("LTT", k));
                CHECK((yes("TSL") && p("TSL")["k"].get<std::size_t>() <= k));
                bounded += !p("LT").contains("k");
            }
            if (yes("LT") && p("LT").contains("k")) {
                const std::size_t k = p("LT")["k"];
                CHECK(within("LTT", k));
                if (p("LTT").contains("k") && p("LTT")["k"] == k) CHECK(p("LTT")["t"] == 1);  // (k,1) is lexicographically least
            }
            if (yes("SP") && p("SP").contains("k")) {
                CHECK(yes("PT"));
                CHECK(within("PT", p("SP")["k"].get<std::size_t>()));
            }
            if (yes("finite") && m.at("finite").certificate.contains("accepted")) {
                std::size_t longest = 0;
                for (const auto& w : m.at("finite").certificate["accepted"]) longest = std::max(longest, parse_word(d.alphabet, w.get<std::string>())->size());
                CHECK((yes("SL") && p("SL")["k"].get<std::size_t>() <= longest + 2));
            }
            // A superclass's least k never lies below a subclass's... the other way round: LT-k
            // languages that are SL have SL's k >= LT's k.
            if (yes("SL") && p("LT").contains("k")) CHECK(p("LT")["k"].get<std::size_t>() <= p("SL")["k"].get<std::size_t>());
        }
    }
    CHECK(bounded >= 10);  // the small limits made the subclass's bound matter
}
