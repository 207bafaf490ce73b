#include "automata/algebra/semigroup.hh"

#include <algorithm>
#include <cstring>
#include <string>

#include <sys/mman.h>

namespace ltlkit::automata::algebra {

namespace {

constexpr std::uint64_t kEmpty = ~std::uint64_t(0);

inline std::uint64_t mix64(std::uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

// Hash of `bytes` bytes at p: 8-byte chunks folded by multiply–xor, then a 64-bit finalizer.
inline std::uint64_t hash_bytes(const std::uint8_t* p, std::size_t bytes) {
    std::uint64_t h = 0x9e3779b97f4a7c15ULL ^ bytes;
    std::size_t i = 0;
    for (; i + 8 <= bytes; i += 8) {
        std::uint64_t c;
        std::memcpy(&c, p + i, 8);
        h = (h ^ c) * 0x100000001b3ULL + (h >> 29);
    }
    if (i < bytes) {
        std::uint64_t c = 0;
        std::memcpy(&c, p + i, bytes - i);
        h = (h ^ c) * 0x100000001b3ULL + (h >> 29);
    }
    return mix64(h);
}

}  // namespace

namespace {

// Asks the kernel for transparent huge pages on a large buffer (fewer TLB misses on the random
// accesses of the enumeration); harmless where unsupported.
void advise_huge(const void* p, std::size_t bytes) {
#ifdef MADV_HUGEPAGE
    if (bytes < (std::size_t(4) << 20)) return;
    const std::uintptr_t lo = (reinterpret_cast<std::uintptr_t>(p) + (std::size_t(2) << 20) - 1) & ~((std::uintptr_t(2) << 20) - 1);
    const std::uintptr_t hi = (reinterpret_cast<std::uintptr_t>(p) + bytes) & ~((std::uintptr_t(2) << 20) - 1);
    if (hi > lo) madvise(reinterpret_cast<void*>(lo), hi - lo, MADV_HUGEPAGE);
#else
    (void)p, (void)bytes;
#endif
}

template <class V>
void grow(V& v, std::size_t n, typename V::value_type fill) {
    if (n > v.capacity()) {
        V w;
        w.reserve(std::max(n, v.capacity() * 2));
        advise_huge(w.data(), w.capacity() * sizeof(typename V::value_type));
        w.assign(v.begin(), v.end());
        v.swap(w);
    }
    v.resize(n, fill);
}

}  // namespace

// The enumeration, specialised on the width of an image point (uint8 for up to 256 states).
template <class T>
struct FroidurePin {
    TransitionSemigroup& s;
    const SemigroupOptions& opt;
    std::size_t n, k, bytes_per;
    bool packed;                         // images fit in 8 bytes: key table, every product hashed
    std::vector<T> gens;                 // k × n
    std::vector<Element> suffix;         // word(e) = first · word(suffix)   (unpacked mode only)
    std::vector<std::uint16_t> first;
    std::vector<std::uint64_t> reduced;  // bit e·k+a: right(e,a) was created as word(e)·a
    std::size_t mask = 0;

    FroidurePin(TransitionSemigroup& s_, const SemigroupOptions& o, std::size_t n_, std::size_t k_)
        : s(s_), opt(o), n(n_), k(k_), bytes_per(n_ * sizeof(T)), packed(n_ * sizeof(T) <= 8) {}

    T* img(Element e) { return reinterpret_cast<T*>(s.bytes_.data()) + std::size_t(e) * n; }

    std::uint64_t pack(const T* t) const {
        std::uint64_t key = 0;
        std::memcpy(&key, t, bytes_per);
        return key;
    }
    std::uint64_t hash(const T* t) const {
        return packed ? mix64(pack(t)) : hash_bytes(reinterpret_cast<const std::uint8_t*>(t), bytes_per);
    }

    bool is_reduced(Element e, std::size_t a) const {
        const std::size_t b = std::size_t(e) * k + a;
        return (reduced[b >> 6] >> (b & 63)) & 1;
    }
    void set_reduced(Element e, std::size_t a) {
        const std::size_t b = std::size_t(e) * k + a;
        if ((b >> 6) >= reduced.size()) reduced.resize(2 * (b >> 6) + 1024, 0);
        reduced[b >> 6] |= std::uint64_t(1) << (b & 63);
    }

