// The syntactic fragment of a formula (docs/CLASSES.md §1).
#pragma once

#include <string>

#include "ltl/formula.hh"

namespace ltlkit::ltl {

enum class FragmentKind { None, P, Y, YLeqK, PY, PYLeqK, S };

struct Fragment {
    FragmentKind kind = FragmentKind::None;
    unsigned k = 1;  // the window for YLeqK / PYLeqK (k >= 2); 1 otherwise

    // ASCII name as in JSON: "none", "LTL[P]", "LTL[Y]", "LTL[Y<=2]", "LTL[P,Y]", "LTL[P,Y<=3]", "LTL[S]".
    std::string name() const;
    bool has_past() const;  // P (or H) allowed
    bool has_since() const;
    friend bool operator==(const Fragment&, const Fragment&) = default;
};

// The smallest fragment containing the operators of f (H counts as P, Y<=1 as Y; mixing windows
// lands in LTL[Y] / LTL[P,Y]).
Fragment fragment_of(Formula f);

}  // namespace ltlkit::ltl
