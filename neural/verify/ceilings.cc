#include "neural/verify/ceilings.hh"

#include <algorithm>
#include <map>

#include <nlohmann/json.hpp>

#include "automata/ceiling.hh"
#include "automata/dfa_json.hh"
#include "base/checksum.hh"
#include "base/file.hh"
#include "base/json.hh"

namespace ltlkit::neural::verify {

namespace {

// Seconds one ceiling may take in a report; over it the ceiling's bounds are used.
constexpr double kCeilingSeconds = 30;

// The ceiling query of a k-local cell at the model's depth.
automata::CeilingQuery query_for(const Architecture& arch, const ModelConfig& model) {
    automata::CeilingQuery q;
    q.arch = to_string(arch);
    q.layers = static_cast<unsigned>(model.layers);
    q.max_seconds = kCeilingSeconds;
    return q;
}

// The value when exact; else the upper bound (a run above it is still a bug, and an upper bound
// below the fit threshold still proves that no model fits), with the note saying so.
std::optional<double> usable(const Result<automata::CeilingResult>& r, const char* what, std::string& note) {
    if (!r.ok()) {
        note += std::string(note.empty() ? "" : "; ") + what + ": " + r.error().message;
        return std::nullopt;
    }
    if (r->exact && r->value) return *r->value;
    note += std::string(note.empty() ? "" : "; ") + what + " not exact (" + r->reason + "): upper bound used";
    return r->upper;
}

// The cache key: every field of the query that changes the answer, and the DFA's digest.
std::string cache_key(const automata::Dfa& dfa, const automata::CeilingQuery& q) {
    return sha256_hex(automata::to_json(dfa)) + " " + q.arch + " L" + std::to_string(q.layers) + " " + to_string(q.distribution) +
           " " + std::to_string(q.lengths.lo) + ":" + std::to_string(q.lengths.hi) +
           (q.distribution == automata::CeilingDistribution::Test ? " n" + std::to_string(q.per_length) : "") +
           " states<=" + std::to_string(q.max_states) + " seconds<=" + nlohmann::json(q.max_seconds).dump();
}

constexpr const char* kCacheFormat = "ltlkit-ceilings-1";

}  // namespace

CeilingCache::CeilingCache(std::string path) : path_(std::move(path)) {
    auto text = read_file(path_);
    if (!text.ok() || json_checksum_state(*text) != ChecksumState::Valid) return;
    auto j = parse_json<nlohmann::json>(*text);
    if (!j.ok() || !j->is_object() || j->value("format", "") != kCacheFormat || !(*j)["ceilings"].is_object()) return;
    for (const auto& [key, entry] : (*j)["ceilings"].items())
        if (entry.is_object()) entries_[key] = entry.dump();
}

Result<automata::CeilingResult> CeilingCache::ceiling(const automata::Dfa& dfa, const automata::CeilingQuery& q) {
    const std::string key = cache_key(dfa, q);
    if (auto it = entries_.find(key); it != entries_.end()) {
        // Only what a report reads (the value, or the bounds and why, or the error) is kept.
        const auto e = nlohmann::json::parse(it->second, nullptr, false);
        if (e.is_object()) {
            ++hits_;
            if (e.contains("error")) return make_error(e.value("error", ""));
            automata::CeilingResult r;
            r.arch = q.arch;
            r.layers = q.layers;
            r.distribution = q.distribution;
            r.lengths = q.lengths;
            r.exact = e.value("exact", false);
            if (e.contains("value") && e["value"].is_number()) r.value = e["value"].get<double>();
            r.lower = e.value("lower", 0.0);
            r.upper = e.value("upper", 0.0);
            r.reason = e.value("reason", "");
            return r;
        }
    }
    ++computed_;
    auto r = automata::receptive_field_ceiling(dfa, q);
    nlohmann::json e;
    if (!r.ok()) {
        e["error"] = r.error().message;
    } else {
        e["exact"] = r->exact;
        e["value"] = r->value ? nlohmann::json(*r->value) : nlohmann::json(nullptr);
        e["lower"] = r->lower;
        e["upper"] = r->upper;
        e["reason"] = r->reason;
    }
    entries_[key] = e.dump();
    dirty_ = true;
    return r;
}

Result<bool> CeilingCache::save() const {
    if (path_.empty() || !dirty_) return false;
    nlohmann::ordered_json j;
    j["format"] = kCacheFormat;
    j["ceilings"] = nlohmann::ordered_json::object();
    for (const auto& [key, entry] : entries_) j["ceilings"][key] = nlohmann::ordered_json::parse(entry);
    auto w = write_file_atomic(path_, json_with_checksum(j.dump()));
    if (!w.ok()) return w.error();
    return true;
}

std::optional<std::string> no_ceiling_reason(const Architecture& arch, const ModelConfig& model) {
    if (!arch.eos_window()) return "none for " + arch.unbounded_reason();
    if (model.pe != PositionalEncoding::None) return "unknown with positional encoding " + to_string(model.pe);
    if (!model.strict) return std::string("unknown with non-strict masks");
    return std::nullopt;
}

CellCeiling cell_ceiling(const Plan& plan, const LanguagePlan& lang, const ArchPlan& arch, CeilingCache* cache) {
    CellCeiling c;
    const ModelConfig& model = plan.base.model;
    if (auto why = no_ceiling_reason(arch.arch, model)) {
        c.note = *why;
        return c;
    }
    const auto& dfa = lang.dfa;
    if (!dfa) {
        c.note = "no DFA in plan.json";
        return c;
    }
    automata::CeilingQuery q = query_for(arch.arch, model);
    CeilingCache in_memory;
    CeilingCache& c_cache = cache ? *cache : in_memory;
    const TrainingConfig& t = plan.base.training;
    const EvaluationConfig& e = plan.base.evaluation;
    q.distribution = automata::CeilingDistribution::Training;
    q.lengths = {static_cast<std::size_t>(t.train_min), static_cast<std::size_t>(t.train_max)};
    c.train = usable(c_cache.ceiling(*dfa, q), "training ceiling", c.note);
    if (e.test_distribution == TestDistribution::Uniform) {
        q.distribution = automata::CeilingDistribution::Test;
        q.lengths = {static_cast<std::size_t>(e.test_min), static_cast<std::size_t>(e.test_max)};
        q.per_length = static_cast<std::size_t>(e.per_length);
        c.test = usable(c_cache.ceiling(*dfa, q), "test ceiling", c.note);
    }
    c.test_sample = arch.ceiling_test_sample;
    return c;
}

std::optional<double> sample_ceiling(const automata::Dfa& dfa, const Architecture& arch, const ModelConfig& model,
                                     const std::vector<LabelledWord>& test) {
    if (no_ceiling_reason(arch, model) || test.empty()) return std::nullopt;
    std::vector<automata::Example> words;
    words.reserve(test.size());
    for (const auto& w : test) words.push_back({w.word, w.label, -1});
    automata::CeilingQuery q = query_for(arch, model);
    q.distribution = automata::CeilingDistribution::Empirical;
    q.weighting = automata::CeilingWeighting::Lengths;  // as a run's mean over per-length accuracies
    auto r = automata::empirical_ceiling(words, dfa.num_symbols(), q);
    if (!r.ok() || !r->exact || !r->value) return std::nullopt;
    return *r->value;
}

AdversarialMarking mark_adversarial(const automata::Dfa& dfa, const Architecture& arch, const ModelConfig& model,
                                    const std::vector<LabelledWord>& set) {
    AdversarialMarking m;
    std::map<long, std::vector<const automata::Word*>> pairs;
    for (const auto& w : set) pairs[w.pair].push_back(&w.word);
    for (const auto& [id, ws] : pairs) {
        if (ws.size() != 2) continue;
        ++m.pairs;
        if (adversarial_pair_kind(dfa, arch, model, Prediction::Fails, *ws[0], *ws[1]) == PairKind::Forced) ++m.forced;
    }
    m.kind = m.forced == 0 ? "informative" : m.forced == m.pairs ? "forced" : "mixed";
    return m;
}

PairKind adversarial_pair_kind(const automata::Dfa& dfa, const Architecture& arch, const ModelConfig& model,
                               Prediction prediction, const automata::Word& u, const automata::Word& v) {
    if (prediction != Prediction::Fails) return PairKind::Control;
    const bool local = !no_ceiling_reason(arch, model);
    return local && automata::same_eos_type(u, v, dfa.num_symbols(), static_cast<unsigned>(*arch.eos_window()),
                                            static_cast<unsigned>(model.layers))
               ? PairKind::Forced
               : PairKind::Informative;
}

std::map<long, PairKind> adversarial_pair_kinds(const automata::Dfa& dfa, const Architecture& arch,
                                                const ModelConfig& model, Prediction prediction,
                                                const std::vector<LabelledWord>& set) {
    std::map<long, std::vector<const automata::Word*>> pairs;
    for (const auto& w : set) pairs[w.pair].push_back(&w.word);
    std::map<long, PairKind> out;
    for (const auto& [id, ws] : pairs)
        if (ws.size() == 2) out[id] = adversarial_pair_kind(dfa, arch, model, prediction, *ws[0], *ws[1]);
    return out;
}
std::string witness_shortfall(const automata::WordFamily& f, std::size_t pairs, const Profile& profile) {
    const EvaluationConfig& e = profile.base.evaluation;
    std::size_t fitting = 0, shortest_r = 0, longest_r = 0;
    for (std::size_t r = f.r_min; r <= f.r_min + static_cast<std::size_t>(e.test_max) + 1; ++r) {
        const auto [u, v] = f.at(r);
        if (std::min(u.size(), v.size()) > static_cast<std::size_t>(e.test_max)) break;
        const auto in = [&](std::size_t n) { return n >= static_cast<std::size_t>(e.test_min) && n <= static_cast<std::size_t>(e.test_max); };
        if (in(u.size()) && in(v.size())) {
            if (fitting++ == 0) shortest_r = r;
            longest_r = r;
        }
    }
    std::string t = "the witness family gives " + std::to_string(pairs) + " pairs, not " +
                    std::to_string(profile.adversarial_pairs) + ": only r = " + std::to_string(shortest_r) + ".." +
                    std::to_string(longest_r) + " put both words in lengths " + std::to_string(e.test_min) + ".." +
                    std::to_string(e.test_max);
    if (!f.e.empty()) t += " (one pair per r, and its words grow with r², since every eʳ block grows with r)";
    if (fitting > pairs) t += "; " + std::to_string(fitting - pairs) + " of those r give words with the same label";
    return t;
}

}  // namespace ltlkit::neural::verify
