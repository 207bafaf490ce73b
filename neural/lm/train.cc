// The language model, its training loop (random windows of the training split, Adam with warm-up
// and cosine decay), checkpoints with resume, perplexity on validation and test.
#include <torch/torch.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "base/checksum.hh"
#include "base/file.hh"
#include "automata/random.hh"
#include "neural/checkpoint.hh"
#include "neural/lm/model.hh"
#include "neural/training.hh"

namespace ltlkit::neural::lm {

namespace fs = std::filesystem;
using nlohmann::json;
using Clock = std::chrono::steady_clock;

LanguageModelImpl::LanguageModelImpl(const LmConfig& c, int vocab)
    : pe(c.model.pe), d_model(c.model.d_model), context(c.model.context) {
    if (auto ok = check_lm_config(c); !ok.ok()) throw std::invalid_argument(ok.error().message);
    const Architecture arch = c.model.arch;
    embed = register_module("embed", torch::nn::Embedding(vocab, d_model));
    torch::NoGradGuard ng;
    // Vaswani et al. 2017 §3.4 as in fairseq: token embeddings N(0, 1/d) scaled by sqrt(d) at the
    // input, so that tokens and a sinusoidal table have comparable size; the tied output layer
    // then starts with logits of unit scale. Learned positions start as N(0, 1/d), like fairseq's.
    embed->weight.normal_(0.0, 1.0 / std::sqrt(static_cast<double>(d_model)));
    if (pe == PositionalEncoding::Learned) {
        pos = register_module("pos", torch::nn::Embedding(context, d_model));
        pos->weight.normal_(0.0, 1.0 / std::sqrt(static_cast<double>(d_model)));
    }
    const HeadLayout layout = arch.head_layout(c.model.layers, c.model.heads,
                                               c.model.hybrid_by_layer ? HybridMode::Layers : HybridMode::Heads);
    for (int l = 0; l < c.model.layers; ++l)
        blocks.push_back(register_module(
            "block" + std::to_string(l),
            Block(d_model, c.model.heads, c.model.d_ff, layout.layers[static_cast<std::size_t>(l)], c.model.strict,
                  pe == PositionalEncoding::Rope, /*pre_ln=*/true)));
    final_ln = register_module("final_ln", torch::nn::LayerNorm(std::vector<int64_t>{d_model}));
}

torch::Tensor LanguageModelImpl::forward(const torch::Tensor& tokens) {
    const long n = tokens.size(1);
    auto x = embed->forward(tokens) * std::sqrt(static_cast<double>(d_model));
    if (pe == PositionalEncoding::Learned) {
        if (n > context)
            throw std::length_error("a window of " + std::to_string(n) + " tokens exceeds the learned positional table (" +
                                    std::to_string(context) + " rows)");
        x = x + pos->forward(torch::arange(n, tokens.options()));
    } else if (pe == PositionalEncoding::Sinusoidal) {
        x = x + sinusoidal_table(n, d_model, x.options()).unsqueeze(0);
    }
    for (auto& b : blocks) x = b->forward(x);
    return torch::matmul(final_ln->forward(x), embed->weight.t());
}

void LanguageModelImpl::set_reference(bool on) {
    for (auto& b : blocks) b->attn->reference = on;
}

long LanguageModelImpl::parameter_count() {
    long n = 0;
    for (const auto& p : parameters()) n += p.numel();
    return n;
}

SplitScore score_split(LanguageModel& model, const Split& split, int context, long max_tokens,
                       torch::Device device) {
    torch::NoGradGuard ng;
    model->eval();
    SplitScore s;
    const long T = static_cast<long>(split.tokens.size());
    long targets = T - 1;
    if (max_tokens > 0) targets = std::min(targets, max_tokens);
    const long N = context;
    const long per_batch = std::max(1L, 16384 / N);  // windows per forward pass
    auto nll = torch::zeros({}, torch::TensorOptions().dtype(torch::kDouble).device(device));
    for (long start = 0; start < targets;) {
        // Windows [start + w*N, ...) of equal length N, then one shorter window at the end.
        const long full = std::min(per_batch, (targets - start) / N);
        const long b = full > 0 ? full : 1;
        const long n = full > 0 ? N : targets - start;
        auto in = torch::empty({b, n}, torch::kLong), out = torch::empty({b, n}, torch::kLong);
        auto* ip = in.data_ptr<int64_t>();
        auto* op = out.data_ptr<int64_t>();
        for (long w = 0; w < b; ++w)
            for (long t = 0; t < n; ++t) {
                const long at = start + w * n + t;
                ip[w * n + t] = split.tokens[static_cast<std::size_t>(at)];
                op[w * n + t] = split.tokens[static_cast<std::size_t>(at + 1)];
                s.chars += split.chars[static_cast<std::size_t>(at + 1)];
            }
        auto logits = model->forward(in.to(device));
        nll += torch::nn::functional::cross_entropy(
                   logits.reshape({b * n, -1}).to(torch::kDouble), out.reshape({b * n}).to(device),
                   torch::nn::functional::CrossEntropyFuncOptions().reduction(torch::kSum));
        s.tokens += b * n;
        start += b * n;
    }
    s.nll = nll.item<double>();
    return s;
}

namespace {

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// Linear warm-up over `warmup` steps, then cosine decay to lr * min_lr_ratio at the last step.
double lr_at(const LmTraining& t, int step) {
    if (step < t.warmup) return t.lr * static_cast<double>(step + 1) / static_cast<double>(t.warmup);
    const double span = std::max(1, t.steps - t.warmup);
    const double x = std::min(1.0, static_cast<double>(step - t.warmup) / span);
    return t.lr * (t.min_lr_ratio + (1 - t.min_lr_ratio) * 0.5 * (1 + std::cos(M_PI * x)));
}

// What a checkpoint must share with the run that resumes it: the training-relevant config and the
// training split and vocabulary (validation and test files may change).
std::string resume_key(const LmConfig& c, const Corpus& corpus) {
    return lm_training_key(c) + "\n" + corpus.tokenizer + " " + corpus.vocab_sha256 + " " + corpus.train.sha256;
}

// checkpoint.pt: the recognizers' format (neural/checkpoint.hh), of kind "language_model", with the
// run's config and its resume key as the training key.
Result<bool> save_checkpoint(const std::string& path, const CheckpointMeta& ck, LanguageModel& model,
                             torch::optim::Optimizer& opt) {
    return write_checkpoint(path, ck, *model, opt);
}

Result<CheckpointMeta> load_checkpoint(const std::string& path, LanguageModel* model, torch::optim::Optimizer* opt,
                                       torch::Device device) {
    torch::serialize::InputArchive a;
    auto ck = read_checkpoint_file(path, kLanguageModelCheckpoint, a, device);
    if (!ck.ok()) return ck;
    try {
        if (model) {
            torch::serialize::InputArchive am;
            a.read("model", am);
            (*model)->load(am);
        }
        if (opt) {
            torch::serialize::InputArchive ao;
            a.read("optimizer", ao);
            opt->load(ao);
        }
    } catch (const std::exception& e) {
        return io_error("cannot read checkpoint " + path + ": " + std::string(e.what()).substr(0, 300));
    }
    return ck;
}

// Add-one unigram model of the training split, scored on the targets score_split scores.
double unigram_ppl(const Corpus& corpus, const Split& split, long max_tokens) {
    std::vector<double> count(corpus.vocab.size(), 1.0);
    for (auto t : corpus.train.tokens) count[static_cast<std::size_t>(t)] += 1;
    const double total = static_cast<double>(corpus.train.tokens.size() + corpus.vocab.size());
    long targets = static_cast<long>(split.tokens.size()) - 1;
    if (max_tokens > 0) targets = std::min(targets, max_tokens);
    double nll = 0;
    for (long i = 1; i <= targets; ++i) nll -= std::log(count[static_cast<std::size_t>(split.tokens[i])] / total);
    return targets > 0 ? std::exp(nll / static_cast<double>(targets)) : NAN;
}

std::string num(double x) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.9g", x);
    return buf;
}

Result<LmResult> finish(LmResult r, const std::string& rundir) {
    auto w = write_file_atomic((fs::path(rundir) / "result.json").string(), lm_result_to_json(r));
    if (!w.ok()) return w.error();
    return r;
}

}  // namespace

