// Sweeps of language-model runs over attention pattern x k x positional encoding x seed, and their
// table (Markdown, JSON) and figure (SVG). Torch-free: the runs go through train_lm.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <optional>

#include <nlohmann/json.hpp>

#include "base/checksum.hh"
#include "base/file.hh"
#include "neural/lm/lm.hh"

namespace ltlkit::neural::lm {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

struct Stats {
    double mean = NAN, sd = NAN;
};
Stats stats(const std::vector<double>& v) {
    Stats s;
    if (v.empty()) return s;
    double sum = 0;
    for (double x : v) sum += x;
    s.mean = sum / static_cast<double>(v.size());
    if (v.size() < 2) return s;
    double ss = 0;
    for (double x : v) ss += (x - s.mean) * (x - s.mean);
    s.sd = std::sqrt(ss / static_cast<double>(v.size() - 1));  // sample standard deviation
    return s;
}

std::string fixed(double x, int digits) {
    if (!std::isfinite(x)) return "–";
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.*f", digits, x);
    return buf;
}

const SweepCell* find_cell(const std::vector<SweepCell>& cells, const Architecture& arch, PositionalEncoding pe) {
    for (const auto& c : cells)
        if (c.arch == arch && c.pe == pe) return &c;
    return nullptr;
}

// The values of one field over the cells, in order of first appearance.
template <class F>
auto distinct(const std::vector<SweepCell>& cells, F field) {
    std::vector<decltype(field(cells.front()))> out;
    for (const auto& c : cells)
        if (std::find(out.begin(), out.end(), field(c)) == out.end()) out.push_back(field(c));
    return out;
}

std::string esc(const std::string& s) {
    std::string o;
    for (char ch : s) o += ch == '<' ? "&lt;" : ch == '&' ? "&amp;" : std::string(1, ch);
    return o;
}

// The same training split, tokenizer and vocabulary (the paths may differ).
bool same_corpus(const std::string& identity_json, const Corpus& corpus) {
    try {
        auto j = json::parse(identity_json);
        return j.at("tokenizer") == corpus.tokenizer && j.at("vocab_sha256") == corpus.vocab_sha256 &&
               j.at("train").at("sha256") == corpus.train.sha256 && j.at("valid").at("sha256") == corpus.valid.sha256 &&
               j.at("test").at("sha256") == corpus.test.sha256;
    } catch (const std::exception&) {
        return false;
    }
}

}  // namespace

std::vector<Architecture> sweep_archs(const std::vector<Architecture::Kind>& patterns, const std::vector<int>& ks) {
    std::vector<Architecture> out;
    for (auto kind : patterns) {
        if (kind == Architecture::Kind::Global || kind == Architecture::Kind::Lstm) {
            out.push_back({kind, 0});
            continue;
        }
        for (int k : ks) out.push_back({kind, k});
    }
    return out;
}

std::string sweep_markdown(const std::vector<SweepCell>& cells) {
    const auto archs = distinct(cells, [](const SweepCell& c) { return c.arch; });
    const auto pes = distinct(cells, [](const SweepCell& c) { return c.pe; });
    std::string md = "| pattern |";
    for (const auto pe : pes) md.append(" ").append(to_string(pe)).append(" test ppl | Δ vs global |");
    md += "\n|---|";
    for (std::size_t i = 0; i < pes.size(); ++i) md += "---:|---:|";
    md += "\n";
    for (const auto& a : archs) {
        md.append("| ").append(to_string(a)).append(" |");
        for (const auto pe : pes) {
            const SweepCell* c = find_cell(cells, a, pe);
            const SweepCell* g = find_cell(cells, Architecture{}, pe);
            if (!c || c->test_ppl.empty()) {
                md += " – | – |";
                continue;
            }
            const Stats s = stats(c->test_ppl);
            // Appended piece by piece: GCC 12 warns (-Wrestrict, a false positive) on " " + string.
            md.append(" ").append(fixed(s.mean, 2)).append(" ± ").append(fixed(s.sd, 2));
            md.append(" (n=").append(std::to_string(c->test_ppl.size())).append(") |");
            if (a == Architecture{} || !g || g->test_ppl.empty()) {
                md += " – |";
            } else {
                const double d = s.mean - stats(g->test_ppl).mean;
                md.append(d >= 0 ? " +" : " −").append(fixed(std::fabs(d), 2)).append(" |");
            }
        }
        md += "\n";
    }
    return md;
}

