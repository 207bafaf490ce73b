#include "base/test_gate.hh"

#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "base/stop.hh"

namespace ltlkit {

void test_gate(const char* name) {
    const char* value = std::getenv(name);
    if (!value || !*value) return;
    std::string gate = value;
    // "%a": the Slurm array task's index, so that one task of an array can be held.
    if (const auto at = gate.find("%a"); at != std::string::npos) {
        const char* task = std::getenv("SLURM_ARRAY_TASK_ID");
        gate.replace(at, 2, task ? task : "");
    }
    const char* path = gate.c_str();
    if (::access(path, F_OK) == 0) return;
    const std::string reached = gate + ".reached";
    const int fd = ::open(reached.c_str(), O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
    if (fd >= 0) ::close(fd);
    for (int i = 0; i < 60'000 && ::access(path, F_OK) != 0 && !stop_requested(); ++i) ::usleep(10'000);
}

}  // namespace ltlkit
