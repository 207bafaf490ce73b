// The scheduling stage of verify (stages.hh): the runs of a shard, finished runs checked, and the
// runs trained here one after the other or by a pool of worker processes that claim them.
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <limits>
#include <csignal>
#include <nlohmann/json.hpp>

#include "base/checksum.hh"
#include "base/file.hh"
#include "base/trace.hh"
#include "neural/verify/plan.hh"
#include "neural/verify/stages.hh"

extern char** environ;

namespace ltlkit::neural::verify {

namespace fs = std::filesystem;

namespace {

// O_EXCL file creation: exactly one worker of a session gets each run.
bool claim(const fs::path& dir, std::size_t index) {
    const std::string path = (dir / std::to_string(index)).string();
    const int fd = ::open(path.c_str(), O_CREAT | O_EXCL | O_WRONLY, 0644);
    if (fd < 0) return false;
    ::close(fd);
    return true;
}

// The run list of a worker session (the "run index"): the indices of the plan's runs its workers
// may claim, OUT/.claims/S/runs.json.
fs::path session_runs_path(const fs::path& claims) { return claims / "runs.json"; }

// The error of a worker process that did not exit 0 (exit code at least 2; 4 for a signal).
Error worker_error(int status) {
    Error e = make_error("a worker process failed (" +
                         (WIFEXITED(status) ? "exit code " + std::to_string(WEXITSTATUS(status))
                                            : "signal " + std::to_string(WTERMSIG(status))) +
                         "); rerun the same command to resume");
    e.exit_code = WIFEXITED(status) ? std::max(2, WEXITSTATUS(status)) : 4;
    return e;
}

}  // namespace

std::vector<const RunPlan*> shard_runs(const Plan& plan, int shard_index, int shard_count) {
    std::vector<const RunPlan*> mine;
    for (const auto& r : plan.runs)
        if (static_cast<int>(r.index % static_cast<std::size_t>(shard_count)) == shard_index) mine.push_back(&r);
    return mine;
}

void remove_damaged_results(const std::string& out, const LogFn& log, const std::vector<const RunPlan*>& runs) {
    std::error_code ec;
    for (const auto* r : runs) {
        const fs::path result = fs::path(out) / r->rundir / "result.json";
        if (!fs::exists(result, ec)) continue;
        auto text = read_file(result.string());
        const auto state = text.ok() ? json_checksum_state(*text) : ChecksumState::Mismatch;
        if (state == ChecksumState::Valid) continue;
        emit(log, "warning: " + result.string() +
                    (state == ChecksumState::Missing ? ": no checksum (edited?)"
                                                               : ": checksum mismatch (truncated or corrupted)") +
                    "; removed, the run is evaluated again");
        fs::remove(result, ec);
    }
}

Result<bool> train_in_workers(const VerifyOptions& o, const Plan& plan, const std::vector<const RunPlan*>& mine,
                              const std::vector<const RunPlan*>& pending, int jobs) {
    std::error_code ec;
    const std::string session = std::to_string(::getpid()) + "-" +
                                std::to_string(std::chrono::steady_clock::now().time_since_epoch().count());
    const fs::path claims = fs::path(o.out) / ".claims" / session;
    fs::create_directories(claims, ec);
    if (ec) return io_error("cannot create " + claims.string() + ": " + ec.message());
    {
        nlohmann::json indices = nlohmann::json::array();
        for (const auto* r : pending) indices.push_back(r->index);
        if (auto w = write_file_atomic(session_runs_path(claims).string(), indices.dump() + "\n"); !w.ok())
            return w.error();
    }
    emit(o.log, "training with " + std::to_string(jobs) + " worker processes");
    Result<bool> failure = true;
    std::vector<pid_t> pids;
    for (int j = 0; j < jobs; ++j) {
        std::vector<std::string> args = o.worker_command;
        args.insert(args.end(), {"--out", o.out, "--worker", std::to_string(j) + "/" + std::to_string(jobs),
                                 "--worker-session", session, "--device", to_string(o.device)});
        std::vector<char*> argv;
        for (auto& a : args) argv.push_back(a.data());
        argv.push_back(nullptr);
        pid_t pid = 0;
        if (::posix_spawn(&pid, argv[0], nullptr, nullptr, argv.data(), environ) != 0) {
            failure = io_error("cannot start a worker process " + args[0]);
            break;
        }
        pids.push_back(pid);
    }
    auto exited = [&](int status) {
        if (!(WIFEXITED(status) && WEXITSTATUS(status) == 0) && failure.ok()) failure = worker_error(status);
    };
    if (o.on_state) {
        StateTracker tracker(o.on_state, mine.size() - pending.size(), mine.size());
        std::vector<pid_t> alive = pids;
        auto last = std::chrono::steady_clock::now() - std::chrono::seconds(1);
        while (!alive.empty()) {
            for (auto it = alive.begin(); it != alive.end();) {
                int status = 0;
                const pid_t got = ::waitpid(*it, &status, WNOHANG);
                if (got == *it || (got < 0 && errno != EINTR)) {
                    if (got == *it) exited(status);
                    it = alive.erase(it);
                } else {
                    ++it;
                }
            }
            if (std::chrono::steady_clock::now() - last >= std::chrono::seconds(1)) {
                last = std::chrono::steady_clock::now();
                std::size_t finished = mine.size() - pending.size();
                std::vector<VerifyState::Running> running;
                for (const auto* r : pending) {
                    if (fs::exists(fs::path(o.out) / r->rundir / "result.json", ec))
                        ++finished;
                    else if (fs::exists(claims / std::to_string(r->index), ec))
                        running.push_back({run_name(plan, *r)});
                }
                tracker.set(finished, std::move(running));
            }
            if (!alive.empty()) ::usleep(100'000);
        }
    } else {
        for (pid_t pid : pids) {
            int status = 0;
            while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
            }
            exited(status);
        }
    }
    fs::remove_all(claims, ec);
    return failure;
}

Result<bool> train_here(const Prepared& pr, const std::vector<const RunPlan*>& runs, const RunSettings& s,
                        StateTracker& tracker, const std::string& claims, std::size_t max_runs, TrainCounts& counts) {
    std::error_code ec;
    for (const auto* r : runs) {
        if (counts.trained >= max_runs) break;
        if (!claims.empty() && fs::exists(fs::path(s.out) / r->rundir / "result.json", ec)) continue;
        if (!claims.empty() && !claim(claims, r->index)) continue;
        auto done = execute_run(pr, *r, s, tracker);
        if (!done.ok()) return done.error();
        if (*done)
            ++counts.trained;
        else
            ++counts.skipped;
    }
    return true;
}

Result<bool> run_worker(const WorkerOptions& w) {
#ifdef __linux__
    // A worker dies with its parent: a killed verify leaves no orphan writing into OUT.
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
    const fs::path out(w.out);
    trace_event("worker " + w.session);  // tests only (base/trace.hh): the processes that trained
    const fs::path claims = out / ".claims" / w.session;
    if (w.session.empty() || w.session.find('/') != std::string::npos || w.session == "." || w.session == "..")
        return make_error("--worker-session: not a session name");
    // The plan its parent wrote (under the parent's lock), and the runs of this session.
    const std::string plan_path = (out / "plan.json").string();
    auto text = read_file(plan_path);
    if (!text.ok()) return text.error();
    if (auto c = check_json_checksum(plan_path, *text, "rerun `ltlkit verify`"); !c.ok()) return c.error();
    auto plan = plan_from_json(*text);
    if (!plan.ok()) {
        Error e = plan.error();
        e.origin = plan_path;
        return e;
    }
    const std::string runs_path = session_runs_path(claims).string();
    auto runs_text = read_file(runs_path);
    if (!runs_text.ok()) return runs_text.error();
    std::vector<std::size_t> indices;
    try {
        indices = nlohmann::json::parse(*runs_text).get<std::vector<std::size_t>>();
    } catch (const std::exception&) {
        return make_error(runs_path + ": not a run list (a JSON array of run indices)");
    }
    Prepared pr;
    pr.plan = std::move(plan).value();
    const Plan& p = pr.plan;
    pr.contexts.resize(p.languages.size());
    std::vector<const RunPlan*> runs;
    std::vector<bool> read(p.languages.size(), false);
    for (std::size_t index : indices) {
        if (index >= p.runs.size())
            return make_error(runs_path + ": run " + std::to_string(index) + " is not in " + plan_path);
        const RunPlan& r = p.runs[index];
        std::size_t li = 0;
        while (li < p.languages.size() && p.languages[li].dir != r.language) ++li;
        if (li == p.languages.size()) return make_error(plan_path + ": run of an unknown language " + r.language);
        if (!read[li]) {
            auto ctx = read_language_context(p, p.languages[li], out / "data" / p.languages[li].dir);
            if (!ctx.ok()) return ctx.error();
            pr.contexts[li] = std::move(ctx).value();
            read[li] = true;
        }
        // What the worker trains must be the parent's run: its identity from what was read back.
        const LanguageContext& ctx = pr.contexts[li];
        if (run_identity(ctx.dfa, run_config(p, r, Device::Auto), eval_sets(ctx, r.arch)).evaluation != r.identity)
            return make_error(plan_path + ": run " + r.rundir + " is not reproduced by the plan and the datasets in " +
                              (out / "data").string() + " (edited while verify ran?); rerun `ltlkit verify`");
        runs.push_back(&r);
    }
    const RunSettings settings{w.out, w.device, w.log, nullptr};
    StateTracker tracker(nullptr, 0, runs.size());
    TrainCounts counts;
    return train_here(pr, runs, settings, tracker, claims.string(), std::numeric_limits<std::size_t>::max(), counts);
}

}  // namespace ltlkit::neural::verify
