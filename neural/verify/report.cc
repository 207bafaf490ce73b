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

#include "automata/io.hh"
#include "neural/verify/profiles.hh"

namespace ltlkit::neural::verify {

namespace fs = std::filesystem;
using nlohmann::json;

std::string RunPlan::label() const { return "seed" + std::to_string(seed_index) + "-lr" + format_lr(lr); }

// ---------------------------------------------------------------- plan.json

namespace {

json config_json(const Config& c) {
    return {{"layers", c.layers},         {"d_model", c.d_model},       {"heads", c.heads},
            {"d_ff", c.d_ff},             {"pe", c.pe},                 {"strict", c.strict},
            {"steps", c.steps},           {"batch", c.batch},           {"train_min", c.train_min},
            {"train_max", c.train_max},   {"test_min", c.test_min},     {"test_max", c.test_max},
            {"per_length", c.per_length}, {"success_rule", c.success_rule}};
}

Config config_from(const json& j) {
    Config c;
    c.layers = j.value("layers", c.layers);
    c.d_model = j.value("d_model", c.d_model);
    c.heads = j.value("heads", c.heads);
    c.d_ff = j.value("d_ff", c.d_ff);
    c.pe = j.value("pe", c.pe);
    c.strict = j.value("strict", c.strict);
    c.steps = j.value("steps", c.steps);
    c.batch = j.value("batch", c.batch);
    c.train_min = j.value("train_min", c.train_min);
    c.train_max = j.value("train_max", c.train_max);
    c.test_min = j.value("test_min", c.test_min);
    c.test_max = j.value("test_max", c.test_max);
    c.per_length = j.value("per_length", c.per_length);
    c.success_rule = j.value("success_rule", c.success_rule);
    return c;
}

}  // namespace

std::string plan_to_json(const Plan& p) {
    json langs = json::array();
    for (const auto& l : p.languages) {
        json classes = json::object();
        for (const auto& [id, m] : l.classes) classes[id] = m ? json(*m) : json(nullptr);
        json archs = json::array();
        for (const auto& a : l.archs)
            archs.push_back({{"arch", a.arch},
                             {"prediction", to_string(a.prediction)},
                             {"reason", a.reason},
                             {"witness", a.witness},
                             {"adversarial_words", a.adversarial_words}});
        langs.push_back({{"name", l.name},
                         {"dir", l.dir},
                         {"kind", l.kind},
                         {"text", l.text},
                         {"alphabet", l.alphabet},
                         {"dfa", json::parse(l.dfa_json.empty() ? "null" : l.dfa_json)},
                         {"states", l.states},
                         {"fragment", l.fragment ? json(*l.fragment) : json(nullptr)},
                         {"classes", classes},
                         {"archs", archs},
                         {"test_words", l.test_words}});
    }
    json runs = json::array();
    for (const auto& r : p.runs)
        runs.push_back({{"index", r.index},
                        {"language", r.language},
                        {"arch", r.arch},
                        {"seed_index", r.seed_index},
                        {"lr", r.lr},
                        {"seed", r.seed},
                        {"rundir", r.rundir}});
    json j = {{"ltlkit_plan", 1},
              {"profile", p.profile},
              {"profile_note", p.profile_note},
              {"config", config_json(p.base)},
              {"archs", p.archs},
              {"seeds", p.seeds},
              {"base_seed", p.base_seed},
              {"lrs", p.lrs},
              {"languages", langs},
              {"runs", runs}};
    return automata::json_with_checksum(j.dump(), 1);
}

Result<Plan> plan_from_json(const std::string& text) {
    try {
        const json j = json::parse(text);
        if (!j.is_object() || !j.contains("ltlkit_plan")) return make_error("not a verify plan (plan.json)");
        Plan p;
        p.profile = j.at("profile").get<std::string>();
        p.profile_note = j.value("profile_note", "");
        p.base = config_from(j.at("config"));
        p.archs = j.at("archs").get<std::vector<std::string>>();
        p.seeds = j.at("seeds").get<int>();
        p.base_seed = j.at("base_seed").get<std::uint64_t>();
        p.lrs = j.at("lrs").get<std::vector<double>>();
        for (const auto& lj : j.at("languages")) {
            LanguagePlan l;
            l.name = lj.at("name").get<std::string>();
            l.dir = lj.at("dir").get<std::string>();
            l.kind = lj.value("kind", "");
            l.text = lj.value("text", "");
            l.alphabet = lj.at("alphabet").get<std::vector<std::string>>();
            l.dfa_json = lj.at("dfa").is_null() ? "" : lj.at("dfa").dump();
            l.states = lj.value("states", std::size_t{0});
            if (lj.contains("fragment") && !lj.at("fragment").is_null())
                l.fragment = lj.at("fragment").get<std::string>();
            for (const auto& [id, m] : lj.at("classes").items())
                l.classes[id] = m.is_null() ? std::nullopt : std::optional<bool>(m.get<bool>());
            for (const auto& aj : lj.at("archs")) {
                ArchPlan a;
                a.arch = aj.at("arch").get<std::string>();
                auto e = expectation_from_string(aj.at("prediction").get<std::string>());
                if (!e.ok()) return e.error();
                a.prediction = *e;
                a.reason = aj.value("reason", "");
                a.witness = aj.value("witness", "");
                a.adversarial_words = aj.value("adversarial_words", std::size_t{0});
                l.archs.push_back(a);
            }
            l.test_words = lj.value("test_words", std::size_t{0});
            p.languages.push_back(std::move(l));
        }
        for (const auto& rj : j.at("runs")) {
            RunPlan r;
            r.index = rj.at("index").get<std::size_t>();
            r.language = rj.at("language").get<std::string>();
            r.arch = rj.at("arch").get<std::string>();
            r.seed_index = rj.at("seed_index").get<int>();
            r.lr = rj.at("lr").get<double>();
            r.seed = rj.at("seed").get<std::uint64_t>();
            r.rundir = rj.at("rundir").get<std::string>();
            p.runs.push_back(std::move(r));
        }
        return p;
    } catch (const std::exception& e) {
        return make_error(std::string("malformed plan.json: ") + e.what());
    }
}

// ---------------------------------------------------------------- loading runs

Result<std::map<std::string, LoadedRun>> load_runs(const Plan& plan, const std::string& dir) {
    std::map<std::string, LoadedRun> out;
    for (const auto& r : plan.runs) {
        const fs::path path = fs::path(dir) / r.rundir / "result.json";
        std::error_code ec;
        if (!fs::exists(path, ec)) continue;
        auto text = automata::read_file(path.string());
        if (!text.ok()) return text.error();
        if (auto c = automata::check_json_checksum(
                path.string(), *text, "rerun `ltlkit verify` with the same arguments and --out, which evaluates the run again");
            !c.ok())
            return c.error();
        auto parsed = result_from_json(*text);
        if (!parsed.ok()) {
            Error e = parsed.error();
            e.origin = path.string();
            return e;
        }
        LoadedRun lr;
        lr.result = std::move(parsed).value();
        try {
            lr.json = json::parse(*text).dump();
        } catch (const std::exception& e) {
            return make_error(path.string() + ": " + e.what());
        }
        lr.from = path.string();
        out.emplace(r.rundir, std::move(lr));
    }
    return out;
}

// ---------------------------------------------------------------- helpers

namespace {

std::string fmt(const char* f, double x) {
    char buf[64];
    std::snprintf(buf, sizeof buf, f, x);
    return buf;
}
std::string pct(double x) { return fmt("%.1f", 100 * x) + "%"; }
std::string pct_opt(const std::optional<double>& x) { return x ? pct(*x) : "–"; }

std::string html_escape(const std::string& s) {
    std::string o;
    o.reserve(s.size());
    for (char c : s) {
        switch (c) {
            case '&': o += "&amp;"; break;
            case '<': o += "&lt;"; break;
            case '>': o += "&gt;"; break;
            case '"': o += "&quot;"; break;
            default: o += c;
        }
    }
    return o;
}

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

const char* verdict_symbol(const std::string& v) {
    if (v == "confirmed") return "✅";
    if (v == "not_reproduced") return "🟧";
    if (v == "contradicted") return "❌";
    if (v == "evidence") return "🔷";
    return "⬜";
}

std::string short_prediction(Expectation e) {
    switch (e) {
        case Expectation::Recognizes: return "rec";
        case Expectation::Fails: return "fails";
        default: return "?";
    }
}

// A fixed palette, one colour per architecture (in the order of plan.archs).
const char* arch_colour(std::size_t i) {
    static const char* kPalette[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e",
                                     "#8c564b", "#e377c2", "#17becf"};
    return kPalette[i % (sizeof kPalette / sizeof kPalette[0])];
}

struct Cell {
    const ArchPlan* arch = nullptr;
    Verdict verdict;
    std::vector<const RunPlan*> runs;
    std::vector<const LoadedRun*> results;  // parallel to runs; null when not finished
};

std::string stats_line(const RunStats& s) {
    std::string o = "max " + pct(s.max_accuracy) + " · mean " + fmt("%.1f", 100 * s.mean_accuracy) + " ± " +
                    fmt("%.1f", 100 * s.std_accuracy) + "%";
    return o;
}

std::string successes_line(const RunStats& s) {
    return std::to_string(s.successes) + "/" + std::to_string(s.fitted) + " succeed (95% CI " +
           fmt("%.2f", s.success_interval.first) + "–" + fmt("%.2f", s.success_interval.second) + ")";
}

// Accuracy vs test length, one polyline per run, coloured by architecture (drawn by hand).
std::string accuracy_chart(const Plan& plan, const LanguagePlan& lang, const std::vector<Cell>& cells) {
    int lo = plan.base.test_min, hi = plan.base.test_max;
    bool any = false;
    for (const auto& c : cells)
        for (const auto* r : c.results)
            if (r && !r->result.per_length_accuracy.empty()) {
                if (!any) lo = r->result.per_length_accuracy.begin()->first, hi = r->result.per_length_accuracy.rbegin()->first;
                lo = std::min(lo, r->result.per_length_accuracy.begin()->first);
                hi = std::max(hi, r->result.per_length_accuracy.rbegin()->first);
                any = true;
            }
    if (!any) return "<p class=\"muted\">No finished run yet: no accuracy curve.</p>\n";
    if (hi <= lo) hi = lo + 1;
    const double W = 640, H = 240, ml = 44, mr = 12, mt = 10, mb = 34;
    auto X = [&](double n) { return ml + (n - lo) / (hi - lo) * (W - ml - mr); };
    auto Y = [&](double a) { return mt + (1 - a) * (H - mt - mb); };
    std::ostringstream o;
    o << "<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" << W << "\" height=\"" << H + 22
      << "\" viewBox=\"0 0 " << W << ' ' << H + 22 << "\" role=\"img\" aria-label=\"accuracy versus length for "
      << html_escape(lang.name) << "\">\n";
    o << "<rect x=\"" << ml << "\" y=\"" << mt << "\" width=\"" << W - ml - mr << "\" height=\"" << H - mt - mb
      << "\" fill=\"#fafafa\" stroke=\"#999\"/>\n";
    for (double a : {0.0, 0.25, 0.5, 0.75, 1.0}) {
        o << "<line x1=\"" << ml << "\" x2=\"" << W - mr << "\" y1=\"" << Y(a) << "\" y2=\"" << Y(a)
          << "\" stroke=\"#ddd\"/><text x=\"" << ml - 4 << "\" y=\"" << Y(a) + 4
          << "\" font-size=\"10\" text-anchor=\"end\">" << static_cast<int>(a * 100) << "%</text>\n";
    }
    const int ticks = 5;
    for (int t = 0; t <= ticks; ++t) {
        const int n = lo + static_cast<int>(std::lround(static_cast<double>(hi - lo) * t / ticks));
        o << "<text x=\"" << X(n) << "\" y=\"" << H - mb + 14 << "\" font-size=\"10\" text-anchor=\"middle\">" << n
          << "</text>\n";
    }
    o << "<text x=\"" << (ml + W - mr) / 2 << "\" y=\"" << H - 4
      << "\" font-size=\"11\" text-anchor=\"middle\">test length n</text>\n";
    for (const auto& c : cells) {
        const std::size_t ai = static_cast<std::size_t>(
            std::find(plan.archs.begin(), plan.archs.end(), c.arch->arch) - plan.archs.begin());
        for (std::size_t i = 0; i < c.results.size(); ++i) {
            const LoadedRun* r = c.results[i];
            if (!r) continue;
            o << "<polyline fill=\"none\" stroke=\"" << arch_colour(ai) << "\" stroke-width=\"1.5\" opacity=\"0.8\""
              << (r->result.failed_to_fit ? " stroke-dasharray=\"4 3\"" : "") << " points=\"";
            for (const auto& [n, a] : r->result.per_length_accuracy) o << fmt("%.1f", X(n)) << ',' << fmt("%.1f", Y(a)) << ' ';
            o << "\"><title>" << html_escape(c.arch->arch + " " + c.runs[i]->label()) << "</title></polyline>\n";
        }
    }
    // Legend under the axis.
    double lx = ml;
    for (std::size_t ai = 0; ai < plan.archs.size(); ++ai) {
        o << "<rect x=\"" << lx << "\" y=\"" << H + 8 << "\" width=\"14\" height=\"4\" fill=\"" << arch_colour(ai)
          << "\"/><text x=\"" << lx + 18 << "\" y=\"" << H + 14 << "\" font-size=\"11\">"
          << html_escape(plan.archs[ai]) << "</text>\n";
        lx += 30 + 7.0 * static_cast<double>(plan.archs[ai].size());
    }
    o << "</svg>\n";
    return o.str();
}

}  // namespace

// ---------------------------------------------------------------- DFA picture

std::optional<std::string> dfa_svg(const std::string& dfa_json, std::string* why) {
    auto dfa = automata::dfa_from_json(dfa_json);
    if (!dfa.ok()) {
        if (why) *why = dfa.error().message;
        return std::nullopt;
    }
    const std::string dot = automata::to_dot(*dfa);
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

// ---------------------------------------------------------------- the report

Result<ReportFiles> write_report(const Plan& plan, const std::map<std::string, LoadedRun>& runs,
                                 const std::string& out) {
    std::error_code ec;
    fs::create_directories(out, ec);
    if (ec) return io_error("cannot create " + out + ": " + ec.message());
    ReportFiles files;
    files.runs_planned = plan.runs.size();

    // Cells: language x arch, with their runs in plan order.
    std::vector<std::vector<Cell>> grid;
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
            c.verdict = judge(lang.name, ap.arch, ap.prediction, results, labels);
            files.verdicts_list.push_back(c.verdict);
            row.push_back(std::move(c));
        }
        grid.push_back(std::move(row));
    }

