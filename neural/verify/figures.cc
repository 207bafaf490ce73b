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

}  // namespace

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

std::string legend(const FigureStyle& style, double x0, double y, double width) {
    std::ostringstream o;
    double x = x0;
    for (std::size_t i = 0; i < style.archs.size(); ++i) {
        const double w = 44 + 6.5 * static_cast<double>(style.archs[i].size());
        if (x + w > x0 + width && x > x0) x = x0, y += 16;
        o << "<line x1=\"" << num(x) << "\" x2=\"" << num(x + 28) << "\" y1=\"" << num(y) << "\" y2=\"" << num(y)
          << "\" stroke=\"" << colour(i) << "\" stroke-width=\"2\"" << (*dash(i) ? " stroke-dasharray=\"" + std::string(dash(i)) + "\"" : "")
          << "/>" << marker(i, x + 14, y, colour(i)) << "<text x=\"" << num(x + 33) << "\" y=\"" << num(y + 4)
          << "\" font-size=\"11\">" << esc(style.archs[i]) << "</text>\n";
        x += w;
    }
    return o.str();
}

double legend_height(const FigureStyle& style, double width) {
    double x = 0, rows = 1;
    for (const auto& a : style.archs) {
        const double w = 44 + 6.5 * static_cast<double>(a.size());
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
    const auto xticks = nice_ticks(0, xmax, 6);
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
          << "\" font-size=\"12\" font-weight=\"bold\" text-anchor=\"middle\">" << esc(p.title) << "</text>\n";
        // The training range, shaded.
        o << "<rect x=\"" << num(X(style.train_min - 0.5)) << "\" y=\"" << num(y0) << "\" width=\""
          << num(X(style.train_max + 0.5) - X(style.train_min - 0.5)) << "\" height=\"" << num(y1 - y0)
          << "\" fill=\"#e8e8e8\"/><text x=\"" << num((X(style.train_min) + X(style.train_max)) / 2) << "\" y=\""
          << num(y0 + 11) << "\" font-size=\"9\" text-anchor=\"middle\" fill=\"#555\">train</text>\n";
        for (double a : {0.0, 0.25, 0.5, 0.75, 1.0})
            o << "<line x1=\"" << num(x0) << "\" x2=\"" << num(x1) << "\" y1=\"" << num(Y(a)) << "\" y2=\"" << num(Y(a))
              << "\" stroke=\"#ddd\"/><text x=\"" << num(x0 - 4) << "\" y=\"" << num(Y(a) + 4)
              << "\" font-size=\"10\" text-anchor=\"end\">" << static_cast<int>(a * 100) << "%</text>\n";
        for (double t : xticks)
            o << "<line x1=\"" << num(X(t)) << "\" x2=\"" << num(X(t)) << "\" y1=\"" << num(y1) << "\" y2=\"" << num(y1 + 4)
              << "\" stroke=\"#555\"/><text x=\"" << num(X(t)) << "\" y=\"" << num(y1 + 15)
              << "\" font-size=\"10\" text-anchor=\"middle\">" << static_cast<long>(t) << "</text>\n";
        o << "<rect x=\"" << num(x0) << "\" y=\"" << num(y0) << "\" width=\"" << num(x1 - x0) << "\" height=\""
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
    std::size_t longest = 8;
    for (const auto& l : languages) longest = std::max(longest, l.size());
    const double ml = 14 + 6.8 * static_cast<double>(std::min<std::size_t>(longest, 40)), mt = 40, cw = 78, ch = 34;
    const double W = ml + cw * static_cast<double>(style.archs.size()) + 10;
    const double H = mt + ch * static_cast<double>(languages.size()) + 44;
    const double lo = style.train_max, hi = std::max(style.test_max, style.train_max + 1);
    std::ostringstream o;
    o << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << num(W) << "\" height=\"" << num(H) << "\" viewBox=\"0 0 "
      << num(W) << ' ' << num(H) << "\" font-family=\"sans-serif\" role=\"img\" aria-label=\"N* heatmap\">\n";
    o << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
    o << "<text x=\"" << num(ml) << "\" y=\"14\" font-size=\"12\" font-weight=\"bold\">N*: the longest length up to "
         "which every tested length is at 100% (best run)</text>\n";
    for (std::size_t a = 0; a < style.archs.size(); ++a)
        o << "<text x=\"" << num(ml + cw * (a + 0.5)) << "\" y=\"" << num(mt - 6)
          << "\" font-size=\"11\" text-anchor=\"middle\">" << esc(style.archs[a]) << "</text>\n";
    for (std::size_t l = 0; l < languages.size(); ++l) {
        const double y = mt + ch * static_cast<double>(l);
        o << "<text x=\"" << num(ml - 6) << "\" y=\"" << num(y + ch / 2 + 4) << "\" font-size=\"11\" text-anchor=\"end\">"
          << esc(languages[l]) << "</text>\n";
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
              << (c.value ? std::to_string(*c.value) : std::string("–")) << "</text><text x=\"" << num(x + cw / 2)
              << "\" y=\"" << num(y + 28) << "\" font-size=\"9\" text-anchor=\"middle\" fill=\"" << (dark ? "#eee" : "#666")
              << "\">" << esc(c.note) << "</text>\n";
        }
    }
    o << "<text x=\"" << num(ml) << "\" y=\"" << num(H - 22) << "\" font-size=\"10\" fill=\"#555\">white: N* ≤ "
      << style.train_max << " (wrong right after the training range); dark green: N* = " << style.test_max
      << " (every tested length exact);</text>\n<text x=\"" << num(ml) << "\" y=\"" << num(H - 9)
      << "\" font-size=\"10\" fill=\"#555\">grey: no finished run. Under each value: the prediction (rec: recognizes).</text>\n";
    o << "</svg>\n";
    return o.str();
}

