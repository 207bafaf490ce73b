// Receptive-field ceilings of k-local NoPE strict-mask transformers (docs/CEILING.md).
#include "automata/ceiling.hh"

#include "automata/architecture.hh"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <unordered_map>
#include <unordered_set>

namespace ltlkit::automata {

namespace {

constexpr std::int32_t kUnknown = -1;  // a type the suffix programme cannot compute (window leaves the suffix)
constexpr std::int32_t kAbsent = -2;   // a window slot before position 1 (the word is shorter than the window)
constexpr std::uint32_t kNone = 0xffffffffu;

using Real = long double;

std::uint64_t mix64(std::uint64_t h) {  // the finalizer of SplitMix64 (Steele et al. 2014)
    h ^= h >> 30;
    h *= 0xbf58476d1ce4e5b9ull;
    h ^= h >> 27;
    h *= 0x94d049bb133111ebull;
    return h ^ (h >> 31);
}

// Interns int32 sequences as dense ids: the keys live in one flat array, the index is open
// addressing with linear probing over ids, with each id's hash kept so most probes skip memcmp.
class SeqInterner {
public:
    SeqInterner() : slots_(64, 0) {}
    SeqInterner(const SeqInterner&) = delete;
    SeqInterner& operator=(const SeqInterner&) = delete;

    std::uint32_t intern(const std::int32_t* key, std::size_t len) {
        std::uint64_t h = len;
        for (std::size_t i = 0; i < len; ++i) h = mix64(h ^ static_cast<std::uint32_t>(key[i]));
        const std::size_t mask = slots_.size() - 1;
        for (std::size_t i = h & mask;; i = (i + 1) & mask) {
            const std::uint32_t s = slots_[i];
            if (s == 0) break;
            const std::uint32_t id = s - 1;
            if (hashes_[id] == h && length(id) == len && std::memcmp(this->key(id), key, len * sizeof(std::int32_t)) == 0)
                return id;
        }
        const auto id = static_cast<std::uint32_t>(hashes_.size());
        data_.insert(data_.end(), key, key + len);
        offsets_.push_back(data_.size());
        hashes_.push_back(h);
        if (2 * hashes_.size() > slots_.size()) {
            slots_.assign(2 * slots_.size(), 0);
            for (std::uint32_t j = 0; j < hashes_.size(); ++j) place(j);
        } else {
            place(id);
        }
        return id;
    }
    std::size_t size() const { return hashes_.size(); }
    const std::int32_t* key(std::uint32_t id) const { return data_.data() + offsets_[id]; }
    std::size_t length(std::uint32_t id) const { return offsets_[id + 1] - offsets_[id]; }

private:
    void place(std::uint32_t id) {
        const std::size_t mask = slots_.size() - 1;
        std::size_t i = hashes_[id] & mask;
        while (slots_[i] != 0) i = (i + 1) & mask;
        slots_[i] = id + 1;
    }
    std::vector<std::int32_t> data_;
    std::vector<std::size_t> offsets_{0};
    std::vector<std::uint64_t> hashes_;
    std::vector<std::uint32_t> slots_;  // id + 1, 0 = empty; a power of two, at most half full
};

// A map from 64-bit keys (never ~0) to masses: open addressing with linear probing.
class MassMap {
public:
    MassMap() : keys_(64, kEmpty), values_(64, 0) {}
    Real& operator[](std::uint64_t key) {
        const std::size_t mask = keys_.size() - 1;
        std::size_t i = mix64(key) & mask;
        while (keys_[i] != kEmpty && keys_[i] != key) i = (i + 1) & mask;
        if (keys_[i] == key) return values_[i];
        if (2 * (size_ + 1) > keys_.size()) {
            grow();
            return (*this)[key];
        }
        ++size_;
        keys_[i] = key;
        return values_[i];
    }
    std::size_t size() const { return size_; }
    // Calls f(key, mass&) for every entry while f returns true; false when f stopped it.
    template <class F>
    bool for_each(F f) {
        for (std::size_t i = 0; i < keys_.size(); ++i)
            if (keys_[i] != kEmpty && !f(keys_[i], values_[i])) return false;
        return true;
    }

private:
    static constexpr std::uint64_t kEmpty = ~std::uint64_t(0);
    void grow() {
        std::vector<std::uint64_t> keys(2 * keys_.size(), kEmpty);
        std::vector<Real> values(2 * keys_.size(), 0);
        keys.swap(keys_);
        values.swap(values_);
        size_ = 0;
        for (std::size_t i = 0; i < keys.size(); ++i)
            if (keys[i] != kEmpty) (*this)[keys[i]] = values[i];
    }
    std::vector<std::uint64_t> keys_;
    std::vector<Real> values_;
    std::size_t size_ = 0;
};

}  // namespace

// The type tables. A "slide" is the state of a left-to-right scan: for each layer l in 0..L-1 the
// types of the last k positions at layer l, oldest first (slide[l*k + j]); kUnknown where the scan
// started inside the word (suffix mode), kAbsent before position 1.
struct EosTypes::Impl {
    std::size_t sigma;
    unsigned k, L;
    std::vector<std::unique_ptr<SeqInterner>> layer;  // layer[l-1] interns type_l keys (own, sorted window)
    std::vector<std::int32_t> buf;

