// A quick calibration of what a run will cost on this device (said before a long run starts:
// `ltlkit train`, `eval` and `verify`, cli/run_summary.hh): the model of a Config trained for a
// fraction of a second on words of its training lengths and evaluated on words of its test
// lengths, the way neural/train.cc trains and evaluates. docs/PERFORMANCE.md compares the
// estimates it gives with measured runs.
#pragma once

#include "base/error.hh"
#include "neural/cost.hh"
#include "neural/run.hh"

namespace ltlkit::neural {

// Training tokens/s (forward, backward, clipping and Adam at the config's batch, lengths spread
// evenly over the training lengths) and evaluation tokens/s (forward only, in the evaluation's
// chunks, at four lengths spread over the test lengths), on the config's device and threads,
// each over about `seconds` / 2 after warm-up steps. The alphabet's size does not change the
// cost measurably; two symbols are used.
Result<Throughput> measure_throughput(const Config& c, double seconds = 1.5);

}  // namespace ltlkit::neural
