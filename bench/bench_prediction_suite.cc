// Acceptance of the prediction-suite draw (docs/SUBREGULAR.md §5b): for every stratum of
// prediction_strata() and 2 and 3 letters, a suite of COUNT languages of 3..8 states drawn with
// seed SEED; prints the candidates drawn, the share kept, those dropped for their size, as
// duplicates or for an unknown answer, the generators of the kept languages, and the seconds.
// Usage: bench_prediction_suite [COUNT=20] [SEED=1] [MAX_DRAWS=200000]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

#include "automata/algebra/prediction_suite.hh"

using namespace ltlkit::automata::algebra;

int main(int argc, char** argv) {
    const std::size_t count = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 20;
    const std::uint64_t seed = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 1;
    const std::size_t max_draws = argc > 3 ? std::strtoul(argv[3], nullptr, 10) : 200'000;
    std::printf("| stratum | letters | kept | draws | kept/draws | size rejected | duplicates | unknown | seconds | generators of the kept |\n");
    std::printf("|---|---|---|---|---|---|---|---|---|---|\n");
    for (const auto& st : prediction_strata())
        for (std::size_t letters : {2, 3}) {
            PredictionSuiteRequest r;
            r.constraints = st.constraints;
            r.alphabet = letters == 2 ? std::vector<std::string>{"a", "b"} : std::vector<std::string>{"a", "b", "c"};
            r.count = count;
            r.seed = seed;
            r.min_states = 3;
            r.max_states = 8;
            r.max_draws = max_draws;
            const auto t0 = std::chrono::steady_clock::now();
            auto s = draw_prediction_suite(r);
            const double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            if (!s) {
                std::printf("| %s | %zu | — | — | — | — | — | — | %.2f | %s |\n", st.name.c_str(), letters, sec, s.error().message.c_str());
                continue;
            }
            std::map<std::string, int> gens;
            for (const auto& g : s->generators) ++gens[g];
            std::string gs;
            for (const auto& [g, n] : gens) gs += (gs.empty() ? "" : ", ") + g + " " + std::to_string(n);
            std::printf("| %s | %zu | %zu | %zu | %.4f | %zu | %zu | %zu | %.2f | %s |\n", st.name.c_str(), letters, s->dfas.size(),
                        s->draws, double(s->dfas.size()) / double(s->draws), s->rejected_size, s->rejected_duplicate,
                        s->rejected_unknown, sec, gs.c_str());
            std::fflush(stdout);
        }
}
