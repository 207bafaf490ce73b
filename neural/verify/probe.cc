// The probe past the test lengths (probe.hh) and verify's probe stage (stages.hh).
#include "neural/verify/probe.hh"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

#include "automata/algebra/classify.hh"
#include "base/checksum.hh"
#include "base/file.hh"
#include "base/json.hh"
#include "neural/score.hh"
#include "neural/verify/stages.hh"
#include "neural/verify/verdict.hh"

namespace ltlkit::neural::verify {

namespace fs = std::filesystem;

std::size_t probe_cap(std::size_t test_max) { return std::min(kProbeLengthFactor * test_max, kProbeMaxLength); }

namespace {

std::size_t shorter(const automata::WordFamily& f, std::size_t r) {
    const auto [u, v] = f.at(r);
    return std::min(u.size(), v.size());
}
std::size_t longer(const automata::WordFamily& f, std::size_t r) {
    const auto [u, v] = f.at(r);
    return std::max(u.size(), v.size());
}

// The smallest r >= lo with pred(r), by doubling then bisection (pred monotone in r); nullopt
// when none up to `limit`.
template <class Pred>
std::optional<std::size_t> first_r(std::size_t lo, std::size_t limit, Pred pred) {
    if (lo > limit) return std::nullopt;
    std::size_t hi = lo;
    while (!pred(hi)) {
        if (hi >= limit) return std::nullopt;
        lo = hi + 1;
        hi = std::min(limit, 2 * hi + 1);
    }
    while (lo < hi) {  // pred(hi) holds, pred(r) fails below lo
        const std::size_t mid = lo + (hi - lo) / 2;
        if (pred(mid))
            hi = mid;
        else
            lo = mid + 1;
    }
    return hi;
}

}  // namespace

std::vector<std::size_t> probe_rs(const automata::WordFamily& f, std::size_t above, std::size_t cap,
                                  std::size_t count) {
    std::vector<std::size_t> out;
    if (count == 0 || cap <= above) return out;
    const std::size_t r_min = std::max<std::size_t>(f.r_min, 1);
    // Each word of a pair has at least r symbols when p is not empty; a bound on r past the cap.
    const std::size_t limit = std::max(r_min, cap + 1);
    const auto lo = first_r(r_min, limit, [&](std::size_t r) { return shorter(f, r) > above; });
    if (!lo || longer(f, *lo) > cap) return out;
    // The largest r whose longer word is still within the cap: one below the first beyond it.
    const auto beyond = first_r(*lo, limit, [&](std::size_t r) { return longer(f, r) > cap; });
    const std::size_t hi = beyond ? *beyond - 1 : limit;
    if (count == 1 || hi == *lo) return {*lo};
    const double ratio = std::pow(static_cast<double>(hi) / static_cast<double>(*lo), 1.0 / static_cast<double>(count - 1));
    for (std::size_t i = 0; i < count; ++i) {
        auto r = static_cast<std::size_t>(std::llround(static_cast<double>(*lo) * std::pow(ratio, static_cast<double>(i))));
        r = std::clamp(r, *lo, hi);
        if (i + 1 == count) r = hi;
        if (out.empty() || r > out.back()) out.push_back(r);
    }
    return out;
}

ProbeOutcome Probe::outcome() const {
    ProbeOutcome o;
    o.pairs = pairs.size();
    for (const auto& p : pairs) {
        const std::size_t lo = std::min(p.words[0].size(), p.words[1].size());
        const std::size_t hi = std::max(p.words[0].size(), p.words[1].size());
        o.min_length = o.min_length == 0 ? lo : std::min(o.min_length, lo);
        o.max_length = std::max(o.max_length, hi);
        if (!p.right() && !o.first_wrong_r) {
            o.first_wrong_r = p.r;
            o.first_wrong_length = hi;
        }
    }
    return o;
}

std::string probe_to_json(const Probe& p, const std::vector<std::string>& alphabet) {
    nlohmann::ordered_json j;
    j["arch"] = p.arch;
    j["family"] = p.family;
    j["test_max"] = p.test_max;
    j["cap"] = p.cap;
    nlohmann::ordered_json pairs = nlohmann::ordered_json::array();
    for (const auto& q : p.pairs)
        pairs.push_back({{"r", q.r},
                         {"words", {automata::format_word(alphabet, q.words[0]), automata::format_word(alphabet, q.words[1])}},
                         {"labels", {q.labels[0], q.labels[1]}},
                         {"logits", {q.logits[0], q.logits[1]}},
                         {"right", q.right()}});
    j["pairs"] = pairs;
    const ProbeOutcome o = p.outcome();
    j["first_wrong"] = o.first_wrong_r ? nlohmann::ordered_json{{"r", *o.first_wrong_r}, {"length", *o.first_wrong_length}}
                                       : nlohmann::ordered_json(nullptr);
    return json_with_checksum(j.dump());
}

Result<Probe> probe_from_json(const std::string& text, const std::vector<std::string>& alphabet) {
    if (json_checksum_state(text) != ChecksumState::Valid)
        return make_error("checksum missing or mismatched (truncated or edited)");
    auto parsed = parse_json<nlohmann::json>(text);
    if (!parsed.ok()) return parsed.error();
    const nlohmann::json& j = *parsed;
    Probe p;
    try {
        p.arch = j.at("arch").get<std::string>();
        p.family = j.at("family").get<std::string>();
        p.test_max = j.at("test_max").get<std::size_t>();
        p.cap = j.at("cap").get<std::size_t>();
        for (const auto& q : j.at("pairs")) {
            ProbePair pp;
            pp.r = q.at("r").get<std::size_t>();
            for (int k = 0; k < 2; ++k) {
                auto w = automata::parse_word(alphabet, q.at("words").at(k).get<std::string>());
                if (!w.ok()) return make_error("pair r = " + std::to_string(pp.r) + ": " + w.error().message);
                pp.words[k] = std::move(w).value();
                pp.labels[k] = q.at("labels").at(k).get<bool>();
                pp.logits[k] = q.at("logits").at(k).get<float>();
            }
            if (q.at("right").get<bool>() != pp.right())
                return make_error("pair r = " + std::to_string(pp.r) + ": \"right\" disagrees with its logits and labels");
            p.pairs.push_back(std::move(pp));
        }
    } catch (const std::exception& e) {
        return make_error(std::string("malformed probe: ") + e.what());
    }
    return p;
}

bool needs_probe(const RunResult& r) {
    return !r.failed_to_fit && passes_both_tests(r);
}

Result<std::size_t> probe_runs(const Plan& plan, const std::string& out, const std::vector<const RunPlan*>& runs,
                               Device device, const LogFn& log) {
    std::size_t probed = 0;
    // The witness family of each (language, architecture), from the classifier as the plan had it.
    std::map<std::string, std::optional<automata::algebra::Classification>> classified;
    for (const RunPlan* r : runs) {
        const fs::path dir = fs::path(out) / r->rundir;
        std::error_code ec;
        if (!fs::exists(dir / "result.json", ec)) continue;
        const auto lang = std::find_if(plan.languages.begin(), plan.languages.end(),
                                       [&](const LanguagePlan& l) { return l.dir == r->language; });
        if (lang == plan.languages.end() || !lang->dfa) continue;
        const auto ap = std::find_if(lang->archs.begin(), lang->archs.end(), [&](const ArchPlan& a) { return a.arch == r->arch; });
        if (ap == lang->archs.end() || ap->prediction != Prediction::Fails) continue;
        auto text = read_file((dir / "result.json").string());
        if (!text.ok()) return text.error();
        auto result = result_from_json(*text);
        if (!result.ok() || !needs_probe(*result)) continue;
        if (fs::exists(dir / kProbeFile, ec))
            if (auto old = read_file((dir / kProbeFile).string()); old.ok() && probe_from_json(*old, lang->alphabet).ok())
                continue;  // probed before
        const std::string who = lang->name + " " + to_string(r->arch) + " " + r->label();
        if (!fs::exists(dir / "checkpoint.pt", ec)) {
            emit(log, "probe: " + who + " passes both tests but has no checkpoint to probe (retrain it: remove " +
                          r->rundir + " and rerun)");
            continue;
        }
        auto& cls = classified[lang->dir];
        if (!cls) {
            auto c = automata::algebra::classify(*lang->dfa, classify_options(plan.archs));
            if (!c.ok()) return c.error();
            cls = std::move(c).value();
        }
        const auto pred = automata::algebra::predict(*cls, r->arch);
        if (!pred.witness) {
            emit(log, "probe: " + who + " passes both tests; its prediction has no witness family to probe");
            continue;
        }
        Probe probe;
        probe.arch = to_string(r->arch);
        probe.family = ap->witness;
        probe.test_max = static_cast<std::size_t>(std::max(plan.base.evaluation.test_max, 0));
        probe.cap = probe_cap(probe.test_max);
        std::vector<automata::Word> words;
        for (std::size_t rr : probe_rs(*pred.witness, probe.test_max, probe.cap)) {
            ProbePair q;
            q.r = rr;
            std::tie(q.words[0], q.words[1]) = pred.witness->at(rr);
            for (int k = 0; k < 2; ++k) {
                q.labels[k] = lang->dfa->accepts(q.words[k]);
                words.push_back(q.words[k]);
            }
            probe.pairs.push_back(std::move(q));
        }
        if (probe.pairs.empty()) {
            emit(log, "probe: " + who + " passes both tests; its family has no pair between lengths " +
                          std::to_string(probe.test_max + 1) + " and " + std::to_string(probe.cap));
            continue;
        }
        emit(log, "probe: " + who + " passes both tests; asking it about its witness family at " +
                      std::to_string(probe.pairs.size()) + " lengths up to " + std::to_string(probe.cap));
        auto logits = score_run(dir.string(), words, device, 1);
        if (!logits.ok()) {
            emit(log, "probe: " + who + ": " + logits.error().message);
            continue;
        }
        for (std::size_t i = 0; i < probe.pairs.size(); ++i)
            for (int k = 0; k < 2; ++k) probe.pairs[i].logits[k] = (*logits)[2 * i + static_cast<std::size_t>(k)];
        if (auto w = write_file_atomic((dir / kProbeFile).string(), probe_to_json(probe, lang->alphabet)); !w.ok())
            return w.error();
        const ProbeOutcome o = probe.outcome();
        emit(log, "probe: " + who + (o.first_wrong_r ? ": errs first at r = " + std::to_string(*o.first_wrong_r) +
                                                           " (length " + std::to_string(*o.first_wrong_length) + ")"
                                                     : ": right on every pair up to length " + std::to_string(o.max_length)));
        ++probed;
    }
    return probed;
}

}  // namespace ltlkit::neural::verify
