// A test-only trace across processes: when the environment variable LTLKIT_TEST_TRACE names a
// file, trace_event appends one line to it (O_APPEND, one write per line, so lines of concurrent
// processes never interleave). Tests count the lines to check how often an expensive step ran in
// a command and all the processes it started (tests/cli/compile_once.sh: each language compiled
// and classified once by a `verify --threads 2`). Unset (always, outside tests): does nothing.
#pragma once

#include <string>

namespace ltlkit {

void trace_event(const std::string& line);

}  // namespace ltlkit
