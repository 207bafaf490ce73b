// Stopping at a safe point: work that can end cleanly part-way (training, which writes a checkpoint
// at the step it reached) opens a StopPoints scope; while it is open, the CLI's Ctrl-C handler
// (cli/interrupt.hh) only records the request (request_stop) instead of ending the process, and
// the work polls stop_requested() at its safe points and returns interrupted_error() from there.
// Outside such a scope a signal ends the process at once, as before. docs/DURABILITY.md, "Ctrl-C".
//
// One word of state, changed only by atomic read-modify-writes, so that a request is never lost
// between the last poll and the end of the scope: either the handler sees the scope open (the
// request is recorded and the scope's end reports it) or it sees it closed (it ends the process).
// Async-signal-safe (a lock-free atomic); one scope at a time per process.
#pragma once

#include <atomic>
#include <string>

#include "base/error.hh"

namespace ltlkit {

namespace stop_detail {
inline constexpr unsigned kOpen = 1, kRequested = 2;
inline std::atomic<unsigned> state{0};
static_assert(std::atomic<unsigned>::is_always_lock_free);
}  // namespace stop_detail

// What the signal handler calls: true when a StopPoints scope is open and this is the first
// request (the work stops at its next safe point); false when the caller must stop at once (no
// scope open, or a request was already pending: a second Ctrl-C).
inline bool request_stop() {
    const unsigned before = stop_detail::state.fetch_or(stop_detail::kRequested);
    return (before & stop_detail::kOpen) && !(before & stop_detail::kRequested);
}

// A stop was requested while the scope is open.
inline bool stop_requested() { return stop_detail::state.load() & stop_detail::kRequested; }

// The error a library returns when it stopped on request (exit code 130, as the handler's exit):
// the CLI prints the command's current interrupt note instead of an error line.
inline Error interrupted_error(std::string what) {
    Error e = make_error(std::move(what));
    e.exit_code = 130;
    return e;
}

// While alive, a signal asks the work to stop at its next safe point. close() ends the scope and
// says whether a stop was requested (also one that came after the last poll); the destructor
// closes it when close() was not called.
class StopPoints {
public:
    StopPoints() { stop_detail::state.store(stop_detail::kOpen); }
    StopPoints(const StopPoints&) = delete;
    StopPoints& operator=(const StopPoints&) = delete;
    ~StopPoints() { close(); }
    bool close() {
        if (closed_) return false;
        closed_ = true;
        return stop_detail::state.exchange(0) & stop_detail::kRequested;
    }

private:
    bool closed_ = false;
};

}  // namespace ltlkit
