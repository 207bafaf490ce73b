// The transition semigroup (or monoid) of a complete DFA, enumerated by the Froidure–Pin
// algorithm over hashed transformations, with a shortest (shortlex) representative word per
// element and the right and left Cayley graphs. For a minimal DFA this is the syntactic semigroup
// of its language (non-empty words); with `monoid` the identity (the empty word) is element 0.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "automata/dfa.hh"
#include "base/error.hh"

namespace ltlkit::automata::algebra {

using Element = std::uint32_t;
inline constexpr Element kNoElement = UINT32_MAX;

struct SemigroupOptions {
    std::size_t max_elements = 1'000'000;  // --max-elements: a larger semigroup is a limit_error
    bool monoid = false;                   // adjoin the identity as element 0 (empty word)
    // Memory guard: elements × states × image width above this is a limit_error too.
    std::size_t max_image_bytes = std::size_t(6) << 30;
};

// Invariants: elements are numbered in shortlex order of their representative words (so by
// length, then lexicographically by symbol index); word(e) is the shortlex-least word whose
// transformation is e; right(e, a) = e·a and left(e, a) = a·e; image(e, q) = q·word(e).
class TransitionSemigroup {
public:
    TransitionSemigroup() = default;

    // Froidure & Pin, "Algorithms for computing finite semigroups" (1997): enumeration in
    // shortlex order that computes a product and a hash lookup only for reduced words u·a, and
    // obtains the other right edges and all left edges from the Cayley graphs. O(|S|·|Σ|) lookups.
    static Result<TransitionSemigroup> of_dfa(const Dfa& d, const SemigroupOptions& options = {});
    // Same over explicit generators: generators[a][q] = image of q under generator a (all of one
    // degree n). Used for the full transformation monoids T_n in benchmarks and tests.
    static Result<TransitionSemigroup> of_generators(std::size_t degree,
                                                     const std::vector<std::vector<State>>& generators,
                                                     const SemigroupOptions& options = {});

    std::size_t size() const { return size_; }
    std::size_t degree() const { return degree_; }
    std::size_t num_generators() const { return num_gens_; }
    bool is_monoid() const { return monoid_; }  // element 0 is the adjoined / found identity

    State image(Element e, State q) const {
        const std::size_t i = std::size_t(e) * degree_ + q;
        switch (width_) {
            case 1: return bytes_[i];
            case 2: return reinterpret_cast<const std::uint16_t*>(bytes_.data())[i];
            default: return reinterpret_cast<const std::uint32_t*>(bytes_.data())[i];
        }
    }
    std::vector<State> transformation(Element e) const;

    Element right(Element e, Symbol a) const { return right_[std::size_t(e) * num_gens_ + a]; }
    Element left(Element e, Symbol a) const { return left_[std::size_t(e) * num_gens_ + a]; }
    // The element of generator a (several letters may act alike).
    Element generator(Symbol a) const { return letter_to_pos_[a]; }

    Word word(Element e) const;         // shortest (shortlex-least) representative
    std::size_t length(Element e) const;  // |word(e)|
    // The element a (possibly empty, in a monoid) word acts as; kNoElement for the empty word of
    // a semigroup without identity.
    Element of_word(const Word& w) const;
    Element product(Element s, Element t) const;  // s·t, following t's word in the right graph
    // The element with this transformation, if any.
    std::optional<Element> find(const std::vector<State>& transformation) const;

    bool is_idempotent(Element e) const { return product(e, e) == e; }
    std::vector<Element> idempotents() const;
    // The unique idempotent power of e (s^ω).
    Element omega(Element e) const;
    // The identity transformation as an element (element 0 in a monoid), if present.
    std::optional<Element> identity() const;

    // Number of (u, a) whose product had to be computed and hashed (reduced words); for benchmarks.
    std::size_t products_computed() const { return products_computed_; }
    std::size_t memory_bytes() const;

private:
    template <class T>
    friend struct FroidurePin;

    std::size_t degree_ = 0, num_gens_ = 0, size_ = 0;
    bool monoid_ = false;
    unsigned width_ = 1;                 // bytes per image point: 1, 2 or 4
    std::vector<std::uint8_t> bytes_;    // images, size_ × degree_ points of width_ bytes
    std::vector<Element> right_, left_;  // size_ × num_gens_
    std::vector<Element> prefix_;        // word(e) = word(prefix) · final; kNoElement for length <= 1
    std::vector<std::uint16_t> final_;   // last letter (unused for the identity)
    std::vector<std::size_t> len_index_;  // elements of length L are [len_index_[L], len_index_[L+1])
    std::vector<Element> letter_to_pos_;
    std::vector<std::uint64_t> table_;    // open addressing: (hash >> 32) << 32 | element; ~0 = empty
    // When an image fits in 8 bytes the table holds the packed image itself (one cache miss per
    // lookup instead of two).
    struct KeySlot {
        std::uint64_t key;
        Element element;  // kNoElement = empty
    };
    std::vector<KeySlot> key_table_;
    std::size_t products_computed_ = 0;
    std::uint64_t hash_of(Element e) const;
};

}  // namespace ltlkit::automata::algebra
