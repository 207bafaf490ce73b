// What the receptive-field ceilings (automata/ceiling.hh; docs/PROTOCOL.md "Ceilings") say about
// a verification: each cell's ceilings on the training and test distributions, the exact ceiling
// of a run's own test words, and whether an adversarial set is forced (every pair maps to one
// vector at any weights) or informative. Torch-free.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "automata/ceiling.hh"
#include "automata/certificate.hh"
#include "automata/dfa.hh"
#include "neural/run.hh"
#include "neural/verify/profiles.hh"
#include "neural/verify/plan.hh"
#include "neural/verify/verdict.hh"

namespace ltlkit::neural::verify {

// The ceiling applies to k-local attention without positional encoding and with strict masks
// (the idealization the window argument speaks about); nullopt when it does, else why not.
std::optional<std::string> no_ceiling_reason(const Architecture& arch, const ModelConfig& model);

// The ceilings a report has computed, kept in OUT/ceilings.json (docs/CEILING.md, "In reports") so
// that the next report of the folder reuses them: a report then costs no ceiling computation, and a
// ceiling that ran past its time budget (whose bounds depend on the machine's speed) gives the same
// numbers on every later report. Keyed by the DFA's SHA-256 and every field of the query that
// changes the answer, budgets included. A file that fails its checksum, or is not such a file, is
// ignored (the ceilings are computed again, and the file rewritten): a cache is never a reason to
// stop a report.
class CeilingCache {
public:
    CeilingCache() = default;  // in memory only (save() writes nothing)
    explicit CeilingCache(std::string path);
    // The ceiling of `dfa` for `q`, from the cache or computed. The key holds the SHA-256 of the
    // DFA's canonical JSON (automata::to_json), not of the text it was read from: verify's plan in
    // memory and the plan.json that report reads spell the same DFA differently.
    Result<automata::CeilingResult> ceiling(const automata::Dfa& dfa, const automata::CeilingQuery& q);
    // Writes the file atomically when a ceiling was added since it was read.
    Result<bool> save() const;
    std::size_t hits() const { return hits_; }
    std::size_t computed() const { return computed_; }

private:
    std::string path_;
    std::map<std::string, std::string> entries_;  // key -> compact JSON of the summary
    bool dirty_ = false;
    std::size_t hits_ = 0, computed_ = 0;
};

// The cell's ceilings at the plan's depth: on the training distribution (docs/PROTOCOL.md
// "Training": a length uniform among the training lengths with both labels, half of each label,
// uniform within a label), on the balanced uniform test distribution (mean over the test lengths,
// as a run's mean accuracy), and ArchPlan::ceiling_test_sample. Unknown (with the note) for
// global, hybrid and LSTM cells and other encodings.
// Through `cache` when given.
CellCeiling cell_ceiling(const Plan& plan, const LanguagePlan& lang, const ArchPlan& arch,
                         CeilingCache* cache = nullptr);

// The exact ceiling of a finite test set (mean over its lengths of the per-length ceiling), for a
// k-local strict NoPE model; nullopt otherwise or when `test` is empty.
std::optional<double> sample_ceiling(const automata::Dfa& dfa, const Architecture& arch, const ModelConfig& model,
                                     const std::vector<LabelledWord>& test);

// Forced or informative (docs/PROTOCOL.md "Evaluation"): per pair, whether every model of the
// architecture at this depth maps both words to the same EOS vector (the window-type test of
// automata/ceiling.hh); only k-local strict NoPE pairs can be forced.
struct AdversarialMarking {
    std::size_t pairs = 0, forced = 0;
    std::string kind;  // "forced" (every pair), "informative" (none), "mixed"
};
AdversarialMarking mark_adversarial(const automata::Dfa& dfa, const Architecture& arch, const ModelConfig& model,
                                    const std::vector<LabelledWord>& set);
// The kind of one pair of an architecture's adversarial set (the one rule mark_adversarial, the
// runs' pair outputs and the report of older pair files share): Control when the architecture is
// not predicted to fail; otherwise Forced when both words have one EOS type (as above), else
// Informative.
PairKind adversarial_pair_kind(const automata::Dfa& dfa, const Architecture& arch, const ModelConfig& model,
                               Prediction prediction, const automata::Word& u, const automata::Word& v);
// adversarial_pair_kind of every complete pair of `set`, by pair id.
std::map<long, PairKind> adversarial_pair_kinds(const automata::Dfa& dfa, const Architecture& arch,
                                                const ModelConfig& model, Prediction prediction,
                                                const std::vector<LabelledWord>& set);

// Why a witness family gives fewer pairs than the profile asks for: how many values of r put
// both words in the test lengths (a family whose pumped word grows with r, as the locally
// R-trivial one's (eʳ u eʳ v eʳ)ʳ, fits only a few).
std::string witness_shortfall(const automata::WordFamily& family, std::size_t pairs, const Profile& profile);

}  // namespace ltlkit::neural::verify
