// Receptive-field ceilings (docs/CEILING.md): the dynamic programme against brute force over every
// word up to a length with EOS types computed naively from the definition on the whole word, for
// the LC26 languages and random minimal DFAs; the empirical ceiling against the same grouping;
// monotonicity in L, the constant answer, the k = 1 definite-degree cross-check, and the bounds.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "automata/algebra/classify.hh"
#include "automata/algorithms.hh"
#include "automata/ceiling.hh"
#include "automata/language.hh"
#include "automata/monitor.hh"
#include "ltl/parser.hh"
#include "support/dfa_builders.hh"

using namespace ltlkit;
using namespace ltlkit::automata;

namespace {

// type_L(n+1) as a string, straight from the definition on the whole word: positions 1..n+1, EOS a
// symbol of its own, window max(1, i-k) <= j < i, the multiset as a sorted list.
std::string naive_eos_type(const Word& w, unsigned k, unsigned L) {
    std::vector<std::string> t;
    for (Symbol a : w) t.push_back(std::to_string(a));
    t.push_back("$");
    for (unsigned l = 1; l <= L; ++l) {
        std::vector<std::string> next(t.size());
        for (std::size_t i = 1; i <= t.size(); ++i) {
            std::vector<std::string> window;
            for (std::size_t j = (i > k ? i - k : 1); j < i; ++j) window.push_back(t[j - 1]);
            std::sort(window.begin(), window.end());
            std::string s = "(" + t[i - 1] + ":";
            for (const auto& x : window) s += x + ",";
            next[i - 1] = s + ")";
        }
        t.swap(next);
    }
    return t.back();
}

std::vector<Word> all_words(std::size_t n, std::size_t sigma) {
    std::vector<Word> out{Word{}};
    for (std::size_t i = 0; i < n; ++i) {
        std::vector<Word> next;
        for (const auto& w : out)
            for (Symbol a = 0; a < sigma; ++a) {
                next.push_back(w);
                next.back().push_back(a);
            }
        out.swap(next);
    }
    return out;
}

struct Brute {
    double value = 0, constant = 0;
    std::map<std::size_t, double> optimum;  // per length, as a fraction of that length's share
};

// The label weights per length of each distribution, computed from the enumerated counts, then
// the best classifier of the naive types.
Brute brute_ceiling(const Dfa& d, CeilingDistribution dist, std::size_t lo, std::size_t hi, unsigned k, unsigned L,
                    std::size_t per_length = 512) {
    std::map<std::size_t, std::vector<Word>> words;
    std::map<std::size_t, std::array<double, 2>> count;
    for (std::size_t n = lo; n <= hi; ++n) {
        words[n] = all_words(n, d.num_symbols());
        count[n] = {0, 0};
        for (const auto& w : words[n]) count[n][d.accepts(w) ? 1 : 0] += 1;
    }
    std::map<std::size_t, std::array<double, 2>> weight;
    const double nlen = static_cast<double>(hi - lo + 1);
    if (dist == CeilingDistribution::Training) {
        std::vector<std::size_t> with[2], both;
        for (std::size_t n = lo; n <= hi; ++n) {
            for (int l = 0; l < 2; ++l)
                if (count[n][l] > 0) with[l].push_back(n);
            if (count[n][0] > 0 && count[n][1] > 0) both.push_back(n);
        }
        for (std::size_t n = lo; n <= hi; ++n) weight[n] = {0, 0};
        for (int l = 0; l < 2; ++l)
            for (std::size_t n : both.empty() ? with[l] : both)
                weight[n][l] = 0.5 / static_cast<double>((both.empty() ? with[l] : both).size());
    } else if (dist == CeilingDistribution::Test) {
        for (std::size_t n = lo; n <= hi; ++n) {
            const bool both = count[n][0] > 0 && count[n][1] > 0;
            double s[2];
            for (int l = 0; l < 2; ++l) {
                const double quota = both ? (l ? (per_length + 1) / 2 : per_length / 2) : per_length;
                s[l] = std::min(quota, count[n][l]);
            }
            for (int l = 0; l < 2; ++l) weight[n][l] = s[l] / (s[0] + s[1]) / nlen;
        }
    } else {
        for (std::size_t n = lo; n <= hi; ++n) {
            const double all = count[n][0] + count[n][1];
            for (int l = 0; l < 2; ++l) weight[n][l] = count[n][l] / all / nlen;
        }
    }
    Brute b;
    std::map<std::string, std::array<double, 2>> W;
    double total[2] = {0, 0};
    for (std::size_t n = lo; n <= hi; ++n) {
        std::map<std::string, std::array<double, 2>> at;
        for (const auto& w : words[n]) {
            const int l = d.accepts(w) ? 1 : 0;
            if (weight[n][l] == 0) continue;
            const double x = weight[n][l] / count[n][l];
            const std::string t = naive_eos_type(w, k, L);
            W[t][l] += x;
            at[t][l] += x;
        }
        double opt = 0;
        for (const auto& [t, x] : at) opt += std::max(x[0], x[1]);
        const double share = weight[n][0] + weight[n][1];
        if (share > 0) b.optimum[n] = opt / share;
        for (int l = 0; l < 2; ++l) total[l] += weight[n][l];
    }
    for (const auto& [t, x] : W) b.value += std::max(x[0], x[1]);
    b.constant = std::max(total[0], total[1]);
    return b;
}

Dfa regex_dfa(const std::string& regex, const std::vector<std::string>& alphabet) {
    LanguageSpec spec;
    spec.kind = InputKind::Regex;
    spec.text = regex;
    spec.alphabet = alphabet;
    auto l = load_language(spec);
    REQUIRE(l.ok());
    return l->dfa;
}

struct Lc26 {
    std::string name, regex;
    std::vector<std::string> alphabet;
};
const std::vector<Lc26> kLc26 = {
    {"SIGMA*A", ".*a", {"a", "b"}},
    {"SIGMA*AB", ".*ab", {"a", "b"}},
    {"ASIGMA*", "a.*", {"a", "b"}},
    {"SUBSEQ-AB", ".*a.*b.*", {"a", "b"}},
    {"(AB)*", "(ab)*", {"a", "b"}},
    {"FACTOR-AB", ".*ab.*", {"a", "b", "c"}},
    {"RDP-1-C", "(a|b1|c)* a (b0|c)*", {"a", "b0", "b1", "c"}},
    {"DYCK-2-BOUNDED", "(a(ab)*b)*", {"a", "b"}},
};

// The longest length whose words are enumerated for an alphabet.
std::size_t brute_max(std::size_t sigma) { return sigma == 2 ? 11 : sigma == 3 ? 7 : 6; }

CeilingResult ceiling(const Dfa& d, unsigned k, unsigned L, CeilingDistribution dist, std::size_t lo, std::size_t hi,
                      std::size_t per_length = 512) {
    CeilingQuery q;
    q.arch = "local-" + std::to_string(k);
    q.layers = L;
    q.distribution = dist;
    q.lengths = {lo, hi};
    q.per_length = per_length;
    auto r = receptive_field_ceiling(d, q);
    INFO((r ? "" : r.error().message));
    REQUIRE(r.ok());
    return *r;
}

void check_against_brute(const Dfa& d, unsigned k, unsigned L, CeilingDistribution dist, std::size_t lo, std::size_t hi,
                         std::size_t per_length = 512) {
    INFO("k=" << k << " L=" << L << " " << to_string(dist) << " " << lo << ":" << hi);
    const Brute b = brute_ceiling(d, dist, lo, hi, k, L, per_length);
    const CeilingResult r = ceiling(d, k, L, dist, lo, hi, per_length);
    REQUIRE(r.exact);
    CHECK(*r.value == Approx(b.value).epsilon(1e-12).margin(1e-12));
    CHECK(r.constant_accuracy == Approx(b.constant).epsilon(1e-12));
    for (const auto& row : r.per_length_rows) {
        if (row.share == 0) continue;
        INFO("length " << row.length);
        CHECK(row.optimum == Approx(b.optimum.at(row.length)).epsilon(1e-12).margin(1e-12));
        REQUIRE(row.accuracy);
        CHECK(*row.accuracy <= row.optimum + 1e-12);
    }
}

std::vector<Dfa> random_minimal_dfas(std::uint64_t seed, std::size_t count) {
    Rng rng(seed);
    std::vector<Dfa> out;
    while (out.size() < count) {
        const std::size_t n = 2 + rng.below(5), s = 2 + rng.below(2);
        Dfa m = minimize(ltlkit::testing::random_shaped_dfa(rng, n, s));
        if (m.num_states() < 2) continue;
        out.push_back(m);
    }
    return out;
}

}  // namespace

