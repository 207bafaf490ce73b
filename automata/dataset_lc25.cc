// LC25's test words: words of Σ*fΣ* drawn as the paper draws them (see dataset.hh Lc25TestSampler).
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
#include "base/json.hh"
#include "automata/lock.hh"
#include "automata/random.hh"
#include "automata/sampler.hh"

namespace ltlkit::automata {

using namespace dataset_detail;

namespace fs = std::filesystem;
using ojson = nlohmann::ordered_json;

// ---------------------------------------------------------------- LC25's test words

namespace {

// The Knuth–Morris–Pratt automaton of f (Knuth, Morris & Pratt 1977): state q = length of the
// longest prefix of f that is a suffix of the input; reaching |f| marks an occurrence.
std::vector<std::vector<std::size_t>> kmp_automaton(const Word& f, std::size_t K) {
    const std::size_t m = f.size();
    std::vector<std::vector<std::size_t>> aut(m + 1, std::vector<std::size_t>(K, 0));
    for (std::size_t a = 0; a < K; ++a) aut[0][a] = f[0] == a ? 1 : 0;
    std::size_t x = 0;  // the state after f[1..q) (the failure state)
    for (std::size_t q = 1; q <= m; ++q) {
        for (std::size_t a = 0; a < K; ++a) aut[q][a] = (q < m && f[q] == a) ? q + 1 : aut[x][a];
        if (q < m) x = aut[x][f[q]];
    }
    return aut;
}

// Σ*fΣ* (count >= 1) or "f exactly once" (count == 1) over the alphabet of `like`.
Dfa factor_dfa(const Dfa& like, const Word& f, bool exactly_once) {
    const std::size_t m = f.size(), K = like.num_symbols();
    const auto aut = kmp_automaton(f, K);
    Dfa d;
    d.alphabet = like.alphabet;
    d.initial = 0;
    if (!exactly_once) {  // states 0..m, m absorbing and accepting
        d.accepting.assign(m + 1, 0);
        d.accepting[m] = 1;
        d.delta.resize((m + 1) * K);
        for (std::size_t q = 0; q <= m; ++q)
            for (std::size_t a = 0; a < K; ++a) d.delta[q * K + a] = static_cast<State>(q == m ? m : aut[q][a]);
        return d;
    }
    // States (c, q) = c * (m + 1) + q for c occurrences so far (0 or 1), and a dead state 2(m + 1).
    const std::size_t dead = 2 * (m + 1);
    d.accepting.assign(dead + 1, 0);
    d.delta.assign((dead + 1) * K, static_cast<State>(dead));
    for (std::size_t c = 0; c < 2; ++c)
        for (std::size_t q = 0; q <= m; ++q) {
            d.accepting[c * (m + 1) + q] = c == 1;
            for (std::size_t a = 0; a < K; ++a) {
                const std::size_t q2 = aut[q][a];
                const std::size_t c2 = c + (q2 == m);
                d.delta[(c * (m + 1) + q) * K + a] = static_cast<State>(c2 >= 2 ? dead : c2 * (m + 1) + q2);
            }
        }
    return d;
}

}  // namespace

Result<Lc25TestSampler> Lc25TestSampler::create(const Dfa& minimal, std::size_t max_length) {
    Lc25TestSampler s;
    s.dfa_ = minimal;
    // L = Σ*fΣ* has exactly one shortest word, f; the candidate is checked by language equality.
    const auto counts = count_accepted(minimal, std::min<std::size_t>(max_length, 64));
    for (std::size_t n = 1; n < counts.size(); ++n) {
        if (counts[n] == 0) continue;
        if (counts[n] == 1) {
            auto all = Sampler::create(minimal, n);
            if (!all.ok()) return all.error();
            const Word f = all->enumerate(n, true, 1).front();
            if (!distinguishing_word(factor_dfa(minimal, f, false), minimal)) s.factor_ = f;
        }
        break;
    }
    auto pos = Sampler::create(s.factor_ ? factor_dfa(minimal, *s.factor_, true) : minimal, max_length);
    if (!pos.ok()) return pos.error();
    s.positives_ = std::make_shared<const Sampler>(std::move(pos).value());
    return s;
}

std::string Lc25TestSampler::rule() const {
    std::string r = factor_ ? "accepted words contain the factor " + format_word(dfa_.alphabet, *factor_) +
                                  " exactly once"
                            : "accepted words uniform";
    return r + "; rejected words: one symbol of an accepted word changed; lengths without accepted words untested";
}

std::vector<Example> Lc25TestSampler::sample(std::size_t n, std::size_t per_length, Rng& rng) const {
    std::vector<Example> out;
    if (!positives_->has_words(n, true)) return out;
    const std::size_t npos = (per_length + 1) / 2, nneg = per_length / 2;
    for (std::size_t i = 0; i < npos; ++i) out.push_back({positives_->sample(n, true, rng), true, -1});
    const std::size_t S = dfa_.num_states(), K = dfa_.num_symbols();
    std::vector<std::uint8_t> good;  // good[i * S + q]: δ(q, w[i..n)) is accepting
    std::vector<State> prefix;
    std::size_t made = 0;
    for (std::size_t attempts = 0; made < nneg && attempts < 8 * nneg + 8; ++attempts) {
        Word w = positives_->sample(n, true, rng);
        edit_tables(dfa_, w, prefix, good);
        // Substitutions (i, b) that leave the language, uniform among them.
        auto leaves = [&](std::size_t i, std::size_t b) {
            return b != w[i] && !good[(i + 1) * S + dfa_.next(prefix[i], static_cast<Symbol>(b))];
        };
        std::uint64_t count = 0;
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t b = 0; b < K; ++b) count += leaves(i, b);
        if (count == 0) continue;
        std::uint64_t pick = rng.below(count);
        std::size_t at = n, to = 0;
        for (std::size_t i = 0; i < n && at == n; ++i)
            for (std::size_t b = 0; b < K && at == n; ++b)
                if (leaves(i, b) && pick-- == 0) at = i, to = b;
        w[at] = static_cast<Symbol>(to);
        out.push_back({std::move(w), false, -1});
        ++made;
    }
    return out;
}

}  // namespace ltlkit::automata
