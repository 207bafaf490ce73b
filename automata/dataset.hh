// Datasets (docs/SYNTAX.md §9–11): balanced, uniformly sampled, reproducible splits of a regular
// language given by its minimal DFA, plus boundary pairs (edit distance 1, labels differ) and
// adversarial pairs from the classifier's witness families; and the reader used by
// `train --dataset DIR` / `eval --dataset DIR`.
//
// Layout of DIR (format tsv): meta.json, train.tsv, validation.tsv, test.tsv, boundary.tsv,
// adversarial-<arch>.tsv; lines `word<TAB>label[<TAB>pair]` (label 1/0, words as in docs/SYNTAX.md §8).
// Format jsonl: the same files with `.jsonl`, one {"word": "...", "label": 1[, "pair": 7]} per line.
// Format flare (FLaRe layout): one subfolder per split (train/, validation/, test/, boundary/,
// adversarial-<arch>/) with main.tok (one word per line, symbols separated by single spaces, the
// empty word an empty line), labels.txt (1/0 per line) and, for pair splits, pairs.txt.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "automata/certificate.hh"
#include "automata/dfa.hh"
#include "automata/random.hh"
#include "base/checksum.hh"

namespace ltlkit::automata {

// Inclusive range of word lengths, written "A:B".
struct LengthRange {
    std::size_t lo = 0, hi = 0;
    bool contains(std::size_t n) const { return lo <= n && n <= hi; }
    std::size_t size() const { return hi - lo + 1; }
    friend bool operator==(const LengthRange&, const LengthRange&) = default;
};
// "A:B" with A <= B (digits only; "7" alone means 7:7). Errors name the text.
// Lengths are at most kMaxLength (the int range the training and evaluation use).
inline constexpr std::size_t kMaxLength = 2147483647;
Result<LengthRange> parse_length_range(const std::string& text);
std::string to_string(const LengthRange& r);

enum class DatasetFormat { Tsv, Jsonl, Flare };
Result<DatasetFormat> parse_dataset_format(const std::string& text);  // "tsv" | "jsonl" | "flare"
std::string to_string(DatasetFormat f);

// A witness family of an adversarial set and what meta.json records beside it.
struct AdversarialFamily {
    WordFamily family;  // its pairs are family.at(r); lengths must not decrease with r
    std::string note;   // e.g. the certificate's reason
    // For an extended family (family.extended()): what determines the words beside x, p, y, z,
    // which are recorded with the loop marker shown as "<e^r>" (it enters the rerun check).
    std::string extra;
};

// The families whose pairs form adversarial-<arch>.tsv.
struct AdversarialSpec {
    std::string arch;  // "global", "local-2", "hybrid-1", ...
    std::vector<AdversarialFamily> families;
};

struct DatasetOptions {
    LengthRange train{1, 40};  // validation uses the same lengths, disjoint words
    LengthRange test{41, 500};
    std::size_t per_length = 512;           // words per length per split, half per label (odd: +1 positive)
    std::size_t boundary_per_length = 16;   // boundary pairs per test length
    std::size_t adversarial_per_family = 64;  // pairs per family, r spread over the test range
    std::uint64_t seed = 1;
    DatasetFormat format = DatasetFormat::Tsv;
    std::vector<AdversarialSpec> adversarial;
    bool force = false;  // write into a non-empty DIR whose meta.json has other arguments

    // Recorded in meta.json "language": {"name", "kind", "text"}.
    std::string language_name;
    std::string language_kind;  // "formula" | "regex" | "dfa"
    std::string language_text;
    std::string extra_meta_json = "{}";  // merged into meta.json under "extra" (e.g. predictions)

