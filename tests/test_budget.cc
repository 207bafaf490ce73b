// The search budget (automata/algebra/budget.hh): the wall and thread-CPU clocks against the
// system's own clocks, and the observer of the outermost scopes.
#include <catch2/catch.hpp>

#include <time.h>

#include <chrono>
#include <thread>
#include <vector>

#include "automata/algebra/budget.hh"
#include "automata/dfa.hh"
#include "automata/algebra/windows.hh"

using namespace ltlkit::automata;
using namespace ltlkit::automata::algebra;

namespace {

double thread_cpu_seconds() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}

// Polls the installed budget (it reads its clock every 16th poll) until it runs out or `seconds`
// of wall time have passed, burning CPU when `busy`, sleeping otherwise. True when it ran out.
bool poll_for(double seconds, bool busy) {
    const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (std::chrono::steady_clock::now() < end) {
        for (int i = 0; i < 32; ++i)
            if (budget_exhausted()) return true;
        if (!busy) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return false;
}

SearchBudget budget_of(double seconds) {
    SearchBudget b;
    b.deadline = SearchBudget::Clock::now() +
                 std::chrono::duration_cast<SearchBudget::Clock::duration>(std::chrono::duration<double>(seconds));
    return b;
}

struct ClockGuard {
    ~ClockGuard() { set_budget_clock(BudgetClockKind::Wall); }
};

}  // namespace

TEST_CASE("the thread CPU budget clock counts this thread's CPU time, the wall clock elapsed time", "[budget]") {
    ClockGuard guard;
    set_budget_clock(BudgetClockKind::ThreadCpu);
    REQUIRE(budget_clock() == BudgetClockKind::ThreadCpu);
    const double c0 = thread_cpu_seconds();
    const auto b0 = BudgetClock::now();
    std::this_thread::sleep_for(std::chrono::milliseconds(60));
    volatile double sink = 0;
    for (int i = 0; i < 20'000'000; ++i) sink = sink + 1e-9 * i;
    const double cpu = thread_cpu_seconds() - c0;
    const double on_clock = std::chrono::duration<double>(BudgetClock::now() - b0).count();
    CHECK(on_clock >= cpu - 0.005);
    CHECK(on_clock <= cpu + 0.005);  // the 60 ms asleep did not count

    set_budget_clock(BudgetClockKind::Wall);
    const auto w0 = BudgetClock::now();
    const auto s0 = std::chrono::steady_clock::now();
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - s0).count();
    const double on_wall = std::chrono::duration<double>(BudgetClock::now() - w0).count();
    CHECK(on_wall >= wall - 0.001);  // read around the steady clock's two reads
    CHECK(on_wall <= wall + 0.25);   // (preemption between the reads can only add)
}

TEST_CASE("a CPU-time budget survives sleeping and runs out by computing while a wall budget runs out asleep", "[budget]") {
    ClockGuard guard;
    {
        set_budget_clock(BudgetClockKind::Wall);
        BudgetScope scope(budget_of(0.05));
        CHECK(poll_for(0.5, false));
        CHECK(budget_bound_reached() == BudgetBound::Time);
    }
    set_budget_clock(BudgetClockKind::ThreadCpu);
    BudgetScope scope(budget_of(0.05));
    CHECK(!poll_for(0.2, false));  // 200 ms asleep, far under 50 ms of CPU
    CHECK(budget_bound_reached() == BudgetBound::None);
    CHECK(poll_for(20, true));
    CHECK(budget_bound_reached() == BudgetBound::Time);
}

