// Reproducible randomness: std::mt19937_64 (whose output sequence the standard fixes) with our own
// mappings to ranges, reals and shuffles, so that a seed gives the same bytes with any compiler or
// standard library (std::uniform_int_distribution and std::shuffle do not).
#pragma once

#include <cstdint>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ltlkit::automata {

class Rng {
public:
    explicit Rng(std::uint64_t seed = 1) : engine_(seed) {}

    std::uint64_t next() { return engine_(); }

    // Uniform in [0, n), n >= 1: rejection on the top of the 64-bit range (no modulo bias).
    std::uint64_t below(std::uint64_t n) {
        const std::uint64_t limit = UINT64_MAX - (UINT64_MAX % n + 1) % n;  // largest multiple of n, minus 1
        std::uint64_t x;
        do {
            x = engine_();
        } while (x > limit);
        return x % n;
    }

    // Uniform in [0, 1) with 53 random bits.
    double uniform() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }

    // Fisher–Yates with below().
    template <class T>
    void shuffle(std::vector<T>& v) {
        for (std::size_t i = v.size(); i > 1; --i) {
            std::size_t j = static_cast<std::size_t>(below(i));
            std::swap(v[i - 1], v[j]);
        }
    }

    // The engine's full state as text (operator<< of the standard engine) and back.
    std::string save() const {
        std::ostringstream os;
        os << engine_;
        return os.str();
    }
    bool restore(const std::string& s) {
        std::istringstream is(s);
        std::mt19937_64 e;
        if (!(is >> e)) return false;
        engine_ = e;
        return true;
    }

private:
    std::mt19937_64 engine_;
};

// SplitMix64 finalizer (Steele, Lea & Flood 2014): a good 64-bit mixing function.
inline std::uint64_t splitmix64(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

// A seed derived from named parts (language, architecture, seed index, learning rate, ...), so
// that shards and reruns agree (docs/PROTOCOL.md, "Training"). FNV-1a over the parts, then SplitMix64.
inline std::uint64_t derive_seed(const std::vector<std::string>& parts) {
    std::uint64_t h = 0xcbf29ce484222325ULL;
    for (const auto& p : parts) {
        for (unsigned char c : p) {
            h ^= c;
            h *= 0x100000001b3ULL;
        }
        h ^= 0xff;  // part separator
        h *= 0x100000001b3ULL;
    }
    return splitmix64(h);
}

}  // namespace ltlkit::automata
