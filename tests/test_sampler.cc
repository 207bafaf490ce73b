// Sampler: counts against brute-force enumeration, chi-square uniformity, long lengths, BigUint.
#include <catch2/catch.hpp>

#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "automata/bigint.hh"
#include "automata/dfa.hh"
#include "automata/random.hh"
#include "automata/sampler.hh"
#include "support/dfa_builders.hh"

using namespace ltlkit::automata;

namespace {

using ltlkit::testing::make_dfa;

// Σ*a over {a, b, ...k symbols}: state 1 after an a.
Dfa ends_with_a(std::size_t k) {
    std::vector<std::string> alpha;
    for (std::size_t i = 0; i < k; ++i) alpha.push_back(std::string(1, static_cast<char>('a' + i)));
    std::vector<State> delta(2 * k, 0);
    delta[0 * k + 0] = 1;
    delta[1 * k + 0] = 1;
    return make_dfa(alpha, 0, {0, 1}, delta);
}

// Random complete DFA (fixed seed) with s states over k symbols.
Dfa random_dfa(Rng& rng, std::size_t s, std::size_t k) {
    std::vector<std::string> alpha;
    for (std::size_t i = 0; i < k; ++i) alpha.push_back(std::string(1, static_cast<char>('a' + i)));
    std::vector<std::uint8_t> acc(s);
    for (auto& x : acc) x = static_cast<std::uint8_t>(rng.below(2));
    std::vector<State> delta(s * k);
    for (auto& t : delta) t = static_cast<State>(rng.below(s));
    return make_dfa(alpha, 0, acc, delta);
}

bool run_accepts(const Dfa& d, const Word& w) {
    State q = d.initial;
    for (Symbol a : w) q = d.delta[q * d.alphabet.size() + a];
    return d.accepting[q] != 0;
}

// All words of length n in lexicographic order.
std::vector<Word> all_words(std::size_t n, std::size_t k) {
    std::vector<Word> out;
    Word w(n, 0);
    while (true) {
        out.push_back(w);
        std::size_t i = n;
        while (i > 0 && w[i - 1] == k - 1) w[--i] = 0;
        if (i == 0) break;
        ++w[i - 1];
    }
    return out;
}

// Upper critical value of chi-square with df degrees of freedom at p = 0.001 (Wilson–Hilferty).
double chi2_critical_001(double df) {
    const double z = 3.090232;
    double t = 1.0 - 2.0 / (9.0 * df) + z * std::sqrt(2.0 / (9.0 * df));
    return df * t * t * t;
}

}  // namespace

TEST_CASE("BigUint arithmetic agrees with 128-bit integers", "[sampler]") {
    Rng rng(7);
    for (int i = 0; i < 2000; ++i) {
        unsigned __int128 a = (static_cast<unsigned __int128>(rng.next() >> rng.below(64)) << 64) |
                              rng.next();
        unsigned __int128 b = rng.next() >> rng.below(64);
        auto big = [](unsigned __int128 v) {
            BigUint r(static_cast<std::uint64_t>(v >> 64));
            r.mul_small(1ULL << 32);
            r.mul_small(1ULL << 32);
            return r + BigUint(static_cast<std::uint64_t>(v));
        };
        auto dec = [](unsigned __int128 v) {
            if (v == 0) return std::string("0");
            std::string s;
            while (v) {
                s.insert(s.begin(), static_cast<char>('0' + static_cast<int>(v % 10)));
                v /= 10;
            }
            return s;
        };
        BigUint A = big(a), B = big(b);
        CHECK(A.to_string() == dec(a));
        CHECK((A + B).to_string() == dec(a + b));  // a < 2^128 - 2^64, b < 2^64: no overflow
        if (a >= b) CHECK((A - B).to_string() == dec(a - b));
        else CHECK((B - A).to_string() == dec(b - a));
        CHECK(((A <=> B) == std::strong_ordering::greater) == (a > b));
        BigUint q = A;
        std::uint64_t d = (rng.next() >> rng.below(63)) | 1;
        std::uint64_t rem = q.divmod_small(d);
        CHECK(q.to_string() == dec(a / d));
        CHECK(rem == static_cast<std::uint64_t>(a % d));
        BigUint parsed;
        REQUIRE(BigUint::from_string(dec(a), parsed));
        CHECK(parsed == A);
        CHECK(std::abs(A.log2() - std::log2(static_cast<double>(a))) < 1e-12 * std::max(1.0, A.log2()));
    }
}

