// Dataset reader (docs/SYNTAX.md §9–11): `train --dataset DIR` / `eval --dataset DIR` read a folder
// written by generate_dataset (dataset.cc) in any of its formats, checking every line and,
// optionally, every label.
#include "automata/dataset.hh"
#include "automata/dataset_internal.hh"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <unordered_set>

#include "automata/algorithms.hh"
#include "automata/dfa_json.hh"
#include "base/checksum.hh"
#include "base/file.hh"
#include "base/json.hh"
#include "automata/lock.hh"
#include "automata/random.hh"
#include "automata/sampler.hh"

namespace ltlkit::automata {

namespace fs = std::filesystem;
using ojson = nlohmann::ordered_json;

using namespace dataset_detail;

// ------------------------------------------------------------------ reading

namespace {

Error at(const std::string& file, std::size_t line, const std::string& message, const std::string& source = "") {
    Error e = make_error(message);
    e.origin = file;
    e.line = static_cast<int>(line);
    e.source_line = source.size() > 200 ? source.substr(0, 200) + "..." : source;
    return e;
}

// Fast word parser matching parse_word (docs/SYNTAX.md §3); falls back to parse_word for the error message.
class WordParser {
public:
    explicit WordParser(const std::vector<std::string>& alphabet) : alphabet_(alphabet) {
        single_ = single_char_alphabet(alphabet);
        table_.fill(-1);
        for (std::size_t i = 0; i < alphabet.size(); ++i) {
            index_[alphabet[i]] = static_cast<Symbol>(i);
            if (alphabet[i].size() == 1) table_[static_cast<unsigned char>(alphabet[i][0])] = static_cast<int>(i);
        }
    }
    Result<Word> parse(const std::string& text) const {
        Word w;
        w.reserve(text.size());
        if (single_) {
            for (char c : text) {
                if (c == ' ') continue;
                int s = table_[static_cast<unsigned char>(c)];
                if (s < 0) return parse_word(alphabet_, text);
                w.push_back(static_cast<Symbol>(s));
            }
            return w;
        }
        std::size_t i = 0;
        while (i < text.size()) {
            while (i < text.size() && text[i] == ' ') ++i;
            if (i >= text.size()) break;
            std::size_t j = text.find(' ', i);
            if (j == std::string::npos) j = text.size();
            auto it = index_.find(text.substr(i, j - i));
            if (it == index_.end()) return parse_word(alphabet_, text);
            w.push_back(it->second);
            i = j;
        }
        return w;
    }

private:
    const std::vector<std::string>& alphabet_;
    bool single_ = true;
    std::array<int, 256> table_{};
    std::map<std::string, Symbol> index_;
};

std::vector<std::string> split_lines(const std::string& text) {
    std::vector<std::string> lines;
    std::size_t i = 0;
    while (i < text.size()) {
        std::size_t j = text.find('\n', i);
        if (j == std::string::npos) j = text.size();
        std::string line = text.substr(i, j - i);
        if (!line.empty() && line.back() == '\r') line.pop_back();
        lines.push_back(std::move(line));
        i = j + 1;
    }
    return lines;
}

// A relative path that stays inside the dataset folder (no "..", not absolute, not empty).
bool inside_folder(const std::string& rel) {
    if (rel.empty() || rel.find('\0') != std::string::npos) return false;
    const fs::path p(rel);
    if (p.is_absolute() || p.has_root_path()) return false;
    for (const auto& part : p)
        if (part == "..") return false;
    return true;
}

bool parse_long(const std::string& s, long& out) {
    if (s.empty() || s.size() > 18) return false;
    out = 0;
    for (char c : s) {
        if (c < '0' || c > '9') return false;
        out = out * 10 + (c - '0');
    }
    return true;
}

}  // namespace

Result<Dataset> read_dataset(const std::string& dir_text, bool check_labels) {
    const fs::path dir(dir_text);
    const std::string meta_path = (dir / "meta.json").string();
    if (!fs::exists(meta_path)) return make_error(meta_path + ": not found (is " + dir_text + " a dataset written by ltlkit generate?)");
    auto meta_text = read_file(meta_path);
    if (!meta_text.ok()) return meta_text.error();
    static const std::string regenerate = "regenerate the dataset (ltlkit generate with the same arguments and --force)";
    if (auto c = check_json_checksum(meta_path, *meta_text, regenerate); !c.ok()) return c.error();
    Dataset ds;
    ds.meta_json = *meta_text;
    auto parsed_meta = parse_json<ojson>(*meta_text);
    if (!parsed_meta.ok()) {
        Error e = parsed_meta.error();
        e.origin = meta_path;
        return e;
    }
    ojson& meta = *parsed_meta;
    if (!meta.is_object() || !meta.contains("dfa") || !meta.contains("splits") || !meta["splits"].is_object())
        return at(meta_path, 0, "missing \"dfa\" or \"splits\"");
    auto dfa = dfa_from_json(meta["dfa"].dump());
    if (!dfa.ok()) {
        Error e = dfa.error();
        e.message = "\"dfa\": " + e.message;
        e.origin = meta_path;
        return e;
    }
    ds.dfa = *dfa;
    ds.alphabet = ds.dfa.alphabet;
    DatasetFormat format = DatasetFormat::Tsv;
    if (meta.contains("format")) {
        if (!meta["format"].is_string()) return at(meta_path, 0, "\"format\" must be a string (tsv, jsonl or flare)");
        auto f = parse_dataset_format(meta["format"].get<std::string>());
        if (!f.ok()) return at(meta_path, 0, f.error().message);
        format = *f;
    }
    // The hashes of meta.json "files", checked after a file parses (so a broken line is reported
    // with its line number first).
    std::map<std::string, std::string> hashes;
    if (meta.contains("files") && meta["files"].is_object())
        for (auto it = meta["files"].begin(); it != meta["files"].end(); ++it)
            if (it.value().is_string()) hashes[it.key()] = it.value().get<std::string>();
    std::vector<std::string> bad_hash;  // files whose hash differs, in reading order
    auto hash_check = [&](const std::string& rel, const std::string& content) {
        auto h = hashes.find(rel);
        if (h != hashes.end() && sha256_hex(content) != h->second) bad_hash.push_back((dir / rel).string());
    };
    WordParser parser(ds.alphabet);
    for (auto it = meta["splits"].begin(); it != meta["splits"].end(); ++it) {
        Split split;
        split.name = it.key();
        const ojson& sj = it.value();
        // Checked before use: a wrong JSON type would throw, and a file outside the dataset folder
        // (absolute, or with "..") could be anything (/dev/zero).
        if (!inside_folder(split.name)) return at(meta_path, 0, "bad split name '" + split.name + "'");
        if (!sj.is_object()) return at(meta_path, 0, "split '" + split.name + "' must be an object");
        if (sj.contains("pairs") && !sj["pairs"].is_boolean())
            return at(meta_path, 0, "split '" + split.name + "': \"pairs\" must be true or false");
        const bool pairs = sj.value("pairs", false);
        std::vector<std::string> files;
        if (sj.contains("files")) {
            if (!sj["files"].is_array()) return at(meta_path, 0, "split '" + split.name + "': \"files\" must be an array");
            for (const auto& f : sj["files"]) {
                if (!f.is_string() || !inside_folder(f.get<std::string>()))
                    return at(meta_path, 0, "split '" + split.name + "': bad file name " + json_excerpt(f) +
                                                " (a relative path inside the dataset folder)");
                files.push_back(f.get<std::string>());
            }
        }
        if (files.empty()) return at(meta_path, 0, "split '" + split.name + "' lists no files");
        split.file = format == DatasetFormat::Flare ? split.name : files.front();
        auto check = [&](const Example& e, const std::string& file, std::size_t line, const std::string& src) -> std::optional<Error> {
            if (check_labels && dfa_accepts(ds.dfa, e.word) != e.label)
                return at(file, line, std::string("label ") + (e.label ? "1" : "0") + " disagrees with the DFA, which " +
                                          (e.label ? "rejects" : "accepts") + " the word", src);
            return std::nullopt;
        };
        if (format == DatasetFormat::Flare) {
            std::string main_path = (dir / (split.name + "/main.tok")).string();
            std::string labels_path = (dir / (split.name + "/labels.txt")).string();
            auto main = read_file(main_path);
            if (!main.ok()) return main.error();
            auto labels = read_file(labels_path);
            if (!labels.ok()) return labels.error();
            hash_check(split.name + "/main.tok", *main);
            hash_check(split.name + "/labels.txt", *labels);
            auto wl = split_lines(*main), ll = split_lines(*labels);
            std::vector<std::string> pl;
            std::string pairs_path = (dir / (split.name + "/pairs.txt")).string();
            if (pairs) {
                auto p = read_file(pairs_path);
                if (!p.ok()) return p.error();
                hash_check(split.name + "/pairs.txt", *p);
                pl = split_lines(*p);
            }
            if (ll.size() != wl.size())
                return at(labels_path, std::min(ll.size(), wl.size()) + 1,
                          std::to_string(ll.size()) + " labels for " + std::to_string(wl.size()) + " words in main.tok");
            if (pairs && pl.size() != wl.size())
                return at(pairs_path, std::min(pl.size(), wl.size()) + 1,
                          std::to_string(pl.size()) + " pair ids for " + std::to_string(wl.size()) + " words in main.tok");
            for (std::size_t i = 0; i < wl.size(); ++i) {
                Example e;
                auto w = parser.parse(wl[i]);
                if (!w.ok()) return at(main_path, i + 1, w.error().message, wl[i]);
                e.word = std::move(*w);
                if (ll[i] != "0" && ll[i] != "1") return at(labels_path, i + 1, "label must be 0 or 1, got '" + ll[i] + "'", ll[i]);
                e.label = ll[i] == "1";
                if (pairs && !parse_long(pl[i], e.pair))
                    return at(pairs_path, i + 1, "pair id must be a non-negative integer, got '" + pl[i] + "'", pl[i]);
                if (auto err = check(e, main_path, i + 1, wl[i])) return *err;
                split.examples.push_back(std::move(e));
            }
        } else {
            const std::string path = (dir / files.front()).string();
            auto text = read_file(path);
            if (!text.ok()) return text.error();
            hash_check(files.front(), *text);
            auto lines = split_lines(*text);
            split.examples.reserve(lines.size());
            for (std::size_t i = 0; i < lines.size(); ++i) {
                const std::string& line = lines[i];
                Example e;
                std::string word_text, label_text, pair_text;
                bool has_pair = false;
                if (format == DatasetFormat::Tsv) {
                    if (i == 0 && line + "\n" == tsv_header(pairs))
                        continue;  // the header line (absent in files of earlier versions)
                    std::vector<std::string> cols;
                    std::size_t a = 0;
                    while (true) {
                        std::size_t b = line.find('\t', a);
                        cols.push_back(line.substr(a, b == std::string::npos ? std::string::npos : b - a));
                        if (b == std::string::npos) break;
                        a = b + 1;
                    }
                    if (cols.size() != (pairs ? 3u : 2u))
                        return at(path, i + 1, "expected " + std::string(pairs ? "3 columns word<TAB>label<TAB>pair" : "2 columns word<TAB>label") +
                                                   ", got " + std::to_string(cols.size()), line);
                    word_text = cols[0];
                    label_text = cols[1];
                    if (pairs) {
                        pair_text = cols[2];
                        has_pair = true;
                    }
                } else {
                    auto parsed = parse_json<ojson>(line);
                    if (!parsed.ok()) {
                        const Error& pe = parsed.error();
                        const bool syntax = pe.message.rfind("malformed JSON", 0) == 0;
                        return at(path, i + 1, syntax ? std::string("not a JSON object") : pe.message, line);
                    }
                    ojson& j = *parsed;
                    if (!j.is_object() || !j.contains("word") || !j["word"].is_string() || !j.contains("label"))
                        return at(path, i + 1, "expected {\"word\": \"...\", \"label\": 0|1" + std::string(pairs ? ", \"pair\": N}" : "}"), line);
                    word_text = j["word"].get<std::string>();
                    if (j["label"].is_number_integer()) label_text = std::to_string(j["label"].get<long>());
                    else label_text = json_excerpt(j["label"]);
                    if (pairs) {
                        if (!j.contains("pair") || !j["pair"].is_number_integer())
                            return at(path, i + 1, "missing integer \"pair\"", line);
                        pair_text = std::to_string(j["pair"].get<long>());
                        has_pair = true;
                    }
                }
                auto w = parser.parse(word_text);
                if (!w.ok()) return at(path, i + 1, w.error().message, line);
                e.word = std::move(*w);
                if (label_text != "0" && label_text != "1")
                    return at(path, i + 1, "label must be 0 or 1, got '" + label_text + "'", line);
                e.label = label_text == "1";
                if (has_pair && !parse_long(pair_text, e.pair))
                    return at(path, i + 1, "pair id must be a non-negative integer, got '" + pair_text + "'", line);
                if (auto err = check(e, path, i + 1, line)) return *err;
                split.examples.push_back(std::move(e));
            }
        }
        if (!bad_hash.empty()) return checksum_error(bad_hash.front(), regenerate);
        ds.splits[split.name] = std::move(split);
    }
    return ds;
}

}  // namespace ltlkit::automata
