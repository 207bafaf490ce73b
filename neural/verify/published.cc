#include "neural/verify/published.hh"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <set>
#include <sstream>
#include <tuple>

#include "base/file.hh"

namespace ltlkit::neural::verify {

const PublishedValue* Published::find(const std::string& language, const std::string& arch,
                                      const std::string& statistic) const {
    for (const auto& v : values)
        if (v.language == language && v.arch == arch && v.statistic == statistic) return &v;
    return nullptr;
}

bool Published::has_language(const std::string& language) const {
    return std::any_of(values.begin(), values.end(), [&](const auto& v) { return v.language == language; });
}

bool Published::has_arch(const std::string& arch) const {
    return std::any_of(values.begin(), values.end(), [&](const auto& v) { return v.arch == arch; });
}

Result<Published> parse_published(const std::string& text, const std::string& file) {
    Published p;
    p.file = file;
    std::istringstream in(text);
    std::string line;
    int lineno = 0;
    bool header = false;
    std::set<std::tuple<std::string, std::string, std::string>> seen;
    auto bad = [&](const std::string& what) {
        Error e = make_error(what);
        e.origin = file;
        e.line = lineno;
        return e;
    };
    while (std::getline(in, line)) {
        ++lineno;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (lineno == 1 && line.rfind("\xEF\xBB\xBF", 0) == 0) return bad("the file starts with a UTF-8 byte order mark");
        if (const std::string tag = "# test-distribution:"; line.rfind(tag, 0) == 0) {
            std::string v = line.substr(tag.size());
            v.erase(0, v.find_first_not_of(' '));
            v.erase(v.find_last_not_of(' ') + 1);
            if (v != "uniform" && v != "lc25") return bad("test-distribution '" + v + "': expected uniform or lc25");
            p.test_distribution = v;
            continue;
        }
        if (line.empty() || line[0] == '#') continue;
        std::vector<std::string> cols;
        std::size_t start = 0;
        for (;;) {
            const auto tab = line.find('\t', start);
            cols.push_back(line.substr(start, tab == std::string::npos ? std::string::npos : tab - start));
            if (tab == std::string::npos) break;
            start = tab + 1;
        }
        if (!header) {
            if (cols != std::vector<std::string>{"language", "architecture", "statistic", "value", "source"})
                return bad("expected the header language<TAB>architecture<TAB>statistic<TAB>value<TAB>source");
            header = true;
            continue;
        }
        if (cols.size() != 5)
            return bad("expected 5 tab-separated fields (language, architecture, statistic, value, source), found " +
                       std::to_string(cols.size()));
        PublishedValue v{cols[0], cols[1], cols[2], cols[4], 0};
        if (v.language.empty() || v.arch.empty()) return bad("empty language or architecture");
        const auto& stats = published_statistics();
        if (std::find(stats.begin(), stats.end(), v.statistic) == stats.end())
            return bad("unknown statistic '" + v.statistic + "' (expected mean, max or sd)");
        char* end = nullptr;
        v.value = std::strtod(cols[3].c_str(), &end);
        if (cols[3].empty() || end != cols[3].c_str() + cols[3].size() || !std::isfinite(v.value) || v.value < 0 ||
            v.value > 100)
            return bad("value '" + cols[3] + "' is not a percentage in [0, 100]");
        if (!seen.insert({v.language, v.arch, v.statistic}).second)
            return bad("a second " + v.statistic + " for " + v.language + " / " + v.arch);
        p.values.push_back(std::move(v));
    }
    if (!header) {
        lineno = std::max(lineno, 1);
        return bad("no header line (language<TAB>architecture<TAB>statistic<TAB>value<TAB>source)");
    }
    return p;
}

Result<Published> read_published(const std::string& path) {
    auto text = read_file(path);
    if (!text.ok()) return text.error();
    return parse_published(*text, path);
}

}  // namespace ltlkit::neural::verify
