// Fuzz target: the suite reader (docs/SYNTAX.md §10), through a temporary file as users give it.
#include <vector>
#include <filesystem>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

#include "automata/language.hh"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace ltlkit;
    if (size > 8192) return 0;
    std::string path_s = (std::filesystem::temp_directory_path() / "ltlkit-fuzz-suite-XXXXXX").string();
    std::vector<char> path(path_s.begin(), path_s.end());
    path.push_back(0);
    int fd = mkstemp(path.data());
    if (fd < 0) return 0;
    if (write(fd, data, size) != static_cast<ssize_t>(size)) {
        close(fd);
        unlink(path.data());
        return 0;
    }
    close(fd);
    auto suite = automata::read_suite(path.data());
    if (suite.ok()) {
        for (auto spec : suite.value()) {
            if (spec.kind == automata::InputKind::DfaFile) continue;  // no file system walks
            spec.max_states = 5000;
            (void)automata::load_language(spec);
        }
    }
    unlink(path.data());
    return 0;
}
