// Receptive-field ceilings (docs/CEILING.md): the exact best accuracy that ANY L-layer k-local
// NoPE transformer recognizer with strict masks can reach on a word distribution, whatever its
// weights. After a layer, a position's vector is a function of its own vector and of the multiset
// of the vectors in its window max(1, i-k) <= j < i (soft attention), so the vector the classifier
// reads at EOS is a function of the word's *EOS type*: L rounds of colour refinement (1-WL,
// Weisfeiler & Leman 1968; Xu et al. ICLR 2019 for multiset aggregation) on the window graph,
// started from the symbols. The ceiling is the sum over EOS types of the larger label weight.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "automata/dataset.hh"
#include "automata/dfa.hh"
#include "base/error.hh"

namespace ltlkit::automata {

// --- EOS types of single words

// Interned EOS types of an L-layer k-local strict-mask NoPE model over `num_symbols` symbols:
// type_0(i) = the symbol at i (EOS at n+1 is a symbol of its own), type_l(i) = (type_{l-1}(i),
// multiset{type_{l-1}(j) : max(1, i-k) <= j < i}). Ids are only comparable within one object.
// Only the last L*k symbols are read when the word is at least that long (docs/CEILING.md, Lemma 1).
class EosTypes {
public:
    EosTypes(std::size_t num_symbols, unsigned window, unsigned layers);
    ~EosTypes();
    EosTypes(EosTypes&&) noexcept;
    EosTypes& operator=(EosTypes&&) noexcept;

    // The id of type_L(n+1) of w. O(min(|w|, L*k) * L * k log k) plus hashing.
    std::uint32_t eos_type(const Word& w);
    unsigned window() const;
    unsigned layers() const;
    // Distinct types interned so far at `layer` (1..L).
    std::size_t types_at(unsigned layer) const;

    struct Impl;

private:
    std::unique_ptr<Impl> impl_;
};

// The id of w's EOS type in a fresh table (only useful through same_eos_type or with EosTypes).
// True when u and v get the same EOS type at depth `layers` for window `window`: every such model,
// whatever its weights, gives both words the same EOS vector, hence the same answer (Lemma 2).
bool same_eos_type(const Word& u, const Word& v, std::size_t num_symbols, unsigned window, unsigned layers);

// --- ceilings over word distributions

enum class CeilingDistribution {
    Training,   // the training (and fit-check) distribution of neural/data.cc
    Test,       // the evaluation's per-length balanced sample (neural/eval.cc), mean over lengths
    Uniform,    // uniform over all words of each length, lengths uniform
    Empirical,  // a finite list of labelled words (empirical_ceiling)
};
std::string to_string(CeilingDistribution d);  // "training" | "test" | "uniform" | "empirical"
Result<CeilingDistribution> parse_ceiling_distribution(const std::string& text);

// How a finite sample's words weigh (empirical_ceiling): every word the same (the fit check's and
// the adversarial sets' accuracy), or every length the same and the words of a length the same
// (the evaluation's mean over per-length accuracies).
enum class CeilingWeighting { Words, Lengths };
std::string to_string(CeilingWeighting w);  // "words" | "lengths"
Result<CeilingWeighting> parse_ceiling_weighting(const std::string& text);

struct CeilingQuery {
    std::string arch = "local-2";  // "local-K"; global, hybrid-K and lstm have no ceiling (an error)
    unsigned layers = 2;           // L >= 1
    CeilingDistribution distribution = CeilingDistribution::Training;
    LengthRange lengths{1, 40};    // Training default; Test uses 41:500 in the CLI
    std::size_t per_length = 512;  // Test: words per length of the evaluation sample (--per-length)
    CeilingWeighting weighting = CeilingWeighting::Words;  // Empirical only
    // Budget of the exact dynamic programme: live states per step (over it: bounds) and seconds
    // for the whole call (0: no limit).
    std::size_t max_states = 4'000'000;
    double max_seconds = 120;
    // Called with a line about the programme's state every 10 seconds at most (may be empty).
    std::function<void(const std::string&)> progress;
};

// One length of the distribution. `accuracy` is the accuracy at this length of the one classifier
// that is optimal for the whole mixture (null when not exact); `optimum` the best any model reaches
// at this length alone (a lower bound when not exact, optimum_upper the upper bound).
struct CeilingLengthRow {
    std::size_t length = 0;
    double share = 0;  // this length's weight in the mixture
    double positive_share = 0;  // share of label 1 within this length
    std::optional<double> accuracy;
    double optimum = 0, optimum_upper = 0;
};

struct CeilingResult {
    std::string arch;
    unsigned window = 0, layers = 0;
    CeilingDistribution distribution = CeilingDistribution::Training;
    CeilingWeighting weighting = CeilingWeighting::Words;  // Empirical only
    LengthRange lengths;
    std::size_t per_length = 0;  // Test only
    std::size_t words = 0;       // Empirical only: words in the sample
    bool exact = false;
    std::optional<double> value;  // the ceiling when exact
    double lower = 0, upper = 0;  // == value when exact
    unsigned lower_layers = 0;    // not exact: the depth whose exact ceiling is `lower` (0: constant)
    std::string reason;           // not exact: why
    double constant_accuracy = 0;  // the best constant answer
    bool constant_label = false;   // ... which is this label
    std::vector<CeilingLengthRow> per_length_rows;
    std::size_t types = 0;            // distinct EOS types of positive weight (exact only)
    std::size_t states_explored = 0;  // dynamic-programme states visited, over all attempts
    double seconds = 0;
};

// The ceiling of q.arch at depth q.layers on q.distribution over q.lengths for the language of the
// minimal (or any complete) DFA `d`. Exact (up to long-double rounding) when the dynamic programme
// fits q's budget, else bounds: lower = the exact ceiling at the largest depth that fits, upper =
// the ceiling of a model that sees the last L*k symbols exactly. O(S * |Sigma| * L * k log k) for
// the S (slide, transformation) states of the suffix programme, plus O(T * |Q| * lengths) for the
// T types (docs/CEILING.md). Errors: not a local architecture, L < 1, a distribution with no word
// of a label (training), lengths out of range.
Result<CeilingResult> receptive_field_ceiling(const Dfa& d, const CeilingQuery& q);

// The exact best accuracy on exactly these labelled words (grouped by EOS type), weighted by
// q.weighting; q.distribution must be Empirical, q.lengths is ignored (rows per length present).
// O(N * L * k * min(n, L*k) log k) for N words.
Result<CeilingResult> empirical_ceiling(const std::vector<Example>& words, std::size_t num_symbols,
                                        const CeilingQuery& q);

// One JSON object: arch, window, layers, distribution, lengths "A:B", per_length (test), words
// and weighting (empirical), exact, value (null when not exact), lower, upper, lower_layers,
// reason, constant_accuracy, constant_label, types, states_explored, seconds, per_length_rows
// [{length, share, positive_share, accuracy, optimum, optimum_upper}]. Accuracies are fractions.
std::string ceiling_to_json(const CeilingResult& r);

}  // namespace ltlkit::automata
