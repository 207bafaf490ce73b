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

#include "automata/dfa_json.hh"
#include "automata/dot.hh"
#include "base/checksum.hh"
#include "base/file.hh"
#include "automata/lock.hh"
#include "neural/verify/ceilings.hh"
#include "neural/verify/profiles.hh"
#include "neural/verify/verify.hh"

namespace ltlkit::neural::verify {

namespace fs = std::filesystem;
using nlohmann::json;

std::string RunPlan::label() const { return "seed" + std::to_string(seed_index) + "-lr" + format_lr(lr); }

// ---------------------------------------------------------------- plan.json


std::string plan_to_json(const Plan& p) {
    json langs = json::array();
    for (const auto& l : p.languages) {
        json classes = json::object();
        for (const auto& [id, m] : l.classes) classes[id] = m ? json(*m) : json(nullptr);
        json archs = json::array();
        for (const auto& a : l.archs)
            archs.push_back({{"arch", to_string(a.arch)},
                             {"prediction", to_string(a.prediction)},
                             {"reason", a.reason},
                             {"witness", a.witness},
                             {"adversarial_words", a.adversarial_words},
                             {"adversarial_pairs", a.adversarial_pairs},
                             {"adversarial_forced_pairs", a.adversarial_forced_pairs},
                             {"adversarial_kind", a.adversarial_kind},
                             {"adversarial_note", a.adversarial_note},
                             {"ceiling_test_sample", a.ceiling_test_sample ? json(*a.ceiling_test_sample) : json(nullptr)}});
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
                        {"arch", to_string(r.arch)},
                        {"seed_index", r.seed_index},
                        {"lr", r.lr},
                        {"seed", r.seed},
                        {"identity", r.identity},
                        {"rundir", r.rundir}});
    json j = {{"ltlkit_plan", 1},
              {"profile", p.profile},
              {"profile_note", p.profile_note},
              {"config", json::parse(config_to_json(p.base))},
              {"archs", [&] {
                   json names = json::array();
                   for (const auto& a : p.archs) names.push_back(to_string(a));
                   return names;
               }()},
              {"seeds", p.seeds},
              {"base_seed", p.base_seed},
              {"lrs", p.lrs},
              {"published", [&] {
                   if (!p.published) return json(nullptr);
                   json values = json::array();
                   for (const auto& v : p.published->values)
                       values.push_back({{"language", v.language}, {"arch", v.arch}, {"statistic", v.statistic},
                                         {"value", v.value}, {"source", v.source}});
                   return json{{"file", p.published->file},
                               {"test_distribution", p.published->test_distribution},
                               {"values", values}};
               }()},
              {"languages", langs},
              {"runs", runs}};
    if (!p.cells.empty()) j["cells"] = p.cells;
    return json_with_checksum(j.dump(), 1);
}