    // results.jsonl (plan order) and verdicts.json.
    std::string jsonl;
    for (const auto& r : plan.runs) {
        auto it = runs.find(r.rundir);
        if (it == runs.end()) continue;
        jsonl += it->second.json + "\n";
        ++files.runs_found;
    }
    json verdicts = json::array();
    for (const auto& v : files.verdicts_list) verdicts.push_back(json::parse(verdict_to_json(v)));

    const fs::path dir(out);
    files.jsonl = (dir / "results.jsonl").string();
    files.verdicts = (dir / "verdicts.json").string();
    files.markdown = (dir / "report.md").string();
    files.html = (dir / "report.html").string();
    const std::string when = now_utc();
    const Config& b = plan.base;
    const std::string setup = "profile `" + plan.profile + "`: " + std::to_string(b.layers) + " layers × d " +
                              std::to_string(b.d_model) + " × " + std::to_string(b.heads) + " heads, " +
                              std::to_string(b.steps) + " steps × batch " + std::to_string(b.batch) +
                              ", train lengths " + std::to_string(b.train_min) + ".." + std::to_string(b.train_max) +
                              ", test lengths " + std::to_string(b.test_min) + ".." + std::to_string(b.test_max) +
                              " × " + std::to_string(b.per_length) + ", success rule " + b.success_rule + ", " +
                              std::to_string(plan.seeds) + " seed(s) × lr {" + [&] {
                                  std::string s;
                                  for (double lr : plan.lrs) s += (s.empty() ? "" : ", ") + format_lr(lr);
                                  return s;
                              }() + "}";