TEST_CASE("the scope observer sees each window question once, with the bound that ended it", "[budget]") {
    std::vector<BudgetBound> closed;
    int opened = 0;
    set_budget_scope_observer({[&] { ++opened; }, [&](BudgetBound b) { closed.push_back(b); }});
    {
        BudgetScope outer(budget_of(10));
        BudgetScope inner(budget_of(10));  // nested: not a question of its own
    }
    CHECK(opened == 1);
    REQUIRE(closed.size() == 1);
    CHECK(closed[0] == BudgetBound::None);
    // A window question installs one outermost scope (with its searches nested inside it).
    Dfa d;  // Σ*a over {a, b}: not in LTL[Y<=2]
    d.alphabet = {"a", "b"};
    d.initial = 0;
    d.accepting = {0, 1};
    d.delta = {1, 0, 1, 0};
    WindowOptions o;
    o.time_limit_s = 30;
    auto w = decide_local_k(d, 2, o);
    CHECK(w.answer == Answer::No);
    CHECK(opened == 2);
    CHECK(closed.size() == 2);
    set_budget_scope_observer({});
    const std::size_t rss = resident_bytes();
    CHECK(rss > 0);
    CHECK(peak_resident_bytes() >= rss);
}

TEST_CASE("a nested scope continues the question's progress: its seconds count from the question's start", "[budget]") {
    // decide() gives each search its share of the question in a nested scope; the progress line
    // (about once a second after the first second) must keep the question's clock, not restart it
    // with every share.
    ClockGuard guard;
    set_budget_clock(BudgetClockKind::Wall);
    std::vector<double> reported;
    SearchBudget outer = budget_of(30);
    outer.progress = [&](double seconds, std::size_t) { reported.push_back(seconds); };
    BudgetScope question(outer);
    std::this_thread::sleep_for(std::chrono::milliseconds(1100));
    {
        SearchBudget share = outer;
        share.deadline = SearchBudget::Clock::now() + std::chrono::milliseconds(400);
        BudgetScope part(share);
        CHECK(poll_for(5, true));  // the share runs out after 0.4 s ...
        CHECK(budget_bound_reached() == BudgetBound::Time);
    }
    REQUIRE(!reported.empty());  // ... having reported the question's time (> 1 s) on the way
    CHECK(reported.front() >= 1.0);
    const std::size_t in_share = reported.size();
    CHECK(!poll_for(0.3, true));  // back in the question: its own deadline is far, and the
    CHECK(reported.size() == in_share);  // last report was under a second ago
}

TEST_CASE("a work budget stops after exactly its number of polls, on any clock and load", "[budget]") {
    for (std::uint64_t n : {1u, 7u, 1000u}) {
        SearchBudget b;
        b.work = n;
        BudgetScope scope(b);
        std::uint64_t polls = 0;
        while (!budget_exhausted()) ++polls;
        CHECK(polls == n - 1);  // the n-th poll reports the bound
        CHECK(budget_bound_reached() == BudgetBound::Work);
    }
    // A nested share counts its polls in the outer scope's work too.
    SearchBudget outer;
    outer.work = 100;
    BudgetScope o(outer);
    {
        SearchBudget part = outer;
        part.work = 30;
        BudgetScope p(part);
        while (!budget_exhausted()) {
        }
    }
    std::uint64_t rest = 0;
    while (!budget_exhausted()) ++rest;
    CHECK(rest == 100 - 30 - 1);
}

TEST_CASE("the memory bound counts what the process gains while the scope runs, not what it held", "[budget]") {
    if (resident_bytes() == 0) return;  // no /proc
    // 64 MiB held (and touched) before the scope: a 32 MiB bound is not reached by them.
    std::vector<char> held(64u << 20, 1);
    SearchBudget b;
    b.memory_bytes = 32u << 20;
    BudgetScope scope(b);
    bool out = false;
    for (int i = 0; i < 4096 && !out; ++i) out = budget_exhausted();
    CHECK_FALSE(out);
    // 96 MiB gained inside the scope are.
    std::vector<char> gained(96u << 20, 1);
    for (int i = 0; i < 4096 && !out; ++i) out = budget_exhausted();
    CHECK(out);
    CHECK(budget_bound_reached() == BudgetBound::Memory);
    CHECK(held[12345] + gained[54321] == 2);
}
