// Dataset generator (docs/SYNTAX.md §9–11): ranges and formats, the splits, meta.json. See dataset.hh for the
// layout; the reader is dataset_read.cc, LC25's test words dataset_lc25.cc.
//
// Determinism: every random choice comes from an Rng seeded by derive_seed over (seed, purpose,
// length, label), so the bytes depend only on the arguments (and a length's words do not depend on
// the other lengths). No timestamps or paths enter any file.
#include "automata/dataset.hh"
#include "automata/dataset_internal.hh"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <map>
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

namespace dataset_detail {

std::string tsv_header(bool pairs) { return pairs ? "word\tlabel\tpair\n" : "word\tlabel\n"; }

bool dfa_accepts(const Dfa& d, const Word& w) {
    State q = d.initial;
    const std::size_t k = d.num_symbols();
    for (Symbol a : w) q = d.delta[q * k + a];
    return d.accepting[q] != 0;
}

// The states of w's prefixes (prefix[i] = δ(initial, w[0..i))) and the suffix acceptance table
// good[i * S + q] = δ(q, w[i..n)) is accepting, O(n·S): which single-symbol edits change the label.
void edit_tables(const Dfa& dfa, const Word& w, std::vector<State>& prefix, std::vector<std::uint8_t>& good) {
    const std::size_t n = w.size(), S = dfa.num_states();
    prefix.assign(n + 1, dfa.initial);
    for (std::size_t i = 0; i < n; ++i) prefix[i + 1] = dfa.next(prefix[i], w[i]);
    good.assign((n + 1) * S, 0);
    for (std::size_t q = 0; q < S; ++q) good[n * S + q] = dfa.accepting[q];
    for (std::size_t i = n; i-- > 0;)
        for (std::size_t q = 0; q < S; ++q) good[i * S + q] = good[(i + 1) * S + dfa.next(q, w[i])];
}

}  // namespace dataset_detail

// ------------------------------------------------------------------ ranges, formats

Result<LengthRange> parse_length_range(const std::string& text) {
    auto bad = [&](const std::string& why) {
        return make_error("bad length range '" + text + "': " + why + " (expected A:B with A <= B, e.g. 1:40)");
    };
    // Decimal digits; a value beyond kMaxLength is refused, never wrapped (a training length is an
    // int downstream: 4294967336 must not become 40).
    auto parse_num = [](const std::string& s, std::size_t& out) {
        if (s.empty()) return 0;
        out = 0;
        for (char c : s) {
            if (c < '0' || c > '9') return 0;
            if (out > kMaxLength) continue;  // keeps reading digits, stays above the bound
            out = out * 10 + static_cast<std::size_t>(c - '0');
        }
        return out > kMaxLength ? -1 : 1;
    };
    const std::string too_long = "a length is at most " + std::to_string(kMaxLength);
    LengthRange r;
    auto colon = text.find(':');
    if (colon == std::string::npos) {
        const int ok = parse_num(text, r.lo);
        if (ok <= 0) return bad(ok < 0 ? too_long : "not a number");
        r.hi = r.lo;
        return r;
    }
    const int lo_ok = parse_num(text.substr(0, colon), r.lo), hi_ok = parse_num(text.substr(colon + 1), r.hi);
    if (lo_ok < 0 || hi_ok < 0) return bad(too_long);
    if (lo_ok == 0 || hi_ok == 0) return bad("not two numbers");
    if (r.lo > r.hi) return bad("the start is after the end");
    return r;
}

std::string to_string(const LengthRange& r) { return std::to_string(r.lo) + ":" + std::to_string(r.hi); }

Result<DatasetFormat> parse_dataset_format(const std::string& text) {
    if (text == "tsv") return DatasetFormat::Tsv;
    if (text == "jsonl") return DatasetFormat::Jsonl;
    if (text == "flare") return DatasetFormat::Flare;
    return make_error("unknown dataset format '" + text + "' (expected tsv, jsonl or flare)");
}

std::string to_string(DatasetFormat f) {
    switch (f) {
        case DatasetFormat::Tsv: return "tsv";
        case DatasetFormat::Jsonl: return "jsonl";
        case DatasetFormat::Flare: return "flare";
    }
    return "tsv";
}

const Split* Dataset::find(const std::string& name) const {
    auto it = splits.find(name);
    return it == splits.end() ? nullptr : &it->second;
}

// SHA-256: sha256_hex is in base/checksum.hh.

