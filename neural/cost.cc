// Run and grid cost estimates (cost.hh).
#include "neural/cost.hh"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace ltlkit::neural {
namespace {

// The slow end of the quick model's measured training throughput on one loaded core
// (docs/RESULTS.md, "Per run": 4,087-10,765 tokens/s at 16,384 MACs/token, i.e. 67-176 M MAC/s).
constexpr double kCpuMacsPerSecond = 6.5e7;
// docs/RESULTS.md's GPU assumption: a model this small is kernel-launch bound at ~5 ms per training
// step whatever its size; evaluation at ~1.6 M forward tokens/s (16 M tokens in ~10 s).
constexpr double kGpuSecondsPerStep = 0.005;
constexpr double kGpuEvalTokensPerSecond = 1.6e6;
// Per array task: starting the process, classifying the suite and generating its datasets (every
// task plans the whole suite), then a margin of 2 on everything, at least 5 minutes.
constexpr double kPlanningSeconds = 120;
constexpr double kMargin = 2;
constexpr double kMinTaskSeconds = 300;

}  // namespace

CostEstimate estimate_cost(const Config& base, std::size_t runs, int shards, bool gpu, const Throughput* measured) {
    CostEstimate e;
    e.runs = runs;
    e.shards = static_cast<std::size_t>(std::max(shards, 1));
    e.runs_per_shard = (runs + e.shards - 1) / e.shards;
    e.gpu = gpu;
    const auto& t = base.training;
    const auto& v = base.evaluation;
    const double train_len = (t.train_min + t.train_max) / 2.0 + 1;  // + EOS
    const double test_len = (v.test_min + v.test_max) / 2.0 + 1;
    e.train_tokens = static_cast<double>(t.steps) * t.batch * train_len;
    e.eval_tokens = static_cast<double>(std::max(v.test_max - v.test_min + 1, 0)) * v.per_length * test_len +
                    static_cast<double>(v.fit_words) * train_len;
    const double d = base.model.d_model, ff = base.model.d_ff;
    e.macs_per_token = base.model.layers * (4 * d * d + 2 * d * ff);
    // A calibration of an evaluation alone (no step to train) measures no training rate.
    if (measured && (measured->train_tokens_per_second > 0 || e.train_tokens == 0) &&
        measured->eval_tokens_per_second > 0) {
        e.measured = true;
        e.train_seconds = e.train_tokens == 0 ? 0 : kMeasuredOverhead * e.train_tokens / measured->train_tokens_per_second;
        e.eval_seconds = kMeasuredOverhead * e.eval_tokens / measured->eval_tokens_per_second;
        e.assumptions = measured->source;
    } else if (gpu) {
        e.train_seconds = t.steps * kGpuSecondsPerStep;
        e.eval_seconds = e.eval_tokens / kGpuEvalTokensPerSecond;
        e.assumptions = "GPU: 5 ms per training step, 1.6 M evaluation tokens/s (docs/RESULTS.md; not measured)";
    } else {
        // A forward-only evaluation token costs about a third of a training token (forward + backward).
        e.train_seconds = e.train_tokens * e.macs_per_token / kCpuMacsPerSecond;
        e.eval_seconds = e.eval_tokens / 3 * e.macs_per_token / kCpuMacsPerSecond;
        e.assumptions = "CPU: 65 M multiply-accumulates/s per core, one run at a time per task (the slow end of "
                        "docs/RESULTS.md's measured quick runs)";
    }
    set_run_seconds(e, e.train_seconds, e.eval_seconds);
    return e;
}

void set_run_seconds(CostEstimate& e, double train_seconds, double eval_seconds) {
    e.train_seconds = train_seconds;
    e.eval_seconds = eval_seconds;
    e.seconds_per_run = train_seconds + eval_seconds;
    e.task_seconds = std::max(kMinTaskSeconds,
                              kMargin * (kPlanningSeconds + static_cast<double>(e.runs_per_shard) * e.seconds_per_run));
    e.grid_hours = static_cast<double>(e.runs) * e.seconds_per_run / 3600;
}

std::string slurm_time(double seconds) {
    const long minutes = static_cast<long>(std::ceil(std::max(seconds, 60.0) / 60));
    char buf[48];
    if (minutes >= 24 * 60)
        std::snprintf(buf, sizeof buf, "%ld-%02ld:%02ld:00", minutes / (24 * 60), minutes / 60 % 24, minutes % 60);
    else
        std::snprintf(buf, sizeof buf, "%ld:%02ld:00", minutes / 60, minutes % 60);
    return buf;
}

}  // namespace ltlkit::neural
