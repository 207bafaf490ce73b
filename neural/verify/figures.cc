#include "neural/verify/figures.hh"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace ltlkit::neural::verify {

namespace {

// Okabe & Ito's colour-blind-safe palette (yellow replaced by grey, which reads on white).
const char* colour(std::size_t i) {
    static const char* k[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#999999"};
    return k[i % 8];
}
const char* dash(std::size_t i) {
    static const char* k[] = {"", "7 3", "2 2", "9 3 2 3", "12 4", "4 2 1 2", "1 3", "14 2 2 2"};
    return k[i % 8];
}

std::string num(double x) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", x);
    return buf;
}

std::size_t code_points(const std::string& s) {
    std::size_t n = 0;
    for (unsigned char ch : s) n += (ch & 0xC0) != 0x80;
    return n;
}

}  // namespace

double text_width(const std::string& s, double font_size) {
    return kCharWidth * font_size * static_cast<double>(code_points(s));
}

std::string fit_text(const std::string& s, double width, double font_size) {
    if (text_width(s, font_size) <= width) return s;
    const std::size_t keep = static_cast<std::size_t>(std::max(0.0, width / (kCharWidth * font_size) - 1));
    std::string out;
    std::size_t n = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const bool start = (static_cast<unsigned char>(s[i]) & 0xC0) != 0x80;
        if (start && n++ == keep) break;
        out += s[i];
    }
    return out + "\u2026";
}

std::vector<std::string> wrap_words(const std::string& s, double width, double font_size) {
    std::vector<std::string> lines;
    std::string line, word;
    std::istringstream in(s);
    while (in >> word) {
        const std::string longer = line.empty() ? word : line + " " + word;
        if (!line.empty() && text_width(longer, font_size) > width) {
            lines.push_back(line);
            line = word;
        } else {
            line = longer;
        }
    }
    if (!line.empty()) lines.push_back(line);
    for (auto& l : lines) l = fit_text(l, width, font_size);  // a single word wider than the line
    return lines;
}

std::vector<double> log_ticks(double lo, double hi, int max_ticks) {
    int e0 = static_cast<int>(std::floor(std::log10(lo))), e1 = static_cast<int>(std::ceil(std::log10(hi)));
    if (e1 <= e0) e1 = e0 + 1;
    const int step = std::max(1, (e1 - e0 + max_ticks - 2) / (max_ticks - 1));
    e0 = e1 - step * ((e1 - e0 + step - 1) / step);  // decades step apart, ending at e1
    std::vector<double> out;
    for (int e = e0; e <= e1; e += step) out.push_back(std::pow(10.0, e));
    return out;
}

std::string decade_label(double x) {
    const int e = static_cast<int>(std::lround(std::log10(x)));
    if (e >= -3 && e <= 3) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.*f", std::max(0, -e), x);
        return buf;
    }
    return "1e" + std::to_string(e);
}

