// Parser for the formula syntax of SPEC §2 (ASCII and Unicode operators, '#' comments).
#pragma once

#include <string>
#include <string_view>

#include "ltl/error.hh"
#include "ltl/formula.hh"

namespace ltlkit::ltl {

// Parses one formula (which may span several lines). Errors carry 1-based line:column in
// characters, the offending line, and what was expected (SPEC §2).
Result<Formula> parse_formula(std::string_view text);

}  // namespace ltlkit::ltl
