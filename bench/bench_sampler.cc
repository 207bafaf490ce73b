// Sampler and dataset generator throughput: symbols per second for lengths up to 500 on
// one core (target >= 1e7/s; CPU time of the process, so a busy machine does not distort it), as a ratio to the raw mt19937_64 draw rate measured in the same
// process; and the wall time of the default splits (train 1:40, validation, test 41:500, 512 per
// length, boundary) of each language of a suite (target: the LC26 suite under two minutes).
//
//   bench_sampler [--suite FILE] [--out DIR] [--skip-suite]
#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "automata/dataset.hh"
#include "automata/language.hh"
#include "automata/random.hh"
#include "automata/sampler.hh"

using namespace ltlkit::automata;
using Clock = std::chrono::steady_clock;

namespace {

double seconds_since(Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
}

// CPU time of this process: rates stay meaningful on a machine shared with other jobs.
double cpu_seconds() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

Dfa random_dfa(Rng& rng, std::size_t s, std::size_t k) {
    Dfa d;
    for (std::size_t i = 0; i < k; ++i) d.alphabet.push_back(std::string(1, static_cast<char>('a' + i)));
    d.accepting.resize(s);
    for (auto& x : d.accepting) x = static_cast<std::uint8_t>(rng.below(2));
    d.delta.resize(s * k);
    for (auto& t : d.delta) t = static_cast<State>(rng.below(s));
    return d;
}

Dfa ends_with_a(std::size_t k) {
    Dfa d;
    for (std::size_t i = 0; i < k; ++i) d.alphabet.push_back(std::string(1, static_cast<char>('a' + i)));
    d.accepting = {0, 1};
    d.delta.assign(2 * k, 0);
    d.delta[0] = 1;
    d.delta[k] = 1;
    return d;
}

}  // namespace

int main(int argc, char** argv) {
    std::string suite = "examples/lc26.suite";  // run from the repository root
    std::string out = (std::filesystem::temp_directory_path() / "ltlkit-bench-sampler").string();
    bool skip_suite = false;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--suite") && i + 1 < argc) suite = argv[++i];
        else if (!std::strcmp(argv[i], "--out") && i + 1 < argc) out = argv[++i];
        else if (!std::strcmp(argv[i], "--skip-suite")) skip_suite = true;
        else {
            std::fprintf(stderr, "usage: bench_sampler [--suite FILE] [--out DIR] [--skip-suite]\n");
            return 2;
        }
    }

    // Reference: raw 53-bit uniforms from mt19937_64 (one per sampled symbol).
    const std::uint64_t kSymbols = 50'000'000;
    Rng ref_rng(1);
    double sink = 0;
    double c0 = cpu_seconds();
    for (std::uint64_t i = 0; i < kSymbols; ++i) sink += ref_rng.uniform();
    const double ref_rate = static_cast<double>(kSymbols) / (cpu_seconds() - c0);
    std::printf("reference: mt19937_64 uniform() %.3g draws/s (checksum %.3f)\n", ref_rate, sink / kSymbols);

    Rng g(7);
    struct Case {
        std::string name;
        Dfa dfa;
    };
    std::vector<Case> cases = {{"ends-with-a/2 symbols", ends_with_a(2)},
                               {"ends-with-a/10 symbols", ends_with_a(10)},
                               {"random 20 states/10 symbols", random_dfa(g, 20, 10)},
                               {"random 200 states/4 symbols", random_dfa(g, 200, 4)}};
    std::printf("\n%-30s %6s %6s %14s %10s %10s\n", "language", "length", "label", "symbols/s", "ratio", "setup_s");
    for (const auto& c : cases) {
        auto t_setup = Clock::now();
        auto s = Sampler::create(c.dfa, 500);
        double setup = seconds_since(t_setup);
        if (!s.ok()) {
            std::printf("%s: %s\n", c.name.c_str(), s.error().message.c_str());
            continue;
        }
        for (std::size_t n : {10, 40, 100, 500}) {
            for (int label = 1; label >= 0; --label) {
                if (!s->has_words(n, label)) continue;
                Rng rng(3);
                std::uint64_t symbols = 0, check = 0;
                double c0 = cpu_seconds();
                while (symbols < 20'000'000) {
                    Word w = s->sample(n, label, rng);
                    check += w.back();
                    symbols += w.size();
                }
                double rate = static_cast<double>(symbols) / (cpu_seconds() - c0);
                std::printf("%-30s %6zu %6d %14.3g %10.2f %10.4f\n", c.name.c_str(), n, label, rate,
                            rate / ref_rate, setup);
                (void)check;
            }
        }
    }

    if (skip_suite) return 0;
    if (!std::filesystem::exists(suite)) {
        std::printf("\nsuite %s not found: skipping the dataset timing\n", suite.c_str());
        return 0;
    }
    auto specs = read_suite(suite);
    if (!specs.ok()) {
        std::printf("suite: %s\n", specs.error().one_line().c_str());
        return 1;
    }
    std::printf("\ndefault splits per language of %s (no adversarial sets; into %s):\n", suite.c_str(), out.c_str());
    std::printf("%-24s %8s %12s %12s %10s %10s\n", "language", "states", "words", "symbols", "wall_s", "cpu_s");
    double total = 0, total_cpu = 0;
    std::uint64_t total_symbols = 0;
    for (const auto& spec : *specs) {
        auto L = load_language(spec);
        if (!L.ok()) {
            std::printf("%-24s %s\n", spec.name.c_str(), L.error().one_line().c_str());
            continue;
        }
        DatasetOptions o;
        o.force = true;
        o.language_name = spec.name;
        auto dir = (std::filesystem::path(out) / spec.name).string();
        std::filesystem::remove_all(dir);
        auto t = Clock::now();
        double c = cpu_seconds();
        auto r = generate_dataset(L->dfa, dir, o);
        double wall = seconds_since(t), cpu = cpu_seconds() - c;
        if (!r.ok()) {
            std::printf("%-24s %s\n", spec.name.c_str(), r.error().one_line().c_str());
            continue;
        }
        total += wall;
        total_cpu += cpu;
        total_symbols += r->symbols;
        std::printf("%-24s %8zu %12llu %12llu %10.2f %10.2f\n", spec.name.c_str(), L->dfa.num_states(),
                    static_cast<unsigned long long>(r->words), static_cast<unsigned long long>(r->symbols), wall, cpu);
        std::filesystem::remove_all(dir);
    }
    std::printf("%-24s %8s %12s %12llu %10.2f %10.2f  (%.3g symbols per CPU second end to end)\n", "total", "",
                "", static_cast<unsigned long long>(total_symbols), total, total_cpu,
                static_cast<double>(total_symbols) / total_cpu);
    return 0;
}
