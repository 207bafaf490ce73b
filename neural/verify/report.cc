// The report of a verify folder (write_report) and of several shards merged (merge_report).

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
#include "automata/lock.hh"
#include "neural/verify/ceilings.hh"
#include "neural/verify/profiles.hh"
#include "neural/verify/migrate.hh"
#include "neural/verify/report_internal.hh"

namespace ltlkit::neural::verify {

namespace fs = std::filesystem;
using nlohmann::json;

using namespace report_detail;

// ---------------------------------------------------------------- the report

Result<ReportFiles> write_report(const Plan& plan, const std::map<std::string, LoadedRun>& runs,
                                 const std::string& out, const std::vector<std::string>& missing) {
    std::error_code ec;
    fs::create_directories(out, ec);
    if (ec) return io_error("cannot create " + out + ": " + ec.message());
    std::size_t found = 0;
    for (const auto& r : plan.runs) found += runs.count(r.rundir);
    CeilingCache ceilings((fs::path(out) / "ceilings.json").string());
    const ReportData d{plan, build_grid(plan, runs, &ceilings), found, plan.runs.size(), setup_text(plan), now_utc(), missing};
    if (auto s = ceilings.save(); !s.ok()) return s.error();
    const Figures figures = render_figures(d);

    ReportFiles files;
    files.runs_planned = d.runs_planned;
    files.runs_found = d.runs_found;
    for (const auto& row : d.grid)
        for (const auto& c : row) files.verdicts_list.push_back(c.verdict);
    files.summary = render_summary(d);
    files.evidence = render_evidence_line(d);
    files.missing = missing;
    const fs::path dir(out);
    files.jsonl = (dir / "results.jsonl").string();
    files.verdicts = (dir / "verdicts.json").string();
    files.markdown = (dir / "report.md").string();
    files.html = (dir / "report.html").string();
    files.csv = (dir / "verdicts.csv").string();
    files.tex = (dir / "verdicts.tex").string();
    fs::create_directories(dir / "figures", ec);
    if (ec) return io_error("cannot create " + (dir / "figures").string() + ": " + ec.message());
    for (const auto& [path, content] :
         std::vector<std::pair<std::string, std::string>>{{files.jsonl, render_results_jsonl(plan, runs)},
                                                          {files.verdicts, render_verdicts_json(d)},
                                                          {files.csv, render_verdicts_csv(d)},
                                                          {files.tex, render_verdicts_tex(d)},
                                                          {(dir / "figures" / "accuracy.svg").string(), figures.accuracy_svg},
                                                          {(dir / "figures" / "nstar.svg").string(), figures.nstar_svg},
                                                          {(dir / "figures" / "accuracy.csv").string(), figures.accuracy_csv},
                                                          {(dir / "figures" / "cells.csv").string(), figures.cells_csv},
                                                          {files.markdown, render_markdown(d)},
                                                          {files.html, render_html(d, figures)}}) {
        auto w = write_file_atomic(path, content);
        if (!w.ok()) return w.error();
    }
    return files;
}

namespace report_detail {
bool needs_adversarial_marks(const Plan& plan) {
    for (const auto& l : plan.languages)
        for (const auto& a : l.archs)
            if (a.adversarial_words > 0 && a.adversarial_kind.empty()) return true;
    return false;
}
}  // namespace report_detail

namespace report_detail {

// One line per missing shard of a merge: folders without a plan, shards i/n that no folder holds,
// and shards with unfinished runs (runs are assigned to shards by index mod n).
std::vector<std::string> missing_shards(const Plan& plan, const std::map<std::string, LoadedRun>& runs,
                                        const std::vector<std::string>& no_plan,
                                        const std::map<int, std::string>& shard_dirs, int shard_count) {
    std::vector<std::string> out;
    std::vector<std::size_t> unfinished(static_cast<std::size_t>(std::max(shard_count, 0))),
        assigned(unfinished.size());
    for (const auto& r : plan.runs) {
        if (!shard_count) continue;
        const auto k = r.index % static_cast<std::size_t>(shard_count);
        ++assigned[k];
        if (!runs.count(r.rundir)) ++unfinished[k];
    }
    auto in_no_plan = [&](const std::string& d) { return std::find(no_plan.begin(), no_plan.end(), d) != no_plan.end(); };
    for (int k = 0; k < shard_count; ++k) {
        const auto it = shard_dirs.find(k);
        const std::string name = "shard " + std::to_string(k) + "/" + std::to_string(shard_count);
        const std::string runs_text = std::to_string(unfinished[static_cast<std::size_t>(k)]) + " of " +
                                      std::to_string(assigned[static_cast<std::size_t>(k)]) + " runs missing";
        if (it == shard_dirs.end())
            out.push_back(name + ": no folder given holds it (its task did not start, or its folder was not "
                                 "passed to report); " + runs_text);
        else if (in_no_plan(it->second))
            out.push_back(name + " (" + it->second + "): no plan.json, its task failed before planning; " + runs_text);
        else if (unfinished[static_cast<std::size_t>(k)])
            out.push_back(name + " (" + it->second + "): " + runs_text + "; its task failed or has not finished");
    }
    for (const auto& d : no_plan) {
        bool named = false;
        for (const auto& [k, sd] : shard_dirs) named = named || sd == d;
        if (!named) out.push_back(d + ": no plan.json and no shard.json (its task failed before starting, or it is no "
                                      "verify folder)");
    }
    return out;
}

}  // namespace report_detail

Result<ReportFiles> merge_report(const std::vector<std::string>& dirs, const std::string& out,
                                 const std::optional<Published>& published) {
    if (dirs.empty()) return make_error("no folder to report on");
    std::optional<Plan> plan;
    std::map<std::string, LoadedRun> all;
    std::vector<std::string> no_plan;            // folders without plan.json
    std::map<int, std::string> shard_dirs;       // shard index -> its folder (from shard.json)
    int shard_count = 0;
    std::error_code ec;
    for (const auto& d : dirs) {
        const std::string path = (fs::path(d) / "plan.json").string();
        auto shard = read_shard_file(d);
        if (!shard.ok()) return shard.error();
        if (*shard) {
            if (shard_count && (*shard)->second != shard_count)
                return make_error(d + " is shard " + std::to_string((*shard)->first) + "/" +
                                  std::to_string((*shard)->second) + " but " + shard_dirs.begin()->second +
                                  " is one of " + std::to_string(shard_count) + " shards; report merges only shards of one split");
            shard_count = (*shard)->second;
            shard_dirs.emplace((*shard)->first, d);
        }
        // A shard whose task failed before planning: named as missing, the others are merged.
        if (!fs::exists(path, ec) && dirs.size() > 1) {
            no_plan.push_back(d);
            continue;
        }
        auto text = read_file(path);
        if (!text.ok()) return text.error();
        // A JSON object that is no plan at all is named as such; a plan must carry its checksum.
        if (json_checksum_state(*text) == ChecksumState::Missing)
            if (auto p = plan_from_json(*text); !p.ok()) {
                Error e = p.error();
                e.origin = path;
                return e;
            }
        if (auto c = check_json_checksum(path, *text, "rerun `ltlkit verify` with the same arguments and --out to rewrite it");
            !c.ok())
            return c.error();
        auto p = plan_from_json(*text);
        if (!p.ok()) {
            Error e = p.error();
            e.origin = path;
            return e;
        }
        if (!plan) {
            plan = std::move(p).value();
        } else {
            // Shards of one verification have equal plans: same languages (DFAs), profile settings
            // and runs with equal identities.
            std::string differs;
            if (p->runs.size() != plan->runs.size()) differs = "another number of runs";
            for (std::size_t i = 0; differs.empty() && i < plan->runs.size(); ++i)
                if (p->runs[i].rundir != plan->runs[i].rundir || p->runs[i].seed != plan->runs[i].seed ||
                    p->runs[i].identity != plan->runs[i].identity)
                    differs = "run " + std::to_string(i + 1) + " differs (" + p->runs[i].rundir + ")";
            if (differs.empty() && config_to_json(p->base) != config_to_json(plan->base))
                differs = "other profile settings: " + config_differences(plan->base, p->base);
            for (std::size_t i = 0; differs.empty() && i < std::min(p->languages.size(), plan->languages.size()); ++i)
                if (p->languages[i].dfa != plan->languages[i].dfa)
                    differs = "language '" + p->languages[i].name + "' has another DFA";
            if (!differs.empty())
                return make_error(d + " holds another verification than " + dirs.front() + ": " + differs +
                                  "; report merges only shards of one verification");
        }
        auto runs = load_runs(*plan, d);
        if (!runs.ok()) return runs.error();
        for (auto& [k, v] : *runs) all.emplace(k, std::move(v));  // the first folder that has a run wins
    }
    if (!plan) return make_error("none of the folders holds a plan.json (" + no_plan.front() + ", ...); did any `ltlkit verify` task start?");
    if (published) plan->published = published;
    const auto missing = missing_shards(*plan, all, no_plan, shard_dirs, shard_count);
    // Not while a verify (or another report) writes into the output folder.
    auto lock = automata::lock_folder(out, "ltlkit report");
    if (!lock.ok()) return lock.error();
    // A plan written before adversarial sets were marked forced or informative gets the marks from
    // its regenerated datasets (migrate.hh mark_plan_adversarial), kept in plan.json.
    std::size_t marked = 0;
    if (needs_adversarial_marks(*plan)) {
        const fs::path scratch = fs::path(out) / ".marking";
        auto m = mark_plan_adversarial(*plan, scratch.string());
        std::error_code ec;
        fs::remove_all(scratch, ec);
        if (!m.ok()) return m.error();
        marked = *m;
    }
    if (out != dirs.front() || published || marked > 0) {
        std::error_code ec;
        fs::create_directories(out, ec);
        auto w = write_file_atomic((fs::path(out) / "plan.json").string(), plan_to_json(*plan));
        if (!w.ok()) return w.error();
    }
    return write_report(*plan, all, out, missing);
}

}  // namespace ltlkit::neural::verify
