// A small arbitrary-precision unsigned integer (little-endian 64-bit limbs), enough for exact word
// counts: addition, subtraction, comparison, multiplication and division by a 64-bit number,
// decimal printing and parsing, and conversion to double / log2.
#pragma once

#include <compare>
#include <cstdint>
#include <string>
#include <vector>

namespace ltlkit::automata {

class BigUint {
public:
    BigUint() = default;
    BigUint(std::uint64_t v);  // NOLINT(google-explicit-constructor)

    bool is_zero() const { return limbs_.empty(); }
    // True when the value fits in 64 bits (then to_u64() is exact).
    bool fits_u64() const { return limbs_.size() <= 1; }
    std::uint64_t to_u64() const { return limbs_.empty() ? 0 : limbs_[0]; }
    // Nearest double (may be +inf above ~1.8e308).
    double to_double() const;
    // log2 of the value (-inf for zero), accurate to ~1e-15 relative for any size.
    double log2() const;
    std::size_t bit_length() const;

    BigUint& operator+=(const BigUint& o);
    // Precondition: *this >= o.
    BigUint& operator-=(const BigUint& o);
    BigUint& mul_small(std::uint64_t m);
    // Divides in place by d >= 1 and returns the remainder.
    std::uint64_t divmod_small(std::uint64_t d);

    friend BigUint operator+(BigUint a, const BigUint& b) { return a += b; }
    friend BigUint operator-(BigUint a, const BigUint& b) { return a -= b; }
    friend std::strong_ordering operator<=>(const BigUint& a, const BigUint& b);
    friend bool operator==(const BigUint& a, const BigUint& b) = default;

    std::string to_string() const;  // decimal
    // Decimal digits only; false on anything else.
    static bool from_string(const std::string& s, BigUint& out);

    const std::vector<std::uint64_t>& limbs() const { return limbs_; }

private:
    void trim();
    std::vector<std::uint64_t> limbs_;  // no leading (most significant) zero limbs
};

}  // namespace ltlkit::automata