    void rehash(std::size_t cap) {
        mask = cap - 1;
        if (packed) {
            std::vector<TransitionSemigroup::KeySlot>().swap(s.key_table_);
            s.key_table_.reserve(cap);
            advise_huge(s.key_table_.data(), cap * sizeof(TransitionSemigroup::KeySlot));
            s.key_table_.assign(cap, TransitionSemigroup::KeySlot{0, kNoElement});
        } else {
            std::vector<std::uint64_t>().swap(s.table_);
            s.table_.reserve(cap);
            advise_huge(s.table_.data(), cap * 8);
            s.table_.assign(cap, kEmpty);
        }
        constexpr std::size_t kBatch = 32;
        std::uint64_t hs[kBatch];
        for (std::size_t base = 0; base < s.size_; base += kBatch) {
            const std::size_t end = std::min<std::size_t>(s.size_, base + kBatch);
            for (std::size_t e = base; e < end; ++e) {
                hs[e - base] = hash(img(Element(e)));
                if (packed) __builtin_prefetch(&s.key_table_[hs[e - base] & mask]);
                else __builtin_prefetch(&s.table_[hs[e - base] & mask]);
            }
            for (std::size_t e = base; e < end; ++e) insert_slot(Element(e), hs[e - base]);
        }
    }
    void insert_slot(Element e, std::uint64_t h) {
        std::size_t i = h & mask;
        if (packed) {
            while (s.key_table_[i].element != kNoElement) i = (i + 1) & mask;
            s.key_table_[i] = {pack(img(e)), e};
        } else {
            while (s.table_[i] != kEmpty) i = (i + 1) & mask;
            s.table_[i] = (h & 0xffffffff00000000ULL) | e;
        }
    }
    // Index of the element with image `t`, or kNoElement; `h` = its hash.
    Element lookup(const T* t, std::uint64_t h) {
        std::size_t i = h & mask;
        if (packed) {
            const std::uint64_t key = pack(t);
            for (;; i = (i + 1) & mask) {
                const auto& slot = s.key_table_[i];
                if (slot.element == kNoElement) return kNoElement;
                if (slot.key == key) return slot.element;
            }
        }
        const std::uint64_t tag = h & 0xffffffff00000000ULL;
        for (;; i = (i + 1) & mask) {
            const std::uint64_t v = s.table_[i];
            if (v == kEmpty) return kNoElement;
            if ((v & 0xffffffff00000000ULL) == tag) {
                const Element e = Element(v & 0xffffffffULL);
                if (std::memcmp(img(e), t, bytes_per) == 0) return e;
            }
        }
    }

    Result<bool> grow_check() {
        if (s.size_ >= opt.max_elements)
            return limit_error("the semigroup has more than " + std::to_string(opt.max_elements) +
                               " elements (raise --max-elements)");
        if ((s.size_ + 1) * bytes_per > opt.max_image_bytes)
            return limit_error("the semigroup's transformations need more than " +
                               std::to_string(opt.max_image_bytes >> 20) +
                               " MiB (lower --max-elements or use a smaller DFA)");
        if (s.size_ >= UINT32_MAX - 1) return limit_error("the semigroup has more than 2^32 elements (raise --max-elements)");
        return true;
    }

    // Appends an element with image t (already known to be new); returns its index.
    Element add(const T* t, std::uint64_t h, Element prefix, std::uint16_t fin, std::uint16_t fst,
                Element suf) {
        const Element e = Element(s.size_);
        grow(s.bytes_, (s.size_ + 1) * bytes_per, 0);
        std::memcpy(img(e), t, bytes_per);
        grow(s.prefix_, s.size_ + 1, prefix);
        s.prefix_[e] = prefix;
        grow(s.final_, s.size_ + 1, fin);
        s.final_[e] = fin;
        if (!packed) {
            first.push_back(fst);
            suffix.push_back(suf);
        }
        grow(s.right_, (s.size_ + 1) * k, kNoElement);
        grow(s.left_, (s.size_ + 1) * k, kNoElement);
        ++s.size_;
        const std::size_t cap = packed ? s.key_table_.size() : s.table_.size();
        if (s.size_ * 2 > cap) rehash(cap < (std::size_t(1) << 22) ? cap * 4 : cap * 2);
        else insert_slot(e, h);
        return e;
    }

