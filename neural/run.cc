// Torch-free parts of the run API: architecture names, Config and result.json (de)serialization.
#include "neural/run.hh"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <stdexcept>
#include <type_traits>
#include <sstream>

#include "automata/algorithms.hh"
#include "automata/dfa_json.hh"
#include "base/checksum.hh"
#include "neural/identity.hh"

namespace ltlkit::neural {

using nlohmann::json;

std::string to_string(PositionalEncoding pe) {
    switch (pe) {
        case PositionalEncoding::None: return "none";
        case PositionalEncoding::Learned: return "learned";
        case PositionalEncoding::Sinusoidal: return "sinusoidal";
        case PositionalEncoding::Rope: return "rope";
    }
    return "none";
}

Result<PositionalEncoding> parse_positional_encoding(const std::string& name) {
    for (auto pe : {PositionalEncoding::None, PositionalEncoding::Learned, PositionalEncoding::Sinusoidal,
                    PositionalEncoding::Rope})
        if (to_string(pe) == name) return pe;
    return make_error("unknown positional encoding '" + name + "' (expected none, learned, sinusoidal or rope)");
}

std::string to_string(SuccessRule rule) {
    switch (rule) {
        case SuccessRule::Exact: return "exact";
        case SuccessRule::Bins99: return "bins99";
    }
    return "exact";
}

std::string describe(SuccessRule rule) {
    // The words say the comparisons neural/eval.cc makes: per-length accuracy == 1.0 (exact), the
    // mean per-length accuracy of each bin summarize_lengths forms >= kBinSuccess (bins99).
    char buf[128];
    if (rule == SuccessRule::Bins99)
        std::snprintf(buf, sizeof buf, "mean accuracy >= %g in every bin of test lengths 1-100, 101-200, ...",
                      kBinSuccess);
    else
        std::snprintf(buf, sizeof buf, "accuracy 1.0 at every test length, no test word wrong");
    return buf;
}

Result<SuccessRule> parse_success_rule(const std::string& name) {
    for (auto rule : {SuccessRule::Exact, SuccessRule::Bins99})
        if (to_string(rule) == name) return rule;
    return make_error("unknown success rule '" + name + "' (expected exact or bins99)");
}

std::string to_string(TestDistribution d) { return d == TestDistribution::Lc25 ? "lc25" : "uniform"; }

Result<TestDistribution> parse_test_distribution(const std::string& name) {
    for (auto d : {TestDistribution::Uniform, TestDistribution::Lc25})
        if (to_string(d) == name) return d;
    return make_error("unknown test distribution '" + name + "' (expected uniform or lc25)");
}

std::string to_string(Device device) {
    switch (device) {
        case Device::Auto: return "auto";
        case Device::Cpu: return "cpu";
        case Device::Cuda: return "cuda";
    }
    return "auto";
}

Result<Device> parse_device(const std::string& name) {
    for (auto device : {Device::Auto, Device::Cpu, Device::Cuda})
        if (to_string(device) == name) return device;
    return make_error("unknown device '" + name + "' (expected auto, cpu or cuda)");
}

namespace {

json model_to_json(const ModelConfig& m) {
    return json{{"arch", to_string(m.arch)},
                {"layers", m.layers},
                {"d_model", m.d_model},
                {"heads", m.heads},
                {"d_ff", m.d_ff},
                {"pe", to_string(m.pe)},
                {"strict", m.strict},
                {"pre_ln", m.pre_ln},
                {"hybrid_by_layer", m.hybrid_by_layer},
                {"lstm_hidden", m.lstm_hidden},
                {"max_positions", m.max_positions}};
}

// Training until the fit: written only when on, so the configs, run identities and checkpoints of
// fixed-length runs stay those of the versions before it.
json fit_stop_to_json(const TrainingConfig& t) {
    if (t.fit_check_every <= 0) return json::object();
    return json{{"fit_check_every", t.fit_check_every},
                {"fit_check_words", t.fit_check_words},
                {"fit_target", t.fit_target},
                {"fit_extra_steps", t.fit_extra_steps}};
}

json training_to_json(const TrainingConfig& t) {
    json j{{"steps", t.steps},         {"batch", t.batch},         {"lr", t.lr},
           {"grad_clip", t.grad_clip}, {"seed", t.seed},           {"train_min", t.train_min},
           {"train_max", t.train_max}};
    j.update(fit_stop_to_json(t));
    return j;
}

json evaluation_to_json(const EvaluationConfig& e) {
    json j{{"test_min", e.test_min},
           {"test_max", e.test_max},
           {"per_length", e.per_length},
           {"fit_words", e.fit_words},
           {"success_rule", to_string(e.success_rule)}};
    // Only when not the default, so that the identities of runs made before it existed stay valid.
    if (e.test_distribution != TestDistribution::Uniform) j["test_distribution"] = to_string(e.test_distribution);
    return j;
}

json runtime_to_json(const RuntimeConfig& r) {
    return json{{"threads", r.threads},
                {"device", to_string(r.device)},
                {"checkpoint_every", r.checkpoint_every},
                {"log_every", r.log_every}};
}

// The parts that identify a run (everything but the runtime part), as one object.
json identified_to_json(const Config& c) {
    json j = model_to_json(c.model);
    j.update(training_to_json(c.training));
    j.update(evaluation_to_json(c.evaluation));
    return j;
}

}  // namespace

json config_to_json_value(const Config& c) {
    json j = identified_to_json(c);
    j.update(runtime_to_json(c.runtime));
    return j;
}

json trained_model_json(const Config& c) {
    json j = model_to_json(c.model);
    j.update(training_to_json(c.training));
    // Where training stops does not change the trajectory up to there.
    for (const char* k : {"fit_check_every", "fit_check_words", "fit_target", "fit_extra_steps"}) j.erase(k);
    j.erase("steps");
    return j;
}

namespace {

// v as T, checked: an integer field takes only an integral number in T's range (reading 1e10 or
// -1.5 into an int is undefined behaviour), a double only a finite one (defensive: the parser
// already refuses 1e999; an infinity would be written back as null). Throws std::out_of_range (or
// json's type_error) otherwise.
template <class T>
T number_as(const json& v) {
    if constexpr (std::is_floating_point_v<T>) {
        const T x = v.get<T>();
        if (!std::isfinite(x)) throw std::out_of_range("number " + v.dump() + " is out of range");
        return x;
    } else if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
        if (!v.is_number()) return v.get<T>();  // type_error
        using L = std::numeric_limits<T>;
        bool in_range;
        if (v.is_number_float()) {
            const double d = v.get<double>();
            const double above = std::ldexp(1.0, L::digits);  // 2^digits = max + 1
            in_range = d == std::floor(d) && d < above && d >= (L::is_signed ? -above : 0.0);
        } else if (v.is_number_unsigned()) {
            in_range = v.get<std::uint64_t>() <= static_cast<std::uint64_t>(L::max());
        } else {
            const std::int64_t i = v.get<std::int64_t>();
            in_range = i >= static_cast<std::int64_t>(L::min()) &&
                       (i < 0 || static_cast<std::uint64_t>(i) <= static_cast<std::uint64_t>(L::max()));
        }
        if (!in_range) throw std::out_of_range("number " + v.dump() + " is out of range");
        return v.get<T>();
    } else {
        return v.get<T>();
    }
}

template <class T>
void get_opt(const json& j, const char* key, T& out) {
    if (j.contains(key)) out = number_as<T>(j.at(key));
}

// The names of the architecture, success rule and device are read here and parsed by
// config_from_json_value.
struct ConfigNames {
    std::optional<std::string> arch, success_rule, device, test_distribution;
};

void get_name(const json& j, const char* key, std::optional<std::string>& out) {
    if (j.contains(key)) out = j.at(key).get<std::string>();
}

void model_from_json(const json& j, ModelConfig& m, ConfigNames& names) {
    get_name(j, "arch", names.arch);
    get_opt(j, "layers", m.layers);
    get_opt(j, "d_model", m.d_model);
    get_opt(j, "heads", m.heads);
    get_opt(j, "d_ff", m.d_ff);
    if (j.contains("pe")) {
        auto pe = parse_positional_encoding(j.at("pe").get<std::string>());
        if (!pe.ok()) throw std::invalid_argument(pe.error().message);
        m.pe = *pe;
    }
    get_opt(j, "strict", m.strict);
    get_opt(j, "pre_ln", m.pre_ln);
    get_opt(j, "hybrid_by_layer", m.hybrid_by_layer);
    get_opt(j, "lstm_hidden", m.lstm_hidden);
    get_opt(j, "max_positions", m.max_positions);
}

void training_from_json(const json& j, TrainingConfig& t) {
    get_opt(j, "steps", t.steps);
    get_opt(j, "batch", t.batch);
    get_opt(j, "lr", t.lr);
    get_opt(j, "grad_clip", t.grad_clip);
    get_opt(j, "seed", t.seed);
    get_opt(j, "train_min", t.train_min);
    get_opt(j, "train_max", t.train_max);
    get_opt(j, "fit_check_every", t.fit_check_every);
    get_opt(j, "fit_check_words", t.fit_check_words);
    get_opt(j, "fit_target", t.fit_target);
    get_opt(j, "fit_extra_steps", t.fit_extra_steps);
}

void evaluation_from_json(const json& j, EvaluationConfig& e, ConfigNames& names) {
    get_opt(j, "test_min", e.test_min);
    get_opt(j, "test_max", e.test_max);
    get_opt(j, "per_length", e.per_length);
    get_opt(j, "fit_words", e.fit_words);
    get_name(j, "success_rule", names.success_rule);
    get_name(j, "test_distribution", names.test_distribution);
}

void runtime_from_json(const json& j, RuntimeConfig& r, ConfigNames& names) {
    get_opt(j, "threads", r.threads);
    get_name(j, "device", names.device);
    get_opt(j, "checkpoint_every", r.checkpoint_every);
    get_opt(j, "log_every", r.log_every);
}

Result<Config> config_from_json_value(const json& j) {
    if (!j.is_object()) return make_error("config: expected a JSON object");
    Config c;
    ConfigNames names;
    try {
        model_from_json(j, c.model, names);
        training_from_json(j, c.training);
        evaluation_from_json(j, c.evaluation, names);
        runtime_from_json(j, c.runtime, names);
    } catch (const std::exception& e) {  // json::exception or number_as's out_of_range
        return make_error(std::string("config: ") + e.what());
    }
    if (names.arch) {
        auto a = parse_architecture(*names.arch);
        if (!a.ok()) return a.error();
        c.model.arch = *a;
    }
    if (names.success_rule) {
        auto rule = parse_success_rule(*names.success_rule);
        if (!rule.ok()) return rule.error();
        c.evaluation.success_rule = *rule;
    }
    if (names.test_distribution) {
        auto d = parse_test_distribution(*names.test_distribution);
        if (!d.ok()) return d.error();
        c.evaluation.test_distribution = *d;
    }
    if (names.device) {
        auto device = parse_device(*names.device);
        if (!device.ok()) return device.error();
        c.runtime.device = *device;
    }
    return c;
}

json opt_number(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }

}  // namespace

