// How close the cost estimates are (docs/PERFORMANCE.md): for each architecture, the estimate that
// `train` prints (assumed rate, and measured by neural/calibrate.hh) beside the wall time of the
// same run trained and evaluated for real on Σ*a, with the ratios estimate / real. The fit check is
// off, so the run uses its whole step budget, as the estimate counts it.
// Usage: bench_estimate [--steps S] [--layers L] [--d-model D] [--heads H] [--batch B]
//                       [--test-lengths A:B] [--per-length N] [--archs global,local-1,...] [--threads T]
#include <torch/torch.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "automata/language.hh"
#include "neural/calibrate.hh"
#include "neural/cost.hh"
#include "neural/run.hh"

using namespace ltlkit;
using namespace ltlkit::neural;
using Clock = std::chrono::steady_clock;

int main(int argc, char** argv) {
    Config c;
    c.model.layers = 5;
    c.model.d_model = 32;
    c.model.heads = 4;
    c.model.d_ff = 64;
    c.training.steps = 300;
    c.training.batch = 32;
    c.training.lr = 1e-3;
    c.training.fit_check_every = 0;
    c.evaluation.test_min = 41;
    c.evaluation.test_max = 200;
    c.evaluation.per_length = 16;
    c.runtime.threads = 1;
    c.runtime.device = Device::Cpu;
    c.runtime.log_every = 0;
    c.runtime.checkpoint_every = 0;
    std::vector<std::string> archs{"global", "local-1", "local-4", "hybrid-2"};
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string k = argv[i], v = argv[i + 1];
        if (k == "--steps") c.training.steps = std::stoi(v);
        else if (k == "--layers") c.model.layers = std::stoi(v);
        else if (k == "--d-model") c.model.d_model = std::stoi(v), c.model.d_ff = 2 * std::stoi(v);
        else if (k == "--heads") c.model.heads = std::stoi(v);
        else if (k == "--batch") c.training.batch = std::stoi(v);
        else if (k == "--per-length") c.evaluation.per_length = std::stoi(v);
        else if (k == "--threads") c.runtime.threads = std::stoi(v);
        else if (k == "--test-lengths") {
            const auto colon = v.find(':');
            c.evaluation.test_min = std::stoi(v.substr(0, colon));
            c.evaluation.test_max = std::stoi(v.substr(colon + 1));
        } else if (k == "--archs") {
            archs.clear();
            for (std::size_t at = 0; at <= v.size();) {
                const auto comma = std::min(v.find(',', at), v.size());
                archs.push_back(v.substr(at, comma - at));
                at = comma + 1;
            }
        } else {
            std::fprintf(stderr, "bench_estimate: unknown option %s\n", k.c_str());
            return 2;
        }
    }
    automata::LanguageSpec spec;
    spec.kind = automata::InputKind::Regex;
    spec.text = ".*a";
    spec.alphabet = *automata::parse_alphabet("a,b");
    const auto lang = automata::load_language(spec);
    if (!lang.ok()) return 1;
    std::printf("%d layers x d %d x %d heads, %d steps x batch %d, test %d..%d x %d, %d thread(s)\n", c.model.layers,
                c.model.d_model, c.model.heads, c.training.steps, c.training.batch, c.evaluation.test_min,
                c.evaluation.test_max, c.evaluation.per_length, c.runtime.threads);
    std::printf("%-9s %10s %10s %10s %9s %9s   %s\n", "arch", "assumed s", "measured s", "real s", "assumed/r",
                "measured/r", "train, evaluation: measured / real (s)");
    const auto dir = std::filesystem::temp_directory_path() / ("ltlkit-bench-estimate-" + std::to_string(::getpid()));
    for (const auto& name : archs) {
        Config a = c;
        auto arch = parse_architecture(name);
        if (!arch.ok()) return 2;
        a.model.arch = *arch;
        const auto assumed = estimate_cost(a, 1, 1, false);
        const auto rate = measure_throughput(a);
        if (!rate.ok()) return 1;
        const auto measured = estimate_cost(a, 1, 1, false, &*rate);
        std::filesystem::remove_all(dir);
        const auto t0 = Clock::now();
        const auto r = train_and_evaluate(lang->dfa, a, dir.string(), {}, ".*a");
        const double real = std::chrono::duration<double>(Clock::now() - t0).count();
        if (!r.ok()) {
            std::fprintf(stderr, "bench_estimate: %s\n", r.error().message.c_str());
            return 1;
        }
        std::printf("%-9s %10.1f %10.1f %10.1f %9.2f %9.2f   %.1f / %.1f, %.1f / %.1f\n", name.c_str(),
                    assumed.seconds_per_run, measured.seconds_per_run, real, assumed.seconds_per_run / real,
                    measured.seconds_per_run / real, measured.train_seconds, r->train_seconds, measured.eval_seconds,
                    r->eval_seconds);
        std::fflush(stdout);
    }
    std::filesystem::remove_all(dir);
    return 0;
}
