// Calibration of a run's cost (calibrate.hh).
#include "neural/calibrate.hh"

#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <optional>
#include <string>
#include <vector>
#include <torch/torch.h>

#include "neural/model.hh"
#include "neural/training.hh"

namespace ltlkit::neural {
namespace {

// The calibration's clock. On the CPU with one torch thread (how verify's and the sweep's runs
// train) it is the process's CPU time, so a calibration taken while other work shares the cores
// measures what a run costs in CPU, not how busy the machine was at that moment (a calibration at
// load 6 read a 20x slower rate on the wall clock); on a GPU or with several threads, wall time.
struct Stopwatch {
    bool cpu = false;
    double now() const {
        if (cpu) {
            timespec ts{};
            clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
            return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
        }
        return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
    }
    double since(double t0) const { return now() - t0; }
};

void sync(const torch::Device& d) {
    if (d.is_cuda()) torch::cuda::synchronize();
}

// Random words of length n over {0, 1}, with EOS (symbol 2) at position n.
std::pair<torch::Tensor, torch::Tensor> batch_of(long b, long n, const torch::Device& d) {
    auto tok = torch::randint(0, 2, {b, n + 1}, torch::kLong);
    tok.select(1, n).fill_(2);
    return {tok.to(d), torch::full({b}, n, torch::kLong).to(d)};
}

// Keeps the default generators' states (CPU, and the device's) and puts them back: the
// calibration may run inside a training (at its first progress event), whose random stream must
// not depend on whether an estimate was printed.
class KeepRandomState {
public:
    explicit KeepRandomState(const torch::Device& d) {
        gens_.push_back(at::globalContext().defaultGenerator(c10::Device(c10::DeviceType::CPU)));
        if (d.is_cuda()) gens_.push_back(at::globalContext().defaultGenerator(d));
        for (auto& g : gens_) {
            std::lock_guard<std::mutex> lock(g.mutex());
            states_.push_back(g.get_state());
        }
    }
    ~KeepRandomState() {
        for (std::size_t i = 0; i < gens_.size(); ++i) {
            std::lock_guard<std::mutex> lock(gens_[i].mutex());
            gens_[i].set_state(states_[i]);
        }
    }
    KeepRandomState(const KeepRandomState&) = delete;
    KeepRandomState& operator=(const KeepRandomState&) = delete;

private:
    std::vector<at::Generator> gens_;
    std::vector<torch::Tensor> states_;
};

}  // namespace

Result<Throughput> measure_throughput(const Config& c, double seconds) {
    auto dev = pick_device(c.runtime.device);
    if (!dev.ok()) return dev.error();
    KeepRandomState keep_random(*dev);
    const int threads_before = torch::get_num_threads();
    torch::set_num_threads(std::max(c.runtime.threads, 1));
    Throughput out;
    const Stopwatch clock{!dev->is_cuda() && std::max(c.runtime.threads, 1) == 1};
    try {
        torch::manual_seed(0);
        keep_freed_memory();
        auto model = make_recognizer(c, 2);
        model->to(*dev);
        model->train();
        FlatParameters flat(*model);
        torch::optim::Adam opt({flat.values()}, torch::optim::AdamOptions(c.training.lr));
        const long lo = std::max(c.training.train_min, 1), hi = std::max<long>(c.training.train_max, lo);
        const long batch = std::max(c.training.batch, 2);
        auto y = (torch::arange(batch) < batch / 2).to(torch::kFloat).to(*dev);
        double tokens = 0, t = 0;
        for (long i = 0; c.training.steps > 0 && (i < 6 || t < seconds / 2); ++i) {
            const long n = lo + (i * 7919) % (hi - lo + 1);  // spread over the training lengths
            auto [tok, eos] = batch_of(batch, n, *dev);
            const double t0 = clock.now();
            flat.zero_grad();
            auto loss = torch::binary_cross_entropy_with_logits(model->forward(tok, eos), y);
            loss.backward();
            torch::nn::utils::clip_grad_norm_(flat.values(), c.training.grad_clip);
            opt.step();
            sync(*dev);
            if (i < 3) continue;  // warm-up: the first steps allocate what later steps reuse
            t += clock.since(t0);
            tokens += static_cast<double>(batch * (n + 1));
        }
        out.train_tokens_per_second = tokens > 0 ? tokens / std::max(t, 1e-9) : 0;

        // The evaluation's chunks (eval_chunks in memory.hh, as make_predictor bounds them).
        const EvalChunks chunks = eval_chunks(dev->is_cuda());
        c10::InferenceMode inference;
        model->eval();
        const long tlo = std::max(c.evaluation.test_min, 1), thi = std::max<long>(c.evaluation.test_max, tlo);
        tokens = 0;
        t = 0;
        for (int i = -1; i < 4 || t < seconds / 2; ++i) {
            const long n = i < 0 ? thi : tlo + (thi - tlo) * (i % 4) / 3;
            // Chunks as large as the evaluation's (several lengths share one): their size, not the
            // words per length, sets how well the attention scores stay in cache.
            const long b = static_cast<long>(chunk_words(chunks, c, static_cast<double>(n + 1)));
            auto [tok, eos] = batch_of(b, n, *dev);
            const double t0 = clock.now();
            (void)model->forward(tok, eos).to(torch::kCPU);
            sync(*dev);
            if (i < 0) continue;  // warm-up, at the longest length
            t += clock.since(t0);
            tokens += static_cast<double>(b * (n + 1));
        }
        out.eval_tokens_per_second = tokens / std::max(t, 1e-9);
    } catch (const std::exception& e) {
        torch::set_num_threads(threads_before);
        return make_error(std::string("calibration failed: ") + e.what());
    }
    torch::set_num_threads(threads_before);
    char buf[160];
    std::snprintf(buf, sizeof buf, "measured here: %.0f training and %.0f evaluation tokens/s%s (%s, a calibration of under %.0f s)",
                  out.train_tokens_per_second, out.eval_tokens_per_second, clock.cpu ? " of CPU time" : "",
                  to_string(c.model.arch).c_str(), seconds + 1);
    out.source = buf;
    return out;
}

CostEstimate estimate_work(const std::vector<Work>& work, int shards, bool gpu, const MeasureFn& measure) {
    std::size_t runs = 0;
    for (const auto& w : work) runs += w.runs;
    CostEstimate total = estimate_cost(work.empty() ? Config{} : work.front().config, runs, shards, gpu);
    if (runs == 0) {
        set_run_seconds(total, 0, 0);
        return total;
    }
    // The mean per-run seconds over the runs, each configuration from `rate_of` (nullptr: assumed).
    auto mean_of = [&](auto&& rate_of) {
        double train = 0, eval = 0;
        bool all_measured = true;
        std::string source;
        for (const auto& w : work) {
            const std::optional<Throughput> rate = rate_of(w);
            const CostEstimate e = estimate_cost(w.config, runs, shards, gpu, rate ? &*rate : nullptr);
            train += static_cast<double>(w.runs) * e.train_seconds;
            eval += static_cast<double>(w.runs) * e.eval_seconds;
            all_measured = all_measured && e.measured;
            if (source.empty() || !e.measured) source = e.assumptions;
        }
        CostEstimate e = total;
        set_run_seconds(e, train / static_cast<double>(runs), eval / static_cast<double>(runs));
        e.measured = all_measured;
        e.assumptions = source;
        return e;
    };
    CostEstimate assumed = mean_of([](const Work&) { return std::optional<Throughput>(); });
    // On the whole work, not a shard's or a thread's part: every way of running it is estimated alike.
    if (static_cast<double>(runs) * assumed.seconds_per_run <= kCalibrateAbove) return assumed;
    const MeasureFn& how = measure ? measure : MeasureFn([](const Config& c, double s) { return measure_throughput(c, s); });
    std::string failure;
    CostEstimate measured = mean_of([&](const Work& w) -> std::optional<Throughput> {
        if (!failure.empty()) return std::nullopt;
        const double assumed_seconds = estimate_cost(w.config, 1, 1, gpu).seconds_per_run;
        auto rate = how(w.config, std::clamp(assumed_seconds / 100, 0.2, 1.5));
        if (!rate.ok()) {
            failure = rate.error().message;
            return std::nullopt;
        }
        return *rate;
    });
    if (!failure.empty()) {
        assumed.assumptions += " (not calibrated: " + failure + ")";
        return assumed;
    }
    if (work.size() > 1)
        measured.assumptions = "measured here: each of the " + std::to_string(work.size()) +
                               " models trained and evaluated for about a second at its shape";
    return measured;
}

}  // namespace ltlkit::neural
