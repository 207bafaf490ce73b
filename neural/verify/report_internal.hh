// What the report's files share (report_cells.cc, report_json.cc, report_md.cc, report_html.cc,
// report.cc): the cells of the verdict grid, the data every renderer reads, and the text helpers.
// Internal to neural/verify; the public interface is report.hh.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "neural/verify/ceilings.hh"
#include "neural/verify/figures.hh"
#include "neural/verify/report.hh"

namespace ltlkit::neural::verify::report_detail {

// A published number beside ours (percentages).
struct Comparison {
    std::string statistic, source;
    double paper = 0, ours = 0;
};

// One cell of the verdict grid: an architecture on a language, its runs and their summary.
struct Cell {
    const ArchPlan* arch = nullptr;
    Verdict verdict;
    std::vector<const RunPlan*> runs;
    std::vector<const LoadedRun*> results;  // parallel to runs; null when not finished
    // Over every finished run, fitted or not (the papers average all their runs): mean test
    // accuracy (random test words), its max and sample sd, and the adversarial accuracy.
    int finished = 0;
    int n_star_best = 0;  // over every finished run, fitted or not
    double random_mean = 0, random_max = 0, random_sd = 0;
    std::optional<double> adversarial_mean;
    std::vector<Comparison> published;
    std::string published_note;  // why there is no published number, when there is none
    // Per label, mean over the finished runs that measured it (older result.json files did not):
    // accuracy on accepted and on rejected words, and the label-balanced accuracy.
    int label_runs = 0;
    std::optional<double> accepted_mean, rejected_mean, balanced_mean;
    LabelSummary labels;  // of the first run that measured them (the lengths are the same in every run)
    // " (at the ceiling)" / " (not fitted)" after the verdict (rules 1a and 1b), or "".
    std::string mark_text() const {
        if (verdict.mark == "at_the_ceiling") return " (at the ceiling)";
        if (verdict.mark == "not_fitted") return " (not fitted)";
        if (verdict.mark == "flat_fit") return " (flat fit)";
        if (verdict.mark == "untested") return " (untested)";
        return "";
    }
    // "fails" predicted, the random test looks perfect: the failure can show only adversarially.
    bool random_hides_failure() const {
        return verdict.prediction == Prediction::Fails && finished > 0 && random_mean >= 0.99;
    }
};

using Grid = std::vector<std::vector<Cell>>;  // language x arch, in plan order

// What every renderer reads: the plan, the cells, the counts, the setup line and the date.
struct ReportData {
    const Plan& plan;
    Grid grid;
    std::size_t runs_found = 0, runs_planned = 0;
    std::string setup, when;
    std::vector<std::string> missing;  // shards missing from a merge (merge_report), one line each
};

// The figures (SVG) and their data (CSV), written beside the report.
struct Figures {
    std::string accuracy_svg, nstar_svg, accuracy_csv, cells_csv;
};

// Lengths averaged into one point of a figure line (the raw per-length values are in accuracy.csv).
constexpr int kFigureBin = 20;

// ---- text helpers (report_cells.cc)
std::string fmt(const char* f, double x);
std::string pct(double x);
std::string pct_opt(const std::optional<double>& x);
std::string html_escape(const std::string& s);
std::string md_escape(const std::string& s);
std::string now_utc();
const char* verdict_symbol(VerdictKind v);
std::string short_prediction(Prediction e);
bool far_from_paper(const Comparison& cmp);
std::string comparison_text(const Cell& c);
std::string runs_text(const Cell& c);
std::string successes_line(const RunStats& s);
std::string labels_text(const Cell& c);
std::string ceiling_text(const Cell& c);
std::string adversarial_text(const ArchPlan& a);
AccuracyPanel accuracy_panel(const LanguagePlan& lang, const std::vector<Cell>& cells, int test_min);
FigureStyle figure_style(const Plan& plan);
std::string csv_field(const std::string& s);

// ---- the pair outputs (report_pairs.cc)
// Whether some finished run of the cell has a pair-outputs file.
bool has_pair_outputs(const Cell& c);
// One line per pair kind: per run, pairs answered right / pairs (share), and the first failing
// pairs of the first run that has some, with their words ("no pairs evaluated" when none).
std::vector<std::string> pair_lines(const Cell& c, const LanguagePlan& lang);
// verdicts.json's "pair_outputs": per run with a file, {"run", "file", "kinds": {kind: {"pairs", "correct"}}}.
nlohmann::json pair_outputs_json(const Cell& c);

// ---- the data (report_cells.cc)
// Ceilings through `cache` when given (ceilings.hh).
Grid build_grid(const Plan& plan, const std::map<std::string, LoadedRun>& runs, CeilingCache* cache = nullptr);
std::string setup_text(const Plan& plan);

// ---- renderers
std::string render_results_jsonl(const Plan& plan, const std::map<std::string, LoadedRun>& runs);  // report_json.cc
std::string render_verdicts_json(const ReportData& d);                                               // report_json.cc
Figures render_figures(const ReportData& d);                                                         // report_json.cc
std::string render_summary(const ReportData& d);                                                     // report_json.cc
// "real evidence: R of N predicted cells confirmed (S recognizers with their controls, O observed
// failures, A failures by the architecture)": the last line verify and report print.
std::string render_evidence_line(const ReportData& d);                                               // report_json.cc
std::string like_for_like_text(const Plan& plan);                                                    // report_md.cc
std::string comparison_rows(const ReportData& d, bool html);                                         // report_md.cc
std::string render_markdown(const ReportData& d);                                                    // report_md.cc
std::string render_html(const ReportData& d, const Figures& figures);                                // report_html.cc
std::string render_verdicts_csv(const ReportData& d);                                                // report_tables.cc
std::string render_verdicts_tex(const ReportData& d);                                                // report_tables.cc
// Text for LaTeX: specials escaped, Σ, ε, ≤, →, * (a Kleene star) and the like in math mode.
std::string latex_text(const std::string& s);                                                        // report_tables.cc

}  // namespace ltlkit::neural::verify::report_detail
