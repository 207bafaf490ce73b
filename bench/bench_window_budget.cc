// classify at its default budget on random 4-letter LTL[P,Y<=k] formulas whose minimal DFAs have
// 7..12 states (docs/PERFORMANCE.md, "Every window strategy under the default budget"): the share
// of window cells (local_k, hybrid_k for k = 2..max-k) left unknown, why (the bound named in the
// certificate), and per input the CPU time of the classifying thread and the peak resident memory,
// with the worst cases and the command that reruns each. Not a timed test: it prints figures and
// the ratio of the worst CPU time to the 2 s target of docs/WINDOWS.md §5b, and never fails on time.
//
// Usage: bench_window_budget [--count N] [--seed S] [--max-k K] [--window-work W] [--letters L]
//                            [--min-states A] [--max-states B] [--list]
// Each input is classified in this process with ClassifyOptions' defaults (the window questions
// under the shared work budget, the input formula as its own certificate where it lies in a window
// fragment, as `ltlkit classify FORMULA --alphabet a,b,c,d` does); --list prints one line per input.
#include <time.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "automata/algebra/budget.hh"
#include "automata/algebra/classify.hh"
#include "automata/language.hh"
#include "ltl/printer.hh"
#include "tests/support/random_formula.hh"

using namespace ltlkit;
using namespace ltlkit::automata;
using namespace ltlkit::automata::algebra;

namespace {

double cpu_seconds() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + ts.tv_nsec * 1e-9;
}

struct Run {
    std::string formula;
    std::size_t states = 0;
    double cpu = 0;
    double peak_mib = 0;
    std::size_t unknown = 0;
    std::string unknown_cells;
};

// The bound an unknown certificate names (its extra "budget"), or "bounds" when the searches and
// the probe ran to their own limits.
std::string unknown_reason(const Certificate& c) {
    if (c.extra_json.find("\"bound\":\"work\"") != std::string::npos) return "work budget";
    if (c.extra_json.find("\"bound\":\"memory\"") != std::string::npos) return "memory budget";
    if (c.extra_json.find("\"bound\":\"time\"") != std::string::npos) return "time budget";
    return "search bounds";
}

}  // namespace

