// The universal partition Π(s, k, δ) of docs/WINDOWS.md §10: for each (s, k, δ) given, the blocks of
// the periodic witnesses and of E_d for d = 1, 2, ... until they agree (certified) or a bound stops it.
// Usage: bench_window_partition S K DELTA [MAX_DEPTH=8] [MAX_STATES=4000000]
#include <cstdio>
#include <cstdlib>

#include "automata/algebra/window_complete.hh"
#include "automata/algebra/window_strategies.hh"

using namespace ltlkit::automata::algebra;

int main(int argc, char** argv) {
    if (argc < 4) {
        std::fprintf(stderr, "usage: bench_window_partition S K DELTA [MAX_DEPTH] [MAX_STATES]\n");
        return 2;
    }
    const std::size_t s = std::strtoul(argv[1], nullptr, 10), delta = std::strtoul(argv[3], nullptr, 10);
    const unsigned k = unsigned(std::strtoul(argv[2], nullptr, 10));
    const unsigned max_depth = argc > 4 ? unsigned(std::strtoul(argv[4], nullptr, 10)) : 8;
    const std::size_t max_states = argc > 5 ? std::strtoul(argv[5], nullptr, 10) : 4'000'000;
    const PeriodicBounds b = window_strategies::periodic_pair_bounds(s);
    LocalPartition p = local_partition(s, k, delta, max_depth, b, max_states);
    std::printf("s=%zu k=%u delta=%zu periods<=%zu tails<=%zu: witness blocks %zu, E_%u blocks %zu (%zu type states)%s%s%s\n",
                s, k, delta, b.max_period, b.max_tail, p.witness_count, p.depth, p.depth_count, p.type_states,
                p.certified ? " CERTIFIED" : "", p.stopped ? " (stopped at a bound)" : "",
                p.inconsistent ? " INCONSISTENT (defect)" : "");
    return p.inconsistent ? 1 : 0;
}