TEST_CASE("sampler counts and enumeration equal brute-force enumeration", "[sampler]") {
    Rng rng(11);
    std::vector<Dfa> dfas = {ends_with_a(2), ends_with_a(3)};
    for (int i = 0; i < 30; ++i) dfas.push_back(random_dfa(rng, 1 + rng.below(6), 1 + rng.below(3)));
    for (const Dfa& d : dfas) {
        const std::size_t k = d.alphabet.size();
        auto s = Sampler::create(d, 8);
        REQUIRE(s.ok());
        for (std::size_t n = 0; n <= 8; ++n) {
            if (std::pow(static_cast<double>(k), static_cast<double>(n)) > 5000) break;
            std::vector<Word> by_label[2];
            for (const Word& w : all_words(n, k)) by_label[run_accepts(d, w)].push_back(w);
            for (int label = 0; label < 2; ++label) {
                const auto& expected = by_label[label];
                INFO("n=" << n << " label=" << label << " states=" << d.num_states());
                CHECK(s->count_exact(n, label) == std::to_string(expected.size()));
                CHECK(s->count(n, label) == static_cast<double>(expected.size()));
                CHECK(s->has_words(n, label) == !expected.empty());
                CHECK(s->has_at_least(n, label, expected.size()));
                CHECK_FALSE(s->has_at_least(n, label, expected.size() + 1));
                CHECK(s->enumerate(n, label, 1'000'000) == expected);
                if (expected.size() > 2) {
                    auto firsts = s->enumerate(n, label, 2);
                    CHECK(firsts == std::vector<Word>(expected.begin(), expected.begin() + 2));
                }
                if (!expected.empty()) {
                    Rng r2(n * 31 + label);
                    for (int t = 0; t < 20; ++t) {
                        Word w = s->sample(n, label, r2);
                        CHECK(w.size() == n);
                        CHECK(run_accepts(d, w) == (label == 1));
                    }
                }
            }
        }
    }
}

