// classify at its default budget on random 4-letter LTL[P,Y<=k] formulas whose minimal DFAs have
// 7..12 states (docs/PERFORMANCE.md, "Every window strategy under the default budget"; issues 42,
// 43): the share of window cells (local_k, hybrid_k for k = 2..max-k) left unknown, why (the bound
// named in the certificate), and per input the CPU time and the peak resident memory of the
// classify, with the worst cases, the command that reruns each and the ratios against the previous
// reference run side by side. Not a timed test: it prints figures and never fails on time.
//
// Usage: bench_window_budget [--count N] [--seed S] [--max-k K] [--window-work W] [--letters L]
//                            [--min-states A] [--max-states B] [--jobs J] [--cpu-limit S] [--list]
// Each input is classified in a child process of its own (fork), with ClassifyOptions' defaults (the
// window questions under the shared work budget, the input formula as its own certificate where it
// lies in a window fragment, as `ltlkit classify FORMULA --alphabet a,b,c,d` does); its CPU time
// (user + system) and peak resident memory are the child's, read by wait4 (ru_maxrss), so one input's
// memory does not carry over to the next. --jobs runs that many children at once (CPU times are per
// child, so they do not add up); --cpu-limit caps each child's CPU seconds (RLIMIT_CPU; a child
// killed by it counts as over the limit, its cells as unknown "killed"); --list prints one line per
// input.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

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

// The previous reference run of this bench (docs/PERFORMANCE.md, 2026-12-06, "Letters that act
// alike": seed 1, 200 inputs, --max-k 4, default budget, on main before the letter merging and the
// annotated-letter probe, i.e. after the byte charges; the per-input peak resident memory of the
// child). The runs before it: 7.2% unknown, CPU max 4.195 s, 256.8 MiB (before the byte charges);
// 6.2%, median 0.036 s, p90 2.07 s, max 223.9 s, 846 MiB (2026-12-03, before the first budget fix).
struct Reference {
    const char* what;
    double unknown_pct, cpu_median, cpu_p90, cpu_max, mib_max;
};
constexpr Reference kReference{"2026-12-06 before the letter merging (seed 1, 200 inputs, --max-k 4)", 7.3, 0.010, 1.046,
                               1.444, 136.4};

struct Run {
    std::string formula;
    std::size_t states = 0;
    double cpu = 0;
    double peak_mib = 0;
    bool killed = false;  // past --cpu-limit, or died
    std::size_t unknown = 0;
    std::string unknown_cells;
    std::vector<std::string> reasons;
};

// The bound an unknown certificate names (its "budget" or a strategy's cut; work before memory
// before time), or "bounds" when the searches and the probe ran to their own limits.
std::string unknown_reason(const Certificate& c) {
    const WindowFields* s = c.window ? &*c.window : nullptr;
    std::set<std::string> bounds;
    if (s && s->budget) bounds.insert(s->budget->bound == BudgetStop::Bound::Work     ? "work"
                                      : s->budget->bound == BudgetStop::Bound::Memory ? "memory"
                                                                                      : "time");
    if (s)
        for (const BudgetCut& cut : s->cuts) bounds.insert(cut.bound);
    for (const char* b : {"work", "memory", "time"})
        if (bounds.count(b)) return std::string(b) + " budget";
    return "search bounds";
}

// In the child: classify and write "unknown_count cells reasons" (one line) to fd.
[[noreturn]] void child(const Dfa& dfa, const ClassifyOptions& o, unsigned max_k, int fd) {
    auto c = classify(dfa, o);
    std::string line;
    if (!c) {
        line = "error " + c.error().message;
    } else {
        std::size_t unknown = 0;
        std::string cells, reasons;
        for (unsigned kk = 2; kk <= max_k; ++kk)
            for (bool hybrid : {false, true}) {
                const Answer a = hybrid ? c->hybrid_k.at(kk) : c->local_k.at(kk);
                if (a != Answer::Unknown) continue;
                ++unknown;
                cells += std::string(cells.empty() ? "" : ",") + (hybrid ? "hybrid:" : "local:") + std::to_string(kk);
                std::string why = unknown_reason(c->certificates.at(window_class_id(hybrid, kk)));
                std::replace(why.begin(), why.end(), ' ', '_');
                reasons += std::string(reasons.empty() ? "" : ",") + why;
            }
        line = "ok " + std::to_string(unknown) + " " + (cells.empty() ? "-" : cells) + " " + (reasons.empty() ? "-" : reasons);
    }
    line += "\n";
    const ssize_t w = write(fd, line.data(), line.size());
    _exit(w == ssize_t(line.size()) ? 0 : 1);
}

