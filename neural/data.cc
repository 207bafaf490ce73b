// The training distribution of docs/PROTOCOL.md (torch-free).
#include <algorithm>

#include "neural/internal.hh"

namespace ltlkit::neural {

Result<TrainingDistribution> TrainingDistribution::from_sampler(const automata::Sampler& sampler,
                                                                int lo, int hi) {
    if (lo < 0 || hi < lo) return make_error("training lengths: expected 0 <= A <= B");
    if (static_cast<std::size_t>(hi) > sampler.max_length())
        return make_error("training lengths exceed the sampler's tables");
    TrainingDistribution d;
    d.sampler_ = &sampler;
    for (int n = lo; n <= hi; ++n) {
        const bool p = sampler.has_words(static_cast<std::size_t>(n), true);
        const bool q = sampler.has_words(static_cast<std::size_t>(n), false);
        if (p) d.with_[1].push_back(n);
        if (q) d.with_[0].push_back(n);
        if (p && q) d.both_.push_back(n);
    }
    if (d.with_[0].empty() || d.with_[1].empty())
        return make_error("the language has no " + std::string(d.with_[1].empty() ? "accepted" : "rejected") +
                          " word of length " + std::to_string(lo) + ".." + std::to_string(hi) +
                          ": nothing to train on (change --train-lengths)");
    return d;
}

Result<TrainingDistribution> TrainingDistribution::from_words(const std::vector<LabelledWord>& words,
                                                              int lo, int hi) {
    TrainingDistribution d;
    for (const auto& w : words) {
        const int n = static_cast<int>(w.word.size());
        if (n < lo || n > hi) continue;
        d.words_[n][w.label ? 1 : 0].push_back(w.word);
    }
    for (const auto& [n, byl] : d.words_) {
        if (!byl[1].empty()) d.with_[1].push_back(n);
        if (!byl[0].empty()) d.with_[0].push_back(n);
        if (!byl[0].empty() && !byl[1].empty()) d.both_.push_back(n);
    }
    if (d.with_[0].empty() || d.with_[1].empty())
        return make_error("the training words have no " +
                          std::string(d.with_[1].empty() ? "accepted" : "rejected") + " word of length " +
                          std::to_string(lo) + ".." + std::to_string(hi));
    return d;
}

automata::Word TrainingDistribution::draw_word(int n, bool label, automata::Rng& rng) const {
    if (sampler_) return sampler_->sample(static_cast<std::size_t>(n), label, rng);
    const auto& pool = words_.at(n)[label ? 1 : 0];
    return pool[static_cast<std::size_t>(rng.below(pool.size()))];
}

void TrainingDistribution::draw(int batch, automata::Rng& rng, std::vector<automata::Word>& words,
                                std::vector<std::uint8_t>& labels) const {
    const int npos = (batch + 1) / 2, nneg = batch / 2;
    int n_pos, n_neg;
    if (!both_.empty()) {
        n_pos = n_neg = both_[static_cast<std::size_t>(rng.below(both_.size()))];
    } else {
        n_pos = with_[1][static_cast<std::size_t>(rng.below(with_[1].size()))];
        n_neg = with_[0][static_cast<std::size_t>(rng.below(with_[0].size()))];
    }
    for (int i = 0; i < npos; ++i) {
        words.push_back(draw_word(n_pos, true, rng));
        labels.push_back(1);
    }
    for (int i = 0; i < nneg; ++i) {
        words.push_back(draw_word(n_neg, false, rng));
        labels.push_back(0);
    }
}

void TrainingDistribution::draw_spread(int total, automata::Rng& rng, std::vector<automata::Word>& words,
                                       std::vector<std::uint8_t>& labels) const {
    // The strata: each length with both labels, or (padded) each pair of a positive and a negative length.
    std::vector<std::pair<int, int>> strata;
    if (!both_.empty())
        for (int n : both_) strata.push_back({n, n});
    else
        for (int p : with_[1])
            for (int q : with_[0]) strata.push_back({p, q});
    const int k = static_cast<int>(strata.size());
    for (int i = 0; i < k; ++i) {
        const int count = total / k + (i < total % k ? 1 : 0);
        for (int j = 0; j < count; ++j) {
            const bool label = j % 2 == 0;
            words.push_back(draw_word(label ? strata[i].first : strata[i].second, label, rng));
            labels.push_back(label ? 1 : 0);
        }
    }
}

std::vector<LabelledWord> TrainingDistribution::sample(int count, int batch, automata::Rng& rng) const {
    std::vector<automata::Word> words;
    std::vector<std::uint8_t> labels;
    const int chunk = std::max(2, std::min(batch, count));
    while (static_cast<int>(words.size()) < count) draw(chunk, rng, words, labels);
    std::vector<LabelledWord> out;
    for (std::size_t i = 0; i < words.size() && static_cast<int>(i) < count; ++i)
        out.push_back({std::move(words[i]), labels[i] != 0, -1});
    return out;
}

}  // namespace ltlkit::neural
