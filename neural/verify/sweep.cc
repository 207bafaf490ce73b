// `ltlkit sweep` (sweep.hh): the request, the drawn languages, the levels' cost, and the loop that
// runs one `ltlkit verify` per level. The folder's files are read back by sweep_folder.cc.
#include "neural/verify/sweep.hh"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "automata/algebra/classify.hh"
#include "automata/algebra/prediction_suite.hh"
#include "automata/dfa_json.hh"
#include "automata/language.hh"
#include "automata/random.hh"
#include "base/checksum.hh"
#include "base/file.hh"
#include "base/json.hh"
#include "neural/cost.hh"
#include "neural/verify/report.hh"
#include "neural/verify/verify.hh"
#include "neural/verify/sweep_internal.hh"

namespace ltlkit::neural::verify {

namespace fs = std::filesystem;
using nlohmann::json;
using nlohmann::ordered_json;

namespace {

void emit(const std::function<void(const std::string&)>& log, const std::string& line) {
    if (log) log(line);
}

std::string hours(double seconds) {
    char b[32];
    std::snprintf(b, sizeof b, "%.2f h", seconds / 3600);
    return b;
}

// "42 s", "17 min", "3.25 h".
std::string duration(double seconds) {
    char b[32];
    if (seconds < 120)
        std::snprintf(b, sizeof b, "%.0f s", seconds);
    else if (seconds < 7200)
        std::snprintf(b, sizeof b, "%.0f min", seconds / 60);
    else
        std::snprintf(b, sizeof b, "%.2f h", seconds / 3600);
    return b;
}

std::string join(const std::vector<std::string>& v, const char* sep) {
    std::string s;
    for (std::size_t i = 0; i < v.size(); ++i) s += (i ? sep : "") + v[i];
    return s;
}

// The suite file's SHA-256 ("" when it cannot be read: check_sweep_request reports that).
std::string suite_digest(const std::string& path) {
    auto text = read_file(path);
    return text.ok() ? sha256_hex(*text) : std::string();
}

ordered_json config_object(const SweepRequest& r) {
    if (!r.suite.empty())
        // A suite sweep records the suite (its path and content) and the architectures instead of
        // what a draw needs, so that an edited suite is another sweep, not a resume.
        return ordered_json{{"suite", r.suite},     {"suite_sha256", suite_digest(r.suite)},
                            {"archs", r.archs},     {"profile", r.profile},
                            {"levels", r.levels},   {"max_hours", r.max_hours}};
    return ordered_json{{"strata", effective_strata(r)},
                        {"per_stratum", r.per_stratum},
                        {"alphabet_sizes", r.alphabet_sizes},
                        {"min_states", r.min_states},
                        {"max_states", r.max_states},
                        {"seed", r.seed},
                        {"profile", r.profile},
                        {"levels", r.levels},
                        {"max_hours", r.max_hours}};
}

// The architectures of a language and their predictions: `given` when not empty, else global,
// local-1 and hybrid-1 plus local-2 (hybrid-2) where the answer of k = 2 differs from k = 1.
Result<bool> choose_archs(const automata::Dfa& dfa, const std::vector<std::string>& given, SweepLanguage& l) {
    namespace alg = automata::algebra;
    using K = automata::Architecture::Kind;
    std::vector<automata::Architecture> archs;
    unsigned max_k = 2;
    for (const auto& name : given) {
        auto a = automata::parse_architecture(name);
        if (!a.ok()) return a.error();
        archs.push_back(*a);
        max_k = std::max(max_k, static_cast<unsigned>(a->k));  // k = 0 without a window
    }
    alg::ClassifyOptions co;
    co.max_k = max_k;
    auto c = alg::classify(dfa, co);
    if (!c.ok()) return c.error();
    auto pred = [&](automata::Architecture a) { return alg::predict(*c, a).prediction; };
    if (!given.empty()) {
        for (const auto& a : archs) {
            l.archs.push_back(to_string(a));
            l.predictions[to_string(a)] = to_string(pred(a));
        }
        l.windows_note = "architectures as given (--archs)";
        return true;
    }
    for (auto a : {automata::Architecture{K::Global, 0}, automata::Architecture{K::Local, 1},
                   automata::Architecture{K::Hybrid, 1}}) {
        l.archs.push_back(to_string(a));
        l.predictions[to_string(a)] = to_string(pred(a));
    }
    std::vector<std::string> notes;
    for (K kind : {K::Local, K::Hybrid}) {
        const automata::Architecture one{kind, 1}, two{kind, 2};
        const auto p1 = pred(one), p2 = pred(two);
        const std::string name = to_string(two);
        if (p2 == automata::Prediction::Unknown)
            notes.push_back(name + " left out: its window answer is unknown");
        else if (p2 != p1) {
            l.archs.push_back(name);
            l.predictions[name] = to_string(p2);
            notes.push_back(name + " added: " + to_string(p2) + " where " + to_string(one) + " " + to_string(p1));
        }
    }
    l.windows_note = join(notes, "; ");
    return true;
}

// The languages of a suite file, each under its architectures.
Result<DrawnLanguages> suite_languages(const SweepRequest& r, const std::function<void(const std::string&)>& log) {
    auto specs = automata::read_suite(r.suite);
    if (!specs.ok()) return specs.error();
    DrawnLanguages out;
    for (const auto& spec : *specs) {
        auto lang = automata::load_language(spec);
        if (!lang.ok()) return lang.error();
        SweepLanguage l;
        l.name = spec.name;
        l.stratum = "suite";
        l.alphabet = lang->dfa.alphabet;
        l.states = lang->dfa.num_states();
        l.generator = std::string(spec.kind == automata::InputKind::Formula ? "formula "
                                  : spec.kind == automata::InputKind::Regex ? "regex "
                                                                            : "dfa ") +
                      spec.text;
        if (auto ok = choose_archs(lang->dfa, r.archs, l); !ok.ok()) {
            Error e = ok.error();
            e.message = r.suite + ": " + spec.name + ": " + e.message;
            return e;
        }
        out.languages.push_back(l);
        out.dfa_json.push_back(automata::to_json(lang->dfa));
    }
    emit(log, "sweep: " + std::to_string(out.languages.size()) + " languages of " + r.suite);
    return out;
}

}  // namespace

std::string sweep_config_json(const SweepRequest& r) { return config_object(r).dump(2) + "\n"; }

Result<std::string> sweep_config_difference(const std::string& stored_json, const SweepRequest& r) {
    auto stored = parse_json<ordered_json>(stored_json);
    if (!stored.ok()) return stored.error();
    const ordered_json now = config_object(r);
    for (const auto& [key, value] : now.items()) {
        if (!stored->contains(key)) return key + " (not recorded)";
        // The budget is no part of what is drawn or trained, and level L's cells and runs do not
        // depend on how many levels follow it: more levels extend a sweep, fewer would hide levels
        // already run.
        if (key == "max_hours") continue;
        if (key == "levels" && value.is_number_integer() && (*stored)[key].is_number_integer()) {
            if (value.get<int>() >= (*stored)[key].get<int>()) continue;
            return "levels: " + (*stored)[key].dump() + " there, " + value.dump() + " now; more levels extend a sweep, fewer do not";
        }
        if ((*stored)[key] != value) return key + ": " + (*stored)[key].dump() + " there, " + value.dump() + " now";
    }
    return std::string();
}

Result<bool> check_sweep_request(const SweepRequest& r) {
    if (r.per_stratum < 1) return make_error("--per-stratum must be at least 1");
    if (r.alphabet_sizes.empty()) return make_error("--letters: no alphabet size given");
    for (std::size_t n : r.alphabet_sizes)
        if (n < 2 || n > 8) return make_error("--letters " + std::to_string(n) + ": expected 2..8 letters");
    if (r.min_states < 1 || r.max_states < r.min_states)
        return make_error("--states " + std::to_string(r.min_states) + ":" + std::to_string(r.max_states) +
                          ": expected A:B with 1 <= A <= B");
    if (r.levels < 1 || r.levels > 6) return make_error("--levels " + std::to_string(r.levels) + ": expected 1..6");
    if (!(r.max_hours > 0)) return make_error("--max-hours must be positive");
    if (!r.suite.empty()) {
        if (auto text = read_file(r.suite); !text.ok()) return text.error();
        for (const auto& a : r.archs)
            if (auto p = automata::parse_architecture(a); !p.ok()) return p.error();
    } else if (!r.archs.empty()) {
        return make_error("--archs is for --suite sweeps (drawn languages get global, local-1, hybrid-1 and the "
                          "k = 2 windows that differ)");
    }
    for (const auto& s : r.suite.empty() ? effective_strata(r) : std::vector<std::string>{})
        if (!automata::algebra::find_stratum(s)) {
            std::vector<std::string> names;
            for (const auto& st : automata::algebra::prediction_strata()) names.push_back(st.name);
            return make_error("--strata: unknown stratum '" + s + "' (expected " + join(names, ", ") + ")");
        }
    if (r.only_level && (*r.only_level < 0 || *r.only_level >= r.levels))
        return make_error("--level " + std::to_string(*r.only_level) + ": expected 0.." + std::to_string(r.levels - 1) +
                          " (--levels " + std::to_string(r.levels) + ")");
    auto p = profile_by_name(r.profile);
    if (!p.ok()) return p.error();
    return true;
}

Result<DrawnLanguages> draw_languages_with_dfas(const SweepRequest& r,
                                                const std::function<void(const std::string&)>& log) {
    if (!r.suite.empty()) return suite_languages(r, log);
    namespace alg = automata::algebra;
    const std::vector<std::string> letters = {"a", "b", "c", "d", "e", "f", "g", "h"};
    const auto strata = effective_strata(r);
    std::vector<std::vector<std::pair<SweepLanguage, std::string>>> per(strata.size());
    for (std::size_t si = 0; si < strata.size(); ++si) {
        const alg::PredictionStratum* st = alg::find_stratum(strata[si]);
        if (!st) return make_error("unknown stratum '" + strata[si] + "'");
        std::vector<std::vector<std::pair<SweepLanguage, std::string>>> by_size(r.alphabet_sizes.size());
        for (std::size_t zi = 0; zi < r.alphabet_sizes.size(); ++zi) {
            std::size_t count = 0;
            for (std::size_t j = 0; j < r.per_stratum; ++j) count += j % r.alphabet_sizes.size() == zi;
            if (count == 0) continue;
            const std::size_t size = r.alphabet_sizes[zi];
            alg::PredictionSuiteRequest q;
            q.constraints = st->constraints;
            q.alphabet.assign(letters.begin(), letters.begin() + static_cast<long>(size));
            q.count = count;
            q.seed = automata::derive_seed({"sweep", std::to_string(r.seed), st->name, std::to_string(size)});
            q.min_states = r.min_states;
            q.max_states = r.max_states;
            auto drawn = alg::draw_prediction_suite(q);
            if (!drawn.ok()) {
                Error e = drawn.error();
                e.message = "stratum " + st->name + " over " + std::to_string(size) + " letters: " + e.message;
                return e;
            }
            emit(log, "sweep: stratum " + st->name + ", " + std::to_string(size) + " letters: " +
                          std::to_string(drawn->dfas.size()) + " languages from " + std::to_string(drawn->draws) +
                          " candidates");
            for (std::size_t i = 0; i < drawn->dfas.size(); ++i) {
                const automata::Dfa& dfa = drawn->dfas[i];
                SweepLanguage l;
                l.stratum = st->name;
                l.alphabet = dfa.alphabet;
                l.states = dfa.num_states();
                l.generator = i < drawn->generators.size() ? drawn->generators[i] : "";
                if (auto ok = choose_archs(dfa, {}, l); !ok.ok()) return ok.error();
                by_size[zi].push_back({l, automata::to_json(dfa)});
            }
        }
        // Language j of the stratum: the next one of alphabet size sizes[j % n].
        std::vector<std::size_t> next(r.alphabet_sizes.size(), 0);
        for (std::size_t j = 0; j < r.per_stratum; ++j) {
            const std::size_t zi = j % r.alphabet_sizes.size();
            if (next[zi] >= by_size[zi].size()) continue;
            per[si].push_back(by_size[zi][next[zi]++]);
        }
    }
    DrawnLanguages out;
    for (std::size_t j = 0; j < r.per_stratum; ++j)
        for (std::size_t si = 0; si < strata.size(); ++si)
            if (j < per[si].size()) {
                auto [l, dfa] = per[si][j];
                char num[24];
                std::snprintf(num, sizeof num, "%02zu", j + 1);
                l.name = l.stratum + "-" + num;
                out.languages.push_back(l);
                out.dfa_json.push_back(dfa);
            }
    return out;
}

Result<std::vector<SweepLanguage>> draw_sweep_languages(const SweepRequest& r,
                                                        const std::function<void(const std::string&)>& log) {
    auto d = draw_languages_with_dfas(r, log);
    if (!d.ok()) return d.error();
    return d->languages;
}

Result<bool> write_sweep_languages(const std::string& dir, const std::vector<SweepLanguage>& langs,
                                   const std::vector<std::string>& dfa_json) {
    std::error_code ec;
    fs::create_directories(fs::path(dir) / "sweep-dfa", ec);
    if (ec) return io_error(dir + "/sweep-dfa: cannot create folder: " + ec.message());
    ordered_json list = ordered_json::array();
    std::string suite = "# ltlkit sweep: random languages of the prediction strata (docs/PROTOCOL.md \"Sweeps\")\n";
    for (std::size_t i = 0; i < langs.size(); ++i) {
        const SweepLanguage& l = langs[i];
        const std::string file = "sweep-dfa/" + l.name + ".json";
        if (auto w = write_file_atomic((fs::path(dir) / file).string(), dfa_json[i] + "\n"); !w.ok()) return w.error();
        suite += "# " + l.stratum + ", " + std::to_string(l.states) + " states, generator " + l.generator + "\n";
        suite += l.name + "\t" + join(l.alphabet, ",") + "\tdfa\t" + file + "\n";
        SweepLanguage record = l;
        record.file = file;
        list.push_back(language_record(record));
    }
    if (auto w = write_file_atomic((fs::path(dir) / "sweep.suite").string(), suite); !w.ok()) return w.error();
    if (auto w = write_file_atomic((fs::path(dir) / "languages.json").string(), list.dump(1) + "\n"); !w.ok())
        return w.error();
    return true;
}

Result<double> estimate_level_seconds(const Profile& profile, const ProfileSizes& sizes,
                                      const std::vector<std::string>& cell_archs,
                                      const std::map<std::string, double>* measured0) {
    auto sized = apply_sizes(profile, sizes);
    if (!sized.ok()) return sized.error();
    const std::size_t runs = static_cast<std::size_t>(sized->seeds) * sized->lrs.size();
    double seconds = 0;
    for (const auto& name : cell_archs) {
        auto arch = automata::parse_architecture(name);
        if (!arch.ok()) return arch.error();
        Config c = sized->base;
        c.model.arch = *arch;
        double per_run = estimate_cost(c, 1, 1, false).seconds_per_run;
        if (measured0)
            if (auto m = measured0->find(name); m != measured0->end()) {
                Config c0 = profile.base;
                c0.model.arch = *arch;
                const double assumed0 = estimate_cost(c0, 1, 1, false).seconds_per_run;
                if (assumed0 > 0) per_run = m->second * per_run / assumed0;
            }
        seconds += per_run * static_cast<double>(runs);
    }
    return seconds;
}

namespace {

// The cells of level `from` that go to level `to` (escalation_into, the rule the report shares).
// With `to` already planned (its cells.txt written by an earlier binary), only escalation_of
// applies, so that a level's cell list, once written, keeps its plan and its finished runs.
std::vector<std::string> escalated_cells(const std::vector<std::string>& cells, const std::map<std::string, json>& verdicts,
                                         const SweepLevel& from, const SweepLevel& to, bool to_planned) {
    std::vector<std::string> out;
    for (const auto& cell : cells) {
        auto it = verdicts.find(cell);
        if (it == verdicts.end()) continue;
        const json& v = it->second;
        const std::string verdict = v.value("verdict", "pending"), evidence = v.value("evidence", "none"),
                          prediction = v.value("prediction", "unknown");
        const EscalationDecision d =
            escalation_into(verdict, evidence, prediction, v.value("runs", 0), every_run_fitted(v), from, to, to_planned);
        if (d.escalate) out.push_back(cell);
    }
    return out;
}

// Whether every cell of the level has all its runs judged in level-L/verdicts.json.
bool level_complete(const std::vector<std::string>& cells, const std::map<std::string, json>& verdicts, int runs_per_cell) {
    for (const auto& cell : cells) {
        auto it = verdicts.find(cell);
        if (it == verdicts.end() || it->second.value("verdict", "pending") == "pending" ||
            it->second.value("runs", 0) < runs_per_cell)
            return false;
    }
    return true;
}

// The arch names of cells "LANGUAGE:ARCH".
std::vector<std::string> archs_of(const std::vector<std::string>& cells) {
    std::vector<std::string> out;
    for (const auto& c : cells) out.push_back(c.substr(c.rfind(':') + 1));
    return out;
}

Result<bool> write_if_changed(const std::string& path, const std::string& content) {
    if (auto old = read_file(path); old.ok() && *old == content) return true;
    return write_file_atomic(path, content);
}

std::string shard_dir(const std::string& dir, int level, int index) {
    return (fs::path(level_dir(dir, level)) / ("shard-" + std::to_string(index))).string();
}

// Merges the level's shard folders into level-L (its report and verdicts.json); the shards missing.
Result<std::vector<std::string>> merge_level_shards(const std::string& dir, int level, int shards) {
    std::vector<std::string> dirs, missing;
    for (int i = 0; i < shards; ++i) {
        const std::string d = shard_dir(dir, level, i);
        if (fs::exists(fs::path(d) / "plan.json"))
            dirs.push_back(d);
        else
            missing.push_back("shard " + std::to_string(i) + "/" + std::to_string(shards) + " not started");
    }
    if (dirs.empty()) return missing;
    auto merged = merge_report(dirs, level_dir(dir, level));
    if (!merged.ok()) return merged.error();
    for (const auto& m : merged->missing) missing.push_back(m);
    return missing;
}

}  // namespace

std::vector<std::string> verify_arguments(const SweepRequest& r, const std::string& dir, const SweepLevel& level,
                                          const std::vector<std::string>& all_archs) {
    const std::string out = r.shard_count > 1 ? shard_dir(dir, level.level, r.shard_index) : level_dir(dir, level.level);
    std::vector<std::string> a = {"verify", "--suite", (fs::path(dir) / "sweep.suite").string(), "--archs",
                                  join(all_archs, ","), "--profile", r.profile, "--cells",
                                  (fs::path(level_dir(dir, level.level)) / "cells.txt").string(), "--out", out,
                                  "--threads", std::to_string(r.threads), "--device", r.device, "--accept-cost"};
    const ProfileSizes& s = level.sizes;
    for (const auto& [opt, v] : {std::pair{"--steps", s.steps}, {"--seeds", s.seeds}, {"--d-model", s.d_model},
                                 {"--heads", s.heads}, {"--layers", s.layers}})
        if (v) a.insert(a.end(), {opt, std::to_string(*v)});
    if (level.first_seed != 1) a.insert(a.end(), {"--seed", std::to_string(level.first_seed)});
    if (r.shard_count > 1) a.insert(a.end(), {"--shard", std::to_string(r.shard_index) + "/" + std::to_string(r.shard_count)});
    if (r.quiet) a.push_back("-q");
    return a;
}

std::vector<std::string> union_archs(const std::vector<SweepLanguage>& langs) {
    std::vector<std::string> out;
    for (const auto& l : langs)
        for (const auto& a : l.archs)
            if (std::find(out.begin(), out.end(), a) == out.end()) out.push_back(a);
    return out;
}

Result<std::vector<SweepLanguage>> open_sweep_folder(const SweepRequest& r, const std::string& dir, bool write,
                                                     const std::function<void(const std::string&)>& log) {
    const std::string config = (fs::path(dir) / "sweep-config.json").string();
    if (fs::exists(config)) {
        auto text = read_file(config);
        if (!text.ok()) return text.error();
        auto diff = sweep_config_difference(*text, r);
        if (!diff.ok()) {
            Error e = diff.error();
            e.origin = config;
            return e;
        }
        if (!diff->empty())
            return make_error(dir + " holds a sweep with other settings (" + *diff +
                              "): rerun it with its own settings to resume it, or choose another --out");
        // More levels or another budget: the folder now records this request.
        if (const std::string now = sweep_config_json(r); write && *text != now)
            if (auto w = write_file_atomic(config, now); !w.ok()) return w.error();
        if (fs::exists(fs::path(dir) / "languages.json")) return read_sweep_languages(dir);
    }
    auto drawn = draw_languages_with_dfas(r, log);
    if (!drawn.ok()) return drawn.error();
    if (write) {
        std::error_code ec;
        fs::create_directories(dir, ec);
        if (ec) return io_error(dir + ": cannot create folder: " + ec.message());
        if (auto w = write_sweep_languages(dir, drawn->languages, drawn->dfa_json); !w.ok()) return w.error();
        if (auto w = write_file_atomic(config, sweep_config_json(r)); !w.ok()) return w.error();
    }
    return drawn->languages;
}

// Arch -> the measured seconds of one level-0 run (empty without a measure, or for an arch whose
// calibration failed): the one calibration the sweep's first line and --estimate both rest on.
Result<std::map<std::string, double>> measure_level0(const Profile& profile, const std::vector<std::string>& archs,
                                                     const SecondsPerRun& seconds_per_run) {
    std::map<std::string, double> measured0;
    if (!seconds_per_run) return measured0;
    for (const auto& name : archs) {
        auto arch = automata::parse_architecture(name);
        if (!arch.ok()) return arch.error();
        Config c = profile.base;
        c.model.arch = *arch;
        if (auto s = seconds_per_run(c); s.ok()) measured0[name] = *s;
    }
    return measured0;
}

Result<SweepReport> run_sweep(const SweepRequest& r, const std::string& dir, const SweepHooks& hooks) {
    if (auto ok = check_sweep_request(r); !ok.ok()) return ok.error();
    const Profile profile = *profile_by_name(r.profile);
    // The draw's lines wait until the cost has been said: the cost is the first line.
    std::vector<std::string> held;
    auto langs = open_sweep_folder(r, dir, true, [&](const std::string& line) { held.push_back(line); });
    if (!langs.ok()) return langs.error();
    const std::vector<std::string> all_archs = union_archs(*langs);
    std::vector<std::string> cells;
    for (const auto& l : *langs)
        for (const auto& a : l.archs) cells.push_back(cell_of(l.name, a));
    auto m0 = measure_level0(profile, all_archs, hooks.seconds_per_run);
    if (!m0.ok()) return m0.error();
    const std::map<std::string, double>& measured0 = *m0;
    const bool measured = !measured0.empty() && measured0.size() == all_archs.size();
    {
        auto est0 = estimate_level_seconds(profile, {}, archs_of(cells), measured ? &measured0 : nullptr);
        if (!est0.ok()) return est0.error();
        double worst = 0;
        for (int L = 0; L < r.levels; ++L) {
            auto level = sweep_level(profile, L);
            if (!level.ok()) return level.error();
            auto e = estimate_level_seconds(profile, level->sizes, archs_of(cells), measured ? &measured0 : nullptr);
            if (!e.ok()) return e.error();
            worst += *e;
        }
        emit(hooks.log, "sweep: cost: " + std::to_string(langs->size()) + " languages, " + std::to_string(cells.size()) +
                            " cells; level 0 estimated " + duration(*est0) + " of CPU, at most " + duration(worst) +
                            " if every cell escalated through --levels " + std::to_string(r.levels) + " (--max-hours " +
                            hours(r.max_hours * 3600) + "; " +
                            (measured ? "measured here: each architecture's model trained for about a second, the "
                                        "whole step budget counted, so runs that stop at the fit check take less"
                                      : "the assumed, pessimistic CPU rate of neural/cost.hh") +
                            "; runs already finished in " + dir + " are counted too)");
    }
    for (const auto& line : held) emit(hooks.log, line);
    double spent = 0;  // the estimated seconds of the levels run so far
    for (int L = 0; L < r.levels; ++L) {
        auto level = sweep_level(profile, L);
        if (!level.ok()) return level.error();
        auto est = estimate_level_seconds(profile, level->sizes, archs_of(cells), measured ? &measured0 : nullptr);
        if (!est.ok()) return est.error();
        if (spent + *est > r.max_hours * 3600) {
            if (L == 0)
                return limit_error("level 0 alone is estimated at " + hours(*est) + " on this CPU, over --max-hours " +
                                   hours(r.max_hours * 3600) + ": fewer languages (--per-stratum), a cheaper --profile, "
                                   "or a larger --max-hours");
            emit(hooks.log, "sweep: level " + std::to_string(L) + " (" + std::to_string(cells.size()) +
                                " cells, estimated " + hours(*est) + ") not run: the levels would exceed --max-hours " +
                                hours(r.max_hours * 3600));
            break;
        }
        spent += *est;
        const std::string ldir = level_dir(dir, L);
        std::error_code ec;
        fs::create_directories(ldir, ec);
        if (ec) return io_error(ldir + ": cannot create folder: " + ec.message());
        std::string cells_text = "# level " + std::to_string(L) + ": " + level->description + "\n";
        for (const auto& c : cells) cells_text += c + "\n";
        if (auto w = write_if_changed((fs::path(ldir) / "cells.txt").string(), cells_text); !w.ok()) return w.error();
        auto args = verify_arguments(r, dir, *level, all_archs);
        std::string command = "ltlkit";
        for (const auto& a : args) command += " " + a;
        if (auto w = write_if_changed((fs::path(ldir) / "command.txt").string(), command + "\n"); !w.ok()) return w.error();
        const int runs_per_cell = level_runs_per_cell(profile, *level);
        if (r.shard_count > 1)
            if (auto m = merge_level_shards(dir, L, r.shard_count); !m.ok()) return m.error();
        auto verdicts = read_level_verdicts(dir, L);
        if (!verdicts.ok()) return verdicts.error();
        const bool skip = r.only_level && L < *r.only_level;
        if (level_complete(cells, *verdicts, runs_per_cell)) {
            emit(hooks.log, "sweep: level " + std::to_string(L) + " complete (" + std::to_string(cells.size()) +
                                " cells), nothing to train");
        } else if (skip) {
            return make_error("--level " + std::to_string(*r.only_level) + ": level " + std::to_string(L) +
                              " is not complete; run it first (--level " + std::to_string(L) + ")");
        } else {
            emit(hooks.log, "sweep: level " + std::to_string(L) + ": " + std::to_string(cells.size()) + " cells, " +
                                level->description + ", estimated " + duration(*est) + " (" + duration(spent) +
                                " for the levels so far, --max-hours " + hours(r.max_hours * 3600) + ")");
            auto rc = hooks.run_verify_argv(args);
            if (!rc.ok()) return rc.error();
            if (*rc != 0) {
                Error e = make_error("level " + std::to_string(L) + ": ltlkit verify exited with code " +
                                     std::to_string(*rc) + (*rc == 130 ? " (interrupted)" : " (its message is above)") +
                                     "; its finished runs are kept: rerun the same command to resume");
                e.exit_code = *rc == 3 || *rc == 4 || *rc == 130 ? *rc : 2;
                return e;
            }
            if (r.shard_count > 1) {
                auto m = merge_level_shards(dir, L, r.shard_count);
                if (!m.ok()) return m.error();
                if (!m->empty()) {
                    emit(hooks.log, "sweep: level " + std::to_string(L) + " waits for the other shards (" +
                                        join(*m, "; ") + "); the next level starts once they have finished");
                    break;
                }
            }
            verdicts = read_level_verdicts(dir, L);
            if (!verdicts.ok()) return verdicts.error();
            if (!level_complete(cells, *verdicts, runs_per_cell)) {
                emit(hooks.log, "sweep: level " + std::to_string(L) + " is not complete yet; rerun to continue");
                break;
            }
        }
        if (r.only_level && L == *r.only_level) break;
        if (L + 1 < r.levels) {
            auto next = sweep_level(profile, L + 1);
            if (!next.ok()) return next.error();
            auto planned = read_level_cells(dir, L + 1);
            if (!planned.ok()) return planned.error();
            cells = escalated_cells(cells, *verdicts, *level, *next, !planned->empty());
        } else {
            cells = escalated_cells(cells, *verdicts, *level, *level, true);
        }
        if (cells.empty()) {
            emit(hooks.log, "sweep: no cell of level " + std::to_string(L) + " escalates");
            break;
        }
        if (L + 1 < r.levels)
            emit(hooks.log, "sweep: " + std::to_string(cells.size()) + (cells.size() == 1 ? " cell escalates" : " cells escalate") +
                                " to level " + std::to_string(L + 1));
    }
    return build_sweep_report(dir);
}

Result<std::string> estimate_sweep(const SweepRequest& r, const std::string& dir, int shards,
                                   const std::function<void(const std::string&)>& log,
                                   const SecondsPerRun& seconds_per_run) {
    if (auto ok = check_sweep_request(r); !ok.ok()) return ok.error();
    if (shards < 1) return make_error("--estimate N: N must be at least 1");
    const Profile profile = *profile_by_name(r.profile);
    auto langs = open_sweep_folder(r, dir, false, log);
    if (!langs.ok()) return langs.error();
    std::vector<std::string> archs;
    for (const auto& l : *langs)
        for (const auto& a : l.archs) archs.push_back(a);
    auto m0 = measure_level0(profile, union_archs(*langs), seconds_per_run);
    if (!m0.ok()) return m0.error();
    const bool measured = !m0->empty() && m0->size() == union_archs(*langs).size();
    const std::map<std::string, double>* rate = measured ? &*m0 : nullptr;
    std::ostringstream out;
    char b[64];
    out << "languages=" << langs->size() << "\ncells=" << archs.size() << "\n";
    double worst = 0;
    for (int L = 0; L < r.levels; ++L) {
        auto level = sweep_level(profile, L);
        if (!level.ok()) return level.error();
        auto est = estimate_level_seconds(profile, level->sizes, archs, rate);
        if (!est.ok()) return est.error();
        worst += *est;
        auto sized = apply_sizes(profile, level->sizes);
        if (!sized.ok()) return sized.error();
        const std::size_t runs = archs.size() * static_cast<std::size_t>(sized->seeds) * sized->lrs.size();
        std::snprintf(b, sizeof b, "%.2f", *est / 3600);
        out << "level" << L << "_runs_at_most=" << runs << "\nlevel" << L << "_core_hours_at_most=" << b << "\n";
        if (L == 0) {
            // The task limit from the same per-run seconds as the level's hours (measured or assumed).
            auto e = estimate_cost(sized->base, runs, shards, false);
            if (runs > 0) set_run_seconds(e, *est / static_cast<double>(runs), 0);
            std::snprintf(b, sizeof b, "%.2f", *est / 3600);
            out << "level0_runs=" << runs << "\nlevel0_core_hours=" << b << "\nshards=" << shards
                << "\nlevel0_task_time_limit=" << slurm_time(e.task_seconds) << "\n";
        }
    }
    std::snprintf(b, sizeof b, "%.2f", worst / 3600);
    out << "worst_case_core_hours=" << b << "\n";
    std::snprintf(b, sizeof b, "%g", r.max_hours);
    out << "max_hours=" << b << "\nunit=core-hours\nassumptions="
        << (measured ? "measured here as the sweep measures before it runs (each architecture's model trained for about "
                       "a second, CPU time), the whole step budget counted"
                     : "neural/cost.hh's assumed, pessimistic CPU rate")
        << "; levels above 0 counted as if every cell escalated\n";
    return out.str();
}

}  // namespace ltlkit::neural::verify