std::string config_to_json(const Config& c) { return config_to_json_value(c).dump(); }

DeviceDefaults device_defaults(Device device) {
    if (device == Device::Cuda) return {20000, 512};
    return {2000, 32};
}

namespace {

void hash_words(std::string& out, const std::vector<LabelledWord>& words) {
    out += std::to_string(words.size()) + "\n";
    for (const auto& w : words) {
        for (auto s : w.word) out += std::to_string(s) + ",";
        out += w.label ? ":1:" : ":0:";
        out += std::to_string(w.pair) + "\n";
    }
}

}  // namespace

std::string data_identity(const EvalSets& sets) {
    std::string data = "test:";
    if (sets.test.empty())
        data += "sampled\n";
    else
        hash_words(data, sets.test);
    data += "boundary:";
    hash_words(data, sets.boundary);
    data += "adversarial:";
    hash_words(data, sets.adversarial);
    return sha256_hex(data);
}

RunIdentity run_identity(const automata::Dfa& dfa, const Config& config, const EvalSets& sets) {
    return run_identity(dfa, config, sets, data_identity(sets));
}

RunIdentity run_identity(const automata::Dfa& dfa, const Config& config, const EvalSets& sets,
                         const std::string& data) {
    RunIdentity id;
    id.dfa = sha256_hex(automata::to_json(automata::canonical(dfa)));
    const json cfg = trained_model_json(config);
    std::string train_words;
    if (!sets.train.empty()) hash_words(train_words, sets.train);
    const json training{{"dfa", id.dfa},
                        {"config", cfg},
                        {"train_words", sets.train.empty() ? std::string("sampled")
                                                           : sha256_hex(train_words)}};
    id.training = sha256_hex(training.dump());
    id.data = data;
    id.evaluation = evaluation_identity(id.training, config, id.data);
    return id;
}

