// The one place where class names are written (class_id.hh).
#include "automata/class_id.hh"

#include <algorithm>
#include <array>
#include <ostream>
#include <utility>

namespace ltlkit::automata {

namespace {

struct KindName {
    ClassKind kind;
    const char* name;
    ClassFamily family;
};

constexpr std::array<KindName, 21> kNames{{
    {ClassKind::Definite, "definite", ClassFamily::Table},
    {ClassKind::RTrivial, "r_trivial", ClassFamily::Table},
    {ClassKind::LocallyRTrivial, "locally_r_trivial", ClassFamily::Table},
    {ClassKind::LocallyTestable, "locally_testable", ClassFamily::Table},
    {ClassKind::PiecewiseTestable, "piecewise_testable", ClassFamily::Table},
    {ClassKind::StarFree, "star_free", ClassFamily::Table},
    {ClassKind::ReverseDefinite, "reverse_definite", ClassFamily::Table},
    {ClassKind::GeneralizedDefinite, "generalized_definite", ClassFamily::Table},
    {ClassKind::LTrivial, "l_trivial", ClassFamily::Table},
    {ClassKind::Finite, "finite", ClassFamily::Subregular},
    {ClassKind::Cofinite, "cofinite", ClassFamily::Subregular},
    {ClassKind::SL, "SL", ClassFamily::Subregular},
    {ClassKind::SP, "SP", ClassFamily::Subregular},
    {ClassKind::LT, "LT", ClassFamily::Subregular},
    {ClassKind::PT, "PT", ClassFamily::Subregular},
    {ClassKind::LTT, "LTT", ClassFamily::Subregular},
    {ClassKind::TSL, "TSL", ClassFamily::Subregular},
    {ClassKind::DA, "DA", ClassFamily::Subregular},
    {ClassKind::AperiodicCommutative, "aperiodic_commutative", ClassFamily::Subregular},
    {ClassKind::LocalK, "local_k", ClassFamily::Window},
    {ClassKind::HybridK, "hybrid_k", ClassFamily::Window},
}};

const KindName& entry(ClassKind kind) { return kNames[std::size_t(kind)]; }

}  // namespace

ClassFamily ClassId::family() const { return entry(kind).family; }

const char* class_name(ClassKind kind) { return entry(kind).name; }

std::string to_string(const ClassId& id) {
    std::string s = class_name(id.kind);
    if (id.is_window()) s += ":" + std::to_string(id.k);
    return s;
}

std::ostream& operator<<(std::ostream& os, const ClassId& id) { return os << to_string(id); }

std::optional<ClassKind> window_stem_of(std::string_view text) {
    for (ClassKind w : {ClassKind::LocalK, ClassKind::HybridK}) {
        const std::string stem = std::string(class_name(w)) + ":";
        if (text.substr(0, stem.size()) == stem) return w;
    }
    return std::nullopt;
}

std::optional<ClassId> parse_class_id(std::string_view text, std::size_t max_window_digits) {
    if (auto w = window_stem_of(text)) {
        const std::string_view num = text.substr(std::string_view(class_name(*w)).size() + 1);
        if (num.empty() || num.size() > max_window_digits ||
            !std::all_of(num.begin(), num.end(), [](char c) { return c >= '0' && c <= '9'; }))
            return std::nullopt;
        return ClassId::window(*w == ClassKind::HybridK, unsigned(std::stoul(std::string(num))));
    }
    for (const auto& e : kNames)
        if (e.family != ClassFamily::Window && text == e.name) return ClassId(e.kind);
    return std::nullopt;
}

std::vector<ClassKind> class_kinds(ClassFamily family) {
    std::vector<ClassKind> out;
    for (const auto& e : kNames)
        if (e.family == family) out.push_back(e.kind);
    return out;
}

}  // namespace ltlkit::automata
