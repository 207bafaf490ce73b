#include "automata/algebra/green.hh"

#include <algorithm>
#include <map>
#include <sstream>
#include <unordered_map>
#include <utility>

#include "automata/algebra/scc.hh"

namespace ltlkit::automata::algebra {

namespace {

// Renumbers classes in order of their least element, so numbering is deterministic.
std::size_t renumber(std::vector<std::uint32_t>& c) {
    std::unordered_map<std::uint32_t, std::uint32_t> m;
    for (auto& x : c) {
        auto [it, fresh] = m.emplace(x, std::uint32_t(m.size()));
        x = it->second;
    }
    return m.size();
}

}  // namespace

GreenClasses green_classes(const TransitionSemigroup& s) {
    GreenClasses g;
    const std::size_t n = s.size(), k = s.num_generators();
    strong_components(n, k, [&](std::uint32_t e, std::size_t a) { return std::int64_t(s.right(e, Symbol(a))); }, g.r);
    strong_components(n, k, [&](std::uint32_t e, std::size_t a) { return std::int64_t(s.left(e, Symbol(a))); }, g.l);
    strong_components(n, 2 * k, [&](std::uint32_t e, std::size_t a) {
            return std::int64_t(a < k ? s.right(e, Symbol(a)) : s.left(e, Symbol(a - k)));
        }, g.j);
    g.num_r = renumber(g.r);
    g.num_l = renumber(g.l);
    g.num_j = renumber(g.j);
    g.h.resize(n);
    std::unordered_map<std::uint64_t, std::uint32_t> hm;
    for (std::size_t e = 0; e < n; ++e) {
        auto [it, fresh] = hm.emplace((std::uint64_t(g.r[e]) << 32) | g.l[e], std::uint32_t(hm.size()));
        g.h[e] = it->second;
    }
    g.num_h = hm.size();
    return g;
}

std::uint32_t minimal_ideal(const TransitionSemigroup& s, const GreenClasses& g) {
    // A J-class is minimal iff no Cayley edge leaves it; in a finite semigroup there is exactly one.
    std::vector<char> leaves(g.num_j, 0);
    for (Element e = 0; e < s.size(); ++e)
        for (std::size_t a = 0; a < s.num_generators(); ++a) {
            if (g.j[s.right(e, Symbol(a))] != g.j[e]) leaves[g.j[e]] = 1;
            if (g.j[s.left(e, Symbol(a))] != g.j[e]) leaves[g.j[e]] = 1;
        }
    for (std::uint32_t c = 0; c < g.num_j; ++c)
        if (!leaves[c]) return c;
    return 0;
}

std::string element_name(const TransitionSemigroup& s, Element e, const std::vector<std::string>& alphabet) {
    const Word w = s.word(e);
    if (w.empty()) return "1";
    return format_word(alphabet, w);
}

std::string egg_box(const TransitionSemigroup& s, const GreenClasses& g, const std::vector<std::string>& alphabet) {
    std::ostringstream os;
    // Group elements: J-class -> R-class -> L-class -> elements.
    std::map<std::uint32_t, std::map<std::uint32_t, std::map<std::uint32_t, std::vector<Element>>>> box;
    for (Element e = 0; e < s.size(); ++e) box[g.j[e]][g.r[e]][g.l[e]].push_back(e);
    std::size_t d_index = 0;
    for (const auto& [j, rows] : box) {
        std::vector<std::uint32_t> cols;
        for (const auto& [r, row] : rows)
            for (const auto& [l, cell] : row)
                if (std::find(cols.begin(), cols.end(), l) == cols.end()) cols.push_back(l);
        std::sort(cols.begin(), cols.end());
        // Cell texts and column widths.
        std::vector<std::vector<std::string>> text;
        std::vector<std::size_t> width(cols.size(), 1);
        bool regular = false;
        for (const auto& [r, row] : rows) {
            std::vector<std::string> line;
            for (std::size_t c = 0; c < cols.size(); ++c) {
                std::string t;
                auto it = row.find(cols[c]);
                if (it != row.end())
                    for (Element e : it->second) {
                        if (!t.empty()) t += ",";
                        t += element_name(s, e, alphabet);
                        if (s.is_idempotent(e)) t += "*", regular = true;
                    }
                width[c] = std::max(width[c], t.size());
                line.push_back(t);
            }
            text.push_back(line);
        }
        os << "D-class " << d_index++ << " (" << rows.size() << " R × " << cols.size() << " L"
           << (regular ? ", regular" : "") << ")\n";
        std::string rule = "+";
        for (std::size_t c = 0; c < cols.size(); ++c) rule += std::string(width[c] + 2, '-') + "+";
        os << rule << "\n";
        for (const auto& line : text) {
            os << "|";
            for (std::size_t c = 0; c < cols.size(); ++c)
                os << " " << line[c] << std::string(width[c] - line[c].size(), ' ') << " |";
            os << "\n" << rule << "\n";
        }
    }
    return os.str();
}

}  // namespace ltlkit::automata::algebra
