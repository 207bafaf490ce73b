// What the receptive-field ceilings (automata/ceiling.hh; docs/PROTOCOL.md "Ceilings") say about
// a verification: each cell's ceilings on the training and test distributions, the exact ceiling
// of a run's own test words, and whether an adversarial set is forced (every pair maps to one
// vector at any weights) or informative. Torch-free.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

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

// The cell's ceilings at the plan's depth: on the training distribution (docs/PROTOCOL.md
// "Training": a length uniform among the training lengths with both labels, half of each label,
// uniform within a label), on the balanced uniform test distribution (mean over the test lengths,
// as a run's mean accuracy), and ArchPlan::ceiling_test_sample. Unknown (with the note) for
// global, hybrid and LSTM cells and other encodings.
CellCeiling cell_ceiling(const Plan& plan, const LanguagePlan& lang, const ArchPlan& arch);

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

// Why a witness family gives fewer pairs than the profile asks for: how many values of r put
// both words in the test lengths (a family whose pumped word grows with r, as the locally
// R-trivial one's (eʳ u eʳ v eʳ)ʳ, fits only a few).
std::string witness_shortfall(const automata::WordFamily& family, std::size_t pairs, const Profile& profile);

}  // namespace ltlkit::neural::verify