Result<Plan> plan_from_json(const std::string& text) {
    try {
        const json j = json::parse(text);
        if (!j.is_object() || !j.contains("ltlkit_plan")) return make_error("not a verify plan (plan.json)");
        Plan p;
        p.profile = j.at("profile").get<std::string>();
        p.profile_note = j.value("profile_note", "");
        auto base = config_from_json(j.at("config").dump());
        if (!base.ok()) return make_error("plan.json: " + base.error().message);
        p.base = *base;
        for (const auto& name : j.at("archs").get<std::vector<std::string>>()) {
            auto a = parse_architecture(name);
            if (!a.ok()) return make_error("plan.json: " + a.error().message);
            p.archs.push_back(*a);
        }
        p.seeds = j.at("seeds").get<int>();
        p.base_seed = j.at("base_seed").get<std::uint64_t>();
        p.lrs = j.at("lrs").get<std::vector<double>>();
        if (j.contains("cells")) p.cells = j.at("cells").get<std::vector<std::string>>();
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
                auto arch = parse_architecture(aj.at("arch").get<std::string>());
                if (!arch.ok()) return make_error("plan.json: " + arch.error().message);
                a.arch = *arch;
                auto e = expectation_from_string(aj.at("prediction").get<std::string>());
                if (!e.ok()) return e.error();
                a.prediction = *e;
                a.reason = aj.value("reason", "");
                a.witness = aj.value("witness", "");
                a.adversarial_words = aj.value("adversarial_words", std::size_t{0});
                a.adversarial_pairs = aj.value("adversarial_pairs", std::size_t{0});
                a.adversarial_forced_pairs = aj.value("adversarial_forced_pairs", std::size_t{0});
                a.adversarial_kind = aj.value("adversarial_kind", "");
                a.adversarial_note = aj.value("adversarial_note", "");
                if (aj.contains("ceiling_test_sample") && !aj.at("ceiling_test_sample").is_null())
                    a.ceiling_test_sample = aj.at("ceiling_test_sample").get<double>();
                l.archs.push_back(a);
            }
            l.test_words = lj.value("test_words", std::size_t{0});
            p.languages.push_back(std::move(l));
        }
        if (j.contains("published") && !j.at("published").is_null()) {
            Published pub;
            pub.file = j.at("published").at("file").get<std::string>();
            pub.test_distribution = j.at("published").value("test_distribution", "");
            for (const auto& v : j.at("published").at("values"))
                pub.values.push_back({v.at("language").get<std::string>(), v.at("arch").get<std::string>(),
                                      v.at("statistic").get<std::string>(), v.at("source").get<std::string>(),
                                      v.at("value").get<double>()});
            p.published = std::move(pub);
        }
        for (const auto& rj : j.at("runs")) {
            RunPlan r;
            r.index = rj.at("index").get<std::size_t>();
            r.language = rj.at("language").get<std::string>();
            auto arch = parse_architecture(rj.at("arch").get<std::string>());
            if (!arch.ok()) return make_error("plan.json: " + arch.error().message);
            r.arch = *arch;
            r.seed_index = rj.at("seed_index").get<int>();
            r.lr = rj.at("lr").get<double>();
            r.seed = rj.at("seed").get<std::uint64_t>();
            if (!rj.contains("identity"))
                return make_error("plan.json lists a run without its identity (written by an older ltlkit); "
                                  "rerun `ltlkit verify` into a new --out");
            r.identity = rj.at("identity").get<std::string>();
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
        auto text = read_file(path.string());
        if (!text.ok()) return text.error();
        if (auto c = check_json_checksum(
                path.string(), *text, "rerun `ltlkit verify` with the same arguments and --out, which evaluates the run again");
            !c.ok())
            return c.error();
        auto parsed = result_from_json(*text);
        if (!parsed.ok()) {
            Error e = parsed.error();
            e.origin = path.string();
            return e;
        }
        if (parsed->identity.evaluation != r.identity)
            return make_error(path.string() + " is not the run plan.json lists there (its language, "
                              "configuration or data differ); remove that folder and rerun `ltlkit verify`");
        LoadedRun lr;
        lr.result = std::move(parsed).value();
        try {
            lr.json = json::parse(*text).dump();
        } catch (const std::exception& e) {
            return make_error(path.string() + ": " + e.what());
        }
        lr.from = path.string();
        // The training curve, when the run logged one (lines that do not parse are skipped).
        if (auto log = read_file((fs::path(dir) / r.rundir / "metrics.jsonl").string()); log.ok()) {
            std::istringstream in(*log);
            for (std::string line; std::getline(in, line);) {
                try {
                    const json m = json::parse(line);
                    lr.curve.push_back({m.at("step").get<int>(), m.at("loss").get<double>(),
                                        m.at("train_accuracy").get<double>()});
                } catch (const std::exception&) {
                }
            }
        }
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

std::string short_prediction(Expectation e) {
    switch (e) {
        case Expectation::Recognizes: return "rec";
        case Expectation::Fails: return "fails";
        default: return "?";
    }
}

// A published number beside ours (percentages).
struct Comparison {
    std::string statistic, source;
    double paper = 0, ours = 0;
};

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
        return "";
    }
    // "fails" predicted, the random test looks perfect: the failure can show only adversarially.
    bool random_hides_failure() const {
        return verdict.prediction == Expectation::Fails && finished > 0 && random_mean >= 0.99;
    }
};

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
constexpr int kFigureBin = 20;

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
    if (s.find_first_of(",\"\n") == std::string::npos) return s;
    std::string o = "\"";
    for (char c : s) o += c == '"' ? std::string("\"\"") : std::string(1, c);
    return o + "\"";
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

// ---------------------------------------------------------------- the report's data

