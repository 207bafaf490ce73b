// The sweep report (sweep.hh build_sweep_report): from sweep-config.json, languages.json and every
// level's cells.txt and verdicts.json, per cell its verdict at the last level that judged it and its
// history, per stratum × architecture the counts, and for every cell without real evidence why.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "base/file.hh"
#include "neural/verify/sweep.hh"
#include "neural/verify/sweep_internal.hh"

namespace ltlkit::neural::verify {

namespace fs = std::filesystem;
using nlohmann::json;
using nlohmann::ordered_json;

namespace {

std::string pct(std::size_t k, std::size_t n) {
    if (n == 0) return "–";
    char b[32];
    std::snprintf(b, sizeof b, "%.1f%%", 100.0 * static_cast<double>(k) / static_cast<double>(n));
    return b;
}

std::string counts_text(const std::map<std::string, std::size_t>& m) {
    std::string s;
    for (const auto& [k, n] : m) s += (s.empty() ? "" : ", ") + k + " " + std::to_string(n);
    return s.empty() ? "–" : s;
}

std::string md_escape(std::string s) {
    std::string out;
    for (char c : s) {
        if (c == '|') out += "\\|";
        else if (c == '\n') out += ' ';
        else out += c;
    }
    return out;
}

struct Step {
    int level = 0;
    std::string verdict = "pending", evidence = "none", reason;
    int runs = 0;
    bool every_fitted = false;  // every_run_fitted of its verdicts.json entry
    ordered_json all_runs = ordered_json::array();  // each run: id, fitted, random test, pairs, training accuracy
};

// "73.4%", or "–" for null.
std::string pct_of(const json& v) {
    if (!v.is_number()) return "–";
    char b[32];
    std::snprintf(b, sizeof b, "%.1f%%", 100.0 * v.get<double>());
    return b;
}

// The runs of a cell at one level, from its verdicts.json entry: every seed, the failing ones too.
ordered_json runs_of(const json& verdict) {
    ordered_json out = ordered_json::array();
    if (!verdict.contains("all_runs") || !verdict["all_runs"].is_array()) return out;
    for (const auto& r : verdict["all_runs"]) {
        if (!r.is_object()) continue;
        out.push_back({{"run", r.value("run", "")},
                       {"failed_to_fit", r.value("failed_to_fit", false)},
                       {"train_accuracy", r.contains("train_accuracy") ? r["train_accuracy"] : json(nullptr)},
                       {"mean_accuracy", r.contains("mean_accuracy") ? r["mean_accuracy"] : json(nullptr)},
                       {"n_star", r.contains("n_star") ? r["n_star"] : json(nullptr)},
                       {"pairs_accuracy", r.contains("adversarial_accuracy") ? r["adversarial_accuracy"] : json(nullptr)}});
    }
    return out;
}

struct Cell {
    std::string language, stratum, arch, prediction;
    std::vector<Step> history;  // the levels whose cells.txt lists it
    Step final;                 // the last judged step (verdict pending when none)
    bool real = false;
    std::string status;  // final | escalating | pending | why it stays without real evidence
};

}  // namespace

Result<SweepReport> build_sweep_report(const std::string& dir) {
    const std::string config_path = (fs::path(dir) / "sweep-config.json").string();
    auto config_text = read_file(config_path);
    if (!config_text.ok()) return holds_no_sweep(dir, config_text.error());
    auto req = request_from_config(*config_text);
    if (!req.ok()) return req.error();
    auto profile = profile_by_name(req->profile);
    if (!profile.ok()) return profile.error();
    auto langs = read_sweep_languages(dir);
    if (!langs.ok()) return langs.error();

    // Each level's cells and verdicts, while level-L/cells.txt exists.
    std::vector<std::set<std::string>> level_cells;
    std::vector<std::map<std::string, json>> level_verdicts;
    for (int L = 0; L < req->levels; ++L) {
        auto cells = read_level_cells(dir, L);
        if (!cells.ok()) return cells.error();
        if (cells->empty()) break;
        auto verdicts = read_level_verdicts(dir, L);
        if (!verdicts.ok()) return verdicts.error();
        level_cells.emplace_back(cells->begin(), cells->end());
        level_verdicts.push_back(*verdicts);
    }
    const int levels_started = static_cast<int>(level_cells.size());
    // The runs a cell has at each level when that level is done: a verdict on fewer (a report of a
    // level still training, e.g. `ltlkit report` on its folder) is not the level's, so it stays pending.
    std::vector<int> runs_per_cell;
    for (int L = 0; L < levels_started; ++L) {
        auto level = sweep_level(*profile, L);
        if (!level.ok()) return level.error();
        runs_per_cell.push_back(level_runs_per_cell(*profile, *level));
    }

    std::vector<Cell> cells;
    for (const auto& l : *langs)
        for (const auto& arch : l.archs) {
            Cell c;
            c.language = l.name;
            c.stratum = l.stratum;
            c.arch = arch;
            auto p = l.predictions.find(arch);
            c.prediction = p == l.predictions.end() ? "unknown" : p->second;
            const std::string id = cell_of(l.name, arch);
            for (int L = 0; L < levels_started; ++L) {
                if (!level_cells[L].count(id)) continue;
                Step s;
                s.level = L;
                if (auto it = level_verdicts[L].find(id);
                    it != level_verdicts[L].end() && it->second.value("runs", 0) >= runs_per_cell[L]) {
                    s.verdict = it->second.value("verdict", "pending");
                    s.evidence = it->second.value("evidence", "none");
                    s.reason = it->second.value("reason", "");
                    s.runs = it->second.value("runs", 0);
                    s.all_runs = runs_of(it->second);
                    s.every_fitted = every_run_fitted(it->second);
                    if (s.verdict != "pending") c.final = s;
                }
                c.history.push_back(s);
            }
            c.real = c.final.verdict == "confirmed";
            const Step& last = c.history.empty() ? c.final : c.history.back();
            if (c.history.empty())
                c.status = "level 0 not started";
            else if (c.final.verdict == "pending")
                c.status = "pending: level 0 has not judged it yet";
            else if (c.real)
                c.status = "confirmed at level " + std::to_string(c.final.level);
            else if (last.verdict == "pending")
                c.status = "escalated to level " + std::to_string(last.level) + " (not finished yet): " +
                           c.final.evidence + " at level " + std::to_string(c.final.level);
            else {
                auto d = escalation_of(c.final.verdict, c.final.evidence, c.prediction);
                const int next = c.final.level + 1;
                // the sweep's rule (escalation_into) where a next level exists
                const bool planned_with_it = next < levels_started && level_cells[next].count(id);
                if (d.escalate && next < req->levels) {
                    auto from = sweep_level(*profile, c.final.level);
                    auto to = sweep_level(*profile, next);
                    if (!from.ok()) return from.error();
                    if (!to.ok()) return to.error();
                    d = escalation_into(c.final.verdict, c.final.evidence, c.prediction, c.final.runs, c.final.every_fitted, *from, *to,
                                        planned_with_it);
                }
                if (!d.escalate)
                    c.status = d.why;
                else if (next >= req->levels)
                    c.status = c.final.evidence + " after the last level (" + std::to_string(c.final.level) +
                               " of --levels " + std::to_string(req->levels) + ")";
                else
                    c.status = c.final.evidence + " at level " + std::to_string(c.final.level) + "; level " +
                               std::to_string(next) +
                               " not run (its estimate would exceed --max-hours, or the sweep has not reached it: "
                               "rerun the command)";
            }
            cells.push_back(c);
        }

    // Per stratum × architecture.
    struct Row {
        std::size_t cells = 0, judged = 0, real = 0;
        std::map<std::string, std::size_t> predictions, verdicts, evidence;
    };
    std::map<std::pair<std::string, std::string>, Row> rows;
    std::vector<std::string> strata_order, arch_order;
    auto note = [](std::vector<std::string>& v, const std::string& x) {
        if (std::find(v.begin(), v.end(), x) == v.end()) v.push_back(x);
    };
    for (const auto& s : effective_strata(*req)) note(strata_order, s);
    Row total;
    std::map<std::string, std::size_t> levels_reached;  // level -> cells whose final verdict is from it
    for (const auto& c : cells) {
        note(arch_order, c.arch);
        for (Row* r : {&rows[{c.stratum, c.arch}], &total}) {
            ++r->cells;
            ++r->predictions[c.prediction];
            ++r->verdicts[c.final.verdict];
            if (c.final.verdict != "pending") {
                ++r->judged;
                ++r->evidence[c.final.evidence];
            }
            r->real += c.real;
        }
        if (c.final.verdict != "pending") ++levels_reached[std::to_string(c.final.level)];
    }

    ordered_json j;
    j["sweep"] = dir;
    j["config"] = ordered_json::parse(*config_text);
    j["languages"] = langs->size();
    ordered_json lv = ordered_json::array();
    for (int L = 0; L < levels_started; ++L) {
        std::size_t judged = 0, real = 0;
        for (const auto& id : level_cells[L])
            if (auto it = level_verdicts[L].find(id); it != level_verdicts[L].end() && it->second.value("verdict", "pending") != "pending") {
                ++judged;
                real += it->second.value("real_evidence", false);
            }
        auto spec = sweep_level(*profile, L);
        lv.push_back({{"level", L},
                      {"description", spec.ok() ? spec->description : ""},
                      {"cells", level_cells[L].size()},
                      {"judged", judged},
                      {"real_evidence", real}});
    }
    j["levels"] = lv;
    auto row_json = [](const Row& r) {
        return ordered_json{{"cells", r.cells},         {"judged", r.judged},     {"predictions", r.predictions},
                            {"verdicts", r.verdicts},   {"evidence", r.evidence}, {"real_evidence", r.real},
                            {"real_evidence_share", r.cells ? static_cast<double>(r.real) / static_cast<double>(r.cells) : 0.0}};
    };
    ordered_json table = ordered_json::array();
    for (const auto& s : strata_order)
        for (const auto& a : arch_order)
            if (auto it = rows.find({s, a}); it != rows.end()) {
                ordered_json x = {{"stratum", s}, {"arch", a}};
                x.update(row_json(it->second));
                table.push_back(x);
            }
    j["table"] = table;
    j["total"] = row_json(total);
    j["final_level_counts"] = levels_reached;
    ordered_json cj = ordered_json::array();
    for (const auto& c : cells) {
        ordered_json h = ordered_json::array();
        for (const auto& s : c.history)
            h.push_back({{"level", s.level},
                         {"verdict", s.verdict},
                         {"evidence", s.evidence},
                         {"runs", s.runs},
                         {"all_runs", s.all_runs}});
        cj.push_back({{"language", c.language},
                      {"stratum", c.stratum},
                      {"arch", c.arch},
                      {"prediction", c.prediction},
                      {"verdict", c.final.verdict},
                      {"evidence", c.final.evidence},
                      {"real_evidence", c.real},
                      {"level", c.final.verdict == "pending" ? json(nullptr) : json(c.final.level)},
                      {"reason", c.final.reason},
                      {"status", c.status},
                      {"history", h}});
    }
    j["cells"] = cj;

    SweepReport rep;
    rep.cells = total.cells;
    rep.judged = total.judged;
    rep.real_evidence = total.real;
    const std::size_t contradicted = total.verdicts.count("contradicted") ? total.verdicts.at("contradicted") : 0;
    rep.summary = "real evidence: " + std::to_string(total.real) + " of " + std::to_string(total.cells) + " cells (" +
                  pct(total.real, total.cells) + "; " + std::to_string(total.judged) + " judged, " +
                  pct(total.real, total.judged) + " of those), " + std::to_string(contradicted) + " contradicted, over " +
                  std::to_string(langs->size()) + " languages and " + std::to_string(levels_started) + " level(s)";
    j["summary"] = rep.summary;
    rep.json = j.dump(1) + "\n";

    std::string md = "# Sweep " + dir + "\n\n";
    md += "Random languages of the prediction strata, verified level by level (docs/PROTOCOL.md \"Sweeps\"); "
          "rebuilt from the level folders by `ltlkit sweep --report " + dir + "`.\n\n";
    md += "Settings: " + ordered_json::parse(*config_text).dump() + "\n\n";
    md += "**" + rep.summary + "**\n\n## Levels\n\n| level | what | cells | judged | real evidence |\n|---|---|---|---|---|\n";
    for (const auto& x : lv)
        md += "| " + std::to_string(x["level"].get<int>()) + " | " + x["description"].get<std::string>() + " | " +
              std::to_string(x["cells"].get<std::size_t>()) + " | " + std::to_string(x["judged"].get<std::size_t>()) +
              " | " + std::to_string(x["real_evidence"].get<std::size_t>()) + " |\n";
    md += "\n## Per stratum and architecture (the verdict of the last level that judged each cell)\n\n"
          "| stratum | arch | cells | predictions | verdicts | evidence | real evidence |\n|---|---|---|---|---|---|---|\n";
    auto md_row = [&](const std::string& s, const std::string& a, const Row& r) {
        md += "| " + s + " | " + a + " | " + std::to_string(r.cells) + " | " + counts_text(r.predictions) + " | " +
              counts_text(r.verdicts) + " | " + counts_text(r.evidence) + " | " + std::to_string(r.real) + " (" +
              pct(r.real, r.cells) + ") |\n";
    };
    for (const auto& s : strata_order)
        for (const auto& a : arch_order)
            if (auto it = rows.find({s, a}); it != rows.end()) md_row(s, a, it->second);
    md_row("**all**", "", total);
    md += "\n## Cells without real evidence, and why\n\n| cell | stratum | prediction | verdict | evidence | levels | why |\n|---|---|---|---|---|---|---|\n";
    std::size_t listed = 0;
    for (const auto& c : cells) {
        if (c.real) continue;
        ++listed;
        std::string hist;
        for (const auto& s : c.history) hist += (hist.empty() ? "" : " → ") + std::to_string(s.level) + ":" + s.evidence;
        md += "| " + cell_of(c.language, c.arch) + " | " + c.stratum + " | " + c.prediction + " | " + c.final.verdict +
              " | " + c.final.evidence + " | " + md_escape(hist) + " | " + md_escape(c.status) +
              (c.final.reason.empty() ? "" : ". " + md_escape(c.final.reason)) + " |\n";
    }
    if (listed == 0) md += "| (none) | | | | | | |\n";
    // Every run of the cells that went past level 0, so that a cell confirmed by one seed of several
    // (rule 3 or 6: some fitted run) shows its other seeds too.
    std::string runs_md;
    for (const auto& c : cells) {
        if (c.history.size() < 2) continue;
        for (const auto& s : c.history)
            for (const auto& r : s.all_runs)
                runs_md += "| " + cell_of(c.language, c.arch) + " | " + c.prediction + " | " + std::to_string(s.level) +
                           " | " + r["run"].get<std::string>() + " | " +
                           (r["failed_to_fit"].get<bool>() ? "no" : "yes") + " | " + pct_of(r["train_accuracy"]) +
                           " | " + pct_of(r["mean_accuracy"]) + " | " + pct_of(r["pairs_accuracy"]) + " | " +
                           s.verdict + " (" + s.evidence + ") |\n";
    }
    if (!runs_md.empty())
        md += "\n## Every run of the escalated cells\n\nA level judges its runs together (docs/PROTOCOL.md, "
              "\"Verdict\": some fitted run decides rules 3 and 6); the runs that did not are listed too. *pairs*: the "
              "adversarial pairs of a predicted failure, the control pairs of a predicted recognizer.\n\n"
              "| cell | prediction | level | run | fitted | train acc | mean test | pairs | level's verdict |\n"
              "|---|---|---|---|---|---|---|---|---|\n" +
              runs_md;
    rep.markdown = md;
    if (auto w = write_file_atomic((fs::path(dir) / "sweep.json").string(), rep.json); !w.ok()) return w.error();
    if (auto w = write_file_atomic((fs::path(dir) / "sweep.md").string(), rep.markdown); !w.ok()) return w.error();
    return rep;
}

}  // namespace ltlkit::neural::verify