int main(int argc, char** argv) {
    std::size_t count = 200, letters = 4, min_states = 7, max_states = 12;
    unsigned max_k = 4;
    std::uint64_t seed = 1, window_work = ClassifyOptions::kDefaultWindowWork;
    bool list = false;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const bool has = i + 1 < argc;
        if (a == "--count" && has) count = std::strtoull(argv[++i], nullptr, 10);
        else if (a == "--seed" && has) seed = std::strtoull(argv[++i], nullptr, 10);
        else if (a == "--max-k" && has) max_k = unsigned(std::strtoul(argv[++i], nullptr, 10));
        else if (a == "--window-work" && has) window_work = std::strtoull(argv[++i], nullptr, 10);
        else if (a == "--letters" && has) letters = std::strtoull(argv[++i], nullptr, 10);
        else if (a == "--min-states" && has) min_states = std::strtoull(argv[++i], nullptr, 10);
        else if (a == "--max-states" && has) max_states = std::strtoull(argv[++i], nullptr, 10);
        else if (a == "--list") list = true;
        else {
            std::cerr << "usage: bench_window_budget [--count N] [--seed S] [--max-k K] [--window-work W] [--letters L] "
                         "[--min-states A] [--max-states B] [--list]\n";
            return 2;
        }
    }
    if (letters < 2 || letters > 26 || max_k < 2 || min_states > max_states) {
        std::cerr << "bench_window_budget: need 2..26 letters, --max-k >= 2 and --min-states <= --max-states\n";
        return 2;
    }
    std::vector<std::string> atoms;
    std::string alphabet_csv;
    for (std::size_t i = 0; i < letters; ++i) {
        atoms.push_back(std::string(1, char('a' + i)));
        alphabet_csv += (i ? "," : "") + atoms.back();
    }
    std::mt19937_64 rng(seed);
    std::vector<Run> runs;
    std::set<std::string> seen;  // distinct minimal DFAs (by their formula text: distinct formulas)
    std::map<std::string, std::size_t> reasons;
    std::size_t cells = 0, unknown = 0, drawn = 0;
    while (runs.size() < count && drawn < count * 1000) {
        ++drawn;
        // LTL[P,Y<=k], k = 2..4, temporal depth 3..6: the fragment of the hybrid questions.
        const unsigned k = unsigned(2 + rng() % 3);
        const int depth = int(3 + rng() % 4);
        const ltl::Formula f = testing::random_formula(rng, ltl::FragmentKind::PYLeqK, atoms, depth, k);
        const std::string text = ltl::to_string(f);
        if (!seen.insert(text).second) continue;
        LanguageSpec spec;
        spec.text = text;
        spec.alphabet = atoms;
        auto L = load_language(spec);
        if (!L) continue;
        const std::size_t n = L->dfa.num_states();
        if (n < min_states || n > max_states) continue;
        ClassifyOptions o;
        o.max_k = max_k;
        o.window_work = window_work;
        if (L->formula) o.source = *L->formula;
        release_free_memory();
        reset_peak_resident();
        const double t0 = cpu_seconds();
        auto c = classify(L->dfa, o);
        Run r;
        r.cpu = cpu_seconds() - t0;
        r.peak_mib = double(peak_resident_bytes()) / double(1 << 20);
        r.formula = text;
        r.states = n;
        if (!c) {
            std::cerr << "classify failed on " << text << ": " << c.error().message << "\n";
            return 1;
        }
        for (unsigned kk = 2; kk <= max_k; ++kk)
            for (bool hybrid : {false, true}) {
                ++cells;
                const Answer a = hybrid ? c->hybrid_k.at(kk) : c->local_k.at(kk);
                if (a != Answer::Unknown) continue;
                ++unknown;
                ++r.unknown;
                ++reasons[unknown_reason(c->certificates.at(window_class_id(hybrid, kk)))];
                r.unknown_cells += std::string(r.unknown_cells.empty() ? "" : ",") + (hybrid ? "hybrid:" : "local:") +
                                   std::to_string(kk);
            }
        if (list)
            std::printf("%3zu  %2zu states  %6.3f s  %7.1f MiB  %s%s  %s\n", runs.size() + 1, n, r.cpu, r.peak_mib,
                        r.unknown ? "unknown " : "", r.unknown_cells.c_str(), text.c_str());
        runs.push_back(std::move(r));
    }
    if (runs.empty()) {
        std::cerr << "bench_window_budget: no formula with " << min_states << ".." << max_states << " states in "
                  << drawn << " draws\n";
        return 1;
    }
    std::vector<double> cpu, mem;
    for (const Run& r : runs) cpu.push_back(r.cpu), mem.push_back(r.peak_mib);
    auto pct = [](std::vector<double> xs, double q) {
        std::sort(xs.begin(), xs.end());
        return xs[std::min(xs.size() - 1, std::size_t(q * double(xs.size() - 1) + 0.5))];
    };
    std::size_t inputs_unknown = 0;
    for (const Run& r : runs) inputs_unknown += r.unknown > 0;
    std::printf("bench_window_budget: %zu random %zu-letter LTL[P,Y<=k] formulas (k = 2..4) with %zu..%zu-state minimal "
                "DFAs, seed %" PRIu64 ", --max-k %u, --window-work %" PRIu64 " (%zu drawn)\n",
                runs.size(), letters, min_states, max_states, seed, max_k, window_work, drawn);
    std::printf("  window cells unknown: %zu of %zu (%.1f%%), in %zu of %zu inputs\n", unknown, cells,
                100.0 * double(unknown) / double(cells), inputs_unknown, runs.size());
    for (const auto& [why, n] : reasons) std::printf("    %-14s %zu\n", why.c_str(), n);
    std::printf("  CPU seconds per input: median %.3f, p90 %.3f, max %.3f (%.2f x the 2 s target)\n", pct(cpu, 0.5),
                pct(cpu, 0.9), pct(cpu, 1.0), pct(cpu, 1.0) / 2.0);
    std::printf("  peak resident MiB per input: median %.1f, p90 %.1f, max %.1f (%.2f x the 200 MB target)\n",
                pct(mem, 0.5), pct(mem, 0.9), pct(mem, 1.0), pct(mem, 1.0) * double(1 << 20) / 200e6);
    std::vector<const Run*> slow;
    for (const Run& r : runs) slow.push_back(&r);
    std::sort(slow.begin(), slow.end(), [](const Run* a, const Run* b) { return a->cpu > b->cpu; });
    std::printf("  slowest inputs (rerun: ltlkit classify FORMULA --alphabet %s --max-k %u):\n", alphabet_csv.c_str(),
                max_k);
    for (std::size_t i = 0; i < std::min<std::size_t>(5, slow.size()); ++i)
        std::printf("    %6.3f s  %7.1f MiB  %2zu states  %s%s  '%s'\n", slow[i]->cpu, slow[i]->peak_mib, slow[i]->states,
                    slow[i]->unknown ? "unknown " : "", slow[i]->unknown_cells.c_str(), slow[i]->formula.c_str());
    return 0;
}
