// The sweep folder read back (sweep.hh, sweep_internal.hh): its request, languages, levels and
// their cells and verdicts. Torch-free, with profiles.cc and cells.cc, so that the Python module
// rebuilds a sweep's report (build_sweep_report) without LibTorch.
#include <algorithm>
#include <cmath>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "automata/algebra/prediction_suite.hh"
#include "base/file.hh"
#include "base/json.hh"
#include "neural/verify/cells.hh"
#include "neural/verify/sweep.hh"
#include "neural/verify/sweep_internal.hh"

namespace ltlkit::neural::verify {

namespace fs = std::filesystem;
using nlohmann::json;
using nlohmann::ordered_json;

// The strata a sweep draws when none is named: all but rt_definite. An R-trivial and definite
// language is constant on the words of length >= its definite degree d (every word of length d
// leads every state to one state, and those states reach each other, so in a partially ordered DFA
// they are one state): it is finite or cofinite (docs/PROTOCOL.md "Sweeps"). The protocol trains on
// the lengths that hold both labels, all below d, and its test lengths hold one label, so no run
// can show a length generalization either way; `--strata rt_definite` still draws them.
// rt_definite: finite or cofinite languages (docs/PROTOCOL.md "Sweeps"); star_free_not_lrt: added
// after the first sweep, named with --strata so that the default, and that sweep's command, stay.
constexpr const char* kNotSweptByDefault[] = {"rt_definite", "star_free_not_lrt"};

std::vector<std::string> effective_strata(const SweepRequest& r) {
    if (!r.suite.empty()) return {"suite"};
    if (!r.strata.empty()) return r.strata;
    std::vector<std::string> all;
    for (const auto& s : automata::algebra::prediction_strata())
        if (std::find(std::begin(kNotSweptByDefault), std::end(kNotSweptByDefault), s.name) == std::end(kNotSweptByDefault))
            all.push_back(s.name);
    return all;
}

Result<SweepRequest> request_from_config(const std::string& stored_json) {
    auto j = parse_json<json>(stored_json);
    if (!j.ok()) return j.error();
    SweepRequest r;
    try {
        if (j->contains("suite")) {
            r.suite = (*j).at("suite").get<std::string>();
            r.archs = (*j).at("archs").get<std::vector<std::string>>();
            r.profile = (*j).at("profile").get<std::string>();
            r.levels = (*j).at("levels").get<int>();
            r.max_hours = (*j).at("max_hours").get<double>();
            return r;
        }
        r.strata = (*j).at("strata").get<std::vector<std::string>>();
        r.per_stratum = (*j).at("per_stratum").get<std::size_t>();
        r.alphabet_sizes = (*j).at("alphabet_sizes").get<std::vector<std::size_t>>();
        r.min_states = (*j).at("min_states").get<std::size_t>();
        r.max_states = (*j).at("max_states").get<std::size_t>();
        r.seed = (*j).at("seed").get<std::uint64_t>();
        r.profile = (*j).at("profile").get<std::string>();
        r.levels = (*j).at("levels").get<int>();
        r.max_hours = (*j).at("max_hours").get<double>();
    } catch (const json::exception& e) {
        return make_error(std::string("sweep-config.json: ") + e.what());
    }
    return r;
}

Error holds_no_sweep(const std::string& dir, Error why) {
    why.message = dir + " holds no sweep (" + why.message + ")";
    return why;
}

ordered_json language_record(const SweepLanguage& l) {
    return ordered_json{{"name", l.name},
                        {"stratum", l.stratum},
                        {"alphabet", l.alphabet},
                        {"states", l.states},
                        {"generator", l.generator},
                        {"file", l.file},
                        {"archs", l.archs},
                        {"predictions", l.predictions},
                        {"windows_note", l.windows_note}};
}

std::string sweep_language_json(const SweepLanguage& l) { return language_record(l).dump(); }

Result<std::vector<SweepLanguage>> read_sweep_languages(const std::string& dir) {
    const std::string path = (fs::path(dir) / "languages.json").string();
    auto text = read_file(path);
    if (!text.ok()) return holds_no_sweep(dir, text.error());
    auto j = parse_json<json>(*text);
    if (!j.ok()) {
        Error e = j.error();
        e.origin = path;
        return e;
    }
    std::vector<SweepLanguage> out;
    try {
        for (const auto& x : *j) {
            SweepLanguage l;
            l.name = x.at("name").get<std::string>();
            l.stratum = x.at("stratum").get<std::string>();
            l.alphabet = x.at("alphabet").get<std::vector<std::string>>();
            l.states = x.at("states").get<std::size_t>();
            l.generator = x.value("generator", "");
            l.archs = x.at("archs").get<std::vector<std::string>>();
            l.predictions = x.at("predictions").get<std::map<std::string, std::string>>();
            l.windows_note = x.value("windows_note", "");
            l.file = x.at("file").get<std::string>();
            out.push_back(l);
        }
    } catch (const json::exception& e) {
        return make_error(path + ": " + e.what());
    }
    return out;
}

Result<SweepLevel> sweep_level(const Profile& base, int level) {
    if (level < 0) return make_error("a sweep level is at least 0");
    SweepLevel l;
    l.level = level;
    if (level == 0) {
        l.description = "profile " + base.name + " as it is";
        return l;
    }
    const auto& m = base.base.model;
    // Levels 4 and up train level 3's models (16x the steps, twice the width) from new seeds: more
    // steps cannot change a run that stopped at its fit check, and a cell whose runs all fitted but
    // failed their controls, or that no seed fitted, is then asked of other initialisations
    // (docs/PROTOCOL.md "Sweeps").
    const int sized_as = std::min(level, 3);
    const double factor = sized_as == 1 ? 4.0 : std::pow(4.0, sized_as - 1);
    l.sizes.steps = static_cast<int>(std::min(1e8, base.base.training.steps * factor));
    l.sizes.seeds = std::max(3, base.seeds);
    l.description = std::to_string(*l.sizes.steps) + " steps (" + std::to_string(static_cast<int>(factor)) +
                    "x the budget; training until the fit stops earlier), " + std::to_string(*l.sizes.seeds) + " seeds";
    if (level >= 2) {
        l.sizes.d_model = m.d_model * 2;
        l.sizes.heads = m.heads * 2;
        l.description += ", d_model " + std::to_string(*l.sizes.d_model) + " x " + std::to_string(*l.sizes.heads) + " heads";
    }
    if (level >= 4) {
        l.first_seed = 1 + *l.sizes.seeds * (level - 3);
        l.description += ", new seeds " + std::to_string(l.first_seed) + ".." + std::to_string(l.first_seed + *l.sizes.seeds - 1) +
                         " (level 3's models from other initialisations)";
    }
    return l;
}

EscalationDecision escalation_of(const std::string& verdict, const std::string& evidence, const std::string& prediction) {
    if (verdict == "pending") return {false, "not judged yet (its runs have not finished)"};
    if (verdict == "confirmed") return {false, "confirmed"};
    if (verdict == "contradicted") return {false, "contradicted: a finding to investigate, not escalated"};
    if (prediction == "unknown" || evidence == "none") return {false, "no prediction to test"};
    if (evidence == "untested")
        return {false, "no adversarial set exists for it, so no training can expose the predicted failure"};
    for (const char* k : {"not_fitted", "flat_fit", "no_success", "controls_failed"})
        if (evidence == k) return {true, evidence};
    return {false, "evidence " + evidence + " is not one that more training changes"};
}

EscalationDecision escalation_to(const std::string& verdict, const std::string& evidence, const std::string& prediction,
                                 int runs, bool every_run_fitted, const SweepLevel& from, const SweepLevel& to) {
    EscalationDecision d = escalation_of(verdict, evidence, prediction);
    if (!d.escalate || runs == 0 || !every_run_fitted) return d;
    const ProfileSizes& a = from.sizes;
    const ProfileSizes& b = to.sizes;
    const bool only_steps = a.layers == b.layers && a.d_model == b.d_model && a.heads == b.heads && a.d_ff == b.d_ff &&
                            a.per_length == b.per_length && a.seeds == b.seeds && from.first_seed == to.first_seed;
    if (!only_steps) return d;
    return {false, evidence + " at level " + std::to_string(from.level) + ", not escalated: its " + std::to_string(runs) +
                       " runs there all fitted before their step budget, and level " + std::to_string(to.level) +
                       " raises only the step budget (same seeds, same model), so it would train the same models again"};
}

EscalationDecision escalation_into(const std::string& verdict, const std::string& evidence, const std::string& prediction,
                                   int runs, bool every_run_fitted, const SweepLevel& from, const SweepLevel& to,
                                   bool planned_with_it) {
    return planned_with_it ? escalation_of(verdict, evidence, prediction)
                           : escalation_to(verdict, evidence, prediction, runs, every_run_fitted, from, to);
}

int level_runs_per_cell(const Profile& base, const SweepLevel& level) {
    return level.sizes.seeds.value_or(base.seeds) * static_cast<int>(base.lrs.size());
}

bool every_run_fitted(const json& verdict) {
    if (!verdict.contains("all_runs") || !verdict["all_runs"].is_array() || verdict["all_runs"].empty()) return false;
    for (const auto& run : verdict["all_runs"])
        if (!run.is_object() || run.value("failed_to_fit", true)) return false;
    return true;
}

std::string level_dir(const std::string& dir, int level) {
    return (fs::path(dir) / ("level-" + std::to_string(level))).string();
}

Result<std::vector<std::string>> read_level_cells(const std::string& dir, int level) {
    const std::string path = (fs::path(level_dir(dir, level)) / "cells.txt").string();
    if (!fs::exists(path)) return std::vector<std::string>{};
    return read_cells_file(path);
}

Result<std::map<std::string, json>> read_level_verdicts(const std::string& dir, int level) {
    std::map<std::string, json> out;
    const std::string path = (fs::path(level_dir(dir, level)) / "verdicts.json").string();
    if (!fs::exists(path)) return out;
    auto text = read_file(path);
    if (!text.ok()) return text.error();
    auto j = parse_json<json>(*text);
    if (!j.ok()) {
        Error e = j.error();
        e.origin = path;
        return e;
    }
    if (!j->is_array()) return make_error(path + ": expected an array of cells");
    for (const auto& v : *j)
        if (v.is_object() && v.contains("language") && v.contains("arch"))
            out[v["language"].get<std::string>() + ":" + v["arch"].get<std::string>()] = v;
    return out;
}

std::string cell_of(const std::string& language, const std::string& arch) { return language + ":" + arch; }

}  // namespace ltlkit::neural::verify