    Result<bool> run() {
        // Reserve address space for the arrays up to max_elements (pages are only touched when
        // used), so that growing never copies them.
        const std::size_t expect = std::min<std::size_t>(opt.max_elements, std::size_t(1) << 25);
        auto reserve = [&](auto& v, std::size_t count) {
            v.reserve(count);
            advise_huge(v.data(), count * sizeof(v[0]));
        };
        reserve(s.bytes_, expect * bytes_per);
        reserve(s.right_, expect * k);
        reserve(s.left_, expect * k);
        reserve(s.prefix_, expect);
        reserve(s.final_, expect);
        rehash(1024);
        reduced.assign(1024, 0);
        std::vector<T> t(n);
        std::size_t level = 0;  // length of the words processed next
        if (opt.monoid) {
            for (std::size_t q = 0; q < n; ++q) t[q] = T(q);
            add(t.data(), hash(t.data()), kNoElement, 0, 0, kNoElement);
        }
        s.len_index_.push_back(0);
        s.len_index_.push_back(s.size_);  // length 0: [0, size)
        s.letter_to_pos_.assign(k, kNoElement);
        for (std::size_t a = 0; a < k; ++a) {
            const T* g = gens.data() + a * n;
            const std::uint64_t h = hash(g);
            Element e = lookup(g, h);
            if (e == kNoElement) {
                auto ok = grow_check();
                if (!ok) return ok.error();
                e = add(g, h, kNoElement, std::uint16_t(a), std::uint16_t(a), kNoElement);
            }
            s.letter_to_pos_[a] = e;
        }
        s.len_index_.push_back(s.size_);  // length 1
        if (opt.monoid) {
            for (std::size_t a = 0; a < k; ++a) s.right_[a] = s.left_[a] = s.letter_to_pos_[a];
        }
        level = 1;
        while (s.len_index_[level] < s.len_index_[level + 1]) {
            const std::size_t lo = s.len_index_[level], hi = s.len_index_[level + 1];
            if (packed) {
                // Every product is hashed; the table look-ups of a batch of elements are prefetched
                // first so that their cache misses overlap (memory-level parallelism).
                constexpr std::size_t kBatch = 32;
                std::vector<std::uint64_t> keys(kBatch * k), hashes(kBatch * k);
                for (std::size_t base = lo; base < hi; base += kBatch) {
                    const std::size_t end = std::min(hi, base + kBatch);
                    for (std::size_t pos = base; pos < end; ++pos) {
                        const T* ui = img(Element(pos));
                        for (std::size_t a = 0; a < k; ++a) {
                            const T* g = gens.data() + a * n;
                            for (std::size_t q = 0; q < n; ++q) t[q] = g[ui[q]];
                            const std::uint64_t key = pack(t.data()), h = mix64(key);
                            keys[(pos - base) * k + a] = key;
                            hashes[(pos - base) * k + a] = h;
                            __builtin_prefetch(&s.key_table_[h & mask]);
                        }
                    }
                    for (std::size_t pos = base; pos < end; ++pos) {
                        const Element u = Element(pos);
                        for (std::size_t a = 0; a < k; ++a) {
                            const std::uint64_t key = keys[(pos - base) * k + a], h = hashes[(pos - base) * k + a];
                            ++s.products_computed_;
                            Element v = kNoElement;
                            for (std::size_t i = h & mask;; i = (i + 1) & mask) {
                                const auto& slot = s.key_table_[i];
                                if (slot.element == kNoElement) break;
                                if (slot.key == key) {
                                    v = slot.element;
                                    break;
                                }
                            }
                            if (v == kNoElement) {
                                auto ok = grow_check();
                                if (!ok) return ok.error();
                                std::memcpy(t.data(), &key, bytes_per);
                                v = add(t.data(), h, u, std::uint16_t(a), 0, kNoElement);
                            }
                            s.right_[std::size_t(u) * k + a] = v;
                        }
                    }
                }
            }
            for (std::size_t pos = lo; pos < hi && !packed; ++pos) {
                const Element u = Element(pos);
                const Element sfx = suffix[u];
                const std::uint16_t b = first[u];
                for (std::size_t a = 0; a < k; ++a) {
                    if (level >= 2 && !is_reduced(sfx, a)) {
                        // u·a = b·(sfx·a) = b·r, and r = prefix(r)·final(r) is shorter (Froidure–Pin).
                        const Element r = s.right_[std::size_t(sfx) * k + a];
                        Element v;
                        if (opt.monoid && r == 0) {
                            v = s.letter_to_pos_[b];
                        } else if (s.prefix_[r] == kNoElement) {
                            v = s.right_[std::size_t(s.letter_to_pos_[b]) * k + s.final_[r]];
                        } else {
                            const Element bl = s.left_[std::size_t(s.prefix_[r]) * k + b];
                            v = s.right_[std::size_t(bl) * k + s.final_[r]];
                        }
                        s.right_[std::size_t(u) * k + a] = v;
                        continue;
                    }
                    // A reduced word: compute the transformation and look it up.
                    const T* ui = img(u);
                    const T* g = gens.data() + a * n;
                    for (std::size_t q = 0; q < n; ++q) t[q] = g[ui[q]];
                    ++s.products_computed_;
                    const std::uint64_t h = hash(t.data());
                    Element v = lookup(t.data(), h);
                    if (v == kNoElement) {
                        auto ok = grow_check();
                        if (!ok) return ok.error();
                        const Element suf = level == 1 ? s.letter_to_pos_[a] : s.right_[std::size_t(sfx) * k + a];
                        v = add(t.data(), h, u, std::uint16_t(a), b, suf);
                        set_reduced(u, a);
                    }
                    s.right_[std::size_t(u) * k + a] = v;
                }
            }
            s.len_index_.push_back(s.size_);
            // Left edges of the words of this length: a·u = (a·prefix(u))·final(u); the random
            // reads of the right graph are prefetched a batch ahead.
            {
                constexpr std::size_t kBatch = 64;
                std::vector<std::size_t> at(kBatch * k);
                for (std::size_t base = lo; base < hi; base += kBatch) {
                    const std::size_t end = std::min(hi, base + kBatch);
                    for (std::size_t pos = base; pos < end; ++pos) {
                        for (std::size_t a = 0; a < k; ++a) {
                            const Element x = level == 1 ? s.letter_to_pos_[a] : s.left_[std::size_t(s.prefix_[pos]) * k + a];
                            const std::size_t i = std::size_t(x) * k + s.final_[pos];
                            at[(pos - base) * k + a] = i;
                            __builtin_prefetch(&s.right_[i]);
                        }
                    }
                    for (std::size_t pos = base; pos < end; ++pos)
                        for (std::size_t a = 0; a < k; ++a) s.left_[pos * k + a] = s.right_[at[(pos - base) * k + a]];
                }
            }
            ++level;
        }
        s.len_index_.pop_back();  // the last (empty) level
        return true;
    }
};

namespace {

template <class T>
Result<TransitionSemigroup> enumerate(std::size_t degree, const std::vector<std::vector<State>>& generators,
                                      const SemigroupOptions& options) {
    TransitionSemigroup s;
    FroidurePin<T> fp(s, options, degree, generators.size());
    fp.gens.resize(degree * generators.size());
    for (std::size_t a = 0; a < generators.size(); ++a)
        for (std::size_t q = 0; q < degree; ++q) fp.gens[a * degree + q] = T(generators[a][q]);
    auto r = fp.run();
    if (!r) return r.error();
    return s;
}

}  // namespace

Result<TransitionSemigroup> TransitionSemigroup::of_generators(std::size_t degree,
                                                               const std::vector<std::vector<State>>& generators,
                                                               const SemigroupOptions& options) {
    if (degree == 0) return make_error("a semigroup of transformations needs at least one point");
    if (generators.size() > 65535) return make_error("more than 65535 generators");
    for (const auto& g : generators) {
        if (g.size() != degree) return make_error("a generator has the wrong degree");
        for (State q : g)
            if (q >= degree) return make_error("a generator maps a point outside 0.." + std::to_string(degree - 1));
    }
    Result<TransitionSemigroup> r = make_error("");
    if (degree <= 256) r = enumerate<std::uint8_t>(degree, generators, options);
    else if (degree <= 65536) r = enumerate<std::uint16_t>(degree, generators, options);
    else r = enumerate<std::uint32_t>(degree, generators, options);
    if (!r) return r;
    TransitionSemigroup& s = r.value();
    s.degree_ = degree;
    s.num_gens_ = generators.size();
    s.monoid_ = options.monoid;
    s.width_ = degree <= 256 ? 1 : degree <= 65536 ? 2 : 4;
    return r;
}

Result<TransitionSemigroup> TransitionSemigroup::of_dfa(const Dfa& d, const SemigroupOptions& options) {
    std::vector<std::vector<State>> gens(d.num_symbols(), std::vector<State>(d.num_states()));
    for (std::size_t a = 0; a < d.num_symbols(); ++a)
        for (std::size_t q = 0; q < d.num_states(); ++q) gens[a][q] = d.next(State(q), Symbol(a));
    return of_generators(d.num_states(), gens, options);
}

std::vector<State> TransitionSemigroup::transformation(Element e) const {
    std::vector<State> t(degree_);
    for (std::size_t q = 0; q < degree_; ++q) t[q] = image(e, State(q));
    return t;
}

Word TransitionSemigroup::word(Element e) const {
    Word w;
    if (monoid_ && e == 0) return w;
    while (e != kNoElement) {
        w.push_back(final_[e]);
        e = prefix_[e];
    }
    std::reverse(w.begin(), w.end());
    return w;
}

std::size_t TransitionSemigroup::length(Element e) const {
    auto it = std::upper_bound(len_index_.begin(), len_index_.end(), std::size_t(e));
    return std::size_t(it - len_index_.begin()) - 1;
}

Element TransitionSemigroup::of_word(const Word& w) const {
    if (w.empty()) return monoid_ ? 0 : kNoElement;
    Element e = letter_to_pos_[w[0]];
    for (std::size_t i = 1; i < w.size(); ++i) e = right(e, w[i]);
    return e;
}

Element TransitionSemigroup::product(Element s, Element t) const {
    if (monoid_ && t == 0) return s;
    if (monoid_ && s == 0) return t;
    // Walk t's word from its first letter: collect letters via the prefix chain.
    Symbol buf[64];
    std::size_t len = 0;
    Word heap;
    for (Element e = t; e != kNoElement; e = prefix_[e]) {
        if (len < 64) buf[len++] = final_[e];
        else {
            if (heap.empty()) heap.assign(buf, buf + 64);
            heap.push_back(final_[e]);
        }
    }
    if (heap.empty()) {
        for (std::size_t i = len; i-- > 0;) s = right(s, buf[i]);
    } else {
        for (std::size_t i = heap.size(); i-- > 0;) s = right(s, heap[i]);
    }
    return s;
}

std::optional<Element> TransitionSemigroup::find(const std::vector<State>& t) const {
    if (t.size() != degree_ || (table_.empty() && key_table_.empty())) return std::nullopt;
    std::vector<std::uint8_t> buf(degree_ * width_);
    for (std::size_t q = 0; q < degree_; ++q) {
        if (width_ == 1) buf[q] = std::uint8_t(t[q]);
        else if (width_ == 2) {
            std::uint16_t v = std::uint16_t(t[q]);
            std::memcpy(buf.data() + 2 * q, &v, 2);
        } else {
            std::uint32_t v = t[q];
            std::memcpy(buf.data() + 4 * q, &v, 4);
        }
    }
    if (!key_table_.empty()) {
        std::uint64_t key = 0;
        std::memcpy(&key, buf.data(), buf.size());
        const std::size_t mask = key_table_.size() - 1;
        for (std::size_t i = mix64(key) & mask;; i = (i + 1) & mask) {
            if (key_table_[i].element == kNoElement) return std::nullopt;
            if (key_table_[i].key == key) return key_table_[i].element;
        }
    }
    const std::uint64_t h = hash_bytes(buf.data(), buf.size());
    const std::size_t mask = table_.size() - 1;
    const std::uint64_t tag = h & 0xffffffff00000000ULL;
    for (std::size_t i = h & mask;; i = (i + 1) & mask) {
        const std::uint64_t v = table_[i];
        if (v == kEmpty) return std::nullopt;
        if ((v & 0xffffffff00000000ULL) == tag) {
            const Element e = Element(v & 0xffffffffULL);
            if (std::memcmp(bytes_.data() + std::size_t(e) * buf.size(), buf.data(), buf.size()) == 0) return e;
        }
    }
}

std::uint64_t TransitionSemigroup::hash_of(Element e) const {
    return hash_bytes(bytes_.data() + std::size_t(e) * degree_ * width_, degree_ * width_);
}

std::vector<Element> TransitionSemigroup::idempotents() const {
    std::vector<Element> out;
    for (Element e = 0; e < size_; ++e)
        if (is_idempotent(e)) out.push_back(e);
    return out;
}

Element TransitionSemigroup::omega(Element e) const {
    // Powers e, e^2, ... until an idempotent appears (at most |S| steps; in practice ≤ degree).
    Element p = e;
    for (std::size_t i = 0; i <= size_; ++i) {
        if (is_idempotent(p)) return p;
        p = product(p, e);
    }
    return p;
}

std::optional<Element> TransitionSemigroup::identity() const {
    if (monoid_) return Element(0);
    std::vector<State> id(degree_);
    for (std::size_t q = 0; q < degree_; ++q) id[q] = State(q);
    return find(id);
}

std::size_t TransitionSemigroup::memory_bytes() const {
    return bytes_.capacity() + (right_.capacity() + left_.capacity() + prefix_.capacity()) * sizeof(Element) +
           final_.capacity() * 2 + table_.capacity() * 8 + key_table_.capacity() * sizeof(KeySlot) + len_index_.capacity() * sizeof(std::size_t);
}

}  // namespace ltlkit::automata::algebra