std::string evaluation_identity(const std::string& training, const Config& config, const std::string& data) {
    // The steps trained decide which model is evaluated.
    json eval_part = evaluation_to_json(config.evaluation);
    eval_part["steps"] = config.training.steps;
    eval_part.update(fit_stop_to_json(config.training));  // and where training until the fit stops
    const json evaluation{{"training", training}, {"evaluation", eval_part}, {"data", data}};
    return sha256_hex(evaluation.dump());
}

json layout_to_json(const HeadLayout& layout) {
    json layers = json::array();
    for (const auto& groups : layout.layers) {
        json layer = json::array();
        for (const auto& g : groups)
            layer.push_back(json{{"first", g.first}, {"count", g.count}, {"window", g.window > 0 ? json(g.window) : json(nullptr)}});
        layers.push_back(std::move(layer));
    }
    return layers;
}

json evaluation_settings_json(const Config& c) {
    json j = evaluation_to_json(c.evaluation);
    j["steps"] = c.training.steps;
    return j;
}

std::optional<std::string> identity_mismatch(const RunIdentity& want, const RunIdentity& got) {
    if (want.dfa != got.dfa) return std::string("language (minimal DFA)");
    if (want.training != got.training) return std::string("training configuration");
    if (want.data != got.data) return std::string("evaluation data");
    if (want.evaluation != got.evaluation) return std::string("steps or evaluation settings");
    return std::nullopt;
}

