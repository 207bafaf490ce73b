// What `ltlkit train` and `ltlkit eval` print: progress lines, the Ctrl-C message and the one-line
// summary of a run's result.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <string>

#include "base/test_gate.hh"
#include "cli/common.hh"
#include "cli/interrupt.hh"
#include "neural/calibrate.hh"
#include "neural/cost.hh"
#include "neural/run.hh"

namespace ltlkit::cli {

// "42s", "3m07s", "2h05m"; "?" for a negative or infinite duration.
inline std::string fmt_duration(double s) {
    if (!(s >= 0) || !std::isfinite(s)) return "?";
    char buf[32];
    const long t = std::lround(s);
    if (t >= 3600)
        std::snprintf(buf, sizeof buf, "%ldh%02ldm", t / 3600, (t / 60) % 60);
    else if (t >= 60)
        std::snprintf(buf, sizeof buf, "%ldm%02lds", t / 60, t % 60);
    else
        std::snprintf(buf, sizeof buf, "%lds", t);
    return buf;
}


// Before a run starts (stderr): its work and the estimated time on this device, so that a long run
// is announced before it is spent. `train` false: evaluation only (eval). `done_steps`: the steps a
// resumed run's checkpoint holds (only the rest is counted). The estimate is neural::estimate_work's,
// the one verify and `verify --estimate` print: from the assumed (pessimistic) rate, measured here
// (a calibration of a fraction of a second, neural/calibrate.hh) when that says over 10 s.
inline void print_cost_estimate(const char* command, const neural::Config& c, bool gpu, bool train, int done_steps = 0) {
    neural::Config left = c;
    left.training.steps = train ? std::max(0, c.training.steps - done_steps) : 0;
    const auto e = neural::estimate_work({{left, 1}}, 1, gpu);
    const auto& t = c.training;
    const auto& v = c.evaluation;
    std::string line = std::string(command) + ": ";
    if (train && done_steps > 0)
        line += "resuming at step " + std::to_string(done_steps) + ": " + std::to_string(left.training.steps) +
                " of " + std::to_string(t.steps) + " steps × batch " + std::to_string(t.batch) + " left (about " +
                fmt_duration(e.train_seconds) + "), then ";
    else if (train)
        line += std::to_string(t.steps) + " steps × batch " + std::to_string(t.batch) + " (about " +
                fmt_duration(e.train_seconds) + "), then ";
    line += "evaluation at lengths " + std::to_string(v.test_min) + ".." + std::to_string(v.test_max) + " × " +
            std::to_string(v.per_length) + " words (about " + fmt_duration(e.eval_seconds) + "); at most about " +
            fmt_duration(e.seconds_per_run) + " on this " + (gpu ? "GPU" : "CPU") + " (" +
            (e.measured ? e.assumptions : "a pessimistic estimate: " + e.assumptions) + "; smaller: " +
            (train ? "--steps, " : "") + "--test-lengths, --per-length)";
    std::fprintf(stderr, "%s\n", line.c_str());
}

// The cost estimate, said once the command has passed its checks and starts working (its first
// progress event, so that a refused input's error stays the first line on stderr). A resumed
// training's first event is its Resume: the estimate then counts the steps left.
class CostEstimateOnce {
public:
    CostEstimateOnce(const char* command, neural::Config c, bool gpu, bool train, bool quiet)
        : command_(command), config_(std::move(c)), gpu_(gpu), train_(train), pending_(!quiet) {}
    void operator()(const neural::Progress& p) {
        if (!pending_) return;
        pending_ = false;
        const bool resumed = p.phase == neural::Progress::Phase::Resume;
        if (resumed && p.total > 0) config_.training.steps = p.total;  // where it stops (a reached fit: earlier)
        print_cost_estimate(command_, config_, gpu_, train_, resumed ? p.step : 0);
    }

private:
    const char* command_;
    neural::Config config_;
    bool gpu_, train_, pending_;
};

// A progress line on stderr: training (Log) or evaluation; the other phases print nothing.
inline void print_progress(const neural::Progress& p) {
    using Phase = neural::Progress::Phase;
    if (p.phase == Phase::Evaluation && p.step == 0)
        return;  // the evaluation's start: nothing to report yet
    if (p.phase == Phase::Evaluation)
        std::fprintf(stderr, "evaluating: length %d/%d, %ld words  eta %s\n", p.step, p.total, p.words,
                     fmt_duration(p.eta_seconds).c_str());
    else if (p.phase == Phase::Log)
        std::fprintf(stderr, "step %d/%d  loss %.4f  train acc %.1f%%  %.0f tok/s  eta %s\n", p.step, p.total,
                     p.loss, 100 * p.train_accuracy, p.tokens_per_second, fmt_duration(p.eta_seconds).c_str());
    else if (p.phase == Phase::FitCheck)
        std::fprintf(stderr, "step %d: fit check %.2f%% on fresh training words%s\n", p.step, 100 * p.train_accuracy,
                     p.total == p.step ? ", stopping" : "");
}

// Where a training or an evaluation of RUNDIR stands, kept as the Ctrl-C message
// (cli/interrupt.hh), true to what is on disk. `training` false: an evaluation of a trained run
// (`ltlkit eval`). Once the last test length is evaluated, interrupts are deferred: the evaluation
// is done, and its result file is written before the command stops (finish_run_command).
class RunPosition {
public:
    RunPosition(std::string rundir, bool training)
        : rundir_(std::move(rundir)), command_(own_command_text()), training_(training) {
        update();
    }

