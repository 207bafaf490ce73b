// report.html: the Markdown report's content with the figures inline and a stylesheet.

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

#include "automata/lock.hh"
#include "neural/verify/ceilings.hh"
#include "neural/verify/profiles.hh"
#include "neural/verify/report_internal.hh"

namespace ltlkit::neural::verify {

namespace fs = std::filesystem;
using nlohmann::json;

namespace report_detail {

// The HTML document's head: title and the inline stylesheet.
void html_head(std::ostream& h) {
    h << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         "<title>ltlkit verification report</title>\n<style>\n"
         "body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;margin:1.5em auto;max-width:1200px;"
         "padding:0 1em;color:#222;line-height:1.35}\n"
         "h1{font-size:1.5em}h2{font-size:1.2em;margin-top:1.8em;border-bottom:1px solid #ccc}\n"
         ".meta,.muted{color:#666;font-size:.9em}\n"
         "table{border-collapse:collapse;margin:.6em 0}\n"
         "th,td{border:1px solid #bbb;padding:.35em .5em;vertical-align:top;font-size:.88em}\n"
         "th{background:#f2f2f2;text-align:left}\n"
         ".grid td{min-width:11em}\n"
         ".v-confirmed{background:#c8e6c9}.v-not_reproduced{background:#ffe0b2}"
         ".v-contradicted{background:#ffcdd2}.v-inconclusive{background:#e0e0e0}.v-evidence{background:#bbdefb}"
         ".v-pending{background:#fff}\n"
         ".v-confirmed.m-at_the_ceiling{background:repeating-linear-gradient(45deg,#c8e6c9,#c8e6c9 6px,#eef7ee 6px,#eef7ee 12px)}\n"
         ".v-inconclusive.m-not_fitted{background:repeating-linear-gradient(45deg,#e0e0e0,#e0e0e0 6px,#f6f6f6 6px,#f6f6f6 12px)}\n"
         ".bug{color:#b00020;font-weight:600}.far{color:#b00020}\n"
         ".paper{border-top:1px dotted #999;margin-top:.2em;padding-top:.2em}\n"
         ".verdict{font-weight:600}.pred{font-style:italic}\n"
         ".legend span{display:inline-block;padding:.1em .6em;margin-right:.4em;border:1px solid #bbb}\n"
         ".dfa svg{max-width:100%;height:auto}\n"
         ".fig svg{max-width:100%;height:auto}.curves svg{margin:0 .4em .4em 0}\n"
         "code{background:#f4f4f4;padding:0 .25em}\n"
         "</style>\n</head>\n<body>\n";
}

// The verdict grid (language x architecture) and its legend.
void html_verdict_grid(std::ostream& h, const ReportData& d) {
    const Plan& plan = d.plan;
    const Grid& grid = d.grid;
    h << "<h2>Predicted vs observed</h2>\n";
    h << "<p class=\"muted\">Each cell: the verdict (docs/PROTOCOL.md rules) and the prediction; successes k/n among "
         "the runs that fit the training lengths (Clopper–Pearson 95% interval); every finished run's mean test "
         "accuracy (* = failed to fit, listed but not judged); the mean over those runs on random test words and on "
         "the adversarial set; the best N* over the runs"
      << (plan.published ? "; the published number beside ours (difference in points)" : "")
      << "; per label, the accuracy on accepted and rejected words and the label-balanced one; for k-local cells "
         "the ceiling on the training and test distributions; the adversarial set, forced or informative. Striped "
         "green: confirmed at the ceiling (rule 1a); striped grey: not fitted (rule 1b); FAR in red: more than 5 "
         "points from the published number.</p>\n";
    h << "<table id=\"verdict-grid\" class=\"grid\">\n<thead><tr><th>language</th>";
    for (const auto& a : plan.archs) h << "<th>" << html_escape(to_string(a)) << "</th>";
    h << "</tr></thead>\n<tbody>\n";
    for (std::size_t li = 0; li < plan.languages.size(); ++li) {
        const auto& lang = plan.languages[li];
        h << "<tr><th><a href=\"#lang-" << html_escape(lang.dir) << "\">" << html_escape(lang.name)
          << "</a><div class=\"muted\"><code>" << html_escape(lang.text) << "</code></div></th>";
        for (const auto& a : plan.archs) {
            const Cell* c = nullptr;
            for (const auto& cc : grid[li])
                if (cc.arch->arch == a) c = &cc;
            if (!c) {
                h << "<td></td>";
                continue;
            }
            const auto& v = c->verdict;
            const auto& s = v.stats;
            h << "<td class=\"cell v-" << to_string(v.verdict) << (v.mark.empty() ? "" : " m-" + v.mark) << "\" data-verdict=\""
              << to_string(v.verdict) << "\" title=\"" << html_escape(v.reason) << "\"><div class=\"verdict\">"
              << to_string(v.verdict)
              << c->mark_text() << "</div>"
              << "<div class=\"pred\">predicted: " << to_string(v.prediction) << "</div>"
              << (v.verdict == VerdictKind::Pending ? std::string()
                                                     : "<div class=\"evidence\">evidence: " +
                                                           html_escape(evidence_info(v.evidence).phrase) + "</div>")
              << "<div>" << html_escape(successes_line(s)) << "</div>"
              << "<div>runs: " << html_escape(runs_text(*c)) << "</div>"
              << "<div>random " << (c->finished ? pct(c->random_mean) : std::string("–")) << " · adversarial "
              << pct_opt(c->adversarial_mean) << "</div>"
              << "<div>N* " << (c->finished ? std::to_string(c->n_star_best) : std::string("–")) << "</div>";
            if (c->random_hides_failure())
                h << "<div class=\"muted\">random test ≥ 99%: the failure can only show on the adversarial set"
                  << (c->adversarial_mean ? (*c->adversarial_mean < 0.99 ? ", and it does" : ", and it did not")
                                          : ", and there is none")
                  << "</div>";
            for (const std::string& line : {labels_text(*c), ceiling_text(*c), adversarial_text(*c->arch)})
                if (!line.empty()) h << "<div class=\"muted\">" << html_escape(line) << "</div>";
            for (const auto& bug : v.ceiling_violations)
                h << "<div class=\"bug\">BUG: " << html_escape(bug.run) << " beats its ceiling: " << html_escape(bug.what)
                  << "</div>";
            if (plan.published)
                h << "<div class=\"paper" << (std::any_of(c->published.begin(), c->published.end(), far_from_paper) && c->finished ? " far" : "")
                  << "\">" << html_escape(comparison_text(*c)) << "</div>";
            h << "</td>";
        }
        h << "</tr>\n";
    }
    h << "</tbody>\n</table>\n";
    h << "<p class=\"legend\"><span class=\"v-confirmed\">confirmed</span><span class=\"v-confirmed m-at_the_ceiling\">confirmed "
         "(at the ceiling: no run fit, and the ceiling says none can; rule 1a)</span><span class=\"v-inconclusive "
         "m-not_fitted\">inconclusive (not fitted: a fit was possible or the ceiling is unknown; rule 1b)</span><span "
         "class=\"v-not_reproduced\">not "
         "reproduced</span><span class=\"v-contradicted\">contradicted</span><span "
         "class=\"v-inconclusive\">inconclusive</span><span class=\"v-evidence\">evidence</span><span "
         "class=\"v-pending\">pending (no run finished yet)</span></p>\n";
    h << "<p>" << html_escape(render_evidence_line(d)) << "</p>\n";

}

// Ours beside the published numbers (only when the plan has them).
void html_published(std::ostream& h, const ReportData& d) {
    const Plan& plan = d.plan;
    if (plan.published) {
        h << "<h2>Ours vs published</h2>\n<p class=\"muted\">Mean accuracy (%) on random test words over every "
             "finished run, ours / published (difference in points); n.p.: no published number. Published numbers: "
          << html_escape(plan.published->file) << ". " << html_escape(like_for_like_text(plan))
          << "</p>\n<table id=\"published\"><thead><tr><th>language</th>";
        for (const auto& a : plan.archs) h << "<th>" << html_escape(to_string(a)) << "</th>";
        h << "</tr></thead><tbody>\n" << comparison_rows(d, true) << "</tbody></table>\n";
    }
}

// One language's section: its input, DFA, classes, and per architecture the prediction, the
// verdict, the training curves and every run.
void html_language(std::ostream& h, const ReportData& d, std::size_t li) {
    const Plan& plan = d.plan;
    const Grid& grid = d.grid;
    const auto& lang = plan.languages[li];
    h << "<h2 id=\"lang-" << html_escape(lang.dir) << "\">" << html_escape(lang.name) << "</h2>\n";
    h << "<p>Input (" << html_escape(lang.kind) << "): <code>" << html_escape(lang.text) << "</code> over {";
    for (std::size_t i = 0; i < lang.alphabet.size(); ++i) h << (i ? ", " : "") << html_escape(lang.alphabet[i]);
    h << "}. Minimal DFA: " << lang.states << " states"
      << (lang.fragment ? "; fragment " + html_escape(*lang.fragment) : "") << ".</p>\n";
    std::string yes, no, undecided;
    for (const auto& [id, m] : lang.classes) {
        std::string& t = !m ? undecided : *m ? yes : no;
        t += (t.empty() ? "" : ", ") + id;
    }
    h << "<p>Classes: <b>" << html_escape(yes.empty() ? "none" : yes) << "</b>; not: "
      << html_escape(no.empty() ? "none" : no) << (undecided.empty() ? "" : "; undecided: " + html_escape(undecided))
      << ".</p>\n";
    std::string why;
    auto svg = lang.dfa ? dfa_svg(*lang.dfa, &why) : std::nullopt;
    if (svg)
        h << "<div class=\"dfa\">" << *svg << "</div>\n";
    else
        h << "<p class=\"muted\">DFA picture unavailable: " << html_escape(why.empty() ? "no DFA" : why)
          << ".</p>\n";
    h << "<h3>Accuracy vs length</h3>\n<div class=\"fig\">"
      << accuracy_panels_svg({accuracy_panel(lang, grid[li], plan.base.evaluation.test_min)}, figure_style(plan), 1) << "</div>\n";
    h << "<h3>Training curves</h3>\n<div class=\"curves\">";
    for (const auto& c : grid[li])
        for (std::size_t i = 0; i < c.runs.size(); ++i)
            if (c.results[i])
                h << training_curve_svg(to_string(c.arch->arch) + " " + c.runs[i]->label() +
                                            (c.results[i]->result.failed_to_fit ? " (failed to fit)" : ""),
                                        c.results[i]->curve);
    h << "</div>\n";
    h << "<table class=\"runs\"><thead><tr><th>arch</th><th>prediction</th><th>verdict</th><th>run</th>"
         "<th>status</th><th>mean acc</th><th>min bin</th><th>N*</th><th>adversarial</th><th>train acc</th>"
         "<th>wall</th><th>tokens/s train · eval</th></tr></thead><tbody>\n";
    for (const auto& c : grid[li]) {
        const std::size_t n = std::max<std::size_t>(1, c.runs.size());
        for (std::size_t i = 0; i < n; ++i) {
            h << "<tr>";
            if (i == 0) {
                h << "<td rowspan=\"" << n << "\">" << html_escape(to_string(c.arch->arch)) << "</td><td rowspan=\"" << n
                  << "\">" << to_string(c.arch->prediction) << "<div class=\"muted\">" << html_escape(c.arch->reason)
                  << "</div>";
                if (!c.arch->witness.empty())
                    h << "<div class=\"muted\">witness: " << html_escape(c.arch->witness) << "</div>";
                h << "</td><td rowspan=\"" << n << "\" class=\"v-" << to_string(c.verdict.verdict) << "\">"
                  << to_string(c.verdict.verdict) << "<div class=\"muted\">" << html_escape(c.verdict.reason) << "</div></td>";
            }
            if (c.runs.empty()) {
                h << "<td colspan=\"9\">no runs</td></tr>\n";
                continue;
            }
            h << "<td>" << html_escape(c.runs[i]->label()) << "</td>";
            const LoadedRun* lr = c.results[i];
            if (!lr) {
                h << "<td colspan=\"8\" class=\"muted\">not finished</td></tr>\n";
                continue;
            }
            const auto& r = lr->result;
            h << "<td>" << (r.failed_to_fit ? "failed to fit" : r.success ? "success" : "no success") << "</td><td>"
              << pct(r.mean_accuracy) << "</td><td>" << pct(r.min_bin_accuracy) << "</td><td>" << r.n_star
              << "</td><td>" << pct_opt(r.adversarial_accuracy) << "</td><td>" << pct(r.train_accuracy)
              << "</td><td>" << fmt("%.0f", r.wall_seconds) << " s</td><td class=\"timing\">" << fmt("%.0f", r.tokens_per_second)
              << " · " << fmt("%.0f", r.eval_tokens_per_second) << "</td></tr>\n";
        }
    }
    h << "</tbody></table>\n";
    if (std::none_of(grid[li].begin(), grid[li].end(), has_pair_outputs)) return;
    h << "<h3>Pair outputs</h3>\n<p class=\"muted\">RUNDIR/result-pairs.tsv, or result-adversarial.tsv of an older "
         "run; a pair is correct when both words are answered right; word (length, expected→answer).</p>\n<ul>\n";
    for (const auto& c : grid[li]) {
        if (!has_pair_outputs(c)) continue;
        h << "<li><b>" << html_escape(to_string(c.arch->arch)) << "</b><ul>";
        for (const auto& line : pair_lines(c, lang)) h << "<li>" << html_escape(line) << "</li>";
        h << "</ul></li>\n";
    }
    h << "</ul>\n";
}

std::string render_html(const ReportData& d, const Figures& figures) {
    std::ostringstream h;
    html_head(h);
    h << "<h1>ltlkit verification report</h1>\n";
    h << "<p class=\"meta\">" << html_escape(d.setup) << ". Runs finished: " << d.runs_found << " of "
      << d.runs_planned << ". Generated " << d.when << ".</p>\n";
    for (const auto& m : d.missing) h << "<p class=\"meta\"><b>Missing:</b> " << html_escape(m) << "</p>\n";
    html_verdict_grid(h, d);
    html_published(h, d);
    h << "<h2>Figures</h2>\n<div class=\"fig\">" << figures.accuracy_svg << "</div>\n<div class=\"fig\">" << figures.nstar_svg
      << "</div>\n<p class=\"muted\">As files: figures/accuracy.svg, figures/nstar.svg; data: figures/accuracy.csv, "
         "figures/cells.csv.</p>\n";
    for (std::size_t li = 0; li < d.plan.languages.size(); ++li) html_language(h, d, li);
    h << "<p class=\"muted\">Files: report.md, verdicts.json, results.jsonl (one line per run), plan.json.</p>\n";
    h << "</body>\n</html>\n";
    return h.str();
}

}  // namespace report_detail

}  // namespace ltlkit::neural::verify
