// DFA JSON (docs/SYNTAX.md §9): the one format in which DFAs are read and written.
#pragma once

#include <string>

#include "automata/dfa.hh"
#include "base/error.hh"

namespace ltlkit::automata {

// {"alphabet": [...], "initial": 0, "accepting": [...], "transitions": [[...], ...]}.
std::string to_json(const Dfa& d);
// Strict reader (base/json.hh: no duplicate keys): a partial DFA is an error naming the state
// and symbol that are missing.
Result<Dfa> dfa_from_json(const std::string& text);
Result<Dfa> read_dfa_file(const std::string& path);

}  // namespace ltlkit::automata