    Impl(std::size_t s, unsigned window, unsigned layers) : sigma(s), k(window), L(layers) {
        for (unsigned l = 0; l < L; ++l) layer.push_back(std::make_unique<SeqInterner>());
    }

    // type_l from type_{l-1} of the position and of its window (k slots, absent ones skipped).
    std::int32_t refine(unsigned l, std::int32_t own, const std::int32_t* window) {
        if (own == kUnknown) return kUnknown;
        buf.clear();
        buf.push_back(own);
        for (unsigned j = 0; j < k; ++j) {
            if (window[j] == kUnknown) return kUnknown;
            if (window[j] != kAbsent) buf.push_back(window[j]);
        }
        std::sort(buf.begin() + 1, buf.end());
        return static_cast<std::int32_t>(layer[l - 1]->intern(buf.data(), buf.size()));
    }

    // Reads symbol a at the next position: out = the slide after it.
    void step(const std::int32_t* slide, Symbol a, std::int32_t* out) {
        std::int32_t cur = static_cast<std::int32_t>(a);
        for (unsigned l = 0; l < L; ++l) {
            if (l > 0) cur = refine(l, cur, slide + (l - 1) * k);
            std::copy(slide + l * k + 1, slide + (l + 1) * k, out + l * k);
            out[l * k + k - 1] = cur;
        }
    }

    // type_L of EOS read after the positions of the slide.
    std::int32_t eos(const std::int32_t* slide) {
        std::int32_t cur = static_cast<std::int32_t>(sigma);
        for (unsigned l = 1; l <= L; ++l) cur = refine(l, cur, slide + (l - 1) * k);
        return cur;
    }