namespace {

using Grid = std::vector<std::vector<Cell>>;  // language x arch, in plan order

// The cells of the report, each with its runs in plan order, its verdict and its summary.
Grid build_grid(const Plan& plan, const std::map<std::string, LoadedRun>& runs) {
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
            c.verdict = judge(lang.name, ap.arch, ap.prediction, results, labels, cell_ceiling(plan, lang, ap));
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

// What every renderer reads: the plan, the cells, the counts, the setup line and the date.
struct ReportData {
    const Plan& plan;
    Grid grid;
    std::size_t runs_found = 0, runs_planned = 0;
    std::string setup, when;
    std::vector<std::string> missing;  // shards missing from a merge (merge_report), one line each
};

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

// ---------------------------------------------------------------- renderers

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
                                          {"control", c.verdict.prediction != Expectation::Fails}};
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

// The figures (SVG) and their data (CSV), written beside the report.
struct Figures {
    std::string accuracy_svg, nstar_svg, accuracy_csv, cells_csv;
};

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
          "ceiling is unknown (docs/PROTOCOL.md).\n\n";
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
               << " (predicted " << to_string(v.prediction) << ")<br>" << v.stats.successes << '/' << v.stats.fitted
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
          "run finished yet)\n\n";
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
    auto svg = lang.dfa_json.empty() ? std::nullopt : dfa_svg(lang.dfa_json, &why);
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
    s << pad("language", w0) << ' ';
    for (const auto& a : plan.archs) s << pad(to_string(a), w) << ' ';
    s << "\n";
    for (std::size_t li = 0; li < plan.languages.size(); ++li) {
        s << pad(plan.languages[li].name, w0) << ' ';
        for (const auto& a : plan.archs) {
            std::string t = "-";
            for (const auto& c : grid[li])
                if (c.arch->arch == a)
                    t = short_prediction(c.verdict.prediction) + "→" + to_string(c.verdict.verdict) +
                        (c.verdict.mark == "at_the_ceiling" ? "†" : "") + " " +
                        std::to_string(c.verdict.stats.successes) + "/" + std::to_string(c.verdict.stats.fitted);
            s << pad(t, w) << ' ';
        }
        s << "\n";
    }
    s << "† at the ceiling (rule 1a): no run fit, and no model of this depth can\n";
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

}  // namespace

// ---------------------------------------------------------------- the report

Result<ReportFiles> write_report(const Plan& plan, const std::map<std::string, LoadedRun>& runs,
                                 const std::string& out, const std::vector<std::string>& missing) {
    std::error_code ec;
    fs::create_directories(out, ec);
    if (ec) return io_error("cannot create " + out + ": " + ec.message());
    std::size_t found = 0;
    for (const auto& r : plan.runs) found += runs.count(r.rundir);
    const ReportData d{plan, build_grid(plan, runs), found, plan.runs.size(), setup_text(plan), now_utc(), missing};
    const Figures figures = render_figures(d);

    ReportFiles files;
    files.runs_planned = d.runs_planned;
    files.runs_found = d.runs_found;
    for (const auto& row : d.grid)
        for (const auto& c : row) files.verdicts_list.push_back(c.verdict);
    files.summary = render_summary(d);
    files.missing = missing;
    const fs::path dir(out);
    files.jsonl = (dir / "results.jsonl").string();
    files.verdicts = (dir / "verdicts.json").string();
    files.markdown = (dir / "report.md").string();
    files.html = (dir / "report.html").string();
    fs::create_directories(dir / "figures", ec);
    if (ec) return io_error("cannot create " + (dir / "figures").string() + ": " + ec.message());
    for (const auto& [path, content] :
         std::vector<std::pair<std::string, std::string>>{{files.jsonl, render_results_jsonl(plan, runs)},
                                                          {files.verdicts, render_verdicts_json(d)},
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

namespace {
bool needs_adversarial_marks(const Plan& plan) {
    for (const auto& l : plan.languages)
        for (const auto& a : l.archs)
            if (a.adversarial_words > 0 && a.adversarial_kind.empty()) return true;
    return false;
}
}  // namespace

// OUT/shard.json of `verify --shard i/n` (written before planning, so a task that fails while
// planning still says which shard it was): {"shard": i, "shards": n}; nullopt when absent.
Result<std::optional<std::pair<int, int>>> read_shard_file(const std::string& dir) {
    const std::string path = (fs::path(dir) / "shard.json").string();
    std::error_code ec;
    if (!fs::exists(path, ec)) return std::optional<std::pair<int, int>>{};
    auto text = read_file(path);
    if (!text.ok()) return text.error();
    try {
        const json j = json::parse(*text);
        const int i = j.at("shard").get<int>(), n = j.at("shards").get<int>();
        if (n >= 1 && i >= 0 && i < n) return std::optional{std::pair{i, n}};
    } catch (const json::exception&) {
    }
    return make_error(path + ": not a shard file (expected {\"shard\": i, \"shards\": n} with 0 <= i < n); "
                      "rerun `ltlkit verify` with the same arguments to rewrite it");
}

Result<bool> write_shard_file(const std::string& dir, int index, int count) {
    return write_file_atomic((fs::path(dir) / "shard.json").string(),
                                       json{{"shard", index}, {"shards", count}}.dump() + "\n");
}

namespace {

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

}  // namespace

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
                if (p->languages[i].dfa_json != plan->languages[i].dfa_json)
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
    // its regenerated datasets (verify.hh mark_plan_adversarial), kept in plan.json.
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
