// A time and memory budget for the open-ended searches behind the window questions
// (docs/WINDOWS.md): a deadline on the steady clock and a bound on the resident memory of the
// process (read from /proc/self/statm, i.e. what the searches' allocations really occupy). The
// searches poll `budget_exhausted()` in their inner loops; once a bound is reached the poll stays
// true until the scope that installed the budget ends, and every search returns what it has.
// Without an installed budget the poll is always false.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <string>

namespace ltlkit::automata::algebra {

struct SearchBudget {
    using Clock = std::chrono::steady_clock;
    Clock::time_point deadline = Clock::time_point::max();
    std::size_t memory_bytes = 0;  // 0: no memory bound
    // Called about once a second once the question has run for more than a second.
    std::function<void(double seconds, std::size_t resident_bytes)> progress;
};

enum class BudgetBound { None, Time, Memory };

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

// True once the installed budget's deadline has passed or the resident memory exceeds its bound.
bool budget_exhausted();
// Which bound ended the current scope's searches (None while neither has been reached).
BudgetBound budget_bound_reached();

// Resident memory of this process in bytes (0 where /proc is unavailable).
std::size_t resident_bytes();

// Returns freed heap memory to the system, so that the next question's memory bound measures its
// own structures.
void release_free_memory();

}  // namespace ltlkit::automata::algebra
