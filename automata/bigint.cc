#include "automata/bigint.hh"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ltlkit::automata {

BigUint::BigUint(std::uint64_t v) {
    if (v != 0) limbs_.push_back(v);
}

void BigUint::trim() {
    while (!limbs_.empty() && limbs_.back() == 0) limbs_.pop_back();
}

std::size_t BigUint::bit_length() const {
    if (limbs_.empty()) return 0;
    return 64 * (limbs_.size() - 1) + (64 - static_cast<std::size_t>(__builtin_clzll(limbs_.back())));
}

double BigUint::to_double() const {
    double r = 0;
    for (std::size_t i = limbs_.size(); i-- > 0;) r = r * 0x1.0p64 + static_cast<double>(limbs_[i]);
    return r;
}

double BigUint::log2() const {
    if (limbs_.empty()) return -std::numeric_limits<double>::infinity();
    // The top two limbs carry >= 64 significant bits, more than a double keeps.
    std::size_t n = limbs_.size();
    double top = static_cast<double>(limbs_[n - 1]);
    double shift = 64.0 * static_cast<double>(n - 1);
    if (n >= 2) {
        top = top * 0x1.0p64 + static_cast<double>(limbs_[n - 2]);
        shift -= 64.0;
    }
    return std::log2(top) + shift;
}

BigUint& BigUint::operator+=(const BigUint& o) {
    if (limbs_.size() < o.limbs_.size()) limbs_.resize(o.limbs_.size(), 0);
    unsigned __int128 carry = 0;
    for (std::size_t i = 0; i < limbs_.size(); ++i) {
        unsigned __int128 s = carry + limbs_[i] + (i < o.limbs_.size() ? o.limbs_[i] : 0);
        limbs_[i] = static_cast<std::uint64_t>(s);
        carry = s >> 64;
        if (carry == 0 && i >= o.limbs_.size()) break;
    }
    if (carry) limbs_.push_back(static_cast<std::uint64_t>(carry));
    return *this;
}

BigUint& BigUint::operator-=(const BigUint& o) {
    std::uint64_t borrow = 0;
    for (std::size_t i = 0; i < limbs_.size(); ++i) {
        std::uint64_t b = (i < o.limbs_.size() ? o.limbs_[i] : 0);
        if (b == 0 && borrow == 0 && i >= o.limbs_.size()) break;
        std::uint64_t a = limbs_[i];
        std::uint64_t t = a - b;
        bool under = a < b;
        limbs_[i] = t - borrow;
        borrow = (under || t < borrow) ? 1 : 0;
    }
    trim();
    return *this;
}

BigUint& BigUint::mul_small(std::uint64_t m) {
    if (m == 0) {
        limbs_.clear();
        return *this;
    }
    unsigned __int128 carry = 0;
    for (auto& l : limbs_) {
        unsigned __int128 p = static_cast<unsigned __int128>(l) * m + carry;
        l = static_cast<std::uint64_t>(p);
        carry = p >> 64;
    }
    if (carry) limbs_.push_back(static_cast<std::uint64_t>(carry));
    return *this;
}

std::uint64_t BigUint::divmod_small(std::uint64_t d) {
    unsigned __int128 rem = 0;
    for (std::size_t i = limbs_.size(); i-- > 0;) {
        unsigned __int128 cur = (rem << 64) | limbs_[i];
        limbs_[i] = static_cast<std::uint64_t>(cur / d);
        rem = cur % d;
    }
    trim();
    return static_cast<std::uint64_t>(rem);
}

std::strong_ordering operator<=>(const BigUint& a, const BigUint& b) {
    if (a.limbs_.size() != b.limbs_.size()) return a.limbs_.size() <=> b.limbs_.size();
    for (std::size_t i = a.limbs_.size(); i-- > 0;)
        if (a.limbs_[i] != b.limbs_[i]) return a.limbs_[i] <=> b.limbs_[i];
    return std::strong_ordering::equal;
}

std::string BigUint::to_string() const {
    if (limbs_.empty()) return "0";
    constexpr std::uint64_t kChunk = 10'000'000'000'000'000'000ULL;  // 10^19
    BigUint v = *this;
    std::vector<std::uint64_t> chunks;
    while (!v.is_zero()) chunks.push_back(v.divmod_small(kChunk));
    std::string out = std::to_string(chunks.back());
    for (std::size_t i = chunks.size() - 1; i-- > 0;) {
        std::string part = std::to_string(chunks[i]);
        out.append(19 - part.size(), '0');
        out += part;
    }
    return out;
}

bool BigUint::from_string(const std::string& s, BigUint& out) {
    if (s.empty()) return false;
    BigUint v;
    for (char c : s) {
        if (c < '0' || c > '9') return false;
        v.mul_small(10);
        v += BigUint(static_cast<std::uint64_t>(c - '0'));
    }
    out = std::move(v);
    return true;
}

}  // namespace ltlkit::automata