std::string sweep_json(const std::vector<SweepCell>& cells) {
    json rows = json::array();
    for (const auto& c : cells) {
        const SweepCell* g = find_cell(cells, Architecture{}, c.pe);
        const Stats t = stats(c.test_ppl), v = stats(c.valid_ppl), b = stats(c.test_bpc);
        json row{{"arch", to_string(c.arch)}, {"pe", to_string(c.pe)}, {"seeds", c.test_ppl.size()},
                 {"test_ppl", c.test_ppl}, {"valid_ppl", c.valid_ppl}, {"test_bits_per_char", c.test_bpc}};
        auto put = [&row](const char* key, double x) { row[key] = std::isfinite(x) ? json(x) : json(nullptr); };
        put("test_ppl_mean", t.mean);
        put("test_ppl_sd", t.sd);
        put("valid_ppl_mean", v.mean);
        put("valid_ppl_sd", v.sd);
        put("test_bits_per_char_mean", b.mean);
        put("test_ppl_minus_global", g && !g->test_ppl.empty() ? t.mean - stats(g->test_ppl).mean : NAN);
        rows.push_back(row);
    }
    return json{{"metric", "test perplexity per token; sd = sample standard deviation over seeds"}, {"cells", rows}}
               .dump(2) + "\n";
}