Result<LmResult> train_lm(const LmConfig& c, const Corpus& corpus, const std::string& rundir,
                          const LmProgressFn& progress) {
    const auto wall0 = Clock::now();
    if (auto ok = check_lm_config(c); !ok.ok()) return ok.error();
    const long T = static_cast<long>(corpus.train.tokens.size());
    if (T < c.model.context + 1)
        return make_error(corpus.train.path + ": " + std::to_string(T) + " tokens, fewer than --context + 1 = " +
                          std::to_string(c.model.context + 1) + " (lower --context)");
    auto dev = pick_device(c.runtime.device);
    if (!dev.ok()) return dev.error();
    torch::set_num_threads(c.runtime.threads);
    torch::manual_seed(c.training.seed);
    const int V = static_cast<int>(corpus.vocab.size());
    LanguageModel model(c, V);
    model->to(*dev);
    torch::optim::Adam opt(model->parameters(), torch::optim::AdamOptions(c.training.lr).weight_decay(0));
    automata::Rng rng(automata::splitmix64(c.training.seed));
    CheckpointMeta ck;
    ck.kind = kLanguageModelCheckpoint;
    ck.config = lm_config_to_json(c);
    ck.key = resume_key(c, corpus);
    std::error_code ec;
    fs::create_directories(rundir, ec);
    if (ec) return io_error("cannot create " + rundir + ": " + ec.message());
    // only the temporaries of this run's own files: the folder may hold the user's
    remove_stale_temporaries(rundir, [](const std::string& stem) {
        return stem == "run.json" || stem == "checkpoint.pt" || stem == "metrics.jsonl" || stem == "result.json";
    });
    const std::string ckpt = (fs::path(rundir) / "checkpoint.pt").string();
    if (fs::exists(ckpt)) {
        auto peek = load_checkpoint(ckpt, nullptr, nullptr, *dev);
        if (!peek.ok()) return peek.error();
        if (peek->key != ck.key)
            return make_error("the checkpoint in " + rundir +
                              " was trained with another configuration or corpus: use another --out, or delete its "
                              "checkpoint.pt to start over");
        auto full = load_checkpoint(ckpt, &model, &opt, *dev);
        if (!full.ok()) return full.error();
        ck = *full;
        ck.config = lm_config_to_json(c);  // this session's runtime settings (the key is equal)
        if (!rng.restore(ck.rng)) return make_error("checkpoint " + ckpt + ": bad RNG state");
    }
    {
        json info{{"config", json::parse(lm_config_to_json(c))}, {"corpus", json::parse(corpus.identity_json())},
                  {"parameters", model->parameter_count()}};
        auto w = write_file_atomic((fs::path(rundir) / "run.json").string(),
                                             json_with_checksum(info.dump(), 2));
        if (!w.ok()) return w.error();
    }
    const std::string metrics_path = (fs::path(rundir) / "metrics.jsonl").string();
    if (auto t = trim_metrics(metrics_path, ck.step); !t.ok()) return t.error();
    std::ofstream metrics(metrics_path, std::ios::app);
    if (!metrics) return io_error("cannot write " + metrics_path);

    model->train();
    const auto t0 = Clock::now();
    const int start_step = ck.step;
    const double start_tokens = ck.tokens;
    const long N = c.model.context, B = c.training.batch;
    std::vector<int64_t> in(static_cast<std::size_t>(B * N)), out(in.size());
    double window_loss = 0, final_loss = 0;
    int window_steps = 0;
    while (ck.step < c.training.steps) {
        for (long b = 0; b < B; ++b) {
            const long s = static_cast<long>(rng.below(static_cast<std::uint64_t>(T - N)));
            for (long t = 0; t < N; ++t) {
                in[static_cast<std::size_t>(b * N + t)] = corpus.train.tokens[static_cast<std::size_t>(s + t)];
                out[static_cast<std::size_t>(b * N + t)] = corpus.train.tokens[static_cast<std::size_t>(s + t + 1)];
            }
        }
        const double lr = lr_at(c.training, ck.step);
        for (auto& g : opt.param_groups()) static_cast<torch::optim::AdamOptions&>(g.options()).lr(lr);
        auto x = torch::from_blob(in.data(), {B, N}, torch::kLong).to(*dev);
        auto y = torch::from_blob(out.data(), {B * N}, torch::kLong).to(*dev);
        opt.zero_grad();
        auto loss = torch::nn::functional::cross_entropy(model->forward(x).reshape({B * N, V}), y);
        loss.backward();
        torch::nn::utils::clip_grad_norm_(model->parameters(), c.training.grad_clip);
        opt.step();
        ++ck.step;
        ck.tokens += static_cast<double>(B * N);
        const double l = loss.item<double>();
        window_loss += l;
        ++window_steps;
        metrics << "{\"step\":" << ck.step << ",\"loss\":" << num(l) << ",\"lr\":" << num(lr) << "}\n";
        const bool last = ck.step == c.training.steps;
        if (c.runtime.eval_every > 0 && ck.step % c.runtime.eval_every == 0 && !last) {
            const auto v = score_split(model, corpus.valid, c.model.context, c.runtime.eval_tokens, *dev);
            model->train();
            metrics << "{\"step\":" << ck.step << ",\"valid_loss\":" << num(v.nll / static_cast<double>(v.tokens))
                    << ",\"valid_ppl\":" << num(v.ppl_token()) << "}\n";
        }
        if ((c.runtime.log_every > 0 && ck.step % c.runtime.log_every == 0) || last) {
            final_loss = window_loss / window_steps;
            if (progress && c.runtime.log_every > 0) {
                LmProgress p;
                p.step = ck.step;
                p.total = c.training.steps;
                p.loss = final_loss;
                p.lr = lr;
                const double el = seconds_since(t0);
                p.tokens_per_second = el > 0 ? (ck.tokens - start_tokens) / el : 0;
                p.eta_seconds = el / (ck.step - start_step) * (c.training.steps - ck.step);
                progress(p);
            }
            window_loss = 0;
            window_steps = 0;
        }
        if ((c.runtime.checkpoint_every > 0 && ck.step % c.runtime.checkpoint_every == 0) || last) {
            metrics.flush();
            if (!metrics) return io_error("cannot write " + metrics_path);
            const double before = ck.train_seconds;
            ck.train_seconds = before + seconds_since(t0);
            ck.rng = rng.save();
            auto s = save_checkpoint(ckpt, ck, model, opt);
            ck.train_seconds = before;
            if (!s.ok()) return s.error();
        }
    }
    LmResult r;
    r.config = c;
    r.corpus_json = corpus.identity_json();
    r.parameters = model->parameter_count();
    r.steps_done = ck.step;
    r.train_seconds = ck.train_seconds + seconds_since(t0);
    r.tokens_per_second = r.train_seconds > 0 ? ck.tokens / r.train_seconds : 0;
    r.final_loss = final_loss;
    r.device = dev->str();
    r.valid = score_split(model, corpus.valid, c.model.context, c.runtime.eval_tokens, *dev);
    r.test = score_split(model, corpus.test, c.model.context, c.runtime.eval_tokens, *dev);
    r.unigram_valid_ppl = unigram_ppl(corpus, corpus.valid, c.runtime.eval_tokens);
    metrics << "{\"step\":" << ck.step << ",\"valid_loss\":" << num(r.valid.nll / static_cast<double>(r.valid.tokens))
            << ",\"valid_ppl\":" << num(r.valid.ppl_token()) << ",\"test_ppl\":" << num(r.test.ppl_token()) << "}\n";
    metrics.close();
    r.wall_seconds = seconds_since(wall0);
    return finish(std::move(r), rundir);
}

