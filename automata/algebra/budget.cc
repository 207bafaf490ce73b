#include "automata/algebra/budget.hh"

#include <algorithm>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <unistd.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace ltlkit::automata::algebra {

namespace {

struct State {
    SearchBudget budget;
    SearchBudget::Clock::time_point start, last_progress;
    BudgetBound reached = BudgetBound::None;
    std::uint64_t work_start = 0;  // work_done when the scope was installed
    std::size_t resident_start = 0;  // resident memory when the outermost scope was installed
    unsigned polls = 0;
    State* outer = nullptr;
};

thread_local State* current = nullptr;
thread_local std::uint64_t work_done = 0;
thread_local BudgetClockKind clock_kind = BudgetClockKind::Wall;
thread_local BudgetScopeObserver observer;

}  // namespace

void set_budget_clock(BudgetClockKind kind) { clock_kind = kind; }
BudgetClockKind budget_clock() { return clock_kind; }

BudgetClock::time_point BudgetClock::now() noexcept {
    if (clock_kind == BudgetClockKind::ThreadCpu) {
        timespec ts{};
        if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) == 0)
            return time_point(duration(std::int64_t(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec));
    }
    return time_point(std::chrono::duration_cast<duration>(std::chrono::steady_clock::now().time_since_epoch()));
}

void set_budget_scope_observer(BudgetScopeObserver o) { observer = std::move(o); }

BudgetScope::BudgetScope(const SearchBudget& budget) {
    if (!current && observer.open) observer.open();
    auto* s = new State;
    s->budget = budget;
    s->start = s->last_progress = SearchBudget::Clock::now();
    s->work_start = work_done;
    if (current) {  // a part of the outer scope's search: its progress continues the outer one's
        s->start = current->start;
        s->last_progress = current->last_progress;
        s->resident_start = current->resident_start;
    } else if (budget.memory_bytes || budget.progress) {
        s->resident_start = resident_bytes();
    }
    s->outer = current;
    current = s;
    saved_ = s;
}

BudgetScope::~BudgetScope() {
    auto* s = static_cast<State*>(saved_);
    current = s->outer;
    if (current) current->last_progress = std::max(current->last_progress, s->last_progress);
    const BudgetBound reached = s->reached;
    delete s;
    if (!current && observer.close) observer.close(reached);
}

std::size_t resident_bytes() {
    std::FILE* f = std::fopen("/proc/self/statm", "r");
    if (!f) return 0;
    unsigned long size = 0, resident = 0;
    const int got = std::fscanf(f, "%lu %lu", &size, &resident);
    std::fclose(f);
    if (got != 2) return 0;
    return std::size_t(resident) * std::size_t(sysconf(_SC_PAGESIZE));
}

std::size_t peak_resident_bytes() {
    std::FILE* f = std::fopen("/proc/self/status", "r");
    if (!f) return 0;
    char line[256];
    std::size_t kib = 0;
    while (std::fgets(line, sizeof line, f))
        if (std::strncmp(line, "VmHWM:", 6) == 0) {
            kib = std::strtoull(line + 6, nullptr, 10);
            break;
        }
    std::fclose(f);
    return kib << 10;
}

bool reset_peak_resident() {
    std::FILE* f = std::fopen("/proc/self/clear_refs", "w");
    if (!f) return false;
    const bool ok = std::fputs("5", f) >= 0;
    return std::fclose(f) == 0 && ok;
}

std::uint64_t budget_work_done() { return work_done; }

bool budget_exhausted() {
    State* s = current;
    if (!s) return false;
    if (s->reached != BudgetBound::None) return true;
    ++work_done;
    if (s->budget.work && work_done - s->work_start >= s->budget.work) {
        s->reached = BudgetBound::Work;
        return true;
    }
    // The clock costs ~20 ns and /proc ~2 us: read them every 16th and 256th poll.
    const unsigned n = s->polls++;
    if (n % 16 != 0) return false;
    const auto now = SearchBudget::Clock::now();
    if (now >= s->budget.deadline) {
        s->reached = BudgetBound::Time;
        return true;
    }
    const bool report = s->budget.progress && now - s->start >= std::chrono::seconds(1) &&
                        now - s->last_progress >= std::chrono::seconds(1);
    if ((s->budget.memory_bytes && n % 256 == 0) || report) {
        const std::size_t rss = resident_bytes();
        const std::size_t grown = rss > s->resident_start ? rss - s->resident_start : 0;
        if (s->budget.memory_bytes && grown > s->budget.memory_bytes) {
            s->reached = BudgetBound::Memory;
            return true;
        }
        if (report) {
            s->last_progress = now;
            s->budget.progress(std::chrono::duration<double>(now - s->start).count(), rss);
        }
    }
    return false;
}

bool budget_charge(std::uint64_t polls) {
    State* s = current;
    if (!s) return false;
    if (s->reached != BudgetBound::None) return true;
    if (polls > 1) work_done += polls - 1;
    return budget_exhausted();
}

BudgetBound budget_bound_reached() { return current ? current->reached : BudgetBound::None; }

void release_free_memory() {
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
}

}  // namespace ltlkit::automata::algebra
