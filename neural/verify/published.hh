// Published numbers to compare a verification with: a TSV file
//   language<TAB>architecture<TAB>statistic<TAB>value<TAB>source
// (a header line with these names first; `#` comments; statistic mean | max | sd; value a
// percentage in [0, 100]), e.g. examples/lc26.published.tsv. One comment line
// `# test-distribution: NAME` (uniform | lc25) says which test words the paper drew, so that a
// report compares like with like (docs/PROTOCOL.md "Evaluation"). Torch-free.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "base/error.hh"

namespace ltlkit::neural::verify {

struct PublishedValue {
    std::string language, arch, statistic, source;
    double value = 0;  // percent
};

struct Published {
    std::string file;  // where it was read from (for the report)
    std::string test_distribution;  // the paper's test words ("uniform", "lc25"); empty: not stated
    std::vector<PublishedValue> values;
    const PublishedValue* find(const std::string& language, const std::string& arch,
                               const std::string& statistic) const;
    bool has_language(const std::string& language) const;
    bool has_arch(const std::string& arch) const;
};

// Strict: every error names FILE:LINE; duplicate (language, architecture, statistic) rows, unknown
// statistics, values outside [0, 100] and missing columns are refused.
Result<Published> parse_published(const std::string& text, const std::string& file);
Result<Published> read_published(const std::string& path);

// The statistics a report compares, in display order.
inline const std::vector<std::string>& published_statistics() {
    static const std::vector<std::string> s{"mean", "max", "sd"};
    return s;
}

}  // namespace ltlkit::neural::verify