TEST_CASE("the ceiling equals brute force over all words on the LC26 languages (L, k in 1..3)", "[ceiling]") {
    for (const auto& lang : kLc26) {
        INFO(lang.name);
        const Dfa d = regex_dfa(lang.regex, lang.alphabet);
        const std::size_t hi = brute_max(d.num_symbols());
        for (unsigned k = 1; k <= 3; ++k)
            for (unsigned L = 1; L <= 3; ++L) {
                check_against_brute(d, k, L, CeilingDistribution::Training, 1, hi);
                check_against_brute(d, k, L, CeilingDistribution::Uniform, 0, hi);
                check_against_brute(d, k, L, CeilingDistribution::Test, 2, hi, 6);
            }
    }
}

TEST_CASE("the ceiling equals brute force on 40 random minimal DFAs (2-6 states, 2-3 letters)", "[ceiling]") {
    const auto dfas = random_minimal_dfas(30, 40);
    for (std::size_t i = 0; i < dfas.size(); ++i) {
        INFO("DFA " << i);
        const Dfa& d = dfas[i];
        const std::size_t hi = std::min<std::size_t>(brute_max(d.num_symbols()), 9);
        const unsigned k = 1 + static_cast<unsigned>(i % 3), L = 1 + static_cast<unsigned>((i / 3) % 3);
        CeilingQuery q;
        q.arch = "local-" + std::to_string(k);
        q.layers = L;
        q.lengths = {1, hi};
        if (receptive_field_ceiling(d, q).ok()) check_against_brute(d, k, L, CeilingDistribution::Training, 1, hi);
        check_against_brute(d, k, L, CeilingDistribution::Uniform, 1, hi);
        check_against_brute(d, k, L, CeilingDistribution::Test, 0, hi, 4);
    }
}

