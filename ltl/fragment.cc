// The syntactic fragment of docs/CLASSES.md §1: the smallest of LTL[P], LTL[Y], LTL[Y<=k], LTL[P,Y],
// LTL[P,Y<=k], LTL[S] containing the operators used.
#include "ltl/fragment.hh"

#include <set>

namespace ltlkit::ltl {

std::string Fragment::name() const {
    switch (kind) {
        case FragmentKind::None: return "none";
        case FragmentKind::P: return "LTL[P]";
        case FragmentKind::Y: return "LTL[Y]";
        case FragmentKind::YLeqK: return "LTL[Y<=" + std::to_string(k) + "]";
        case FragmentKind::PY: return "LTL[P,Y]";
        case FragmentKind::PYLeqK: return "LTL[P,Y<=" + std::to_string(k) + "]";
        case FragmentKind::S: return "LTL[S]";
    }
    return "none";
}

bool Fragment::has_past() const {
    return kind == FragmentKind::P || kind == FragmentKind::PY || kind == FragmentKind::PYLeqK ||
           kind == FragmentKind::S;
}

bool Fragment::has_since() const { return kind == FragmentKind::S; }

Fragment fragment_of(Formula f) {
    bool past = false, since = false;
    std::set<unsigned> windows;  // 1 stands for Y (and Y<=1)
    for (Formula g : subformulas_postorder(f)) {
        switch (g.op()) {
            case Op::Since: since = true; break;
            case Op::Past: case Op::Historically: past = true; break;
            case Op::Yesterday: windows.insert(1); break;
            case Op::BoundedYesterday: windows.insert(g.k()); break;
            default: break;
        }
    }
    Fragment fr;
    if (since) {
        fr.kind = FragmentKind::S;
        return fr;
    }
    // One window k >= 2 alone gives Y<=k; Y alone or mixed windows give Y (LTL[Y<=j] and
    // LTL[Y<=k] are incomparable, both inside LTL[Y]).
    const bool bounded = windows.size() == 1 && *windows.begin() >= 2;
    if (bounded) fr.k = *windows.begin();
    if (windows.empty())
        fr.kind = past ? FragmentKind::P : FragmentKind::None;
    else if (past)
        fr.kind = bounded ? FragmentKind::PYLeqK : FragmentKind::PY;
    else
        fr.kind = bounded ? FragmentKind::YLeqK : FragmentKind::Y;
    return fr;
}

}  // namespace ltlkit::ltl