    // ---- report.md
    std::ostringstream md;
    md << "# ltlkit verification report\n\n";
    md << setup << ". Runs finished: " << files.runs_found << " of " << files.runs_planned << ". Generated "
       << when << ".\n\n";
    md << "## Predicted vs observed\n\n";
    md << "Each cell: verdict, prediction, successes k/n (Clopper–Pearson 95% interval), max and mean ± std of "
          "the runs' mean test accuracy, best N*, best adversarial accuracy.\n\n";
    md << "| language |";
    for (const auto& a : plan.archs) md << ' ' << md_escape(a) << " |";
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
            md << ' ' << verdict_symbol(v.verdict) << " **" << v.verdict << "** (predicted " << to_string(v.prediction)
               << ")<br>" << v.stats.successes << '/' << v.stats.fitted << " succeed [" << fmt("%.2f", v.stats.success_interval.first)
               << ", " << fmt("%.2f", v.stats.success_interval.second) << "]<br>max " << pct(v.stats.max_accuracy)
               << ", mean " << fmt("%.1f", 100 * v.stats.mean_accuracy) << " ± " << fmt("%.1f", 100 * v.stats.std_accuracy)
               << "%<br>N* " << v.stats.n_star_max << ", adv " << pct_opt(v.stats.adversarial_accuracy) << " |";
        }
        md << "\n";
    }
    md << "\n✅ confirmed · 🟧 not reproduced · ❌ contradicted · ⬜ inconclusive · 🔷 evidence (no prediction)\n\n";
    for (std::size_t li = 0; li < plan.languages.size(); ++li) {
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
            md << "| " << c.arch->arch << " | " << to_string(c.arch->prediction) << " — " << md_escape(c.arch->reason)
               << (c.arch->witness.empty() ? "" : " (witness " + md_escape(c.arch->witness) + ")") << " | "
               << verdict_symbol(c.verdict.verdict) << ' ' << c.verdict.verdict << " | " << md_escape(c.verdict.reason)
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
    }

    // ---- report.html
    std::ostringstream h;
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
         ".v-contradicted{background:#ffcdd2}.v-inconclusive{background:#e0e0e0}.v-evidence{background:#bbdefb}\n"
         ".verdict{font-weight:600}.pred{font-style:italic}\n"
         ".legend span{display:inline-block;padding:.1em .6em;margin-right:.4em;border:1px solid #bbb}\n"
         ".dfa svg{max-width:100%;height:auto}\n"
         "code{background:#f4f4f4;padding:0 .25em}\n"
         "</style>\n</head>\n<body>\n";
    h << "<h1>ltlkit verification report</h1>\n";
    h << "<p class=\"meta\">" << html_escape(setup) << ". Runs finished: " << files.runs_found << " of "
      << files.runs_planned << ". Generated " << when << ".</p>\n";
    h << "<h2>Predicted vs observed</h2>\n";
    h << "<p class=\"muted\">Each cell: the verdict (PROTOCOL.md rules), the prediction, successes k/n with the "
         "Clopper–Pearson 95% interval, max and mean ± std of the runs' mean test accuracy, the best N* and the "
         "best adversarial accuracy. Runs that failed to fit are listed, not judged.</p>\n";
    h << "<table id=\"verdict-grid\" class=\"grid\">\n<thead><tr><th>language</th>";
    for (const auto& a : plan.archs) h << "<th>" << html_escape(a) << "</th>";
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
            h << "<td class=\"cell v-" << v.verdict << "\" data-verdict=\"" << v.verdict << "\" title=\""
              << html_escape(v.reason) << "\"><div class=\"verdict\">" << v.verdict << "</div>"
              << "<div class=\"pred\">predicted: " << to_string(v.prediction) << "</div>"
              << "<div>" << html_escape(successes_line(s)) << "</div>"
              << "<div>" << html_escape(stats_line(s)) << "</div>"
              << "<div>N* " << s.n_star_max << " · adv " << pct_opt(s.adversarial_accuracy) << "</div>";
            if (s.failed_to_fit > 0) h << "<div>" << s.failed_to_fit << " failed to fit</div>";
            h << "</td>";
        }
        h << "</tr>\n";
    }
    h << "</tbody>\n</table>\n";
    h << "<p class=\"legend\"><span class=\"v-confirmed\">confirmed</span><span class=\"v-not_reproduced\">not "
         "reproduced</span><span class=\"v-contradicted\">contradicted</span><span "
         "class=\"v-inconclusive\">inconclusive</span><span class=\"v-evidence\">evidence</span></p>\n";

    for (std::size_t li = 0; li < plan.languages.size(); ++li) {
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
        auto svg = lang.dfa_json.empty() ? std::nullopt : dfa_svg(lang.dfa_json, &why);
        if (svg)
            h << "<div class=\"dfa\">" << *svg << "</div>\n";
        else
            h << "<p class=\"muted\">DFA picture unavailable: " << html_escape(why.empty() ? "no DFA" : why)
              << ".</p>\n";
        h << "<h3>Accuracy vs length</h3>\n" << accuracy_chart(plan, lang, grid[li]);
        h << "<table class=\"runs\"><thead><tr><th>arch</th><th>prediction</th><th>verdict</th><th>run</th>"
             "<th>status</th><th>mean acc</th><th>min bin</th><th>N*</th><th>adversarial</th><th>train acc</th>"
             "<th>wall</th></tr></thead><tbody>\n";
        for (const auto& c : grid[li]) {
            const std::size_t n = std::max<std::size_t>(1, c.runs.size());
            for (std::size_t i = 0; i < n; ++i) {
                h << "<tr>";
                if (i == 0) {
                    h << "<td rowspan=\"" << n << "\">" << html_escape(c.arch->arch) << "</td><td rowspan=\"" << n
                      << "\">" << to_string(c.arch->prediction) << "<div class=\"muted\">" << html_escape(c.arch->reason)
                      << "</div>";
                    if (!c.arch->witness.empty())
                        h << "<div class=\"muted\">witness: " << html_escape(c.arch->witness) << "</div>";
                    h << "</td><td rowspan=\"" << n << "\" class=\"v-" << c.verdict.verdict << "\">"
                      << c.verdict.verdict << "<div class=\"muted\">" << html_escape(c.verdict.reason) << "</div></td>";
                }
                if (c.runs.empty()) {
                    h << "<td colspan=\"8\">no runs</td></tr>\n";
                    continue;
                }
                h << "<td>" << html_escape(c.runs[i]->label()) << "</td>";
                const LoadedRun* lr = c.results[i];
                if (!lr) {
                    h << "<td colspan=\"7\" class=\"muted\">not finished</td></tr>\n";
                    continue;
                }
                const auto& r = lr->result;
                h << "<td>" << (r.failed_to_fit ? "failed to fit" : r.success ? "success" : "no success") << "</td><td>"
                  << pct(r.mean_accuracy) << "</td><td>" << pct(r.min_bin_accuracy) << "</td><td>" << r.n_star
                  << "</td><td>" << pct_opt(r.adversarial_accuracy) << "</td><td>" << pct(r.train_accuracy)
                  << "</td><td>" << fmt("%.0f", r.wall_seconds) << " s</td></tr>\n";
            }
        }
        h << "</tbody></table>\n";
    }
    h << "<p class=\"muted\">Files: report.md, verdicts.json, results.jsonl (one line per run), plan.json.</p>\n";
    h << "</body>\n</html>\n";

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
    s << pad("language", w0) << ' ';
    for (const auto& a : plan.archs) s << pad(a, w) << ' ';
    s << "\n";
    for (std::size_t li = 0; li < plan.languages.size(); ++li) {
        s << pad(plan.languages[li].name, w0) << ' ';
        for (const auto& a : plan.archs) {
            std::string t = "-";
            for (const auto& c : grid[li])
                if (c.arch->arch == a)
                    t = short_prediction(c.verdict.prediction) + "→" + c.verdict.verdict + " " +
                        std::to_string(c.verdict.stats.successes) + "/" + std::to_string(c.verdict.stats.fitted);
            s << pad(t, w) << ' ';
        }
        s << "\n";
    }
    files.summary = s.str();

    for (const auto& [path, content] :
         std::vector<std::pair<std::string, std::string>>{{files.jsonl, jsonl},
                                                          {files.verdicts, verdicts.dump(1) + "\n"},
                                                          {files.markdown, md.str()},
                                                          {files.html, h.str()}}) {
        auto w = automata::write_file_atomic(path, content);
        if (!w.ok()) return w.error();
    }
    return files;
}

