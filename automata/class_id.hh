// Class ids as values (docs/CLASSES.md §1–2, docs/SUBREGULAR.md, docs/WINDOWS.md): one enumerator
// per class, a window class with its k. Every name is written once, in class_id.cc, and read or
// written only by to_string / parse_class_id (JSON, the CLI, Python). What a class *is* (its
// decision, logic, architecture, inclusions, refuting identities) is its row in
// automata/algebra/classes.hh; this header is only the vocabulary, shared with certificates.
#pragma once

#include <compare>
#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ltlkit::automata {

enum class ClassKind : std::uint8_t {
    // The class table (automata/algebra/classes.hh), in its row order.
    Definite,
    RTrivial,
    LocallyRTrivial,
    LocallyTestable,
    PiecewiseTestable,
    StarFree,
    ReverseDefinite,
    GeneralizedDefinite,
    LTrivial,
    // The subregular classes (automata/algebra/subregular.hh), in display order.
    Finite,
    Cofinite,
    SL,
    SP,
    LT,
    PT,
    LTT,
    TSL,
    DA,
    AperiodicCommutative,
    // The window classes LTL[Y<=k] and LTL[P,Y<=k] (automata/algebra/windows.hh), with their k.
    LocalK,
    HybridK,
};

// Which decider answers a class: a class-table row, a subregular decider, or a window question.
enum class ClassFamily : std::uint8_t { Table, Subregular, Window };

struct ClassId {
    ClassKind kind = ClassKind::Definite;
    unsigned k = 0;  // the window of LocalK / HybridK; 0 for every other kind

    constexpr ClassId() = default;
    constexpr ClassId(ClassKind c) : kind(c) {}  // NOLINT: a kind is an id (k = 0)
    static constexpr ClassId window(bool hybrid, unsigned window_k) {
        ClassId id(hybrid ? ClassKind::HybridK : ClassKind::LocalK);
        id.k = window_k;
        return id;
    }
    ClassFamily family() const;
    bool is_window() const { return kind == ClassKind::LocalK || kind == ClassKind::HybridK; }
    bool hybrid() const { return kind == ClassKind::HybridK; }
    friend constexpr bool operator==(const ClassId&, const ClassId&) = default;
    friend constexpr auto operator<=>(const ClassId&, const ClassId&) = default;
};

// The window class of LTL[Y<=k] (hybrid false) or LTL[P,Y<=k] (hybrid true).
constexpr ClassId window_class_id(bool hybrid, unsigned k) { return ClassId::window(hybrid, k); }

// The name of a kind: "definite", "SL", ...; the stem "local_k" / "hybrid_k" for the window kinds.
const char* class_name(ClassKind kind);
// "definite", "r_trivial", ..., "SL", ..., "local_k:K", "hybrid_k:K".
std::string to_string(const ClassId& id);
std::ostream& operator<<(std::ostream& os, const ClassId& id);  // to_string's text (tests, logs)
// The inverse of to_string: a class name, or a window stem "local_k:" / "hybrid_k:" followed by 1 to
// max_window_digits decimal digits (any value: the callers bound k and say why). nullopt otherwise.
std::optional<ClassId> parse_class_id(std::string_view text, std::size_t max_window_digits = 4);
// The window kind whose stem ("local_k:" / "hybrid_k:") starts `text`, well-formed or not.
std::optional<ClassKind> window_stem_of(std::string_view text);
// The kinds of one family, in enumerator order (table rows, subregular display order).
std::vector<ClassKind> class_kinds(ClassFamily family);

// Orders ids as their names order: the order of the JSON objects keyed by class id ("definite" <
// "hybrid_k:2" < "local_k:10" < "local_k:2"), so that maps keyed by ClassId print as they always did.
struct ClassIdByName {
    bool operator()(const ClassId& a, const ClassId& b) const { return to_string(a) < to_string(b); }
};
template <class V>
using ClassMap = std::map<ClassId, V, ClassIdByName>;

}  // namespace ltlkit::automata
