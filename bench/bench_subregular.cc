// Time per class of docs/SUBREGULAR.md: milliseconds per random minimal DFA (the shapes of
// tests/support/dfa_builders.hh: uniform, partially ordered, mostly self-loops, shift-register-like),
// and seconds on one large random minimal DFA for the classes with a DFA criterion; then a large SL
// language (the last m letters in a random set: SL-(m+1), definite) with every class, the whole
// classify_subregular and the checker on its certificates (docs/PERFORMANCE.md "Subregular classes
// at 10⁴ states").
//   bench_subregular [count=300] [states=8] [letters=3] [large_states=10000] [suffix_m=14]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>

#include <nlohmann/json.hpp>

#include "automata/algebra/subregular.hh"
#include "automata/algorithms.hh"
#include "../tests/support/dfa_builders.hh"

using namespace ltlkit::automata;
using namespace ltlkit::automata::algebra;

int main(int argc, char** argv) {
    const int count = argc > 1 ? std::atoi(argv[1]) : 300;
    const std::size_t states = argc > 2 ? std::size_t(std::atoi(argv[2])) : 8, letters = argc > 3 ? std::size_t(std::atoi(argv[3])) : 3;
    const std::size_t large = argc > 4 ? std::size_t(std::atoi(argv[4])) : 10'000;
    Rng rng(35);
    std::map<std::string, double> ms, worst;
    std::map<std::string, int> yes;
    for (int i = 0; i < count; ++i) {
        const Dfa d = minimize(ltlkit::testing::random_shaped_dfa(rng, 1 + rng.below(states), letters));
        for (const auto& cid : subregular_class_ids()) {
            const std::string id = to_string(cid);
            const auto t0 = std::chrono::steady_clock::now();
            auto r = decide_subregular(cid, d);
            const double t = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
            ms[id] += t, worst[id] = std::max(worst[id], t), yes[id] += r->member == true;
        }
    }
    std::printf("%d random minimal DFAs (<= %zu states, %zu letters): mean / max ms per DFA, members\n", count, states, letters);
    for (const auto& cid : subregular_class_ids()) {
        const std::string id = to_string(cid);
        std::printf("  %-22s %8.3f %9.3f  %d\n", id.c_str(), ms[id] / count, worst[id], yes[id]);
    }
    if (large == 0) return 0;
    // A large random DFA (uniform shape), minimized; the DFA-criterion classes only.
    Dfa big;
    for (std::size_t a = 0; a < 2; ++a) big.alphabet.push_back(std::string(1, char('a' + a)));
    big.accepting.resize(large);
    big.delta.resize(large * 2);
    for (auto& x : big.accepting) x = std::uint8_t(rng.below(2));
    for (auto& x : big.delta) x = State(rng.below(large));
    big = minimize(big);
    std::printf("large random minimal DFA: %zu states, 2 letters\n", big.num_states());
    for (const char* id : {"finite", "cofinite", "SL", "TSL", "SP", "aperiodic_commutative", "DA", "LTT", "LT", "PT"}) {
        const auto t0 = std::chrono::steady_clock::now();
        SubregularOptions o;
        o.max_pair_states = 20'000;  // above the default 4,000 (32 MB), to time the pair graph
        auto r = decide_subregular(*parse_class_id(id), big, o);
        const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        std::printf("  %-22s %8.3f s  %s\n", id, t, r->member ? (*r->member ? "member" : "not a member") : "undecided");
    }
    const unsigned m = argc > 5 ? unsigned(std::atoi(argv[5])) : 14;
    if (m == 0) return 0;
    // States: the words of length < m read so far, then the last m letters (a shift register);
    // accepting: the last m letters lie in a random set of 6,000 (seed 5 of Rng).
    Rng r5(5);
    Dfa sh;
    sh.alphabet = {"a", "b"};
    const std::size_t full = std::size_t(1) << m, n = 2 * full - 1;  // (len, bits) for len <= m
    auto id = [&](std::size_t len, std::size_t bits) { return State((std::size_t(1) << len) - 1 + bits); };
    sh.accepting.assign(n, 0);
    sh.delta.resize(n * 2);
    for (std::size_t i = 0; i < 6000; ++i) sh.accepting[id(m, r5.below(full))] = 1;
    for (std::size_t len = 0; len <= m; ++len)
        for (std::size_t bits = 0; bits < (std::size_t(1) << len); ++bits)
            for (std::size_t a = 0; a < 2; ++a)
                sh.delta[id(len, bits) * 2 + a] = len < m ? id(len + 1, bits * 2 + a) : id(m, (bits * 2 + a) & (full - 1));
    sh = minimize(sh);
    std::printf("last-%u-letters language: %zu states, 2 letters (--sl-max-states 20000)\n", m, sh.num_states());
    SubregularOptions o;
    o.max_pair_states = 20'000;
    for (const char* cid : {"SL", "TSL", "SP", "LT", "LTT"}) {
        const auto t0 = std::chrono::steady_clock::now();
        auto r = decide_subregular(*parse_class_id(cid), sh, o);
        const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        const auto t1 = std::chrono::steady_clock::now();
        std::string why;
        auto ok = r->member ? check_subregular_certificate(nlohmann::json::parse(subregular_certificate_json(*r, sh)), &why) : ltlkit::Result<bool>(false);
        const double tc = std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
        std::printf("  %-4s %8.3f s  %s %s; checker %8.3f s: %s\n", cid, t, r->member ? (*r->member ? "member" : "not a member") : "undecided",
                    r->params.dump().c_str(), tc, ok.ok() && *ok ? "holds" : "does not hold");
    }
    const auto t0 = std::chrono::steady_clock::now();
    classify_subregular(sh, o);
    std::printf("  classify_subregular (all ten classes) %8.3f s\n", std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    return 0;
}
