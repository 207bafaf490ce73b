// Training, checkpoints and batched inference of one recognizer (docs/PROTOCOL.md "Training";
// neural/train.cc). PRIVATE, torch-only header like neural/model.hh: the public, torch-free run API
// (train, evaluate, resume one run) is neural/run.hh.
#pragma once

#include <torch/torch.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "neural/memory.hh"
#include "neural/model.hh"

namespace ltlkit::automata {
class Sampler;
}

namespace ltlkit::neural {

class TrainingDistribution;

struct TrainOutcome {
    std::shared_ptr<Recognizer> model;
    torch::Device device{torch::kCPU};
    int steps_done = 0;
    double train_seconds = 0;      // over all sessions of the run (resumes included)
    double tokens_per_second = 0;  // tokens (positions incl. EOS and padding) per training second
};

// Auto -> CUDA when available, else CPU; Cpu; Cuda (error when unavailable).
Result<torch::Device> pick_device(Device device);
// The same for a device's name (parse_device: "auto", "cpu" or "cuda"; error otherwise).
Result<torch::Device> pick_device(const std::string& name);

// Keeps the lines of the metrics log PATH whose "step" is at most `step` (none for step 0), so that
// a resumed run's log equals an uninterrupted one's: lines a killed session wrote past its
// checkpoint, and a line cut by the kill, are dropped. The file is rewritten atomically.
Result<bool> trim_metrics(const std::string& path, int step);


// Makes glibc malloc keep the memory a training step frees (once per process; no-op elsewhere):
// by default it unmaps freed blocks above its mmap threshold and trims the heap top, so every step
// faulted in and zeroed its large temporaries again (docs/PERFORMANCE.md, "Training cost").
void keep_freed_memory();

// A model's parameters as views of one flat tensor and their gradients as views of another, so that
// zeroing the gradients, clipping their norm and Adam's update are a few operations on one tensor
// each instead of a few per parameter tensor: at the `cpu` profile's sizes a training step is
// mostly per-operation overhead, not arithmetic (docs/PERFORMANCE.md, "Training cost"). The same
// trick as PyTorch users' flat-parameter optimizers (e.g. apex's FusedAdam with flat buffers).
class FlatParameters {
public:
    // Moves the parameters of `model` (values kept) into the flat tensor.
    explicit FlatParameters(torch::nn::Module& model);
    // After model.load(), which points the parameters at the loaded tensors: moves them back in.
    void rebind(torch::nn::Module& model);
    // The flat tensor, its gradient being the flat gradient: what the optimizer and clipping see.
    const torch::Tensor& values() const { return values_; }
    void zero_grad() { grads_.zero_(); }

private:
    torch::Tensor values_, grads_;
};

// Trains a model to config.steps (Adam, gradient-norm clipping, no weight decay). With a rundir,
// resumes from RUNDIR/checkpoint.pt when it exists (error when its training config or
// `training_identity`, RunIdentity::training, differs) and writes checkpoints atomically every
// checkpoint_every steps and at the end.
// With a metrics log (rundir and log_every > 0), each of its training lines also holds the loss
// and accuracy on validation words (train.cc validation_words): `validation`, a dataset's
// validation split (empty: none), or, when nullptr, fresh words of `dist`.
Result<TrainOutcome> train_model(const Config& c, int num_symbols, const TrainingDistribution& dist,
                                 const std::string& rundir, const ProgressFn& progress,
                                 const std::string& training_identity = "",
                                 const std::vector<LabelledWord>* validation = nullptr);

// Validation words of metrics.jsonl at most (docs/PROTOCOL.md "Training").
inline constexpr int kValidationWords = 1024;

// Loads RUNDIR/checkpoint.pt: its config and model (on `device`), and the step it holds into *step.
Result<std::pair<Config, std::shared_ptr<Recognizer>>> load_checkpoint(const std::string& path,
                                                                        int num_symbols,
                                                                        torch::Device device,
                                                                        int* step = nullptr);

// Batched inference (words grouped by length, chunks bounded in tokens and attention scores).
// Chunks are bounded by eval_chunks(device) (neural/memory.hh) unless `chunks` is given (benchmarks).
std::function<std::vector<float>(const std::vector<const automata::Word*>&)> make_predictor(
    std::shared_ptr<Recognizer> model, torch::Device device, int num_symbols, int heads,
    std::optional<EvalChunks> chunks = std::nullopt);

}  // namespace ltlkit::neural
