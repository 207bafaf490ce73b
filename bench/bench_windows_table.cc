// The table of docs/WINDOWS.md: every minimal complete DFA with at most N states over an alphabet
// of size S (canonically numbered, so each language once) that is definite or locally R-trivial,
// with the answers of decide_local_k / decide_hybrid_k for k = 2..K, each certificate re-verified
// through check_window_certificate. Prints Markdown rows and a summary (counts, unknowns, time).
//
//   bench_windows_table [max_states=4] [symbols=2] [max_k=4] [--only-definite] [--shard I/N] [--random N[:SEED]]
//                       [--classify | --question-time S | --question-work N] [--window-work N] [--window-time S]
//                       [--window-memory MIB]
//                       [--clock wall|cpu] [--only ROW:local|hybrid:K,...]
//                       [--window-budget STEPS] [--probe-depth D] [--probe-states N] [--from ROW]
// --shard I/N decides only the rows whose number is I+1 modulo N (rows keep their global numbers;
// the summary counts this shard's rows), so that N processes share a long table. --random N[:SEED]
// replaces the enumeration by N distinct random minimal locally R-trivial DFAs with exactly
// max_states states (for sizes whose enumeration is out of reach; the unknown rate beyond the tables).
//
// Budgets (without either option the questions run without a time or memory bound):
// --classify answers every row as `ltlkit classify --max-k K` does: classify() with its default
// budget (--window-work steps shared by the window questions, --window-memory 400 MiB, optionally
// --window-time S; each can be changed), including the answers it propagates between local_k and
// hybrid_k. --question-work N decides every question on its own with N steps.
// --question-time S decides every question on its own with S seconds and --window-memory MIB
// (default 400). --clock cpu measures these seconds in CPU time of the thread instead of wall time,
// so that the answers do not depend on the load of the machine. --only decides only the listed
// cells (e.g. the unknown cells of an earlier run, which the summary prints in this form).
// --from ROW skips the rows before ROW (their numbers stay): a run cut short resumes where it
// stopped, and `--random 200:S --from 26` extends a sample of 25 (the rows of a seed do not depend
// on N). --window-budget, --probe-depth and --probe-states are classify's options of the same names (the
// searches' steps and the depth probe's bounds), for either mode.
// With a budget, every question prints one line "question ROW KIND K ANSWER wall_s cpu_s peak_MiB
// BOUND WORK" to stderr, and the summary adds the median, p90 and maximum of these over the questions.
#include <algorithm>
#include <cinttypes>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <random>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include <time.h>

#include <nlohmann/json.hpp>

#include "automata/algebra/budget.hh"
#include "automata/algebra/classify.hh"
#include "automata/algebra/windows.hh"
#include "automata/algorithms.hh"

using namespace ltlkit::automata;
using namespace ltlkit::automata::algebra;

