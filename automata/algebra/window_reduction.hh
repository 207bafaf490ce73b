// Theorem 10.6 (docs/WINDOWS.md §10): if L is in LTL[P,Y<=k], then for every state q of a bottom SCC
// of its minimal DFA the residual L_q = {w : δ(q, w) accepting} is definite and in LTL[Y<=k]. So a
// "no" for LTL[Y<=k] on such a residual (a non-definite residual, or a window family for it) is a
// "no" for LTL[P,Y<=k] on L; on a definite L every residual agrees with L on long words, so
// LTL[P,Y<=k] and LTL[Y<=k] agree there. The certificates keep the family's x (a word into the bottom
// SCC) and carry "reduction": "bottom_scc"; the checker re-verifies the family for the window alone.
// Corollary 10.11 extends the family half to SCCs that are not bottom SCCs, for words that stay
// inside them ("reduction": "scc").
#pragma once

#include <optional>
#include <vector>

#include "automata/certificate.hh"
#include "automata/dfa.hh"
#include "ltl/formula.hh"

namespace ltlkit::automata::algebra {

struct WindowOptions;

// The states reachable from q (q included), as flags.
std::vector<char> reachable_from(const Dfa& dfa, State q);

// Is q in a bottom SCC (every state reachable from q reaches q back)?
bool in_bottom_scc(const Dfa& dfa, State q);

// One shortest word (breadth-first, letters in order) from the initial state into each bottom SCC.
std::vector<Word> words_to_bottom_sccs(const Dfa& dfa);

// The minimal DFA of the residual L_q (initial state q).
Dfa residual_dfa(const Dfa& dfa, State q);

// A window family for the residual after x (x = ε in `local`, which refutes LTL[Y<=k] for L_q) moved
// behind x: the family x·p^r·y / x·p^r·z (or the alternating one) with r_min recomputed on the DFA of
// L; nullopt if membership does not differ from some r on (which cannot happen for a valid `local`).
std::optional<WordFamily> family_behind(const Dfa& dfa, const Word& x, const WordFamily& local);

// A "no" for LTL[P,Y<=k] by Theorem 10.6: for the first bottom SCC (in breadth-first order of the
// shortest words into them) whose residual is not definite, or has a window family found by the
// family search of §2 (local) or the periodic-pair search of §10, the word x into it and the family
// behind x. steps counts the searches' polls; nullopt when no bottom SCC gives one.
struct BottomSccNo {
    Word x;
    bool residual_not_definite = false;
    std::optional<WordFamily> family;
};
std::optional<BottomSccNo> bottom_scc_no(const Dfa& minimal, unsigned k, const WindowOptions& options, std::size_t* steps);

// Theorem 10.6(a) (docs/WINDOWS.md §10, Corollary 10.11): the SCC C of q as a DFA of its own. Its
// states are C's (renumbered, q the initial state) and one new rejecting sink `outside` (the last),
// the target of every transition that leaves C: a word's run from q stays inside C iff its run here
// does not end in `outside`.
struct SccRestriction {
    Dfa dfa;
    State outside = 0;
};
SccRestriction scc_restriction(const Dfa& dfa, State q);

// The least r0 >= 1 from which the family's two words, read from the state after its x, both keep
// their run inside that state's SCC and differ in membership, for every r >= r0 (one-period or
// alternating form); nullopt when no such r0 exists. What Corollary 10.11 needs besides the
// bisimilar EOS nodes for the window alone.
std::optional<std::size_t> scc_family_from(const Dfa& minimal, const WordFamily& f);

// A "no" for LTL[P,Y<=k] by Corollary 10.11: for the states of SCCs of two or more states that are
// not bottom SCCs, in breadth-first order, a window family (one-period, then alternating: the
// searches of §2, §2b for the window alone) read from that state whose runs stay inside its SCC and
// whose membership differs; its x is a shortest word to the state. nullopt when none is found.
std::optional<WordFamily> inner_scc_no(const Dfa& minimal, unsigned k, const WindowOptions& options, std::size_t* steps);

// Theorem 10.8 (docs/WINDOWS.md §10): when every SCC of the minimal DFA that is not a bottom SCC is
// a single state (and the initial state is not in a bottom SCC), L is in LTL[P,Y<=k] iff the
// residual of every bottom state entered from a transient state is in LTL[Y<=k]. The transient
// states, in the order of a breadth-first search, and the bottom states they enter ("entries").
struct TransientDag {
    std::vector<State> transient;
    std::vector<State> entries;
    std::vector<Word> entry_words;         // a shortest word from the initial state into each entry
    std::vector<std::size_t> first_entry;  // per bottom SCC entered, the index of its first entry
    // Theorem 10.12 (transient_dag(minimal, true) only): the transient SCCs of two or more states,
    // each with its states (increasing) and its entry states (the initial state, or the states
    // entered from a transient state outside the SCC; increasing). Empty for Theorem 10.8's shape.
    struct Tracked {
        std::vector<State> states, entries;
    };
    std::vector<Tracked> tracked;
};
// nullopt when the DFA does not have that shape (with `tracked`: when the initial state lies in a
// bottom SCC; transient SCCs of two or more states are then listed in `tracked`).
std::optional<TransientDag> transient_dag(const Dfa& minimal, bool tracked = false);

// Theorem 10.8's formula of LTL[P,Y<=k]: Before_p at EOS for each accepting transient p, and for each
// entry q, P Ent_q and ψ_q relativized to the positions after the entry (each Y<=j χ becomes
// Y<=j (P Ent_q & χ')); `residual[i]` defines the residual of dag.entries[i] (a formula of LTL[Y<=k]).
// With tracked SCCs (Theorem 10.12), tracking[i][j][m] is a formula of LTL[Y<=k] without a letter
// outside its windows that holds at the EOS of a word u whose run from dag.tracked[i].entries[j]
// stays inside the SCC iff u leads to a state alike to dag.tracked[i].states[m] (the same
// acceptance and, per letter, the same state outside the SCC or none); relativized to the positions
// after the entry, it says which kind of state of the SCC the run is in.
ltl::Formula theorem_10_8_formula(const Dfa& minimal, const TransientDag& dag, const std::vector<ltl::Formula>& residual,
                                  const std::vector<std::vector<std::vector<ltl::Formula>>>& tracking = {});

// Theorem 10.12's condition for one tracked SCC entered at `entry`: the depth-d window types (the
// least d <= max_depth at which they do) of the words whose run from `entry` stays inside its SCC
// determine the kind of state they reach (its acceptance and, per letter, the state outside the SCC
// it leads to, or none); the formulas of the SCC's states (in increasing order), each the
// disjunction of the characteristic formulas of the types of its kind. nullopt when no depth up to max_depth
// does within max_states product states, or the budget runs out. depth_out: the depth found. The
// formulas are null without build_formula or when they would refer to over max_formula_types types.
std::optional<std::vector<ltl::Formula>> track_scc_states(const Dfa& minimal, State entry, unsigned k, unsigned max_depth,
                                                          std::size_t max_states, std::size_t max_formula_types,
                                                          unsigned* depth_out = nullptr, bool build_formula = true);

}  // namespace ltlkit::automata::algebra
