// What training (train.cc) and the run API (run_api.cc) share: the run folder's file names, the
// training key, checkpoints as read back, and the fit settings' check. PRIVATE header.
#pragma once

#include <torch/torch.h>

#include <chrono>
#include <cstdint>
#include <string>

#include "neural/training.hh"

namespace ltlkit::neural::train_detail {

using Clock = std::chrono::steady_clock;

// The files a run folder holds that train and eval write (and their temporaries).
bool run_file_name(const std::string& name);
double seconds_since(Clock::time_point t0);
// The fields that determine the trajectory of training, and the run's training identity when known
// (run.hh: the language and training words): a checkpoint resumes only under the same key.
std::string training_key(const Config& c, const std::string& training_identity);

// The training log's running window (metrics.jsonl): saved with the checkpoint, so that a resumed
// run logs exactly the lines of an uninterrupted one.
struct LogWindow {
    double loss_sum = 0;
    std::int64_t right = 0, words = 0, steps = 0;
};

// Training until the fit (TrainingConfig::fit_check_every): the step where training stops once a
// fit check reached fit_target (-1: not reached yet); saved with the checkpoint.
struct FitStop {
    int stop_at = -1;
};

struct LoadedCheckpoint {
    Config config;
    std::string key;  // training_key() of the run that wrote it
    LogWindow window;
    FitStop fit;
    int step = 0;
    std::string rng;
    double train_seconds = 0, tokens = 0;
};

Result<LoadedCheckpoint> read_checkpoint(const std::string& path, torch::serialize::InputArchive& a,
                                         torch::Device device);
// The settings of training until the fit, checked before anything is written.
Result<bool> check_fit_settings(const TrainingConfig& t);

}  // namespace ltlkit::neural::train_detail
