// Training, checkpoints and batched inference (docs/PROTOCOL.md "Training"); the run API of
// neural/run.hh that ties them to evaluation is run_api.cc.
#include <torch/torch.h>

#include <chrono>
#include <cmath>
#include <mutex>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <filesystem>
#include <fstream>
#include <numeric>
#include <optional>
#include <sstream>

#include <nlohmann/json.hpp>

#include "base/checksum.hh"
#include "base/file.hh"
#include "base/stop.hh"
#include "base/test_gate.hh"
#include "automata/lock.hh"
#include "automata/sampler.hh"
#include "neural/checkpoint.hh"
#include "neural/identity.hh"
#include "neural/internal.hh"
#include "neural/score.hh"
#include "neural/training.hh"
#include "neural/train_internal.hh"

namespace ltlkit::neural {

namespace fs = std::filesystem;
using namespace train_detail;

namespace train_detail {

// The files a run folder holds that train and eval write (and their temporaries).
bool run_file_name(const std::string& name) {
    if (name == "run.json" || name == "checkpoint.pt" || name == "result.json" || name == "metrics.jsonl" ||
        name == ".lock")
        return true;
    return name.rfind("eval-", 0) == 0 && name.size() > 10 && name.compare(name.size() - 5, 5, ".json") == 0;
}


double seconds_since(Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

// The fields that determine the trajectory of training, and the run's training identity when known
// (run.hh: the language and training words): a checkpoint resumes only under the same key.
std::string training_key(const Config& c, const std::string& training_identity) {
    auto j = trained_model_json(c);
    // The learned table's size is part of the model.
    j["max_positions"] = c.model.pe == PositionalEncoding::Learned ? learned_rows(c) : 0;
    j["identity"] = training_identity;
    return sha256_hex(j.dump());
}

// checkpoint.pt (neural/checkpoint.hh): a recognizer's checkpoint adds its training log's window
// and, when training until the fit, the step where it stops.
Result<bool> save_checkpoint(const std::string& path, const Config& c, const std::string& key, Recognizer& model,
                             torch::optim::Optimizer& opt, const automata::Rng& rng, int step,
                             double train_seconds, double tokens, const LogWindow& window, const FitStop& fit) {
    CheckpointMeta m;
    m.kind = kRecognizerCheckpoint;
    m.config = config_to_json(c);
    m.key = key;
    m.step = step;
    m.rng = rng.save();
    m.tokens = tokens;
    m.train_seconds = train_seconds;
    const bool fitting = c.training.fit_check_every > 0;
    CheckpointExtra extra;
    extra.write = [&](torch::serialize::OutputArchive& a) {
        a.write("log_window", c10::IValue(std::vector<double>{window.loss_sum, static_cast<double>(window.right),
                                                              static_cast<double>(window.words),
                                                              static_cast<double>(window.steps)}));
        if (fitting) a.write("fit_stop_at", c10::IValue(static_cast<int64_t>(fit.stop_at)));
    };
    if (fitting) extra.state = " fit_stop_at=" + std::to_string(fit.stop_at);
    return write_checkpoint(path, m, model, opt, extra);
}


Result<LoadedCheckpoint> read_checkpoint(const std::string& path, torch::serialize::InputArchive& a,
                                         torch::Device device) {
    auto meta = read_checkpoint_file(path, kRecognizerCheckpoint, a, device);
    if (!meta.ok()) return meta.error();
    LoadedCheckpoint out;
    auto cfg = config_from_json(meta->config);
    if (!cfg.ok()) return make_error("checkpoint " + path + ": " + cfg.error().message);
    out.config = *cfg;
    out.key = meta->key;
    out.step = meta->step;
    out.rng = meta->rng;
    out.train_seconds = meta->train_seconds;
    out.tokens = meta->tokens;
    try {
        c10::IValue v;
        if (a.try_read("fit_stop_at", v) && v.isInt()) out.fit.stop_at = static_cast<int>(v.toInt());
        if (a.try_read("log_window", v) && v.isDoubleList()) {
            const auto w = v.toDoubleVector();
            if (w.size() == 4)
                out.window = {w[0], static_cast<std::int64_t>(w[1]), static_cast<std::int64_t>(w[2]),
                              static_cast<std::int64_t>(w[3])};
        }
    } catch (const std::exception& e) {
        return make_error("cannot read checkpoint " + path + " (written by another LibTorch version?): " +
                          std::string(e.what()).substr(0, 300));
    }
    return out;
}

// Where a training session starts: step 0, or a checkpoint's step with its counters.
struct SessionStart {
    int step = 0;
    double prior_seconds = 0, tokens = 0;
    LogWindow window;
    FitStop fit;
};

// Loads a checkpoint into the model, the optimizer and the RNG; refused when it was trained under
// another training key.
Result<SessionStart> resume_from(const std::string& ckpt, const std::string& rundir, const std::string& key,
                                 Recognizer& model, FlatParameters& flat, torch::optim::Optimizer& opt,
                                 automata::Rng& rng, torch::Device device) {
    torch::serialize::InputArchive a;
    auto ck = read_checkpoint(ckpt, a, device);
    if (!ck.ok()) return ck.error();
    if (ck->key != key)
        return make_error("the checkpoint in " + rundir +
                          " was trained with another configuration: use another --out, or "
                          "delete its checkpoint.pt to start over");
    try {
        torch::serialize::InputArchive am, ao;
        a.read("model", am);
        model.load(am);
        flat.rebind(model);
        a.read("optimizer", ao);
        opt.load(ao);
    } catch (const std::exception& e) {
        // E.g. a checkpoint written before FlatParameters: one Adam state per parameter tensor.
        return make_error("cannot resume from " + ckpt + " (written by another ltlkit version?); " +
                          kCheckpointAdvice + ": " + std::string(e.what()).substr(0, 300));
    }
    if (!rng.restore(ck->rng)) return make_error("checkpoint " + ckpt + ": bad RNG state");
    return SessionStart{ck->step, ck->train_seconds, ck->tokens, ck->window, ck->fit};
}

// RUNDIR/metrics.jsonl, opened for appending: one line per log_every steps (the training curve).
// Lines past `step` (the checkpoint's) are from a killed session and are dropped first.
Result<bool> open_metrics(std::ofstream& metrics, const std::string& rundir, int step) {
    const std::string path = (fs::path(rundir) / "metrics.jsonl").string();
    if (auto t = trim_metrics(path, step); !t.ok()) return t.error();
    metrics.open(path, std::ios::app);
    if (!metrics) return io_error("cannot open " + path + " for appending");
    return true;
}

// TrainingConfig::fit_check_every: the accuracy at `step` on fit_check_words fresh words of the
// training distribution, drawn from a seed of their own (the training RNG is not touched, and
// inference changes no state, so the trajectory is that of a fixed-length run).
double fit_check(const Config& c, const TrainingDistribution& dist, const std::shared_ptr<Recognizer>& model,
                 torch::Device device, int num_symbols, int step) {
    automata::Rng rng(automata::derive_seed({"fit-check", std::to_string(c.training.seed), std::to_string(step)}));
    const double acc = accuracy_on(dist.sample(c.training.fit_check_words, c.training.batch, rng),
                                   make_predictor(model, device, num_symbols, c.model.heads));
    model->train();
    return acc;
}

// metrics.jsonl's validation words, fixed for the whole run: `split` (a dataset's validation
// split) thinned evenly to at most kValidationWords (the split is ordered by length, so every
// length keeps its share), or, without a split (nullptr), kValidationWords fresh words of the
// training distribution drawn as training batches are, from a seed of their own (the training RNG
// is not touched). An empty split gives none: the log then has no validation keys.
std::vector<LabelledWord> validation_words(const Config& c, const TrainingDistribution& dist,
                                           const std::vector<LabelledWord>* split) {
    if (!split) {
        automata::Rng rng(automata::derive_seed({"validation", std::to_string(c.training.seed)}));
        return dist.sample(kValidationWords, c.training.batch, rng);
    }
    if (split->size() <= static_cast<std::size_t>(kValidationWords)) return *split;
    std::vector<LabelledWord> out;
    for (std::size_t i = 0; i < static_cast<std::size_t>(kValidationWords); ++i)
        out.push_back((*split)[i * split->size() / kValidationWords]);
    return out;
}

// The mean binary cross-entropy (the training loss) and the accuracy of the model on `words`;
// inference changes no state, and the model is back in training mode after.
std::pair<double, double> validation_metrics(const std::vector<LabelledWord>& words,
                                             const std::shared_ptr<Recognizer>& model, torch::Device device,
                                             int num_symbols, int heads) {
    std::vector<const automata::Word*> ptrs;
    for (const auto& w : words) ptrs.push_back(&w.word);
    const auto logits = make_predictor(model, device, num_symbols, heads)(ptrs);
    model->train();
    double loss = 0;
    std::size_t right = 0;
    for (std::size_t i = 0; i < words.size(); ++i) {
        const double z = logits[i], y = words[i].label ? 1.0 : 0.0;
        loss += std::max(z, 0.0) - z * y + std::log1p(std::exp(-std::abs(z)));  // BCE with logits, stable
        right += (z > 0) == words[i].label;
    }
    const double n = static_cast<double>(std::max<std::size_t>(words.size(), 1));
    return {loss / n, static_cast<double>(right) / n};
}

// The settings of training until the fit, checked before anything is written.
Result<bool> check_fit_settings(const TrainingConfig& t) {
    if (t.fit_check_every < 0) return make_error("--fit-check-every must be non-negative");
    if (t.fit_check_every == 0) return true;
    if (t.fit_check_words < 2) return make_error("--fit-check-words must be at least 2");
    if (!(t.fit_target > 0 && t.fit_target <= 1)) return make_error("--fit-target must be in (0, 1]");
    if (t.fit_extra_steps < 0) return make_error("--fit-extra-steps must be non-negative");
    return true;
}

}  // namespace train_detail

FlatParameters::FlatParameters(torch::nn::Module& model) {
    std::int64_t total = 0;
    for (const auto& p : model.parameters()) total += p.numel();
    const auto opts = model.parameters().front().options();
    values_ = torch::empty({total}, opts);
    grads_ = torch::zeros({total}, opts);
    values_.mutable_grad() = grads_;
    rebind(model);
}

void FlatParameters::rebind(torch::nn::Module& model) {
    torch::NoGradGuard no_grad;
    std::int64_t at = 0;
    for (auto& p : model.parameters()) {
        const auto n = p.numel();
        values_.narrow(0, at, n).copy_(p.detach().reshape({-1}));
        p.set_data(values_.narrow(0, at, n).view(p.sizes()));
        // Autograd adds into a defined gradient in place (AccumulateGrad), so this view stays.
        p.mutable_grad() = grads_.narrow(0, at, n).view(p.sizes());
        at += n;
    }
}

void keep_freed_memory() {
#ifdef __GLIBC__
    static std::once_flag once;
    std::call_once(once, [] {
        // Fixed thresholds also turn off glibc's dynamic mmap threshold (mallopt(3)). 32 MiB is the
        // largest mmap threshold glibc accepts on 64-bit; blocks above it (evaluation chunks) are
        // still returned at once.
        mallopt(M_MMAP_THRESHOLD, 32 << 20);
        mallopt(M_TRIM_THRESHOLD, 256 << 20);  // keep up to 256 MiB free at the heap top
        mallopt(M_TOP_PAD, 16 << 20);          // grow the heap in 16 MiB steps
    });
#endif
}

Result<torch::Device> pick_device(Device device) {
    switch (device) {
        case Device::Cpu: return torch::Device(torch::kCPU);
        case Device::Auto:
            return torch::cuda::is_available() ? torch::Device(torch::kCUDA) : torch::Device(torch::kCPU);
        case Device::Cuda:
            if (torch::cuda::is_available()) return torch::Device(torch::kCUDA);
            return make_error("--device cuda: no CUDA device is available (LibTorch built without CUDA?)");
    }
    return make_error("unknown device");
}

Result<torch::Device> pick_device(const std::string& name) {
    auto device = parse_device(name);
    if (!device.ok()) return device.error();
    return pick_device(*device);
}

Result<bool> trim_metrics(const std::string& path, int step) {
    std::string kept;
    if (step > 0)
        if (auto old = read_file(path); old.ok()) {
            std::istringstream in(*old);
            for (std::string line; std::getline(in, line);) {
                const auto at = line.find("\"step\":");
                if (at == std::string::npos || line.empty() || line.back() != '}') continue;
                if (std::atoi(line.c_str() + at + 7) <= step) kept += line + "\n";
            }
        }
    return write_file_atomic(path, kept);
}

Result<Device> resolve_device(Device device) {
    auto dev = pick_device(device);
    if (!dev.ok()) return dev.error();
    return dev->is_cuda() ? Device::Cuda : Device::Cpu;
}

Result<std::pair<Config, std::shared_ptr<Recognizer>>> load_checkpoint(const std::string& path,
                                                                        int num_symbols,
                                                                        torch::Device device,
                                                                        int* step) {
    torch::serialize::InputArchive a;
    auto ck = read_checkpoint(path, a, device);
    if (!ck.ok()) return ck.error();
    if (step) *step = ck->step;
    std::shared_ptr<Recognizer> model;
    try {
        model = make_recognizer(ck->config, num_symbols);
        model->to(device);
        torch::serialize::InputArchive am;
        a.read("model", am);
        model->load(am);
    } catch (const std::exception& e) {
        return make_error("checkpoint " + path + " does not match its config: " +
                          std::string(e.what()).substr(0, 300));
    }
    return std::make_pair(ck->config, model);
}

Result<TrainOutcome> train_model(const Config& c, int num_symbols, const TrainingDistribution& dist,
                                 const std::string& rundir, const ProgressFn& progress,
                                 const std::string& training_identity,
                                 const std::vector<LabelledWord>* validation) {
    const std::string key = training_key(c, training_identity);
    auto dev = pick_device(c.runtime.device);
    if (!dev.ok()) return dev.error();
    if (c.training.batch < 2) return make_error("--batch must be at least 2 (half positive, half negative)");
    if (c.training.steps < 0) return make_error("--steps must be non-negative");
    if (c.runtime.threads < 1) return make_error("--threads must be at least 1");
    if (auto ok = check_fit_settings(c.training); !ok.ok()) return ok.error();
    const bool until_fit = c.training.fit_check_every > 0;
    torch::set_num_threads(c.runtime.threads);
    torch::manual_seed(c.training.seed);
    keep_freed_memory();
    TrainOutcome out;
    out.device = *dev;
    try {
        out.model = make_recognizer(c, num_symbols);
    } catch (const std::exception& e) {
        return make_error(e.what());
    }
    out.model->to(out.device);
    const long max_tokens = out.model->max_tokens();
    if (max_tokens > 0 && c.training.train_max + 1 > max_tokens)
        return make_error("training length " + std::to_string(c.training.train_max) +
                          " exceeds the learned positional table");
    FlatParameters flat(*out.model);
    torch::optim::Adam opt({flat.values()}, torch::optim::AdamOptions(c.training.lr).weight_decay(0));
    automata::Rng rng(c.training.seed);
    SessionStart start;
    const std::string ckpt = rundir.empty() ? "" : (fs::path(rundir) / "checkpoint.pt").string();
    if (!rundir.empty()) {
        std::error_code ec;
        fs::create_directories(rundir, ec);
        if (ec) return io_error("cannot create " + rundir + ": " + ec.message());
        remove_stale_temporaries(rundir, run_file_name);  // left by a killed run
    }
    if (!ckpt.empty() && fs::exists(ckpt)) {
        auto resumed = resume_from(ckpt, rundir, key, *out.model, flat, opt, rng, out.device);
        if (!resumed.ok()) return resumed.error();
        start = *resumed;
        if (progress) {
            Progress p;
            p.phase = Progress::Phase::Resume;
            p.step = start.step;
            p.total = until_fit && start.fit.stop_at >= 0 ? std::min(start.fit.stop_at, c.training.steps)
                                                          : c.training.steps;
            progress(p);
        }
    }
    int step = start.step;
    FitStop fit = start.fit;
    // The last step: the budget, or where training until the fit stops once it is reached.
    auto end_step = [&] { return until_fit && fit.stop_at >= 0 ? std::min(fit.stop_at, c.training.steps) : c.training.steps; };
    double prior_seconds = start.prior_seconds, tokens = start.tokens;
    const LogWindow& resumed_window = start.window;
    std::ofstream metrics;
    std::vector<LabelledWord> valid;  // metrics.jsonl's validation words (none without a log)
    if (!rundir.empty() && c.runtime.log_every > 0) {
        if (auto m = open_metrics(metrics, rundir, step); !m.ok()) return m.error();
        valid = validation_words(c, dist, validation);
    }
    out.model->train();
    const auto t0 = Clock::now();
    const int start_step = step;
    const double start_tokens = tokens;
    std::vector<automata::Word> words;
    std::vector<std::uint8_t> labels;
    std::vector<const automata::Word*> ptrs;
    // Only a run with a folder stops at a safe point (it has a checkpoint to write); training
    // without one (calibration) ends at once on a signal, as any other work. Opened only when a
    // step is left, so that a stop always finds a checkpoint at the step it reports.
    std::optional<StopPoints> stop_points;
    if (!ckpt.empty() && step < end_step()) stop_points.emplace();
    auto stopped = [&](int at) -> Error {
        return interrupted_error("training of " + rundir + " stopped on request at step " + std::to_string(at) +
                                 "; its checkpoint holds step " + std::to_string(at));
    };
    auto loss_sum = torch::full({}, resumed_window.loss_sum, torch::TensorOptions().dtype(torch::kDouble).device(out.device));
    auto right_sum = torch::full({}, resumed_window.right, torch::TensorOptions().dtype(torch::kLong).device(out.device));
    long window_words = static_cast<long>(resumed_window.words), window_steps = static_cast<long>(resumed_window.steps);
    while (step < end_step()) {
        words.clear();
        labels.clear();
        dist.draw(c.training.batch, rng, words, labels);
        ptrs.clear();
        for (const auto& w : words) ptrs.push_back(&w);
        auto [tok, eos] = encode_words(ptrs, num_symbols);
        if (max_tokens > 0 && tok.size(1) > max_tokens)
            return make_error("a training word exceeds the learned positional table");
        auto target = torch::from_blob(labels.data(), {static_cast<long>(labels.size())}, torch::kUInt8)
                          .to(torch::kFloat);
        tok = tok.to(out.device);
        eos = eos.to(out.device);
        target = target.to(out.device);
        flat.zero_grad();
        auto logits = out.model->forward(tok, eos);
        auto loss = torch::binary_cross_entropy_with_logits(logits, target);
        loss.backward();
        torch::nn::utils::clip_grad_norm_(flat.values(), c.training.grad_clip);
        opt.step();
        ++step;
        tokens += static_cast<double>(tok.numel());
        {
            torch::NoGradGuard ng;
            loss_sum += loss.detach().to(torch::kDouble);
            right_sum += (logits.detach().gt(0) == target.gt(0.5)).sum();
        }
        window_words += static_cast<long>(words.size());
        ++window_steps;
        if (until_fit && fit.stop_at < 0 && step % c.training.fit_check_every == 0) {
            const double acc = fit_check(c, dist, out.model, out.device, num_symbols, step);
            if (acc >= c.training.fit_target) fit.stop_at = step + c.training.fit_extra_steps;
            if (metrics) {
                char line[160];
                std::snprintf(line, sizeof line, "{\"step\":%d,\"fit_accuracy\":%.6g,\"fit_words\":%d,\"stop_at\":%d}\n",
                              step, acc, c.training.fit_check_words, end_step());
                metrics << line << std::flush;
            }
            if (progress) {
                Progress p;
                p.phase = Progress::Phase::FitCheck;
                p.step = step;
                p.total = end_step();
                p.train_accuracy = acc;
                progress(p);
            }
        }
        const int total = end_step();
        const bool last = step == total;
        if (progress) {
            Progress p;
            p.phase = Progress::Phase::Step;
            p.step = step;
            p.total = total;
            progress(p);
        }
        if (c.runtime.log_every > 0 && (step % c.runtime.log_every == 0 || last)) {
            Progress p;
            p.step = step;
            p.total = total;
            p.loss = loss_sum.item<double>() / static_cast<double>(window_steps);
            p.train_accuracy = static_cast<double>(right_sum.item<int64_t>()) / static_cast<double>(window_words);
            const double el = seconds_since(t0);
            p.tokens_per_second = el > 0 ? (tokens - start_tokens) / el : 0;
            p.eta_seconds = step > start_step ? el / (step - start_step) * (total - step) : 0;
            if (metrics) {
                char line[256];
                std::snprintf(line, sizeof line,
                              "{\"step\":%d,\"loss\":%.6g,\"train_accuracy\":%.6g,\"lr\":%.6g,"
                              "\"tokens_per_second\":%.6g,\"seconds\":%.6g",
                              step, p.loss, p.train_accuracy, c.training.lr, p.tokens_per_second, prior_seconds + el);
                metrics << line;
                if (!valid.empty()) {
                    const auto [vloss, vacc] = validation_metrics(valid, out.model, out.device, num_symbols, c.model.heads);
                    std::snprintf(line, sizeof line, ",\"validation_loss\":%.6g,\"validation_accuracy\":%.6g", vloss, vacc);
                    metrics << line;
                }
                metrics << "}\n" << std::flush;
            }
            if (progress) progress(p);
            loss_sum.zero_();
            right_sum.zero_();
            window_words = window_steps = 0;
        }
        const bool periodic = (c.runtime.checkpoint_every > 0 && step % c.runtime.checkpoint_every == 0) || last;
        // Ctrl-C (base/stop.hh): the state after this step is checkpointed like a periodic one, so
        // the rerun resumes here on the trajectory of an uninterrupted run (docs/DURABILITY.md).
        const bool stopping = stop_points && stop_requested();
        if (!ckpt.empty() && (periodic || stopping)) {
            LogWindow window{loss_sum.item<double>(), right_sum.item<std::int64_t>(), window_words, window_steps};
            auto s = save_checkpoint(ckpt, c, key, *out.model, opt, rng, step, prior_seconds + seconds_since(t0),
                                     tokens, window, fit);
            if (!s.ok()) return s.error();
            if (progress) {
                Progress p;
                p.phase = Progress::Phase::Checkpoint;
                p.step = step;
                p.total = total;
                progress(p);
            }
            test_gate("LTLKIT_TEST_GATE_CHECKPOINT");  // a test holds the run here (base/test_gate.hh)
            // A request while held (or while writing): this step's checkpoint is the one to keep.
            if (stop_points && stop_requested()) return stopped(step);
        }
        if (stopping) return stopped(step);
    }
    // A request after the last poll: the checkpoint of the last step is written, training is done.
    if (stop_points && stop_points->close()) return stopped(step);
    out.steps_done = step;
    out.train_seconds = prior_seconds + seconds_since(t0);
    out.tokens_per_second = out.train_seconds > 0 ? tokens / out.train_seconds : 0;
    out.model->eval();
    return out;
}

std::function<std::vector<float>(const std::vector<const automata::Word*>&)> make_predictor(
    std::shared_ptr<Recognizer> model, torch::Device device, int num_symbols, int heads,
    std::optional<EvalChunks> limits) {
    const EvalChunks chunks = limits ? *limits : eval_chunks(device.is_cuda());
    // Attention scores bound a transformer's chunks; an LSTM has none (the scores bound gave it one
    // word per forward pass at the long test lengths: 1.2x slower, docs/PERFORMANCE.md).
    if (!model->has_attention()) heads = 0;
    return [model, device, num_symbols, heads, chunks](const std::vector<const automata::Word*>& words) {
        c10::InferenceMode inference;  // no autograd bookkeeping at all (cheaper than NoGradGuard)
        model->eval();
        std::vector<float> out(words.size(), 0.0f);
        std::vector<std::size_t> order(words.size());
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(),
                         [&](std::size_t a, std::size_t b) { return words[a]->size() < words[b]->size(); });
        std::size_t i = 0;
        std::vector<const automata::Word*> chunk;
        while (i < order.size()) {
            chunk.clear();
            std::size_t j = i;
            while (j < order.size()) {
                const double n = static_cast<double>(words[order[j]]->size() + 1);
                const double b = static_cast<double>(chunk.size() + 1);
                if (!chunk.empty() && (b * n > chunks.tokens || b * heads * n * n > chunks.scores)) break;
                chunk.push_back(words[order[j]]);
                ++j;
            }
            auto [tok, eos] = encode_words(chunk, num_symbols);
            auto logits = model->forward(tok.to(device), eos.to(device)).to(torch::kCPU).to(torch::kFloat).contiguous();
            const float* lp = logits.data_ptr<float>();
            for (std::size_t t = 0; t < chunk.size(); ++t) out[order[i + t]] = lp[t];
            i = j;
        }
        return out;
    };
}

}  // namespace ltlkit::neural
