// Windows k >= 2 (docs/WINDOWS.md): membership of a language in LTL[Y<=k] (k-local attention) and
// LTL[P,Y<=k] (hybrid-k attention), answered yes / no / unknown, each with a certificate
// (docs/WINDOWS.md). decide_local_k / decide_hybrid_k try, in order: for the hybrid fragment an
// R-trivial language's LTL[P] formula; a word family with bisimilar folded graphs ("no",
// folded_graph.cc); formula synthesis on a word sample (formula_synthesis.cc); for the hybrid
// fragment, formulas for languages decided by entering a sink state, then Boolean combinations of
// characteristic formulas of window types (window_type_formulas.cc); the extended sink-state
// strategy; finally the exact depth probe (depth_probe.hh), whose conflicts bound the depth of any
// defining formula. window_decide.cc holds that order, window_answers.cc the certificates' wording;
// window_certificate_check.cc re-verifies certificates.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "automata/algebra/flat_interner.hh"
#include "automata/certificate.hh"
#include "automata/dfa.hh"
#include "ltl/formula.hh"

namespace ltlkit::automata::algebra {

struct WindowOptions {
    std::size_t max_formula_size = 200'000;  // formulas larger than this are not printed (a window "yes" then cannot be re-verified)
    std::size_t search_budget = 200'000;    // search steps per question before answering unknown
    // Bounds of the family search (0 = the default for the alphabet size, docs/WINDOWS.md §5).
    std::size_t max_period = 0;  // |p|
    std::size_t max_tail = 0;    // |y|, |z|
    std::size_t max_prefix = 0;  // |x| (hybrid only; 0 = one shortest word to each state; local: x = ε)
    // Bounded-depth probe (depth_probe.hh) when both searches fail: depths 1..probe_depth, each
    // exploring at most probe_states product states.
    unsigned probe_depth = 8;
    std::size_t probe_states = 500'000;
    // Budget of one question (budget.hh): wall seconds (0 = none) and resident memory of the process
    // in bytes (0 = none). A question that reaches either answers unknown and names the bound.
    double time_limit_s = 0;
    std::size_t memory_limit_bytes = 0;
    // Work bound of the question: polls of the budget by its searches and probe (budget.hh),
    // 0 = none. Unlike the time, it gives the same answer on any machine under any load.
    std::uint64_t work_limit = 0;
    // Progress of a question that runs longer than a second: (seconds so far, resident bytes).
    std::function<void(double, std::size_t)> progress;
    // Remove zero letters before a hybrid question (Proposition 10.10, docs/WINDOWS.md §10); off only
    // in tests that compare the answer with and without the reduction.
    bool zero_letters = true;
    // Decide a DFA of Theorem 10.8's shape through the local questions on its bottom residuals first
    // (hybrid only; docs/WINDOWS.md §10); off only in tests that compare with the searches alone.
    bool transient_dag = true;
    // On a DFA with a transient SCC of two or more states (Theorem 10.12), the searches get seven
    // eighths of the question and the route through the residuals what they leave; false: the
    // searches get all of it and the route is not taken (classify's second asking of a question).
    bool route_after_searches = true;
    // Search window families that stay inside an SCC that is not a bottom SCC (hybrid only;
    // Corollary 10.11, docs/WINDOWS.md §10); off only in tests that compare with the searches without it.
    bool inner_scc = true;
};

struct WindowDecision {
    Answer answer = Answer::Unknown;
    Certificate certificate;  // class_id "local_k:K" / "hybrid_k:K"; for unknown: fact states the bounds
};

// Preconditions: `minimal` is minimal and canonical; the caller has already checked the necessary
// condition (definite for local_k, locally_r_trivial for hybrid_k) and only asks when it holds.
WindowDecision decide_local_k(const Dfa& minimal, unsigned k, const WindowOptions& options = {});
WindowDecision decide_hybrid_k(const Dfa& minimal, unsigned k, const WindowOptions& options = {});

// The formula with every Y<=m, m a multiple of k, written with windows k only: Y<=qk φ is
// Y<=k (φ | Y<=k (φ | ... Y<=k φ)) with q windows (q <= 1,000). Other subformulas are kept.
ltl::Formula unfold_windows(ltl::Formula f, unsigned k);

// A "yes" whose certificate is the given formula, when its syntax lies in the fragment and it defines
// the language (compiled back); nullopt otherwise. `why` opens the certificate's fact, `route` names
// where the formula came from (the certificate's field "route").
std::optional<WindowDecision> window_yes_by_formula(const Dfa& minimal, ltl::Formula f, unsigned k, bool hybrid,
                                                    const WindowOptions& options, const std::string& why,
                                                    const std::string& route = "input_formula");

// Re-verifies a window certificate (class id local_k:K / hybrid_k:K) given as the JSON text of
// docs/CLASSES.md §3; used by check_certificate_json. true = holds, false = does not, Error = malformed.
Result<bool> check_window_certificate(const std::string& json_text, std::string* explanation);
// The same on a certificate already read (certificate_from_json), its fields typed.
struct CertificateWithDfa;
Result<bool> check_window_certificate(const CertificateWithDfa& read, std::string* explanation);

// --- the pieces behind the certificates (docs/WINDOWS.md), exposed for tests and the table bench

// Are the EOS nodes of the folded graphs of p^ω·y and p^ω·z bisimilar for the window-k modality
// (and, for the hybrid fragment, also its strict-past modality P)? p non-empty.
bool family_eos_bisimilar(const Word& p, const Word& y, const Word& z, unsigned k, bool hybrid);

// A one-period family read off two words with equal EOS types, u = x·p^r·y and v = x·p^r·z with p^r
// (r >= 2, |p| <= k + 2) in their common prefix, whose folded graphs have bisimilar EOS nodes and
// whose membership differs for all large r (docs/WINDOWS.md §5); the shortest tails; nullopt if none.
std::optional<WordFamily> family_from_pair(const Dfa& dfa, const Word& u, const Word& v, unsigned k, bool hybrid);

// The alternating family (docs/WINDOWS.md §2b): are the EOS nodes of y after the p-cycle and of z
// after the q-cycle bisimilar in the folded graph with both cycles (every node sees both cycles
// under P)? And the least r0 >= 1 from which x·(pʳqʳ)ʳ·pʳ·y and x·(pʳqʳ)ʳ·pʳ·qʳ·z differ in
// membership for every r (nullopt: they agree for infinitely many r).
bool alternating_eos_bisimilar(const Word& p, const Word& q, const Word& y, const Word& z, unsigned k, bool hybrid);
//
// `avoid` (both functions): a state that is neither accepting nor rejecting for the comparison: the
// words differ at r only if neither run ends there. Theorem 10.6(a)'s families (window_reduction.hh)
// run on an SCC whose exits all lead to one sink, `avoid`: they count only while both runs stay in.
inline constexpr State kNoAvoid = ~State{0};
std::optional<std::size_t> alternating_differs_from(const Dfa& d, const Word& x, const Word& p, const Word& q,
                                                    const Word& y, const Word& z, State avoid = kNoAvoid);

// The least r0 >= 1 such that x·p^r·y and x·p^r·z differ in membership for every r >= r0, or nullopt
// when they agree for infinitely many r (the run of x·p^r is eventually periodic in r).
std::optional<std::size_t> membership_differs_from(const Dfa& d, const Word& x, const Word& p,
                                                   const Word& y, const Word& z, State avoid = kNoAvoid);

// The necessary conditions, on a minimal DFA: definite (no pair p != q on a cycle of the pair
// graph) and locally R-trivial (no such pair with p, q in one SCC), decided by the DFA criteria of
// the class table (classes.hh).
bool definite_by_pair_graph(const Dfa& minimal);
bool locally_r_trivial_by_pair_graph(const Dfa& minimal);

// Window types (docs/WINDOWS.md §3b), shared by the "yes" search and its tests. The level-j type
// of a position is its level-(j-1) type together with the set of level-(j-1) types at the up to k
// positions before it; level 0 is the letter, or EOS. formula(t) is a characteristic formula of
// LTL[Y<=k]: it holds at a position exactly when the position's type is t.
// The signatures of interned window types by id, in one pool (flat_interner.hh): a type costs its
// signature and two index slots, not a tree node and two vectors, so that the searches that explore
// window types reach about twice as many within the same work budget (docs/PERFORMANCE.md, "Window
// types in one pool"). A signature read here is invalidated by the next interning.
class TypeSignatures {
public:
    std::span<const long> operator[](std::size_t id) const {
        const auto [p, n] = pool_.get(static_cast<std::int32_t>(id));
        return {p, n};
    }
    std::size_t size() const { return pool_.size(); }
    std::pair<std::int32_t, bool> intern(const std::vector<long>& s) { return pool_.intern(s); }

private:
    FlatInterner<long> pool_;
};

struct WindowTypes {
    unsigned k = 2;
    std::size_t sigma = 0;  // letters 0..sigma-1; sigma stands for EOS
    TypeSignatures sig;     // by id: {own level-(j-1) type, window set...}; level 0: {-2, letter}
    std::vector<ltl::Formula> chi;          // by id, built on demand
    long intern(std::vector<long> s);
    // The level-D types of the positions of w, then of EOS (index |w|).
    std::vector<long> types(const Word& w, unsigned D);
    ltl::Formula formula(long id, const std::vector<std::string>& alphabet);
};

// The sink-state strategy of the hybrid fragment (safety and guarantee languages in Manna and Pnueli's hierarchy) (docs/WINDOWS.md §3c): for a language "the run enters the sink state
// s" (every other state with the opposite acceptance) or its complement. G = the level-D window
// types of the positions, and G_EOS those of EOS, over all words that avoid s (exact exploration
// of the DFA x window-type product). If no word that enters s has every position type in G and
// its EOS type in G_EOS, then "entered s" is "some position type outside G, or an EOS type outside
// G_EOS", written either with the types seen outside G (P of their disjunction) or with G itself
// (H of its disjunction); the smaller is kept, and compiled back like every formula.
struct SinkSearchReport {
    ltl::Formula formula;
    unsigned depth = 0;           // window depth D of the types
    std::size_t states = 0;       // product states over all depths
    std::size_t good = 0, bad = 0;  // |G| + |G_EOS| and the types seen outside them, at the answer's depth
    bool applicable = false;      // the DFA has the shape above (extended: it has a sink besides q0)
    bool past_letters = false;    // the answer's types annotate letters with the set of letters before
    bool mixed = false;           // the states besides the sink have both acceptances
    // The hypothesis of Lemma 4 (and, when mixed, "the EOS type decides the words that avoid the
    // sink") holds at `depth`, with or without letters annotated (past_letters): a proof that the
    // language is in LTL[P,Y<=k] whether or not its formula was built and compiled back within the
    // budget and the cap (formula null). sink_word: a shortest word into the sink.
    bool holds = false;
    Word sink_word;
    // At the largest depth that failed (conflict_depth): a word that enters s whose position types all
    // lie in G, and a word that avoids s, with equal level-D EOS types.
    std::optional<std::pair<Word, Word>> conflict;
    unsigned conflict_depth = 0;
};

// Tries window depths 1..max_depth within max_states product states in all; the formula (when found)
// is compiled back. Not applicable (applicable = false) without a sink as described. `extended`
// also accepts both acceptances besides the sink (the EOS type must then decide the words that avoid
// it) and tries, per depth, types whose letters carry the set of letters before them (P a / !P a).
// A formula of tree size over formula_cap (0: none) is not compiled back (holds stays true).
SinkSearchReport search_sink(const Dfa& minimal, unsigned k, unsigned max_depth, std::size_t max_states,
                             bool extended = false, std::size_t formula_cap = 0);

// The checker's own verification of a sink-state "yes" without a formula (docs/WINDOWS.md §3c,
// "Without a formula"): the state after sink_word must be a sink other than the initial state, and
// an exploration of the DFA x window-type product written apart from search_sink must find Lemma 4's
// hypothesis (and, with mixed, the EOS types deciding the words that avoid the sink) at depth D.
// nullopt: it holds; otherwise why not. max_states bounds the exploration (an error past it).
Result<std::optional<std::string>> check_sink_exploration(const Dfa& minimal, unsigned k, unsigned D, bool past_letters,
                                                          bool mixed, const Word& sink_word, std::size_t max_states);

// The closed-set strategy of the hybrid fragment (docs/WINDOWS.md §3d), a generalization of the
// sink-state strategy to languages decided by the SCCs the run passes through: for each set U of
// states closed under the transitions that an SCC generates (the states it reaches, with and
// without it), Lemma 5 (Lemma 4 of §3c with "the run entered U" for "the run entered the sink",
// positions keyed by their window type and the marks "the run had entered U' before", for the sets
// U' found so far); when membership is a function of the sets entered and of the EOS key on the
// whole DFA x window-type product, a decision tree over the "entered U" formulas with EOS-key
// leaves defines the language (compiled back). Depths 1..max_depth, four passes each (marks on the
// key or nested in the types; letters plain or annotated with the letters before them);
// max_states product states in all.
struct UpsetSearchReport {
    ltl::Formula formula;
    unsigned depth = 0;         // window depth D of the answer's types
    std::size_t states = 0;     // product states over all depths
    std::size_t sets = 0;       // closed sets of the SCC decomposition (without the initial state)
    std::size_t entered = 0;    // those whose "entered" formula the answer uses (Lemma 4 holds)
    bool applicable = false;    // some closed set avoids the initial state
    bool past_letters = false;  // the answer's letters carry the set of letters before them
    bool nested_marks = false;  // the answer's window types carry the marks of their positions
    // The proof without its formula (docs/WINDOWS.md §3d, "Without a formula"), recorded the first
    // time membership is a function of the sets entered and the EOS key, before the formula is
    // built: the sets in the order Lemma 5 established them, each with the exploration that did
    // (window depth, annotated letters, nested marks, and the earlier sets used as marks), and the
    // exploration of that function check. holds: such a proof was recorded.
    struct Exploration {
        unsigned depth = 0;
        bool past_letters = false, nested = false;
        std::vector<std::size_t> marks;  // indices into chain
    };
    struct Step {
        std::vector<char> set;  // per state of the minimal DFA
        Exploration by;
    };
    bool holds = false;
    std::vector<Step> chain;
    Exploration decision;
};
// A formula over formula_cap tree nodes (0: no cap) does not end the search: the next passes start
// afresh, and the smallest found is returned when none is within the cap.
UpsetSearchReport search_upsets(const Dfa& minimal, unsigned k, unsigned max_depth, std::size_t max_states,
                                std::size_t formula_cap = 0);

// The checker's own verification of a closed-set "yes" without a formula (docs/WINDOWS.md §3d,
// "Without a formula"): each set of the chain must be closed, avoid the initial state, and satisfy
// Lemma 5's hypothesis under its exploration, whose marks are earlier sets of the chain; then, under
// the decision's exploration, acceptance must be a function of (the chain's sets holding the state,
// EOS key). Explorations written apart from search_upsets. nullopt: it holds; otherwise why not.
Result<std::optional<std::string>> check_closed_set_chain(const Dfa& minimal, unsigned k,
                                                          const std::vector<UpsetSearchReport::Step>& chain,
                                                          const UpsetSearchReport::Exploration& decision, std::size_t max_states);

// Whether the formula's syntax lies in LTL[Y<=k] (resp. LTL[P,Y<=k]): only Y<=k (k >= 2 exactly this
// k), P/H for the hybrid fragment, and Boolean connectives.
bool formula_in_window_fragment(ltl::Formula f, unsigned k, bool hybrid);

}  // namespace ltlkit::automata::algebra
