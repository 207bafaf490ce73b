// Benchmarks of the recognizers (docs/PERFORMANCE.md):
//  1. training tokens/s of ltlkit against the same model and step in Python PyTorch
//     (bench/scripts/train_ref.py, run by --python, default /usr/bin/python3), same thread count and
//     device, side by side, with the ratio;
//  2. forward time of local-k and global attention at N = 512, 2048, 8192 and time(8192)/time(512);
//  3. evaluation tokens/s (inference, words of length 41..500 as in the papers' test range) of the
//     recognizer's forward pass, which computes the last layer at EOS only, against the full pass
//     read at EOS (every position of every layer), side by side with the ratio;
//  4. (--eval-chunks) the run's predictor (make_predictor) on random test words under chunk limits
//     against the reference chunking, with the ratio and the largest logit difference.
// Usage: bench_train [--threads T] [--steps S] [--archs global,local-1,...] [--no-python]
//                    [--skip-train] [--skip-attention] [--skip-eval] [--eval-chunks] [--batch B] [--layers L] [--d-model D] [--heads H]
//                    [--d-ff F (default 4 D)]
//                    [--device cpu|cuda] [--python PATH]
#include <torch/torch.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "neural/training.hh"

using namespace ltlkit::neural;
using Clock = std::chrono::steady_clock;

