// The finished runs of a verify folder (their result.json and training curves) and its shard.json.

#include "neural/verify/report.hh"

#include <string>
#include <vector>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "base/checksum.hh"
#include "base/file.hh"
#include "automata/dfa_json.hh"
#include "automata/lock.hh"
#include "neural/verify/ceilings.hh"
#include "neural/verify/probe.hh"
#include "neural/verify/profiles.hh"
#include "neural/verify/report_internal.hh"

namespace ltlkit::neural::verify {

namespace fs = std::filesystem;
using nlohmann::json;

// ---------------------------------------------------------------- loading runs

namespace {

// The pair outputs of run `r` (report.hh LoadedRun::pairs), read from DIR/<rundir>; an older
// result-adversarial.tsv gets its pairs' kinds from the plan's DFA of the language.
Result<bool> load_pairs(const Plan& plan, const RunPlan& r, const std::string& dir,
                        LoadedRun& lr) {
    const LanguagePlan* lang = nullptr;
    for (const auto& l : plan.languages)
        if (l.dir == r.language) lang = &l;
    if (!lang) return true;
    const std::string result_rel = r.rundir + "/result.json";
    std::error_code ec;
    std::string rel = pairs_path(result_rel);
    const bool legacy = !fs::exists(fs::path(dir) / rel, ec);
    if (legacy) rel = legacy_pairs_path(result_rel);
    const fs::path path = fs::path(dir) / rel;
    if (!fs::exists(path, ec)) return true;
    auto text = read_file(path.string());
    if (!text.ok()) return text.error();
    auto pairs = pairs_from_tsv(*text, lang->alphabet);
    if (!pairs.ok()) return make_error(path.string() + ": " + pairs.error().message);
    std::size_t witness = 0;
    for (const auto& p : *pairs) witness += p.kind != PairKind::Boundary;
    if (lr.result.adversarial_pairs && static_cast<std::size_t>(*lr.result.adversarial_pairs) != witness)
        return make_error(path.string() + " holds " + std::to_string(witness) + " adversarial pairs, result.json counts " +
                          std::to_string(*lr.result.adversarial_pairs) + "; the two files are of different evaluations");
    if (legacy) {
        const ArchPlan* ap = nullptr;
        for (const auto& a : lang->archs)
            if (a.arch == r.arch) ap = &a;
        if (!ap) return true;
        if (!lang->dfa) return make_error("plan.json, language '" + lang->name + "': no DFA to classify its older pairs by");
        for (auto& p : *pairs)
            p.kind = adversarial_pair_kind(*lang->dfa, r.arch, plan.base.model, ap->prediction, p.words[0], p.words[1]);
    }
    lr.pairs = std::move(pairs).value();
    lr.pairs_file = rel;
    return true;
}

// The probe of run `r` (probe.hh), when verify wrote one: its outcome into lr.result.probe. A
// probe of another architecture, or one of a run that does not need it, is refused.
Result<bool> load_probe(const Plan& plan, const RunPlan& r, const std::string& dir, LoadedRun& lr) {
    const fs::path path = fs::path(dir) / r.rundir / kProbeFile;
    std::error_code ec;
    if (!fs::exists(path, ec)) return true;
    const LanguagePlan* lang = nullptr;
    for (const auto& l : plan.languages)
        if (l.dir == r.language) lang = &l;
    if (!lang) return true;
    auto text = read_file(path.string());
    if (!text.ok()) return text.error();
    auto probe = probe_from_json(*text, lang->alphabet);
    if (!probe.ok())
        return make_error(path.string() + ": " + probe.error().message +
                          "; remove it and rerun `ltlkit verify` with the same arguments, which probes the run again");
    if (probe->arch != to_string(r.arch) || !needs_probe(lr.result))
        return make_error(path.string() + " is not a probe of this run (" + probe->arch +
                          (needs_probe(lr.result) ? "" : ", or a run that passed both tests") + ")");
    lr.result.probe = probe->outcome();
    return true;
}

}  // namespace

Result<std::map<std::string, LoadedRun>> load_runs(const Plan& plan, const std::string& dir) {
    std::map<std::string, LoadedRun> out;
    for (const auto& r : plan.runs) {
        const fs::path path = fs::path(dir) / r.rundir / "result.json";
        std::error_code ec;
        if (!fs::exists(path, ec)) continue;
        auto text = read_file(path.string());
        if (!text.ok()) return text.error();
        if (auto c = check_json_checksum(
                path.string(), *text, "rerun `ltlkit verify` with the same arguments and --out, which evaluates the run again");
            !c.ok())
            return c.error();
        auto parsed = result_from_json(*text);
        if (!parsed.ok()) {
            Error e = parsed.error();
            e.origin = path.string();
            return e;
        }
        if (parsed->identity.evaluation != r.identity)
            return make_error(path.string() + " is not the run plan.json lists there (its language, "
                              "configuration or data differ); remove that folder and rerun `ltlkit verify`");
        LoadedRun lr;
        lr.result = std::move(parsed).value();
        try {
            lr.json = json::parse(*text).dump();
        } catch (const std::exception& e) {
            return make_error(path.string() + ": " + e.what());
        }
        lr.from = path.string();
        // The training curve, when the run logged one (lines that do not parse are skipped).
        if (auto log = read_file((fs::path(dir) / r.rundir / "metrics.jsonl").string()); log.ok()) {
            std::istringstream in(*log);
            for (std::string line; std::getline(in, line);) {
                try {
                    const json m = json::parse(line);
                    lr.curve.push_back({m.at("step").get<int>(), m.at("loss").get<double>(),
                                        m.at("train_accuracy").get<double>()});
                } catch (const std::exception&) {
                }
            }
        }
        if (auto p = load_pairs(plan, r, dir, lr); !p.ok()) return p.error();
        if (auto p = load_probe(plan, r, dir, lr); !p.ok()) return p.error();
        out.emplace(r.rundir, std::move(lr));
    }
    return out;
}

// OUT/shard.json of `verify --shard i/n` (written before planning, so a task that fails while
// planning still says which shard it was): {"shard": i, "shards": n}; nullopt when absent.
Result<std::optional<std::pair<int, int>>> read_shard_file(const std::string& dir) {
    const std::string path = (fs::path(dir) / "shard.json").string();
    std::error_code ec;
    if (!fs::exists(path, ec)) return std::optional<std::pair<int, int>>{};
    auto text = read_file(path);
    if (!text.ok()) return text.error();
    try {
        const json j = json::parse(*text);
        const int i = j.at("shard").get<int>(), n = j.at("shards").get<int>();
        if (n >= 1 && i >= 0 && i < n) return std::optional{std::pair{i, n}};
    } catch (const json::exception&) {
    }
    return make_error(path + ": not a shard file (expected {\"shard\": i, \"shards\": n} with 0 <= i < n); "
                      "rerun `ltlkit verify` with the same arguments to rewrite it");
}

Result<bool> write_shard_file(const std::string& dir, int index, int count) {
    return write_file_atomic((fs::path(dir) / "shard.json").string(),
                                       json{{"shard", index}, {"shards", count}}.dump() + "\n");
}

}  // namespace ltlkit::neural::verify
