// Froidure–Pin enumeration and Green's relations, against closed formulas for the full
// transformation monoids T_n and against a naive breadth-first closure on random DFAs.
#include <catch2/catch.hpp>

#include <deque>
#include <map>
#include <set>

#include "automata/algebra/green.hh"
#include "automata/algebra/semigroup.hh"
#include "automata/random.hh"

using namespace ltlkit;
using namespace ltlkit::automata;
using namespace ltlkit::automata::algebra;

namespace {

// The three standard generators of T_n: a transposition, an n-cycle, a rank n-1 map.
std::vector<std::vector<State>> tn_generators(std::size_t n) {
    std::vector<std::vector<State>> g(3, std::vector<State>(n));
    for (std::size_t i = 0; i < n; ++i) g[0][i] = g[1][i] = g[2][i] = State(i);
    if (n >= 2) std::swap(g[0][0], g[0][1]);
    for (std::size_t i = 0; i < n; ++i) g[1][i] = State((i + 1) % n);
    g[2][n - 1] = 0;
    if (n == 1) g[2][0] = 0;
    return g;
}

std::size_t ipow(std::size_t b, std::size_t e) {
    std::size_t r = 1;
    while (e--) r *= b;
    return r;
}
std::size_t binom(std::size_t n, std::size_t k) {
    std::size_t r = 1;
    for (std::size_t i = 1; i <= k; ++i) r = r * (n - k + i) / i;
    return r;
}
std::size_t stirling2(std::size_t n, std::size_t k) {
    if (n == 0 && k == 0) return 1;
    if (n == 0 || k == 0) return 0;
    return k * stirling2(n - 1, k) + stirling2(n - 1, k - 1);
}

Dfa random_dfa(Rng& rng, std::size_t n, std::size_t k) {
    Dfa d;
    for (std::size_t a = 0; a < k; ++a) d.alphabet.push_back(std::string(1, char('a' + a)));
    d.accepting.resize(n);
    for (auto& x : d.accepting) x = std::uint8_t(rng.below(2));
    d.delta.resize(n * k);
    for (auto& t : d.delta) t = State(rng.below(n));
    return d;
}

}  // namespace

TEST_CASE("T_n has n^n elements, sum C(n,k) k^(n-k) idempotents and Green classes by rank, kernel and image", "[semigroup]") {
    for (std::size_t n = 1; n <= 6; ++n) {
        auto s = TransitionSemigroup::of_generators(n, tn_generators(n));
        REQUIRE(s.ok());
        CHECK(s->size() == ipow(n, n));
        std::size_t idem = 0;
        for (std::size_t k = 1; k <= n; ++k) idem += binom(n, k) * ipow(k, n - k);
        CHECK(s->idempotents().size() == idem);
        if (n <= 5) {
            auto g = green_classes(*s);
            std::size_t bell = 0, hs = 0;
            for (std::size_t k = 1; k <= n; ++k) bell += stirling2(n, k), hs += stirling2(n, k) * binom(n, k);
            CHECK(g.num_j == n);                    // D-classes = ranks
            CHECK(g.num_r == bell);                 // R-classes = kernels
            CHECK(g.num_l == ipow(2, n) - 1);       // L-classes = images
            CHECK(g.num_h == hs);
        }
    }
}

