// The verification report: the plan of a verify run (languages, predictions, run list)
// as OUT/plan.json, and from it plus the runs' result.json files: OUT/report.md, a self-contained
// OUT/report.html (inline CSS and SVG), OUT/results.jsonl, OUT/verdicts.json, the verdict grid as
// OUT/verdicts.csv and OUT/verdicts.tex (booktabs), and a one-screen
// summary. `ltlkit report DIR...` merges the folders of shards. Torch-free.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "base/error.hh"
#include "neural/run.hh"
#include "neural/verify/figures.hh"
#include "neural/verify/published.hh"
#include "neural/verify/verdict.hh"

namespace ltlkit::neural::verify {

struct ArchPlan {
    Architecture arch;
    Prediction prediction = Prediction::Unknown;
    std::string reason;               // from the classifier
    std::string witness;              // the witness family in words ("x=… p=… y=… z=…"), may be empty
    std::size_t adversarial_words = 0;  // size of the adversarial set used (0: none)
    // Its pairs, and whether the architecture maps both words of every pair to the same vector at
    // any weights (docs/PROTOCOL.md "Evaluation"): "forced" (every pair), "informative" (none, or
    // an architecture whose vectors the window argument does not fix: global, hybrid, LSTM),
    // "mixed" (some); empty in a plan.json written before the marking.
    std::size_t adversarial_pairs = 0, adversarial_forced_pairs = 0;
    std::string adversarial_kind;
    std::string adversarial_note;  // e.g. why the family gives fewer pairs than asked
    // The exact ceiling on the runs' own test words (mean over test lengths), when computable.
    std::optional<double> ceiling_test_sample;
};

struct LanguagePlan {
    std::string name;  // as given (suite name or the formula/regex/path itself)
    std::string dir;   // folder name under data/ and runs/ (a safe spelling of the name)
    std::string kind;  // formula | regex | dfa
    std::string text;
    std::vector<std::string> alphabet;
    std::string dfa_json;  // the minimal complete DFA (docs/SYNTAX.md §9)
    std::size_t states = 0;
    std::optional<std::string> fragment;
    std::map<std::string, std::optional<bool>> classes;  // class id -> member (null: undecided)
    std::vector<ArchPlan> archs;
    std::size_t test_words = 0;
};

struct RunPlan {
    std::size_t index = 0;  // position in the run list (shards take index mod n == i)
    std::string language;   // LanguagePlan::dir
    Architecture arch;
    int seed_index = 1;
    double lr = 0;
    std::uint64_t seed = 0;  // derived from (language, arch, seed index, lr)
    std::string identity;    // RunIdentity::evaluation of the run (neural/run.hh)
    std::string rundir;      // relative to OUT: runs/<language>/<arch>/seed<i>-lr<lr>-<identity[0:8]>
    std::string label() const;  // "seed<i>-lr<lr>"
};

struct Plan {
    std::string profile;
    std::string profile_note;
    Config base;  // the profile's settings (arch, lr and seed vary per run)
    std::vector<Architecture> archs;
    int seeds = 1;
    std::uint64_t base_seed = 1;
    std::vector<double> lrs;
    std::vector<std::string> cells;  // "LANGUAGE:ARCH" chosen with --only / --cells (empty: all)
    std::vector<LanguagePlan> languages;
    std::vector<RunPlan> runs;
    std::optional<Published> published;  // the papers' numbers to show beside ours
};

std::string plan_to_json(const Plan& p);
Result<Plan> plan_from_json(const std::string& text);

// A run's result as found on disk: the parsed result and its JSON text (for results.jsonl).
struct LoadedRun {
    RunResult result;
    std::string json;  // one line
    std::string from;  // the file it was read from
    std::vector<CurvePoint> curve;  // RUNDIR/metrics.jsonl (empty when absent)
};

struct ReportFiles {
    std::string markdown, html, jsonl, verdicts;  // paths written
    std::string csv, tex;  // the verdict grid as tables for a paper: verdicts.csv, verdicts.tex
    std::vector<Verdict> verdicts_list;
    std::string summary;     // the one-screen summary
    std::size_t runs_found = 0, runs_planned = 0;
    std::vector<std::string> missing;  // shards missing from a merge, one line each (empty: none)
};

// Writes the report of `plan` with the finished runs (keyed by RunPlan::rundir) into `out`;
// `missing` (from merge_report) is listed at the top of report.md and report.html.
Result<ReportFiles> write_report(const Plan& plan, const std::map<std::string, LoadedRun>& runs,
                                 const std::string& out, const std::vector<std::string>& missing = {});

// Reads DIR/<rundir>/result.json for every run of the plan that has one.
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
std::optional<std::string> dfa_svg(const std::string& dfa_json, std::string* why = nullptr);

}  // namespace ltlkit::neural::verify
