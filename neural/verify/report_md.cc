// report.md: the verdict grid, ours beside the published numbers and one section per language.

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

// Whether our test words are the paper's kind (docs/PROTOCOL.md "Evaluation").
std::string like_for_like_text(const Plan& plan) {
    const std::string ours = to_string(plan.base.evaluation.test_distribution);
    const std::string& theirs = plan.published->test_distribution;
    if (theirs.empty())
        return "The published file does not say which test words the paper drew; ours are " + ours + ".";
    if (theirs == ours) return "Our test words are drawn as the paper's (" + ours + ").";
    return "NOT LIKE FOR LIKE: the paper's test words are " + theirs + ", ours " + ours +
           " (rerun with --test-distribution " + theirs + " to compare).";
}

// The comparison with the published numbers: ours / paper (difference), mean accuracy; table rows
// in HTML or Markdown.
std::string comparison_rows(const ReportData& d, bool html) {
    const Plan& plan = d.plan;
    const Grid& grid = d.grid;
    std::ostringstream o;
    for (std::size_t li = 0; li < plan.languages.size(); ++li) {
        o << (html ? "<tr><th>" + html_escape(plan.languages[li].name) + "</th>"
                   : "| " + md_escape(plan.languages[li].name) + " |");
        for (const auto& a : plan.archs) {
            std::string t = "–";
            for (const auto& c : grid[li]) {
                if (c.arch->arch != a) continue;
                const Comparison* mean = nullptr;
                for (const auto& cmp : c.published)
                    if (cmp.statistic == "mean") mean = &cmp;
                const std::string ours = c.finished ? fmt("%.1f", 100 * c.random_mean) : "–";
                if (!mean)
                    t = ours + " / n.p.";
                else
                    t = ours + " / " + fmt("%.1f", mean->paper) +
                        (c.finished ? " (" + fmt("%+.1f", 100 * c.random_mean - mean->paper) + ")" +
                                          (far_from_paper(*mean) ? " FAR" : "")
                                    : "");
            }
            o << (html ? "<td>" + html_escape(t) + "</td>" : " " + t + " |");
        }
        o << (html ? "</tr>\n" : "\n");
    }
    return o.str();
}

// The verdict grid (language x architecture) and its legend.
void md_verdict_grid(std::ostream& md, const ReportData& d) {
    const Plan& plan = d.plan;
    const Grid& grid = d.grid;
    md << "## Predicted vs observed\n\n";
    md << "Each cell: verdict and prediction; successes k/n among the runs that fit the training lengths "
          "(Clopper–Pearson 95% interval); every finished run's mean test accuracy (`*`: failed to fit, not "
          "judged); the mean over those runs on random test words and on the adversarial set; the best N*"
       << (plan.published ? "; and the published number beside ours (difference in points; FAR: more than 5 points "
                            "apart)"
                          : "")
       << "; per label, the accuracy on accepted and on rejected words and the label-balanced accuracy; for "
          "k-local cells the ceiling (the exact best accuracy any model of this depth can reach) on the training "
          "and test distributions; the adversarial set's size and whether it is *forced* (every pair maps to one "
          "vector at any weights) or *informative*. "
       << "*confirmed (at the ceiling)* (rule 1a): predicted to fail, no run fit the training lengths and the "
          "ceiling says none can; *inconclusive (not fitted)* (rule 1b): no run fit, but a fit was possible or the "
          "ceiling is unknown; a predicted recognizer is confirmed (rule 3) only by a run that also passes its control "
          "pairs; *inconclusive (flat fit)* (rule 7): predicted to fail, and the fitted runs are below 100% on their "
          "training words and no worse on longer ones; *inconclusive (untested)* (rule 7): a run passes the random "
          "test and there is no adversarial set (docs/PROTOCOL.md).\n\n";
    md << "| language |";
    for (const auto& a : plan.archs) md << ' ' << md_escape(to_string(a)) << " |";
    md << "\n|---|";
    for (std::size_t i = 0; i < plan.archs.size(); ++i) md << "---|";
    md << "\n";
    for (std::size_t li = 0; li < plan.languages.size(); ++li) {
        md << "| " << md_escape(plan.languages[li].name) << " |";
        for (const auto& a : plan.archs) {
            const Cell* c = nullptr;
            for (const auto& cc : grid[li])
                if (cc.arch->arch == a) c = &cc;
            if (!c) {
                md << " – |";
                continue;
            }
            const auto& v = c->verdict;
            md << ' ' << verdict_symbol(v.verdict) << " **" << to_string(v.verdict) << "**" << c->mark_text()
               << " (predicted " << to_string(v.prediction) << ")<br>"
               << (v.verdict == VerdictKind::Pending ? std::string()
                                                      : "evidence: " + md_escape(evidence_info(v.evidence).phrase) + "<br>")
               << v.stats.successes << '/' << v.stats.fitted
               << " succeed [" << fmt("%.2f", v.stats.success_interval.first) << ", "
               << fmt("%.2f", v.stats.success_interval.second) << "]<br>runs " << runs_text(*c) << "<br>random "
               << (c->finished ? pct(c->random_mean) : std::string("–")) << " · adv " << pct_opt(c->adversarial_mean)
               << " · N* " << (c->finished ? std::to_string(c->n_star_best) : std::string("–"));
            for (const std::string& line : {labels_text(*c), ceiling_text(*c), adversarial_text(*c->arch)})
                if (!line.empty()) md << "<br>" << md_escape(line);
            for (const auto& bug : v.ceiling_violations)
                md << "<br>**BUG: " << md_escape(bug.run) << " beats its ceiling**: " << md_escape(bug.what);
            if (plan.published) md << "<br>" << md_escape(comparison_text(*c));
            md << " |";
        }
        md << "\n";
    }
    md << "\n✅ confirmed (rule 6: fitted runs fail to generalize or to pass the adversarial set; rule 3: a "
          "predicted recognizer succeeds) · ✅ confirmed (at the ceiling) (rule 1a) · 🟧 not reproduced · ❌ "
          "contradicted · ⬜ inconclusive (not fitted: rules 1, 1b) · 🔷 evidence (no prediction) · ⏳ pending (no "
          "run finished yet)\n\n"
       << render_evidence_line(d) << " (docs/PROTOCOL.md \"Verdict\": only confirmed cells count; a failure is "
          "observed when a fitted run fails longer words, informative pairs or its family past the test lengths, by the architecture when no model of "
          "its depth can fit or it fails forced pairs only)\n\n";
}

