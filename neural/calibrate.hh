// A quick calibration of what a run will cost on this device (said before a long run starts:
// `ltlkit train`, `eval` and `verify`, cli/run_summary.hh): the model of a Config trained for a
// fraction of a second on words of its training lengths and evaluated on words of its test
// lengths, the way neural/train.cc trains and evaluates. docs/PERFORMANCE.md compares the
// estimates it gives with measured runs.
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

#include "base/error.hh"
#include "neural/cost.hh"
#include "neural/run.hh"

namespace ltlkit::neural {

// Training tokens/s (forward, backward, clipping and Adam at the config's batch, lengths spread
// evenly over the training lengths) and evaluation tokens/s (forward only, in the evaluation's
// chunks, at four lengths spread over the test lengths), on the config's device and threads,
// each over about `seconds` / 2 after warm-up steps. The alphabet's size does not change the
// cost measurably; two symbols are used.
// With c.training.steps == 0 (an evaluation alone) only the evaluation rate is measured.
Result<Throughput> measure_throughput(const Config& c, double seconds = 1.5);

// The one estimate of what some runs will cost, printed by `train` and `eval` before they start,
// by `verify` before it runs a grid, and by `verify --estimate N` (docs/PROTOCOL.md "Profiles"):
// `work` lists configurations (their steps: what is left to train; 0 for an evaluation alone) and
// how many runs of each, split into `shards` array tasks.
// When the assumed rate (estimate_cost) puts all the runs together over kCalibrateAbove seconds,
// each configuration's model is calibrated here for a moment (`measure`, measure_throughput by
// default, for 1% of its assumed time, between 0.2 and 1.5 s) and the estimate is the measured
// one (measured = true); a calibration that fails (e.g. --device cuda without a GPU) leaves the
// assumed rate, and `assumptions` says why. seconds_per_run is the mean over the runs.
inline constexpr double kCalibrateAbove = 10;
struct Work {
    Config config;
    std::size_t runs = 1;
};
using MeasureFn = std::function<Result<Throughput>(const Config&, double seconds)>;
CostEstimate estimate_work(const std::vector<Work>& work, int shards, bool gpu, const MeasureFn& measure = nullptr);

}  // namespace ltlkit::neural
