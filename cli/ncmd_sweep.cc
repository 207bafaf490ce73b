// `ltlkit sweep`: random languages of the prediction strata, each level one `ltlkit verify`
// (neural/verify/sweep.hh; docs/PROTOCOL.md "Sweeps", docs/CLUSTER.md for Slurm).
#ifdef LTLKIT_HAVE_ALGEBRA
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <iostream>
#include <sstream>

#include "automata/dataset.hh"
#include "cli/command.hh"
#include "cli/common.hh"
#include "cli/interrupt.hh"
#include "neural/calibrate.hh"
#include "neural/cost.hh"
#include "neural/verify/verify.hh"
#include "neural/verify/sweep.hh"

namespace ltlkit::cli {
namespace {

namespace nv = ltlkit::neural::verify;

struct SweepArgs {
    std::string out, report, strata, suite, archs, letters = "2,3", states = "3:8", shard;
    std::size_t per_stratum = 10;
    std::uint64_t seed = 1;
    std::string profile = "demo";
    int levels = 3, level = -1, threads = 1, estimate = 0;
    double max_hours = 24;
    std::string device = "cpu";
    bool quiet = false, json = false;
};

std::vector<std::string> split_csv(const std::string& s) {
    std::vector<std::string> out;
    std::stringstream in(s);
    std::string part;
    while (std::getline(in, part, ','))
        if (!part.empty()) out.push_back(part);
    return out;
}

volatile sig_atomic_t g_child = 0;

// SIGINT or SIGTERM sent to the sweep alone (kill PID; a terminal's Ctrl-C reaches the whole
// process group, the verify included) is passed on to the running verify, which stops as it does
// on Ctrl-C; the sweep then says how to resume.
void forward_signal(int sig, siginfo_t* info, void*) {
    if (g_child > 0 && info && (info->si_code == SI_USER || info->si_code == SI_QUEUE)) kill(g_child, sig);
}

// Runs this executable with ARGS (`ltlkit-neural verify ...`), its output on ours; its exit code.
// The sweep does not stop on a signal while the verify runs: verify prints where it stopped and
// exits (130), and the sweep then says how to resume.
Result<int> run_self(const std::vector<std::string>& args) {
    std::error_code ec;
    const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (ec) return io_error("cannot find this executable (/proc/self/exe): " + ec.message());
    std::vector<std::string> argv = {exe.string()};
    argv.insert(argv.end(), args.begin(), args.end());
    std::cout.flush();
    std::cerr.flush();
    struct sigaction fwd {}, old_int {}, old_term {};
    fwd.sa_sigaction = forward_signal;
    fwd.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&fwd.sa_mask);
    sigaction(SIGINT, &fwd, &old_int);
    sigaction(SIGTERM, &fwd, &old_term);
    const pid_t pid = fork();
    if (pid < 0) {
        sigaction(SIGINT, &old_int, nullptr);
        sigaction(SIGTERM, &old_term, nullptr);
        return io_error("cannot start ltlkit verify (fork failed)");
    }
    if (pid == 0) {
        sigaction(SIGINT, &old_int, nullptr);
        sigaction(SIGTERM, &old_term, nullptr);
        std::vector<char*> c;
        for (auto& a : argv) c.push_back(a.data());
        c.push_back(nullptr);
        execv(c[0], c.data());
        _exit(127);
    }
    g_child = pid;
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    g_child = 0;
    sigaction(SIGINT, &old_int, nullptr);
    sigaction(SIGTERM, &old_term, nullptr);
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    return 130;
}

int run_sweep_command(const SweepArgs& a) {
    if (!a.report.empty()) {
        auto rep = take(nv::build_sweep_report(a.report));
        if (a.json)
            std::cout << rep.json << (rep.json.empty() || rep.json.back() != '\n' ? "\n" : "");
        else
            std::cout << "wrote " << a.report << "/sweep.md and sweep.json\n" << rep.summary << "\n";
        return 0;
    }
    if (a.out.empty()) fail("sweep: give --out DIR (the sweep folder), or --report DIR");
    nv::SweepRequest r;
    r.strata = split_csv(a.strata);
    r.suite = a.suite;
    r.archs = split_csv(a.archs);
    r.per_stratum = a.per_stratum;
    r.alphabet_sizes.clear();
    for (const auto& s : split_csv(a.letters)) {
        try {
            std::size_t pos = 0;
            const unsigned long n = std::stoul(s, &pos);
            if (pos != s.size()) throw std::invalid_argument(s);
            r.alphabet_sizes.push_back(n);
        } catch (const std::exception&) {
            fail("--letters " + a.letters + ": expected alphabet sizes such as 2,3");
        }
    }
    const auto range = take(automata::parse_length_range(a.states));
    r.min_states = range.lo;
    r.max_states = range.hi;
    r.seed = a.seed;
    r.profile = a.profile;
    r.levels = a.levels;
    r.max_hours = a.max_hours;
    if (a.level >= 0) r.only_level = a.level;
    if (!a.shard.empty()) std::tie(r.shard_index, r.shard_count) = take(nv::parse_shard(a.shard));
    r.threads = a.threads;
    r.device = a.device;
    r.quiet = a.quiet;
    auto log = [q = a.quiet](const std::string& line) {
        if (!q) std::cerr << line << std::endl;
    };
    // The cost said first, and --estimate, rest on one calibration here (verify's, neural/calibrate.hh).
    const nv::SecondsPerRun seconds_per_run = [device = a.device](const neural::Config& base) -> Result<double> {
        neural::Config c = base;
        c.runtime.threads = 1;  // as each run of verify
        auto d = neural::parse_device(device);
        if (!d.ok()) return d.error();
        c.runtime.device = *d;
        auto rate = neural::measure_throughput(c, 0.6);
        if (!rate.ok()) return rate.error();
        return neural::estimate_cost(c, 1, 1, c.runtime.device == neural::Device::Cuda, &*rate).seconds_per_run;
    };
    if (a.estimate > 0) {
        std::cout << take(nv::estimate_sweep(r, a.out, a.estimate, log, seconds_per_run));
        return 0;
    }
    nv::SweepHooks hooks;
    hooks.run_verify_argv = run_self;
    hooks.log = log;
    hooks.seconds_per_run = seconds_per_run;
    // A signal between the levels' verifies (while drawing, planning a level or writing the
    // report) ends the sweep here; during a verify it is passed on (run_self). Every file is
    // written atomically, so a rerun resumes either way.
    catch_interrupts("sweep stopped between its levels' verifies; nothing is half-written; rerun the same command "
                     "to resume: " + own_command_text());
    auto swept = nv::run_sweep(r, a.out, hooks);
    // An interrupted level's verify (exit 130): main ends the command as interrupted, with this
    // message (where the sweep stopped and how to resume) after its own.
    if (!swept.ok() && swept.error().exit_code == 130) set_interrupt_note(swept.error().message);
    release_interrupts();
    auto rep = take(std::move(swept));
    if (a.json)
        std::cout << rep.json << (rep.json.empty() || rep.json.back() != '\n' ? "\n" : "");
    else
        std::cout << "Sweep report: " << a.out << "/sweep.md (also sweep.json)\n" << rep.summary << "\n";
    return 0;
}

LTLKIT_COMMAND(CommandDef{
    "sweep",
    "Random languages of the prediction strata verified level by level, escalating cells without evidence.\n"
    "Example: ltlkit sweep --per-stratum 2 --out results/sweep",
    [](CLI::App& app) -> Runner {
        auto a = std::make_shared<SweepArgs>();
        app.add_option("--out", a->out, "The sweep folder (rerun the same command to resume)")->type_name("DIR");
        app.add_option("--report", a->report, "Rebuild DIR/sweep.md and sweep.json from its level folders, then exit")
            ->type_name("DIR");
        app.add_option("--strata", a->strata,
                       "Strata, comma-separated (default: all but rt_definite, whose languages are finite or cofinite, "
                       "and star_free_not_lrt; docs/PROTOCOL.md \"Sweeps\"): rt_definite, "
                       "rt_not_definite, definite_not_rt, lrt_only, none, definite_local2, definite_not_local2, "
                       "lrt_only_hybrid2, lrt_only_not_hybrid2, star_free_not_lrt")
            ->type_name("LIST");
        app.add_option("--suite", a->suite,
                       "Verify the languages of a suite file (docs/SYNTAX.md §10) instead of drawn ones, with the "
                       "same levels and escalation (`make run` does this with examples/quick.suite)")
            ->type_name("FILE");
        app.add_option("--archs", a->archs,
                       "With --suite: the architectures, comma-separated (default: global, local-1, hybrid-1 and the "
                       "k = 2 windows whose prediction differs)")
            ->type_name("LIST");
        app.add_option("--per-stratum", a->per_stratum, "Languages per stratum (default 10)")->check(at_least(1));
        app.add_option("--letters", a->letters, "Alphabet sizes, alternating within a stratum (default 2,3)")
            ->type_name("LIST");
        app.add_option("--states", a->states, "States of the minimal complete DFA, A:B (default 3:8)")->type_name("A:B");
        app.add_option("--seed", a->seed, "Seed of the draw (default 1)");
        app.add_option("--profile", a->profile, "Level 0's profile (default demo; the levels above size it)")
            ->type_name("NAME");
        app.add_option("--levels", a->levels, "Level 0 and at most LEVELS-1 escalations (default 3)")->check(at_least(1));
        app.add_option("--max-hours", a->max_hours,
                       "Budget: the levels' estimated core-hours together (default 24); a level that would exceed it "
                       "is not run")
            ->check(positive_real());
        app.add_option("--level", a->level,
                       "Run only level L (its previous level must be complete): one Slurm array per level")
            ->check(at_least(0));
        app.add_option("--shard", a->shard, "i/n: each level's runs whose index mod n == i (level-L/shard-i)");
        app.add_option("--threads", a->threads, "Runs trained at once (default 1)")->check(at_least(1));
        app.add_option("--device", a->device, "Where runs train (default cpu)")->check(one_of({"auto", "cpu", "cuda"}));
        app.add_option("--estimate", a->estimate,
                       "Print the sweep's cost (KEY=VALUE lines, level 0 split into N array tasks) and exit")
            ->type_name("N")
            ->check(at_least(1));
        app.add_flag("--quiet,-q", a->quiet, "No progress lines (errors still)");
        app.add_flag("--json", a->json,
                     "Print the sweep's report as JSON (the content of sweep.json) instead of its summary");
        return [a] { return run_sweep_command(*a); };
    }});

}  // namespace
}  // namespace ltlkit::cli
#endif
