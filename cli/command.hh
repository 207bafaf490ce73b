// The subcommand registry of the CLI: each cli/cmd_*.cc (symbolic, in `ltlkit`) or
// cli/ncmd_*.cc (neural, in `ltlkit-neural`) registers itself with LTLKIT_COMMAND, so adding a
// command touches no other file. Commands are thin layers over the libraries (after Spot's bin/).
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "base/error.hh"

namespace ltlkit::cli {

// Called after parsing when the subcommand was selected; returns the exit code.
using Runner = std::function<int()>;

struct CommandDef {
    std::string name;
    std::string description;
    // Adds the options to `app` (capturing their storage) and returns the runner.
    std::function<Runner(CLI::App& app)> setup;
};

int register_command(CommandDef def);
const std::vector<CommandDef>& registered_commands();

#define LTLKIT_CONCAT2(a, b) a##b
#define LTLKIT_CONCAT(a, b) LTLKIT_CONCAT2(a, b)
#define LTLKIT_COMMAND(...) \
    static const int LTLKIT_CONCAT(ltlkit_command_, __LINE__) = ::ltlkit::cli::register_command(__VA_ARGS__)

// Thrown by commands: main prints "ltlkit: error: <message>" (plus the caret lines of a parse
// error) and exits with `code`. Libraries never throw this; they return Result.
struct Failure : std::runtime_error {
    Error error;
    explicit Failure(Error e) : std::runtime_error(e.message), error(std::move(e)) {}
};
[[noreturn]] void fail(Error e);
[[noreturn]] void fail(const std::string& message, int exit_code = 2);

// Unwraps a Result or fails with its error.
template <class T>
T take(Result<T> r) {
    if (!r.ok()) fail(r.error());
    return std::move(r).value();
}

}  // namespace ltlkit::cli
