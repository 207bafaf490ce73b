// checkpoint.pt (neural/checkpoint.hh): the header, the shared archive fields and the state digest.
#include "neural/checkpoint.hh"

#include <cmath>
#include <cstdio>
#include <sstream>

#include "base/checksum.hh"
#include "base/file.hh"

namespace ltlkit::neural {

namespace {

constexpr const char* kCheckpointMagic = "ltlkit-checkpoint 1";
// The language models' own format before the two were one (header "ltlkit-lm-checkpoint 1 sha256=").
constexpr const char* kOldLmMagic = "ltlkit-lm-checkpoint ";

std::string frame(const std::string& archive, double train_seconds, const std::string& state) {
    char buf[64];
    std::snprintf(buf, sizeof buf, " train_seconds=%.17g", train_seconds);
    const std::string prefix = std::string(kCheckpointMagic) + buf + " state=" + state;
    std::string hashed = prefix + "\n";
    hashed += archive;
    return prefix + " sha256=" + sha256_hex(hashed) + "\n" + archive;
}

// The archive of a checkpoint file, checked against its header; train_seconds from the header
// (NaN when the header has none).
Result<std::string> unframe(const std::string& path, std::string text, double& train_seconds) {
    train_seconds = std::nan("");
    if (text.rfind("PK\x03\x04", 0) == 0)  // a bare LibTorch archive: no checksum to check
        return make_error(path + ": no checksum header (written by an older ltlkit); " + kCheckpointAdvice);
    if (text.rfind(kOldLmMagic, 0) == 0)
        return make_error(path + ": a language-model checkpoint of an older ltlkit (ltlkit-lm-checkpoint), which "
                                 "this version does not resume; " + kCheckpointAdvice);
    const std::string magic = std::string(kCheckpointMagic) + " ";
    const auto nl = text.find('\n');
    if (text.rfind(magic, 0) != 0 || nl == std::string::npos || nl > 512)
        return checksum_error(path, kCheckpointAdvice);
    const std::string header = text.substr(0, nl);
    const auto at = header.find(" sha256=");
    if (at == std::string::npos) return checksum_error(path, kCheckpointAdvice);
    const std::string prefix = header.substr(0, at), want = header.substr(at + 8);
    text.replace(0, nl, prefix);  // prefix + "\n" + archive: what the hash covers
    if (sha256_hex(text) != want) return checksum_error(path, kCheckpointAdvice);
    const auto ts = prefix.find(" train_seconds=");
    if (ts != std::string::npos) train_seconds = std::strtod(prefix.c_str() + ts + 15, nullptr);
    return text.substr(prefix.size() + 1);
}

void add_tensor(std::string& out, const std::string& name, const torch::Tensor& t) {
    const auto c = t.detach().to(torch::kCPU).contiguous();
    out += name + " " + std::string(c10::toString(c.scalar_type())) + " " + c10::str(c.sizes()) + "\n";
    out.append(static_cast<const char*>(c.data_ptr()), c.nbytes());
}

}  // namespace

std::string checkpoint_state_digest(const CheckpointMeta& meta, torch::nn::Module& model,
                                    torch::optim::Optimizer& opt, const std::string& extra_state) {
    std::string s = meta.config + extra_state + "\nstep " + std::to_string(meta.step) + "\nrng " + meta.rng + "\n";
    s.append(reinterpret_cast<const char*>(&meta.tokens), sizeof meta.tokens);
    for (const auto& p : model.named_parameters()) add_tensor(s, "param " + p.key(), p.value());
    for (const auto& b : model.named_buffers()) add_tensor(s, "buffer " + b.key(), b.value());
    std::size_t i = 0;
    for (const auto& p : opt.param_groups().front().params()) {
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
    return sha256_hex(s);
}

Result<bool> write_checkpoint(const std::string& path, const CheckpointMeta& meta, torch::nn::Module& model,
                              torch::optim::Optimizer& opt, const CheckpointExtra& extra) {
    std::ostringstream bytes;
    std::string state;
    try {
        torch::serialize::OutputArchive a, am, ao;
        a.write("kind", c10::IValue(meta.kind));
        a.write("config", c10::IValue(meta.config));
        a.write("training_key", c10::IValue(meta.key));
        a.write("step", c10::IValue(static_cast<int64_t>(meta.step)));
        a.write("rng", c10::IValue(meta.rng));
        a.write("tokens", c10::IValue(meta.tokens));
        a.write("torch_version", c10::IValue(std::string(TORCH_VERSION)));
        if (extra.write) extra.write(a);
        model.save(am);
        opt.save(ao);
        a.write("model", am);
        a.write("optimizer", ao);
        a.save_to(bytes);
        state = checkpoint_state_digest(meta, model, opt, extra.state);
    } catch (const std::exception& e) {
        return io_error("cannot write checkpoint " + path + ": " + e.what());
    }
    return write_file_atomic(path, frame(bytes.str(), meta.train_seconds, state));
}

Result<CheckpointMeta> read_checkpoint_file(const std::string& path, const std::string& kind,
                                            torch::serialize::InputArchive& a, torch::Device device) {
    auto text = read_file(path);
    if (!text.ok()) return text.error();
    double header_seconds = 0;
    auto archive = unframe(path, std::move(text).value(), header_seconds);
    if (!archive.ok()) return archive.error();
    CheckpointMeta m;
    try {
        std::istringstream in(std::move(archive).value());
        a.load_from(in, device);
        c10::IValue v;
        m.kind = a.try_read("kind", v) && v.isString() ? v.toStringRef() : std::string(kRecognizerCheckpoint);
        if (m.kind != kind)
            return make_error("checkpoint " + path + " holds a " + (m.kind == kLanguageModelCheckpoint ? "language model" : m.kind) +
                              ", not a " + (kind == kLanguageModelCheckpoint ? "language model" : kind) +
                              ": give the checkpoint of a run of that kind");
        a.read("config", v);
        m.config = v.toStringRef();
        if (!a.try_read("training_key", v) || !v.isString())
            return make_error("checkpoint " + path + " carries no training identity (written by an older ltlkit); " +
                              kCheckpointAdvice);
        m.key = v.toStringRef();
        a.read("step", v);
        m.step = static_cast<int>(v.toInt());
        a.read("rng", v);
        m.rng = v.toStringRef();
        if (std::isnan(header_seconds)) {
            a.read("train_seconds", v);
            m.train_seconds = v.toDouble();
        } else {
            m.train_seconds = header_seconds;
        }
        a.read("tokens", v);
        m.tokens = v.toDouble();
    } catch (const std::exception& e) {
        return make_error("cannot read checkpoint " + path + " (written by another LibTorch version?): " +
                          std::string(e.what()).substr(0, 300));
    }
    return m;
}

std::string checkpoint_header_state(const std::string& path) {
    auto text = read_file(path);
    if (!text.ok()) return "";
    const auto nl = text->find('\n');
    const std::string header = text->substr(0, nl == std::string::npos ? 0 : nl);
    const auto at = header.find(" state="), end = header.find(" sha256=");
    if (at == std::string::npos || end == std::string::npos || end < at) return "";
    return header.substr(at + 7, end - at - 7);
}

}  // namespace ltlkit::neural
