// Uniform sampling of words of a given length and label from a DFA.
//
// Counting: c_label(r, q) = number of words u of length r with δ(q, u) accepting (label 1) or
// rejecting (label 0); c(0, q) = [q has the label], c(r, q) = Σ_a c(r-1, δ(q, a)) (the standard
// count DP, e.g. Bernardi & Giménez 2012 "A linear algorithm for the random sampling from regular
// languages", recursive method of Nijenhuis & Wilf 1978). Counts are kept as a double mantissa in
// [0.5, 1) with a separate 64-bit binary exponent ("log-double": the exponent is ⌊log2 c⌋ + 1):
// positive sums only, so zero-ness is exact and the relative error stays ~n·2^-53 at any length
// (10^1000 words is fine). Only IEEE-754 +, /, frexp and ldexp are used (no exp/log from libm),
// so the tables, and hence the sampled words, are bit-identical on every IEEE machine.
// Per (label, remaining length, state) we precompute the cumulative conditional distribution over
// the next symbol, so drawing a word is one 53-bit uniform and a scan over the alphabet per symbol
// (uniform up to double rounding).
// Exact counts (BigUint) for reporting are computed lazily; small-count checks (has_at_least) use
// an eager saturating 64-bit DP, which is exact below 2^64.
#include "automata/sampler.hh"

#include <Eigen/Core>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <limits>
#include <mutex>

#include "automata/bigint.hh"

namespace ltlkit::automata {

namespace {
constexpr std::uint64_t kSat = std::numeric_limits<std::uint64_t>::max();
}  // namespace

struct Sampler::Impl {
    Dfa dfa;
    std::size_t N = 0;  // max length
    std::size_t S = 0;  // states
    std::size_t K = 0;  // symbols
    // cum[((label * (N+1) + r) * S + q) * K + a]: P(next symbol <= a | remaining r, state q);
    // the last possible symbol's entry (and those after it) are 2.0 so rounding never overshoots.
    std::vector<double> cum;
    // alive[(label * (N+1) + r) * S + q]: some word of length r leads from q to the label.
    std::vector<std::uint8_t> alive;
    // The count from the initial state as mantissa · 2^exponent, per label and length.
    std::vector<double> mant_initial[2];
    std::vector<std::int64_t> exp_initial[2];
    // min(count, 2^64 - 1) from the initial state, per label and length.
    std::vector<std::uint64_t> sat_initial[2];

    std::once_flag exact_once;
    std::vector<BigUint> exact_initial[2];

    std::size_t row(bool label, std::size_t r, State q) const {
        return ((static_cast<std::size_t>(label) * (N + 1) + r) * S + q);
    }

