// The scheduling stage of verify (stages.hh): the runs of a shard, finished runs checked, and the
// runs trained here one after the other or by a pool of worker processes that claim them.
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>

#include "base/checksum.hh"
#include "base/file.hh"
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
    emit(o.log, "training with " + std::to_string(jobs) + " worker processes");
    Result<bool> failure = true;
    std::vector<pid_t> pids;
    for (int j = 0; j < jobs; ++j) {
        std::vector<std::string> args = o.worker_command;
        args.insert(args.end(),
                    {"--worker", std::to_string(j) + "/" + std::to_string(jobs), "--worker-session", session});
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

}  // namespace ltlkit::neural::verify
