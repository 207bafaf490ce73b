// The verdict grid as tables a paper can take: verdicts.csv (one row per language × architecture
// cell, RFC 4180 quoting) and verdicts.tex (a booktabs tabular, the same rows). docs/RESULTS.md
// "Tables for a paper" says what each column holds and why the table is long rather than a grid.

#include <cctype>
#include <cstdio>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "neural/verify/report_internal.hh"

namespace ltlkit::neural::verify::report_detail {

namespace {

// What a cell's verdict rests on (docs/PROTOCOL.md "Verdict", the evidence kinds).
std::string evidence_kind(const Cell& c) {
    if (c.verdict.verdict == VerdictKind::Pending) return "no finished run";
    return evidence_info(c.verdict.evidence).phrase;
}

// The numbers of one row, percentages; nullopt where the cell has none.
struct Row {
    const Cell* cell = nullptr;
    std::optional<double> fitted_mean, all_mean, paper, difference;
    std::string source;
};

Row row_of(const Cell& c) {
    Row r;
    r.cell = &c;
    if (c.verdict.stats.fitted > 0) r.fitted_mean = 100 * c.verdict.stats.mean_accuracy;
    if (c.finished > 0) r.all_mean = 100 * c.random_mean;
    for (const auto& cmp : c.published)
        if (cmp.statistic == "mean") {
            r.paper = cmp.paper;
            r.source = cmp.source;
            // As report.md and verdicts.json compare: the mean over every finished run.
            if (c.finished > 0) r.difference = cmp.ours - cmp.paper;
        }
    return r;
}

std::string opt(const char* f, const std::optional<double>& x) { return x ? fmt(f, *x) : ""; }

std::string prediction_word(Prediction p) { return to_string(p); }

std::string verdict_words(VerdictKind v) {
    std::string s = to_string(v);
    for (char& ch : s)
        if (ch == '_') ch = ' ';
    return s;
}

}  // namespace

std::string render_verdicts_csv(const ReportData& d) {
    std::string out =
        "language,architecture,prediction,verdict,rule,evidence,runs_finished,fitted,successes,"
        "ours_mean_fitted,ours_mean_all_runs,paper_mean,difference,paper_source\n";
    for (std::size_t li = 0; li < d.plan.languages.size(); ++li)
        for (const auto& c : d.grid[li]) {
            const Row r = row_of(c);
            const Verdict& v = c.verdict;
            const bool pending = v.verdict == VerdictKind::Pending;
            out += csv_field(d.plan.languages[li].name) + "," + csv_field(to_string(c.arch->arch)) + "," +
                   prediction_word(v.prediction) + "," + to_string(v.verdict) + "," + (pending ? "" : v.rule_id) + "," +
                   csv_field(evidence_kind(c)) + "," + std::to_string(c.finished) + "," +
                   std::to_string(v.stats.fitted) + "," + std::to_string(v.stats.successes) + "," +
                   opt("%.4f", r.fitted_mean) + "," + opt("%.4f", r.all_mean) + "," + opt("%.4f", r.paper) + "," +
                   opt("%.4f", r.difference) + "," + csv_field(r.source) + "\n";
        }
    return out;
}

std::string latex_text(const std::string& s) {
    // Pieces of text and of math; adjacent math pieces share one $…$ ("Σ*" → $\Sigma^*$).
    std::vector<std::pair<bool, std::string>> pieces;  // (math, text)
    auto add = [&](bool math, const std::string& t) {
        if (!pieces.empty() && pieces.back().first == math) {
            std::string& last = pieces.back().second;
            // "\Sigma " keeps its space only before a letter: "\Sigma^*".
            if (math && !last.empty() && last.back() == ' ' && !std::isalpha(static_cast<unsigned char>(t[0])))
                last.pop_back();
            last += t;
        }
        else
            pieces.emplace_back(math, t);
    };
    static const std::vector<std::pair<std::string, std::string>> math_symbols{
        {"\xCE\xA3", "\\Sigma "}, {"\xCE\xB5", "\\varepsilon "}, {"\xE2\x89\xA4", "\\le "}, {"\xE2\x89\xA5", "\\ge "},
        {"\xE2\x86\x92", "\\to "}, {"\xC2\xB7", "\\cdot "},    {"\xC3\x97", "\\times "}, {"\xE2\x88\x85", "\\emptyset "}};
    for (std::size_t i = 0; i < s.size();) {
        bool matched = false;
        for (const auto& [utf8, tex] : math_symbols)
            if (s.compare(i, utf8.size(), utf8) == 0) {
                add(true, tex);
                i += utf8.size();
                matched = true;
                break;
            }
        if (matched) continue;
        const char ch = s[i++];
        switch (ch) {
            case '*': add(true, "^*"); break;
            case '&': case '%': case '$': case '#': case '_': case '{': case '}':
                add(false, std::string("\\") + ch);
                break;
            case '~': add(false, "\\textasciitilde{}"); break;
            case '^': add(false, "\\textasciicircum{}"); break;
            case '\\': add(false, "\\textbackslash{}"); break;
            case '<': add(false, "\\textless{}"); break;
            case '>': add(false, "\\textgreater{}"); break;
            case '|': add(false, "\\textbar{}"); break;
            case '-': add(false, i < s.size() && s[i] == '-' ? "-{}" : "-"); break;  // no -- or --- ligature
            default: add(false, std::string(1, ch));
        }
    }
    std::string out;
    for (auto& [math, t] : pieces) {
        if (!math) {
            out += t;
            continue;
        }
        while (!t.empty() && t.back() == ' ') t.pop_back();
        out += "$" + t + "$";
    }
    return out;
}

std::string render_verdicts_tex(const ReportData& d) {
    const bool published = d.plan.published.has_value();
    std::ostringstream o;
    o << "% The verdict grid of an ltlkit verification, one row per language and architecture\n"
         "% (written by `ltlkit report`; the same rows as verdicts.csv; docs/RESULTS.md \"Tables for a paper\").\n"
         "% Needs \\usepackage{booktabs}. Accuracy: mean test accuracy (%) on random test words; ours over the\n"
         "% runs that fit the training lengths and over every finished run"
      << (published ? "; paper: the published mean;\n% difference: ours over every finished run minus paper (like "
                      "for like: the papers average all their runs).\n"
                    : ".\n")
      << "% " << d.setup << ".\n";
    o << "\\begin{tabular}{lllll" << (published ? "rrrr" : "rr") << "}\n\\toprule\n";
    o << "Language & Architecture & Prediction & Verdict & Evidence & Ours (fitted) & Ours (all)";
    if (published) o << " & Paper & $\\Delta$";
    o << " \\\\\n";
    for (std::size_t li = 0; li < d.plan.languages.size(); ++li) {
        o << "\\midrule\n";
        bool first = true;
        for (const auto& c : d.grid[li]) {
            const Row r = row_of(c);
            const std::string dash = "--";
            o << (first ? latex_text(d.plan.languages[li].name) : "") << " & " << latex_text(to_string(c.arch->arch))
              << " & " << prediction_word(c.verdict.prediction) << " & " << verdict_words(c.verdict.verdict) << " & "
              << latex_text(evidence_kind(c)) << " & " << (r.fitted_mean ? fmt("%.1f", *r.fitted_mean) : dash) << " & "
              << (r.all_mean ? fmt("%.1f", *r.all_mean) : dash);
            if (published)
                o << " & " << (r.paper ? fmt("%.1f", *r.paper) : dash) << " & "
                  << (r.difference ? std::string("$").append(fmt("%+.1f", *r.difference)).append("$") : dash);
            o << " \\\\\n";
            first = false;
        }
    }
    o << "\\bottomrule\n\\end{tabular}\n";
    return o.str();
}

}  // namespace ltlkit::neural::verify::report_detail
