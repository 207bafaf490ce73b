// Figures of the verification report as self-contained SVG (drawn by hand, no plotting library):
// accuracy vs test length in small multiples (one panel per language, one line per architecture),
// the longest-perfect-length (N*) heatmap, and training curves. Series are told apart without
// colour: every architecture has its own dash pattern and marker, shown in the legend. Torch-free.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ltlkit::neural::verify {

// One line of an accuracy panel: an architecture's accuracy per test length (mean over its runs;
// the report averages bins of lengths, so that a line is readable at a few words per length).
struct AccuracySeries {
    std::string arch;
    std::map<int, double> accuracy;  // length -> accuracy in [0, 1]
    int runs = 0;                    // how many runs the mean is over
};

struct AccuracyPanel {
    std::string title;  // the language
    std::vector<AccuracySeries> series;
};

// Style index of each architecture: the position in `archs` (the plan's order), so an
// architecture looks the same in every panel and figure.
struct FigureStyle {
    std::vector<std::string> archs;
    int train_min = 1, train_max = 40;  // shaded as the training range
    int test_max = 500;
};

// Small multiples: one panel per language, `columns` per row, a shared legend on top.
std::string accuracy_panels_svg(const std::vector<AccuracyPanel>& panels, const FigureStyle& style,
                                int columns = 2);

// Heatmap, languages × architectures; `value` is N* (nullopt: no finished run), `note` a short
// text under the value (e.g. the prediction). Colour from white (N* at or below the training range)
// to dark green (N* = test_max).
struct HeatCell {
    std::optional<int> value;
    std::string note;
};
std::string nstar_heatmap_svg(const std::vector<std::string>& languages, const FigureStyle& style,
                              const std::vector<std::vector<HeatCell>>& cells);

// A run's training curve: training accuracy (left axis, linear) and loss (right axis, log scale:
// the loss falls by decades, and on a linear axis everything after the first steps lies on zero)
// per logged step; the legend sits above the plot area, outside it.
struct CurvePoint {
    int step = 0;
    double loss = 0, accuracy = 0;
};
std::string training_curve_svg(const std::string& title, const std::vector<CurvePoint>& points);

// The text with &, <, > and " escaped, for SVG and HTML.
std::string xml_escape(const std::string& s);

// "Nice" axis ticks covering [lo, hi] (1, 2 or 5 times a power of ten apart, at most ~max_ticks).
std::vector<double> nice_ticks(double lo, double hi, int max_ticks = 6);
// Ticks of a log axis covering [lo, hi] (0 < lo ≤ hi): whole decades, one or more decades apart
// (at most max_ticks ≥ 2), from the decade at or below lo to the one at or above hi (at least one
// decade). decade_label(10^e): "0.001" … "1000", "1e-5" beyond; distinct for distinct decades.
std::vector<double> log_ticks(double lo, double hi, int max_ticks = 5);
std::string decade_label(double x);

// Text layout without a font: the figures assume a sans-serif glyph is at most kCharWidth × the font
// size wide (per code point), size boxes from that, and cut or wrap what would not fit.
inline constexpr double kCharWidth = 0.6;
double text_width(const std::string& s, double font_size);
// `s` cut to `width` with an ellipsis, when wider.
std::string fit_text(const std::string& s, double width, double font_size);
// `s` broken at spaces into lines at most `width` wide (a longer word is cut).
std::vector<std::string> wrap_words(const std::string& s, double width, double font_size);

}  // namespace ltlkit::neural::verify