    void compute_exact() {
        // Exact DP for label 1 only: rejected = K^n - accepted.
        std::vector<BigUint> prev(S), cur(S);
        for (std::size_t q = 0; q < S; ++q) prev[q] = BigUint(dfa.accepting[q] ? 1 : 0);
        BigUint total(1);
        for (int l = 0; l < 2; ++l) exact_initial[l].assign(N + 1, BigUint());
        for (std::size_t r = 0;; ++r) {
            exact_initial[1][r] = prev[dfa.initial];
            exact_initial[0][r] = total - prev[dfa.initial];
            if (r == N) break;
            for (std::size_t q = 0; q < S; ++q) {
                BigUint sum;
                for (std::size_t a = 0; a < K; ++a) sum += prev[dfa.delta[q * K + a]];
                cur[q] = std::move(sum);
            }
            std::swap(prev, cur);
            total.mul_small(K);
        }
    }
};

Sampler::Sampler(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Sampler::Sampler(Sampler&&) noexcept = default;
Sampler& Sampler::operator=(Sampler&&) noexcept = default;
Sampler::~Sampler() = default;

namespace {
std::atomic<std::size_t> g_max_table_cells{kDefaultMaxTableCells};

std::string short_number(double x) {
    char buf[32];
    std::snprintf(buf, sizeof buf, x < 1e6 ? "%.0f" : "%.3g", x);
    return buf;
}
}  // namespace

std::size_t default_max_table_cells() { return g_max_table_cells.load(); }
void set_default_max_table_cells(std::size_t cells) { g_max_table_cells.store(cells); }

double Sampler::table_cells(const Dfa& d, std::size_t max_length) {
    const double L = static_cast<double>(max_length) + 1, S = static_cast<double>(d.num_states()),
                 K = static_cast<double>(std::max<std::size_t>(d.num_symbols(), 1));
    const double words_per_count = std::log2(K) / 64;  // 64-bit limbs per symbol of length
    const double sampling = 2 * L * S * K;              // cumulative distributions (doubles)
    const double alive = 2 * L * S / 8;                 // one byte per (label, length, state)
    const double exact = L * L * words_per_count + 2 * S * L * words_per_count + 2 * L;
    return sampling + alive + exact;
}

Result<bool> Sampler::check_table_cells(const Dfa& d, std::size_t max_length, std::size_t max_cells) {
    const double cells = table_cells(d, max_length);
    if (cells <= static_cast<double>(max_cells)) return true;
    return limit_error("the count tables would need " + short_number(cells) + " cells (2 labels × " +
                       std::to_string(max_length + 1) + " lengths × " + std::to_string(d.num_states()) +
                       (d.num_states() == 1 ? " state × " : " states × ") + std::to_string(d.num_symbols()) +
                       (d.num_symbols() == 1 ? " symbol" : " symbols") + ", plus exact counts) > " +
                       "--max-table-cells " + std::to_string(max_cells) +
                       "; raise --max-table-cells or lower the maximum length");
}

Result<Sampler> Sampler::create(const Dfa& d, std::size_t max_length, std::size_t max_table_cells) {
    auto valid = d.validate();
    if (!valid.ok()) return valid.error();
    if (d.num_symbols() == 0) return make_error("cannot sample words over an empty alphabet");
    auto fits = check_table_cells(d, max_length, max_table_cells ? max_table_cells : default_max_table_cells());
    if (!fits.ok()) return fits.error();
    auto impl = std::make_unique<Impl>();
    impl->dfa = d;
    impl->N = max_length;
    impl->S = d.num_states();
    impl->K = d.num_symbols();
    const std::size_t N = max_length, S = impl->S, K = impl->K;
    const double rows = 2.0 * static_cast<double>(N + 1) * static_cast<double>(S);
    impl->cum.assign(static_cast<std::size_t>(rows) * K, 0.0);
    impl->alive.assign(static_cast<std::size_t>(rows), 0);

    std::vector<double> weights(K);
    for (int label = 0; label < 2; ++label) {
        impl->mant_initial[label].assign(N + 1, 0.0);
        impl->exp_initial[label].assign(N + 1, 0);
        impl->sat_initial[label].assign(N + 1, 0);
        // Layers of counts as mantissa (Eigen arrays) and exponent, and saturating counts.
        Eigen::ArrayXd prev(S), cur(S);
        std::vector<std::int64_t> eprev(S, 0), ecur(S, 0);
        std::vector<std::uint64_t> sprev(S), scur(S);
        for (std::size_t q = 0; q < S; ++q) {
            bool has = (d.accepting[q] != 0) == (label == 1);
            prev[q] = has ? 0.5 : 0.0;  // 1 = 0.5 · 2^1
            eprev[q] = has ? 1 : 0;
            sprev[q] = has ? 1 : 0;
            impl->alive[impl->row(label, 0, q)] = has;
        }
        impl->mant_initial[label][0] = prev[d.initial];
        impl->exp_initial[label][0] = eprev[d.initial];
        impl->sat_initial[label][0] = sprev[d.initial];
        for (std::size_t r = 1; r <= N; ++r) {
            for (std::size_t q = 0; q < S; ++q) {
                const State* succ = &d.delta[q * K];
                std::int64_t emax = std::numeric_limits<std::int64_t>::min();
                bool any = false;
                std::uint64_t sat = 0;
                for (std::size_t a = 0; a < K; ++a) {
                    if (prev[succ[a]] > 0) {
                        any = true;
                        emax = std::max(emax, eprev[succ[a]]);
                    }
                    std::uint64_t c = sprev[succ[a]];
                    sat = (sat > kSat - c) ? kSat : sat + c;
                }
                scur[q] = sat;
                const std::size_t rw = impl->row(label, r, q);
                if (!any) {
                    cur[q] = 0.0;
                    ecur[q] = 0;
                    continue;
                }
                impl->alive[rw] = 1;
                double total = 0;
                for (std::size_t a = 0; a < K; ++a) {
                    const double m = prev[succ[a]];
                    const std::int64_t shift = eprev[succ[a]] - emax;  // <= 0
                    weights[a] = (m > 0 && shift > -1100) ? std::ldexp(m, static_cast<int>(shift)) : 0.0;
                    total += weights[a];
                }
                int e = 0;
                cur[q] = std::frexp(total, &e);
                ecur[q] = emax + e;
                double* c = &impl->cum[rw * K];
                double acc = 0;
                std::size_t last = 0;
                for (std::size_t a = 0; a < K; ++a) {
                    acc += weights[a] / total;
                    c[a] = acc;
                    if (weights[a] > 0) last = a;
                }
                for (std::size_t a = last; a < K; ++a) c[a] = 2.0;
            }
            std::swap(prev, cur);
            std::swap(eprev, ecur);
            std::swap(sprev, scur);
            impl->mant_initial[label][r] = prev[d.initial];
            impl->exp_initial[label][r] = eprev[d.initial];
            impl->sat_initial[label][r] = sprev[d.initial];
        }
    }
    return Sampler(std::move(impl));
}

const Dfa& Sampler::dfa() const { return impl_->dfa; }
std::size_t Sampler::max_length() const { return impl_->N; }

std::string Sampler::count_exact(std::size_t n, bool label) const {
    if (n > impl_->N) return "0";
    std::call_once(impl_->exact_once, [this] { impl_->compute_exact(); });
    return impl_->exact_initial[label][n].to_string();
}

double Sampler::count(std::size_t n, bool label) const {
    if (n > impl_->N) return 0;
    if (impl_->sat_initial[label][n] != kSat) return static_cast<double>(impl_->sat_initial[label][n]);
    const std::int64_t e = impl_->exp_initial[label][n];
    if (e > 4096) return std::numeric_limits<double>::infinity();
    return std::ldexp(impl_->mant_initial[label][n], static_cast<int>(e));
}

bool Sampler::has_words(std::size_t n, bool label) const {
    return n <= impl_->N && impl_->sat_initial[label][n] > 0;
}

bool Sampler::has_at_least(std::size_t n, bool label, std::uint64_t at_least) const {
    if (at_least == 0) return true;
    return n <= impl_->N && impl_->sat_initial[label][n] >= at_least;
}

Word Sampler::sample(std::size_t n, bool label, Rng& rng) const {
    const Impl& m = *impl_;
    Word w(n);
    State q = m.dfa.initial;
    const std::size_t K = m.K;
    const double* base = m.cum.data();
    const State* delta = m.dfa.delta.data();
    for (std::size_t i = 0; i < n; ++i) {
        const double* c = base + m.row(label, n - i, q) * K;
        const double u = rng.uniform();
        std::size_t a = 0;
        if (K <= 16) {
            while (!(u < c[a])) ++a;
        } else {
            a = static_cast<std::size_t>(std::upper_bound(c, c + K, u) - c);
        }
        w[i] = static_cast<Symbol>(a);
        q = delta[q * K + a];
    }
    return w;
}

std::vector<Word> Sampler::enumerate(std::size_t n, bool label, std::size_t limit) const {
    const Impl& m = *impl_;
    std::vector<Word> out;
    if (!has_words(n, label) || limit == 0) return out;
    // Depth-first search in lexicographic order, pruned by `alive`, so every leaf is a word.
    Word w(n);
    std::vector<State> states(n + 1);
    std::vector<std::size_t> next(n + 1, 0);
    states[0] = m.dfa.initial;
    std::size_t depth = 0;
    while (true) {
        if (depth == n) {
            out.push_back(w);
            if (out.size() >= limit) return out;
            if (depth == 0) return out;
            --depth;
            continue;
        }
        std::size_t a = next[depth];
        bool descended = false;
        for (; a < m.K; ++a) {
            State t = m.dfa.next(states[depth], static_cast<Symbol>(a));
            if (m.alive[m.row(label, n - depth - 1, t)]) {
                w[depth] = static_cast<Symbol>(a);
                next[depth] = a + 1;
                states[depth + 1] = t;
                next[depth + 1] = 0;
                ++depth;
                descended = true;
                break;
            }
        }
        if (!descended) {
            if (depth == 0) return out;
            --depth;
        }
    }
}

std::string Sampler::count_method() const { return "log-double"; }

}  // namespace ltlkit::automata
