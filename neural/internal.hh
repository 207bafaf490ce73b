// Torch-free internals shared by train.cc, eval.cc and the tests: the training distribution of
// docs/PROTOCOL.md and the evaluation of a model given as a prediction function. PRIVATE header.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <vector>

#include "automata/dataset.hh"
#include "automata/random.hh"
#include "automata/sampler.hh"
#include "neural/run.hh"

namespace ltlkit::neural {

// docs/PROTOCOL.md "Training": one length n uniform among the lengths of [lo, hi] that have words of
// both labels; half the batch positive, half negative, each uniform among the words of length n
// with that label. When no length has both labels, each half gets its own length (padded batch).
class TrainingDistribution {
public:
    // Exact uniform sampling from the DFA (the sampler must outlive the distribution).
    static Result<TrainingDistribution> from_sampler(const automata::Sampler& sampler, int lo, int hi);
    // Uniform among the given words (a dataset's train split), lengths in [lo, hi].
    static Result<TrainingDistribution> from_words(const std::vector<LabelledWord>& words, int lo, int hi);

    bool padded() const { return both_.empty(); }
    // Appends `batch` words and labels: ceil(batch/2) positive, then floor(batch/2) negative.
    void draw(int batch, automata::Rng& rng, std::vector<automata::Word>& words,
              std::vector<std::uint8_t>& labels) const;
    // Appends `total` words spread evenly over the lengths a batch can draw (each length, or pair
    // of lengths when padded, gets total / lengths words, the first ones one more), half of each
    // length's words accepted: the training distribution, stratified by length, so that a fit
    // sample covers every training length (docs/PROTOCOL.md "Training").
    void draw_spread(int total, automata::Rng& rng, std::vector<automata::Word>& words,
                     std::vector<std::uint8_t>& labels) const;
    // `count` fresh words drawn as training batches of `batch` words are (the fit checks).
    std::vector<LabelledWord> sample(int count, int batch, automata::Rng& rng) const;

private:
    automata::Word draw_word(int n, bool label, automata::Rng& rng) const;
    const automata::Sampler* sampler_ = nullptr;
    std::vector<int> both_;              // lengths with both labels
    std::array<std::vector<int>, 2> with_;  // lengths with words of label 0 / 1
    std::map<int, std::array<std::vector<automata::Word>, 2>> words_;  // from_words only
};

// Logits (accept iff > 0) for words of any lengths.
using Predictor = std::function<std::vector<float>(const std::vector<const automata::Word*>&)>;

// Fraction of words whose predicted label equals their label (0 for no words).
double accuracy_on(const std::vector<LabelledWord>& words, const Predictor& predict);

// The balanced uniform test sample of one length: ceil(per/2) accepted and floor(per/2) rejected
// words (all of one label when the other has none), enumerated instead when fewer words exist.
std::vector<LabelledWord> test_sample(const automata::Sampler& sampler, int n, int per_length,
                                      automata::Rng& rng);

// LC25's test sample of one length (automata::Lc25TestSampler), as labelled words.
std::vector<LabelledWord> lc25_test_sample(const automata::Lc25TestSampler& sampler, int n, int per_length,
                                           automata::Rng& rng);

// Accuracy on an adversarial set, with every pair's two words, labels and logits (r.adversarial_*),
// each pair of the kind `kinds` gives it (PairKind::Adversarial when not listed).
void evaluate_pairs(RunResult& r, const std::vector<LabelledWord>& words, const Predictor& predict,
                    const std::map<long, PairKind>& kinds = {});
// Accuracy on a boundary set (r.boundary_accuracy: right words / words), with every pair's lengths,
// labels and logits (r.boundary_outputs; the words stay in the dataset).
void evaluate_boundary(RunResult& r, const std::vector<LabelledWord>& words, const Predictor& predict);

// From r.per_length_accuracy: mean, bins of 100 lengths (41-100, 101-200, ...), min bin, N*.
void summarize_lengths(RunResult& r);

// Evaluates a model (docs/PROTOCOL.md "Evaluation"): per-length accuracy on sets.test (when given,
// restricted to test_min..test_max) or on uniform samples from `sampler`, the summary, training
// accuracy on config.fit_words fresh words of `train`, failed_to_fit, boundary and adversarial
// accuracy, success by config.success_rule. Fills r; the seed of the samples derives from r.config.seed.
// `progress` (optional) hears about the sampled test lengths as they are evaluated.
Result<bool> evaluate_model(RunResult& r, const Predictor& predict, const automata::Sampler* sampler,
                            const TrainingDistribution& train, const EvalSets& sets,
                            const ProgressFn& progress = nullptr);

}  // namespace ltlkit::neural
