#include "neural/verify/cells.hh"

#include <cctype>
#include <sstream>

#include "base/file.hh"

namespace ltlkit::neural::verify {

Result<std::pair<std::string, automata::Architecture>> parse_cell(const std::string& text) {
    const auto colon = text.rfind(':');
    if (colon == std::string::npos || colon == 0)
        return make_error("cell '" + text + "': expected LANGUAGE:ARCH (e.g. SIGMA*A:local-2)");
    auto arch = automata::parse_architecture(text.substr(colon + 1));
    if (!arch.ok()) return make_error("cell '" + text + "': " + arch.error().message);
    return std::pair{text.substr(0, colon), *arch};
}

Result<std::vector<std::string>> read_cells_file(const std::string& path) {
    auto text = read_file(path);
    if (!text.ok()) return text.error();
    std::vector<std::string> out;
    std::istringstream in(*text);
    int line_no = 0;
    for (std::string line; std::getline(in, line);) {
        ++line_no;
        while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back()))) line.pop_back();
        std::size_t b = 0;
        while (b < line.size() && std::isspace(static_cast<unsigned char>(line[b]))) ++b;
        line.erase(0, b);
        if (line.empty() || line[0] == '#') continue;
        if (auto c = parse_cell(line); !c.ok())
            return make_error(path + ":" + std::to_string(line_no) + ": " + c.error().message);
        out.push_back(line);
    }
    if (out.empty()) return make_error(path + ": no cell (expected one LANGUAGE:ARCH per line)");
    return out;
}

}  // namespace ltlkit::neural::verify