    // The file the evaluation writes: result.json (train), eval-A-B-nN.json (eval).
    void set_result_file(std::string name) { result_file_ = std::move(name); }

    void operator()(const neural::Progress& p) {
        using Phase = neural::Progress::Phase;
        if (p.phase == Phase::Evaluation) {
            evaluating_ = true;
            lengths_done_ = p.step;
            lengths_ = p.total;
            if (p.step == 0) {  // the evaluation's start: the note says so before a test holds it here
                update();
                test_gate("LTLKIT_TEST_GATE_EVALUATING");  // (base/test_gate.hh)
            }
            if (p.total > 0 && p.step == p.total) {
                defer_interrupts("the evaluation of " + rundir_ + " is done (all " + std::to_string(p.total) +
                                 " test lengths); writing " + rundir_ + "/" + result_file_ +
                                 " before stopping (interrupt again to stop without it)");
                test_gate("LTLKIT_TEST_GATE_EVALUATED");  // a test holds the run here (base/test_gate.hh)
            }
        } else {
            step_ = p.step;
            total_ = p.total;
            if (p.phase == Phase::Checkpoint || p.phase == Phase::Resume) {
                checkpoint_ = p.step;
                has_checkpoint_ = true;
            }
        }
        update();
    }

private:
    void update() const {
        std::string note;
        if (evaluating_ || !training_) {
            note = "stopped evaluating " + rundir_;
            if (lengths_ > 0)
                note += " after " + std::to_string(lengths_done_) + " of " + std::to_string(lengths_) +
                        " test lengths";
            if (!training_)
                note += "; nothing was written (the run's files are unchanged)";
            else if (has_checkpoint_)
                note += "; training is finished (its checkpoint holds step " + std::to_string(checkpoint_) +
                        "), this evaluation's result is not written (result.json is unchanged)";
            else
                note += "; nothing was trained (--steps 0), so there is no checkpoint, and this evaluation's "
                        "result is not written (result.json is unchanged)";
            note += "; rerun the same command to evaluate again: " + command_;
        } else if (total_ == 0) {
            note = "stopped " + rundir_ + " before training started; rerun the same command: " + command_;
        } else {
            note = "stopped training " + rundir_ + " at step " + std::to_string(step_) + " of " +
                   std::to_string(total_) + "; ";
            note += has_checkpoint_ ? "its checkpoint holds step " + std::to_string(checkpoint_) +
                                          ", where the rerun resumes"
                                    : "no checkpoint yet, so the rerun starts from step 0";
            note += "; resume with the same command: " + command_;
        }
        set_interrupt_note(note);
    }

    std::string rundir_, command_, result_file_ = "result.json";
    bool training_;
    bool evaluating_ = false, has_checkpoint_ = false;
    int step_ = 0, total_ = 0, checkpoint_ = 0, lengths_done_ = 0, lengths_ = 0;
};

inline void print_run_summary(const neural::RunResult& r, const std::string& rundir, bool json,
                              const std::string& file = "result.json") {
    if (r.already_finished)
        std::fprintf(stderr, "%s: already finished (same language, configuration and data); nothing to do\n",
                     rundir.c_str());
    if (json) {
        std::cout << neural::result_to_json(r);
        return;
    }
    std::cout << format("%s/%s: %s  mean %.4f  min-bin %.4f  N* %d  train %.4f%s%s\n", rundir.c_str(), file.c_str(),
                r.failed_to_fit ? "failed_to_fit" : (r.success ? "success" : "no success"),
                r.mean_accuracy, r.min_bin_accuracy, r.n_star, r.train_accuracy,
                r.adversarial_accuracy ? ("  adversarial " + std::to_string(*r.adversarial_accuracy)).c_str() : "",
                r.boundary_accuracy ? ("  boundary " + std::to_string(*r.boundary_accuracy)).c_str() : "");
}

// The end of `train` and `eval`: the summary, then, when an interrupt came after the last test
// length (deferred by RunPosition), the line saying the result was kept and exit status 130.
inline int finish_run_command(const neural::RunResult& r, const std::string& rundir, bool json,
                              const std::string& file = "result.json") {
    release_interrupts();
    print_run_summary(r, rundir, json, file);
    if (!interrupt_deferred()) return 0;
    std::fflush(stdout);
    std::fprintf(stderr, "ltlkit: interrupted: stopped after the evaluation of %s; its result is kept in %s/%s\n",
                 rundir.c_str(), rundir.c_str(), file.c_str());
    return 130;
}

}  // namespace ltlkit::cli