namespace {

// The certificate exactly as `classify --certificates` writes it (docs/CLASSES.md §3).
std::string cert_json(const Certificate& c, const Dfa& d) { return certificate_to_json(c, d); }

std::string describe(const Dfa& d) {
    std::string s = "δ=";
    for (std::size_t q = 0; q < d.num_states(); ++q) {
        if (q) s += ",";
        for (Symbol a = 0; a < d.num_symbols(); ++a) s += std::to_string(d.next(static_cast<State>(q), a));
    }
    s += " F={";
    bool first = true;
    for (std::size_t q = 0; q < d.num_states(); ++q)
        if (d.is_accepting(static_cast<State>(q))) {
            if (!first) s += ",";
            s += std::to_string(q);
            first = false;
        }
    return s + "}";
}

std::string cell(const WindowDecision& w, const Dfa& d) {
    if (w.answer == Answer::Yes && w.certificate.kind == CertificateKind::DepthTypes)
        return "yes: depth-" + std::to_string(w.certificate.window.value_or(WindowFields{}).depth.value_or(0)) + " types separate";
    if (w.answer == Answer::Yes) {
        // The formulas of the window-type and sink-state strategies (docs/WINDOWS.md §3b, §3c) run to thousands of characters: summarized.
        const WindowFields* f = w.certificate.window ? &*w.certificate.window : nullptr;
        const std::string size = f ? std::to_string(f->formula_size.value_or(0)) : "0";
        if (f && f->route == "sink")
            return std::string(f->past_letters.value_or(false) || f->mixed.value_or(false) ? "yes: extended sink route, depth-"
                                                                                            : "yes: sink route, depth-") +
                   std::to_string(f->type_depth.value_or(0)) + " window types (formula of tree size " + size + ")";
        if (f && f->type_depth)
            return "yes: depth-" + std::to_string(*f->type_depth) + " window types (formula of tree size " + size + ")";
        // Other long formulas (the LTL[P] formula of an R-trivial language, a large bottom-up one).
        if (w.certificate.formula && w.certificate.formula->size() > 600 && f)
            return "yes: formula of tree size " + size + " (not shown)";
        return "yes: `" + w.certificate.formula.value_or("(omitted)") + "`";
    }
    if (w.answer == Answer::No) {
        const auto& f = *w.certificate.family;
        auto fw = [&](const Word& v) { return v.empty() ? std::string("ε") : format_word(d.alphabet, v); };
        return "no: " + (f.x.empty() ? std::string() : fw(f.x) + "·") + "(" + fw(f.p) + ")^r·" + fw(f.y) + " / " + fw(f.z);
    }
    // unknown: the exact depth probe's lower bound, if it found one (docs/WINDOWS.md §5)
    const WindowFields* s = w.certificate.window ? &*w.certificate.window : nullptr;
    if (s && s->depth_lower_bound)
        return "**unknown** (no formula of depth ≤ " + std::to_string(*s->depth_lower_bound) + ")";
    return "**unknown**";
}

double thread_cpu_seconds() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}

double wall_seconds() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// One window question's cost, measured from its outermost budget scope (budget.hh).
struct QuestionCost {
    double wall = 0, cpu = 0;
    std::size_t peak = 0;  // peak resident bytes of the process during the question
    BudgetBound bound = BudgetBound::None;
    std::uint64_t work = 0;  // polls of the budget (the work clock, budget.hh)
};

std::string bound_name(BudgetBound b) {
    return b == BudgetBound::Time ? "time" : b == BudgetBound::Memory ? "memory" : b == BudgetBound::Work ? "work" : "-";
}

// Median, p90 and maximum (nearest rank) of xs.
std::string distribution(std::vector<double> xs, const char* unit) {
    if (xs.empty()) return "-";
    std::sort(xs.begin(), xs.end());
    auto rank = [&](double q) { return xs[std::min(xs.size() - 1, std::size_t(q * double(xs.size() - 1) + 0.5))]; };
    char buf[160];
    std::snprintf(buf, sizeof buf, "median %.3g %s, p90 %.3g %s, max %.3g %s", rank(0.5), unit, rank(0.9), unit,
                  xs.back(), unit);
    return buf;
}

}  // namespace