namespace {

struct WordHash {
    std::size_t operator()(const Word& w) const {
        std::uint64_t x = 0xcbf29ce484222325ULL ^ w.size();
        for (Symbol s : w) x = (x ^ s) * 0x100000001b3ULL;
        return static_cast<std::size_t>(splitmix64(x));
    }
};
using WordSet = std::unordered_set<Word, WordHash>;

std::string json_escape(const std::string& s) { return ojson(s).dump(); }

// The text of one split in the chosen format. Words are written as in format_word (docs/SYNTAX.md §3).

class SplitWriter {
public:
    SplitWriter(std::string name, DatasetFormat format, bool pairs, const std::vector<std::string>& alphabet)
        : name_(std::move(name)), format_(format), pairs_(pairs), alphabet_(alphabet),
          single_(single_char_alphabet(alphabet)) {
        if (format_ == DatasetFormat::Tsv) main_ = tsv_header(pairs_);
        for (const auto& s : alphabet) {
            std::string e = json_escape(s);
            escaped_.push_back(e.substr(1, e.size() - 2));
        }
    }

    void add(const Word& w, bool label, long pair) {
        ++words_;
        symbols_ += w.size();
        ++counts_[w.size()][label ? 1 : 0];
        switch (format_) {
            case DatasetFormat::Tsv:
                append_word(main_, w, single_ ? "" : " ", alphabet_);
                main_ += label ? "\t1" : "\t0";
                if (pairs_) {
                    main_ += '\t';
                    main_ += std::to_string(pair);
                }
                main_ += '\n';
                break;
            case DatasetFormat::Jsonl:
                main_ += "{\"word\": \"";
                append_word(main_, w, single_ ? "" : " ", escaped_);
                main_ += label ? "\", \"label\": 1" : "\", \"label\": 0";
                if (pairs_) {
                    main_ += ", \"pair\": ";
                    main_ += std::to_string(pair);
                }
                main_ += "}\n";
                break;
            case DatasetFormat::Flare:
                append_word(main_, w, " ", alphabet_);
                main_ += '\n';
                labels_ += label ? "1\n" : "0\n";
                if (pairs_) {
                    pairs_text_ += std::to_string(pair);
                    pairs_text_ += '\n';
                }
                break;
        }
    }

    // (relative path, content) of every file of the split.
    std::vector<std::pair<std::string, const std::string*>> files() const {
        switch (format_) {
            case DatasetFormat::Tsv: return {{name_ + ".tsv", &main_}};
            case DatasetFormat::Jsonl: return {{name_ + ".jsonl", &main_}};
            case DatasetFormat::Flare: {
                std::vector<std::pair<std::string, const std::string*>> out = {
                    {name_ + "/main.tok", &main_}, {name_ + "/labels.txt", &labels_}};
                if (pairs_) out.push_back({name_ + "/pairs.txt", &pairs_text_});
                return out;
            }
        }
        return {};
    }

    const std::string& name() const { return name_; }
    bool has_pairs() const { return pairs_; }
    std::uint64_t words() const { return words_; }
    std::uint64_t symbols() const { return symbols_; }
    const std::map<std::size_t, std::array<std::uint64_t, 2>>& counts() const { return counts_; }

private:
    static void append_word(std::string& out, const Word& w, const char* sep,
                            const std::vector<std::string>& names) {
        const bool no_sep = sep[0] == '\0';
        for (std::size_t i = 0; i < w.size(); ++i) {
            if (!no_sep && i > 0) out += sep;
            const std::string& s = names[w[i]];
            if (s.size() == 1) out += s[0];
            else out += s;
        }
    }

