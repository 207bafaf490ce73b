// Green's relations R, L, J (= D, the semigroup being finite) and H of a transition semigroup,
// and the egg-box picture of its D-classes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "automata/algebra/semigroup.hh"

namespace ltlkit::automata::algebra {

// Class numbers per element (dense from 0). r = SCCs of the right Cayley graph (s R t iff
// sS¹ = tS¹), l = SCCs of the left one, j = SCCs of their union (J = D in a finite semigroup),
// h = pairs (r, l).
struct GreenClasses {
    std::vector<std::uint32_t> r, l, j, h;
    std::size_t num_r = 0, num_l = 0, num_j = 0, num_h = 0;

    bool r_trivial(std::size_t size) const { return num_r == size; }
    bool l_trivial(std::size_t size) const { return num_l == size; }
    bool j_trivial(std::size_t size) const { return num_j == size; }
    bool h_trivial(std::size_t size) const { return num_h == size; }  // = aperiodic
};

// Tarjan's SCCs (Boost.Graph strong_components) on the Cayley graphs, O(|S|·|Σ|).
GreenClasses green_classes(const TransitionSemigroup& s);

// The J-class with no J-class strictly below it: the minimal ideal (kernel) of S.
std::uint32_t minimal_ideal(const TransitionSemigroup& s, const GreenClasses& g);

// Egg-box diagrams: one box per D-class (rows = R-classes, columns = L-classes, cells = H-classes
// listing their elements by shortest word, idempotents marked *), D-classes in element order.
std::string egg_box(const TransitionSemigroup& s, const GreenClasses& g,
                    const std::vector<std::string>& alphabet);

// The shortest word of an element as text ("1" for the empty word).
std::string element_name(const TransitionSemigroup& s, Element e, const std::vector<std::string>& alphabet);

}  // namespace ltlkit::automata::algebra
