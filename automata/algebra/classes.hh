// THE class table (docs/ARCHITECTURE.md): every class of docs/CLASSES.md §1–2 is one row — id, name, its polynomial DFA
// decision (where one is published), its semigroup-identity decision, its certificate builder,
// the logic and the attention architecture. The classifier, the predictor, the CLI and the
// report all read this table; adding a class is adding a row.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "automata/algebra/green.hh"
#include "automata/algebra/semigroup.hh"
#include "automata/architecture.hh"
#include "automata/certificate.hh"
#include "automata/class_id.hh"
#include "automata/dfa.hh"
#include "ltl/formula.hh"
#include "ltl/fragment.hh"

namespace ltlkit::automata::algebra {

// What the DFA routes share, computed once per minimal DFA (lazily where expensive).
class DfaAnalysis {
public:
    explicit DfaAnalysis(const Dfa& minimal);
    const Dfa& dfa() const { return dfa_; }

    std::size_t n() const { return dfa_.num_states(); }
    std::uint32_t scc(State q) const { return scc_[q]; }
    std::size_t num_scc() const { return num_scc_; }
    bool on_cycle(State q) const { return on_cycle_[q] != 0; }  // some non-empty word loops q
    bool reaches(State p, State q);                              // q reachable from p (p ≥ q)

    // A C-node of the pair graph: distinct states p, q and a non-empty word w with p·w = p and
    // q·w = q. Found first by the fast test (two periodic points of one letter), else from the
    // SCCs of the graph on pairs {p ≠ q} (Tarjan 1972, O(n²·|Σ|)).
    // Unordered C-nodes {p,q} (p < q) satisfying `want`, stopping at the first when `first`.
    std::vector<std::pair<State, State>> c_nodes(const std::function<bool(State, State)>& want, bool first);
    // A shortest non-empty w with p·w = p and q·w = q (the pair must be a C-node).
    Word loop_word(State p, State q);
    // The longest path (edges) of the pair graph when it is acyclic; nullopt when it has a cycle.
    std::optional<std::size_t> pair_graph_longest_path();
    // The same by the SCCs (scc.hh) of the whole pair graph (O(n²·|Σ|) time and memory): the
    // reference route for tests and benchmarks.
    std::optional<std::size_t> pair_graph_longest_path_by_tarjan();
    // Definiteness by merging states (O(n·|Σ|²·log n)): round r merges the classes whose successor
    // classes agree on every letter, so after r rounds two states are merged iff every word of
    // length r leads them to one state. The language is definite iff a single class remains, and
    // its degree is then the number of rounds. nullopt when it is not definite.
    std::optional<std::size_t> definite_degree_by_merging();

