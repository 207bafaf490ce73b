// Ctrl-C (SIGINT) and SIGTERM during a long command: one message on stderr saying where the
// command stopped and how to go on, then exit 130.
//
// The command keeps the message current with set_interrupt_note() as it goes; the signal handler
// only writes the current message and ends the process (async-signal-safe: write and _exit, no
// allocation, no lock). Two buffers alternate, so the handler never reads the one being written.
// Nothing is half-written by the exit because every output file is written atomically (a
// temporary, then a rename); temporaries of an interrupted run are removed by the rerun.
#pragma once

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "base/stop.hh"

namespace ltlkit::cli {

namespace interrupt_detail {
inline char notes[2][4096];
inline std::atomic<int> current{0};
// defer_interrupts(): the first signal is only noted (deferred) and announced with defer_note.
inline char defer_note[1024];
inline std::atomic<bool> deferring{false}, deferred{false};

extern "C" inline void on_signal(int) {
    // Inside a StopPoints scope (base/stop.hh: training): the work stops at its next safe point,
    // writing a checkpoint there, and the command ends as interrupted (print_interrupted).
    if (request_stop()) {
        static const char msg[] =
            "\nltlkit: interrupt received: stopping after the current training step and writing a checkpoint "
            "there (interrupt again to stop at once)\n";
        [[maybe_unused]] auto a = ::write(2, msg, sizeof msg - 1);
        return;
    }
    if (deferring.load() && !deferred.exchange(true)) {
        static const char prefix[] = "\nltlkit: interrupt received: ";
        [[maybe_unused]] auto a = ::write(2, prefix, sizeof prefix - 1);
        [[maybe_unused]] auto b = ::write(2, defer_note, std::strlen(defer_note));
        [[maybe_unused]] auto c = ::write(2, "\n", 1);
        return;
    }
    const char* note = notes[current.load()];
    static const char prefix[] = "\nltlkit: interrupted: ";
    [[maybe_unused]] auto a = ::write(2, prefix, sizeof prefix - 1);
    [[maybe_unused]] auto b = ::write(2, note, std::strlen(note));
    [[maybe_unused]] auto c = ::write(2, "\n", 1);
    _exit(130);
}
}  // namespace interrupt_detail

// The message of an interrupt from now on (after "ltlkit: interrupted: "; cut at 4 KiB).
inline void set_interrupt_note(const std::string& note) {
    using namespace interrupt_detail;
    const int next = 1 - current.load();
    const std::size_t n = std::min(note.size(), sizeof notes[next] - 1);
    std::memcpy(notes[next], note.data(), n);
    notes[next][n] = '\0';
    current.store(next);
}

// The end of a command whose work stopped on request (an Error with exit code 130 from
// interrupted_error(), base/stop.hh): the current note, as the handler would have printed it.
inline void print_interrupted() {
    using namespace interrupt_detail;
    std::fprintf(stderr, "ltlkit: interrupted: %s\n", notes[current.load()]);
}

// Installs the handler for SIGINT and SIGTERM with a first message.
inline void catch_interrupts(const std::string& note) {
    set_interrupt_note(note);
    struct sigaction sa {};
    sa.sa_handler = interrupt_detail::on_signal;
    sigemptyset(&sa.sa_mask);
    ::sigaction(SIGINT, &sa, nullptr);
    ::sigaction(SIGTERM, &sa, nullptr);
}

// From now on the first signal does not end the process: it prints "ltlkit: interrupt received: "
// and `note` (what the command finishes first), and interrupt_deferred() turns true; the command
// then finishes its last step and ends as interrupted (exit 130). A second signal ends it at once
// with the current note. For work whose loss would cost more than its end (an evaluation whose test
// lengths are all done, only its result left to write). Called at most once per process.
inline void defer_interrupts(const std::string& note) {
    using namespace interrupt_detail;
    if (deferring.load()) return;
    const std::size_t n = std::min(note.size(), sizeof defer_note - 1);
    std::memcpy(defer_note, note.data(), n);
    defer_note[n] = '\0';
    deferring.store(true);
}

// A signal arrived while interrupts were deferred.
inline bool interrupt_deferred() { return interrupt_detail::deferred.load(); }

// Back to the default actions (the command's long part is over).
inline void release_interrupts() {
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);
}

// A word as the shell reads it back: kept when it holds only safe characters, else single-quoted.
inline std::string shell_quote(const std::string& word) {
    if (!word.empty() && word.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                                "0123456789@%+=:,./_-") == std::string::npos)
        return word;
    std::string out = "'";
    for (char ch : word) out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
    return out + "'";
}

// This process's arguments, argv[0] first (Linux: /proc/self/cmdline; empty elsewhere).
inline std::vector<std::string> own_arguments() {
    std::ifstream in("/proc/self/cmdline", std::ios::binary);
    std::vector<std::string> args;
    for (std::string arg; std::getline(in, arg, '\0');) args.push_back(arg);
    return args;
}

// This process's command line as the user would type it: "ltlkit" and the arguments, quoted for
// the shell ("ltlkit" also when the neural executable runs it).
inline std::string own_command_text() {
    const auto args = own_arguments();
    std::string text = "ltlkit";
    for (std::size_t i = 1; i < args.size(); ++i) text += " " + shell_quote(args[i]);
    return text;
}

}  // namespace ltlkit::cli
