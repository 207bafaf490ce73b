// Benchmarks of the syntactic semigroup and the class tests (numbers in docs/PERFORMANCE.md):
//  1. Froidure–Pin on the full transformation monoids T_n (n = 5..8, three standard generators):
//     elements/s and peak RSS, with a naive std::set breadth-first closure as the in-process
//     reference for n <= 6;
//  2. the transition monoids of the suite languages (examples/*.suite);
//  3. the polynomial DFA class tests on random minimal DFAs of 10^2..10^4 states over 3 letters.
// Usage: bench_semigroup [--quick] [SOURCE_DIR]   (--quick stops T_n at n = 7)
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <deque>
#include <map>
#include <set>
#include <string>

#include "automata/algebra/classes.hh"
#include "automata/algebra/semigroup.hh"
#include "automata/algorithms.hh"
#include "automata/language.hh"
#include "automata/random.hh"

using namespace ltlkit;
using namespace ltlkit::automata;
using namespace ltlkit::automata::algebra;

namespace {

double now() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
long peak_rss_mib() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss / 1024;
}

std::vector<std::vector<State>> tn(std::size_t n) {
    std::vector<std::vector<State>> g(3, std::vector<State>(n));
    for (std::size_t i = 0; i < n; ++i) g[0][i] = g[2][i] = State(i), g[1][i] = State((i + 1) % n);
    std::swap(g[0][0], g[0][1]);
    g[2][n - 1] = 0;
    return g;
}

std::size_t naive_closure(const std::vector<std::vector<State>>& gens) {
    std::set<std::vector<State>> seen(gens.begin(), gens.end());
    std::deque<std::vector<State>> q(seen.begin(), seen.end());
    while (!q.empty()) {
        auto t = q.front();
        q.pop_front();
        for (const auto& g : gens) {
            std::vector<State> u(t.size());
            for (std::size_t i = 0; i < t.size(); ++i) u[i] = g[t[i]];
            if (seen.insert(u).second) q.push_back(u);
        }
    }
    return seen.size();
}

Dfa random_minimal(Rng& rng, std::size_t n, std::size_t k) {
    Dfa d;
    for (std::size_t a = 0; a < k; ++a) d.alphabet.push_back(std::string(1, char('a' + a)));
    d.accepting.resize(n);
    for (auto& x : d.accepting) x = std::uint8_t(rng.below(2));
    d.delta.resize(n * k);
    for (auto& t : d.delta) t = State(rng.below(n));
    return minimize(d);
}

}  // namespace

int main(int argc, char** argv) {
    bool quick = false;
    std::string src = ".";
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--quick") == 0) quick = true;
        else src = argv[i];
    }
    std::printf("## T_n (Froidure–Pin, one core)\n\n| n | elements | seconds | elements/s | peak RSS MiB | naive closure s | speed-up |\n|---|---|---|---|---|---|---|\n");
    for (std::size_t n = 5; n <= (quick ? 7u : 8u); ++n) {
        SemigroupOptions o;
        o.max_elements = std::size_t(1) << 25;
        const double t0 = now();
        auto s = TransitionSemigroup::of_generators(n, tn(n), o);
        const double dt = now() - t0;
        if (!s) {
            std::printf("| %zu | error: %s |\n", n, s.error().message.c_str());
            continue;
        }
        double naive = -1;
        if (n <= 6) {
            const double t1 = now();
            naive_closure(tn(n));
            naive = now() - t1;
        }
        std::printf("| %zu | %zu | %.3f | %.3g | %ld | %s | %s |\n", n, s->size(), dt, double(s->size()) / dt, peak_rss_mib(),
                    naive < 0 ? "-" : std::to_string(naive).c_str(), naive < 0 ? "-" : std::to_string(naive / dt).c_str());
        std::fflush(stdout);
    }

    std::printf("\n## Suite transition monoids\n\n| suite | language | states | monoid | seconds |\n|---|---|---|---|---|\n");
    for (const char* suite : {"lc25.suite", "lc26.suite"}) {
        auto specs = read_suite(src + "/examples/" + suite);
        if (!specs) {
            std::printf("| %s | (not found: %s) |\n", suite, specs.error().message.c_str());
            continue;
        }
        for (const auto& spec : *specs) {
            auto L = load_language(spec);
            if (!L) continue;
            SemigroupOptions o;
            o.monoid = true;
            const double t0 = now();
            auto m = TransitionSemigroup::of_dfa(L->dfa, o);
            const double dt = now() - t0;
            std::printf("| %s | %s | %zu | %zu | %.6f |\n", suite, spec.name.c_str(), L->dfa.num_states(), m ? m->size() : 0, dt);
        }
    }

    std::printf("\n## Polynomial DFA class tests, random minimal DFAs over 3 letters\n\n| states | ");
    for (const auto& row : class_table())
        if (row.by_dfa) std::printf("%s s | ", to_string(row.id()).c_str());
    std::printf("total s |\n|---|");
    for (const auto& row : class_table())
        if (row.by_dfa) std::printf("---|");
    std::printf("---|\n");
    Rng rng(1);
    for (std::size_t n : {100u, 1000u, 10000u}) {
        Dfa d = random_minimal(rng, n, 3);
        DfaAnalysis A(d);
        std::printf("| %zu |", d.num_states());
        double total = 0;
        for (const auto& row : class_table()) {
            if (!row.by_dfa) continue;
            const double t0 = now();
            auto r = row.by_dfa(A);
            const double dt = now() - t0;
            total += dt;
            std::printf(" %.4f (%s) |", dt, r.member ? "yes" : "no");
        }
        std::printf(" %.4f |\n", total);
        std::fflush(stdout);
    }
    // A definite DFA of ~10^3 states: the full pair-graph route (no fast witness).
    {
        // A shift register: states are the last <= L symbols, acceptance random.
        Rng r2(9);
        const std::size_t K = 3, L = 6;
        std::vector<std::string> words{""};
        for (std::size_t len = 1; len <= L; ++len)
            for (std::size_t i = 0, e = words.size(); i < e; ++i)
                if (words[i].size() == len - 1)
                    for (std::size_t a = 0; a < K; ++a) words.push_back(words[i] + char('a' + a));
        std::map<std::string, State> id;
        for (std::size_t i = 0; i < words.size(); ++i) id[words[i]] = State(i);
        Dfa d;
        d.alphabet = {"a", "b", "c"};
        d.accepting.resize(words.size());
        d.delta.resize(words.size() * K);
        for (std::size_t i = 0; i < words.size(); ++i) {
            d.accepting[i] = std::uint8_t(r2.below(2));
            for (std::size_t a = 0; a < K; ++a) {
                std::string nw = words[i] + char('a' + a);
                if (nw.size() > L) nw = nw.substr(1);
                d.delta[i * K + a] = id[nw];
            }
        }
        d = minimize(d);
        DfaAnalysis A(d);
        const double t0 = now();
        auto r = class_table()[0].by_dfa(A);
        std::printf("\nshift register (last %zu symbols), %zu states: definite=%s in %.4f s\n", L, d.num_states(),
                    r.member ? "yes" : "no", now() - t0);
    }
    return 0;
}