std::string config_differences(const Config& want, const Config& got) {
    const json a = identified_to_json(want), b = identified_to_json(got);
    std::string out;
    for (const auto& [k, v] : a.items()) {
        if (b.contains(k) && b.at(k) == v) continue;
        if (!out.empty()) out += ", ";
        out += k + " " + (b.contains(k) ? b.at(k).dump() : std::string("unset")) + " (now " + v.dump() + ")";
    }
    for (const auto& [k, v] : b.items())
        if (!a.contains(k)) out += (out.empty() ? "" : ", ") + k + " " + v.dump() + " (now unset)";
    return out;
}

json identity_to_json(const RunIdentity& id) {
    return json{{"dfa_sha256", id.dfa}, {"data_sha256", id.data}, {"training", id.training},
                {"evaluation", id.evaluation}};
}

Result<RunIdentity> identity_from_json(const json& j) {
    RunIdentity id;
    if (!j.is_object()) return make_error("\"identity\" must be an object");
    for (auto [key, field] : {std::pair{"dfa_sha256", &id.dfa}, std::pair{"data_sha256", &id.data},
                              std::pair{"training", &id.training}, std::pair{"evaluation", &id.evaluation}}) {
        if (!j.contains(key) || !j.at(key).is_string() || j.at(key).get<std::string>().size() != 64)
            return make_error(std::string("\"identity\" lacks a 64-digit \"") + key + "\"");
        *field = j.at(key).get<std::string>();
    }
    return id;
}