std::string xml_escape(const std::string& s) {
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

namespace {

std::string esc(const std::string& s) { return xml_escape(s); }

// Marker i (circle, square, triangle, diamond, inverted triangle, plus, cross, star) at (x, y).
std::string marker(std::size_t i, double x, double y, const char* col) {
    const double r = 3.5;
    std::ostringstream o;
    const std::string fill = " fill=\"white\" stroke=\"" + std::string(col) + "\" stroke-width=\"1.3\"";
    switch (i % 8) {
        case 0: o << "<circle cx=\"" << num(x) << "\" cy=\"" << num(y) << "\" r=\"" << r << "\"" << fill << "/>"; break;
        case 1:
            o << "<rect x=\"" << num(x - r) << "\" y=\"" << num(y - r) << "\" width=\"" << 2 * r << "\" height=\"" << 2 * r
              << "\"" << fill << "/>";
            break;
        case 2:
            o << "<polygon points=\"" << num(x) << ',' << num(y - r - 0.5) << ' ' << num(x - r) << ',' << num(y + r) << ' '
              << num(x + r) << ',' << num(y + r) << "\"" << fill << "/>";
            break;
        case 3:
            o << "<polygon points=\"" << num(x) << ',' << num(y - r - 0.5) << ' ' << num(x + r + 0.5) << ',' << num(y) << ' '
              << num(x) << ',' << num(y + r + 0.5) << ' ' << num(x - r - 0.5) << ',' << num(y) << "\"" << fill << "/>";
            break;
        case 4:
            o << "<polygon points=\"" << num(x) << ',' << num(y + r + 0.5) << ' ' << num(x - r) << ',' << num(y - r) << ' '
              << num(x + r) << ',' << num(y - r) << "\"" << fill << "/>";
            break;
        case 5:
            o << "<path d=\"M" << num(x - r) << ' ' << num(y) << "H" << num(x + r) << "M" << num(x) << ' ' << num(y - r)
              << "V" << num(y + r) << "\" stroke=\"" << col << "\" stroke-width=\"1.8\"/>";
            break;
        case 6:
            o << "<path d=\"M" << num(x - r) << ' ' << num(y - r) << "L" << num(x + r) << ' ' << num(y + r) << "M"
              << num(x - r) << ' ' << num(y + r) << "L" << num(x + r) << ' ' << num(y - r) << "\" stroke=\"" << col
              << "\" stroke-width=\"1.8\"/>";
            break;
        default: {
            o << "<polygon points=\"";
            for (int k = 0; k < 10; ++k) {
                const double a = M_PI / 2 + k * M_PI / 5, rr = k % 2 ? r * 0.45 : r + 0.8;
                o << num(x + rr * std::cos(a)) << ',' << num(y - rr * std::sin(a)) << ' ';
            }
            o << "\"" << fill << "/>";
        }
    }
    return o.str();
}

// One legend entry's width: the line with its marker (28), a gap, the name and a gap to the next.
double legend_entry_width(const std::string& arch) { return 44 + text_width(arch, 11); }

std::string legend(const FigureStyle& style, double x0, double y, double width) {
    std::ostringstream o;
    o << "<g class=\"legend\">\n";
    double x = x0;
    for (std::size_t i = 0; i < style.archs.size(); ++i) {
        const double w = legend_entry_width(style.archs[i]);
        if (x + w > x0 + width && x > x0) x = x0, y += 16;
        o << "<line x1=\"" << num(x) << "\" x2=\"" << num(x + 28) << "\" y1=\"" << num(y) << "\" y2=\"" << num(y)
          << "\" stroke=\"" << colour(i) << "\" stroke-width=\"2\"" << (*dash(i) ? " stroke-dasharray=\"" + std::string(dash(i)) + "\"" : "")
          << "/>" << marker(i, x + 14, y, colour(i)) << "<text x=\"" << num(x + 33) << "\" y=\"" << num(y + 4)
          << "\" font-size=\"11\">" << esc(fit_text(style.archs[i], x0 + width - x - 33, 11)) << "</text>\n";
        x += w;
    }
    o << "</g>\n";
    return o.str();
}

double legend_height(const FigureStyle& style, double width) {
    double x = 0, rows = 1;
    for (const auto& a : style.archs) {
        const double w = legend_entry_width(a);
        if (x + w > width && x > 0) x = 0, ++rows;
        x += w;
    }
    return 16 * rows + 6;
}

}  // namespace

std::vector<double> nice_ticks(double lo, double hi, int max_ticks) {
    std::vector<double> out;
    if (!(hi > lo) || max_ticks < 2) return {lo};
    const double raw = (hi - lo) / (max_ticks - 1);
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    double step = mag;
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (m * mag >= raw) {
            step = m * mag;
            break;
        }
    for (double t = std::ceil(lo / step) * step; t <= hi + 1e-9 * step; t += step) out.push_back(t);
    return out;
}

namespace {
// Ticks for an integer axis (steps, lengths): nice_ticks without the fractional ones, so that no
// two labels read alike.
std::vector<long> integer_ticks(double lo, double hi, int max_ticks) {
    std::vector<long> out;
    for (double t : nice_ticks(lo, hi, max_ticks))
        if (std::fabs(t - std::round(t)) < 1e-9 && (out.empty() || out.back() != std::lround(t))) out.push_back(std::lround(t));
    return out;
}
}  // namespace

std::string accuracy_panels_svg(const std::vector<AccuracyPanel>& panels, const FigureStyle& style, int columns) {
    columns = std::max(1, std::min<int>(columns, static_cast<int>(std::max<std::size_t>(1, panels.size()))));
    const double pw = 400, ph = 210, ml = 42, mr = 10, mt = 22, mb = 32;
    const double W = pw * columns;
    const double lh = legend_height(style, W - 20);
    const int rows = static_cast<int>((panels.size() + columns - 1) / columns);
    const double H = lh + ph * std::max(1, rows);
    int xmax = style.test_max;
    for (const auto& p : panels)
        for (const auto& s : p.series)
            if (!s.accuracy.empty()) xmax = std::max(xmax, s.accuracy.rbegin()->first);
    const auto xticks = integer_ticks(0, xmax, 6);
    std::ostringstream o;
    o << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << W << "\" height=\"" << num(H) << "\" viewBox=\"0 0 " << W
      << ' ' << num(H) << "\" font-family=\"sans-serif\" role=\"img\" aria-label=\"accuracy versus test length\">\n";
    o << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
    o << legend(style, 10, 12, W - 20);
    for (std::size_t pi = 0; pi < panels.size(); ++pi) {
        const auto& p = panels[pi];
        const double ox = pw * static_cast<double>(pi % columns), oy = lh + ph * static_cast<double>(pi / columns);
        const double x0 = ox + ml, x1 = ox + pw - mr, y0 = oy + mt, y1 = oy + ph - mb;
        auto X = [&](double n) { return x0 + n / xmax * (x1 - x0); };
        auto Y = [&](double a) { return y1 - a * (y1 - y0); };
        o << "<g>\n<text x=\"" << num((x0 + x1) / 2) << "\" y=\"" << num(oy + 15)
          << "\" font-size=\"12\" font-weight=\"bold\" text-anchor=\"middle\">" << esc(fit_text(p.title, pw - 20, 12))
          << "</text>\n";
        // The training range, shaded.
        o << "<rect x=\"" << num(X(style.train_min - 0.5)) << "\" y=\"" << num(y0) << "\" width=\""
          << num(X(style.train_max + 0.5) - X(style.train_min - 0.5)) << "\" height=\"" << num(y1 - y0)
          << "\" fill=\"#e8e8e8\"/><text x=\"" << num((X(style.train_min) + X(style.train_max)) / 2) << "\" y=\""
          << num(y0 + 11) << "\" font-size=\"9\" text-anchor=\"middle\" fill=\"#555\">train</text>\n";
        for (double a : {0.0, 0.25, 0.5, 0.75, 1.0})
            o << "<line x1=\"" << num(x0) << "\" x2=\"" << num(x1) << "\" y1=\"" << num(Y(a)) << "\" y2=\"" << num(Y(a))
              << "\" stroke=\"#ddd\"/><text x=\"" << num(x0 - 4) << "\" y=\"" << num(Y(a) + 4)
              << "\" font-size=\"10\" text-anchor=\"end\">" << static_cast<int>(a * 100) << "%</text>\n";
        for (long t : xticks)
            o << "<line x1=\"" << num(X(t)) << "\" x2=\"" << num(X(t)) << "\" y1=\"" << num(y1) << "\" y2=\"" << num(y1 + 4)
              << "\" stroke=\"#555\"/><text x=\"" << num(X(t)) << "\" y=\"" << num(y1 + 15)
              << "\" font-size=\"10\" text-anchor=\"middle\">" << t << "</text>\n";
        o << "<rect class=\"plot\" x=\"" << num(x0) << "\" y=\"" << num(y0) << "\" width=\"" << num(x1 - x0) << "\" height=\""
          << num(y1 - y0) << "\" fill=\"none\" stroke=\"#888\"/>\n";
        o << "<text x=\"" << num((x0 + x1) / 2) << "\" y=\"" << num(y1 + 28)
          << "\" font-size=\"10\" text-anchor=\"middle\">word length</text>\n";
        bool any = false;
        for (const auto& s : p.series) any = any || !s.accuracy.empty();
        if (!any)
            o << "<text x=\"" << num((x0 + x1) / 2) << "\" y=\"" << num((y0 + y1) / 2)
              << "\" font-size=\"11\" text-anchor=\"middle\" fill=\"#777\">no finished run</text>\n";
        for (const auto& s : p.series) {
            if (s.accuracy.empty()) continue;
            const std::size_t ai = static_cast<std::size_t>(
                std::find(style.archs.begin(), style.archs.end(), s.arch) - style.archs.begin());
            o << "<polyline fill=\"none\" stroke=\"" << colour(ai) << "\" stroke-width=\"1.6\""
              << (*dash(ai) ? " stroke-dasharray=\"" + std::string(dash(ai)) + "\"" : "") << " points=\"";
            for (const auto& [n, a] : s.accuracy) o << num(X(n)) << ',' << num(Y(a)) << ' ';
            o << "\"><title>" << esc(s.arch) << " (mean of " << s.runs << " run" << (s.runs == 1 ? "" : "s")
              << ")</title></polyline>\n";
            // Markers about every sixth of the range, staggered per architecture so they do not stack.
            const int lo = s.accuracy.begin()->first, hi = s.accuracy.rbegin()->first;
            const int stepm = std::max(1, (hi - lo) / 6);
            const int offset = static_cast<int>(ai % 8) * stepm / 8;
            for (int n = lo + offset; n <= hi; n += stepm) {
                auto it = s.accuracy.lower_bound(n);
                if (it == s.accuracy.end()) break;
                o << marker(ai, X(it->first), Y(it->second), colour(ai));
            }
            o << "\n";
        }
        o << "</g>\n";
    }
    o << "</svg>\n";
    return o.str();
}

std::string nstar_heatmap_svg(const std::vector<std::string>& languages, const FigureStyle& style,
                              const std::vector<std::vector<HeatCell>>& cells) {
    // Language names cut at 40 code points (the full name in a tooltip); the figure at least wide
    // enough for its title and notes on a few lines, which wrap to its width.
    constexpr double kLabelMax = 40 * kCharWidth * 11;
    double label_w = text_width("language", 11);
    for (const auto& l : languages) label_w = std::max(label_w, std::min(kLabelMax, text_width(l, 11)));
    const double ml = 16 + label_w, cw = 78, ch = 34, margin = 10;
    const double W = std::max(ml + cw * static_cast<double>(style.archs.size()) + margin, 360.0);
    const auto title = wrap_words("N*: the longest length up to which every tested length is at 100% (best run)",
                                  W - 2 * margin, 12);
    const auto notes = wrap_words("white: N* \u2264 " + std::to_string(style.train_max) +
                                      " (wrong right after the training range); dark green: N* = " +
                                      std::to_string(style.test_max) +
                                      " (every tested length exact); grey: no finished run. Under each value: the "
                                      "prediction (rec: recognizes).",
                                  W - 2 * margin, 10);
    const double mt = 16.0 * static_cast<double>(title.size()) + 26;
    const double grid_bottom = mt + ch * static_cast<double>(languages.size());
    const double H = grid_bottom + 10 + 13.0 * static_cast<double>(notes.size()) + 4;
    const double lo = style.train_max, hi = std::max(style.test_max, style.train_max + 1);
    std::ostringstream o;
    o << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << num(W) << "\" height=\"" << num(H) << "\" viewBox=\"0 0 "
      << num(W) << ' ' << num(H) << "\" font-family=\"sans-serif\" role=\"img\" aria-label=\"N* heatmap\">\n";
    o << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
    for (std::size_t i = 0; i < title.size(); ++i)
        o << "<text x=\"" << num(margin) << "\" y=\"" << num(14 + 16.0 * static_cast<double>(i))
          << "\" font-size=\"12\" font-weight=\"bold\">" << esc(title[i]) << "</text>\n";
    for (std::size_t a = 0; a < style.archs.size(); ++a)
        o << "<text x=\"" << num(ml + cw * (static_cast<double>(a) + 0.5)) << "\" y=\"" << num(mt - 6)
          << "\" font-size=\"11\" text-anchor=\"middle\">" << esc(fit_text(style.archs[a], cw - 4, 11)) << "</text>\n";
    for (std::size_t l = 0; l < languages.size(); ++l) {
        const double y = mt + ch * static_cast<double>(l);
        o << "<text x=\"" << num(ml - 6) << "\" y=\"" << num(y + ch / 2 + 4) << "\" font-size=\"11\" text-anchor=\"end\">"
          << esc(fit_text(languages[l], kLabelMax, 11));
        if (text_width(languages[l], 11) > kLabelMax) o << "<title>" << esc(languages[l]) << "</title>";
        o << "</text>\n";
        for (std::size_t a = 0; a < style.archs.size() && l < cells.size() && a < cells[l].size(); ++a) {
            const auto& c = cells[l][a];
            const double x = ml + cw * static_cast<double>(a);
            std::string fill = "#f4f4f4";
            if (c.value) {
                const double t = std::clamp((*c.value - lo) / (hi - lo), 0.0, 1.0);
                // White to dark green (#00441b) in RGB.
                const int r = static_cast<int>(std::lround(255 - t * 255)), g = static_cast<int>(std::lround(255 - t * 187)),
                          b = static_cast<int>(std::lround(255 - t * 228));
                char buf[16];
                std::snprintf(buf, sizeof buf, "#%02x%02x%02x", r, g, b);
                fill = buf;
            }
            const bool dark = c.value && (*c.value - lo) / (hi - lo) > 0.55;
            o << "<rect x=\"" << num(x + 1) << "\" y=\"" << num(y + 1) << "\" width=\"" << cw - 2 << "\" height=\"" << ch - 2
              << "\" fill=\"" << fill << "\" stroke=\"#ccc\"/><text x=\"" << num(x + cw / 2) << "\" y=\"" << num(y + 15)
              << "\" font-size=\"12\" text-anchor=\"middle\" fill=\"" << (dark ? "white" : "#222") << "\">"
              << (c.value ? std::to_string(*c.value) : std::string("\u2013")) << "</text><text x=\"" << num(x + cw / 2)
              << "\" y=\"" << num(y + 28) << "\" font-size=\"9\" text-anchor=\"middle\" fill=\"" << (dark ? "#eee" : "#666")
              << "\">" << esc(fit_text(c.note, cw - 4, 9)) << "</text>\n";
        }
    }
    for (std::size_t i = 0; i < notes.size(); ++i)
        o << "<text x=\"" << num(margin) << "\" y=\"" << num(grid_bottom + 20 + 13.0 * static_cast<double>(i))
          << "\" font-size=\"10\" fill=\"#555\">" << esc(notes[i]) << "</text>\n";
    o << "</svg>\n";
    return o.str();
}

std::string training_curve_svg(const std::string& title, const std::vector<CurvePoint>& points) {
    // Title, then the legend on its own row above the plot area (never over the curves).
    const double W = 330, H = 164, ml = 36, mr = 40, mt = 32, mb = 28;
    std::ostringstream o;
    o << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << W << "\" height=\"" << H << "\" viewBox=\"0 0 " << W << ' '
      << H << "\" font-family=\"sans-serif\" role=\"img\" aria-label=\"training curve " << esc(title) << "\">\n";
    o << "<text x=\"" << 4 << "\" y=\"12\" font-size=\"11\">" << esc(fit_text(title, W - 8, 11)) << "</text>\n";
    if (points.empty()) {
        o << "<text x=\"" << ml << "\" y=\"" << H / 2 << "\" font-size=\"10\" fill=\"#777\">no training log</text></svg>\n";
        return o.str();
    }
    const double smax = std::max(1, points.back().step);
    // The loss on a log axis over whole decades; a loss of 0 (or below the lowest decade shown)
    // is drawn at the bottom.
    double lmin = 0, lmax = 0;
    for (const auto& p : points)
        if (p.loss > 0 && std::isfinite(p.loss)) lmin = lmin > 0 ? std::min(lmin, p.loss) : p.loss, lmax = std::max(lmax, p.loss);
    if (!(lmax > 0)) lmin = 0.1, lmax = 1;
    const auto lticks = log_ticks(lmin, lmax, 5);
    const double e_lo = std::log10(lticks.front()), e_hi = std::log10(lticks.back());
    const double x0 = ml, x1 = W - mr, y0 = mt, y1 = H - mb;
    auto X = [&](double s) { return x0 + s / smax * (x1 - x0); };
    auto YA = [&](double a) { return y1 - a * (y1 - y0); };
    auto YL = [&](double l) {
        const double e = l > 0 && std::isfinite(l) ? std::clamp(std::log10(l), e_lo, e_hi) : e_lo;
        return y1 - (e - e_lo) / (e_hi - e_lo) * (y1 - y0);
    };
    o << "<g class=\"legend\"><line x1=\"" << x0 << "\" x2=\"" << x0 + 18 << "\" y1=\"23\" y2=\"23\" stroke=\"#0072B2\" "
         "stroke-width=\"1.4\"/><text x=\"" << x0 + 22 << "\" y=\"26\" font-size=\"9\" fill=\"#0072B2\">train accuracy "
         "(left)</text><line x1=\"" << x0 + 142 << "\" x2=\"" << x0 + 160 << "\" y1=\"23\" y2=\"23\" stroke=\"#D55E00\" "
         "stroke-width=\"1.4\" stroke-dasharray=\"5 3\"/><text x=\"" << x0 + 164 << "\" y=\"26\" font-size=\"9\" "
         "fill=\"#D55E00\">loss (right, log scale)</text></g>\n";
    o << "<rect class=\"plot\" x=\"" << x0 << "\" y=\"" << y0 << "\" width=\"" << x1 - x0 << "\" height=\"" << y1 - y0
      << "\" fill=\"none\" stroke=\"#888\"/>\n";
    for (double a : {0.0, 0.5, 1.0})
        o << "<text x=\"" << x0 - 3 << "\" y=\"" << num(YA(a) + 3) << "\" font-size=\"9\" text-anchor=\"end\" fill=\"#0072B2\">"
          << static_cast<int>(a * 100) << "%</text>\n";
    for (double l : lticks)
        o << "<line x1=\"" << x1 << "\" x2=\"" << x1 + 3 << "\" y1=\"" << num(YL(l)) << "\" y2=\"" << num(YL(l))
          << "\" stroke=\"#D55E00\"/><text x=\"" << x1 + 4 << "\" y=\"" << num(YL(l) + 3) << "\" font-size=\"9\" fill=\"#D55E00\">"
          << decade_label(l) << "</text>\n";
    for (long t : integer_ticks(0, smax, 5))
        o << "<text x=\"" << num(X(static_cast<double>(t))) << "\" y=\"" << y1 + 12
          << "\" font-size=\"9\" text-anchor=\"middle\">" << t << "</text>\n";
    o << "<text x=\"" << (x0 + x1) / 2 << "\" y=\"" << H - 3 << "\" font-size=\"9\" text-anchor=\"middle\">step</text>\n";
    o << "<polyline fill=\"none\" stroke=\"#0072B2\" stroke-width=\"1.4\" points=\"";
    for (const auto& p : points) o << num(X(p.step)) << ',' << num(YA(p.accuracy)) << ' ';
    o << "\"><title>training accuracy</title></polyline>\n<polyline fill=\"none\" stroke=\"#D55E00\" stroke-width=\"1.4\" "
         "stroke-dasharray=\"5 3\" points=\"";
    for (const auto& p : points) o << num(X(p.step)) << ',' << num(YL(p.loss)) << ' ';
    o << "\"><title>loss</title></polyline>\n";
    o << "</svg>\n";
    return o.str();
}

}  // namespace ltlkit::neural::verify
