// checkpoint.pt, the one checkpoint format of every model ltlkit trains: the recognizers of runs
// (neural/train.cc, docs/DURABILITY.md) and the language models of `ltlkit lm` (neural/lm/). PRIVATE
// header of neural/ (and its tests).
//
// One header line
//   ltlkit-checkpoint 1 train_seconds=<seconds> state=<hex> sha256=<hex>
// then a LibTorch archive. sha256 is the SHA-256 of the header before " sha256=", a newline and
// the archive, so a truncated or corrupted checkpoint is never loaded. state is the SHA-256 of the
// training state in a canonical order (step, RNG, tokens, every parameter and buffer, Adam's state
// per parameter): LibTorch archives of equal states differ in bytes between processes (optimizer
// state keyed by addresses, class-name mangling), so tests compare this digest. The archive holds
// the fields of CheckpointMeta ("kind", "config", "training_key", "step", "rng", "tokens",
// "torch_version"), "model" and "optimizer", and what a kind adds (CheckpointExtra).
#pragma once

#include <torch/torch.h>

#include <functional>
#include <string>

#include "base/error.hh"

namespace ltlkit::neural {

inline constexpr const char* kRecognizerCheckpoint = "recognizer";
inline constexpr const char* kLanguageModelCheckpoint = "language_model";

// What to do with a checkpoint that cannot be resumed.
inline constexpr const char* kCheckpointAdvice = "delete it to restart the run from step 0";

struct CheckpointMeta {
    std::string kind = kRecognizerCheckpoint;  // read: a checkpoint without "kind" holds a recognizer
    std::string config;                        // the run's config as JSON
    std::string key;                           // training key: a checkpoint resumes only under an equal one
    int step = 0;
    std::string rng;                           // automata::Rng::save()
    double tokens = 0, train_seconds = 0;
};

// A kind's own fields: written into the archive, and the text they add to the state digest.
struct CheckpointExtra {
    std::function<void(torch::serialize::OutputArchive&)> write;
    std::string state;
};

// Writes PATH atomically (temporary file and rename).
Result<bool> write_checkpoint(const std::string& path, const CheckpointMeta& meta, torch::nn::Module& model,
                              torch::optim::Optimizer& opt, const CheckpointExtra& extra = {});

// Reads PATH into `a` (on `device`), checked against its header, and its CheckpointMeta; refused
// (one line, saying what to do) when corrupted, of another kind than `kind`, or of an older format.
// The caller reads "model", "optimizer" and its own fields from `a`.
Result<CheckpointMeta> read_checkpoint_file(const std::string& path, const std::string& kind,
                                            torch::serialize::InputArchive& a, torch::Device device);

// The state digest of the header (exposed for tests).
std::string checkpoint_state_digest(const CheckpointMeta& meta, torch::nn::Module& model,
                                    torch::optim::Optimizer& opt, const std::string& extra_state = "");

// The state digest recorded in the header of PATH (empty when unreadable).
std::string checkpoint_header_state(const std::string& path);

}  // namespace ltlkit::neural
