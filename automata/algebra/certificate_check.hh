// The independent certificate checker behind `ltlkit check-certificate` and Python's
// check_certificate (docs/CLASSES.md §3, docs/SUBREGULAR.md "What the checker checks").
#pragma once

#include <string>

#include "base/error.hh"

namespace ltlkit::automata::algebra {

// A certificate JSON as written by certificate_to_json (automata/certificate.hh) or
// subregular_certificate_json (subregular.hh): true when it holds, false when it does not, Error on
// bad input.
Result<bool> check_certificate_json(const std::string& text, std::string* explanation = nullptr);

}  // namespace ltlkit::automata::algebra
