// Immutable, hash-consed past-LTL formulas (after Spot's spot/tl/formula.hh): equal subformulas
// are one node, so equality and hashing are O(1). Formulas are never rewritten: the fragment of a
// formula is a property of how it was written (docs/SYNTAX.md §2, docs/CLASSES.md §1).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ltlkit::ltl {

enum class Op : std::uint8_t {
    True,
    False,
    Atom,
    Not,
    And,
    Or,
    Implies,
    Iff,
    Since,             // binary: left S right
    Past,              // P
    Yesterday,         // Y
    BoundedYesterday,  // Y<=k, k >= 1 (Y<=1 is kept as written, but means Y)
    Historically,      // H
};

struct Node;

// A handle to an interned node. Cheap to copy; never null once constructed by a factory.
class Formula {
public:
    Formula() = default;  // the null formula; only for default-constructed containers

    static Formula tt();
    static Formula ff();
    static Formula atom(const std::string& name);
    static Formula neg(Formula f);
    static Formula conj(Formula a, Formula b);
    static Formula disj(Formula a, Formula b);
    static Formula implies(Formula a, Formula b);
    static Formula iff(Formula a, Formula b);
    static Formula since(Formula a, Formula b);
    static Formula past(Formula f);
    static Formula yesterday(Formula f);
    static Formula bounded_yesterday(Formula f, unsigned k);
    static Formula historically(Formula f);

    bool is_null() const { return node_ == nullptr; }
    Op op() const;
    const std::string& name() const;  // atom name (Op::Atom only)
    unsigned k() const;               // window (Op::BoundedYesterday only)
    std::size_t arity() const;        // 0, 1 or 2
    Formula child(std::size_t i) const;
    std::size_t id() const;           // unique per distinct node, dense from 0 in creation order

    bool is_temporal() const;  // Since, Past, Yesterday, BoundedYesterday, Historically

    friend bool operator==(Formula a, Formula b) { return a.node_ == b.node_; }
    friend bool operator!=(Formula a, Formula b) { return a.node_ != b.node_; }
    friend bool operator<(Formula a, Formula b) { return a.id() < b.id(); }

    const Node* node() const { return node_; }

private:
    explicit Formula(const Node* n) : node_(n) {}
    friend Formula intern(Op, Formula, Formula, unsigned, const std::string&);
    const Node* node_ = nullptr;
};

// Sorted distinct atom names of f.
std::vector<std::string> atoms(Formula f);

// Number of distinct subformulas (DAG size) and tree size (with repetitions, saturating at SIZE_MAX).
std::size_t dag_size(Formula f);
std::size_t tree_size(Formula f);

// Temporal (modal) depth: nesting depth of P, Y, Y<=k, H, S.
std::size_t temporal_depth(Formula f);

// All distinct subformulas, children before parents (a topological order of the DAG).
std::vector<Formula> subformulas_postorder(Formula f);

}  // namespace ltlkit::ltl

template <>
struct std::hash<ltlkit::ltl::Formula> {
    std::size_t operator()(ltlkit::ltl::Formula f) const noexcept {
        return std::hash<const void*>()(f.node());
    }
};
