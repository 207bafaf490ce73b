// Interning of integer sequences as dense ids (0, 1, ... in order of first sight). All sequences live
// in one pool with an open-addressing index over the ids, so that millions of product states or
// types cost no allocation each and are freed at once, and the memory a search holds (which the
// window budget charges, budget.hh) is the sequences themselves plus about two index slots each.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace ltlkit::automata::algebra {

template <class T>
class FlatInterner {
public:
    // The id of the sequence s[0..n), and whether it was new.
    std::pair<std::int32_t, bool> intern(const T* s, std::size_t n) {
        if (2 * (start_.size() + 1) > slots_.size()) grow();
        std::size_t i = hash(s, n) & (slots_.size() - 1);
        for (;; i = (i + 1) & (slots_.size() - 1)) {
            const std::int32_t id = slots_[i];
            if (id < 0) break;
            const auto [p, m] = get(id);
            if (m == n && std::equal(s, s + n, p)) return {id, false};
        }
        const auto id = static_cast<std::int32_t>(start_.size());
        start_.push_back(pool_.size());
        pool_.insert(pool_.end(), s, s + n);
        slots_[i] = id;
        return {id, true};
    }
    std::pair<std::int32_t, bool> intern(const std::vector<T>& v) { return intern(v.data(), v.size()); }
    // The id alone.
    std::int32_t operator()(const T* s, std::size_t n) { return intern(s, n).first; }
    std::int32_t operator()(const std::vector<T>& v) { return intern(v.data(), v.size()).first; }
    // The id of s[0..n), or -1 where it was never interned.
    std::int32_t find(const T* s, std::size_t n) const {
        if (slots_.empty()) return -1;
        for (std::size_t i = hash(s, n) & (slots_.size() - 1);; i = (i + 1) & (slots_.size() - 1)) {
            const std::int32_t id = slots_[i];
            if (id < 0) return -1;
            const auto [p, m] = get(id);
            if (m == n && std::equal(s, s + n, p)) return id;
        }
    }
    std::size_t size() const { return start_.size(); }
    // The bytes one more sequence of n elements adds: itself, its start and about two index slots
    // (16 bytes), and the bytes held by all of them (for the window budget, budget.hh).
    static constexpr std::size_t bytes_of(std::size_t n) { return n * sizeof(T) + 16; }
    std::size_t bytes() const { return sizeof(T) * pool_.size() + 16 * start_.size(); }
    // The sequence of id: (first element, length).
    std::pair<const T*, std::size_t> get(std::int32_t id) const {
        const auto i = static_cast<std::size_t>(id);
        const std::size_t end = i + 1 < start_.size() ? start_[i + 1] : pool_.size();
        return {pool_.data() + start_[i], end - start_[i]};
    }
    // A copy of the sequence of id into out (resized).
    void copy(std::int32_t id, std::vector<T>& out) const {
        const auto [p, n] = get(id);
        out.assign(p, p + n);
    }

private:
    static std::uint64_t hash(const T* s, std::size_t n) {
        std::uint64_t h = 0x9e3779b97f4a7c15ULL ^ n;
        for (std::size_t i = 0; i < n; ++i) {
            h ^= static_cast<std::uint64_t>(s[i]) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
            h *= 0xff51afd7ed558ccdULL;
        }
        return h ^ (h >> 33);
    }
    void grow() {
        slots_.assign(std::max<std::size_t>(1024, slots_.size() * 2), -1);
        for (std::size_t id = 0; id < start_.size(); ++id) {
            const auto [p, n] = get(static_cast<std::int32_t>(id));
            std::size_t i = hash(p, n) & (slots_.size() - 1);
            while (slots_[i] >= 0) i = (i + 1) & (slots_.size() - 1);
            slots_[i] = static_cast<std::int32_t>(id);
        }
    }
    std::vector<T> pool_;
    std::vector<std::size_t> start_;
    std::vector<std::int32_t> slots_;  // ids, -1 = empty; a power of two, at most half full
};

}  // namespace ltlkit::automata::algebra
