// DFA JSON (SPEC §8) and Graphviz DOT.
#pragma once

#include <string>

#include "automata/dfa.hh"

namespace ltlkit::automata {

// {"alphabet": [...], "initial": 0, "accepting": [...], "transitions": [[...], ...]}.
std::string to_json(const Dfa& d);
// Strict reader: a partial DFA is an error naming the state and symbol that are missing.
Result<Dfa> dfa_from_json(const std::string& text);
Result<Dfa> read_dfa_file(const std::string& path);

struct DotOptions {
    bool hide_sink = false;  // omit a rejecting sink (and the edges into it); otherwise drawn grey
};
std::string to_dot(const Dfa& d, const DotOptions& options = {});

// The index of a rejecting sink state (all transitions to itself, not accepting), or -1.
long find_rejecting_sink(const Dfa& d);

// Reads a whole file; Error mentions the path. Writes atomically (temporary file + rename).
Result<std::string> read_file(const std::string& path);
Result<bool> write_file_atomic(const std::string& path, const std::string& content);

}  // namespace ltlkit::automata
