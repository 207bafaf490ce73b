// The report's data: the cells of the verdict grid (language x architecture) with their summaries,
// the text helpers every renderer shares, and the DFA picture.

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

#include "automata/dot.hh"
#include "automata/lock.hh"
#include "neural/verify/ceilings.hh"
#include "neural/verify/profiles.hh"
#include "neural/verify/report_internal.hh"

namespace ltlkit::neural::verify {

namespace fs = std::filesystem;
using nlohmann::json;

// ---------------------------------------------------------------- helpers

namespace report_detail {

std::string fmt(const char* f, double x) {
    char buf[64];
    std::snprintf(buf, sizeof buf, f, x);
    return buf;
}
std::string pct(double x) { return fmt("%.1f", 100 * x) + "%"; }
std::string pct_opt(const std::optional<double>& x) { return x ? pct(*x) : "–"; }

std::string html_escape(const std::string& s) { return xml_escape(s); }

std::string md_escape(const std::string& s) {
    std::string o;
    for (char c : s) {
        if (c == '|' || c == '*' || c == '_' || c == '`') o += '\\';
        o += c;
    }
    return o;
}

std::string now_utc() {
    std::time_t t = std::time(nullptr);
    char buf[64];
    std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M UTC", std::gmtime(&t));
    return buf;
}

const char* verdict_symbol(VerdictKind v) {
    if (v == VerdictKind::Confirmed) return "✅";
    if (v == VerdictKind::NotReproduced) return "🟧";
    if (v == VerdictKind::Contradicted) return "❌";
    if (v == VerdictKind::Evidence) return "🔷";
    if (v == VerdictKind::Pending) return "⏳";
    return "⬜";
}

std::string short_prediction(Prediction e) {
    switch (e) {
        case Prediction::Recognizes: return "rec";
        case Prediction::Fails: return "fails";
        default: return "?";
    }
}



void summarize_cell(Cell& c, const LanguagePlan& lang, const std::optional<Published>& published) {
    std::vector<double> acc, adv;
    double sums[3] = {0, 0, 0};
    int counts[3] = {0, 0, 0};
    for (const auto* r : c.results)
        if (r) {
            c.n_star_best = std::max(c.n_star_best, r->result.n_star);
            acc.push_back(r->result.mean_accuracy);
            if (r->result.adversarial_accuracy) adv.push_back(*r->result.adversarial_accuracy);
            if (r->result.per_length_labels.empty()) continue;
            const LabelSummary ls =
                summarize_labels(r->result.per_length_labels, r->result.config.evaluation.per_length / 2.0);
            if (c.label_runs++ == 0) c.labels = ls;
            for (const auto& [i, x] : {std::pair{0, ls.accepted_accuracy}, {1, ls.rejected_accuracy}, {2, ls.balanced_accuracy}})
                if (x) sums[i] += *x, ++counts[i];
        }
    if (counts[0]) c.accepted_mean = sums[0] / counts[0];
    if (counts[1]) c.rejected_mean = sums[1] / counts[1];
    if (counts[2]) c.balanced_mean = sums[2] / counts[2];
    c.finished = static_cast<int>(acc.size());
    if (!acc.empty()) {
        double sum = 0;
        for (double a : acc) sum += a, c.random_max = std::max(c.random_max, a);
        c.random_mean = sum / static_cast<double>(acc.size());
        double ss = 0;
        for (double a : acc) ss += (a - c.random_mean) * (a - c.random_mean);
        c.random_sd = acc.size() > 1 ? std::sqrt(ss / static_cast<double>(acc.size() - 1)) : 0;
    }
    if (!adv.empty()) {
        double sum = 0;
        for (double a : adv) sum += a;
        c.adversarial_mean = sum / static_cast<double>(adv.size());
    }
    if (!published) return;
    if (!published->has_language(lang.name)) {
        c.published_note = "no published number for this language";
        return;
    }
    if (!published->has_arch(to_string(c.arch->arch))) {
        c.published_note = "no published number for this architecture";
        return;
    }
    for (const auto& stat : published_statistics()) {
        const auto* v = published->find(lang.name, to_string(c.arch->arch), stat);
        if (!v) continue;
        const double ours = 100 * (stat == "mean" ? c.random_mean : stat == "max" ? c.random_max : c.random_sd);
        c.published.push_back({stat, v->source, v->value, ours});
    }
    if (c.published.empty()) c.published_note = "no published number for this cell";
}

// A mean or max more than this many points from the published one is marked FAR, so that it does
// not read like one that agrees (the sd is not marked).
constexpr double kFarPoints = 5.0;
bool far_from_paper(const Comparison& cmp) {
    return cmp.statistic != "sd" && std::fabs(cmp.ours - cmp.paper) > kFarPoints;
}

// "ours 55.1 · paper 58.4 (−3.3)" for each published statistic, or the note.
std::string comparison_text(const Cell& c) {
    if (c.published.empty()) return c.published_note;
    std::string out;
    for (const auto& cmp : c.published) {
        if (!out.empty()) out += "; ";
        char buf[160];
        if (c.finished == 0)
            std::snprintf(buf, sizeof buf, "%s: ours –, paper %.1f", cmp.statistic.c_str(), cmp.paper);
        else
            std::snprintf(buf, sizeof buf, "%s: ours %.1f, paper %.1f (%+.1f)%s", cmp.statistic.c_str(), cmp.ours,
                          cmp.paper, cmp.ours - cmp.paper, far_from_paper(cmp) ? " FAR" : "");
        out += buf;
    }
    return out;
}

// Every finished run's mean accuracy, fitted or not: "56.0%*, 81.2%" (* = failed to fit).
std::string runs_text(const Cell& c) {
    std::string out;
    for (const auto* r : c.results) {
        if (!r) continue;
        if (!out.empty()) out += ", ";
        out += fmt("%.1f", 100 * r->result.mean_accuracy) + "%" + (r->result.failed_to_fit ? "*" : "");
    }
    return out.empty() ? "no finished run" : out;
}

std::string successes_line(const RunStats& s) {
    return std::to_string(s.successes) + "/" + std::to_string(s.fitted) + " succeed (95% CI " +
           fmt("%.2f", s.success_interval.first) + "–" + fmt("%.2f", s.success_interval.second) + ")";
}

// "accepted 100.0% · rejected 88.0% · balanced 94.0%" over the runs that measured them, with the
// lengths where one label is scarce or missing; "per label: not measured" for older results.
std::string labels_text(const Cell& c) {
    if (c.finished == 0) return "";
    if (c.label_runs == 0) return "per label: not measured (result.json older than per-label accounting)";
    std::string t = "accepted " + pct_opt(c.accepted_mean) + " · rejected " + pct_opt(c.rejected_mean) +
                    " · balanced " + pct_opt(c.balanced_mean);
    if (c.label_runs < c.finished) t += " (" + std::to_string(c.label_runs) + " of " + std::to_string(c.finished) + " runs)";
    const LabelSummary& l = c.labels;
    std::string few;
    auto add = [&](int n, const char* what) {
        if (n > 0) few += (few.empty() ? "" : ", ") + std::to_string(n) + " " + what;
    };
    add(l.lengths_only_rejected, "with no accepted word");
    add(l.lengths_only_accepted, "with no rejected word");
    add(l.lengths_scarce_accepted, "with few accepted words");
    add(l.lengths_scarce_rejected, "with few rejected words");
    if (!few.empty()) t += "; of " + std::to_string(l.lengths) + " test lengths: " + few;
    return t;
}

// "ceiling train 82.7% · test 99.7%" for a cell whose ceiling is known, the reason otherwise
// (empty for an architecture that has none: global, hybrid, LSTM).
std::string ceiling_text(const Cell& c) {
    const CellCeiling& k = c.verdict.ceiling;
    if (!k.train && !k.test && !k.test_sample) return k.note.empty() ? "" : "ceiling: " + k.note;
    std::string t = "ceiling train " + (k.train ? fmt("%.2f", 100 * *k.train) + "%" : std::string("–")) + " · test " +
                    (k.test ? fmt("%.2f", 100 * *k.test) + "%" : std::string("–"));
    if (k.test_sample) t += " (own test words " + fmt("%.2f", 100 * *k.test_sample) + "%)";
    return t;
}

// "adversarial set: 64 pairs, forced" (docs/PROTOCOL.md "Evaluation": forced when the architecture
// maps both words of every pair to the same vector at any weights).
std::string adversarial_text(const ArchPlan& a) {
    if (a.adversarial_words == 0) return "";
    const std::size_t pairs = a.adversarial_pairs ? a.adversarial_pairs : a.adversarial_words / 2;
    std::string t = "adversarial set: " + std::to_string(pairs) + " pairs";
    if (a.adversarial_kind.empty()) return t + ", forced/informative not recorded";
    t += ", " + a.adversarial_kind;
    if (a.adversarial_kind == "mixed") t += " (" + std::to_string(a.adversarial_forced_pairs) + " forced)";
    if (!a.adversarial_note.empty()) t += "; " + a.adversarial_note;
    return t;
}

// Lengths averaged into one point of a figure line (the raw per-length values are in accuracy.csv).

// The accuracy panel of one language: per architecture, the mean over its finished runs and over
// bins of kFigureBin test lengths, plotted at the bin's mean length.
AccuracyPanel accuracy_panel(const LanguagePlan& lang, const std::vector<Cell>& cells, int test_min) {
    AccuracyPanel p;
    p.title = lang.name;
    for (const auto& c : cells) {
        AccuracySeries s;
        s.arch = to_string(c.arch->arch);
        // bin -> (sum of lengths, sum of accuracies, count); bins start at the plan's first test length.
        std::map<int, std::tuple<double, double, int>> sum;
        for (const auto* r : c.results) {
            if (!r) continue;
            ++s.runs;
            for (const auto& [n, a] : r->result.per_length_accuracy) {
                auto& [ln, acc, k] = sum[(n - test_min) / kFigureBin];
                ln += n, acc += a, ++k;
            }
        }
        for (const auto& [b, v] : sum)
            s.accuracy[static_cast<int>(std::lround(std::get<0>(v) / std::get<2>(v)))] = std::get<1>(v) / std::get<2>(v);
        p.series.push_back(std::move(s));
    }
    return p;
}

FigureStyle figure_style(const Plan& plan) {
    FigureStyle st;
    for (const auto& a : plan.archs) st.archs.push_back(to_string(a));
    st.train_min = plan.base.training.train_min;
    st.train_max = plan.base.training.train_max;
    st.test_max = plan.base.evaluation.test_max;
    return st;
}

std::string csv_field(const std::string& s) {
    if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
    std::string o = "\"";
    for (char c : s) o += c == '"' ? std::string("\"\"") : std::string(1, c);
    return o + "\"";
}

}  // namespace report_detail

// ---------------------------------------------------------------- DFA picture

std::optional<std::string> dfa_svg(const automata::Dfa& dfa, std::string* why) {
    const std::string dot = automata::to_dot(dfa);
    std::string tmpl_s = (std::filesystem::temp_directory_path() / "ltlkit-dot-XXXXXX").string();
    std::vector<char> tmpl(tmpl_s.begin(), tmpl_s.end());
    tmpl.push_back(0);
    const int fd = mkstemp(tmpl.data());
    if (fd < 0) {
        if (why) *why = "cannot create a temporary file";
        return std::nullopt;
    }
    {
        std::ofstream f(tmpl.data());
        f << dot;
    }
    ::close(fd);
    const std::string cmd = std::string("dot -Tsvg '") + tmpl.data() + "' 2>/dev/null";
    std::string svg;
    FILE* p = ::popen(cmd.c_str(), "r");
    int status = -1;
    if (p) {
        char buf[4096];
        std::size_t n;
        while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) svg.append(buf, n);
        status = ::pclose(p);
    }
    std::remove(tmpl.data());
    const auto start = svg.find("<svg");
    if (status != 0 || start == std::string::npos) {
        if (why)
            *why = (status == 127 * 256 || status == -1) ? "Graphviz `dot` was not found on PATH"
                                                        : "Graphviz `dot` failed";
        return std::nullopt;
    }
    return svg.substr(start);
}

