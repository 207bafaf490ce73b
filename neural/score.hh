// Scoring words with a trained run (`ltlkit score`). Torch-free header, like neural/run.hh.
#pragma once

#include <string>
#include <vector>

#include "automata/dfa.hh"
#include "base/error.hh"
#include "neural/run.hh"

namespace ltlkit::neural {

// The logits (log-odds of "accepted"; > 0 is "accepted") of a trained run's recognizer on words
// over the run's alphabet, computed as the evaluation computes them (the predictor of evaluate_run);
// the reference the Python recognizer of docs/PYTHON.md is tested against. Words longer than a
// learned positional table allows are refused.
Result<std::vector<float>> score_run(const std::string& rundir, const std::vector<automata::Word>& words,
                                     Device device = Device::Cpu, int threads = 1);

}  // namespace ltlkit::neural