int main(int argc, char** argv) {
    std::size_t max_states = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 4;
    std::size_t symbols = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 2;
    unsigned max_k = argc > 3 ? static_cast<unsigned>(std::strtoul(argv[3], nullptr, 10)) : 4;
    bool only_definite = false;
    std::size_t shard = 0, shards = 1, random_rows = 0, first_row = 1;
    unsigned long long seed = 1;
    bool classify_mode = false, cpu_clock = false;
    double question_time = 0, window_time = 0;
    std::uint64_t window_work = ClassifyOptions::kDefaultWindowWork, question_work = 0;
    std::size_t window_memory_mib = 400;
    const WindowOptions window_defaults;
    std::size_t search_budget = window_defaults.search_budget, probe_states = window_defaults.probe_states;
    unsigned probe_depth = window_defaults.probe_depth;
    std::set<std::tuple<std::size_t, bool, unsigned>> only;  // (row, hybrid, k)
    auto parse_only = [&](const char* text) {
        std::string list = text;
        std::size_t pos = 0;
        while (pos < list.size()) {
            std::size_t end = list.find(',', pos);
            if (end == std::string::npos) end = list.size();
            const std::string item = list.substr(pos, end - pos);
            std::size_t r = 0;
            unsigned k = 0;
            char kind[16] = {};
            if (std::sscanf(item.c_str(), "%zu:%15[a-z]:%u", &r, kind, &k) != 3 ||
                (std::strcmp(kind, "local") != 0 && std::strcmp(kind, "hybrid") != 0))
                return false;
            only.insert({r, std::strcmp(kind, "hybrid") == 0, k});
            pos = end + 1;
        }
        return !only.empty();
    };
    for (int i = 4; i < argc; ++i) {
        if (std::strcmp(argv[i], "--only-definite") == 0) {
            only_definite = true;
        } else if (std::strcmp(argv[i], "--shard") == 0 && i + 1 < argc &&
                   std::sscanf(argv[i + 1], "%zu/%zu", &shard, &shards) == 2 && shards > 0 && shard < shards) {
            ++i;
        } else if (std::strcmp(argv[i], "--random") == 0 && i + 1 < argc &&
                   std::sscanf(argv[i + 1], "%zu:%llu", &random_rows, &seed) >= 1 && random_rows > 0) {
            ++i;
        } else if (std::strcmp(argv[i], "--classify") == 0) {
            classify_mode = true;
        } else if (std::strcmp(argv[i], "--question-time") == 0 && i + 1 < argc &&
                   std::sscanf(argv[i + 1], "%lf", &question_time) == 1 && question_time > 0) {
            ++i;
        } else if (std::strcmp(argv[i], "--window-time") == 0 && i + 1 < argc &&
                   std::sscanf(argv[i + 1], "%lf", &window_time) == 1 && window_time >= 0) {
            ++i;
        } else if (std::strcmp(argv[i], "--window-work") == 0 && i + 1 < argc &&
                   std::sscanf(argv[i + 1], "%" SCNu64, &window_work) == 1) {
            ++i;
        } else if (std::strcmp(argv[i], "--question-work") == 0 && i + 1 < argc &&
                   std::sscanf(argv[i + 1], "%" SCNu64, &question_work) == 1 && question_work > 0) {
            ++i;
        } else if (std::strcmp(argv[i], "--window-memory") == 0 && i + 1 < argc &&
                   std::sscanf(argv[i + 1], "%zu", &window_memory_mib) == 1) {
            ++i;
        } else if (std::strcmp(argv[i], "--clock") == 0 && i + 1 < argc &&
                   (std::strcmp(argv[i + 1], "cpu") == 0 || std::strcmp(argv[i + 1], "wall") == 0)) {
            cpu_clock = std::strcmp(argv[i + 1], "cpu") == 0;
            ++i;
        } else if (std::strcmp(argv[i], "--only") == 0 && i + 1 < argc && parse_only(argv[i + 1])) {
            ++i;
        } else if (std::strcmp(argv[i], "--from") == 0 && i + 1 < argc &&
                   std::sscanf(argv[i + 1], "%zu", &first_row) == 1 && first_row >= 1) {
            ++i;
        } else if (std::strcmp(argv[i], "--window-budget") == 0 && i + 1 < argc &&
                   std::sscanf(argv[i + 1], "%zu", &search_budget) == 1) {
            ++i;
        } else if (std::strcmp(argv[i], "--probe-depth") == 0 && i + 1 < argc &&
                   std::sscanf(argv[i + 1], "%u", &probe_depth) == 1) {
            ++i;
        } else if (std::strcmp(argv[i], "--probe-states") == 0 && i + 1 < argc &&
                   std::sscanf(argv[i + 1], "%zu", &probe_states) == 1) {
            ++i;
        } else {
            std::cerr << "bench_windows_table: unknown or malformed argument '" << argv[i]
                      << "' (expected --only-definite, --shard I/N with I < N, --random N[:SEED] with N > 0, "
                         "--classify, --question-time S > 0, --window-time S, --window-memory MIB, --clock wall|cpu, "
                         "--only ROW:local|hybrid:K,..., --from ROW >= 1, --window-budget STEPS, --probe-depth D or --probe-states N)\n";
            return 2;
        }
    }
    if (max_states < 1 || symbols < 1 || symbols > 26 || max_k < 2) {
        std::cerr << "bench_windows_table: need max_states >= 1, 1 <= symbols <= 26 and max_k >= 2\n";
        return 2;
    }
    if (classify_mode && (question_time > 0 || question_work > 0 || !only.empty())) {
        std::cerr << "bench_windows_table: --classify answers whole rows: it takes neither --question-time nor --only\n";
        return 2;
    }
    const bool budgeted = classify_mode || question_time > 0 || question_work > 0;
    if (cpu_clock) set_budget_clock(BudgetClockKind::ThreadCpu);
    // The cost of each question, from its outermost budget scope.
    std::vector<QuestionCost> costs;
    double open_wall = 0, open_cpu = 0;
    std::uint64_t open_work = 0;
    if (budgeted) {
        BudgetScopeObserver observer;
        observer.open = [&] {
            reset_peak_resident();
            open_wall = wall_seconds();
            open_cpu = thread_cpu_seconds();
            open_work = budget_work_done();
        };
        observer.close = [&](BudgetBound b) {
            costs.push_back({wall_seconds() - open_wall, thread_cpu_seconds() - open_cpu, peak_resident_bytes(), b,
                             budget_work_done() - open_work});
        };
        set_budget_scope_observer(observer);
    }
    WindowOptions wopt;
    wopt.search_budget = search_budget;
    wopt.probe_depth = probe_depth;
    wopt.probe_states = probe_states;
    if (question_time > 0 || question_work > 0) {
        wopt.time_limit_s = question_time;
        wopt.work_limit = question_work;
        wopt.memory_limit_bytes = window_memory_mib << 20;
    }
    std::vector<double> q_wall, q_cpu, q_peak;
    std::map<std::pair<bool, unsigned>, std::size_t> unknown_by_k;  // (hybrid, k) -> unknown answers
    std::string unknown_cells;
    std::vector<std::string> alphabet;
    for (std::size_t i = 0; i < symbols; ++i) alphabet.push_back(std::string(1, char('a' + i)));

    auto t0 = std::chrono::steady_clock::now();
    std::size_t n_def = 0, n_lrt = 0, unknown_local = 0, unknown_hybrid = 0, bad = 0, over_cap = 0, yes_l = 0, no_l = 0, yes_h = 0,
                no_h = 0;
    std::cout << "| # | states | DFA | definite | k | local_k | hybrid_k |\n|---|---|---|---|---|---|---|\n";
    std::size_t row = 0;
    Dfa d_of_row;
    auto verify = [&](const WindowDecision& w, const Dfa& d) {
        if (w.answer == Answer::Unknown) return;
        if (w.answer == Answer::Yes && w.certificate.kind == CertificateKind::Formula && !w.certificate.formula) {
            // A yes whose formula is over --formula-cap (decide() kept it after no later route
            // gave one within the cap): nothing to re-verify, counted apart from the failures.
            ++over_cap;
            std::cerr << "certificate not re-verifiable: " << describe(d) << " " << to_string(w.certificate.class_id) << ": "
                      << w.certificate.formula_omitted.value_or("no formula") << "\n";
            return;
        }
        std::string why;
        auto ok = check_window_certificate(cert_json(w.certificate, d), &why);
        if (!ok || !*ok) {
            ++bad;
            std::cerr << "certificate failed: " << describe(d) << " " << to_string(w.certificate.class_id) << ": "
                      << (ok ? why : ok.error().message) << "\n";
        }
    };
    // One question's line on stderr and its share of the distributions.
    auto record = [&](std::size_t r, bool hybrid, unsigned k, const WindowDecision& w, const QuestionCost& c) {
        std::cerr << "question " << r << " " << (hybrid ? "hybrid" : "local") << " " << k << " " << to_string(w.answer)
                  << " " << c.wall << " " << c.cpu << " " << double(c.peak) / double(1 << 20) << " " << bound_name(c.bound) << " " << c.work
                  << "\n";
        q_wall.push_back(c.wall);
        q_cpu.push_back(c.cpu);
        q_peak.push_back(double(c.peak) / double(1 << 20));
    };
    auto count = [&](std::size_t r, bool hybrid, unsigned k, const WindowDecision& w) {
        std::size_t& yes = hybrid ? yes_h : yes_l;
        std::size_t& no = hybrid ? no_h : no_l;
        if (w.answer == Answer::Yes) ++yes;
        if (w.answer == Answer::No) ++no;
        if (w.answer == Answer::Unknown) {
            ++(hybrid ? unknown_hybrid : unknown_local);
            ++unknown_by_k[{hybrid, k}];
            if (!unknown_cells.empty()) unknown_cells += ',';
            unknown_cells += std::to_string(r);
            unknown_cells += hybrid ? ":hybrid:" : ":local:";
            unknown_cells += std::to_string(k);
        }
        verify(w, d_of_row);
    };
    // One row: d is minimal, canonical and locally R-trivial (definite when only_definite).
    auto decide_row = [&](const Dfa& d, bool def) {
        if (row++ % shards != shard || row < first_row) return;
        const std::size_t r = row;
        auto wanted = [&](bool hybrid, unsigned k) { return only.empty() || only.count({r, hybrid, k}) > 0; };
        bool any = false;
        for (unsigned k = 2; k <= max_k; ++k) any = any || (def && wanted(false, k)) || wanted(true, k);
        if (!any) return;
        (def ? n_def : n_lrt)++;
        d_of_row = d;
        std::map<std::pair<bool, unsigned>, WindowDecision> answers;
        if (classify_mode) {
            ClassifyOptions o;
            o.max_k = max_k;
            o.window_time_s = window_time;
            o.window_work = window_work;
            o.window_memory_bytes = window_memory_mib << 20;
            o.window_budget = search_budget;
            o.probe_depth = probe_depth;
            o.probe_states = probe_states;
            costs.clear();
            auto c = classify(d, o);
            if (!c) {
                std::cerr << "classify failed on " << describe(d) << ": " << c.error().message << "\n";
                ++bad;
                return;
            }
            // The questions classify asked, in its order: local_k when definite, then hybrid_k unless
            // local_k is yes; the rest it answered by the inclusions.
            std::size_t q = 0;
            for (unsigned k = 2; k <= max_k; ++k)
                for (bool hybrid : {false, true}) {
                    WindowDecision w;
                    w.answer = hybrid ? c->hybrid_k.at(k) : c->local_k.at(k);
                    w.certificate = c->certificates.at(window_class_id(hybrid, k));
                    if (hybrid || def) answers[{hybrid, k}] = w;
                    const bool asked = hybrid ? c->local_k.at(k) != Answer::Yes : def;
                    if (asked && q < costs.size()) record(r, hybrid, k, w, costs[q++]);
                }
            if (q != costs.size())
                std::cerr << "row " << r << ": " << costs.size() << " budget scopes for " << q << " questions\n";
        } else {
            for (unsigned k = 2; k <= max_k; ++k)
                for (bool hybrid : {false, true}) {
                    if ((!hybrid && !def) || !wanted(hybrid, k)) continue;
                    costs.clear();
                    WindowDecision w = hybrid ? decide_hybrid_k(d, k, wopt) : decide_local_k(d, k, wopt);
                    release_free_memory();  // as classify does, so that the next question's peak is its own
                    if (budgeted && costs.size() == 1) record(r, hybrid, k, w, costs[0]);
                    answers[{hybrid, k}] = w;
                }
        }
        for (unsigned k = 2; k <= max_k; ++k) {
            std::string lc = "—", hc = "—";
            if (auto it = answers.find({false, k}); it != answers.end()) {
                lc = cell(it->second, d);
                count(r, false, k, it->second);
            }
            if (auto it = answers.find({true, k}); it != answers.end()) {
                hc = cell(it->second, d);
                count(r, true, k, it->second);
            }
            std::cout << "| " << (k == 2 ? std::to_string(r) : "") << " | "
                      << (k == 2 ? std::to_string(d.num_states()) : "") << " | " << (k == 2 ? describe(d) : "") << " | "
                      << (k == 2 ? (def ? "yes" : "no") : "") << " | " << k << " | " << lc << " | " << hc << " |\n";
            std::cout.flush();
        }
    };
    if (random_rows > 0) {
        // Distinct random minimal DFAs with exactly max_states states (uniform transitions and
        // acceptance, minimized and canonically renumbered), kept when locally R-trivial.
        std::mt19937_64 rng(seed);
        std::set<std::string> seen;
        for (std::size_t tries = 0; seen.size() < random_rows && tries < random_rows * 100000; ++tries) {
            Dfa d;
            d.alphabet = alphabet;
            d.initial = 0;
            d.accepting.resize(max_states);
            for (auto& a : d.accepting) a = rng() % 2;
            d.delta.resize(max_states * symbols);
            for (auto& t : d.delta) t = static_cast<State>(rng() % max_states);
            d = canonical(minimize(d));
            if (d.num_states() != max_states || !locally_r_trivial_by_pair_graph(d)) continue;
            const bool def = definite_by_pair_graph(d);
            if ((only_definite && !def) || !seen.insert(describe(d)).second) continue;
            decide_row(d, def);
        }
    } else {
        for (std::size_t n = 1; n <= max_states; ++n) {
            std::size_t cells = n * symbols;
            std::vector<State> delta(cells, 0);
            while (true) {
                for (std::uint32_t accmask = 0; accmask < (1u << n); ++accmask) {
                    Dfa d;
                    d.alphabet = alphabet;
                    d.initial = 0;
                    d.delta = delta;
                    d.accepting.resize(n);
                    for (std::size_t q = 0; q < n; ++q) d.accepting[q] = (accmask >> q) & 1;
                    if (!is_minimal(d) || !(canonical(d) == d)) continue;
                    bool def = definite_by_pair_graph(d);
                    bool lrt = locally_r_trivial_by_pair_graph(d);
                    if (!lrt || (only_definite && !def)) continue;
                    decide_row(d, def);
                }
                std::size_t i = 0;
                while (i < cells && ++delta[i] == n) delta[i++] = 0;
                if (i == cells) break;
            }
        }
    }
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::cout << "\nSummary: " << n_def << " definite and " << n_lrt
              << " further locally R-trivial minimal DFAs with <= " << max_states << " states over " << symbols
              << " letters" << (random_rows > 0 ? " (random sample of exactly " + std::to_string(max_states) + " states, seed " + std::to_string(seed) + ")" : std::string())
              << "; k = 2.." << max_k << ": local_k yes " << yes_l << ", no " << no_l << ", unknown "
              << unknown_local << "; hybrid_k yes " << yes_h << ", no " << no_h << ", unknown " << unknown_hybrid
              << "; certificates failing re-verification: " << bad
              << "; yes without a re-verifiable formula (over the formula cap): " << over_cap << "; " << secs << " s\n";
    if (budgeted) {
        std::cout << "Budget: "
                  << (classify_mode ? "classify defaults, --window-work " + std::to_string(window_work) + " steps and --window-time " +
                                         std::to_string(window_time) + " s shared"
                                    : std::to_string(question_time) + " s per question")
                  << ", --window-memory " << window_memory_mib << " MiB, --window-budget " << search_budget
                  << ", --probe-depth " << probe_depth << ", --probe-states " << probe_states << ", "
                  << (cpu_clock ? "thread CPU" : "wall")
                  << " clock\nUnknown by k:";
        for (unsigned k = 2; k <= max_k; ++k)
            std::cout << " local_" << k << " " << unknown_by_k[{false, k}] << ", hybrid_" << k << " "
                      << unknown_by_k[{true, k}] << (k < max_k ? ";" : "\n");
        std::cout << "Questions asked: " << q_wall.size() << "; wall " << distribution(q_wall, "s") << "; CPU "
                  << distribution(q_cpu, "s") << "; peak resident " << distribution(q_peak, "MiB") << "\n";
        std::cout << "Unknown cells: " << (unknown_cells.empty() ? "none" : unknown_cells) << "\n";
    }
    return bad == 0 ? 0 : 1;
}
