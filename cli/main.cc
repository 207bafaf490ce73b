// Entry point of `ltlkit` (symbolic commands) and `ltlkit-neural` (train, eval, verify, report).
// `ltlkit` keeps LibTorch out of its process: it hands the neural commands to the sibling
// executable `ltlkit-neural`, git-style, so symbolic commands start in milliseconds.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>
#include <string_view>
#include <utility>
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
    {"sweep", "Random languages of the prediction strata verified level by level (escalating)"},
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

// Bare `ltlkit`: what a user needs to go on, on stderr (stdout stays empty, as for every usage
// error), one line per command; the caller exits 2 like any other missing argument.
void print_command_list() {
    std::vector<std::pair<std::string, std::string>> commands;
    for (const auto& def : ltlkit::cli::registered_commands()) commands.emplace_back(def.name, def.description);
#ifndef LTLKIT_NEURAL_EXE
    for (const auto& nc : kNeuralCommands) commands.emplace_back(nc[0], nc[1]);
#endif
    std::size_t width = 0;
    for (const auto& c : commands) width = std::max(width, c.first.size());
    std::cerr << "ltlkit: error: no command given; the commands are:\n";
    for (const auto& [name, description] : commands)
        std::cerr << "  " << name << std::string(width - name.size() + 2, ' ') << description << '\n';
    std::cerr << "Run 'ltlkit COMMAND --help' for a command's options and examples, 'ltlkit --help' for all.\n";
}

// Levenshtein distance (insertions, deletions, substitutions), for "did you mean".
std::size_t edit_distance(std::string_view a, std::string_view b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diagonal = up;
        }
    }
    return row[b.size()];
}

// CLI11's ExtrasError ("The following arguments were not expected: ...") made useful: the first
// `--name` (or `--name=value`) on the command line that the command does not know, with the
// closest option of that command when one is near (at most 2 edits, or a third of the name).
// Empty when no argument looks like an unknown long option (a stray positional argument): the
// caller then keeps CLI11's message.
std::string unknown_option_message(const CLI::App& app, int argc, char** argv) {
    const CLI::App* command = nullptr;
    for (const CLI::App* sub : app.get_subcommands()) command = sub;
    const CLI::App& scope = command ? *command : app;
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "--") break;
        if (arg.size() < 3 || arg.substr(0, 2) != "--") continue;
        const std::string name(arg.substr(0, arg.find('=')));
        if (scope.get_option_no_throw(name) || app.get_option_no_throw(name)) continue;
        std::string best;
        std::size_t best_distance = std::max<std::size_t>(2, (name.size() - 2) / 3) + 1;
        for (const CLI::Option* opt : scope.get_options())
            for (const std::string& lname : opt->get_lnames()) {
                const std::size_t d = edit_distance(name, "--" + lname);
                if (d < best_distance) best_distance = d, best = "--" + lname;
            }
        if (!command)
            for (const CLI::App* sub : app.get_subcommands({}))
                if (sub->get_option_no_throw(name))
                    return "'" + ltlkit::printable(name, 80) + "' is an option of a command: write the command first (ltlkit COMMAND " +
                           ltlkit::printable(name, 80) + " ...)";
        std::string where = command ? " for '" + command->get_name() + "'" : std::string();
        std::string help = command ? "ltlkit " + command->get_name() + " --help" : std::string("ltlkit --help");
        return "unknown option '" + ltlkit::printable(name, 80) + "'" + where +
               (best.empty() ? " (see '" + help + "' for the options)" : " (did you mean " + best + "?)");
    }
    return {};
}

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
    if (argc == 1) {
        print_command_list();
        return 2;
    }
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
    } catch (const CLI::RequiredError& e) {
        // `ltlkit --bogus`, `ltlkit --alphabet a`: options but no command.
        if (!app.get_subcommands().empty()) {
            std::cerr << "ltlkit: error: " << ltlkit::printable(e.what()) << "\n";
        } else if (const std::string message = unknown_option_message(app, argc, argv); !message.empty()) {
            std::cerr << "ltlkit: error: " << message << "\n";
        } else {
            print_command_list();
        }
        return 2;
    } catch (const CLI::ExtrasError& e) {
        const std::string message = unknown_option_message(app, argc, argv);
        std::cerr << "ltlkit: error: " << (message.empty() ? ltlkit::printable(e.what()) : message) << "\n";
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
        // Work that stopped on a Ctrl-C at a safe point (base/stop.hh) ends as the handler would.
        if (f.error.exit_code == 130) {
            print_interrupted();
            return 130;
        }
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
