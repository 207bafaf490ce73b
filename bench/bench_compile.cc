// Formula -> minimal DFA timing: reachable monitor states, minimal states, the
// construction and minimization time measured inside the process (start-up excluded), and peak
// memory. With --emit-mona FILE it also writes the formula as M2L-Str (the pure-past translation
// of LTLf2DFA, with the EOS position as MONA's last position $) for bench/scripts/compile_vs_mona.sh.
//
// Usage: bench_compile [--alphabet a,b] [--repeat R] [--emit-mona FILE] FORMULA
#include <sys/resource.h>

#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <string>

#include "automata/algorithms.hh"
#include "automata/language.hh"
#include "automata/monitor.hh"
#include "ltl/parser.hh"

using namespace ltlkit;

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// CPU time of this thread: on a loaded machine (several builds at once) the fair measure.
double cpu_seconds() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + ts.tv_nsec * 1e-9;
}

// M2L-Str with one predicate per subformula: φ holds at position x. Positions 0..$-1 carry the
// symbols (one set variable per symbol, a partition), $ is the EOS position where none holds.
std::string to_mona(ltl::Formula f, const std::vector<std::string>& alphabet) {
    std::string out = "m2l-str;\n";
    out += "var2 ";
    for (std::size_t i = 0; i < alphabet.size(); ++i) out += (i ? ", " : "") + std::string("S_") + alphabet[i];
    out += ";\n";
    std::map<std::size_t, std::string> name;
    for (ltl::Formula g : ltl::subformulas_postorder(f)) {
        const std::string n = "f" + std::to_string(g.id());
        name[g.id()] = n;
        auto c = [&](std::size_t i, const std::string& var) { return name[g.child(i).id()] + "(" + var + ")"; };
        std::string body;
        switch (g.op()) {
            case ltl::Op::True: body = "true"; break;
            case ltl::Op::False: body = "false"; break;
            case ltl::Op::Atom: body = "x in S_" + g.name(); break;
            case ltl::Op::Not: body = "~" + c(0, "x"); break;
            case ltl::Op::And: body = c(0, "x") + " & " + c(1, "x"); break;
            case ltl::Op::Or: body = c(0, "x") + " | " + c(1, "x"); break;
            case ltl::Op::Implies: body = c(0, "x") + " => " + c(1, "x"); break;
            case ltl::Op::Iff: body = c(0, "x") + " <=> " + c(1, "x"); break;
            case ltl::Op::Past: body = "ex1 y: y < x & " + c(0, "y"); break;
            case ltl::Op::Historically: body = "all1 y: y < x => " + c(0, "y"); break;
            case ltl::Op::Yesterday: body = "ex1 y: x = y + 1 & " + c(0, "y"); break;
            case ltl::Op::BoundedYesterday:
                body = "ex1 y: y < x & x <= y + " + std::to_string(g.k()) + " & " + c(0, "y");
                break;
            case ltl::Op::Since:
                body = "ex1 j: j < x & " + c(1, "j") + " & (all1 l: j < l & l < x => " + c(0, "l") + ")";
                break;
        }
        out += "pred " + n + "(var1 x) = " + body + ";\n";
    }
    // MONA's $ is the set of all positions; max($) the last one, our EOS position.
    out += "all1 p: p < max($) => ((";
    for (std::size_t i = 0; i < alphabet.size(); ++i) out += (i ? " | " : "") + std::string("p in S_") + alphabet[i];
    out += ")";
    for (std::size_t i = 0; i < alphabet.size(); ++i)
        for (std::size_t j = i + 1; j < alphabet.size(); ++j)
            out += " & ~(p in S_" + alphabet[i] + " & p in S_" + alphabet[j] + ")";
    out += ");\n";
    for (const auto& s : alphabet) out += "~(max($) in S_" + s + ");\n";
    out += name[f.id()] + "(max($));\n";
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    std::string alphabet_csv, mona_file, text;
    int repeat = 3;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--alphabet" && i + 1 < argc) alphabet_csv = argv[++i];
        else if (a == "--repeat" && i + 1 < argc) repeat = std::max(1, std::atoi(argv[++i]));
        else if (a == "--emit-mona" && i + 1 < argc) mona_file = argv[++i];
        else text = a;
    }
    if (text.empty()) {
        std::cerr << "usage: bench_compile [--alphabet a,b] [--repeat R] [--emit-mona FILE] FORMULA\n";
        return 2;
    }
    auto f = ltl::parse_formula(text);
    if (!f.ok()) {
        std::cerr << "bench_compile: " << f.error().render() << "\n";
        return 2;
    }
    auto given = automata::parse_alphabet(alphabet_csv);
    auto alphabet = given.ok() ? automata::formula_alphabet(*f, *given) : Result<std::vector<std::string>>(given.error());
    if (!alphabet.ok()) {
        std::cerr << "bench_compile: " << alphabet.error().render() << "\n";
        return 2;
    }
    if (!mona_file.empty()) {
        std::ofstream out(mona_file);
        out << to_mona(*f, *alphabet);
    }
    double best_construct = 1e100, best_minimize = 1e100, best_total = 1e100;
    double best_cpu_construct = 1e100, best_cpu_minimize = 1e100;
    std::size_t reachable = 0, minimal = 0;
    for (int r = 0; r < repeat; ++r) {
        const double c0 = cpu_seconds();
        auto t0 = std::chrono::steady_clock::now();
        auto raw = automata::compile(*f, *alphabet, {50'000'000, false});
        const double construct = seconds_since(t0);
        const double c1 = cpu_seconds();
        if (!raw.ok()) {
            std::cerr << "bench_compile: " << raw.error().render() << "\n";
            return 3;
        }
        auto t1 = std::chrono::steady_clock::now();
        automata::Dfa d = automata::minimize(*raw);
        const double minimize = seconds_since(t1);
        best_cpu_construct = std::min(best_cpu_construct, c1 - c0);
        best_cpu_minimize = std::min(best_cpu_minimize, cpu_seconds() - c1);
        best_construct = std::min(best_construct, construct);
        best_minimize = std::min(best_minimize, minimize);
        best_total = std::min(best_total, construct + minimize);
        reachable = raw->num_states();
        minimal = d.num_states();
    }
    struct rusage usage {};
    getrusage(RUSAGE_SELF, &usage);
    std::printf(
        "{\"formula_chars\": %zu, \"alphabet\": %zu, \"reachable\": %zu, \"minimal\": %zu, "
        "\"construct_s\": %.6f, \"minimize_s\": %.6f, \"total_s\": %.6f, \"cpu_construct_s\": %.6f, "
        "\"cpu_minimize_s\": %.6f, \"cpu_total_s\": %.6f, \"peak_rss_mb\": %.1f}\n",
        text.size(), alphabet->size(), reachable, minimal, best_construct, best_minimize, best_total,
        best_cpu_construct, best_cpu_minimize, best_cpu_construct + best_cpu_minimize,
        usage.ru_maxrss / 1024.0);
    return 0;
}