Result<Config> config_from_json(const std::string& text) {
    json j;
    try {
        j = json::parse(text);
    } catch (const json::exception& e) {
        return make_error(std::string("config JSON: ") + e.what());
    }
    return config_from_json_value(j);
}

std::string result_to_json(const RunResult& r) {
    json per = json::object();
    for (const auto& [n, a] : r.per_length_accuracy) per[std::to_string(n)] = a;
    json bins = json::object();
    for (const auto& [k, a] : r.bin_accuracy) bins[k] = a;
    json labels = json::object();
    for (const auto& [n, c] : r.per_length_labels)
        labels[std::to_string(n)] = {{"accepted", {c.accepted_right, c.accepted}},
                                     {"rejected", {c.rejected_right, c.rejected}}};
    json j{{"config", config_to_json_value(r.config)},
           {"identity", identity_to_json(r.identity)},
           {"language", r.language},
           {"per_length_accuracy", per},
           {"mean_accuracy", r.mean_accuracy},
           {"min_bin_accuracy", r.min_bin_accuracy},
           {"bin_accuracy", bins},
           {"n_star", r.n_star},
           {"train_accuracy", r.train_accuracy},
           {"adversarial_accuracy", opt_number(r.adversarial_accuracy)},
           {"boundary_accuracy", opt_number(r.boundary_accuracy)},
           {"failed_to_fit", r.failed_to_fit},
           {"success", r.success},
           {"wall_seconds", r.wall_seconds},
           {"train_seconds", r.train_seconds},
           {"tokens_per_second", r.tokens_per_second},
           {"eval_seconds", r.eval_seconds},
           {"eval_tokens_per_second", r.eval_tokens_per_second},
           {"steps_done", r.steps_done},
           {"seed", r.seed},
           {"git_revision", r.git_revision},
           {"device", r.device}};
    // Measured since docs/PROTOCOL.md asks for them; absent in older result.json files.
    if (!r.per_length_labels.empty()) {
        j["per_length_labels"] = labels;
        const LabelSummary s = summarize_labels(r.per_length_labels, r.config.evaluation.per_length / 2.0);
        j["accepted_accuracy"] = opt_number(s.accepted_accuracy);
        j["rejected_accuracy"] = opt_number(s.rejected_accuracy);
        j["balanced_accuracy"] = opt_number(s.balanced_accuracy);
        j["label_lengths"] = {{"lengths", s.lengths},
                              {"both", s.lengths_both},
                              {"only_accepted", s.lengths_only_accepted},
                              {"only_rejected", s.lengths_only_rejected},
                              {"scarce_accepted", s.lengths_scarce_accepted},
                              {"scarce_rejected", s.lengths_scarce_rejected}};
    }
    if (r.adversarial_pairs) {
        j["adversarial_pairs"] = *r.adversarial_pairs;
        j["adversarial_same_answer"] = r.adversarial_same_answer.value_or(0);
    }
    return json_with_checksum(j.dump(), 2);
}

namespace {
// A per-length key of result.json ("41") as a length; -1 when it is not a plain non-negative number.
int length_key(const std::string& k) {
    std::size_t used = 0;
    int n = -1;
    try {
        n = std::stoi(k, &used);
    } catch (...) {
        used = 0;
    }
    return used == k.size() && n >= 0 ? n : -1;
}
}  // namespace

