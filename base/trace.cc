// The test-only trace (trace.hh).
#include "base/trace.hh"

#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>

namespace ltlkit {

void trace_event(const std::string& line) {
    const char* path = std::getenv("LTLKIT_TEST_TRACE");
    if (!path || !*path) return;
    const int fd = ::open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0) return;
    const std::string text = line + "\n";
    const ssize_t n = ::write(fd, text.data(), text.size());
    (void)n;  // a trace for tests: a failed write shows as a missing line
    ::close(fd);
}

}  // namespace ltlkit
