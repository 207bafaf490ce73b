// The verification report: from the plan of a verify run (plan.hh) and the runs' result.json
// files, OUT/report.md, a self-contained OUT/report.html (inline CSS and SVG), OUT/results.jsonl,
// OUT/verdicts.json, the verdict grid as OUT/verdicts.csv and OUT/verdicts.tex (booktabs), and a
// one-screen summary. `ltlkit report DIR...` merges the folders of shards. Torch-free.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "base/error.hh"
#include "neural/run.hh"
#include "neural/verify/figures.hh"
#include "neural/verify/plan.hh"
#include "neural/verify/published.hh"
#include "neural/verify/verdict.hh"

namespace ltlkit::neural::verify {

// A run's result as found on disk: the parsed result and its JSON text (for results.jsonl).
struct LoadedRun {
    RunResult result;
    std::string json;  // one line
    std::string from;  // the file it was read from
    std::vector<CurvePoint> curve;  // RUNDIR/metrics.jsonl (empty when absent)
    // The pair outputs beside result.json (neural/pairs.hh): RUNDIR/result-pairs.tsv, or the
    // result-adversarial.tsv of an older ltlkit (its pairs' kinds given by the plan's rule,
    // verify::adversarial_pair_kind); pairs_file relative to the folder, empty when neither exists.
    std::vector<PairOutput> pairs;
    std::string pairs_file;
};

struct ReportFiles {
    std::string markdown, html, jsonl, verdicts;  // paths written
    std::string csv, tex;  // the verdict grid as tables for a paper: verdicts.csv, verdicts.tex
    std::vector<Verdict> verdicts_list;
    std::string summary;     // the one-screen summary
    std::string evidence;    // how many predicted cells are confirmed, by evidence group (one line)
    std::size_t runs_found = 0, runs_planned = 0;
    std::vector<std::string> missing;  // shards missing from a merge, one line each (empty: none)
};

// Writes the report of `plan` with the finished runs (keyed by RunPlan::rundir) into `out`;
// `missing` (from merge_report) is listed at the top of report.md and report.html.
Result<ReportFiles> write_report(const Plan& plan, const std::map<std::string, LoadedRun>& runs,
                                 const std::string& out, const std::vector<std::string>& missing = {});

// Reads DIR/<rundir>/result.json for every run of the plan that has one, and its pair outputs.
Result<std::map<std::string, LoadedRun>> load_runs(const Plan& plan, const std::string& dir);

// `ltlkit report DIR...`: the plan of the first DIR with one (every DIR must hold the same plan), the
// runs of all of them (the first DIR that has a run wins), the report written into `out`. Shards are
// named when missing (ReportFiles::missing): a DIR without plan.json (its task failed before
// planning), a shard i/n of `verify --shard` (OUT/shard.json) that no DIR holds, or a shard whose
// runs are not all finished.
// `published`, when given, replaces the plan's published numbers (plan.json is rewritten with them).
Result<ReportFiles> merge_report(const std::vector<std::string>& dirs, const std::string& out,
                                 const std::optional<Published>& published = std::nullopt);

// DIR/shard.json, written by `verify --shard i/n` (n > 1): which shard of how many the folder holds.
Result<bool> write_shard_file(const std::string& dir, int index, int count);
Result<std::optional<std::pair<int, int>>> read_shard_file(const std::string& dir);

// The minimal DFA as an inline <svg> through `dot -Tsvg` (Graphviz, run as a subprocess);
// nullopt (with the reason in *why) when dot is missing or fails.
std::optional<std::string> dfa_svg(const automata::Dfa& dfa, std::string* why = nullptr);

}  // namespace ltlkit::neural::verify
