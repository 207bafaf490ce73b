// Deeply nested unary operators, formula text -> minimal DFA: parse and compile times (CPU time of
// the thread, so that other processes on the machine do not count) at depths 1k, 10k, 100k (or the
// depths given), with the ratio to the previous depth (10 for linear growth, 100 for quadratic),
// the minimal DFA's size and the process's peak resident memory after each depth.
//
//   bench_nested_unary [DEPTH...]          (default 1000 10000 100000)
//
// Families: P^n a (an a at least n positions before EOS: n+1 states), H^n a (n+1 states),
// (P Y)^(n/2) a (the same language as P^n a for even n) and Y<=n a (one operator with a large
// window: n+1 states).
#include <time.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "automata/algebra/budget.hh"
#include "automata/monitor.hh"
#include "ltl/parser.hh"

using namespace ltlkit;

namespace {

double cpu_seconds() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + ts.tv_nsec * 1e-9;
}

std::string repeat(const std::string& s, std::size_t n) {
    std::string out;
    out.reserve(s.size() * n);
    for (std::size_t i = 0; i < n; ++i) out += s;
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<std::size_t> depths;
    for (int i = 1; i < argc; ++i) {
        char* end = nullptr;
        const unsigned long long d = std::strtoull(argv[i], &end, 10);
        if (!end || *end || d == 0) {
            std::fprintf(stderr, "bench_nested_unary: '%s' is not a positive depth\n", argv[i]);
            return 2;
        }
        depths.push_back(static_cast<std::size_t>(d));
    }
    if (depths.empty()) depths = {1000, 10000, 100000};
    struct Family {
        const char* name;
        std::function<std::string(std::size_t)> text;
    };
    const std::vector<Family> families = {
        {"P^n a", [](std::size_t n) { return repeat("P ", n) + "a"; }},
        {"H^n a", [](std::size_t n) { return repeat("H ", n) + "a"; }},
        {"(P Y)^(n/2) a", [](std::size_t n) { return repeat("P Y ", n / 2) + "a"; }},
        {"Y<=n a", [](std::size_t n) { return "Y<=" + std::to_string(n) + " a"; }},
    };
    const std::vector<std::string> alphabet{"a", "b"};
    std::printf("%-14s %8s %10s %10s %8s %8s %10s\n", "family", "depth", "parse_s", "compile_s", "ratio", "states",
                "peak_MiB");
    int status = 0;
    for (const Family& fam : families) {
        double previous = 0;
        std::size_t previous_depth = 0;
        for (std::size_t n : depths) {
            const std::string text = fam.text(n);
            const double t0 = cpu_seconds();
            auto f = ltl::parse_formula(text);
            const double t1 = cpu_seconds();
            if (!f) {
                std::printf("%-14s %8zu parse error: %s\n", fam.name, n, f.error().message.c_str());
                status = 1;
                continue;
            }
            automata::CompileOptions o;
            o.max_states = 10'000'000;
            auto d = automata::compile(*f, alphabet, o);
            const double t2 = cpu_seconds();
            if (!d) {
                std::printf("%-14s %8zu compile error: %s\n", fam.name, n, d.error().message.c_str());
                status = 1;
                continue;
            }
            const double total = t2 - t0;
            char ratio[32] = "-";
            if (previous > 0)
                std::snprintf(ratio, sizeof ratio, "%.1f/%zu", total / previous, n / std::max<std::size_t>(previous_depth, 1));
            std::printf("%-14s %8zu %10.4f %10.4f %8s %8zu %10.1f\n", fam.name, n, t1 - t0, t2 - t1, ratio,
                        d->num_states(), double(automata::algebra::peak_resident_bytes()) / double(1 << 20));
            std::fflush(stdout);
            previous = total;
            previous_depth = n;
        }
    }
    std::printf("ratio: (parse + compile time) / that of the previous depth, over the depth ratio\n");
    return status;
}
