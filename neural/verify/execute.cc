// The execution stage of verify (stages.hh): one run of the plan trained and evaluated (or found
// finished), its progress lines, and the VerifyState that the caller is told.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>

#include "base/file.hh"
#include "neural/verify/stages.hh"

namespace ltlkit::neural::verify {

namespace fs = std::filesystem;

void emit(const LogFn& log, const std::string& line) {
    if (log)
        log(line);
    else
        std::cerr << line << std::endl;  // progress on stderr: stdout holds results only
}

namespace {

std::string fmt(const char* f, double x) {
    char buf[64];
    std::snprintf(buf, sizeof buf, f, x);
    return buf;
}

std::string duration(double s) {
    if (s < 0 || !std::isfinite(s)) return "?";
    const long t = std::lround(s);
    if (t < 60) return std::to_string(t) + "s";
    if (t < 3600) return std::to_string(t / 60) + "m" + (t % 60 < 10 ? "0" : "") + std::to_string(t % 60) + "s";
    return std::to_string(t / 3600) + "h" + (t / 60 % 60 < 10 ? "0" : "") + std::to_string(t / 60 % 60) + "m";
}

}  // namespace

std::string run_name(const Plan& plan, const RunPlan& r) {
    std::string lang = r.language;
    for (const auto& l : plan.languages)
        if (l.dir == r.language) lang = l.name;
    // Appended piece by piece (a "[" + std::to_string(...) chain trips GCC 12's -Wrestrict).
    std::string name = "[";
    name += std::to_string(r.index + 1);
    name += "/";
    name += std::to_string(plan.runs.size());
    name += "] ";
    name += lang;
    name += " ";
    name += to_string(r.arch);
    name += " ";
    name += r.label();
    return name;
}

StateTracker::StateTracker(std::function<void(const VerifyState&)> on_state, std::size_t finished, std::size_t total)
    : on_state_(std::move(on_state)) {
    state_.finished = finished;
    state_.total = total;
    tell();
}

void StateTracker::start(const std::string& name, int steps) {
    state_.running = {{name, 0, steps, -1}};
    tell();
}

void StateTracker::progress(const Progress& p) {
    if (state_.running.empty()) return;
    auto& run = state_.running.front();
    if (p.phase == Progress::Phase::Checkpoint || p.phase == Progress::Phase::Resume) run.checkpoint = p.step;
    if (p.phase != Progress::Phase::Evaluation) run.step = p.step;
    tell();
}

void StateTracker::finish() {
    state_.running.clear();
    ++state_.finished;
    tell();
}

void StateTracker::set(std::size_t finished, std::vector<VerifyState::Running> running) {
    if (finished == state_.finished && running.size() == state_.running.size() &&
        std::equal(running.begin(), running.end(), state_.running.begin(),
                   [](const auto& a, const auto& b) { return a.name == b.name; }))
        return;
    state_.finished = finished;
    state_.running = std::move(running);
    tell();
}

void StateTracker::tell() const {
    if (on_state_) on_state_(state_);
}

Result<bool> execute_run(const Prepared& pr, const RunPlan& r, const RunSettings& s, StateTracker& tracker) {
    const Plan& plan = pr.plan;
    const fs::path rundir = fs::path(s.out) / r.rundir;
    const fs::path result_path = rundir / "result.json";
    const Config cfg = run_config(plan, r, s.device);
    std::error_code ec;
    std::size_t li = 0;
    while (li < plan.languages.size() && plan.languages[li].dir != r.language) ++li;
    if (li == plan.languages.size()) return make_error("internal: run of an unknown language " + r.language);
    const LanguageContext& ctx = pr.contexts[li];
    const EvalSets sets = eval_sets(ctx, r.arch);
    if (fs::exists(result_path, ec)) {
        auto text = read_file(result_path.string());
        if (!text.ok()) return text.error();
        auto res = result_from_json(*text);
        if (!res.ok()) {
            Error e = res.error();
            e.origin = result_path.string();
            return e;
        }
        if (res->identity.evaluation != r.identity)
            return make_error(result_path.string() + " was made for another " +
                              identity_mismatch(run_identity(ctx.dfa, cfg, sets), res->identity).value_or("identity") +
                              " than this plan's run; remove that folder");
        return false;
    }
    fs::create_directories(rundir, ec);
    const std::string name = run_name(plan, r);
    const bool resuming = fs::exists(rundir / "checkpoint.pt", ec);
    emit(s.log, name + (resuming ? ": resuming from its checkpoint" : ": training") + " (" + std::to_string(cfg.training.steps) +
                " steps)");
    tracker.start(name, cfg.training.steps);
    const std::string rundir_s = rundir.string();
    ProgressFn progress = [&](const Progress& p) {
        using Phase = Progress::Phase;
        if (p.phase == Phase::Evaluation) {
            if (p.step > 0)  // step 0: the evaluation's start, nothing to report yet
                emit(s.log, name + "  evaluating: length " + std::to_string(p.step) + "/" + std::to_string(p.total) +
                            ", " + std::to_string(p.words) + " words  eta " + duration(p.eta_seconds));
        } else if (p.phase == Phase::FitCheck)
            emit(s.log, name + "  step " + std::to_string(p.step) + ": fit check " + fmt("%.2f", 100 * p.train_accuracy) +
                        "% on fresh training words" + (p.total == p.step ? ", stopping" : ""));
        else if (p.phase == Phase::Resume)
            emit(s.log, name + "  resuming from step " + std::to_string(p.step) + " of " + std::to_string(p.total));
        else if (p.phase == Phase::Log)
            emit(s.log, name + "  step " + std::to_string(p.step) + "/" + std::to_string(p.total) + "  loss " +
                        fmt("%.4f", p.loss) + "  train acc " + fmt("%.1f", 100 * p.train_accuracy) + "%  " +
                        fmt("%.0f", p.tokens_per_second) + " tok/s  eta " + duration(p.eta_seconds));
        tracker.progress(p);
        if (s.on_progress) s.on_progress(r, rundir_s, p);
    };
    auto res = train_and_evaluate(ctx.dfa, cfg, rundir_s, sets, plan.languages[li].name, progress);
    if (!res.ok()) {
        Error e = res.error();
        e.message = name + ": " + e.message;
        return e;
    }
    const RunResult& rr = *res;
    emit(s.log, name + "  done in " + duration(rr.wall_seconds) + ": " +
                (rr.failed_to_fit ? "FAILED TO FIT" : rr.success ? "success" : "no success") + ", mean acc " +
                fmt("%.1f", 100 * rr.mean_accuracy) + "%, min bin " + fmt("%.1f", 100 * rr.min_bin_accuracy) +
                "%, N* " + std::to_string(rr.n_star) +
                (rr.adversarial_accuracy ? ", adversarial " + fmt("%.1f", 100 * *rr.adversarial_accuracy) + "%" : "") +
                ", train acc " + fmt("%.1f", 100 * rr.train_accuracy) + "%");
    tracker.finish();
    return true;
}

}  // namespace ltlkit::neural::verify