LabelSummary summarize_labels(const std::map<int, LabelCounts>& per_length, double expected_per_label) {
    LabelSummary s;
    long ar = 0, an = 0, rr = 0, rn = 0;
    double balanced_sum = 0;
    for (const auto& [n, c] : per_length) {
        ++s.lengths;
        ar += c.accepted_right, an += c.accepted, rr += c.rejected_right, rn += c.rejected;
        if (c.accepted == 0 || c.rejected == 0) {
            if (c.accepted > 0) ++s.lengths_only_accepted;
            if (c.rejected > 0) ++s.lengths_only_rejected;
            continue;
        }
        ++s.lengths_both;
        balanced_sum += 0.5 * (static_cast<double>(c.accepted_right) / static_cast<double>(c.accepted) +
                               static_cast<double>(c.rejected_right) / static_cast<double>(c.rejected));
        const double scarce = kScarceLabelShare * expected_per_label;
        if (static_cast<double>(c.accepted) < scarce) ++s.lengths_scarce_accepted;
        if (static_cast<double>(c.rejected) < scarce) ++s.lengths_scarce_rejected;
    }
    if (an > 0) s.accepted_accuracy = static_cast<double>(ar) / static_cast<double>(an);
    if (rn > 0) s.rejected_accuracy = static_cast<double>(rr) / static_cast<double>(rn);
    if (s.lengths_both > 0) s.balanced_accuracy = balanced_sum / s.lengths_both;
    return s;
}

std::string pairs_tsv(const RunResult& r, const std::vector<std::string>& alphabet) {
    std::vector<PairOutput> all = r.adversarial_outputs;
    all.insert(all.end(), r.boundary_outputs.begin(), r.boundary_outputs.end());
    return pairs_tsv(all, alphabet);
}

