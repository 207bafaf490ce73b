// Language-model run settings: the built-in profiles, their flat JSON form, the key a checkpoint
// resumes under, and the checks that name the offending option. Torch-free.
#include <nlohmann/json.hpp>

#include "neural/lm/lm.hh"
#include "neural/run.hh"

namespace ltlkit::neural::lm {

using nlohmann::json;

Result<LmConfig> lm_profile(const std::string& name) {
    LmConfig c;
    if (name == "cpu") return c;  // the defaults are the CPU profile
    if (name == "gpu") {
        c.model.layers = 12;
        c.model.d_model = 768;
        c.model.heads = 12;
        c.model.d_ff = 3072;
        c.model.context = 512;
        c.training.batch = 16;
        c.training.steps = 20000;
        c.training.lr = 3e-4;
        c.training.warmup = 1000;
        c.runtime.checkpoint_every = 1000;
        c.runtime.log_every = 100;
        c.runtime.eval_every = 2000;
        c.runtime.device = Device::Cuda;
        return c;
    }
    return make_error("unknown profile '" + name + "' (expected cpu or gpu)");
}

namespace {

json model_json(const LmModel& m) {
    return {{"arch", to_string(m.arch)}, {"layers", m.layers},     {"d_model", m.d_model},
            {"heads", m.heads},          {"d_ff", m.d_ff},         {"pe", to_string(m.pe)},
            {"strict", m.strict},        {"hybrid_by_layer", m.hybrid_by_layer}, {"context", m.context}};
}

json training_json(const LmTraining& t) {
    return {{"steps", t.steps},   {"batch", t.batch},   {"lr", t.lr}, {"warmup", t.warmup}, {"min_lr_ratio", t.min_lr_ratio},
            {"grad_clip", t.grad_clip}, {"seed", t.seed}};
}

json runtime_json(const LmRuntime& r) {
    return {{"threads", r.threads},       {"device", to_string(r.device)}, {"checkpoint_every", r.checkpoint_every},
            {"log_every", r.log_every},   {"eval_every", r.eval_every},    {"eval_tokens", r.eval_tokens}};
}

json merged(std::initializer_list<json> parts) {
    json j = json::object();
    for (const auto& p : parts) j.update(p);
    return j;
}

}  // namespace

std::string lm_config_to_json(const LmConfig& c) {
    return merged({model_json(c.model), training_json(c.training), runtime_json(c.runtime)}).dump();
}

Result<LmConfig> lm_config_from_json(const std::string& text) {
    LmConfig c;
    try {
        auto j = json::parse(text);
        auto arch = parse_architecture(j.value("arch", to_string(c.model.arch)));
        if (!arch.ok()) return arch.error();
        c.model.arch = *arch;
        auto pe = parse_positional_encoding(j.value("pe", to_string(c.model.pe)));
        if (!pe.ok()) return pe.error();
        c.model.pe = *pe;
        c.model.layers = j.value("layers", c.model.layers);
        c.model.d_model = j.value("d_model", c.model.d_model);
        c.model.heads = j.value("heads", c.model.heads);
        c.model.d_ff = j.value("d_ff", c.model.d_ff);
        c.model.strict = j.value("strict", c.model.strict);
        c.model.hybrid_by_layer = j.value("hybrid_by_layer", c.model.hybrid_by_layer);
        c.model.context = j.value("context", c.model.context);
        c.training.steps = j.value("steps", c.training.steps);
        c.training.batch = j.value("batch", c.training.batch);
        c.training.lr = j.value("lr", c.training.lr);
        c.training.warmup = j.value("warmup", c.training.warmup);
        c.training.min_lr_ratio = j.value("min_lr_ratio", c.training.min_lr_ratio);
        c.training.grad_clip = j.value("grad_clip", c.training.grad_clip);
        c.training.seed = j.value("seed", c.training.seed);
        auto device = parse_device(j.value("device", to_string(c.runtime.device)));
        if (!device.ok()) return device.error();
        c.runtime.device = *device;
        c.runtime.threads = j.value("threads", c.runtime.threads);
        c.runtime.checkpoint_every = j.value("checkpoint_every", c.runtime.checkpoint_every);
        c.runtime.log_every = j.value("log_every", c.runtime.log_every);
        c.runtime.eval_every = j.value("eval_every", c.runtime.eval_every);
        c.runtime.eval_tokens = j.value("eval_tokens", c.runtime.eval_tokens);
    } catch (const std::exception& e) {
        return make_error(std::string("language-model config: ") + e.what());
    }
    if (auto ok = check_lm_config(c); !ok.ok()) return ok.error();
    return c;
}

std::string lm_training_key(const LmConfig& c) { return merged({model_json(c.model), training_json(c.training)}).dump(); }

Result<bool> check_lm_config(const LmConfig& c) {
    const LmModel& m = c.model;
    const LmTraining& t = c.training;
    if (!m.arch.is_transformer())
        return make_error("--arch lstm is not a language-model pattern (expected global, local-K or hybrid-K)");
    if (m.layers < 1 || m.d_model < 1 || m.heads < 1 || m.d_ff < 1)
        return make_error("--layers, --d-model, --heads and --d-ff must be positive");
    if (m.d_model % m.heads != 0)
        return make_error("--d-model " + std::to_string(m.d_model) + " is not a multiple of --heads " +
                          std::to_string(m.heads));
    if (m.pe == PositionalEncoding::Rope && (m.d_model / m.heads) % 2 != 0)
        return make_error("--pe rope needs an even head dimension (--d-model / --heads)");
    if (m.pe == PositionalEncoding::Sinusoidal && m.d_model % 2 != 0)
        return make_error("--pe sinusoidal needs an even --d-model");
    if (m.context < 1) return make_error("--context must be at least 1");
    if (t.batch < 1) return make_error("--batch must be at least 1");
    if (t.steps < 0) return make_error("--steps must be non-negative");
    if (!(t.lr > 0)) return make_error("--lr must be positive");
    if (t.warmup < 0) return make_error("--warmup must be non-negative");
    if (c.runtime.threads < 1) return make_error("--threads must be at least 1");
    if (c.runtime.eval_tokens < 0) return make_error("--eval-tokens must be non-negative");
    return true;
}

}  // namespace ltlkit::neural::lm
