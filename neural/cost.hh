// What a run or a verification grid will cost before it runs (said by train, eval and verify before
// they start; `ltlkit verify --estimate N`, used by
// examples/slurm/verify-array.sh to size each array task's time limit and to print the grid's cost
// before submitting). Without a measurement, a rough, deliberately pessimistic model: training-token
// equivalents per run × multiply-accumulates per token at an assumed throughput, the method of
// docs/RESULTS.md ("What `standard` on `examples/lc26.suite` would cost"); docs/CLUSTER.md says
// how the constants were chosen. With one (a calibration on this device), tokens over measured
// rates. Torch-free.
#pragma once

#include <cstddef>
#include <string>

#include "neural/run.hh"

namespace ltlkit::neural {

struct CostEstimate {
    std::size_t runs = 0, shards = 1, runs_per_shard = 0;  // runs_per_shard: the largest shard
    bool gpu = false;
    double train_tokens = 0;    // per run: steps × batch × (mean training length + EOS)
    double eval_tokens = 0;     // per run, forward only: test words + fit words, in tokens
    double macs_per_token = 0;  // layers × (4 d² + 2 d d_ff): the projections and feed-forward
    double seconds_per_run = 0;
    double train_seconds = 0, eval_seconds = 0;  // its parts, per run
    double task_seconds = 0;    // per array task: its runs one after another, planning, ×2 margin
    double grid_hours = 0;      // runs × seconds_per_run: core-hours (CPU) or GPU-hours
    std::string assumptions;    // one line: the throughput assumed, or how it was measured
    bool measured = false;      // from a Throughput rather than the assumed rate
};

// What a measured estimate adds for the work a calibration does not do (drawing the words,
// checkpoints, fit checks, the metrics log, sorting the evaluation's words): bench_estimate put
// measured / real at 0.57-0.91 per architecture on a loaded 2-core machine (docs/PERFORMANCE.md).
inline constexpr double kMeasuredOverhead = 1.5;

// Throughput measured on this device (neural/calibrate.hh: measure_throughput).
struct Throughput {
    double train_tokens_per_second = 0, eval_tokens_per_second = 0;
    std::string source;  // one line: how it was measured
};

// The cost of `runs` runs of the settings `base` split into `shards` array tasks (one torch thread
// per task on a CPU core, or one GPU per task when `gpu`): from `measured` when given (training and
// evaluation tokens over the measured rates, times kMeasuredOverhead; the planning time and margin
// of an array task stay),
// else from the assumed throughput.
CostEstimate estimate_cost(const Config& base, std::size_t runs, int shards, bool gpu,
                           const Throughput* measured = nullptr);

// Sets a CostEstimate's per-run seconds (its training and evaluation parts) and what follows from
// them: seconds_per_run, task_seconds (planning and the margin of an array task) and grid_hours.
void set_run_seconds(CostEstimate& e, double train_seconds, double eval_seconds);

// Seconds as Slurm's --time accepts them, rounded up to whole minutes: "H:MM:00", or "D-HH:MM:00"
// from one day on.
std::string slurm_time(double seconds);

}  // namespace ltlkit::neural
