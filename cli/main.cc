// Entry point of `ltlkit` (symbolic commands) and `ltlkit-neural` (train, eval, verify, report).
// `ltlkit` keeps LibTorch out of its process: it hands the neural commands to the sibling
// executable `ltlkit-neural`, git-style, so symbolic commands start in milliseconds.
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "cli/command.hh"
#include "cli/common.hh"
#include "cli/interrupt.hh"

namespace ltlkit::cli {

namespace {
std::vector<CommandDef>& registry() {
    static std::vector<CommandDef> r;
    return r;
}
}  // namespace

int register_command(CommandDef def) {
    registry().push_back(std::move(def));
    return static_cast<int>(registry().size());
}
const std::vector<CommandDef>& registered_commands() { return registry(); }

void fail(Error e) { throw Failure(std::move(e)); }
void fail(const std::string& message, int exit_code) {
    Error e;
    e.message = message;
    e.exit_code = exit_code;
    throw Failure(std::move(e));
}

}  // namespace ltlkit::cli

namespace {

const char* const kNeuralCommands[][2] = {
    {"train", "Train a recognizer (global, local-K, hybrid-K transformer or LSTM) on a language"},
    {"eval", "Evaluate a trained run on long, boundary and adversarial words"},
    {"score", "Print each word's logit under a trained run's recognizer (> 0: accepted)"},
    {"verify", "End to end: classify, predict, generate, train, evaluate, judge, report"},
    {"report", "Merge verification output folders (shards) into one report"},
    {"lm", "Causal language models with global, local-K and hybrid-K attention (train, eval, sweep)"},
};

#ifndef LTLKIT_NEURAL_EXE
// Replaces this process by `ltlkit-neural ARGS...` from the same folder as this executable.
int exec_neural(int argc, char** argv) {
    std::error_code ec;
    auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
    std::filesystem::path target = ec ? std::filesystem::path("ltlkit-neural")
                                      : self.parent_path() / "ltlkit-neural";
    if (!std::filesystem::exists(target)) {
        std::fprintf(stderr,
                     "ltlkit: error: '%s' needs the neural executable %s, which was not built "
                     "(LibTorch missing?)\n",
                     argv[1], target.c_str());
        return 2;
    }
    std::vector<char*> args;
    std::string name = target.string();
    args.push_back(name.data());
    for (int i = 1; i < argc; ++i) args.push_back(argv[i]);
    args.push_back(nullptr);
    execv(name.c_str(), args.data());
    std::fprintf(stderr, "ltlkit: error: cannot run %s: %s\n", name.c_str(), std::strerror(errno));
    return 4;
}
#endif

void print_error(const ltlkit::Error& e) {
    std::cerr << "ltlkit: error: " << e.render() << std::flush;
    const std::string r = e.render();
    if (r.empty() || r.back() != '\n') std::cerr << '\n';
}

}  // namespace

int main(int argc, char** argv) {
    using namespace ltlkit::cli;
    init_stdout();
#ifdef LTLKIT_NEURAL_EXE
    // Until a command installs its own message (train, eval, verify): a Ctrl-C while the
    // arguments are read still says what happened.
    catch_interrupts("stopped before any work began; nothing was written; rerun the same command");
#endif
#ifndef LTLKIT_NEURAL_EXE
    if (argc > 1) {
        for (const auto& nc : kNeuralCommands)
            if (std::strcmp(argv[1], nc[0]) == 0) return exec_neural(argc, argv);
    }
#endif
    // An unknown command name is an error naming the valid ones (CLI11 would take it for a stray
    // argument and print the main help).
    if (argc > 1 && argv[1][0] != '-') {
        std::string names;
        bool known = false;
        auto consider = [&](const std::string& name) {
            known = known || name == argv[1];
            names += (names.empty() ? "" : ", ") + name;
        };
        for (const auto& def : registered_commands()) consider(def.name);
#ifndef LTLKIT_NEURAL_EXE
        for (const auto& nc : kNeuralCommands) consider(nc[0]);
#endif
        if (!known) {
            std::cerr << "ltlkit: error: unknown command '" << argv[1] << "' (commands: " << names << ")\n";
            return 2;
        }
    }
    // Named "ltlkit" in every usage line, also when ltlkit-neural runs a neural command.
    CLI::App app{"ltlkit: which attention architecture can recognize this regular language?", "ltlkit"};
    app.require_subcommand(1);
    app.set_version_flag("--version", std::string("ltlkit ") + LTLKIT_VERSION);
    std::vector<std::pair<CLI::App*, Runner>> runners;
    for (const auto& def : registered_commands()) {
        CLI::App* sub = app.add_subcommand(def.name, def.description);
        runners.emplace_back(sub, def.setup(*sub));
    }
    strict_option_values(app);
#ifndef LTLKIT_NEURAL_EXE
    for (const auto& nc : kNeuralCommands) app.add_subcommand(nc[0], nc[1])->allow_extras();
#endif
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ConversionError& e) {
        // "Could not convert: --d-model = 2147483648": the strict checks (common.hh) let only
        // plain decimal numbers of 64 bits through, so what fails here is the option's own range.
        const std::string what = e.what();
        const auto eq = what.find(" = ");
        const auto colon = what.find(": ");
        if (eq != std::string::npos && colon != std::string::npos && colon < eq)
            std::cerr << "ltlkit: error: " << ltlkit::printable(what.substr(colon + 2, eq - colon - 2)) << ": '"
                      << ltlkit::printable(what.substr(eq + 3), 80) << "' is out of range for this option\n";
        else
            std::cerr << "ltlkit: error: " << ltlkit::printable(what) << "\n";
        return 2;
    } catch (const CLI::ParseError& e) {
        std::cerr << "ltlkit: error: " << ltlkit::printable(e.what()) << "\n";
        return 2;
    }
#ifdef LTLKIT_NEURAL_EXE
    release_interrupts();
#endif
    try {
        for (auto& [sub, run] : runners)
            if (sub->parsed()) {
                const int code = run();
                // A command whose output did not reach stdout (a full disk, /dev/full, a closed
                // stdout) failed, whatever it returned.
                if (auto e = stdout_error()) {
                    print_error(*e);
                    return e->exit_code;
                }
                flush_notes();
                return code;
            }
    } catch (const Failure& f) {
        print_error(f.error);
        return f.error.exit_code;
    } catch (const std::bad_alloc&) {
        std::cerr << "ltlkit: error: out of memory: an allocation failed (the machine's memory or a ulimit -v); "
                     "lower --max-states or --max-work, give a smaller input, or allow the process more memory\n";
        return 3;
    } catch (const std::exception& e) {
        std::cerr << "ltlkit: error: internal error: " << ltlkit::printable(e.what()) << "\n";
        return 4;
    }
    return 2;
}
