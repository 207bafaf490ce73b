// Time per class of docs/SUBREGULAR.md: milliseconds per random minimal DFA (the shapes of
// tests/support/dfa_builders.hh: uniform, partially ordered, mostly self-loops, shift-register-like),
// and seconds on one large random minimal DFA for the classes with a DFA criterion.
//   bench_subregular [count=300] [states=8] [letters=3] [large_states=10000]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>

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
        for (const auto& id : subregular_class_ids()) {
            const auto t0 = std::chrono::steady_clock::now();
            auto r = decide_subregular(id, d);
            const double t = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
            ms[id] += t, worst[id] = std::max(worst[id], t), yes[id] += r->member == true;
        }
    }
    std::printf("%d random minimal DFAs (<= %zu states, %zu letters): mean / max ms per DFA, members\n", count, states, letters);
    for (const auto& id : subregular_class_ids())
        std::printf("  %-22s %8.3f %9.3f  %d\n", id.c_str(), ms[id] / count, worst[id], yes[id]);
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
        auto r = decide_subregular(id, big, o);
        const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        std::printf("  %-22s %8.3f s  %s\n", id, t, r->member ? (*r->member ? "member" : "not a member") : "undecided");
    }
    return 0;
}
