// The per-pair outputs of a run (docs/PROTOCOL.md "Evaluation", "Per-pair outputs"): every pair of
// its adversarial (control, forced or informative) and boundary sets as the model answered it,
// stored beside result.json as RESULT-pairs.tsv (result.json -> result-pairs.tsv), and read back
// by the report. Torch-free.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "automata/dfa.hh"
#include "base/error.hh"

namespace ltlkit::neural {

// What a pair tests. Control: a pair of a failing architecture's set given to one that is not
// predicted to fail (it should stay exact); Forced / Informative: a failing architecture's own
// witness pair, which every model of it maps to one vector / which a model can tell apart;
// Adversarial: a witness pair whose kind the run was not told (`ltlkit train --dataset`, or a
// result-adversarial.tsv written before kinds were stored); Boundary: words one edit apart with
// different labels (automata/dataset.hh).
enum class PairKind { Control, Forced, Informative, Adversarial, Boundary };
std::string to_string(PairKind k);  // "control" | "forced" | "informative" | "adversarial" | "boundary"
std::optional<PairKind> parse_pair_kind(const std::string& name);
inline constexpr PairKind kPairKinds[] = {PairKind::Control, PairKind::Informative, PairKind::Forced,
                                          PairKind::Adversarial, PairKind::Boundary};

// One pair as the model answered it: both words (or only their lengths, for boundary pairs, whose
// words are in the dataset's boundary split under the same pair id), labels and logits.
struct PairOutput {
    PairKind kind = PairKind::Adversarial;
    long pair = -1;
    automata::Word words[2];
    std::size_t lengths[2] = {0, 0};
    bool words_stored = true;
    bool labels[2] = {false, false};
    float logits[2] = {0, 0};
    bool right(int i) const { return (logits[i] > 0) == labels[i]; }
    bool correct() const { return right(0) && right(1); }  // both words answered right
};

// RESULT.json -> RESULT-pairs.tsv, and the name an older ltlkit used (RESULT-adversarial.tsv: the
// adversarial pairs only, without kinds, correctness or lengths).
std::string pairs_path(const std::string& result_path);
std::string legacy_pairs_path(const std::string& result_path);

// The pairs as TSV: a header line
//   kind pair length1 word1 label1 logit1 length2 word2 label2 logit2 correct
// then one line per pair; words as automata::format_word spells them, an empty field with a
// non-zero length where the word is not stored (boundary pairs); logits with 9 significant digits
// (a float read back is the float written); correct = 1 when both words are answered right.
std::string pairs_tsv(const std::vector<PairOutput>& pairs, const std::vector<std::string>& alphabet);
// Reads pairs_tsv's text, or an older result-adversarial.tsv (header
// "pair word1 label1 logit1 word2 label2 logit2"; kind Adversarial). Errors name the line.
Result<std::vector<PairOutput>> pairs_from_tsv(const std::string& text, const std::vector<std::string>& alphabet);

// Per kind: pairs and pairs answered right (both words).
struct PairCounts {
    std::size_t pairs = 0, correct = 0;
};
std::map<PairKind, PairCounts> count_pairs(const std::vector<PairOutput>& pairs);

}  // namespace ltlkit::neural