TEST_CASE("sampling is uniform over the words of a length with a label (chi-square, p = 0.001)",
          "[sampler]") {
    Rng rng(5);
    struct Case {
        Dfa dfa;
        std::size_t n;
    };
    std::vector<Case> cases = {{ends_with_a(2), 6}, {ends_with_a(3), 5}};
    // Random DFAs with skewed counts per state, so a non-uniform walk would show.
    while (cases.size() < 6) {
        Dfa d = random_dfa(rng, 4 + rng.below(4), 2 + rng.below(2));
        cases.push_back({d, d.alphabet.size() == 2 ? 7u : 5u});
    }
    for (const auto& c : cases) {
        auto s = Sampler::create(c.dfa, c.n);
        REQUIRE(s.ok());
        for (int label = 0; label < 2; ++label) {
            auto words = s->enumerate(c.n, label, 100'000);
            if (words.size() < 2) continue;
            std::map<Word, std::size_t> index;
            for (std::size_t i = 0; i < words.size(); ++i) index[words[i]] = i;
            const std::size_t per_word = 100;
            const std::size_t draws = per_word * words.size();
            std::vector<double> observed(words.size(), 0);
            Rng r(1234 + label);
            for (std::size_t i = 0; i < draws; ++i) {
                auto it = index.find(s->sample(c.n, label, r));
                REQUIRE(it != index.end());
                observed[it->second] += 1;
            }
            double stat = 0;
            for (double o : observed) stat += (o - per_word) * (o - per_word) / per_word;
            const double df = static_cast<double>(words.size() - 1);
            INFO("words=" << words.size() << " chi2=" << stat << " critical=" << chi2_critical_001(df));
            CHECK(stat < chi2_critical_001(df));
        }
    }
}

TEST_CASE("a walk biased towards the first symbol fails the same chi-square test", "[sampler]") {
    // Sanity check of the statistic: sampling a uniformly random symbol at each step (ignoring
    // counts) and rejecting is uniform; choosing each accepting word with probability ∝ 2^(#a)
    // is not, and the test must see it.
    Dfa d = ends_with_a(2);
    auto s = Sampler::create(d, 6);
    REQUIRE(s.ok());
    auto words = s->enumerate(6, true, 1000);
    std::map<Word, std::size_t> index;
    for (std::size_t i = 0; i < words.size(); ++i) index[words[i]] = i;
    std::vector<double> observed(words.size(), 0);
    Rng r(99);
    const std::size_t per_word = 100, draws = per_word * words.size();
    std::size_t got = 0;
    while (got < draws) {
        Word w(6);
        for (auto& x : w) x = r.uniform() < 0.6 ? 0 : 1;  // biased walk
        if (!run_accepts(d, w)) continue;
        observed[index.at(w)] += 1;
        ++got;
    }
    double stat = 0;
    for (double o : observed) stat += (o - per_word) * (o - per_word) / per_word;
    CHECK(stat > chi2_critical_001(static_cast<double>(words.size() - 1)));
}

TEST_CASE("lengths up to 1000 over 10 symbols: counts exact, words have the label", "[sampler]") {
    Dfa d = ends_with_a(10);
    auto s = Sampler::create(d, 1000);
    REQUIRE(s.ok());
    // Σ*a over 10 symbols: 10^(n-1) accepted, 9·10^(n-1) rejected.
    CHECK(s->count_exact(1000, true) == "1" + std::string(999, '0'));
    CHECK(s->count_exact(1000, false) == "9" + std::string(999, '0'));
    CHECK(std::isinf(s->count(1000, true)));
    // The floating counts agree with the exact ones (independent route: BigUint -> double).
    for (std::size_t n : {1u, 17u, 64u, 300u}) {
        for (int label = 0; label < 2; ++label) {
            BigUint exact;
            REQUIRE(BigUint::from_string(s->count_exact(n, label), exact));
            CHECK(std::abs(s->count(n, label) / exact.to_double() - 1.0) < 1e-12);
        }
    }
    CHECK(s->has_at_least(1000, false, UINT64_MAX));
    Rng rng(3);
    std::size_t last_a = 0;
    for (int i = 0; i < 200; ++i) {
        for (int label = 0; label < 2; ++label) {
            Word w = s->sample(1000, label, rng);
            REQUIRE(w.size() == 1000);
            CHECK(run_accepts(d, w) == (label == 1));
        }
        last_a += s->sample(1000, false, rng)[998] == 0;
    }
    // Among rejected words the second-to-last symbol is still uniform: ~1/10 are 'a'.
    CHECK(last_a > 5);
    CHECK(last_a < 45);

    // A sparse language: exactly one word a^n of each length (plus a sink); 10^-1000 of all words.
    std::vector<State> delta(2 * 10, 1);
    delta[0] = 0;
    Dfa only_a = make_dfa(d.alphabet, 0, {1, 0}, delta);
    auto s2 = Sampler::create(only_a, 1000);
    REQUIRE(s2.ok());
    CHECK(s2->count_exact(1000, true) == "1");
    CHECK(s2->has_words(1000, true));
    CHECK(s2->sample(1000, true, rng) == Word(1000, 0));
    CHECK(s2->enumerate(1000, true, 10) == std::vector<Word>{Word(1000, 0)});
    Word neg = s2->sample(1000, false, rng);
    CHECK_FALSE(run_accepts(only_a, neg));
}

TEST_CASE("same seed gives the same words, table limit is an error", "[sampler]") {
    Rng g(17);
    Dfa d = random_dfa(g, 5, 3);
    auto s = Sampler::create(d, 50);
    REQUIRE(s.ok());
    for (int label = 0; label < 2; ++label) {
        if (!s->has_words(50, label)) continue;
        Rng a(42), b(42);
        for (int i = 0; i < 20; ++i) CHECK(s->sample(50, label, a) == s->sample(50, label, b));
    }
    auto too_big = Sampler::create(d, 100000, 1 << 20);
    REQUIRE_FALSE(too_big.ok());
    CHECK(too_big.error().exit_code == 3);
    CHECK(s->count_method() == "log-double");
}