namespace {

double secs(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

struct Opts {
    int threads = 1, steps = 40, warmup = 5, batch = 128, layers = 5, d = 64, heads = 8, d_ff = 0;  // 0: 4 d
    int ff() const { return d_ff > 0 ? d_ff : 4 * d; }
    std::vector<Architecture> archs{{Architecture::Kind::Global, 0},
                                    {Architecture::Kind::Local, 1},
                                    {Architecture::Kind::Local, 4},
                                    {Architecture::Kind::Hybrid, 1}};
    bool python = true, train = true, attention = true, eval = true, chunks = false;
    std::string device = "cpu";
    std::string python_exe = "/usr/bin/python3";
};

// Same batches as train_ref.py: n = 1 + (i * 7919) % 40 at step i.
double cpp_tokens_per_second(const Opts& o, const Architecture& arch) {
    Config c;
    c.model.arch = arch;
    c.model.layers = o.layers;
    c.model.d_model = o.d;
    c.model.heads = o.heads;
    c.model.d_ff = o.ff();
    torch::manual_seed(1);
    auto dev = torch::Device(o.device);
    auto m = make_recognizer(c, 2);
    m->to(dev);
    // The training step of neural/train.cc: freed memory kept, parameters in one flat tensor.
    keep_freed_memory();
    FlatParameters flat(*m);
    torch::optim::Adam opt({flat.values()}, torch::optim::AdamOptions(3e-4));
    double tokens = 0;
    auto t0 = Clock::now();
    for (int i = 0; i < o.warmup + o.steps; ++i) {
        if (i == o.warmup) {
            if (dev.is_cuda()) torch::cuda::synchronize();
            t0 = Clock::now();
            tokens = 0;
        }
        const long n = 1 + (static_cast<long>(i) * 7919) % 40;
        auto tok = torch::randint(0, 2, {o.batch, n + 1}, torch::kLong);
        tok.select(1, n).fill_(2);
        auto eos = torch::full({o.batch}, n, torch::kLong);
        auto y = (torch::arange(o.batch) < (o.batch + 1) / 2).to(torch::kFloat);
        tok = tok.to(dev);
        eos = eos.to(dev);
        y = y.to(dev);
        flat.zero_grad();
        auto loss = torch::binary_cross_entropy_with_logits(m->forward(tok, eos), y);
        loss.backward();
        torch::nn::utils::clip_grad_norm_(flat.values(), 1.0);
        opt.step();
        tokens += static_cast<double>(o.batch * (n + 1));
    }
    if (dev.is_cuda()) torch::cuda::synchronize();
    return tokens / secs(t0);
}

double python_tokens_per_second(const Opts& o, const Architecture& arch) {
    const auto script = std::filesystem::path(__FILE__).parent_path().parent_path() / "scripts" / "train_ref.py";
    std::ostringstream cmd;
    cmd << o.python_exe << " " << script << " --arch " << to_string(arch) << " --threads " << o.threads << " --steps "
        << o.steps << " --warmup " << o.warmup << " --batch " << o.batch << " --layers " << o.layers
        << " --d-model " << o.d << " --heads " << o.heads << " --d-ff " << o.ff() << " --device " << o.device;
    FILE* p = popen(cmd.str().c_str(), "r");
    if (!p) return -1;
    char buf[4096];
    std::string out;
    while (fgets(buf, sizeof buf, p)) out += buf;
    if (pclose(p) != 0) return -1;
    auto k = out.find("\"tokens_per_second\":");
    if (k == std::string::npos) return -1;
    return std::stod(out.substr(k + 20));
}

double attention_ms(const std::string& kind, long n, int window, int reps, torch::Device dev) {
    torch::NoGradGuard ng;
    const long b = 1, h = 4, dh = 16;
    const auto o = torch::TensorOptions().device(dev);
    auto q = torch::randn({b, h, n, dh}, o), k = torch::randn({b, h, n, dh}, o), v = torch::randn({b, h, n, dh}, o);
    auto run = [&] { return kind == "global" ? global_attention(q, k, v, true) : local_attention(q, k, v, window, true); };
    run();
    if (dev.is_cuda()) torch::cuda::synchronize();
    auto t0 = Clock::now();
    for (int r = 0; r < reps; ++r) run();
    if (dev.is_cuda()) torch::cuda::synchronize();
    return secs(t0) * 1000.0 / reps;
}

// Inference tokens/s over words of lengths 41, 41 + 46, ..., 500 (batch B each), EOS-only last
// layer (the recognizer's forward) or the full pass (read(hidden(...))).
// The evaluation benches' model: the options' shape with d_ff = 2 d, seeded.
Config eval_config(const Opts& o, const Architecture& arch) {
    Config c;
    c.model.arch = arch;
    c.model.layers = o.layers;
    c.model.d_model = o.d;
    c.model.heads = o.heads;
    c.model.d_ff = 2 * o.d;
    torch::manual_seed(1);
    return c;
}

double eval_tokens_per_second(const Opts& o, const Architecture& arch, bool eos_only) {
    const Config c = eval_config(o, arch);
    auto dev = torch::Device(o.device);
    TransformerRecognizer m(c, 2, 512);
    m.to(dev);
    m.eval();
    c10::InferenceMode guard;
    double tokens = 0;
    const long b = 16;
    auto t0 = Clock::now();
    for (long n = 41; n <= 500; n += 46) {
        auto tok = torch::randint(0, 2, {b, n + 1}, torch::kLong);
        tok.select(1, n).fill_(2);
        auto eos = torch::full({b}, n, torch::kLong);
        tok = tok.to(dev);
        eos = eos.to(dev);
        auto logits = eos_only ? m.forward(tok, eos) : m.read(m.hidden(tok), eos);
        if (dev.is_cuda()) torch::cuda::synchronize();
        tokens += static_cast<double>(b * (n + 1));
    }
    return tokens / secs(t0);
}

// The predictor of a run (make_predictor) over `per_length` uniform random words at every 23rd length of
// 41..500, with the chunk limits `chunks`: tokens/s and the logits (to compare chunkings).
std::pair<double, std::vector<float>> predictor_tokens_per_second(const Opts& o, const Architecture& arch,
                                                                  EvalChunks chunks, int per_length) {
    const Config c = eval_config(o, arch);
    auto dev = torch::Device(o.device);
    std::shared_ptr<Recognizer> m = make_recognizer(c, 2);
    m->to(dev);
    std::vector<ltlkit::automata::Word> words;
    std::uint64_t x = 88172645463325252ull;  // xorshift64: the same words for every chunking
    for (int n = 41; n <= 500; n += 23)
        for (int i = 0; i < per_length; ++i) {
            ltlkit::automata::Word w(static_cast<std::size_t>(n));
            for (auto& a : w) {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                a = static_cast<ltlkit::automata::Symbol>(x & 1);
            }
            words.push_back(std::move(w));
        }
    std::vector<const ltlkit::automata::Word*> ptrs;
    double tokens = 0;
    for (const auto& w : words) {
        ptrs.push_back(&w);
        tokens += static_cast<double>(w.size() + 1);
    }
    auto predict = make_predictor(m, dev, 2, o.heads, chunks);
    (void)predict({ptrs.back()});  // warm-up
    auto t0 = Clock::now();
    auto logits = predict(ptrs);
    return {tokens / secs(t0), logits};
}

std::vector<std::string> split(const std::string& s) {
    std::vector<std::string> out;
    std::stringstream ss(s);
    std::string x;
    while (std::getline(ss, x, ',')) out.push_back(x);
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    Opts o;
    for (int i = 1; i < argc; ++i) {
        auto arg = [&](const char* name) { return std::strcmp(argv[i], name) == 0 && i + 1 < argc; };
        if (arg("--threads")) o.threads = std::atoi(argv[++i]);
        else if (arg("--steps")) o.steps = std::atoi(argv[++i]);
        else if (arg("--batch")) o.batch = std::atoi(argv[++i]);
        else if (arg("--layers")) o.layers = std::atoi(argv[++i]);
        else if (arg("--d-model")) o.d = std::atoi(argv[++i]);
        else if (arg("--heads")) o.heads = std::atoi(argv[++i]);
        else if (arg("--d-ff")) o.d_ff = std::atoi(argv[++i]);
        else if (arg("--archs")) {
            o.archs.clear();
            for (const auto& name : split(argv[++i])) {
                auto arch = parse_architecture(name);
                if (!arch.ok()) {
                    std::fprintf(stderr, "bench_train: %s\n", arch.error().message.c_str());
                    return 2;
                }
                o.archs.push_back(*arch);
            }
        }
        else if (arg("--device")) o.device = argv[++i];
        else if (arg("--python")) o.python_exe = argv[++i];
        else if (std::strcmp(argv[i], "--no-python") == 0) o.python = false;
        else if (std::strcmp(argv[i], "--skip-train") == 0) o.train = false;
        else if (std::strcmp(argv[i], "--skip-attention") == 0) o.attention = false;
        else if (std::strcmp(argv[i], "--skip-eval") == 0) o.eval = false;
        else if (std::strcmp(argv[i], "--eval-chunks") == 0) o.chunks = true;
        else {
            std::fprintf(stderr, "bench_train: unknown argument %s\n", argv[i]);
            return 2;
        }
    }
    torch::set_num_threads(o.threads);
    std::printf("threads %d, torch %s\n", o.threads, TORCH_VERSION);
    if (o.train) {
        std::printf("training tokens/s: batch %d, %d layers, d %d, %d heads, lengths 1..40, %d steps (+%d warm-up), device %s\n",
                    o.batch, o.layers, o.d, o.heads, o.steps, o.warmup, o.device.c_str());
        std::printf("%-10s %14s %14s %8s\n", "arch", "ltlkit tok/s", "python tok/s", "ratio");
        for (const auto& arch : o.archs) {
            const double c = cpp_tokens_per_second(o, arch);
            const double p = o.python ? python_tokens_per_second(o, arch) : -1;
            if (p > 0)
                std::printf("%-10s %14.0f %14.0f %8.2f\n", to_string(arch).c_str(), c, p, c / p);
            else
                std::printf("%-10s %14.0f %14s %8s\n", to_string(arch).c_str(), c, "-", "-");
            std::fflush(stdout);
        }
    }
    if (o.eval) {
        std::printf("evaluation tokens/s (inference, batch 16 per length, lengths 41..500 step 46, %d layers, d %d, "
                    "%d heads), device %s\n", o.layers, o.d, o.heads, o.device.c_str());
        std::printf("%-10s %16s %16s %8s\n", "arch", "EOS-only tok/s", "full pass tok/s", "ratio");
        for (const auto& arch : o.archs) {
            if (!arch.is_transformer()) continue;
            const double full = eval_tokens_per_second(o, arch, false);
            const double fast = eval_tokens_per_second(o, arch, true);
            std::printf("%-10s %16.0f %16.0f %8.2f\n", to_string(arch).c_str(), fast, full, fast / full);
            std::fflush(stdout);
        }
    }
    if (o.chunks) {
        // The reference is the chunking of verify's evaluation up to 2026-12-07 (2^16 tokens, 2^25 scores).
        const EvalChunks reference{1 << 16, 1 << 25};
        const EvalChunks candidates[] = {{1 << 16, 1 << 22}, {1 << 16, 1 << 20}, {1 << 14, 1 << 20},
                                         {1 << 14, 1 << 18}, {1 << 12, 1 << 17}};
        std::printf("predictor tokens/s by evaluation chunk (128 random words at every 23rd length of 41..500, %d layers, "
                    "d %d, %d heads, device %s); reference: 2^16 tokens, 2^25 scores\n", o.layers, o.d, o.heads,
                    o.device.c_str());
        std::printf("%-10s %10s %10s %12s %12s %8s %14s\n", "arch", "tokens", "scores", "tok/s", "ref tok/s", "ratio",
                    "max |dlogit|");
        for (const auto& arch : o.archs) {
            if (!arch.is_transformer()) continue;
            const auto ref = predictor_tokens_per_second(o, arch, reference, 128);
            for (const auto& ch : candidates) {
                const auto got = predictor_tokens_per_second(o, arch, ch, 128);
                float diff = 0;
                for (std::size_t i = 0; i < got.second.size(); ++i)
                    diff = std::max(diff, std::abs(got.second[i] - ref.second[i]));
                std::printf("%-10s %10.0f %10.0f %12.0f %12.0f %8.2f %14.3g\n", to_string(arch).c_str(), ch.tokens,
                            ch.scores, got.first, ref.first, got.first / ref.first, static_cast<double>(diff));
                std::fflush(stdout);
            }
        }
    }
    if (o.attention) {
        std::printf("attention forward (B=1, 4 heads, d_head 16, strict), ms per call, device %s\n", o.device.c_str());
        std::printf("%-10s %10s %10s %10s %16s\n", "kind", "N=512", "N=2048", "N=8192", "t(8192)/t(512)");
        for (std::string kind : {"local-4", "global"}) {
            double t[3];
            const long ns[3] = {512, 2048, 8192};
            for (int j = 0; j < 3; ++j)
                t[j] = attention_ms(kind == "global" ? "global" : "local", ns[j], 4,
                                    kind == "global" ? (j == 2 ? 2 : 5) : 50, torch::Device(o.device));
            std::printf("%-10s %10.3f %10.3f %10.3f %16.1f\n", kind.c_str(), t[0], t[1], t[2], t[2] / t[0]);
            std::fflush(stdout);
        }
    }
    return 0;
}