Result<ReportFiles> merge_report(const std::vector<std::string>& dirs, const std::string& out) {
    if (dirs.empty()) return make_error("no folder to report on");
    std::optional<Plan> plan;
    std::map<std::string, LoadedRun> all;
    for (const auto& d : dirs) {
        const std::string path = (fs::path(d) / "plan.json").string();
        auto text = automata::read_file(path);
        if (!text.ok()) return text.error();
        if (auto c = automata::check_json_checksum(path, *text, "rerun `ltlkit verify` with the same arguments and --out to rewrite it");
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
            bool same = p->runs.size() == plan->runs.size();
            for (std::size_t i = 0; same && i < plan->runs.size(); ++i)
                same = p->runs[i].rundir == plan->runs[i].rundir && p->runs[i].seed == plan->runs[i].seed;
            if (!same)
                return make_error(d + " holds another verification (its plan.json lists other runs than " +
                                  dirs.front() + "'s)");
        }
        auto runs = load_runs(*plan, d);
        if (!runs.ok()) return runs.error();
        for (auto& [k, v] : *runs) all.emplace(k, std::move(v));  // the first folder that has a run wins
    }
    if (out != dirs.front()) {
        std::error_code ec;
        fs::create_directories(out, ec);
        auto w = automata::write_file_atomic((fs::path(out) / "plan.json").string(), plan_to_json(*plan));
        if (!w.ok()) return w.error();
    }
    return write_report(*plan, all, out);
}

}  // namespace ltlkit::neural::verify
