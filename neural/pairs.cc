// The per-pair outputs file of a run (pairs.hh).
#include "neural/pairs.hh"

#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace ltlkit::neural {

namespace {

constexpr const char* kHeader = "kind\tpair\tlength1\tword1\tlabel1\tlogit1\tlength2\tword2\tlabel2\tlogit2\tcorrect";
constexpr const char* kLegacyHeader = "pair\tword1\tlabel1\tlogit1\tword2\tlabel2\tlogit2";

struct KindName {
    PairKind kind;
    const char* name;
};
constexpr KindName kKindNames[] = {{PairKind::Control, "control"},
                                   {PairKind::Forced, "forced"},
                                   {PairKind::Informative, "informative"},
                                   {PairKind::Adversarial, "adversarial"},
                                   {PairKind::Boundary, "boundary"}};

std::vector<std::string> split_tabs(const std::string& line) {
    std::vector<std::string> out;
    std::size_t start = 0;
    while (true) {
        const auto tab = line.find('\t', start);
        out.push_back(line.substr(start, tab == std::string::npos ? std::string::npos : tab - start));
        if (tab == std::string::npos) return out;
        start = tab + 1;
    }
}

template <class T>
bool whole_number(const std::string& s, T& out) {
    const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && p == s.data() + s.size() && !s.empty();
}

bool whole_float(const std::string& s, float& out) {
    if (s.empty()) return false;
    char* end = nullptr;
    out = std::strtof(s.c_str(), &end);
    return end == s.c_str() + s.size();
}

bool bit(const std::string& s, bool& out) {
    if (s != "0" && s != "1") return false;
    out = s == "1";
    return true;
}

}  // namespace

std::string to_string(PairKind k) {
    for (const auto& [kind, name] : kKindNames)
        if (kind == k) return name;
    return "?";
}

std::optional<PairKind> parse_pair_kind(const std::string& name) {
    for (const auto& [kind, n] : kKindNames)
        if (name == n) return kind;
    return std::nullopt;
}

std::string pairs_path(const std::string& result_path) {
    const std::string stem = result_path.size() > 5 && result_path.ends_with(".json")
                                 ? result_path.substr(0, result_path.size() - 5)
                                 : result_path;
    return stem + "-pairs.tsv";
}

std::string legacy_pairs_path(const std::string& result_path) {
    const std::string stem = result_path.size() > 5 && result_path.ends_with(".json")
                                 ? result_path.substr(0, result_path.size() - 5)
                                 : result_path;
    return stem + "-adversarial.tsv";
}

std::string pairs_tsv(const std::vector<PairOutput>& pairs, const std::vector<std::string>& alphabet) {
    std::ostringstream o;
    o << kHeader << '\n';
    auto logit = [](float x) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(x));
        return std::string(buf);
    };
    for (const auto& p : pairs) {
        o << to_string(p.kind) << '\t' << p.pair;
        for (int i = 0; i < 2; ++i)
            o << '\t' << (p.words_stored ? p.words[i].size() : p.lengths[i]) << '\t'
              << (p.words_stored ? automata::format_word(alphabet, p.words[i]) : std::string()) << '\t'
              << (p.labels[i] ? 1 : 0) << '\t' << logit(p.logits[i]);
        o << '\t' << (p.correct() ? 1 : 0) << '\n';
    }
    return o.str();
}

Result<std::vector<PairOutput>> pairs_from_tsv(const std::string& text, const std::vector<std::string>& alphabet) {
    std::istringstream in(text);
    std::string line;
    if (!std::getline(in, line)) return make_error("pair outputs: empty file (expected the header line)");
    const bool legacy = line == kLegacyHeader;
    if (!legacy && line != kHeader)
        return make_error("pair outputs, line 1: not a pair-outputs header (expected '" + std::string(kHeader) + "')");
    std::vector<PairOutput> out;
    for (std::size_t n = 2; std::getline(in, line); ++n) {
        const std::string where = "pair outputs, line " + std::to_string(n) + ": ";
        const auto f = split_tabs(line);
        if (f.size() != (legacy ? 7u : 11u))
            return make_error(where + std::to_string(f.size()) + " fields, expected " + (legacy ? "7" : "11"));
        PairOutput p;
        std::size_t k = 0;
        if (!legacy) {
            const auto kind = parse_pair_kind(f[k++]);
            if (!kind) return make_error(where + "unknown pair kind '" + f[0] + "'");
            p.kind = *kind;
        }
        if (!whole_number(f[k++], p.pair) || p.pair < 0) return make_error(where + "the pair id is not a number >= 0");
        bool stored[2] = {true, true};
        for (int i = 0; i < 2; ++i) {
            bool have_length = false;
            if (!legacy) {
                if (!whole_number(f[k++], p.lengths[i]))
                    return make_error(where + "length " + std::to_string(i + 1) + " is not a number");
                have_length = true;
            }
            const std::string& w = f[k++];
            if (w.empty() && have_length && p.lengths[i] > 0) {
                stored[i] = false;
            } else {
                auto word = automata::parse_word(alphabet, w);
                if (!word.ok()) return make_error(where + word.error().message);
                if (have_length && word->size() != p.lengths[i])
                    return make_error(where + "word " + std::to_string(i + 1) + " has " + std::to_string(word->size()) +
                                      " symbols, its length field says " + std::to_string(p.lengths[i]));
                p.lengths[i] = word->size();
                p.words[i] = std::move(word).value();
            }
            if (!bit(f[k++], p.labels[i])) return make_error(where + "label " + std::to_string(i + 1) + " is not 0 or 1");
            if (!whole_float(f[k++], p.logits[i]))
                return make_error(where + "logit " + std::to_string(i + 1) + " is not a number");
        }
        if (stored[0] != stored[1]) return make_error(where + "one word is stored and the other is not");
        p.words_stored = stored[0];
        if (!legacy) {
            bool correct = false;
            if (!bit(f[k++], correct)) return make_error(where + "correct is not 0 or 1");
            if (correct != p.correct())
                return make_error(where + "correct says " + f[10] + " but the logits and labels say " +
                                  (p.correct() ? "1" : "0"));
        }
        out.push_back(std::move(p));
    }
    return out;
}

std::map<PairKind, PairCounts> count_pairs(const std::vector<PairOutput>& pairs) {
    std::map<PairKind, PairCounts> out;
    for (const auto& p : pairs) {
        auto& c = out[p.kind];
        ++c.pairs;
        c.correct += p.correct();
    }
    return out;
}

}  // namespace ltlkit::neural