Result<RunResult> result_from_json(const std::string& text) {
    switch (json_checksum_state(text)) {
        case ChecksumState::Valid: break;
        case ChecksumState::Missing:
            return make_error("result.json: no checksum (written by an older ltlkit, or edited)");
        case ChecksumState::Mismatch:
            return make_error("result.json: checksum mismatch (truncated or corrupted)");
    }
    json j;
    try {
        j = json::parse(text);
    } catch (const json::exception& e) {
        return make_error(std::string("result.json: ") + e.what());
    }
    if (!j.is_object()) return make_error("result.json: expected a JSON object");
    for (const char* key : {"config", "identity", "per_length_accuracy", "mean_accuracy", "min_bin_accuracy",
                            "n_star", "train_accuracy", "adversarial_accuracy", "failed_to_fit",
                            "wall_seconds", "seed"})
        if (!j.contains(key)) return make_error(std::string("result.json: missing key '") + key + "'");
    RunResult r;
    auto cfg = config_from_json_value(j.at("config"));
    if (!cfg.ok()) return make_error("result.json: " + cfg.error().message);
    r.config = *cfg;
    auto id = identity_from_json(j.at("identity"));
    if (!id.ok()) return make_error("result.json: " + id.error().message);
    r.identity = *id;
    try {
        if (!j.at("per_length_accuracy").is_object())
            return make_error("result.json: per_length_accuracy must be an object");
        for (const auto& [k, v] : j.at("per_length_accuracy").items()) {
            const int n = length_key(k);
            if (n < 0) return make_error("result.json: per_length_accuracy key '" + k + "' is not a length");
            double a = number_as<double>(v);
            if (!(a >= 0 && a <= 1))
                return make_error("result.json: accuracy at length " + k + " is not in [0, 1]");
            r.per_length_accuracy[n] = a;
        }
        if (j.contains("per_length_labels")) {
            if (!j.at("per_length_labels").is_object())
                return make_error("result.json: per_length_labels must be an object");
            for (const auto& [k, v] : j.at("per_length_labels").items()) {
                const int n = length_key(k);
                if (n < 0) return make_error("result.json: per_length_labels key '" + k + "' is not a length");
                LabelCounts c;
                c.accepted_right = number_as<long>(v.at("accepted").at(0));
                c.accepted = number_as<long>(v.at("accepted").at(1));
                c.rejected_right = number_as<long>(v.at("rejected").at(0));
                c.rejected = number_as<long>(v.at("rejected").at(1));
                if (c.accepted_right < 0 || c.accepted_right > c.accepted || c.rejected_right < 0 ||
                    c.rejected_right > c.rejected)
                    return make_error("result.json: per_length_labels at length " + k +
                                      ": right answers must lie between 0 and the word count");
                r.per_length_labels[n] = c;
            }
        }
        if (j.contains("adversarial_pairs") && !j.at("adversarial_pairs").is_null()) {
            r.adversarial_pairs = number_as<long>(j.at("adversarial_pairs"));
            r.adversarial_same_answer = number_as<long>(j.at("adversarial_same_answer"));
        }
        if (j.contains("bin_accuracy") && j.at("bin_accuracy").is_object())
            for (const auto& [k, v] : j.at("bin_accuracy").items()) r.bin_accuracy[k] = number_as<double>(v);
        r.mean_accuracy = number_as<double>(j.at("mean_accuracy"));
        r.min_bin_accuracy = number_as<double>(j.at("min_bin_accuracy"));
        r.n_star = number_as<int>(j.at("n_star"));
        r.train_accuracy = number_as<double>(j.at("train_accuracy"));
        if (!j.at("adversarial_accuracy").is_null())
            r.adversarial_accuracy = number_as<double>(j.at("adversarial_accuracy"));
        if (j.contains("boundary_accuracy") && !j.at("boundary_accuracy").is_null())
            r.boundary_accuracy = number_as<double>(j.at("boundary_accuracy"));
        r.failed_to_fit = j.at("failed_to_fit").get<bool>();
        r.wall_seconds = number_as<double>(j.at("wall_seconds"));
        r.seed = number_as<std::uint64_t>(j.at("seed"));
        get_opt(j, "language", r.language);
        get_opt(j, "success", r.success);
        get_opt(j, "train_seconds", r.train_seconds);
        get_opt(j, "tokens_per_second", r.tokens_per_second);
        get_opt(j, "eval_seconds", r.eval_seconds);
        get_opt(j, "eval_tokens_per_second", r.eval_tokens_per_second);
        get_opt(j, "steps_done", r.steps_done);
        get_opt(j, "git_revision", r.git_revision);
        get_opt(j, "device", r.device);
    } catch (const std::exception& e) {  // json::exception or number_as's out_of_range
        return make_error(std::string("result.json: ") + e.what());
    }
    for (double a : {r.mean_accuracy, r.min_bin_accuracy, r.train_accuracy})
        if (!(a >= 0 && a <= 1)) return make_error("result.json: an accuracy is not in [0, 1]");
    return r;
}

}  // namespace ltlkit::neural

namespace ltlkit::neural {

namespace {
std::vector<LabelledWord> words_of(const automata::Dataset& ds, const std::string& split) {
    std::vector<LabelledWord> out;
    if (const auto* s = ds.find(split))
        for (const auto& e : s->examples) out.push_back({e.word, e.label, e.pair});
    return out;
}
}  // namespace

EvalSets eval_sets_from_dataset(const automata::Dataset& ds, const Architecture& arch) {
    EvalSets sets;
    sets.train = words_of(ds, "train");
    sets.validation = words_of(ds, "validation");
    sets.test = words_of(ds, "test");
    sets.boundary = words_of(ds, "boundary");
    sets.adversarial = words_of(ds, "adversarial-" + to_string(arch));
    return sets;
}

bool split_length_range(const automata::Dataset& ds, const std::string& split, int& lo, int& hi) {
    const auto* s = ds.find(split);
    if (!s || s->examples.empty()) return false;
    lo = hi = static_cast<int>(s->examples.front().word.size());
    for (const auto& e : s->examples) {
        lo = std::min(lo, static_cast<int>(e.word.size()));
        hi = std::max(hi, static_cast<int>(e.word.size()));
    }
    return true;
}

}  // namespace ltlkit::neural