    std::string name_;
    DatasetFormat format_;
    bool pairs_;
    std::vector<std::string> alphabet_, escaped_;
    bool single_;
    std::string main_, labels_, pairs_text_;
    std::uint64_t words_ = 0, symbols_ = 0;
    std::map<std::size_t, std::array<std::uint64_t, 2>> counts_;
};

std::uint64_t seed_for(std::uint64_t seed, const std::string& purpose, std::size_t n, int label) {
    return derive_seed({kDatasetGeneratorVersion, std::to_string(seed), purpose, std::to_string(n),
                        std::to_string(label)});
}

// Everything that determines the bytes of the dataset.
ojson arguments_json(const Dfa& dfa, const DatasetOptions& o) {
    ojson a;
    a["generator_version"] = kDatasetGeneratorVersion;
    a["language"] = {{"name", o.language_name}, {"kind", o.language_kind}, {"text", o.language_text}};
    a["dfa"] = ojson::parse(to_json(dfa));
    a["seed"] = o.seed;
    a["format"] = to_string(o.format);
    a["train_lengths"] = to_string(o.train);
    a["test_lengths"] = to_string(o.test);
    a["per_length"] = o.per_length;
    a["boundary_per_length"] = o.boundary_per_length;
    a["adversarial_per_family"] = o.adversarial_per_family;
    ojson adv = ojson::array();
    for (const auto& spec : o.adversarial) {
        ojson fams = ojson::array();
        for (const auto& [f, note, extra] : spec.families)
            fams.push_back({{"x", family_word_text(dfa.alphabet, f.x)}, {"p", family_word_text(dfa.alphabet, f.p)},
                            {"y", family_word_text(dfa.alphabet, f.y)}, {"z", family_word_text(dfa.alphabet, f.z)},
                            {"r_min", f.r_min}, {"note", note}, {"extra", extra}, {"custom", f.extended()}});
        adv.push_back({{"arch", spec.arch}, {"families", fams}});
    }
    a["adversarial"] = adv;
    a["extra"] = ojson::parse(o.extra_meta_json.empty() ? "{}" : o.extra_meta_json);
    return a;
}

// Empty apart from the folder's lock file.
bool dir_is_empty(const fs::path& dir) {
    std::error_code ec;
    if (!fs::exists(dir, ec)) return true;
    if (!fs::is_directory(dir, ec)) return false;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        if (it->path().filename() != ".lock") return false;
    return true;
}

struct Planned {
    std::uint64_t done = 0, total = 0;
    std::uint64_t last_report = 0;
    const DatasetOptions* o = nullptr;
    void add(std::uint64_t s) {
        done += s;
        if (o->progress && (done - last_report >= (1u << 20) || done >= total)) {
            last_report = done;
            o->progress(std::min(done, total), total);
        }
    }
};

// The adversarial splits: per architecture, for each witness family the pairs family.at(r) at
// values of r spread over those whose two words fit the test lengths, and meta.json's record of
// the families (skipped ones with the reason).
struct AdversarialSplits {
    std::vector<SplitWriter> writers;
    ojson meta = ojson::object();
};

Result<AdversarialSplits> adversarial_splits(const Dfa& dfa, const DatasetOptions& o, GenerateReport& rep, Planned& plan) {
    AdversarialSplits out;
    for (const auto& spec : o.adversarial) {
        out.writers.emplace_back("adversarial-" + spec.arch, o.format, true, dfa.alphabet);
        SplitWriter& split = out.writers.back();
        ojson fam_meta = ojson::array();
        long id = 0;
        for (std::size_t fi = 0; fi < spec.families.size(); ++fi) {
            const WordFamily& f = spec.families[fi].family;
            ojson fm = {{"x", family_word_text(dfa.alphabet, f.x)}, {"p", family_word_text(dfa.alphabet, f.p)},
                        {"y", family_word_text(dfa.alphabet, f.y)}, {"z", family_word_text(dfa.alphabet, f.z)},
                        {"r_min", f.r_min}, {"note", spec.families[fi].note}, {"extra", spec.families[fi].extra}};
            auto skip = [&](const std::string& why) {
                std::string text = "adversarial-" + spec.arch + ": family " + std::to_string(fi) + " skipped: " + why;
                fm["skipped"] = why;
                rep.skipped_families.push_back(text);
            };
            // The values of r whose two words f.at(r) both lie in the test range.
            std::vector<std::size_t> fitting;
            if (!f.extended()) {
                if (f.p.empty()) {
                    skip("the pumped word p is empty");
                    fam_meta.push_back(fm);
                    continue;
                }
                const std::size_t base_short = f.x.size() + std::min(f.y.size(), f.z.size());
                const std::size_t base_long = f.x.size() + std::max(f.y.size(), f.z.size());
                const std::size_t P = f.p.size();
                for (std::size_t r = f.r_min; base_short + r * P <= o.test.hi; ++r)
                    if (base_short + r * P >= o.test.lo && base_long + r * P <= o.test.hi) fitting.push_back(r);
            } else {
                // Lengths do not decrease with r: scan until both words are past the range.
                for (std::size_t r = f.r_min; r <= f.r_min + o.test.hi + 1; ++r) {
                    auto [u, v] = f.at(r);
                    if (std::min(u.size(), v.size()) > o.test.hi) break;
                    if (o.test.contains(u.size()) && o.test.contains(v.size())) fitting.push_back(r);
                }
            }
            if (fitting.empty()) {
                skip("its words (r >= " + std::to_string(f.r_min) + ") do not fit in lengths " + to_string(o.test));
                fam_meta.push_back(fm);
                continue;
            }
            const std::size_t want = std::min<std::size_t>(o.adversarial_per_family, fitting.size());
            std::vector<std::size_t> rs;
            for (std::size_t j = 0; j < want; ++j) {
                std::size_t r = want == 1 ? fitting.front() : fitting[j * (fitting.size() - 1) / (want - 1)];
                if (rs.empty() || rs.back() != r) rs.push_back(r);
            }
            std::size_t made = 0;
            ojson same = ojson::array();
            for (std::size_t r : rs) {
                auto [u, v] = f.at(r);
                bool in_alphabet = true;
                for (const Word* w : {&u, &v})
                    for (Symbol a : *w) in_alphabet = in_alphabet && a < dfa.num_symbols();
                if (!in_alphabet)
                    return make_error("adversarial family " + std::to_string(fi) + " for " + spec.arch +
                                      " gives a word with a symbol outside the alphabet at r = " + std::to_string(r));
                bool lu = dfa_accepts(dfa, u), lv = dfa_accepts(dfa, v);
                if (lu == lv) {
                    same.push_back(r);
                    continue;
                }
                split.add(u, lu, id);
                split.add(v, lv, id);
                ++id;
                ++made;
                plan.add(u.size() + v.size());
            }
            fm["r"] = {{"from", rs.front()}, {"to", rs.back()}, {"pairs", made}};
            if (!same.empty()) {
                fm["r_without_difference"] = same;
                rep.skipped_families.push_back("adversarial-" + spec.arch + ": family " + std::to_string(fi) +
                                               ": " + std::to_string(same.size()) +
                                               " values of r give words with the same label (not written)");
            }
            fam_meta.push_back(fm);
        }
        out.meta[spec.arch] = {{"file", split.files().front().first}, {"pairs", id}, {"families", fam_meta}};
    }
    return out;
}

}  // namespace

