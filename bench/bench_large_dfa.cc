// Class decisions with certificates on large DFAs (10^4 states): `classify --max-k 1` end to end,
// per class, and against the reference routes where the new one replaces an old one: Tarjan's SCCs on
// the explicit pair graph (definiteness and its degree) and ω-powers recomputed from the word
// (transformation_of(w^m) for every m). Prints a markdown table with the ratios.
// Usage: bench_large_dfa [STATES]   (default 10000)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

#include "automata/algebra/budget.hh"
#include "automata/algebra/classes.hh"
#include "automata/algebra/classify.hh"
#include "automata/algorithms.hh"
#include "automata/random.hh"

using namespace ltlkit;
using namespace ltlkit::automata;
using namespace ltlkit::automata::algebra;

namespace {

bool classify_only = false;

double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

Dfa random_minimal(Rng& rng, std::size_t n, std::size_t k) {
    Dfa d;
    for (std::size_t a = 0; a < k; ++a) d.alphabet.push_back(std::string(1, char('a' + a)));
    d.accepting.resize(n);
    d.delta.resize(n * k);
    for (std::size_t q = 0; q < n; ++q) {
        d.accepting[q] = std::uint8_t(rng.below(2));
        for (std::size_t a = 0; a < k; ++a) d.delta[q * k + a] = State(rng.below(n));
    }
    return minimize(d);
}

// States: the last <= L symbols read (a prefix tree that becomes a shift register), random acceptance.
Dfa shift_register(Rng& rng, std::size_t k, std::size_t L) {
    std::vector<std::string> words{""};
    for (std::size_t len = 1; len <= L; ++len)
        for (std::size_t i = 0, e = words.size(); i < e; ++i)
            if (words[i].size() == len - 1)
                for (std::size_t a = 0; a < k; ++a) words.push_back(words[i] + char('a' + a));
    std::map<std::string, State> id;
    for (std::size_t i = 0; i < words.size(); ++i) id[words[i]] = State(i);
    Dfa d;
    for (std::size_t a = 0; a < k; ++a) d.alphabet.push_back(std::string(1, char('a' + a)));
    d.accepting.resize(words.size());
    d.delta.resize(words.size() * k);
    for (std::size_t i = 0; i < words.size(); ++i) {
        d.accepting[i] = std::uint8_t(rng.below(2));
        for (std::size_t a = 0; a < k; ++a) {
            std::string nw = words[i] + char('a' + a);
            if (nw.size() > L) nw = nw.substr(1);
            d.delta[i * k + a] = id[nw];
        }
    }
    return minimize(d);
}

// The former ω-word: transformation_of(w^m) from scratch for m = 1, 2, ... (O(n·|w|·m²)).
std::size_t omega_by_recomputing(const Dfa& d, const Word& w) {
    Word p = w;
    for (std::size_t m = 1; m <= 64; ++m) {
        Word pp = p;
        pp.insert(pp.end(), p.begin(), p.end());
        if (transformation_of(d, pp) == transformation_of(d, p)) return m;
        p.insert(p.end(), w.begin(), w.end());
    }
    return 0;
}

std::size_t omega_by_composing(const Dfa& d, const Word& w) {
    const auto t = transformation_of(d, w);
    auto tm = t;
    for (std::size_t m = 1; m <= 64; ++m) {
        bool idem = true;
        for (std::size_t q = 0; q < tm.size() && idem; ++q) idem = tm[tm[q]] == tm[q];
        if (idem) return m;
        for (auto& x : tm) x = t[x];
    }
    return 0;
}

void run(const char* name, const Dfa& d) {
    std::printf("\n### %s: %zu states, %zu letters\n\n", name, d.num_states(), d.num_symbols());
    // classify --max-k 1 end to end (every class, every certificate).
    release_free_memory();
    const std::size_t rss0 = resident_bytes();
    ClassifyOptions o;
    o.max_k = 1;
    double t0 = now();
    auto c = classify(d, o);
    const double t_classify = now() - t0;
    std::printf("| measurement | new s | reference s | ratio |\n|---|---|---|---|\n");
    std::printf("| classify --max-k 1 (all classes with certificates; resident +%zu MiB) | %.3f | | |\n",
                (resident_bytes() - rss0) >> 20, t_classify);
    if (c)
        for (const auto& [id, v] : c->classes)
            std::printf("| %s = %s (%s) | | | |\n", to_string(id).c_str(), v ? (*v ? "yes" : "no") : "null",
                        c->certificates.count(id) ? to_string(c->certificates.at(id).kind).c_str() : "-");
    if (classify_only) return;
    // Definiteness: merging vs Tarjan on the pair graph.
    {
        DfaAnalysis A(d), B(d);
        t0 = now();
        auto m = A.pair_graph_longest_path();
        const double t_new = now() - t0;
        double t_old = -1;
        std::optional<std::size_t> r;
        if (d.num_states() <= 20000) {
            t0 = now();
            r = B.pair_graph_longest_path_by_tarjan();
            t_old = now() - t0;
        }
        std::printf("| definite (degree %s) by merging / by Tarjan on the pair graph%s | %.4f | %.4f | %.0fx |\n",
                    m ? std::to_string(*m + 1).c_str() : "-", (t_old >= 0 && m != r) ? " (DISAGREE)" : "", t_new, t_old,
                    t_old > 0 ? t_old / std::max(t_new, 1e-6) : 0.0);
    }
    // ω-power of a short word: one composition per exponent vs recomputing w^m.
    {
        Word w{0, 1 % Symbol(d.num_symbols())};
        t0 = now();
        auto a = omega_by_composing(d, w);
        const double t_new = now() - t0;
        t0 = now();
        auto b = omega_by_recomputing(d, w);
        const double t_old = now() - t0;
        std::printf("| ω-power of %s (m = %zu) composing / recomputing w^m%s | %.4f | %.4f | %.0fx |\n",
                    format_word(d.alphabet, w).c_str(), a, a != b ? " (DISAGREE)" : "", t_new, t_old,
                    t_old / std::max(t_new, 1e-6));
    }
    std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
    const std::size_t n = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 10000;
    // --classify-only: just the classify rows (for profiling)
    classify_only = argc > 2 && std::string(argv[2]) == "--classify-only";
    Rng rng(16);
    run("random DFA", random_minimal(rng, n, 3));
    std::size_t L = 1;
    while ((std::size_t(2) << (L + 1)) - 1 <= 2 * n) ++L;  // 2^(L+1) - 1 prefix states before minimization
    run(("shift register, last " + std::to_string(L) + " symbols").c_str(), shift_register(rng, 2, L));
    return 0;
}