// Points with ±sd bars: x = pattern, one colour and horizontal offset per positional encoding.
std::string sweep_svg(const std::vector<SweepCell>& cells) {
    const auto archs = distinct(cells, [](const SweepCell& c) { return c.arch; });
    const auto pes = distinct(cells, [](const SweepCell& c) { return c.pe; });
    double lo = INFINITY, hi = -INFINITY;
    for (const auto& c : cells) {
        const Stats s = stats(c.test_ppl);
        if (!std::isfinite(s.mean)) continue;
        const double sd = std::isfinite(s.sd) ? s.sd : 0;
        lo = std::min(lo, s.mean - sd);
        hi = std::max(hi, s.mean + sd);
    }
    if (!std::isfinite(lo)) lo = 0, hi = 1;
    if (hi - lo < 1e-9) hi = lo + 1;
    const double pad = (hi - lo) * 0.08;
    lo -= pad;
    hi += pad;
    const int W = 120 + 90 * static_cast<int>(std::max<std::size_t>(1, archs.size())), H = 380;
    const double x0 = 70, x1 = W - 20, y0 = 30, y1 = H - 70;
    auto ys = [&](double v) { return y1 - (v - lo) / (hi - lo) * (y1 - y0); };
    const char* colours[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e"};
    std::string s;
    char buf[512];
    std::snprintf(buf, sizeof buf,
                  "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" "
                  "font-size=\"12\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
                  W, H);
    s += buf;
    std::snprintf(buf, sizeof buf,
                  "<text x=\"%g\" y=\"18\" font-size=\"14\">Test perplexity per token (mean ± sd over seeds)</text>\n",
                  x0);
    s += buf;
    std::snprintf(buf, sizeof buf, "<line x1=\"%g\" y1=\"%g\" x2=\"%g\" y2=\"%g\" stroke=\"black\"/>\n", x0, y1, x1, y1);
    s += buf;
    std::snprintf(buf, sizeof buf, "<line x1=\"%g\" y1=\"%g\" x2=\"%g\" y2=\"%g\" stroke=\"black\"/>\n", x0, y0, x0, y1);
    s += buf;
    for (int t = 0; t <= 5; ++t) {
        const double v = lo + (hi - lo) * t / 5.0;
        std::snprintf(buf, sizeof buf,
                      "<line x1=\"%g\" y1=\"%g\" x2=\"%g\" y2=\"%g\" stroke=\"#ddd\"/><text x=\"%g\" y=\"%g\" "
                      "text-anchor=\"end\">%s</text>\n",
                      x0, ys(v), x1, ys(v), x0 - 4, ys(v) + 4, fixed(v, 1).c_str());
        s += buf;
    }
    const double step = (x1 - x0) / static_cast<double>(std::max<std::size_t>(1, archs.size()));
    for (std::size_t a = 0; a < archs.size(); ++a) {
        const double xc = x0 + step * (static_cast<double>(a) + 0.5);
        std::snprintf(buf, sizeof buf, "<text x=\"%g\" y=\"%g\" text-anchor=\"middle\">%s</text>\n", xc, y1 + 16,
                      esc(to_string(archs[a])).c_str());
        s += buf;
        for (std::size_t p = 0; p < pes.size(); ++p) {
            const SweepCell* c = find_cell(cells, archs[a], pes[p]);
            if (!c || c->test_ppl.empty()) continue;
            const Stats st = stats(c->test_ppl);
            const double sd = std::isfinite(st.sd) ? st.sd : 0;
            const double x = xc + (static_cast<double>(p) - (static_cast<double>(pes.size()) - 1) / 2) * 12;
            const char* col = colours[p % 5];
            std::snprintf(buf, sizeof buf,
                          "<line x1=\"%g\" y1=\"%g\" x2=\"%g\" y2=\"%g\" stroke=\"%s\"/><circle cx=\"%g\" cy=\"%g\" "
                          "r=\"4\" fill=\"%s\"><title>%s %s: %s ± %s</title></circle>\n",
                          x, ys(st.mean - sd), x, ys(st.mean + sd), col, x, ys(st.mean), col,
                          esc(to_string(archs[a])).c_str(), esc(to_string(pes[p])).c_str(), fixed(st.mean, 2).c_str(), fixed(sd, 2).c_str());
            s += buf;
        }
    }
    for (std::size_t p = 0; p < pes.size(); ++p) {
        const double lx = x0 + 10 + 110 * static_cast<double>(p);
        std::snprintf(buf, sizeof buf,
                      "<circle cx=\"%g\" cy=\"%d\" r=\"4\" fill=\"%s\"/><text x=\"%g\" y=\"%d\">%s</text>\n", lx, H - 22,
                      colours[p % 5], lx + 8, H - 18, esc(to_string(pes[p])).c_str());
        s += buf;
    }
    s += "</svg>\n";
    return s;
}

Result<std::vector<SweepCell>> run_sweep(const SweepSpec& spec, const Corpus& corpus,
                                         const std::function<void(const std::string&, bool)>& on_run,
                                         const LmProgressFn& progress) {
    if (spec.archs.empty() || spec.pes.empty() || spec.seeds < 1)
        return make_error("the sweep is empty: give at least one pattern, one positional encoding and --seeds >= 1");
    std::vector<SweepCell> cells;
    for (const auto& a : spec.archs)
        for (const auto& pe : spec.pes) {
            LmConfig c = spec.base;
            c.model.arch = a;
            c.model.pe = pe;
            if (auto ok = check_lm_config(c); !ok.ok()) return ok.error();
            cells.push_back({a, pe, {}, {}, {}});
        }
    // The folder is created by the first run or table, so a sweep that fails at once leaves nothing.
    auto write_outputs = [&]() -> Result<bool> {
        std::error_code ec;
        fs::create_directories(spec.out, ec);
        if (ec) return io_error("cannot create " + spec.out + ": " + ec.message());
        for (auto [name, text] : {std::pair{"table.md", sweep_markdown(cells)}, std::pair{"table.json", sweep_json(cells)},
                                  std::pair{"figure.svg", sweep_svg(cells)}}) {
            auto w = write_file_atomic((fs::path(spec.out) / name).string(), text);
            if (!w.ok()) return w.error();
        }
        return true;
    };
    for (int seed = 1; seed <= spec.seeds; ++seed)
        for (auto& cell : cells) {
            LmConfig c = spec.base;
            c.model.arch = cell.arch;
            c.model.pe = cell.pe;
            c.training.seed = static_cast<std::uint64_t>(seed);
            const std::string name = to_string(cell.arch) + "." + to_string(cell.pe) + ".seed" + std::to_string(seed);
            const std::string dir = (fs::path(spec.out) / name).string();
            std::optional<LmResult> done;
            if (auto text = read_file((fs::path(dir) / "result.json").string()); text.ok())
                if (json_checksum_state(*text) == ChecksumState::Valid)
                    if (auto r = lm_result_from_json(*text);
                        r.ok() && lm_training_key(r->config) == lm_training_key(c) && r->steps_done == c.training.steps &&
                        same_corpus(r->corpus_json, corpus))
                        done = *r;
            if (spec.table_only && !done) continue;
            if (on_run) on_run(name, done.has_value());
            if (!done) {
                auto r = train_lm(c, corpus, dir, progress);
                if (!r.ok()) {
                    Error e = r.error();
                    e.message = name + ": " + e.message;
                    return e;
                }
                done = *r;
            }
            cell.valid_ppl.push_back(done->valid.ppl_token());
            cell.test_ppl.push_back(done->test.ppl_token());
            cell.test_bpc.push_back(done->test.bits_per_char());
            if (auto w = write_outputs(); !w.ok()) return w.error();
        }
    if (auto w = write_outputs(); !w.ok()) return w.error();
    return cells;
}

}  // namespace ltlkit::neural::lm
