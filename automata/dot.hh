// Graphviz DOT for DFAs (docs/SYNTAX.md §9).
#pragma once

#include <string>

#include "automata/dfa.hh"

namespace ltlkit::automata {

struct DotOptions {
    bool hide_sink = false;  // omit a rejecting sink (and the edges into it); otherwise drawn grey
};
std::string to_dot(const Dfa& d, const DotOptions& options = {});

// The index of a rejecting sink state (all transitions to itself, not accepting), or -1.
long find_rejecting_sink(const Dfa& d);

}  // namespace ltlkit::automata