std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> out;
    std::size_t i = 0;
    while (i <= s.size()) {
        const std::size_t j = std::min(s.find(sep, i), s.size());
        out.push_back(s.substr(i, j - i));
        i = j + 1;
    }
    return out;
}

struct Pending {
    pid_t pid;
    int fd;
    std::size_t index;
};

}  // namespace

int main(int argc, char** argv) {
    std::size_t count = 200, letters = 4, min_states = 7, max_states = 12, jobs = 1;
    unsigned max_k = 4;
    std::uint64_t seed = 1, window_work = ClassifyOptions::kDefaultWindowWork, cpu_limit = 0;
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
        else if (a == "--jobs" && has) jobs = std::max<std::size_t>(1, std::strtoull(argv[++i], nullptr, 10));
        else if (a == "--cpu-limit" && has) cpu_limit = std::strtoull(argv[++i], nullptr, 10);
        else if (a == "--list") list = true;
        else {
            std::cerr << "usage: bench_window_budget [--count N] [--seed S] [--max-k K] [--window-work W] [--letters L] "
                         "[--min-states A] [--max-states B] [--jobs J] [--cpu-limit S] [--list]\n";
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
    std::size_t drawn = 0;
    std::vector<Pending> pending;
    std::fflush(stdout);
    // Waits for one child, reads its line and its rusage.
    auto reap = [&]() {
        rusage ru{};
        int status = 0;
        const pid_t pid = wait4(-1, &status, 0, &ru);
        if (pid < 0) return;
        auto it = std::find_if(pending.begin(), pending.end(), [&](const Pending& p) { return p.pid == pid; });
        if (it == pending.end()) return;
        Run& r = runs[it->index];
        r.cpu = double(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) + 1e-6 * double(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
        r.peak_mib = double(ru.ru_maxrss) / 1024.0;  // KiB on Linux
        std::string out;
        char buf[4096];
        ssize_t got;
        while ((got = read(it->fd, buf, sizeof buf)) > 0) out.append(buf, std::size_t(got));
        close(it->fd);
        const auto parts = split(out.substr(0, out.find('\n')), ' ');
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || parts.size() != 4 || parts[0] != "ok") {
            if (parts.size() >= 2 && parts[0] == "error") {
                std::cerr << "classify failed on " << r.formula << ": " << out;
                std::exit(1);
            }
            r.killed = true;
            r.unknown = 2 * (max_k - 1);
            r.unknown_cells = "all (killed)";
            r.reasons.assign(r.unknown, "killed");
        } else {
            r.unknown = std::strtoull(parts[1].c_str(), nullptr, 10);
            if (parts[2] != "-") r.unknown_cells = parts[2];
            if (parts[3] != "-")
                for (std::string w : split(parts[3], ',')) {
                    std::replace(w.begin(), w.end(), '_', ' ');
                    r.reasons.push_back(w);
                }
        }
        if (list)
            std::printf("%3zu  %2zu states  %7.3f s  %7.1f MiB  %s%s  %s\n", it->index + 1, r.states, r.cpu, r.peak_mib,
                        r.unknown ? "unknown " : "", r.unknown_cells.c_str(), r.formula.c_str());
        std::fflush(stdout);
        pending.erase(it);
    };
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
        Run r;
        r.formula = text;
        r.states = n;
        runs.push_back(std::move(r));
        while (pending.size() >= jobs) reap();
        int fds[2];
        if (pipe(fds) != 0) {
            std::perror("pipe");
            return 1;
        }
        const pid_t pid = fork();
        if (pid < 0) {
            std::perror("fork");
            return 1;
        }
        if (pid == 0) {
            close(fds[0]);
            if (cpu_limit) {
                rlimit lim{rlim_t(cpu_limit), rlim_t(cpu_limit)};
                setrlimit(RLIMIT_CPU, &lim);
            }
            child(L->dfa, o, max_k, fds[1]);
        }
        close(fds[1]);
        pending.push_back({pid, fds[0], runs.size() - 1});
    }
    while (!pending.empty()) reap();
    if (runs.empty()) {
        std::cerr << "bench_window_budget: no formula with " << min_states << ".." << max_states << " states in "
                  << drawn << " draws\n";
        return 1;
    }
    std::vector<double> cpu, mem;
    std::map<std::string, std::size_t> reasons;
    std::size_t cells = 0, unknown = 0, inputs_unknown = 0, killed = 0, over_cpu = 0, over_mem = 0;
    for (const Run& r : runs) {
        cpu.push_back(r.cpu), mem.push_back(r.peak_mib);
        cells += 2 * (max_k - 1);
        unknown += r.unknown;
        inputs_unknown += r.unknown > 0;
        killed += r.killed;
        over_cpu += r.cpu > 2.0;
        over_mem += r.peak_mib * double(1 << 20) > 200e6;
        for (const auto& w : r.reasons) ++reasons[w];
    }
    auto pct = [](std::vector<double> xs, double q) {
        std::sort(xs.begin(), xs.end());
        return xs[std::min(xs.size() - 1, std::size_t(q * double(xs.size() - 1) + 0.5))];
    };
    const double share = 100.0 * double(unknown) / double(cells);
    std::printf("bench_window_budget: %zu random %zu-letter LTL[P,Y<=k] formulas (k = 2..4) with %zu..%zu-state minimal "
                "DFAs, seed %" PRIu64 ", --max-k %u, --window-work %" PRIu64 " (%zu drawn), one child process per input%s\n",
                runs.size(), letters, min_states, max_states, seed, max_k, window_work, drawn,
                cpu_limit ? (", --cpu-limit " + std::to_string(cpu_limit) + " s").c_str() : "");
    std::printf("  reference: %s\n", kReference.what);
    std::printf("  %-34s %12s %12s %8s\n", "", "now", "reference", "ratio");
    std::printf("  %-34s %11.1f%% %11.1f%% %8.2f\n", "window cells unknown", share, kReference.unknown_pct,
                share / kReference.unknown_pct);
    std::printf("  %-34s %12.3f %12.3f %8.2f\n", "CPU s per input, median", pct(cpu, 0.5), kReference.cpu_median,
                pct(cpu, 0.5) / kReference.cpu_median);
    std::printf("  %-34s %12.3f %12.3f %8.2f\n", "CPU s per input, p90", pct(cpu, 0.9), kReference.cpu_p90,
                pct(cpu, 0.9) / kReference.cpu_p90);
    std::printf("  %-34s %12.3f %12.3f %8.3f\n", "CPU s per input, max", pct(cpu, 1.0), kReference.cpu_max,
                pct(cpu, 1.0) / kReference.cpu_max);
    std::printf("  %-34s %12.1f %12.1f %8.3f\n", "peak MiB per input, max", pct(mem, 1.0), kReference.mib_max,
                pct(mem, 1.0) / kReference.mib_max);
    std::printf("  window cells unknown: %zu of %zu (%.1f%%), in %zu of %zu inputs\n", unknown, cells, share, inputs_unknown,
                runs.size());
    for (const auto& [why, n] : reasons) std::printf("    %-14s %zu\n", why.c_str(), n);
    std::printf("  CPU seconds per input: median %.3f, p90 %.3f, max %.3f (%.2f x the 2 s target; %zu inputs over it%s)\n",
                pct(cpu, 0.5), pct(cpu, 0.9), pct(cpu, 1.0), pct(cpu, 1.0) / 2.0, over_cpu,
                killed ? (", " + std::to_string(killed) + " killed at --cpu-limit").c_str() : "");
    std::printf("  peak resident MiB per input: median %.1f, p90 %.1f, max %.1f (%.2f x the 200 MB target; %zu inputs over it)\n",
                pct(mem, 0.5), pct(mem, 0.9), pct(mem, 1.0), pct(mem, 1.0) * double(1 << 20) / 200e6, over_mem);
    std::vector<const Run*> order;
    for (const Run& r : runs) order.push_back(&r);
    auto show = [&](const char* what, auto&& key) {
        std::sort(order.begin(), order.end(), [&](const Run* a, const Run* b) { return key(*a) > key(*b); });
        std::printf("  %s (rerun: ltlkit classify FORMULA --alphabet %s --max-k %u):\n", what, alphabet_csv.c_str(), max_k);
        for (std::size_t i = 0; i < std::min<std::size_t>(5, order.size()); ++i)
            std::printf("    %7.3f s  %7.1f MiB  %2zu states  %s%s  '%s'\n", order[i]->cpu, order[i]->peak_mib,
                        order[i]->states, order[i]->unknown ? "unknown " : "", order[i]->unknown_cells.c_str(),
                        order[i]->formula.c_str());
    };
    show("slowest inputs", [](const Run& r) { return r.cpu; });
    show("largest inputs in memory", [](const Run& r) { return r.peak_mib; });
    return 0;
}