TEST_CASE("EOS types of the programme's word route agree with the naive types on random word pairs", "[ceiling]") {
    Rng rng(7);
    for (int round = 0; round < 3000; ++round) {
        const unsigned k = 1 + static_cast<unsigned>(rng.below(3)), L = 1 + static_cast<unsigned>(rng.below(3));
        Word u, v;
        const std::size_t nu = rng.below(12), nv = rng.below(12);
        for (std::size_t i = 0; i < nu; ++i) u.push_back(static_cast<Symbol>(rng.below(2)));
        // Half the time v shares u's suffix, so that equal types are frequent.
        if (rng.below(2)) {
            v = u;
            if (!v.empty()) v.erase(v.begin(), v.begin() + static_cast<long>(rng.below(v.size())));
            for (std::size_t i = 0; i < nv % 4; ++i) v.insert(v.begin(), static_cast<Symbol>(rng.below(2)));
        } else {
            for (std::size_t i = 0; i < nv; ++i) v.push_back(static_cast<Symbol>(rng.below(2)));
        }
        INFO("k=" << k << " L=" << L);
        CHECK(same_eos_type(u, v, 2, k, L) == (naive_eos_type(u, k, L) == naive_eos_type(v, k, L)));
    }
}

TEST_CASE("the empirical ceiling equals the best grouping by naive types, both weightings", "[ceiling]") {
    Rng rng(11);
    for (int round = 0; round < 30; ++round) {
        const unsigned k = 1 + static_cast<unsigned>(rng.below(3)), L = 1 + static_cast<unsigned>(rng.below(3));
        std::vector<Example> sample;
        for (int i = 0; i < 300; ++i) {
            Example e;
            const std::size_t n = rng.below(10);
            for (std::size_t j = 0; j < n; ++j) e.word.push_back(static_cast<Symbol>(rng.below(2)));
            e.label = rng.below(3) == 0 || (!e.word.empty() && e.word.back() == 0);
            sample.push_back(e);
        }
        for (auto weighting : {CeilingWeighting::Words, CeilingWeighting::Lengths}) {
            std::map<std::size_t, double> per_len;
            for (const auto& e : sample) per_len[e.word.size()] += 1;
            std::map<std::string, std::array<double, 2>> W;
            for (const auto& e : sample) {
                const double x = weighting == CeilingWeighting::Words
                                     ? 1.0 / static_cast<double>(sample.size())
                                     : 1.0 / static_cast<double>(per_len.size()) / per_len[e.word.size()];
                W[naive_eos_type(e.word, k, L)][e.label ? 1 : 0] += x;
            }
            double brute = 0;
            for (const auto& [t, x] : W) brute += std::max(x[0], x[1]);
            CeilingQuery q;
            q.arch = "local-" + std::to_string(k);
            q.layers = L;
            q.distribution = CeilingDistribution::Empirical;
            q.weighting = weighting;
            auto r = empirical_ceiling(sample, 2, q);
            REQUIRE(r.ok());
            CHECK(*r->value == Approx(brute).epsilon(1e-12));
            CHECK(r->types == W.size());
        }
    }
}