// ---------------------------------------------------------------- the report's data

namespace report_detail {

// The cells of the report, each with its runs in plan order, its verdict and its summary.
Grid build_grid(const Plan& plan, const std::map<std::string, LoadedRun>& runs, CeilingCache* cache) {
    Grid grid;
    for (const auto& lang : plan.languages) {
        std::vector<Cell> row;
        for (const auto& ap : lang.archs) {
            Cell c;
            c.arch = &ap;
            std::vector<RunResult> results;
            std::vector<std::string> labels;
            for (const auto& r : plan.runs) {
                if (r.language != lang.dir || r.arch != ap.arch) continue;
                c.runs.push_back(&r);
                auto it = runs.find(r.rundir);
                c.results.push_back(it == runs.end() ? nullptr : &it->second);
                if (it != runs.end()) {
                    results.push_back(it->second.result);
                    labels.push_back(r.label());
                }
            }
            c.verdict = judge(lang.name, ap.arch, ap.prediction, results, labels, cell_ceiling(plan, lang, ap, cache),
                              parse_pair_set_kind(ap.adversarial_kind));
            if (results.empty()) {  // nothing to judge yet, which is not a verdict
                c.verdict.verdict = VerdictKind::Pending;
                c.verdict.rule = 0;
                c.verdict.reason = c.runs.empty() ? "not among the cells of this grid (plan.json \"cells\")"
                                                  : "no run finished yet (" + std::to_string(c.runs.size()) + " planned)";
            }
            summarize_cell(c, lang, plan.published);
            row.push_back(std::move(c));
        }
        grid.push_back(std::move(row));
    }
    return grid;
}


// "profile P: L layers × d D × H heads, S steps × batch B, train lengths …, 1 seed(s) × lr {…}".
std::string setup_text(const Plan& plan) {
    const ModelConfig& m = plan.base.model;
    const TrainingConfig& t = plan.base.training;
    const EvaluationConfig& e = plan.base.evaluation;
    std::string lrs;
    for (double lr : plan.lrs) lrs += (lrs.empty() ? "" : ", ") + format_lr(lr);
    return "profile " + plan.profile + ": " + std::to_string(m.layers) + " layers × d " + std::to_string(m.d_model) +
           " × " + std::to_string(m.heads) + " heads, " + std::to_string(t.steps) + " steps × batch " +
           std::to_string(t.batch) + ", train lengths " + std::to_string(t.train_min) + ".." +
           std::to_string(t.train_max) + ", test lengths " + std::to_string(e.test_min) + ".." +
           std::to_string(e.test_max) + " × " + std::to_string(e.per_length) + ", success rule " +
           to_string(e.success_rule) + ", " + std::to_string(plan.seeds) + " seed(s) × lr {" + lrs + "}";
}

}  // namespace report_detail

}  // namespace ltlkit::neural::verify