// Ours beside the published numbers (only when the plan has them).
void md_published(std::ostream& md, const ReportData& d) {
    const Plan& plan = d.plan;
    if (plan.published) {
        md << "## Ours vs published\n\nMean accuracy (%) on random test words over every finished run, ours / "
              "published (difference in points); n.p.: no published number. Published numbers: "
           << md_escape(plan.published->file) << ". " << md_escape(like_for_like_text(plan)) << "\n\n| language |";
        for (const auto& a : plan.archs) md << ' ' << md_escape(to_string(a)) << " |";
        md << "\n|---|";
        for (std::size_t i = 0; i < plan.archs.size(); ++i) md << "---|";
        md << "\n" << comparison_rows(d, false) << "\n";
    }
}

// One language's section: its input, DFA and classes, and per architecture the prediction, the
// verdict and every run.
void md_language(std::ostream& md, const ReportData& d, std::size_t li) {
    const Plan& plan = d.plan;
    const Grid& grid = d.grid;
    const auto& lang = plan.languages[li];
    md << "## " << md_escape(lang.name) << "\n\n";
    md << "- input (" << lang.kind << "): `" << lang.text << "` over {" << [&] {
        std::string s;
        for (const auto& a : lang.alphabet) s += (s.empty() ? "" : ", ") + a;
        return s;
    }() << "}\n";
    md << "- minimal DFA: " << lang.states << " states" << (lang.fragment ? "; fragment " + *lang.fragment : "")
       << "\n";
    std::string yes, no;
    for (const auto& [id, m] : lang.classes) {
        if (m && *m) yes += (yes.empty() ? "" : ", ") + id;
        if (m && !*m) no += (no.empty() ? "" : ", ") + id;
    }
    md << "- classes: " << (yes.empty() ? "none" : yes) << "; not: " << (no.empty() ? "none" : no) << "\n\n";
    md << "| arch | prediction | verdict | why | runs |\n|---|---|---|---|---|\n";
    for (const auto& c : grid[li]) {
        md << "| " << to_string(c.arch->arch) << " | " << to_string(c.arch->prediction) << " — " << md_escape(c.arch->reason)
           << (c.arch->witness.empty() ? "" : " (witness " + md_escape(c.arch->witness) + ")") << " | "
           << verdict_symbol(c.verdict.verdict) << ' ' << to_string(c.verdict.verdict) << " | " << md_escape(c.verdict.reason)
           << " | ";
        for (std::size_t i = 0; i < c.runs.size(); ++i) {
            if (i) md << "<br>";
            md << c.runs[i]->label() << ": ";
            if (!c.results[i]) {
                md << "not finished";
                continue;
            }
            const auto& r = c.results[i]->result;
            md << (r.failed_to_fit ? "failed to fit" : r.success ? "success" : "no success") << ", mean "
               << pct(r.mean_accuracy) << ", N* " << r.n_star << ", adv " << pct_opt(r.adversarial_accuracy)
               << ", " << fmt("%.0f", r.wall_seconds) << " s";
        }
        md << " |\n";
    }
    md << "\n";
    if (std::none_of(grid[li].begin(), grid[li].end(), has_pair_outputs)) return;
    md << "Pair outputs (RUNDIR/result-pairs.tsv, or result-adversarial.tsv of an older run; a pair is correct "
          "when both words are answered right; word (length, expected→answer)):\n\n";
    for (const auto& c : grid[li]) {
        if (!has_pair_outputs(c)) continue;
        md << "- " << md_escape(to_string(c.arch->arch)) << ":";
        for (const auto& line : pair_lines(c, lang)) md << "\n  - " << md_escape(line);
        md << "\n";
    }
    md << "\n";
}

std::string render_markdown(const ReportData& d) {
    std::ostringstream md;
    md << "# ltlkit verification report\n\n";
    md << d.setup << ". Runs finished: " << d.runs_found << " of " << d.runs_planned << ". Generated "
       << d.when << ".\n\n";
    for (const auto& m : d.missing) md << "- **Missing:** " << m << "\n";
    if (!d.missing.empty()) md << "\n";
    md_verdict_grid(md, d);
    md_published(md, d);
    md << "## Figures\n\n![Accuracy vs test length, one panel per language](figures/accuracy.svg)\n\n"
          "Accuracy on random test words, mean over each architecture's finished runs and over bins of "
       << kFigureBin << " lengths; the training lengths are shaded.\n\n"
          "![N*: longest length up to which every tested length is exact](figures/nstar.svg)\n\n"
          "Data: `figures/accuracy.csv` (per run and length), `figures/cells.csv` (per cell).\n\n";
    for (std::size_t li = 0; li < d.plan.languages.size(); ++li) md_language(md, d, li);
    return md.str();
}

}  // namespace report_detail

}  // namespace ltlkit::neural::verify