TEST_CASE("the ceiling is non-decreasing in L and at least the best constant answer", "[ceiling]") {
    const auto dfas = random_minimal_dfas(31, 25);
    for (const auto& d : dfas)
        for (unsigned k = 1; k <= 2; ++k) {
            double prev = 0;
            for (unsigned L = 1; L <= 4; ++L) {
                const auto r = ceiling(d, k, L, CeilingDistribution::Uniform, 1, 30);
                REQUIRE(r.exact);
                CHECK(*r.value >= prev - 1e-12);
                CHECK(*r.value >= r.constant_accuracy - 1e-12);
                CHECK(*r.value <= 1 + 1e-12);
                prev = *r.value;
            }
        }
}

TEST_CASE("k = 1: a definite language of degree d has ceiling 100% from L = d on (the classifier's degree)", "[ceiling]") {
    const std::vector<std::string> formulas = {"a", "Y a", "b & Y a", "Y Y b | (a & Y b)", "Y(a & Y(b & Y a))"};
    for (const auto& text : formulas) {
        INFO(text);
        auto f = ltl::parse_formula(text);
        REQUIRE(f.ok());
        auto c = compile(*f, {"a", "b"});
        REQUIRE(c.ok());
        const Dfa d = minimize(*c);
        algebra::ClassifyOptions o;
        o.max_k = 1;
        auto cls = algebra::classify(d, o);
        REQUIRE(cls.ok());
        REQUIRE(cls->definite_degree);
        const unsigned deg = static_cast<unsigned>(*cls->definite_degree);
        for (auto dist : {CeilingDistribution::Uniform, CeilingDistribution::Test}) {
            const auto at = ceiling(d, 1, std::max(1u, deg), dist, dist == CeilingDistribution::Test ? 41 : 1,
                                    dist == CeilingDistribution::Test ? 200 : 40);
            CHECK(*at.value == Approx(1.0).epsilon(1e-15));
            if (deg >= 2) {
                const auto below = ceiling(d, 1, deg - 1, dist, 1, 40);
                CHECK(*below.value < 1 - 1e-9);
            }
        }
    }
}

