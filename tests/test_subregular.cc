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
    for (const auto& d : v) m.emplace(d.id, d);
    return m;
}

std::size_t k_of(const SubregularDecision& d) { return d.params.at("k").get<std::size_t>(); }

// Every certificate holds under the independent checker.
void check_all_certificates(const Dfa& d, const std::vector<SubregularDecision>& ds) {
    for (const auto& x : ds) {
        if (!x.member) continue;
        std::string why;
        auto r = check_subregular_certificate(nlohmann::json::parse(subregular_certificate_json(x, d)), &why);
        INFO(x.id << ": " << x.fact << " / " << why << "\n" << subregular_certificate_json(x, d));
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
        auto table = [&](const char* id) { return find_class(id)->by_dfa(A).member; };

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