std::string training_curve_svg(const std::string& title, const std::vector<CurvePoint>& points) {
    const double W = 330, H = 150, ml = 36, mr = 40, mt = 18, mb = 28;
    std::ostringstream o;
    o << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << W << "\" height=\"" << H << "\" viewBox=\"0 0 " << W << ' '
      << H << "\" font-family=\"sans-serif\" role=\"img\" aria-label=\"training curve " << esc(title) << "\">\n";
    o << "<text x=\"" << ml << "\" y=\"12\" font-size=\"11\">" << esc(title) << "</text>\n";
    if (points.empty()) {
        o << "<text x=\"" << ml << "\" y=\"" << H / 2 << "\" font-size=\"10\" fill=\"#777\">no training log</text></svg>\n";
        return o.str();
    }
    const double smax = std::max(1, points.back().step);
    double lmax = 0;
    for (const auto& p : points) lmax = std::max(lmax, p.loss);
    if (!(lmax > 0)) lmax = 1;
    const double x0 = ml, x1 = W - mr, y0 = mt, y1 = H - mb;
    auto X = [&](double s) { return x0 + s / smax * (x1 - x0); };
    auto YA = [&](double a) { return y1 - a * (y1 - y0); };
    auto YL = [&](double l) { return y1 - l / lmax * (y1 - y0); };
    o << "<rect x=\"" << x0 << "\" y=\"" << y0 << "\" width=\"" << x1 - x0 << "\" height=\"" << y1 - y0
      << "\" fill=\"none\" stroke=\"#888\"/>\n";
    for (double a : {0.0, 0.5, 1.0})
        o << "<text x=\"" << x0 - 3 << "\" y=\"" << num(YA(a) + 3) << "\" font-size=\"9\" text-anchor=\"end\" fill=\"#0072B2\">"
          << static_cast<int>(a * 100) << "%</text>\n";
    for (double l : {0.0, lmax / 2, lmax})
        o << "<text x=\"" << x1 + 3 << "\" y=\"" << num(YL(l) + 3) << "\" font-size=\"9\" fill=\"#D55E00\">" << num(l)
          << "</text>\n";
    for (double t : nice_ticks(0, smax, 5))
        o << "<text x=\"" << num(X(t)) << "\" y=\"" << y1 + 12 << "\" font-size=\"9\" text-anchor=\"middle\">"
          << static_cast<long>(t) << "</text>\n";
    o << "<text x=\"" << (x0 + x1) / 2 << "\" y=\"" << H - 3 << "\" font-size=\"9\" text-anchor=\"middle\">step</text>\n";
    o << "<polyline fill=\"none\" stroke=\"#0072B2\" stroke-width=\"1.4\" points=\"";
    for (const auto& p : points) o << num(X(p.step)) << ',' << num(YA(p.accuracy)) << ' ';
    o << "\"><title>training accuracy</title></polyline>\n<polyline fill=\"none\" stroke=\"#D55E00\" stroke-width=\"1.4\" "
         "stroke-dasharray=\"5 3\" points=\"";
    for (const auto& p : points) o << num(X(p.step)) << ',' << num(YL(p.loss)) << ' ';
    o << "\"><title>loss</title></polyline>\n";
    o << "<text x=\"" << x1 - 4 << "\" y=\"" << y0 + 10 << "\" font-size=\"9\" text-anchor=\"end\"><tspan "
         "fill=\"#0072B2\">— train acc</tspan> <tspan fill=\"#D55E00\">- - loss</tspan></text>\n";
    o << "</svg>\n";
    return o.str();
}

}  // namespace ltlkit::neural::verify