TEST_CASE("over budget the bounds bracket the exact ceiling, and the lower one is exact at its depth", "[ceiling]") {
    for (const auto& lang : kLc26) {
        INFO(lang.name);
        const Dfa d = regex_dfa(lang.regex, lang.alphabet);
        for (auto dist : {CeilingDistribution::Training, CeilingDistribution::Uniform}) {
            CeilingQuery q;
            q.arch = "local-2";
            q.layers = 3;
            q.distribution = dist;
            q.lengths = {1, 30};
            auto exact = receptive_field_ceiling(d, q);
            REQUIRE(exact.ok());
            REQUIRE(exact->exact);
            for (std::size_t budget : {std::size_t(3), std::size_t(40), std::size_t(200)}) {
                q.max_states = budget;
                auto b = receptive_field_ceiling(d, q);
                REQUIRE(b.ok());
                if (b->exact) continue;
                CHECK(!b->value);
                CHECK(!b->reason.empty());
                CHECK(b->lower <= *exact->value + 1e-12);
                CHECK(b->upper >= *exact->value - 1e-12);
                CHECK(b->lower >= b->constant_accuracy - 1e-12);
                for (std::size_t i = 0; i < b->per_length_rows.size(); ++i) {
                    CHECK(b->per_length_rows[i].optimum <= exact->per_length_rows[i].optimum + 1e-12);
                    CHECK(b->per_length_rows[i].optimum_upper >= exact->per_length_rows[i].optimum - 1e-12);
                }
                if (b->lower_layers > 0) {
                    CeilingQuery lq = q;
                    lq.layers = b->lower_layers;
                    lq.max_states = 4'000'000;
                    CHECK(b->lower == Approx(*receptive_field_ceiling(d, lq)->value).epsilon(1e-12));
                }
            }
        }
    }
}

TEST_CASE("architectures without a window, L < 1 and bad lengths are errors, not crashes", "[ceiling]") {
    const Dfa d = regex_dfa(".*a", {"a", "b"});
    for (const std::string arch : {"global", "hybrid-2", "lstm", "local-0", "local-x", "bogus"}) {
        CeilingQuery q;
        q.arch = arch;
        auto r = receptive_field_ceiling(d, q);
        CHECK(!r.ok());
        CHECK(!empirical_ceiling({Example{}}, 2, q).ok());
    }
    CeilingQuery q;
    q.layers = 0;
    CHECK(!receptive_field_ceiling(d, q).ok());
    q.layers = 2;
    q.distribution = CeilingDistribution::Empirical;
    CHECK(!receptive_field_ceiling(d, q).ok());
    // (ab)* has no accepted word of odd length: a training range of one odd length has no
    // training distribution, as in neural/data.cc.
    q.distribution = CeilingDistribution::Training;
    q.lengths = {3, 3};
    CHECK(!receptive_field_ceiling(regex_dfa("(ab)*", {"a", "b"}), q).ok());
}

TEST_CASE("the JSON has every documented key", "[ceiling]") {
    const Dfa d = regex_dfa(".*ab", {"a", "b"});
    const auto r = ceiling(d, 2, 2, CeilingDistribution::Test, 41, 60, 512);
    const auto j = nlohmann::json::parse(ceiling_to_json(r));
    for (const char* key : {"arch", "window", "layers", "distribution", "lengths", "per_length", "exact", "value", "lower",
                            "upper", "lower_layers", "reason", "constant_accuracy", "constant_label", "types",
                            "states_explored", "seconds", "per_length_rows"})
        CHECK(j.contains(key));
    CHECK(j["per_length_rows"].size() == 20);
    CHECK(j["lengths"] == "41:60");
}