    // Shortest word from `from` to `to` (nullopt when unreachable) and from the initial state.
    std::optional<Word> path(State from, State to) const;
    Word access(State q) const { return *path(dfa_.initial, q); }
    // Shortest word w with exactly one of p·w, q·w accepting (p ≠ q in a minimal DFA).
    Word separator(State p, State q) const;
    // The same, giving up (nullopt) once the search has visited max_pairs pairs of states.
    std::optional<Word> separator_within(State p, State q, std::size_t max_pairs) const;

private:
    const Dfa& dfa_;
    std::vector<std::uint32_t> scc_;
    std::vector<std::uint8_t> on_cycle_;
    std::size_t num_scc_ = 0;
    std::vector<std::vector<std::uint64_t>> reach_;  // per SCC: bitset of SCCs reachable from it
    std::size_t reach_rows_ = 0;       // rows of reach_ filled on demand (many SCCs), cached now
    std::size_t lazy_rows_asked_ = 0;  // rows filled on demand so far
    int pairs_mode_ = 0;  // 0 none, 1 states on cycles by SCC blocks, 2 every state
    std::vector<State> pair_states_;  // the states the pair indices refer to (ascending)
    std::vector<std::uint8_t> pair_cyclic_;  // triangular index: {p<q} on a cycle
    std::optional<std::size_t> longest_;
    std::map<std::pair<State, State>, Word> fast_loops_;
    void compute_pairs(bool blocks);
    bool merged_ = false;
    std::optional<std::size_t> merge_degree_;
    void compute_reach();
    void compute_dense_reach();
};

// What the semigroup routes share.
struct SemigroupAnalysis {
    const Dfa& dfa;
    TransitionSemigroup s;
    GreenClasses green;
    std::vector<Element> idempotents;
    std::uint32_t kernel = 0;  // J-class of the minimal ideal
    static Result<std::unique_ptr<SemigroupAnalysis>> of(const Dfa& minimal, std::size_t max_elements);
    // One idempotent per regular D-class (eSe ≅ fSf for D-related idempotents e, f).
    std::vector<Element> idempotent_per_d_class() const;
    // eSe = eS ∩ Se (reachable from e in the right and in the left Cayley graph).
    std::vector<Element> local_monoid(Element e) const;
};

// One decision with its certificate (docs/CLASSES.md §3).
struct ClassDecision {
    bool member = false;
    Certificate certificate;
};

// One class of the table. Its id (the enumerator; the name string is class_id.cc's) and everything
// the classifier, the predictor, the checker and the suites ask of it; adding a class is adding a
// ClassKind, a row here, its decision functions and its tests (docs/ARCHITECTURE.md).
struct ClassRow {
    ClassKind kind = ClassKind::Definite;
    std::string name;              // what a table calls it ("left-deterministic polynomial")
    std::string phrase;            // what a sentence calls it ("the language is R-trivial")
    std::string characterization;  // algebraic / automaton description
    std::string logic{};           // e.g. "LTL[Y]", "" when none
    // The architecture whose prediction the class decides (global, local-1, hybrid-1), if any.
    std::optional<Architecture> arch{};
    // The semigroup identities whose violation refutes membership (the checker's table).
    std::vector<Identity> refuted_by{};
    // The word-family kind that refutes membership (suffix_family, r_family, lrt_family), if any.
    std::optional<CertificateKind> refuting_family{};
    // The fragment a member formula is written in (compiled back by the checker), if any.
    std::optional<ltl::FragmentKind> formula_fragment{};
    // Polynomial DFA decision (nullptr when there is none: star_free, l_trivial).
    ClassDecision (*by_dfa)(DfaAnalysis&) = nullptr;
    // Decision by the semigroup identity (always present).
    ClassDecision (*by_semigroup)(const SemigroupAnalysis&) = nullptr;
    // Completes a certificate after the decision (member formulas, concrete pairs); may be null.
    void (*certify)(DfaAnalysis&, ClassDecision&, std::size_t formula_cap) = nullptr;
    ClassId id() const { return kind; }
};

const std::vector<ClassRow>& class_table();
// The row of a table class; nullptr for a subregular or window class.
const ClassRow* find_class(const ClassId& id);

// One inclusion (docs/CLASSES.md §2, docs/SUBREGULAR.md §1, docs/WINDOWS.md): membership in every
// class of `if_all` implies membership in `then`. `certifies` marks the ones classify proves
// memberships by (kind "implied": one premise; kind "excluded": R- and L-trivial is J-trivial), which
// the checker accepts; the others serve the constraint closure of prediction_suite.hh.
struct Inclusion {
    std::vector<ClassId> if_all;
    ClassId then;
    const char* why = "";
    bool certifies = false;
};
// The inclusions between the table classes and the subregular classes, in one place.
const std::vector<Inclusion>& class_inclusions();
// The inclusions of the window classes of the windows `ks` (LTL[Y<=k] ⊆ LTL[Y], LTL[Y<=qk] ⊆
// LTL[Y<=k], LTL[Y<=k] ⊆ LTL[P,Y<=k], LTL[P] ⊆ LTL[P,Y<=k], ...).
std::vector<Inclusion> window_inclusions(const std::vector<unsigned>& ks);

// Classes without a polynomial DFA criterion (star_free, l_trivial), decided where possible without
// the syntactic semigroup: by an inclusion from a class already decided (`decided`, `certificates`;
// kind "implied", field "by", re-checked by that class's DFA criterion), or refuted by a letter whose
// map has a cycle of length >= 2 (a non-trivial group: the "aperiodic" identity fails). nullopt
// when only the semigroup can tell.
std::optional<ClassDecision> decide_without_semigroup(ClassKind id, DfaAnalysis& A, const ClassMap<std::optional<bool>>& decided,
                                                      const ClassMap<Certificate>& certificates);
// Does membership in `from` imply membership in `to` by a certifying inclusion (kind "implied")?
bool class_implies(const ClassId& from, const ClassId& to);
// Do membership in `in` and non-membership in `not_in` imply non-membership in `cls` (kind "excluded")?
bool class_excludes(const ClassId& in, const ClassId& not_in, const ClassId& cls);

// Member formulas (compiled back in tests and by the checker).
// LC25 Lemma C.1: an LTL[P] formula for a partially ordered DFA (state q is current iff q was
// entered and not yet left); nullopt when the DFA is not partially ordered.
std::optional<ltl::Formula> partially_ordered_formula(const Dfa& minimal);
// A definite language of degree d as a Boolean combination of Y-chains of depth ≤ d (a decision
// tree over the last d symbols); nullopt when not definite or above max_nodes decision nodes.
// Each node of the decision tree costs a tuple of n states: at most this many tuple entries in all,
// so max_nodes is lowered to kDefiniteFormulaWork / n on large DFAs.
constexpr std::size_t kDefiniteFormulaWork = 100'000'000;
std::optional<ltl::Formula> definite_formula(const Dfa& minimal, std::size_t max_nodes = 1'000'000);

// Concrete [accepted, rejected] pair from two words with different transformations: a context
// c·w1·d / c·w2·d separating them (nullopt when they act alike).
std::optional<std::pair<Word, Word>> separating_context(const Dfa& minimal, const Word& w1, const Word& w2);

// Transformation of a word on a DFA (identity for ε).
std::vector<State> transformation_of(const Dfa& d, const Word& w);

}  // namespace ltlkit::automata::algebra
