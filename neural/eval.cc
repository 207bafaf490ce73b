// Evaluation of a recognizer (docs/PROTOCOL.md "Evaluation"), torch-free: the model comes in as a
// prediction function, so the metrics are testable without LibTorch.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

#include "automata/dataset.hh"
#include "neural/internal.hh"

namespace ltlkit::neural {

double accuracy_on(const std::vector<LabelledWord>& words, const Predictor& predict) {
    if (words.empty()) return 0;
    std::vector<const automata::Word*> ptrs;
    ptrs.reserve(words.size());
    for (const auto& w : words) ptrs.push_back(&w.word);
    const auto logits = predict(ptrs);
    std::size_t right = 0;
    for (std::size_t i = 0; i < words.size(); ++i) right += ((logits[i] > 0) == words[i].label);
    return static_cast<double>(right) / static_cast<double>(words.size());
}

void count_answer(LabelCounts& c, bool label, bool right) {
    if (label) {
        ++c.accepted;
        c.accepted_right += right;
    } else {
        ++c.rejected;
        c.rejected_right += right;
    }
}

double accuracy_of(const LabelCounts& c) {
    const long n = c.accepted + c.rejected;
    return n == 0 ? 0.0 : static_cast<double>(c.accepted_right + c.rejected_right) / static_cast<double>(n);
}

std::vector<LabelledWord> test_sample(const automata::Sampler& sampler, int n, int per_length,
                                      automata::Rng& rng) {
    std::vector<LabelledWord> out;
    const auto len = static_cast<std::size_t>(n);
    const bool has[2] = {sampler.has_words(len, false), sampler.has_words(len, true)};
    for (int label = 1; label >= 0; --label) {
        if (!has[label]) continue;
        const int quota = (has[0] && has[1]) ? (label ? (per_length + 1) / 2 : per_length / 2) : per_length;
        if (quota <= 0) continue;
        if (sampler.has_at_least(len, label != 0, static_cast<std::uint64_t>(quota))) {
            for (int i = 0; i < quota; ++i) out.push_back({sampler.sample(len, label != 0, rng), label != 0, -1});
        } else {
            for (auto& w : sampler.enumerate(len, label != 0, static_cast<std::size_t>(quota)))
                out.push_back({std::move(w), label != 0, -1});
        }
    }
    return out;
}

std::vector<LabelledWord> lc25_test_sample(const automata::Lc25TestSampler& sampler, int n, int per_length,
                                           automata::Rng& rng) {
    std::vector<LabelledWord> out;
    for (auto& e : sampler.sample(static_cast<std::size_t>(n), static_cast<std::size_t>(per_length), rng))
        out.push_back({std::move(e.word), e.label, -1});
    return out;
}

void summarize_lengths(RunResult& r) {
    r.bin_accuracy.clear();
    r.mean_accuracy = 0;
    r.min_bin_accuracy = 0;
    r.n_star = 0;
    if (r.per_length_accuracy.empty()) return;
    double sum = 0;
    for (const auto& [n, a] : r.per_length_accuracy) sum += a;
    r.mean_accuracy = sum / static_cast<double>(r.per_length_accuracy.size());
    // Bins of 100 lengths: 1-100, 101-200, ... labelled by the tested lengths they contain.
    std::map<int, std::vector<std::pair<int, double>>> bins;
    for (const auto& [n, a] : r.per_length_accuracy) bins[(n + 99) / 100].push_back({n, a});
    r.min_bin_accuracy = 1;
    for (const auto& [b, v] : bins) {
        double s = 0;
        for (const auto& [n, a] : v) s += a;
        const double acc = s / static_cast<double>(v.size());
        r.bin_accuracy[std::to_string(v.front().first) + "-" + std::to_string(v.back().first)] = acc;
        r.min_bin_accuracy = std::min(r.min_bin_accuracy, acc);
    }
    // N*: the largest N with every tested length <= N at 100% (smallest tested length - 1 if it fails).
    r.n_star = r.per_length_accuracy.begin()->first - 1;
    for (const auto& [n, a] : r.per_length_accuracy) {
        if (a < 1.0) break;
        r.n_star = n;
    }
}

namespace {

// Every complete pair of `words` (a pair id naming exactly two words) as the model answered it, in
// the order of pair ids; `right` counts the words answered right, incomplete pairs included.
std::vector<PairOutput> answer_pairs(const std::vector<LabelledWord>& words, const Predictor& predict,
                                     const std::map<long, PairKind>& kinds, PairKind otherwise, bool store_words,
                                     std::size_t& right) {
    std::vector<const automata::Word*> ptrs;
    for (const auto& w : words) ptrs.push_back(&w.word);
    const auto logits = predict(ptrs);
    right = 0;
    std::map<long, PairOutput> pairs;  // by pair id, in the set's order of ids
    std::map<long, int> seen;
    for (std::size_t i = 0; i < words.size(); ++i) {
        right += (logits[i] > 0) == words[i].label;
        int& k = seen[words[i].pair];
        if (k < 2) {
            PairOutput& p = pairs[words[i].pair];
            p.pair = words[i].pair;
            const auto kind = kinds.find(p.pair);
            p.kind = kind == kinds.end() ? otherwise : kind->second;
            p.words_stored = store_words;
            if (store_words) p.words[k] = words[i].word;
            p.lengths[k] = words[i].word.size();
            p.labels[k] = words[i].label;
            p.logits[k] = logits[i];
        }
        ++k;
    }
    std::vector<PairOutput> out;
    for (auto& [id, p] : pairs)
        if (seen[id] == 2) out.push_back(std::move(p));
    return out;
}

}  // namespace

void evaluate_pairs(RunResult& r, const std::vector<LabelledWord>& words, const Predictor& predict,
                    const std::map<long, PairKind>& kinds) {
    std::size_t right = 0;
    r.adversarial_outputs = answer_pairs(words, predict, kinds, PairKind::Adversarial, true, right);
    r.adversarial_accuracy = words.empty() ? 0.0 : static_cast<double>(right) / static_cast<double>(words.size());
    long same = 0;
    for (const auto& p : r.adversarial_outputs) same += (p.logits[0] > 0) == (p.logits[1] > 0);
    r.adversarial_pairs = static_cast<long>(r.adversarial_outputs.size());
    r.adversarial_same_answer = same;
}

void evaluate_boundary(RunResult& r, const std::vector<LabelledWord>& words, const Predictor& predict) {
    std::size_t right = 0;
    r.boundary_outputs = answer_pairs(words, predict, {}, PairKind::Boundary, false, right);
    r.boundary_accuracy = words.empty() ? 0.0 : static_cast<double>(right) / static_cast<double>(words.size());
}

Result<bool> evaluate_model(RunResult& r, const Predictor& predict_model, const automata::Sampler* sampler,
                            const TrainingDistribution& train, const EvalSets& sets, const ProgressFn& progress) {
    // Every prediction goes through this wrapper, which times the model and counts its tokens.
    double model_seconds = 0, model_tokens = 0;
    const Predictor predict = [&](const std::vector<const automata::Word*>& words) {
        const auto t0 = std::chrono::steady_clock::now();
        auto out = predict_model(words);
        model_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        for (const auto* w : words) model_tokens += static_cast<double>(w->size() + 1);
        return out;
    };
    const Config& c = r.config;
    const EvaluationConfig& ev = c.evaluation;
    if (ev.test_min < 0 || ev.test_max < ev.test_min) return make_error("test lengths: expected 0 <= A <= B");
    r.per_length_accuracy.clear();
    r.per_length_labels.clear();
    // The evaluation starts (0 test lengths done): a caller's Ctrl-C message says so from now on.
    auto report_start = [&](int total) {
        if (!progress) return;
        Progress p;
        p.phase = Progress::Phase::Evaluation;
        p.total = total;
        progress(p);
    };
    if (!sets.test.empty()) {
        std::map<int, std::vector<LabelledWord>> by_length;
        for (const auto& w : sets.test) {
            const int n = static_cast<int>(w.word.size());
            if (n >= ev.test_min && n <= ev.test_max) by_length[n].push_back(w);
        }
        report_start(static_cast<int>(by_length.size()));
        for (const auto& [n, words] : by_length) {
            std::vector<const automata::Word*> ptrs;
            for (const auto& w : words) ptrs.push_back(&w.word);
            const auto logits = predict(ptrs);
            LabelCounts& c = r.per_length_labels[n];
            for (std::size_t i = 0; i < words.size(); ++i) count_answer(c, words[i].label, (logits[i] > 0) == words[i].label);
            r.per_length_accuracy[n] = accuracy_of(c);
        }
        if (progress && !by_length.empty()) {  // the test lengths are done (one report: the set is fixed)
            Progress p;
            p.phase = Progress::Phase::Evaluation;
            p.step = p.total = static_cast<int>(by_length.size());
            for (const auto& [n, words] : by_length) p.words += static_cast<long>(words.size());
            progress(p);
        }
    } else {
        if (!sampler) return make_error("evaluation needs a sampler or a test set");
        if (static_cast<std::size_t>(ev.test_max) > sampler->max_length())
            return make_error("test lengths exceed the sampler's tables");
        automata::Rng rng(automata::derive_seed({"eval", std::to_string(c.training.seed)}));
        std::optional<automata::Lc25TestSampler> lc25;
        if (ev.test_distribution == TestDistribution::Lc25) {
            auto s = automata::Lc25TestSampler::create(sampler->dfa(), static_cast<std::size_t>(ev.test_max));
            if (!s.ok()) return s.error();
            lc25 = std::move(s).value();
        }
        // Several lengths per prediction call, so the predictor can batch.
        std::vector<LabelledWord> pending;
        auto flush = [&] {
            if (pending.empty()) return;
            std::vector<const automata::Word*> ptrs;
            for (const auto& w : pending) ptrs.push_back(&w.word);
            const auto logits = predict(ptrs);
            for (std::size_t i = 0; i < pending.size(); ++i) {
                const int n = static_cast<int>(pending[i].word.size());
                count_answer(r.per_length_labels[n], pending[i].label, (logits[i] > 0) == pending[i].label);
            }
            for (const auto& w : pending) {
                const int n = static_cast<int>(w.word.size());
                r.per_length_accuracy[n] = accuracy_of(r.per_length_labels[n]);
            }
            pending.clear();
        };
        std::size_t tokens = 0;
        long words_done = 0;
        double symbols_done = 0, symbols_total = 0;  // for the ETA: cost grows with the length
        for (int n = ev.test_min; n <= ev.test_max; ++n) symbols_total += static_cast<double>(n + 1) * ev.per_length;
        const auto t0 = std::chrono::steady_clock::now();
        auto last_report = t0;
        const int total = ev.test_max - ev.test_min + 1;
        report_start(total);
        for (int n = ev.test_min; n <= ev.test_max; ++n) {
            auto words = lc25 ? lc25_test_sample(*lc25, n, ev.per_length, rng) : test_sample(*sampler, n, ev.per_length, rng);
            words_done += static_cast<long>(words.size());
            symbols_done += static_cast<double>(n + 1) * ev.per_length;
            for (auto& w : words) pending.push_back(std::move(w));
            tokens += words.size() * static_cast<std::size_t>(n + 1);
            if (tokens >= (1u << 16) || n == ev.test_max) {
                flush();
                tokens = 0;
                const auto now = std::chrono::steady_clock::now();
                const double since = std::chrono::duration<double>(now - last_report).count();
                if (progress && (since >= 10 || n == ev.test_max)) {
                    last_report = now;
                    Progress p;
                    p.phase = Progress::Phase::Evaluation;
                    p.step = n - ev.test_min + 1;
                    p.total = total;
                    p.words = words_done;
                    const double el = std::chrono::duration<double>(now - t0).count();
                    p.eta_seconds = el / symbols_done * (symbols_total - symbols_done);
                    progress(p);
                }
            }
        }
    }
    summarize_lengths(r);
    // Training accuracy on fresh words of the training distribution, drawn as training batches are.
    {
        automata::Rng rng(automata::derive_seed({"fit", std::to_string(c.training.seed)}));
        std::vector<automata::Word> words;
        std::vector<std::uint8_t> labels;
        train.draw_spread(ev.fit_words, rng, words, labels);
        std::vector<LabelledWord> fit;
        for (std::size_t i = 0; i < words.size() && static_cast<int>(i) < ev.fit_words; ++i)
            fit.push_back({std::move(words[i]), labels[i] != 0, -1});
        r.train_accuracy = accuracy_on(fit, predict);
    }
    r.failed_to_fit = r.train_accuracy < kFitThreshold;
    r.adversarial_accuracy.reset();
    r.boundary_accuracy.reset();
    r.adversarial_pairs.reset();
    r.adversarial_same_answer.reset();
    r.adversarial_outputs.clear();
    r.boundary_outputs.clear();
    if (!sets.adversarial.empty()) evaluate_pairs(r, sets.adversarial, predict, sets.adversarial_kinds);
    if (!sets.boundary.empty()) evaluate_boundary(r, sets.boundary, predict);
    bool ok = !r.per_length_accuracy.empty() && !r.failed_to_fit;
    switch (ev.success_rule) {
        case SuccessRule::Bins99:
            for (const auto& [k, a] : r.bin_accuracy) ok = ok && a >= kBinSuccess;
            break;
        case SuccessRule::Exact:
            for (const auto& [n, a] : r.per_length_accuracy) ok = ok && a == 1.0;
            break;
    }
    r.success = ok;
    r.eval_seconds = model_seconds;
    r.eval_tokens_per_second = model_seconds > 0 ? model_tokens / model_seconds : 0;
    return true;
}

}  // namespace ltlkit::neural