// ------------------------------------------------------------------ generation

namespace {

// Present while a dataset is being written; holds the arguments (with an embedded checksum).
constexpr const char* kPartialMarker = ".generating.json";

// Temporaries of an interrupted write_file_atomic in DIR and its subfolders (format flare).
void remove_dataset_temporaries(const fs::path& dir) {
    remove_stale_temporaries(dir.string());
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        if (it->is_directory(ec)) remove_stale_temporaries(it->path().string());
}

// The arguments a dataset cannot be generated from, before anything is touched.
std::optional<Error> check_dataset_options(const Dfa& dfa, const DatasetOptions& o) {
    if (auto v = dfa.validate(); !v.ok()) return v.error();
    if (o.per_length == 0) return make_error("--per-length must be at least 1");
    for (const auto& spec : o.adversarial) {
        if (spec.arch.empty() ||
            spec.arch.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-_") != std::string::npos)
            return make_error("bad architecture name '" + spec.arch + "' for an adversarial set");
        for (const auto& af : spec.families)
            if (!af.family.extended())
                for (const Word* w : {&af.family.x, &af.family.p, &af.family.y, &af.family.z})
                    for (Symbol a : *w)
                        if (a >= dfa.num_symbols())
                            return make_error("adversarial family for " + spec.arch + " uses symbol index " +
                                              std::to_string(a) + " outside the alphabet");
    }
    return std::nullopt;
}

// Every place where fewer words or pairs existed than asked, for meta.json and the report.
class Shortfalls {
public:
    Shortfalls(const Sampler& sampler, GenerateReport& rep) : sampler_(sampler), rep_(rep) {}

    // label < 0: a pair split (boundary).
    void add(const std::string& split, std::size_t n, int label, std::uint64_t asked, std::uint64_t got) {
        ojson j = {{"split", split}, {"length", n}};
        std::string text = split + ": length " + std::to_string(n);
        if (label >= 0) {
            std::string available = sampler_.count_exact(n, label == 1);
            j["label"] = label;
            j["available"] = available;
            text += ", label " + std::to_string(label) + ": asked " + std::to_string(asked) + ", got " +
                    std::to_string(got) + " (" + available + " words exist" +
                    (split == "train" ? "" : ", earlier splits at this length come first") + ")";
        } else {
            text += ": asked " + std::to_string(asked) + " pairs, got " + std::to_string(got) +
                    " (few words have a neighbour of the other label)";
        }
        j["asked"] = asked;
        j["got"] = got;
        j["text"] = text;
        json_.push_back(j);
        rep_.shortfalls.push_back(text);
    }

    const ojson& json() const { return json_; }

private:
    const Sampler& sampler_;
    GenerateReport& rep_;
    ojson json_ = ojson::array();
};

// Train, validation and test: per length and label one pool of distinct words, uniform among the
// words of that length and label (all of them, shuffled, where few exist), dealt to the splits of
// that length in this order.
struct RandomSplits {
    SplitWriter train, validation, test;
    WordSet train_words;  // train and validation words, kept out of test / boundary at shared lengths
};

std::optional<Error> fill_random_splits(const Sampler& sampler, const DatasetOptions& o, RandomSplits& s,
                                        Shortfalls& shortfalls, Planned& plan) {
    const std::size_t max_len = std::max(o.train.hi, o.test.hi);
    const std::size_t quota[2] = {o.per_length / 2, o.per_length - o.per_length / 2};
    std::size_t lo = std::min(o.train.lo, o.test.lo);
    for (std::size_t n = lo; n <= max_len; ++n) {
        std::vector<SplitWriter*> parts;
        if (o.train.contains(n)) {
            parts.push_back(&s.train);
            parts.push_back(&s.validation);
        }
        if (o.test.contains(n)) parts.push_back(&s.test);
        if (parts.empty()) continue;
        std::vector<std::vector<Example>> got(parts.size());
        for (int label = 1; label >= 0; --label) {
            const std::size_t q = quota[label];
            if (q == 0) continue;
            const std::size_t needed = q * parts.size();
            Rng rng(seed_for(o.seed, "pool", n, label));
            std::vector<Word> pool;
            if (sampler.has_at_least(n, label, 4 * static_cast<std::uint64_t>(needed))) {
                // Many words: uniform draws, duplicates redrawn (>= 3/4 of draws are new).
                WordSet seen;
                pool.reserve(needed);
                std::size_t draws = 0;
                while (pool.size() < needed) {
                    if (++draws > 64 * needed + 1024)
                        return make_error("internal: sampler keeps repeating words at length " + std::to_string(n));
                    Word w = sampler.sample(n, label, rng);
                    if (seen.insert(w).second) pool.push_back(std::move(w));
                }
            } else {
                // Few words: all of them (lexicographic), shuffled.
                pool = sampler.enumerate(n, label, 4 * needed);
                rng.shuffle(pool);
            }
            std::size_t next = 0;
            for (std::size_t i = 0; i < parts.size(); ++i) {
                std::size_t take = std::min(q, pool.size() - next);
                for (std::size_t j = 0; j < take; ++j) got[i].push_back({std::move(pool[next + j]), label == 1, -1});
                next += take;
                if (take < q) shortfalls.add(parts[i]->name(), n, label, q, take);
            }
        }
        for (std::size_t i = 0; i < parts.size(); ++i) {
            Rng mix(seed_for(o.seed, "order-" + parts[i]->name(), n, 0));
            mix.shuffle(got[i]);
            for (auto& e : got[i]) {
                parts[i]->add(e.word, e.label, -1);
                if (parts[i] != &s.test) s.train_words.insert(std::move(e.word));
            }
            plan.add(n * got[i].size());
        }
    }
    return std::nullopt;
}


// The boundary split: per test length, pairs (w, w') at edit distance 1 (substitution, insertion or
// deletion) with different labels, w drawn uniformly, the edit uniformly among those that flip the
// label; pairs that touch a training word are skipped.
void fill_boundary_split(const Dfa& dfa, const Sampler& sampler, const DatasetOptions& o, const WordSet& train_words,
                         SplitWriter& boundary, Shortfalls& shortfalls, Planned& plan) {
    long pair_id = 0;
    const std::size_t S = dfa.num_states(), K = dfa.num_symbols();
    std::vector<std::uint8_t> good;  // good[i * S + q]: δ(q, w[i..n)) is accepting
    std::vector<State> prefix;
    for (std::size_t n = o.test.lo; n <= o.test.hi && o.boundary_per_length > 0; ++n) {
        Rng rng(seed_for(o.seed, "boundary", n, 0));
        std::size_t made = 0, attempts = 0;
        while (made < o.boundary_per_length && attempts < 8 * o.boundary_per_length) {
            ++attempts;
            bool label = (attempts % 2) == 1;
            if (!sampler.has_words(n, label)) label = !label;
            Word w = sampler.sample(n, label, rng);
            edit_tables(dfa, w, prefix, good);
            // Edits that flip the label: substitution (i, b), insertion (i, b) for i <= n, deletion i.
            auto flips = [&](int kind, std::size_t i, std::size_t b) -> bool {
                if (kind == 0) return b != w[i] && good[(i + 1) * S + dfa.next(prefix[i], b)] != label;
                if (kind == 1) return good[i * S + dfa.next(prefix[i], b)] != label;
                return good[(i + 1) * S + prefix[i]] != label;
            };
            auto result_ok = [&](std::size_t len) { return len > 0 || n > 0; };
            std::uint64_t count = 0;
            for (std::size_t i = 0; i < n; ++i)
                for (std::size_t b = 0; b < K; ++b) count += flips(0, i, b);
            for (std::size_t i = 0; i <= n; ++i)
                for (std::size_t b = 0; b < K; ++b) count += flips(1, i, b);
            if (n > 0 && result_ok(n - 1))
                for (std::size_t i = 0; i < n; ++i) count += flips(2, i, 0);
            if (count == 0) continue;
            std::uint64_t pick = rng.below(count);
            Word e;
            auto choose = [&]() {
                for (std::size_t i = 0; i < n; ++i)
                    for (std::size_t b = 0; b < K; ++b)
                        if (flips(0, i, b) && pick-- == 0) {
                            e = w;
                            e[i] = static_cast<Symbol>(b);
                            return;
                        }
                for (std::size_t i = 0; i <= n; ++i)
                    for (std::size_t b = 0; b < K; ++b)
                        if (flips(1, i, b) && pick-- == 0) {
                            e = w;
                            e.insert(e.begin() + static_cast<long>(i), static_cast<Symbol>(b));
                            return;
                        }
                for (std::size_t i = 0; i < n; ++i)
                    if (flips(2, i, 0) && pick-- == 0) {
                        e = w;
                        e.erase(e.begin() + static_cast<long>(i));
                        return;
                    }
            };
            choose();
            if (train_words.count(w) || train_words.count(e)) continue;  // keep training words out
            boundary.add(w, label, pair_id);
            boundary.add(e, !label, pair_id);
            ++pair_id;
            ++made;
            plan.add(w.size() + e.size());
        }
        if (made < o.boundary_per_length) shortfalls.add("boundary", n, -1, o.boundary_per_length, made);
    }
}

// DST made a hard link to SRC, atomically (a temporary link renamed over DST); false when the file
// system refuses links (the caller then writes a copy).
bool link_atomic(const fs::path& src, const fs::path& dst) {
    std::error_code ec;
    const fs::path tmp = dst.string() + ".link.tmp";
    fs::remove(tmp, ec);
    fs::create_hard_link(src, tmp, ec);
    if (ec) return false;
    fs::rename(tmp, dst, ec);
    if (ec) {
        fs::remove(tmp, ec);
        return false;
    }
    return true;
}

// Writes every split's files (each atomically) and removes the stale files of an earlier dataset;
// returns what meta.json records of them.
struct WrittenSplits {
    ojson files = ojson::object();   // path -> SHA-256
    ojson splits = ojson::object();  // name -> lengths, files, counts
};

Result<WrittenSplits> write_splits(const fs::path& dir, const std::vector<const SplitWriter*>& all,
                                   const DatasetOptions& o, const std::vector<std::string>& old_files,
                                   GenerateReport& rep) {
    WrittenSplits out;
    std::error_code ec;
    std::map<std::string, std::string> written_by_hash;  // SHA-256 -> the first file with that content
    for (const SplitWriter* s : all) {
        ojson sj;
        if (s->name() == "train" || s->name() == "validation") sj["lengths"] = to_string(o.train);
        else if (s->name() == "boundary" && !s->counts().empty())  // an edit may make a word one shorter or longer
            sj["lengths"] = to_string(LengthRange{s->counts().begin()->first, s->counts().rbegin()->first});
        else sj["lengths"] = to_string(o.test);
        if (s->name() == "boundary") sj["note"] = "pairs at edit distance 1 (substitution, insertion or deletion) with different labels; sources drawn at the test lengths " + to_string(o.test) + ", so partners may be one symbol shorter or longer";
        ojson flist = ojson::array();
        for (const auto& [path, content] : s->files()) {
            fs::create_directories((dir / path).parent_path(), ec);
            const std::string sha = sha256_hex(*content);
            // Architectures whose witness families coincide get byte-identical adversarial files:
            // written once, the others hard links to it (a copy where links are not supported).
            const auto same = written_by_hash.find(sha);
            if (same == written_by_hash.end() || !link_atomic(dir / same->second, dir / path)) {
                auto w = write_file_atomic((dir / path).string(), *content);
                if (!w.ok()) return w.error();
                written_by_hash.emplace(sha, path);
            } else {
                sj["same_as"] = same->second;
            }
            out.files[path] = sha;
            flist.push_back(path);
            rep.files.push_back(path);
        }
        sj["files"] = flist;
        sj["pairs"] = s->has_pairs();
        sj["words"] = s->words();
        sj["symbols"] = s->symbols();
        ojson counts = ojson::object();
        for (const auto& [n, c] : s->counts()) counts[std::to_string(n)] = {{"1", c[1]}, {"0", c[0]}};
        sj["counts"] = counts;
        // A split without one of the labels (e.g. (ab)* has no accepted word of odd length) cannot
        // measure that label: said on stderr by generate and in meta.json's "warnings".
        if (s->words() > 0 && (s->name() == "train" || s->name() == "validation" || s->name() == "test")) {
            std::uint64_t by_label[2] = {0, 0};
            for (const auto& [n, c] : s->counts()) by_label[0] += c[0], by_label[1] += c[1];
            for (int label : {1, 0})
                if (by_label[label] == 0)
                    rep.warnings.push_back("the " + s->name() + " split has no " +
                                           (label ? "accepted (positive)" : "rejected (negative)") +
                                           " word at lengths " + sj["lengths"].get<std::string>() +
                                           ": the language has too few such words there (train takes them first)");
        }
        out.splits[s->name()] = sj;
        rep.words += s->words();
        rep.symbols += s->symbols();
    }
    // Stale files of an earlier (forced-over) dataset.
    for (const auto& f : old_files)
        if (!out.files.contains(f)) fs::remove(dir / f, ec);
    return out;
}

// meta.json (docs/SYNTAX.md §9–11, docs/DURABILITY.md): the language, the arguments, how the words
// were drawn, every split with its counts and files' hashes, the adversarial families and every shortfall.
ojson dataset_meta(const Dfa& dfa, const DatasetOptions& o, const ojson& args, const Sampler& sampler,
                   const WrittenSplits& written, const ojson& adv_meta, const ojson& shortfalls,
                   const GenerateReport& rep) {
    ojson meta;
    meta["generator"] = "ltlkit generate";
    meta["generator_version"] = kDatasetGeneratorVersion;
    meta["language"] = args["language"];
    meta["alphabet"] = dfa.alphabet;
    meta["dfa"] = args["dfa"];
    meta["seed"] = o.seed;
    meta["count_method"] = sampler.count_method();
    meta["sampling"] =
        "uniform among the words of each length and label: exact counts for reporting, log2-double "
        "counts for the walk (uniform up to double rounding); distinct words within a split; at "
        "lengths shared by several splits one pool per label is dealt to train, then validation, "
        "then test";
    meta["format"] = to_string(o.format);
    meta["per_length"] = o.per_length;
    meta["balance"] = "per length: ceil(per_length/2) positive, floor(per_length/2) negative, fewer where fewer exist";
    meta["splits"] = written.splits;
    meta["adversarial"] = adv_meta;
    meta["shortfalls"] = shortfalls;
    if (!rep.warnings.empty()) meta["warnings"] = rep.warnings;
    ojson skipped = ojson::array();
    for (const auto& s : rep.skipped_families) skipped.push_back(s);
    meta["skipped_families"] = skipped;
    meta["words"] = rep.words;
    meta["symbols"] = rep.symbols;
    meta["extra"] = args["extra"];
    meta["files"] = written.files;
    meta["arguments"] = args;
    return meta;
}

// The output folder made ready for writing: locked, and what it held checked against the arguments
// (the same arguments and intact files: nothing to do; other content: only with --force).
struct PreparedFolder {
    FolderLock lock;
    std::vector<std::string> old_files;       // files of an earlier dataset, removed unless rewritten
    std::string repaired;                     // a file of an earlier dataset that failed its checksum
    std::optional<GenerateReport> unchanged;  // the folder already holds this dataset, intact
};

Result<PreparedFolder> prepare_folder(const fs::path& dir, const std::string& dir_text, const ojson& args,
                                      const DatasetOptions& o) {
    PreparedFolder out;
    std::error_code ec;
    if (fs::exists(dir, ec) && !fs::is_directory(dir, ec))
        return io_error(dir_text + ": exists and is not a directory");
    const fs::path marker = dir / kPartialMarker;
    // One writer at a time. A folder that holds a dataset (or its generation) is locked before it is
    // read; any other folder only once it is certain to be written, so a refusal leaves it untouched.
    if (fs::exists(dir / "meta.json", ec) || fs::exists(marker, ec)) {
        auto l = lock_folder(dir_text, "ltlkit generate");
        if (!l.ok()) return l.error();
        out.lock = std::move(l).value();
    }
    if (!dir_is_empty(dir)) {
        ojson old;
        bool have_old = false, partial = false;
        if (fs::exists(dir / "meta.json")) {
            auto text = read_file((dir / "meta.json").string());
            if (text.ok()) {
                if (auto c = check_json_checksum((dir / "meta.json").string(), *text,
                                                 "use --force to regenerate the dataset");
                    !c.ok()) {
                    if (!o.force) return c.error();
                    out.repaired = "meta.json";
                } else if (auto parsed = parse_json<ojson>(*text); parsed.ok()) {
                    old = std::move(*parsed);
                    have_old = old.is_object();
                }
            }
        } else if (fs::exists(marker)) {
            // An interrupted run: the same arguments start over without --force.
            auto text = read_file(marker.string());
            if (text.ok() && json_checksum_state(*text) == ChecksumState::Valid) {
                if (auto m = parse_json<ojson>(*text); m.ok())
                    partial = m->is_object() && m->contains("arguments") && (*m)["arguments"] == args;
            }
        }
        if (have_old && old.contains("files") && old["files"].is_object())
            for (auto it = old["files"].begin(); it != old["files"].end(); ++it) out.old_files.push_back(it.key());
        if (have_old && old.contains("arguments") && old["arguments"] == args) {
            GenerateReport rep;
            rep.unchanged = true;
            std::string bad;
            for (auto it = old["files"].begin(); it != old["files"].end(); ++it) {
                auto content = read_file((dir / it.key()).string());
                if (!content.ok() || sha256_hex(*content) != it.value().get<std::string>()) {
                    bad = it.key();
                    break;
                }
                rep.files.push_back(it.key());
            }
            if (bad.empty()) {
                // Killed after meta.json was written: only the marker and temporaries are left over.
                fs::remove(marker, ec);
                remove_dataset_temporaries(dir);
                rep.words = old.value("words", std::uint64_t{0});
                rep.symbols = old.value("symbols", std::uint64_t{0});
                if (old.contains("shortfalls"))
                    for (const auto& s : old["shortfalls"]) rep.shortfalls.push_back(s.value("text", ""));
                if (old.contains("warnings"))
                    for (const auto& w : old["warnings"]) rep.warnings.push_back(w.get<std::string>());
                out.unchanged = std::move(rep);
                return out;
            }
            if (!o.force)
                return make_error((dir / bad).string() +
                                  ": missing or does not match its hash in meta.json (truncated, corrupted or "
                                  "edited); use --force to regenerate the dataset");
            out.repaired = bad;
        } else if (!o.force && !partial) {
            return make_error(dir_text + ": not empty and " +
                              (have_old ? std::string("holds a dataset generated with other arguments")
                               : fs::exists(marker) ? std::string("holds an interrupted generation with other arguments")
                                                    : std::string("holds no ltlkit dataset")) +
                              "; use --force to write into it");
        }
        // Forced: drop the old meta.json first, so an interrupted run leaves no stale claim.
        fs::remove(dir / "meta.json", ec);
    }
    fs::create_directories(dir, ec);
    if (ec) return io_error(dir_text + ": cannot create directory: " + ec.message());
    if (!out.lock.held()) {
        auto l = lock_folder(dir_text, "ltlkit generate");
        if (!l.ok()) return l.error();
        out.lock = std::move(l).value();
    }
    remove_dataset_temporaries(dir);
    {
        // Says "being generated with these arguments" until meta.json is in place (docs/DURABILITY.md).
        ojson m{{"arguments", args}};
        auto w = write_file_atomic(marker.string(), json_with_checksum(m.dump(), 1));
        if (!w.ok()) return w.error();
    }
    return out;
}

}  // namespace

Result<GenerateReport> generate_dataset(const Dfa& dfa, const std::string& dir_text,
                                        const DatasetOptions& o) {
    if (auto e = check_dataset_options(dfa, o)) return *e;
    const fs::path dir(dir_text);
    const ojson args = arguments_json(dfa, o);
    auto folder = prepare_folder(dir, dir_text, args, o);
    if (!folder.ok()) return folder.error();
    if (folder->unchanged) return std::move(*folder->unchanged);

    const std::size_t max_len = std::max(o.train.hi, o.test.hi);
    auto sampler_r = Sampler::create(dfa, max_len, o.max_table_cells);
    if (!sampler_r.ok()) return sampler_r.error();
    const Sampler& sampler = *sampler_r;

    GenerateReport rep;
    Shortfalls shortfalls(sampler, rep);
    Planned plan;
    plan.o = &o;
    for (std::size_t n = o.train.lo; n <= o.train.hi; ++n) plan.total += 2 * n * o.per_length;
    for (std::size_t n = o.test.lo; n <= o.test.hi; ++n) plan.total += n * (o.per_length + 2 * o.boundary_per_length);

    const auto& alphabet = dfa.alphabet;
    RandomSplits random{SplitWriter("train", o.format, false, alphabet), SplitWriter("validation", o.format, false, alphabet),
                        SplitWriter("test", o.format, false, alphabet), {}};
    if (auto e = fill_random_splits(sampler, o, random, shortfalls, plan)) return *e;
    SplitWriter boundary("boundary", o.format, true, alphabet);
    fill_boundary_split(dfa, sampler, o, random.train_words, boundary, shortfalls, plan);
    auto adversarial = adversarial_splits(dfa, o, rep, plan);
    if (!adversarial.ok()) return adversarial.error();

    std::vector<const SplitWriter*> all = {&random.train, &random.validation, &random.test, &boundary};
    for (const auto& a : adversarial->writers) all.push_back(&a);
    auto written = write_splits(dir, all, o, folder->old_files, rep);
    if (!written.ok()) return written.error();
    const ojson meta = dataset_meta(dfa, o, args, sampler, *written, adversarial->meta, shortfalls.json(), rep);
    auto w = write_file_atomic((dir / "meta.json").string(), json_with_checksum(meta.dump(), 2));
    if (!w.ok()) return w.error();
    std::error_code ec;
    fs::remove(dir / kPartialMarker, ec);
    rep.repaired = folder->repaired;
    if (o.progress) o.progress(plan.total, plan.total);
    return rep;
}
}  // namespace ltlkit::automata
