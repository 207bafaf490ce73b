#include "automata/dot.hh"

#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

namespace ltlkit::automata {

using nlohmann::json;

long find_rejecting_sink(const Dfa& d) {
    const std::size_t m = d.num_symbols();
    for (std::size_t q = 0; q < d.num_states(); ++q) {
        if (d.accepting[q]) continue;
        bool sink = true;
        for (std::size_t a = 0; a < m && sink; ++a) sink = d.delta[q * m + a] == q;
        if (sink) return static_cast<long>(q);
    }
    return -1;
}

std::string to_dot(const Dfa& d, const DotOptions& options) {
    const std::size_t n = d.num_states(), m = d.num_symbols();
    const long sink = find_rejecting_sink(d);
    // The sink is hidden only when something else remains to draw.
    const bool hide = options.hide_sink && sink >= 0 && static_cast<State>(sink) != d.initial;
    auto quote = [](const std::string& s) { return json(s).dump(); };
    std::ostringstream out;
    out << "digraph dfa {\n  rankdir=LR;\n  node [shape=circle];\n";
    out << "  __start [shape=point, label=\"\", width=0.1];\n";
    for (std::size_t q = 0; q < n; ++q) {
        if (hide && static_cast<long>(q) == sink) continue;
        out << "  " << q << " [";
        out << (d.accepting[q] ? "shape=doublecircle" : "shape=circle");
        if (static_cast<long>(q) == sink) out << ", color=grey, fontcolor=grey";
        out << "];\n";
    }
    out << "  __start -> " << d.initial << ";\n";
    for (std::size_t q = 0; q < n; ++q) {
        if (hide && static_cast<long>(q) == sink) continue;
        std::map<State, std::string> labels;  // target -> symbols, in alphabet order
        for (std::size_t a = 0; a < m; ++a) {
            const State t = d.delta[q * m + a];
            if (hide && static_cast<long>(t) == sink) continue;
            auto& l = labels[t];
            l += (l.empty() ? "" : ",") + d.alphabet[a];
        }
        for (const auto& [t, l] : labels) {
            out << "  " << q << " -> " << t << " [label=" << quote(l);
            if (static_cast<long>(t) == sink) out << ", color=grey, fontcolor=grey";
            out << "];\n";
        }
    }
    out << "}\n";
    return out.str();
}

}  // namespace ltlkit::automata