TEST_CASE("Froidure–Pin agrees with a naive breadth-first closure on random DFAs (sizes, shortlex words, Cayley graphs)", "[semigroup]") {
    Rng rng(7);
    for (int iter = 0; iter < 300; ++iter) {
        const std::size_t n = 1 + rng.below(6), k = 1 + rng.below(3);
        Dfa d = random_dfa(rng, n, k);
        const bool monoid = rng.below(2) == 1;
        SemigroupOptions o;
        o.monoid = monoid;
        auto s = TransitionSemigroup::of_dfa(d, o);
        REQUIRE(s.ok());
        // Naive BFS over transformations in shortlex order.
        std::map<std::vector<State>, Word> seen;
        std::deque<std::pair<std::vector<State>, Word>> queue;
        if (monoid) {
            std::vector<State> id(n);
            for (std::size_t q = 0; q < n; ++q) id[q] = State(q);
            seen[id] = {};
            queue.push_back({id, {}});
        }
        for (std::size_t a = 0; a < k; ++a) {
            std::vector<State> t(n);
            for (std::size_t q = 0; q < n; ++q) t[q] = d.next(State(q), Symbol(a));
            if (seen.emplace(t, Word{Symbol(a)}).second) queue.push_back({t, Word{Symbol(a)}});
        }
        while (!queue.empty()) {
            auto [t, w] = queue.front();
            queue.pop_front();
            for (std::size_t a = 0; a < k; ++a) {
                std::vector<State> u(n);
                for (std::size_t q = 0; q < n; ++q) u[q] = d.next(t[q], Symbol(a));
                Word wa = w;
                wa.push_back(Symbol(a));
                if (seen.emplace(u, wa).second) queue.push_back({u, wa});
            }
        }
        REQUIRE(s->size() == seen.size());
        for (Element e = 0; e < s->size(); ++e) {
            auto t = s->transformation(e);
            REQUIRE(seen.count(t));
            CHECK(s->word(e) == seen[t]);  // shortlex-least representative
            CHECK(s->length(e) == seen[t].size());
            for (std::size_t a = 0; a < k; ++a) {
                std::vector<State> r(n), l(n);
                for (std::size_t q = 0; q < n; ++q) r[q] = d.next(t[q], Symbol(a)), l[q] = t[d.next(State(q), Symbol(a))];
                CHECK(s->transformation(s->right(e, Symbol(a))) == r);
                CHECK(s->transformation(s->left(e, Symbol(a))) == l);
            }
            CHECK(s->find(t) == e);
        }
    }
}

TEST_CASE("Green's R and L classes agree with mutual divisibility computed from products", "[semigroup]") {
    Rng rng(11);
    for (int iter = 0; iter < 60; ++iter) {
        const std::size_t n = 2 + rng.below(4), k = 1 + rng.below(2);
        auto s = TransitionSemigroup::of_dfa(random_dfa(rng, n, k));
        REQUIRE(s.ok());
        if (s->size() > 300) continue;
        auto g = green_classes(*s);
        const std::size_t N = s->size();
        // xS¹ as sets via products.
        std::vector<std::set<Element>> rs(N), ls(N);
        for (Element x = 0; x < N; ++x) {
            rs[x].insert(x), ls[x].insert(x);
            for (Element y = 0; y < N; ++y) rs[x].insert(s->product(x, y)), ls[x].insert(s->product(y, x));
        }
        for (Element x = 0; x < N; ++x)
            for (Element y = 0; y < N; ++y) {
                CHECK((g.r[x] == g.r[y]) == (rs[x] == rs[y]));
                CHECK((g.l[x] == g.l[y]) == (ls[x] == ls[y]));
            }
    }
}

TEST_CASE("A semigroup over --max-elements stops with a limit error naming the option", "[semigroup]") {
    SemigroupOptions o;
    o.max_elements = 100;
    auto s = TransitionSemigroup::of_generators(5, tn_generators(5), o);
    REQUIRE(!s.ok());
    CHECK(s.error().exit_code == 3);
    CHECK(s.error().message.find("--max-elements") != std::string::npos);
}

TEST_CASE("The monoid adjoins the identity as element 0 with the empty word, omega is idempotent", "[semigroup]") {
    Rng rng(3);
    Dfa d = random_dfa(rng, 5, 2);
    SemigroupOptions o;
    o.monoid = true;
    auto m = TransitionSemigroup::of_dfa(d, o);
    REQUIRE(m.ok());
    CHECK(m->word(0).empty());
    CHECK(m->identity() == Element(0));
    for (Element e = 0; e < m->size(); ++e) {
        CHECK(m->is_idempotent(m->omega(e)));
        CHECK(m->product(0, e) == e);
        CHECK(m->of_word(m->word(e)) == e);
    }
}

TEST_CASE("T_8 (16,777,216 elements) is enumerated", "[semigroup][long]") {
    SemigroupOptions o;
    o.max_elements = 16'777'216;
    auto s = TransitionSemigroup::of_generators(8, tn_generators(8), o);
    REQUIRE(s.ok());
    CHECK(s->size() == 16'777'216);
}
