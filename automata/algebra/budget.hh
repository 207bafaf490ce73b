// A work, time and memory budget for the open-ended searches behind the window questions
// (docs/WINDOWS.md). The searches poll `budget_exhausted()` in their inner loops (once per product
// state, candidate formula, period, ...); the work bound counts these polls, so that it buys the
// same search on every machine and under any load: the answer of a question depends only on its
// input and its budget. The deadline (wall or CPU time) is an explicit alternative, whose answers
// depend on the machine's speed and load. The memory bound is on the growth of the resident memory
// since the outermost scope was installed (read from /proc/self/statm): what the searches'
// allocations occupy, not what the process held before (a Python caller's own data). Once a bound
// is reached the poll stays true until the scope that installed the budget ends, and every search
// returns what it has. Without an installed budget the poll is always false.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

namespace ltlkit::automata::algebra {

// What the budget clock measures: wall time (the steady clock; the default) or the CPU time of the
// calling thread (CLOCK_THREAD_CPUTIME_ID), which does not shrink when other processes share the
// cores, so that a budget buys the same search on a busy machine as on an idle one.
enum class BudgetClockKind { Wall, ThreadCpu };

// Selects the budget clock of the calling thread. Change it only while no budget is installed on
// the thread (deadlines taken on one clock mean nothing on the other).
void set_budget_clock(BudgetClockKind kind);
BudgetClockKind budget_clock();

// A std::chrono clock that reads the calling thread's budget clock, in nanoseconds.
struct BudgetClock {
    using rep = std::int64_t;
    using period = std::nano;
    using duration = std::chrono::nanoseconds;
    using time_point = std::chrono::time_point<BudgetClock>;
    static constexpr bool is_steady = true;
    static time_point now() noexcept;
};

struct SearchBudget {
    using Clock = BudgetClock;
    Clock::time_point deadline = Clock::time_point::max();
    std::uint64_t work = 0;        // polls of budget_exhausted() in this scope; 0: no work bound
    std::size_t memory_bytes = 0;  // growth of the resident memory; 0: no memory bound
    // Called about once a second once the question has run for more than a second.
    std::function<void(double seconds, std::size_t resident_bytes)> progress;
};

enum class BudgetBound { None, Time, Memory, Work };

// Polls of budget_exhausted() made on this thread under an installed budget (the work clock).
std::uint64_t budget_work_done();

// Installs `budget` for the current thread while alive (nested scopes replace the outer one).
class BudgetScope {
public:
    explicit BudgetScope(const SearchBudget& budget);
    ~BudgetScope();
    BudgetScope(const BudgetScope&) = delete;
    BudgetScope& operator=(const BudgetScope&) = delete;

private:
    void* saved_;
};

// True once the installed budget's work or deadline has passed or the resident memory has grown
// beyond its bound.
bool budget_exhausted();
// budget_exhausted() for a step that costs `polls` polls at once (polls >= 1): the work clock
// advances by that many. For steps whose cost is known in advance and varies (compiling a candidate
// formula back: one monitor state costs its program size; docs/WINDOWS.md §5b).
bool budget_charge(std::uint64_t polls);
// The memory that one poll pays for. A step that allocates `bytes` that stay while its search runs
// (a product state, an interned type or set) charges 1 + bytes / kBytesPerPoll polls
// (budget_charge_bytes), so that the work bound also bounds what the searches hold: a question of
// W polls keeps at most about kBytesPerPoll · W bytes of such structures (twice that with the
// slack of growing vectors and hash tables), on every machine (docs/WINDOWS.md, "The budget";
// calibrated in docs/PERFORMANCE.md, "Every window strategy under the default budget").
inline constexpr std::size_t kBytesPerPoll = 128;
inline bool budget_charge_bytes(std::size_t bytes) { return budget_charge(1 + bytes / kBytesPerPoll); }
// Which bound ended the current scope's searches (None while neither has been reached).
BudgetBound budget_bound_reached();

// Resident memory of this process in bytes (0 where /proc is unavailable).
std::size_t resident_bytes();

// Peak resident memory of this process in bytes (VmHWM of /proc/self/status; 0 where unavailable),
// and a reset of that peak to the current resident memory (false where the kernel does not allow
// it), so that a benchmark can measure the peak of one question.
std::size_t peak_resident_bytes();
bool reset_peak_resident();

// Observes the outermost budget scopes of the calling thread (one per window question: a question
// installs its scope, nested ones are the parts of its search): `open` runs when one is installed,
// `close` when it ends, with the bound that ended its searches. For benchmarks; empty by default.
struct BudgetScopeObserver {
    std::function<void()> open;
    std::function<void(BudgetBound)> close;
};
void set_budget_scope_observer(BudgetScopeObserver observer);

// Returns freed heap memory to the system, so that the next question's memory bound measures its
// own structures.
void release_free_memory();

}  // namespace ltlkit::automata::algebra
