// Parser for the formula syntax of docs/SYNTAX.md §2 (ASCII and Unicode operators, '#' comments).
#pragma once

#include <string>
#include <string_view>

#include "base/error.hh"
#include "ltl/formula.hh"

namespace ltlkit::ltl {

// Parses one formula (which may span several lines). Errors carry 1-based line:column in
// characters, the offending line, and what was expected (docs/SYNTAX.md §2).
Result<Formula> parse_formula(std::string_view text);

// The largest window k of Y<=k that the parser reads (31 bits).
inline constexpr unsigned kMaxWindow = 0x7fffffff;
// Whether `name` is a symbol the parser reads back as an atom ([a-z][a-z0-9_]*, not true/false),
// so that a formula built by hand prints to text that parses to it.
bool is_atom_name(std::string_view name);

}  // namespace ltlkit::ltl