Result<std::pair<LmConfig, CorpusFiles>> read_lm_run(const std::string& rundir) {
    const std::string path = (fs::path(rundir) / "run.json").string();
    auto text = read_file(path);
    if (!text.ok()) return text.error();
    if (auto ok = check_json_checksum(path, *text, "rerun `ltlkit lm train` with the same --out"); !ok.ok())
        return ok.error();
    try {
        auto j = json::parse(*text);
        auto c = lm_config_from_json(j.at("config").dump());
        if (!c.ok()) return c.error();
        CorpusFiles f;
        const auto& corpus = j.at("corpus");
        f.tokenizer = corpus.at("tokenizer").get<std::string>();
        f.train = corpus.at("train").at("path").get<std::string>();
        f.valid = corpus.at("valid").at("path").get<std::string>();
        f.test = corpus.at("test").at("path").get<std::string>();
        return std::make_pair(*c, f);
    } catch (const std::exception& e) {
        return make_error(path + ": not a language-model run (" + e.what() + ")");
    }
}

Result<LmResult> evaluate_lm(const std::string& rundir, const Corpus& corpus, const LmRuntime& runtime,
                             int eval_context) {
    const auto wall0 = Clock::now();
    auto run = read_lm_run(rundir);
    if (!run.ok()) return run.error();
    LmConfig c = run->first;
    c.runtime.threads = runtime.threads;
    c.runtime.device = runtime.device;
    c.runtime.eval_tokens = runtime.eval_tokens;
    if (eval_context < 0) return make_error("--context must be positive");
    const int window = eval_context > 0 ? eval_context : c.model.context;
    if (c.model.pe == PositionalEncoding::Learned && window > c.model.context)
        return make_error("--context " + std::to_string(window) + " exceeds the learned positional table of " + rundir +
                          " (" + std::to_string(c.model.context) + " rows): learned positions cannot score longer windows "
                          "than they were trained on");
    auto dev = pick_device(c.runtime.device);
    if (!dev.ok()) return dev.error();
    torch::set_num_threads(c.runtime.threads);
    const std::string ckpt = (fs::path(rundir) / "checkpoint.pt").string();
    if (!fs::exists(ckpt)) return io_error("no checkpoint in " + rundir + " (train the run first)");
    LanguageModel model(c, static_cast<int>(corpus.vocab.size()));
    model->to(*dev);
    auto peek = load_checkpoint(ckpt, nullptr, nullptr, *dev);
    if (!peek.ok()) return peek.error();
    if (peek->key != resume_key(c, corpus))
        return make_error(rundir + " was trained on another training split or tokenizer than " + corpus.train.path +
                          " (" + corpus.tokenizer + "): evaluate with the run's own training file");
    auto ck = load_checkpoint(ckpt, &model, nullptr, *dev);
    if (!ck.ok()) return ck.error();
    LmResult r;
    const std::string result_path = (fs::path(rundir) / "result.json").string();
    if (auto prev = read_file(result_path); prev.ok())
        if (auto old = lm_result_from_json(*prev); old.ok()) r = *old;
    r.config = c;
    r.corpus_json = corpus.identity_json();
    r.parameters = model->parameter_count();
    r.steps_done = ck->step;
    r.train_seconds = ck->train_seconds;
    r.tokens_per_second = ck->train_seconds > 0 ? ck->tokens / ck->train_seconds : 0;
    r.device = dev->str();
    r.eval_context = window;
    r.valid = score_split(model, corpus.valid, window, c.runtime.eval_tokens, *dev);
    r.test = score_split(model, corpus.test, window, c.runtime.eval_tokens, *dev);
    r.unigram_valid_ppl = unigram_ppl(corpus, corpus.valid, c.runtime.eval_tokens);
    r.wall_seconds = r.train_seconds + seconds_since(wall0);
    return finish(std::move(r), rundir);
}

}  // namespace ltlkit::neural::lm
