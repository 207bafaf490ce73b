// The report's data files: results.jsonl, verdicts.json, the figures with their CSV data, and the
// one-screen summary.

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
#include <set>
#include <sstream>

#include "automata/lock.hh"
#include "neural/verify/ceilings.hh"
#include "neural/verify/profiles.hh"
#include "neural/verify/report_internal.hh"

namespace ltlkit::neural::verify {

namespace fs = std::filesystem;
using nlohmann::json;

namespace report_detail {

// results.jsonl: the finished runs' result.json, one line each, in plan order.
std::string render_results_jsonl(const Plan& plan, const std::map<std::string, LoadedRun>& runs) {
    std::string jsonl;
    for (const auto& r : plan.runs)
        if (auto it = runs.find(r.rundir); it != runs.end()) jsonl += it->second.json + "\n";
    return jsonl;
}

// verdicts.json: one object per cell.
std::string render_verdicts_json(const ReportData& d) {
    const Plan& plan = d.plan;
    const Grid& grid = d.grid;
    json verdicts = json::array();
    for (std::size_t li = 0; li < plan.languages.size(); ++li)
        for (const auto& c : grid[li]) {
            json v = json::parse(verdict_to_json(c.verdict));
            json all = json::array();
            for (std::size_t i = 0; i < c.runs.size(); ++i)
                if (c.results[i])
                    all.push_back({{"run", c.runs[i]->label()},
                                   {"mean_accuracy", c.results[i]->result.mean_accuracy},
                                   {"adversarial_accuracy", c.results[i]->result.adversarial_accuracy
                                                                ? json(*c.results[i]->result.adversarial_accuracy)
                                                                : json(nullptr)},
                                   {"train_accuracy", c.results[i]->result.train_accuracy},
                                   {"failed_to_fit", c.results[i]->result.failed_to_fit},
                                   {"n_star", c.results[i]->result.n_star},
                                   {"adversarial_same_answer", c.results[i]->result.adversarial_same_answer
                                                                   ? json(*c.results[i]->result.adversarial_same_answer)
                                                                   : json(nullptr)},
                                   {"adversarial_pairs", c.results[i]->result.adversarial_pairs
                                                             ? json(*c.results[i]->result.adversarial_pairs)
                                                             : json(nullptr)},
                                   {"labels", [&] {
                                        const auto& r = c.results[i]->result;
                                        if (r.per_length_labels.empty()) return json(nullptr);
                                        const auto ls = summarize_labels(r.per_length_labels, r.config.evaluation.per_length / 2.0);
                                        return json{{"accepted", ls.accepted_accuracy ? json(*ls.accepted_accuracy) : json(nullptr)},
                                                    {"rejected", ls.rejected_accuracy ? json(*ls.rejected_accuracy) : json(nullptr)},
                                                    {"balanced", ls.balanced_accuracy ? json(*ls.balanced_accuracy) : json(nullptr)}};
                                    }()}});
            v["all_runs"] = all;  // fitted or not, as the papers average them
            v["random_accuracy"] = c.finished ? json{{"mean", c.random_mean}, {"max", c.random_max}, {"sd", c.random_sd}}
                                              : json(nullptr);
            v["adversarial_mean_accuracy_all_runs"] = c.adversarial_mean ? json(*c.adversarial_mean) : json(nullptr);
            v["labels"] = c.label_runs == 0 ? json(nullptr)
                                            : json{{"runs", c.label_runs},
                                                   {"accepted_accuracy", c.accepted_mean ? json(*c.accepted_mean) : json(nullptr)},
                                                   {"rejected_accuracy", c.rejected_mean ? json(*c.rejected_mean) : json(nullptr)},
                                                   {"balanced_accuracy", c.balanced_mean ? json(*c.balanced_mean) : json(nullptr)},
                                                   {"lengths", c.labels.lengths},
                                                   {"lengths_without_accepted", c.labels.lengths_only_rejected},
                                                   {"lengths_without_rejected", c.labels.lengths_only_accepted},
                                                   {"lengths_few_accepted", c.labels.lengths_scarce_accepted},
                                                   {"lengths_few_rejected", c.labels.lengths_scarce_rejected}};
            if (c.finished > 0 && c.label_runs == 0) v["labels_note"] = "not measured (older result.json)";
            v["adversarial"] = c.arch->adversarial_words == 0
                                   ? json(nullptr)
                                   : json{{"words", c.arch->adversarial_words},
                                          {"pairs", c.arch->adversarial_pairs ? c.arch->adversarial_pairs
                                                                              : c.arch->adversarial_words / 2},
                                          {"kind", c.arch->adversarial_kind.empty() ? json(nullptr)
                                                                                    : json(c.arch->adversarial_kind)},
                                          {"forced_pairs", c.arch->adversarial_forced_pairs},
                                          {"note", c.arch->adversarial_note},
                                          {"control", c.verdict.prediction != Prediction::Fails}};
            if (has_pair_outputs(c)) v["pair_outputs"] = pair_outputs_json(c);
            if (plan.published) {
                json pub = json::array();
                for (const auto& cmp : c.published)
                    pub.push_back({{"statistic", cmp.statistic},
                                   {"paper", cmp.paper},
                                   {"ours", c.finished ? json(cmp.ours) : json(nullptr)},
                                   {"difference", c.finished ? json(cmp.ours - cmp.paper) : json(nullptr)},
                                   {"far", c.finished ? json(far_from_paper(cmp)) : json(nullptr)},
                                   {"source", cmp.source}});
                v["published"] = pub;
                if (pub.empty()) v["published_note"] = c.published_note;
            }
            verdicts.push_back(v);
        }

    return verdicts.dump(1) + "\n";
}


Figures render_figures(const ReportData& d) {
    const Plan& plan = d.plan;
    const Grid& grid = d.grid;
    const FigureStyle style = figure_style(plan);
    std::vector<AccuracyPanel> panels;
    std::vector<std::string> language_names;
    std::vector<std::vector<HeatCell>> heat;
    std::string accuracy_csv = "language,architecture,run,failed_to_fit,length,accuracy\n";
    std::string cells_csv = "language,architecture,prediction,verdict,runs,fitted,successes,random_mean,random_sd,"
                            "adversarial_mean,n_star_max,paper_mean\n";
    for (std::size_t li = 0; li < plan.languages.size(); ++li) {
        const auto& lang = plan.languages[li];
        panels.push_back(accuracy_panel(lang, grid[li], plan.base.evaluation.test_min));
        language_names.push_back(lang.name);
        std::vector<HeatCell> row;
        for (const auto& a : plan.archs) {
            HeatCell hc;
            for (const auto& c : grid[li]) {
                if (c.arch->arch != a) continue;
                hc.note = short_prediction(c.verdict.prediction);
                int best = -1;
                for (std::size_t i = 0; i < c.runs.size(); ++i) {
                    if (!c.results[i]) continue;
                    const auto& r = c.results[i]->result;
                    best = std::max(best, r.n_star);
                    for (const auto& [n, acc] : r.per_length_accuracy)
                        accuracy_csv += csv_field(lang.name) + "," + to_string(a) + "," + c.runs[i]->label() + "," +
                                        (r.failed_to_fit ? "1" : "0") + "," + std::to_string(n) + "," +
                                        fmt("%.6g", acc) + "\n";
                }
                if (best >= 0) hc.value = best;
                const Comparison* mean = nullptr;
                for (const auto& cmp : c.published)
                    if (cmp.statistic == "mean") mean = &cmp;
                cells_csv += csv_field(lang.name) + "," + to_string(a) + "," + to_string(c.verdict.prediction) + "," +
                             to_string(c.verdict.verdict) + c.mark_text() + "," +
                             std::to_string(c.finished) + "," + std::to_string(c.verdict.stats.fitted) + "," +
                             std::to_string(c.verdict.stats.successes) + "," +
                             (c.finished ? fmt("%.4f", c.random_mean) : "") + "," +
                             (c.finished ? fmt("%.4f", c.random_sd) : "") + "," +
                             (c.adversarial_mean ? fmt("%.4f", *c.adversarial_mean) : "") + "," +
                             (best >= 0 ? std::to_string(best) : "") + "," + (mean ? fmt("%.1f", mean->paper) : "") +
                             "\n";
            }
            row.push_back(hc);
        }
        heat.push_back(std::move(row));
    }
    Figures f;
    f.accuracy_csv = std::move(accuracy_csv);
    f.cells_csv = std::move(cells_csv);
    f.accuracy_svg = accuracy_panels_svg(panels, style, plan.languages.size() > 4 ? 3 : 2);
    f.nstar_svg = nstar_heatmap_svg(language_names, style, heat);

    return f;
}

// The one-screen summary: prediction→verdict k/n per cell.
std::string render_summary(const ReportData& d) {
    const Plan& plan = d.plan;
    const Grid& grid = d.grid;
    // ---- summary (one screen)
    std::ostringstream s;
    std::size_t w0 = 8;
    for (const auto& l : plan.languages) w0 = std::max(w0, l.name.size());
    w0 = std::min<std::size_t>(w0, 24);
    const std::size_t w = 22;
    auto pad = [](std::string t, std::size_t n) {
        // Pads by code points so that non-ASCII names (Σ) line up.
        std::size_t cps = 0;
        for (unsigned char ch : t) cps += (ch & 0xC0) != 0x80;
        if (cps > n) return t;
        return t + std::string(n - cps, ' ');
    };
    // A mark per evidence kind a person needs to tell apart in the table (evidence_info: the mark
    // and its legend, one definition); the legend lists the kinds whose mark appears, in the table's order.
    auto mark_of = [](const Verdict& v) -> std::string { return evidence_info(v.evidence).mark; };
    std::set<std::string> marks_used;
    s << pad("language", w0) << ' ';
    for (const auto& a : plan.archs) s << pad(to_string(a), w) << ' ';
    s << "\n";
    for (std::size_t li = 0; li < plan.languages.size(); ++li) {
        s << pad(plan.languages[li].name, w0) << ' ';
        for (const auto& a : plan.archs) {
            std::string t = "-";
            for (const auto& c : grid[li])
                if (c.arch->arch == a) {
                    const std::string m = c.verdict.verdict == VerdictKind::Pending ? "" : mark_of(c.verdict);
                    if (!m.empty()) marks_used.insert(m);
                    t = short_prediction(c.verdict.prediction) + "→" + to_string(c.verdict.verdict) + m + " " +
                        std::to_string(c.verdict.stats.successes) + "/" + std::to_string(c.verdict.stats.fitted);
                }
            s << pad(t, w) << ' ';
        }
        s << "\n";
    }
    for (EvidenceKind k : marked_evidence()) {
        const EvidenceInfo& e = evidence_info(k);
        if (marks_used.count(e.mark)) s << e.mark << " " << e.legend << "\n";
    }
    // Why each rule-6 failure with a run that passes the random test is confirmed, and any run
    // that beats its ceiling.
    for (std::size_t li = 0; li < plan.languages.size(); ++li)
        for (const auto& c : grid[li]) {
            const Verdict& v = c.verdict;
            if (v.rule_id == "6" && v.stats.successes > 0 && v.stats.adversarial_accuracy)
                s << plan.languages[li].name << " " << to_string(c.arch->arch) << ": " << v.reason << "\n";
            for (const auto& bug : v.ceiling_violations)
                s << "BUG? " << plan.languages[li].name << " " << to_string(c.arch->arch) << " " << bug.run << ": "
                  << bug.what << "\n";
        }
    return s.str();

}

std::string render_evidence_line(const ReportData& d) {
    std::size_t cells = 0, real = 0, success = 0, by_arch = 0, observed = 0, pending = 0;
    for (const auto& row : d.grid)
        for (const auto& c : row) {
            const Verdict& v = c.verdict;
            if (v.prediction == Prediction::Unknown) continue;  // nothing to confirm
            ++cells;
            if (v.verdict == VerdictKind::Pending) ++pending;
            if (!v.real_evidence()) continue;
            ++real;
            switch (evidence_info(v.evidence).group) {
                case EvidenceGroup::Success: ++success; break;
                case EvidenceGroup::ByArchitecture: ++by_arch; break;
                case EvidenceGroup::Observed: ++observed; break;
                default: break;
            }
        }
    std::string line = "real evidence: " + std::to_string(real) + " of " + std::to_string(cells) +
                       " predicted cells confirmed (" + std::to_string(success) + " recognizers with their controls, " +
                       std::to_string(observed) + " observed failures, " + std::to_string(by_arch) +
                       " failures by the architecture)";
    if (pending) line += ", " + std::to_string(pending) + " pending";
    return line;
}

}  // namespace report_detail

}  // namespace ltlkit::neural::verify