    std::uint32_t eos_type(const Word& w) {
        const std::size_t span = static_cast<std::size_t>(L) * k;
        // Lemma 1: a word of length >= L*k has the EOS type of its last L*k symbols read with
        // unknown history; a shorter one is read from position 1 with absent slots.
        std::vector<std::int32_t> slide(span, w.size() >= span ? kUnknown : kAbsent), next(span);
        const std::size_t from = w.size() >= span ? w.size() - span : 0;
        for (std::size_t i = from; i < w.size(); ++i) {
            step(slide.data(), w[i], next.data());
            slide.swap(next);
        }
        return static_cast<std::uint32_t>(eos(slide.data()));
    }
};

EosTypes::EosTypes(std::size_t num_symbols, unsigned window, unsigned layers)
    : impl_(std::make_unique<Impl>(num_symbols, std::max(1u, window), std::max(1u, layers))) {}
EosTypes::~EosTypes() = default;
EosTypes::EosTypes(EosTypes&&) noexcept = default;
EosTypes& EosTypes::operator=(EosTypes&&) noexcept = default;
std::uint32_t EosTypes::eos_type(const Word& w) { return impl_->eos_type(w); }
unsigned EosTypes::window() const { return impl_->k; }
unsigned EosTypes::layers() const { return impl_->L; }
std::size_t EosTypes::types_at(unsigned layer) const {
    return layer >= 1 && layer <= impl_->L ? impl_->layer[layer - 1]->size() : 0;
}

bool same_eos_type(const Word& u, const Word& v, std::size_t num_symbols, unsigned window, unsigned layers) {
    EosTypes t(num_symbols, window, layers);
    return t.eos_type(u) == t.eos_type(v);
}

std::string to_string(CeilingDistribution d) {
    switch (d) {
        case CeilingDistribution::Training: return "training";
        case CeilingDistribution::Test: return "test";
        case CeilingDistribution::Uniform: return "uniform";
        case CeilingDistribution::Empirical: return "empirical";
    }
    return "?";
}

Result<CeilingDistribution> parse_ceiling_distribution(const std::string& text) {
    for (auto d : {CeilingDistribution::Training, CeilingDistribution::Test, CeilingDistribution::Uniform,
                   CeilingDistribution::Empirical})
        if (text == to_string(d)) return d;
    return make_error("unknown distribution '" + text + "' (expected training, test, uniform or empirical)");
}

std::string to_string(CeilingWeighting w) { return w == CeilingWeighting::Words ? "words" : "lengths"; }

Result<CeilingWeighting> parse_ceiling_weighting(const std::string& text) {
    if (text == "words") return CeilingWeighting::Words;
    if (text == "lengths") return CeilingWeighting::Lengths;
    return make_error("unknown weighting '" + text + "' (expected words or lengths)");
}

namespace {

using Clock = std::chrono::steady_clock;

// The window k of a k-local architecture name (Architecture::eos_window), or why it has no ceiling.
Result<unsigned> local_window(const std::string& name) {
    auto arch = parse_architecture(name);
    if (!arch) return arch.error();
    if (auto window = arch->eos_window()) return static_cast<unsigned>(*window);
    return make_error("architecture '" + name + "' has no receptive-field ceiling: only local-K models see a bounded window at EOS "
                      "(global and hybrid attention and LSTMs read the whole word)");
}

Result<bool> check_query(const CeilingQuery& q) {
    if (q.layers < 1) return make_error("layers: expected L >= 1, got " + std::to_string(q.layers));
    if (q.layers > 64) return make_error("layers: at most 64, got " + std::to_string(q.layers));
    if (q.lengths.lo > q.lengths.hi) return make_error("lengths: expected A <= B");
    if (q.lengths.hi > 100'000) return make_error("lengths: at most 100000, got " + std::to_string(q.lengths.hi));
    if (q.distribution == CeilingDistribution::Test && q.per_length < 1)
        return make_error("per_length: expected at least 1 word per length");
    if (!(q.max_seconds >= 0)) return make_error("max_seconds: expected a number of seconds >= 0");
    return true;
}

// The word distribution as label weights per length: w[l][n] is the probability of drawing a word of
// length n with label l; within (n, l) words are uniform. p[l][n] is the fraction of all words of
// length n with label l, pi[n][q] the fraction of words of length n that reach q.
struct Mixture {
    std::size_t lo = 0, hi = 0;
    std::vector<Real> w[2], p[2];
    std::vector<std::vector<Real>> pi;  // pi[n][q], n = 0..hi
};

Result<Mixture> build_mixture(const Dfa& d, const CeilingQuery& q) {
    Mixture m;
    m.lo = q.lengths.lo;
    m.hi = q.lengths.hi;
    const std::size_t Q = d.num_states(), S = d.num_symbols();
    const Real inv = Real(1) / Real(S);
    // Exact counts saturate at 2^62 (only compared with the evaluation's small quotas).
    constexpr std::uint64_t kSat = std::uint64_t(1) << 62;
    std::vector<std::uint64_t> cnt(Q, 0), nc(Q);
    cnt[d.initial] = 1;
    m.pi.assign(m.hi + 1, std::vector<Real>(Q, 0));
    m.pi[0][d.initial] = 1;
    std::vector<std::uint64_t> c[2];
    for (int l = 0; l < 2; ++l) {
        m.w[l].assign(m.hi + 1, 0);
        m.p[l].assign(m.hi + 1, 0);
        c[l].assign(m.hi + 1, 0);
    }
    for (std::size_t n = 0; n <= m.hi; ++n) {
        if (n > 0) {
            std::fill(nc.begin(), nc.end(), 0);
            for (State s = 0; s < Q; ++s)
                for (Symbol a = 0; a < S; ++a) {
                    const State t = d.next(s, a);
                    m.pi[n][t] += m.pi[n - 1][s] * inv;
                    nc[t] = std::min(kSat, nc[t] + cnt[s]);
                }
            cnt.swap(nc);
        }
        for (State s = 0; s < Q; ++s) {
            const int l = d.is_accepting(s) ? 1 : 0;
            m.p[l][n] += m.pi[n][s];
            c[l][n] = std::min(kSat, c[l][n] + cnt[s]);
        }
    }
    const std::size_t nlen = m.hi - m.lo + 1;
    switch (q.distribution) {
        case CeilingDistribution::Training: {
            // neural/data.cc: a length uniform among those with both labels, half of each label;
            // with no such length each half draws its own length among those with its label.
            std::vector<std::size_t> with[2], both;
            for (std::size_t n = m.lo; n <= m.hi; ++n) {
                for (int l = 0; l < 2; ++l)
                    if (c[l][n] > 0) with[l].push_back(n);
                if (c[0][n] > 0 && c[1][n] > 0) both.push_back(n);
            }
            if (with[0].empty() || with[1].empty())
                return make_error("the language has no " + std::string(with[1].empty() ? "accepted" : "rejected") +
                                  " word of length " + std::to_string(m.lo) + ".." + std::to_string(m.hi) +
                                  ": there is no training distribution (change the lengths)");
            for (int l = 0; l < 2; ++l) {
                const auto& use = both.empty() ? with[l] : both;
                for (std::size_t n : use) m.w[l][n] = Real(0.5) / Real(use.size());
            }
            break;
        }
        case CeilingDistribution::Test: {
            // neural/eval.cc test_sample: per length (P+1)/2 positives and P/2 negatives when both
            // labels exist (all P of the one label otherwise), all words of a label when it has
            // fewer than its quota; the reported number is the mean over lengths.
            for (std::size_t n = m.lo; n <= m.hi; ++n) {
                const bool both = c[0][n] > 0 && c[1][n] > 0;
                Real s[2];
                for (int l = 0; l < 2; ++l) {
                    const std::uint64_t quota = both ? (l ? (q.per_length + 1) / 2 : q.per_length / 2) : q.per_length;
                    s[l] = c[l][n] == 0 ? 0 : Real(std::min<std::uint64_t>(quota, c[l][n]));
                }
                for (int l = 0; l < 2; ++l) m.w[l][n] = s[l] / (s[0] + s[1]) / Real(nlen);
            }
            break;
        }
        case CeilingDistribution::Uniform:
            for (std::size_t n = m.lo; n <= m.hi; ++n)
                for (int l = 0; l < 2; ++l) m.w[l][n] = m.p[l][n] / Real(nlen);
            break;
        case CeilingDistribution::Empirical:
            return make_error("the empirical distribution needs a list of words (empirical_ceiling)");
    }
    return m;
}

struct Budget {
    Clock::time_point start;
    double max_seconds;
    std::size_t max_states;
    std::size_t explored = 0;
    std::string reason;  // set when exhausted
    const std::function<void(const std::string&)>* progress = nullptr;
    std::string where;   // what the programme is doing, for progress lines
    Clock::time_point last_report = Clock::now();
    bool out_of_time() const {
        return max_seconds > 0 && std::chrono::duration<double>(Clock::now() - start).count() > max_seconds;
    }
    // A progress line every 10 seconds at most.
    void report(std::size_t live) {
        if (!progress || !*progress) return;
        const auto now = Clock::now();
        if (std::chrono::duration<double>(now - last_report).count() < 10) return;
        last_report = now;
        (*progress)(where + ": " + std::to_string(live) + " live states, " + std::to_string(explored) + " explored, " +
                    std::to_string(static_cast<long>(std::chrono::duration<double>(now - start).count())) + " s");
    }
};

// The exact mass of each EOS type: long[t][q] for words of length >= L*k (per start state q of the
// suffix: the number of suffixes of type t that lead from q to acceptance, mu1, and the number of
// suffixes of type t, nu, both divided by |Sigma|^{Lk}), short_mass[n] for lengths n < L*k.
struct TypeMass {
    std::vector<std::uint32_t> long_types;         // type ids
    std::vector<std::vector<Real>> mu1;            // [i][q]
    std::vector<Real> nu;                          // [i]
    std::map<std::size_t, std::map<std::uint32_t, std::array<Real, 2>>> short_mass;  // n -> type -> P(type, label | n)
};

struct Transformations {
    const Dfa& d;
    SeqInterner set;
    std::vector<std::uint32_t> succ;  // [t * |Sigma| + a]
    std::vector<std::int32_t> buf;
    explicit Transformations(const Dfa& dfa) : d(dfa) {}
    std::uint32_t identity() {
        buf.resize(d.num_states());
        for (State q = 0; q < d.num_states(); ++q) buf[q] = static_cast<std::int32_t>(q);
        return add();
    }
    std::uint32_t add() {
        const auto id = set.intern(buf.data(), buf.size());
        if (succ.size() < set.size() * d.num_symbols()) succ.resize(set.size() * d.num_symbols(), kNone);
        return id;
    }
    std::uint32_t next(std::uint32_t t, Symbol a) {
        auto& s = succ[t * d.num_symbols() + a];
        if (s == kNone) {
            const std::int32_t* f = set.key(t);
            buf.resize(d.num_states());
            for (State q = 0; q < d.num_states(); ++q) buf[q] = static_cast<std::int32_t>(d.next(static_cast<State>(f[q]), a));
            const auto id = add();
            succ[t * d.num_symbols() + a] = id;  // `s` may dangle after the resize in add()
            return id;
        }
        return s;
    }
};

// One level of a left-to-right programme: its slides and the mass of each (slide, second) key,
// where second is a DFA transformation (suffix mode) or a DFA state (prefix mode).
struct Level {
    std::unique_ptr<SeqInterner> slides = std::make_unique<SeqInterner>();
    MassMap mass;
};

std::uint64_t key_of(std::uint32_t slide, std::uint32_t second) { return (std::uint64_t(slide) << 32) | second; }

// Advances `cur` by one symbol into a fresh level. False when the budget is exhausted.
template <class NextSecond>
bool advance(EosTypes::Impl& types, Level& cur, Level& out, std::size_t sigma, Budget& b, NextSecond next_second) {
    const std::size_t width = static_cast<std::size_t>(types.L) * types.k;
    std::vector<std::uint32_t> succ(cur.slides->size() * sigma, kNone);
    std::vector<std::int32_t> tmp(width);
    std::size_t visited = 0;
    const bool done = cur.mass.for_each([&](std::uint64_t key, Real m) {
        const auto slide = static_cast<std::uint32_t>(key >> 32);
        const auto second = static_cast<std::uint32_t>(key & 0xffffffffu);
        for (Symbol a = 0; a < sigma; ++a) {
            auto& s = succ[slide * sigma + a];
            if (s == kNone) {
                types.step(cur.slides->key(slide), a, tmp.data());
                s = out.slides->intern(tmp.data(), width);
            }
            out.mass[key_of(s, next_second(second, a))] += m;
        }
        if (out.mass.size() > b.max_states) {
            b.reason = "more than " + std::to_string(b.max_states) +
                       " live states at one step of the exact programme (raise --max-dp-states)";
            return false;
        }
        if ((++visited & 1023) == 0) b.report(out.mass.size());
        if ((visited & 1023) == 0 && b.out_of_time()) {
            b.reason = "the exact programme ran past the time limit of " + std::to_string(static_cast<long>(b.max_seconds)) +
                       " s (raise --time-limit)";
            return false;
        }
        return true;
    });
    if (!done) return false;
    b.explored += cur.mass.size();
    return true;
}

// Suffix and prefix programmes of docs/CEILING.md §3. False when over budget.
bool type_mass(const Dfa& d, const Mixture& m, EosTypes::Impl& types, Budget& b, TypeMass& out) {
    const std::size_t sigma = d.num_symbols(), Q = d.num_states();
    const std::size_t span = static_cast<std::size_t>(types.L) * types.k;
    const std::size_t width = span;  // slide size: L layers x k slots
    // Prefix programme: lengths n < L*k from position 1, keyed by (slide, DFA state).
    if (m.lo < span) {
        Level cur;
        std::vector<std::int32_t> init(width, kAbsent);
        cur.mass[key_of(cur.slides->intern(init.data(), width), d.initial)] = 1;
        const Real inv = Real(1) / Real(sigma);
        for (std::size_t n = 0;; ++n) {
            if (n >= m.lo && n <= m.hi) {
                auto& row = out.short_mass[n];
                std::vector<std::uint32_t> eos_of(cur.slides->size(), kNone);
                cur.mass.for_each([&](std::uint64_t key, Real mass) {
                    const auto slide = static_cast<std::uint32_t>(key >> 32);
                    if (eos_of[slide] == kNone) eos_of[slide] = static_cast<std::uint32_t>(types.eos(cur.slides->key(slide)));
                    row[eos_of[slide]][d.is_accepting(static_cast<State>(key & 0xffffffffu)) ? 1 : 0] += mass;
                    return true;
                });
            }
            if (n + 1 >= span || n + 1 > m.hi) break;
            Level next;
            b.where = std::to_string(types.L) + " layers: words of length " + std::to_string(n + 1);
            if (!advance(types, cur, next, sigma, b, [&](std::uint32_t q, Symbol a) { return d.next(q, a); })) return false;
            next.mass.for_each([&](std::uint64_t, Real& mass) {
                mass *= inv;
                return true;
            });
            cur = std::move(next);
        }
    }
    // Suffix programme: the last L*k symbols from unknown history, keyed by (slide, transformation).
    if (m.hi >= span) {
        Transformations tr(d);
        Level cur;
        std::vector<std::int32_t> init(width, kUnknown);
        cur.mass[key_of(cur.slides->intern(init.data(), width), tr.identity())] = 1;
        for (std::size_t p = 0; p < span; ++p) {
            b.where = std::to_string(types.L) + " layers: suffix symbol " + std::to_string(p + 1) + " of " + std::to_string(span);
            Level next;
            if (!advance(types, cur, next, sigma, b, [&](std::uint32_t t, Symbol a) { return tr.next(t, a); })) return false;
            cur = std::move(next);
        }
        b.explored += cur.mass.size();
        const Real total = std::pow(Real(sigma), Real(span));
        std::unordered_map<std::uint32_t, std::size_t> index;
        std::vector<std::uint32_t> eos_of(cur.slides->size(), kNone);
        cur.mass.for_each([&](std::uint64_t key, Real mass) {
            const auto slide = static_cast<std::uint32_t>(key >> 32);
            if (eos_of[slide] == kNone) eos_of[slide] = static_cast<std::uint32_t>(types.eos(cur.slides->key(slide)));
            auto [it, fresh] = index.emplace(eos_of[slide], out.long_types.size());
            if (fresh) {
                out.long_types.push_back(eos_of[slide]);
                out.mu1.emplace_back(Q, 0);
                out.nu.push_back(0);
            }
            const std::int32_t* f = tr.set.key(static_cast<std::uint32_t>(key & 0xffffffffu));
            const Real share = mass / total;
            for (State q = 0; q < Q; ++q)
                if (d.is_accepting(static_cast<State>(f[q]))) out.mu1[it->second][q] += share;
            out.nu[it->second] += share;
            return true;
        });
    }
    return true;
}

// The weights per type and per length, the optimal joint classifier and its rows.
struct Evaluation {
    Real value = 0;
    std::size_t types = 0;
    std::map<std::size_t, std::pair<Real, Real>> rows;  // n -> (accuracy of the joint classifier, per-length optimum), absolute masses
};

Evaluation evaluate(const Mixture& m, const TypeMass& tm, std::size_t span, std::size_t Q) {
    Evaluation ev;
    // A[l][q]: sum over long lengths n of w_l(n) / p_l(n) * pi_{n-Lk}(q).
    std::vector<Real> A[2] = {std::vector<Real>(Q, 0), std::vector<Real>(Q, 0)};
    for (std::size_t n = std::max(m.lo, span); n <= m.hi; ++n)
        for (int l = 0; l < 2; ++l)
            if (m.w[l][n] > 0)
                for (std::size_t q = 0; q < Q; ++q) A[l][q] += m.w[l][n] / m.p[l][n] * m.pi[n - span][q];
    std::unordered_map<std::uint32_t, std::array<Real, 2>> W;  // type -> label weights
    for (std::size_t i = 0; i < tm.long_types.size(); ++i) {
        auto& w = W[tm.long_types[i]];
        for (std::size_t q = 0; q < Q; ++q) {
            w[1] += tm.mu1[i][q] * A[1][q];
            w[0] += (tm.nu[i] - tm.mu1[i][q]) * A[0][q];
        }
    }
    for (const auto& [n, row] : tm.short_mass)
        for (const auto& [tau, pm] : row) {
            auto& w = W[tau];
            for (int l = 0; l < 2; ++l)
                if (m.w[l][n] > 0) w[l] += m.w[l][n] * pm[l] / m.p[l][n];
        }
    Real total[2] = {0, 0};
    for (std::size_t n = m.lo; n <= m.hi; ++n)
        for (int l = 0; l < 2; ++l) total[l] += m.w[l][n];
    const int tie = total[1] >= total[0] ? 1 : 0;  // ties go to the better constant answer
    std::unordered_map<std::uint32_t, int> decide;
    for (const auto& [tau, w] : W) {
        ev.value += std::max(w[0], w[1]);
        ev.types += (w[0] + w[1]) > 0;
        decide[tau] = w[1] > w[0] ? 1 : w[0] > w[1] ? 0 : tie;
    }
    // Rows, short lengths: per type.
    for (const auto& [n, row] : tm.short_mass) {
        Real acc = 0, opt = 0;
        for (const auto& [tau, pm] : row) {
            Real x[2];
            for (int l = 0; l < 2; ++l) x[l] = m.w[l][n] > 0 ? m.w[l][n] * pm[l] / m.p[l][n] : 0;
            acc += x[decide[tau]];
            opt += std::max(x[0], x[1]);
        }
        ev.rows[n] = {acc, opt};
    }
    // Rows, long lengths: the joint classifier through aggregated vectors; the per-length optimum
    // through types grouped by their acceptance profile mu1/nu (proportional types add up).
    std::vector<Real> G[2] = {std::vector<Real>(Q, 0), std::vector<Real>(Q, 0)};
    std::map<std::vector<Real>, Real> profiles;
    for (std::size_t i = 0; i < tm.long_types.size(); ++i) {
        const int dec = decide[tm.long_types[i]];
        std::vector<Real> r(Q);
        for (std::size_t q = 0; q < Q; ++q) {
            G[dec][q] += dec ? tm.mu1[i][q] : tm.nu[i] - tm.mu1[i][q];
            r[q] = tm.mu1[i][q] / tm.nu[i];
        }
        profiles[r] += tm.nu[i];
    }
    for (std::size_t n = std::max(m.lo, span); n <= m.hi; ++n) {
        const auto& pi = m.pi[n - span];
        Real f[2];
        for (int l = 0; l < 2; ++l) f[l] = m.w[l][n] > 0 ? m.w[l][n] / m.p[l][n] : 0;
        Real acc = 0, opt = 0;
        for (std::size_t q = 0; q < Q; ++q) acc += pi[q] * (f[1] * G[1][q] + f[0] * G[0][q]);
        for (const auto& [r, nu] : profiles) {
            Real x1 = 0, x0 = 0;
            for (std::size_t q = 0; q < Q; ++q) {
                x1 += pi[q] * r[q];
                x0 += pi[q] * (1 - r[q]);
            }
            opt += nu * std::max(f[1] * x1, f[0] * x0);
        }
        ev.rows[n] = {acc, opt};
    }
    return ev;
}

// The upper bound: a model that sees the last L*k symbols exactly (the whole word when shorter).
// Suffixes are grouped by S(s) = {q : delta(q, s) accepting}, built right to left (S(as) = a^{-1}S(s)).
struct ViewBound {
    Real value = 0;
    std::map<std::size_t, Real> rows;  // per-length optimum (absolute mass)
};

std::optional<ViewBound> view_bound(const Dfa& d, const Mixture& m, std::size_t span, Budget& b) {
    ViewBound vb;
    const std::size_t Q = d.num_states(), sigma = d.num_symbols();
    for (std::size_t n = m.lo; n <= std::min(m.hi, span - 1); ++n) {
        vb.rows[n] = m.w[0][n] + m.w[1][n];  // every short word is its own view
        vb.value += vb.rows[n];
    }
    if (m.hi < span) return vb;
    std::map<std::vector<bool>, Real> sets{{std::vector<bool>(d.accepting.begin(), d.accepting.end()), Real(1)}};
    for (std::size_t j = 0; j < span; ++j) {
        std::map<std::vector<bool>, Real> next;
        for (const auto& [s, c] : sets)
            for (Symbol a = 0; a < sigma; ++a) {
                std::vector<bool> pre(Q);
                for (State q = 0; q < Q; ++q) pre[q] = s[d.next(q, a)];
                next[pre] += c / Real(sigma);
            }
        if (next.size() > b.max_states || b.out_of_time()) return std::nullopt;
        sets.swap(next);
    }
    for (std::size_t n = std::max(m.lo, span); n <= m.hi; ++n) {
        const auto& pi = m.pi[n - span];
        Real f[2];
        for (int l = 0; l < 2; ++l) f[l] = m.w[l][n] > 0 ? m.w[l][n] / m.p[l][n] : 0;
        Real opt = 0;
        for (const auto& [s, c] : sets) {
            Real x1 = 0, x0 = 0;
            for (State q = 0; q < Q; ++q) (s[q] ? x1 : x0) += pi[q];
            opt += c * std::max(f[1] * x1, f[0] * x0);
        }
        vb.rows[n] = opt;
    }
    // The joint optimum over long lengths: per set, the larger summed label weight.
    std::vector<Real> A[2] = {std::vector<Real>(Q, 0), std::vector<Real>(Q, 0)};
    for (std::size_t n = std::max(m.lo, span); n <= m.hi; ++n)
        for (int l = 0; l < 2; ++l)
            if (m.w[l][n] > 0)
                for (State q = 0; q < Q; ++q) A[l][q] += m.w[l][n] / m.p[l][n] * m.pi[n - span][q];
    for (const auto& [s, c] : sets) {
        Real x1 = 0, x0 = 0;
        for (State q = 0; q < Q; ++q) (s[q] ? x1 : x0) += s[q] ? A[1][q] : A[0][q];
        vb.value += c * std::max(x1, x0);
    }
    return vb;
}

std::optional<Evaluation> exact_at(const Dfa& d, const Mixture& m, unsigned k, unsigned L, Budget& b) {
    EosTypes::Impl types(d.num_symbols(), k, L);
    TypeMass tm;
    if (!type_mass(d, m, types, b, tm)) return std::nullopt;
    return evaluate(m, tm, static_cast<std::size_t>(L) * k, d.num_states());
}

}  // namespace

Result<CeilingResult> receptive_field_ceiling(const Dfa& d, const CeilingQuery& q) {
    const auto t0 = Clock::now();
    auto k = local_window(q.arch);
    if (!k) return k.error();
    if (auto ok = check_query(q); !ok) return ok.error();
    if (q.distribution == CeilingDistribution::Empirical)
        return make_error("the empirical distribution needs a list of words (empirical_ceiling)");
    if (d.num_symbols() < 1) return make_error("the DFA has an empty alphabet");
    if (static_cast<double>(q.lengths.hi + 1) * static_cast<double>(d.num_states()) > 5e7)
        return limit_error("lengths x DFA states: the tables of " + std::to_string(q.lengths.hi + 1) + " lengths x " +
                           std::to_string(d.num_states()) + " states exceed 50,000,000 cells (shorten --lengths)");
    auto mix = build_mixture(d, q);
    if (!mix) return mix.error();
    const Mixture& m = *mix;
    CeilingResult r;
    r.arch = q.arch;
    r.window = *k;
    r.layers = q.layers;
    r.distribution = q.distribution;
    r.lengths = q.lengths;
    if (q.distribution == CeilingDistribution::Test) r.per_length = q.per_length;
    Real total[2] = {0, 0};
    for (std::size_t n = m.lo; n <= m.hi; ++n)
        for (int l = 0; l < 2; ++l) total[l] += m.w[l][n];
    r.constant_label = total[1] >= total[0];
    r.constant_accuracy = static_cast<double>(std::max(total[0], total[1]));
    Budget b{t0, q.max_seconds, q.max_states, 0, "", &q.progress, "", t0};
    auto fill_rows = [&](const std::map<std::size_t, std::pair<Real, Real>>& rows, bool exact) {
        r.per_length_rows.clear();
        for (std::size_t n = m.lo; n <= m.hi; ++n) {
            CeilingLengthRow row;
            row.length = n;
            const Real share = m.w[0][n] + m.w[1][n];
            row.share = static_cast<double>(share);
            row.positive_share = share > 0 ? static_cast<double>(m.w[1][n] / share) : 0;
            auto it = rows.find(n);
            if (share > 0 && it != rows.end()) {
                if (exact) row.accuracy = static_cast<double>(it->second.first / share);
                row.optimum = row.optimum_upper = static_cast<double>(it->second.second / share);
            } else if (share > 0) {  // no depth fits: the best constant answer at this length
                row.optimum = row.optimum_upper = std::max(row.positive_share, 1 - row.positive_share);
            }
            r.per_length_rows.push_back(row);
        }
    };
    if (auto ev = exact_at(d, m, *k, q.layers, b)) {
        r.exact = true;
        r.value = r.lower = r.upper = static_cast<double>(ev->value);
        r.types = ev->types;
        r.lower_layers = q.layers;
        fill_rows(ev->rows, true);
    } else {
        r.exact = false;
        r.reason = b.reason;
        // Lower bound: the exact ceiling at the largest smaller depth that fits (monotone in L),
        // else the best constant answer. The search gets half the time limit again, so that a
        // main attempt that ran out of time still leaves it some.
        r.lower = r.constant_accuracy;
        r.lower_layers = 0;
        std::map<std::size_t, std::pair<Real, Real>> lower_rows;
        const auto lower_start = Clock::now();
        for (unsigned L = 1; L < q.layers; ++L) {
            Budget bl{lower_start, b.max_seconds / 2, b.max_states, 0, "", &q.progress, "", b.last_report};
            auto ev = exact_at(d, m, *k, L, bl);
            b.explored += bl.explored;
            if (!ev) break;
            r.lower = static_cast<double>(ev->value);
            r.lower_layers = L;
            lower_rows = ev->rows;
        }
        fill_rows(lower_rows, false);
        r.upper = 1;
        // The bound's sets number at most 2^|Q|: it gets its own, larger budget.
        Budget bu{Clock::now(), q.max_seconds, std::max<std::size_t>(q.max_states, 1'000'000), 0, "", nullptr, "", t0};
        if (auto vb = view_bound(d, m, static_cast<std::size_t>(q.layers) * *k, bu)) {
            r.upper = static_cast<double>(vb->value);
            for (auto& row : r.per_length_rows)
                if (row.share > 0) row.optimum_upper = static_cast<double>(vb->rows[row.length] / (m.w[0][row.length] + m.w[1][row.length]));
        } else {
            for (auto& row : r.per_length_rows) row.optimum_upper = 1;
        }
        r.upper = std::max(r.upper, r.lower);
    }
    r.states_explored = b.explored;
    r.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    return r;
}

Result<CeilingResult> empirical_ceiling(const std::vector<Example>& words, std::size_t num_symbols, const CeilingQuery& q) {
    const auto t0 = Clock::now();
    auto k = local_window(q.arch);
    if (!k) return k.error();
    if (q.layers < 1) return make_error("layers: expected L >= 1, got " + std::to_string(q.layers));
    if (q.layers > 64) return make_error("layers: at most 64, got " + std::to_string(q.layers));
    if (words.empty()) return make_error("the sample has no words");
    for (std::size_t i = 0; i < words.size(); ++i)
        for (Symbol a : words[i].word)
            if (a >= num_symbols)
                return make_error("word " + std::to_string(i + 1) + ": symbol index " + std::to_string(a) +
                                  " is outside the alphabet of " + std::to_string(num_symbols) + " symbols");
    CeilingResult r;
    r.arch = q.arch;
    r.window = *k;
    r.layers = q.layers;
    r.distribution = CeilingDistribution::Empirical;
    r.weighting = q.weighting;
    r.words = words.size();
    std::map<std::size_t, std::size_t> per_len;
    for (const auto& w : words) ++per_len[w.word.size()];
    r.lengths = {per_len.begin()->first, per_len.rbegin()->first};
    auto weight = [&](const Example& w) {
        return q.weighting == CeilingWeighting::Words
                   ? Real(1) / Real(words.size())
                   : Real(1) / Real(per_len.size()) / Real(per_len.at(w.word.size()));
    };
    EosTypes types(num_symbols, *k, q.layers);
    std::vector<std::uint32_t> tau(words.size());
    std::unordered_map<std::uint32_t, std::array<Real, 2>> W;
    std::map<std::size_t, std::map<std::uint32_t, std::array<Real, 2>>> rows;
    Real total[2] = {0, 0};
    for (std::size_t i = 0; i < words.size(); ++i) {
        tau[i] = types.eos_type(words[i].word);
        const Real x = weight(words[i]);
        const int l = words[i].label ? 1 : 0;
        W[tau[i]][l] += x;
        rows[words[i].word.size()][tau[i]][l] += x;
        total[l] += x;
    }
    r.constant_label = total[1] >= total[0];
    r.constant_accuracy = static_cast<double>(std::max(total[0], total[1]));
    const int tie = r.constant_label ? 1 : 0;
    Real value = 0;
    std::unordered_map<std::uint32_t, int> decide;
    for (const auto& [t, w] : W) {
        value += std::max(w[0], w[1]);
        decide[t] = w[1] > w[0] ? 1 : w[0] > w[1] ? 0 : tie;
    }
    for (const auto& [n, row] : rows) {
        Real share = 0, pos = 0, acc = 0, opt = 0;
        for (const auto& [t, x] : row) {
            share += x[0] + x[1];
            pos += x[1];
            acc += x[decide[t]];
            opt += std::max(x[0], x[1]);
        }
        CeilingLengthRow cr;
        cr.length = n;
        cr.share = static_cast<double>(share);
        cr.positive_share = static_cast<double>(pos / share);
        cr.accuracy = static_cast<double>(acc / share);
        cr.optimum = cr.optimum_upper = static_cast<double>(opt / share);
        r.per_length_rows.push_back(cr);
    }
    r.exact = true;
    r.value = r.lower = r.upper = static_cast<double>(value);
    r.lower_layers = q.layers;
    r.types = W.size();
    r.states_explored = words.size();
    r.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    return r;
}

std::string ceiling_to_json(const CeilingResult& r) {
    nlohmann::ordered_json j;
    j["arch"] = r.arch;
    j["window"] = r.window;
    j["layers"] = r.layers;
    j["distribution"] = to_string(r.distribution);
    j["lengths"] = to_string(r.lengths);
    if (r.distribution == CeilingDistribution::Test) j["per_length"] = r.per_length;
    if (r.distribution == CeilingDistribution::Empirical) {
        j["words"] = r.words;
        j["weighting"] = to_string(r.weighting);
    }
    j["exact"] = r.exact;
    j["value"] = r.value ? nlohmann::ordered_json(*r.value) : nlohmann::ordered_json(nullptr);
    j["lower"] = r.lower;
    j["upper"] = r.upper;
    j["lower_layers"] = r.lower_layers;
    j["reason"] = r.reason;
    j["constant_accuracy"] = r.constant_accuracy;
    j["constant_label"] = r.constant_label ? 1 : 0;
    j["types"] = r.types;
    j["states_explored"] = r.states_explored;
    j["seconds"] = r.seconds;
    auto rows = nlohmann::ordered_json::array();
    for (const auto& row : r.per_length_rows) {
        nlohmann::ordered_json o;
        o["length"] = row.length;
        o["share"] = row.share;
        o["positive_share"] = row.positive_share;
        o["accuracy"] = row.accuracy ? nlohmann::ordered_json(*row.accuracy) : nlohmann::ordered_json(nullptr);
        o["optimum"] = row.optimum;
        o["optimum_upper"] = row.optimum_upper;
        rows.push_back(o);
    }
    j["per_length_rows"] = rows;
    return j.dump();
}

}  // namespace ltlkit::automata
