// Training, checkpoints and batched inference (PROTOCOL.md "Training"), and the run API of
// neural/run.hh that ties them to evaluation.
#include <torch/torch.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <sstream>

#include <nlohmann/json.hpp>

#include "automata/io.hh"
#include "automata/sampler.hh"
#include "neural/internal.hh"
#include "neural/model.hh"

namespace ltlkit::neural {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

double seconds_since(Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

// The fields that determine the trajectory of training: a checkpoint resumes only under the same.
std::string training_key(const Config& c) {
    auto j = nlohmann::json::parse(config_to_json(c));
    for (const char* k : {"steps", "threads", "device", "checkpoint_every", "log_every", "test_min",
                          "test_max", "per_length", "fit_words", "success_rule"})
        j.erase(k);
    // The learned table's size is part of the model.
    j["max_positions"] = c.pe == "learned" ? learned_rows(c) : 0;
    return j.dump();
}

// checkpoint.pt (docs/DURABILITY.md): one header line
//   ltlkit-checkpoint 1 train_seconds=<seconds> state=<hex> sha256=<hex>
// then the LibTorch archive. sha256 is the SHA-256 of the header before " sha256=", a newline and
// the archive, so a truncated or corrupted checkpoint is never loaded. state is the SHA-256 of the
// training state in a canonical order (step, RNG, tokens, every parameter and buffer, Adam's state
// per parameter): LibTorch archives of equal states differ in bytes between processes (optimizer
// state keyed by addresses, class-name mangling), so the kill tests compare this digest.
constexpr const char* kCheckpointMagic = "ltlkit-checkpoint 1";
constexpr const char* kCheckpointAdvice = "delete it to restart the run from step 0";

std::string frame_checkpoint(const std::string& archive, double train_seconds, const std::string& state) {
    char buf[64];
    std::snprintf(buf, sizeof buf, " train_seconds=%.17g", train_seconds);
    const std::string prefix = std::string(kCheckpointMagic) + buf + " state=" + state;
    std::string hashed = prefix + "\n";
    hashed += archive;
    return prefix + " sha256=" + automata::sha256_hex(hashed) + "\n" + archive;
}

void add_tensor(std::string& out, const std::string& name, const torch::Tensor& t) {
    const auto c = t.detach().to(torch::kCPU).contiguous();
    out += name + " " + std::string(c10::toString(c.scalar_type())) + " " + c10::str(c.sizes()) + "\n";
    out.append(static_cast<const char*>(c.data_ptr()), c.nbytes());
}

std::string state_digest(const std::string& config, Recognizer& model, torch::optim::Optimizer& opt,
                         const std::string& rng, int step, double tokens) {
    std::string s = config + "\nstep " + std::to_string(step) + "\nrng " + rng + "\n";
    s.append(reinterpret_cast<const char*>(&tokens), sizeof tokens);
    for (const auto& p : model.named_parameters()) add_tensor(s, "param " + p.key(), p.value());
    for (const auto& b : model.named_buffers()) add_tensor(s, "buffer " + b.key(), b.value());
    std::size_t i = 0;
    for (const auto& p : model.parameters()) {
        auto it = opt.state().find(c10::guts::to_string(p.unsafeGetTensorImpl()));
        const std::string n = "adam " + std::to_string(i++);
        if (it == opt.state().end()) continue;
        if (const auto* a = dynamic_cast<const torch::optim::AdamParamState*>(it->second.get())) {
            s += n + " step " + std::to_string(a->step()) + "\n";
            add_tensor(s, n + " exp_avg", a->exp_avg());
            add_tensor(s, n + " exp_avg_sq", a->exp_avg_sq());
            if (a->max_exp_avg_sq().defined()) add_tensor(s, n + " max_exp_avg_sq", a->max_exp_avg_sq());
        }
    }
    return automata::sha256_hex(s);
}

// The archive of a checkpoint file, checked against its header; train_seconds from the header
// (NaN for a checkpoint of an older ltlkit: a bare LibTorch archive, read without a checksum).
Result<std::string> unframe_checkpoint(const std::string& path, std::string text, double& train_seconds) {
    train_seconds = std::nan("");
    if (text.rfind("PK\x03\x04", 0) == 0) return text;  // an older ltlkit's checkpoint
    const std::string magic = std::string(kCheckpointMagic) + " ";
    const auto nl = text.find('\n');
    if (text.rfind(magic, 0) != 0 || nl == std::string::npos || nl > 512)
        return automata::checksum_error(path, kCheckpointAdvice);
    const std::string header = text.substr(0, nl);
    const auto at = header.find(" sha256=");
    if (at == std::string::npos) return automata::checksum_error(path, kCheckpointAdvice);
    const std::string prefix = header.substr(0, at), want = header.substr(at + 8);
    text.replace(0, nl, prefix);  // prefix + "\n" + archive: what the hash covers
    if (automata::sha256_hex(text) != want) return automata::checksum_error(path, kCheckpointAdvice);
    const auto ts = prefix.find(" train_seconds=");
    if (ts != std::string::npos) train_seconds = std::strtod(prefix.c_str() + ts + 15, nullptr);
    return text.substr(prefix.size() + 1);
}

Result<bool> save_checkpoint(const std::string& path, const Config& c, Recognizer& model,
                             torch::optim::Optimizer& opt, const automata::Rng& rng, int step,
                             double train_seconds, double tokens) {
    std::ostringstream bytes;
    try {
        torch::serialize::OutputArchive a, am, ao;
        a.write("config", c10::IValue(config_to_json(c)));
        a.write("step", c10::IValue(static_cast<int64_t>(step)));
        a.write("rng", c10::IValue(rng.save()));
        a.write("tokens", c10::IValue(tokens));
        a.write("torch_version", c10::IValue(std::string(TORCH_VERSION)));
        model.save(am);
        opt.save(ao);
        a.write("model", am);
        a.write("optimizer", ao);
        a.save_to(bytes);
    } catch (const std::exception& e) {
        return io_error("cannot write checkpoint " + path + ": " + e.what());
    }
    std::string state;
    try {
        state = state_digest(config_to_json(c), model, opt, rng.save(), step, tokens);
    } catch (const std::exception& e) {
        return io_error("cannot write checkpoint " + path + ": " + e.what());
    }
    return automata::write_file_atomic(path, frame_checkpoint(bytes.str(), train_seconds, state));
}

struct LoadedCheckpoint {
    Config config;
    int step = 0;
    std::string rng;
    double train_seconds = 0, tokens = 0;
};

Result<LoadedCheckpoint> read_checkpoint(const std::string& path, torch::serialize::InputArchive& a,
                                         torch::Device device) {
    LoadedCheckpoint out;
    auto text = automata::read_file(path);
    if (!text.ok()) return text.error();
    double header_seconds = 0;
    auto archive = unframe_checkpoint(path, std::move(text).value(), header_seconds);
    if (!archive.ok()) return archive.error();
    try {
        std::istringstream in(std::move(archive).value());
        a.load_from(in, device);
        c10::IValue v;
        a.read("config", v);
        auto cfg = config_from_json(v.toStringRef());
        if (!cfg.ok()) return make_error("checkpoint " + path + ": " + cfg.error().message);
        out.config = *cfg;
        a.read("step", v);
        out.step = static_cast<int>(v.toInt());
        a.read("rng", v);
        out.rng = v.toStringRef();
        if (std::isnan(header_seconds)) {
            a.read("train_seconds", v);
            out.train_seconds = v.toDouble();
        } else {
            out.train_seconds = header_seconds;
        }
        a.read("tokens", v);
        out.tokens = v.toDouble();
    } catch (const std::exception& e) {
        return io_error("cannot read checkpoint " + path + " (written by another LibTorch version?): " +
                        std::string(e.what()).substr(0, 300));
    }
    return out;
}

}  // namespace

Result<torch::Device> pick_device(const std::string& name) {
    if (name == "cpu") return torch::Device(torch::kCPU);
    if (name == "cuda" || name == "auto") {
        if (torch::cuda::is_available()) return torch::Device(torch::kCUDA);
        if (name == "auto") return torch::Device(torch::kCPU);
        return make_error("--device cuda: no CUDA device is available (LibTorch built without CUDA?)");
    }
    return make_error("unknown device '" + name + "' (expected auto, cpu or cuda)");
}

Result<std::pair<Config, std::shared_ptr<Recognizer>>> load_checkpoint(const std::string& path,
                                                                        int num_symbols,
                                                                        torch::Device device) {
    torch::serialize::InputArchive a;
    auto ck = read_checkpoint(path, a, device);
    if (!ck.ok()) return ck.error();
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
                                 const std::string& rundir, const ProgressFn& progress) {
    auto dev = pick_device(c.device);
    if (!dev.ok()) return dev.error();
    if (c.batch < 2) return make_error("--batch must be at least 2 (half positive, half negative)");
    if (c.steps < 0) return make_error("--steps must be non-negative");
    if (c.threads < 1) return make_error("--threads must be at least 1");
    torch::set_num_threads(c.threads);
    torch::manual_seed(c.seed);
    TrainOutcome out;
    out.device = *dev;
    try {
        out.model = make_recognizer(c, num_symbols);
    } catch (const std::exception& e) {
        return make_error(e.what());
    }
    out.model->to(out.device);
    const long max_tokens = out.model->max_tokens();
    if (max_tokens > 0 && c.train_max + 1 > max_tokens)
        return make_error("training length " + std::to_string(c.train_max) +
                          " exceeds the learned positional table");
    torch::optim::Adam opt(out.model->parameters(), torch::optim::AdamOptions(c.lr).weight_decay(0));
    automata::Rng rng(c.seed);
    int step = 0;
    double prior_seconds = 0, tokens = 0;
    const std::string ckpt = rundir.empty() ? "" : (fs::path(rundir) / "checkpoint.pt").string();
    if (!rundir.empty()) {
        std::error_code ec;
        fs::create_directories(rundir, ec);
        if (ec) return io_error("cannot create " + rundir + ": " + ec.message());
        automata::remove_stale_temporaries(rundir);  // left by a killed run
    }
    if (!ckpt.empty() && fs::exists(ckpt)) {
        torch::serialize::InputArchive a;
        auto ck = read_checkpoint(ckpt, a, out.device);
        if (!ck.ok()) return ck.error();
        if (training_key(ck->config) != training_key(c))
            return make_error("the checkpoint in " + rundir +
                              " was trained with another configuration: use another --out, or "
                              "delete its checkpoint.pt to start over");
        try {
            torch::serialize::InputArchive am, ao;
            a.read("model", am);
            out.model->load(am);
            a.read("optimizer", ao);
            opt.load(ao);
        } catch (const std::exception& e) {
            return make_error("cannot resume from " + ckpt + ": " + std::string(e.what()).substr(0, 300));
        }
        if (!rng.restore(ck->rng)) return make_error("checkpoint " + ckpt + ": bad RNG state");
        step = ck->step;
        prior_seconds = ck->train_seconds;
        tokens = ck->tokens;
    }
    out.model->train();
    const auto t0 = Clock::now();
    const int start_step = step;
    const double start_tokens = tokens;
    std::vector<automata::Word> words;
    std::vector<std::uint8_t> labels;
    std::vector<const automata::Word*> ptrs;
    auto loss_sum = torch::zeros({}, torch::TensorOptions().dtype(torch::kDouble).device(out.device));
    auto right_sum = torch::zeros({}, torch::TensorOptions().dtype(torch::kLong).device(out.device));
    long window_words = 0, window_steps = 0;
    while (step < c.steps) {
        words.clear();
        labels.clear();
        dist.draw(c.batch, rng, words, labels);
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
        opt.zero_grad();
        auto logits = out.model->forward(tok, eos);
        auto loss = torch::binary_cross_entropy_with_logits(logits, target);
        loss.backward();
        torch::nn::utils::clip_grad_norm_(out.model->parameters(), c.grad_clip);
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
        const bool last = step == c.steps;
        if (progress && c.log_every > 0 && (step % c.log_every == 0 || last)) {
            Progress p;
            p.step = step;
            p.total = c.steps;
            p.loss = loss_sum.item<double>() / static_cast<double>(window_steps);
            p.train_accuracy = static_cast<double>(right_sum.item<int64_t>()) / static_cast<double>(window_words);
            const double el = seconds_since(t0);
            p.tokens_per_second = el > 0 ? (tokens - start_tokens) / el : 0;
            p.eta_seconds = step > start_step ? el / (step - start_step) * (c.steps - step) : 0;
            progress(p);
            loss_sum.zero_();
            right_sum.zero_();
            window_words = window_steps = 0;
        }
        if (!ckpt.empty() && ((c.checkpoint_every > 0 && step % c.checkpoint_every == 0) || last)) {
            auto s = save_checkpoint(ckpt, c, *out.model, opt, rng, step, prior_seconds + seconds_since(t0),
                                     tokens);
            if (!s.ok()) return s.error();
        }
    }
    out.steps_done = step;
    out.train_seconds = prior_seconds + seconds_since(t0);
    out.tokens_per_second = out.train_seconds > 0 ? tokens / out.train_seconds : 0;
    out.model->eval();
    return out;
}

std::function<std::vector<float>(const std::vector<const automata::Word*>&)> make_predictor(
    std::shared_ptr<Recognizer> model, torch::Device device, int num_symbols, int heads) {
    return [model, device, num_symbols, heads](const std::vector<const automata::Word*>& words) {
        torch::NoGradGuard ng;
        model->eval();
        std::vector<float> out(words.size(), 0.0f);
        std::vector<std::size_t> order(words.size());
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(),
                         [&](std::size_t a, std::size_t b) { return words[a]->size() < words[b]->size(); });
        const double token_budget = 1 << 16;                   // B * N
        const double score_budget = static_cast<double>(1 << 25);  // B * heads * N^2 (global heads)
        std::size_t i = 0;
        std::vector<const automata::Word*> chunk;
        while (i < order.size()) {
            chunk.clear();
            std::size_t j = i;
            while (j < order.size()) {
                const double n = static_cast<double>(words[order[j]]->size() + 1);
                const double b = static_cast<double>(chunk.size() + 1);
                if (!chunk.empty() && (b * n > token_budget || b * heads * n * n > score_budget)) break;
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

namespace {

Result<bool> write_text_atomic(const std::string& path, const std::string& text) {
    return automata::write_file_atomic(path, text);
}

std::string revision() {
#ifdef LTLKIT_GIT_REVISION
    return LTLKIT_GIT_REVISION;
#else
    if (const char* r = std::getenv("LTLKIT_GIT_REVISION")) return r;
    return "";
#endif
}

Result<RunResult> finish(RunResult r, const std::string& rundir) {
    auto w = write_text_atomic((fs::path(rundir) / "result.json").string(), result_to_json(r));
    if (!w.ok()) return w.error();
    return r;
}

Result<automata::Sampler> sampler_for(const automata::Dfa& dfa, const Config& c) {
    const int maxlen = std::max(c.train_max, c.test_max);
    return automata::Sampler::create(dfa, static_cast<std::size_t>(std::max(0, maxlen)));
}

Result<bool> check_lengths(const Config& c, long max_tokens) {
    if (c.train_min < 0 || c.train_max < c.train_min)
        return make_error("--train-lengths: expected A:B with 0 <= A <= B");
    if (c.test_min < 0 || c.test_max < c.test_min)
        return make_error("--test-lengths: expected A:B with 0 <= A <= B");
    if (max_tokens > 0 && c.test_max + 1 > max_tokens)
        return make_error("test length " + std::to_string(c.test_max) + " needs " +
                          std::to_string(c.test_max + 1) + " positions but the learned positional table has " +
                          std::to_string(max_tokens) + " rows (PROTOCOL.md: a longer input is an error)");
    return true;
}

}  // namespace

Result<RunResult> train_and_evaluate(const automata::Dfa& dfa, const Config& config,
                                     const std::string& rundir, const EvalSets& sets,
                                     const std::string& language_name, const ProgressFn& progress) {
    const auto t0 = Clock::now();
    if (config.pe == "learned") {
        if (auto ok = check_lengths(config, learned_rows(config)); !ok.ok()) return ok.error();
    } else if (auto ok = check_lengths(config, 0); !ok.ok()) {
        return ok.error();
    }
    std::error_code ec;
    fs::create_directories(rundir, ec);
    if (ec) return io_error("cannot create " + rundir + ": " + ec.message());
    {
        nlohmann::json info{{"config", nlohmann::json::parse(config_to_json(config))},
                            {"language", language_name},
                            {"dfa", nlohmann::json::parse(automata::to_json(dfa))}};
        auto w = write_text_atomic((fs::path(rundir) / "run.json").string(),
                                   automata::json_with_checksum(info.dump(), 2));
        if (!w.ok()) return w.error();
    }
    auto sampler = sampler_for(dfa, config);
    if (!sampler.ok()) return sampler.error();
    auto dist = sets.train.empty()
                    ? TrainingDistribution::from_sampler(*sampler, config.train_min, config.train_max)
                    : TrainingDistribution::from_words(sets.train, config.train_min, config.train_max);
    if (!dist.ok()) return dist.error();
    const int S = static_cast<int>(dfa.num_symbols());
    auto trained = train_model(config, S, *dist, rundir, progress);
    if (!trained.ok()) return trained.error();
    RunResult r;
    r.config = config;
    r.language = language_name;
    r.seed = config.seed;
    r.steps_done = trained->steps_done;
    r.train_seconds = trained->train_seconds;
    r.tokens_per_second = trained->tokens_per_second;
    r.device = trained->device.str();
    r.git_revision = revision();
    auto predict = make_predictor(trained->model, trained->device, S, config.heads);
    auto ev = evaluate_model(r, predict, &*sampler, *dist, sets);
    if (!ev.ok()) return ev.error();
    r.wall_seconds = seconds_since(t0);
    return finish(std::move(r), rundir);
}

Result<RunInfo> read_run_info(const std::string& rundir) {
    const std::string path = (fs::path(rundir) / "run.json").string();
    auto text = automata::read_file(path);
    if (!text.ok()) return text.error();
    if (auto c = automata::check_json_checksum(
            path, *text, "rerun `ltlkit train` with the same arguments and --out to rewrite it");
        !c.ok())
        return c.error();
    RunInfo info;
    try {
        auto j = nlohmann::json::parse(*text);
        auto cfg = config_from_json(j.at("config").dump());
        if (!cfg.ok()) return cfg.error();
        info.config = *cfg;
        info.language = j.value("language", "");
        auto dfa = automata::dfa_from_json(j.at("dfa").dump());
        if (!dfa.ok()) return dfa.error();
        info.dfa = *dfa;
    } catch (const std::exception& e) {
        return make_error(rundir + "/run.json: " + e.what());
    }
    // The checkpoint's config is the one the model was trained with.
    return info;
}

Result<RunResult> evaluate_run(const automata::Dfa& dfa, const std::string& rundir,
                               const Config& overrides, const EvalSets& sets) {
    const auto t0 = Clock::now();
    auto dev = pick_device(overrides.device);
    if (!dev.ok()) return dev.error();
    if (overrides.threads < 1) return make_error("--threads must be at least 1");
    torch::set_num_threads(overrides.threads);
    const int S = static_cast<int>(dfa.num_symbols());
    const std::string ckpt = (fs::path(rundir) / "checkpoint.pt").string();
    if (!fs::exists(ckpt)) return io_error("no checkpoint in " + rundir + " (train the run first)");
    auto loaded = load_checkpoint(ckpt, S, *dev);
    if (!loaded.ok()) return loaded.error();
    Config c = loaded->first;
    c.test_min = overrides.test_min;
    c.test_max = overrides.test_max;
    c.per_length = overrides.per_length;
    c.fit_words = overrides.fit_words;
    c.success_rule = overrides.success_rule;
    c.threads = overrides.threads;
    c.device = overrides.device;
    if (auto ok = check_lengths(c, loaded->second->max_tokens()); !ok.ok()) return ok.error();
    RunResult r;
    std::string language;
    const std::string result_path = (fs::path(rundir) / "result.json").string();
    if (auto prev = automata::read_file(result_path); prev.ok()) {
        if (auto c = automata::check_json_checksum(result_path, *prev,
                                                   "delete it, or rerun `ltlkit train` with the same arguments "
                                                   "and --out to rewrite it");
            !c.ok())
            return c.error();
        if (auto old = result_from_json(*prev); old.ok()) {
            r = *old;
        }
    }
    if (r.language.empty())
        if (auto info = read_run_info(rundir); info.ok()) r.language = info->language;
    r.config = c;
    r.seed = c.seed;
    r.device = dev->str();
    auto sampler = sampler_for(dfa, c);
    if (!sampler.ok()) return sampler.error();
    auto dist = sets.train.empty() ? TrainingDistribution::from_sampler(*sampler, c.train_min, c.train_max)
                                   : TrainingDistribution::from_words(sets.train, c.train_min, c.train_max);
    if (!dist.ok()) return dist.error();
    auto predict = make_predictor(loaded->second, *dev, S, c.heads);
    auto ev = evaluate_model(r, predict, &*sampler, *dist, sets);
    if (!ev.ok()) return ev.error();
    r.wall_seconds = r.train_seconds + seconds_since(t0);
    return finish(std::move(r), rundir);
}

}  // namespace ltlkit::neural
