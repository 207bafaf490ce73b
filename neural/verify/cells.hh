// The cells of verify ("LANGUAGE:ARCH") and the cells files that list them (verify --cells, a sweep
// level's cells.txt). Torch-free: the Python module's sweep_report reads sweep folders with it.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "automata/architecture.hh"
#include "base/error.hh"

namespace ltlkit::neural::verify {

// A cell "LANGUAGE:ARCH" (split at the last ':'), the architecture parsed.
Result<std::pair<std::string, automata::Architecture>> parse_cell(const std::string& text);
// The cells of FILE: one "LANGUAGE:ARCH" per line; blank lines and lines starting with '#' skipped.
Result<std::vector<std::string>> read_cells_file(const std::string& path);

}  // namespace ltlkit::neural::verify