    std::size_t max_table_cells = 0;  // sampler tables (exit 3 above; 0: --max-table-cells default)
    // Called now and then with (symbols done, symbols planned); may be empty.
    std::function<void(std::uint64_t, std::uint64_t)> progress;
};

// One labelled word of a split; pair >= 0 in boundary and adversarial splits (-1 otherwise).
struct Example {
    Word word;
    bool label = false;
    long pair = -1;
};

struct Split {
    std::string name;  // "train", "validation", "test", "boundary", "adversarial-local-2"
    std::string file;  // path relative to DIR (a folder for flare)
    std::vector<Example> examples;
};

struct Dataset {
    std::vector<std::string> alphabet;
    Dfa dfa;                   // the minimal DFA recorded in meta.json
    std::string meta_json;     // meta.json as written
    std::map<std::string, Split> splits;  // by name
    // Convenience: splits.at(name), or nullptr.
    const Split* find(const std::string& name) const;
};

struct GenerateReport {
    bool unchanged = false;              // DIR already held this dataset (verified); nothing written
    std::vector<std::string> files;      // written (or verified), relative to DIR
    std::uint64_t words = 0, symbols = 0;
    std::vector<std::string> shortfalls; // one line each, as in meta.json
    std::vector<std::string> warnings;   // a split without one of the labels (meta.json "warnings")
    std::vector<std::string> skipped_families;
    // With force: a file of the earlier dataset in DIR that failed its checksum (regenerated).
    std::string repaired;
};

// Version of the generator's output; bump when the bytes for given arguments change.
inline constexpr const char* kDatasetGeneratorVersion = "ltlkit-dataset-1";

// Generates the dataset into DIR (created if missing). `minimal` must be the minimal DFA.
// Identical arguments into a DIR holding their dataset: verifies the hashes, writes nothing.
// Different arguments into a non-empty DIR: error unless options.force. An interrupted run (DIR
// holds DIR/.generating.json with the same arguments, no meta.json) starts over without force.
// meta.json carries an embedded checksum (base/checksum.hh); a mismatch is an error unless force.
Result<GenerateReport> generate_dataset(const Dfa& minimal, const std::string& dir,
                                        const DatasetOptions& options);

// Reads DIR/meta.json and every split it lists (any format). Errors carry file:line. With
// check_labels, a label that disagrees with the DFA of meta.json is an error. meta.json's embedded
// checksum and the hash of every file it lists are checked (a mismatch is an error, exit 2).
Result<Dataset> read_dataset(const std::string& dir, bool check_labels = true);

class Sampler;  // automata/sampler.hh

// LC25's test words (Li & Cotterell, arXiv 2505.23623; docs/PROTOCOL.md "Evaluation", the
// `lc25` test distribution), for any language, by these rules:
//  - accepted words uniform among the accepted words of the length, except for a language of the
//    form Σ*fΣ* (LC25's LT-1 = Σ*aΣ*, LT-2 = Σ*abΣ*; also LC26's FACTOR-AB), whose accepted test
//    words contain f exactly once (uniform among those);
//  - each rejected word is a near miss: an accepted word of the same length (drawn as above) with
//    one symbol changed, uniform among the single-symbol substitutions that leave the language;
//  - a length without accepted words (odd lengths of Dyck languages and of (ab)*) is not tested.
// LC25 describes these samplers for its own languages; on other languages the same three rules
// apply unchanged (the documented generalization).
class Lc25TestSampler {
public:
    static Result<Lc25TestSampler> create(const Dfa& minimal, std::size_t max_length);
    // ceil(per_length / 2) accepted and floor(per_length / 2) rejected words of length n (fewer
    // rejected ones when the accepted words have no label-changing substitution; none when the
    // length has no accepted word).
    std::vector<Example> sample(std::size_t n, std::size_t per_length, Rng& rng) const;
    // The factor f when the language is Σ*fΣ* (positives contain it exactly once), else nullopt.
    const std::optional<Word>& factor() const { return factor_; }
    // One line for the report: which rules applied.
    std::string rule() const;

private:
    Dfa dfa_;
    std::optional<Word> factor_;
    std::shared_ptr<const Sampler> positives_;  // over the accepted test words' DFA
};

}  // namespace ltlkit::automata
