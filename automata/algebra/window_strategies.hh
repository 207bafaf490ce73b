// The strategies behind decide_local_k / decide_hybrid_k (windows.hh), one file each, and what
// they share. Internal to the window decisions: the CLI and the tests use windows.hh.
//   folded_graph.cc          "no": a word family whose folded graphs have bisimilar EOS nodes
//   formula_synthesis.cc     "yes": enumerative formula search on a word sample, compiled back
//   window_type_formulas.cc  "yes": Boolean combinations of characteristic formulas of window types
//                            at EOS and under P, chosen on a sample and checked by an exact product
//   sink_state_formulas.cc   "yes": a language decided by entering a sink state, through the window
//                            types that words avoiding the sink never show (search_sink, windows.hh)
//   upset_formulas.cc        "yes": a language decided by which closed sets of states (an SCC and
//                            what it reaches) the run entered, and by the EOS type (search_upsets)
//   window_types.cc          window types and the product step these explore
//   window_answers.cc        each strategy as an answer with its certificate (window_answers.hh)
//   window_decide.cc         decide: the reductions of docs/WINDOWS.md §10, the strategies in order and
//                            their shares of the budget
//   window_certificate_check.cc  the independent checker of window certificates
// The exact depth probe is depth_probe.hh; window types are WindowTypes (windows.hh).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "automata/algebra/budget.hh"
#include "automata/algebra/windows.hh"
#include "automata/certificate.hh"
#include "automata/dfa.hh"
#include "automata/random.hh"
#include "ltl/builder.hh"
#include "ltl/formula.hh"

namespace ltlkit::automata::algebra::window_strategies {

// The exchange rate between the compile-back's work (monitor.hh: a monitor state costs its program
// size times the letters + 1) and the polls of the search budget (budget.hh): one poll per this many
// units, about the CPU time of one product state of the explorations (docs/WINDOWS.md §5b,
// calibrated in docs/PERFORMANCE.md, "Every window strategy under the default budget").
inline constexpr std::size_t kMonitorWorkPerPoll = 1024;

// The polls charged for a step that examines `items` things of the cost of a few comparisons each
// (building formulas from types, greedy covers, feature columns): one per kItemsPerPoll.
inline constexpr std::size_t kItemsPerPoll = 256;

// The polls charged for building formulas: one per this many new formula nodes (interning a node
// costs about an eighth of a product state; the nodes stay interned for the process's lifetime, so
// the charge bounds their memory as well).
inline constexpr std::size_t kFormulaNodesPerPoll = 8;

// The bytes of one explored product state of the window-type explorations (sink_state_formulas.cc,
// upset_formulas.cc, window_type_formulas.cc): `width` longs held twice (in the state list and as
// the key of the index), with their vectors, heap blocks and a hash node. A new state charges them
// (budget_charge_bytes, budget.hh), so that the work bound bounds the exploration's memory.
inline std::size_t product_state_bytes(std::size_t width) {
    return 2 * (sizeof(std::vector<long>) + 16 + width * sizeof(long)) + 48;
}

inline std::string fragment_name(bool hybrid, unsigned k) {
    return std::string(hybrid ? "LTL[P,Y<=" : "LTL[Y<=") + std::to_string(k) + "]";
}

// Every word of length lo..hi over letters 0..n-1, shortest first.
std::vector<Word> words_between(std::size_t n, std::size_t lo, std::size_t hi);

// --- "no" (folded_graph.cc)
struct NoSearchBounds {
    std::size_t max_p, max_tail, max_x;
    // Hybrid: x ranges over one shortest (then lexicographically least) word to each reachable
    // state, which covers every x, since condition (b) of WINDOWS.md §2 depends on x only through
    // δ(q0, x) and condition (a) not at all; max_x is then unused. False: |x| <= max_x (local:
    // max_x = 0, x = ε; hybrid on DFAs of more than 64 states: 3 over two letters, else 2).
    bool x_every_state = false;
};
NoSearchBounds no_bounds(std::size_t sigma, std::size_t minimal_states, unsigned k, bool hybrid, const WindowOptions& o);
// A family x·p^r·y / x·p^r·z within the bounds whose membership differs for all large r while the
// EOS nodes of its folded graphs are bisimilar; steps counts search steps, exhausted says whether
// the bounds were searched to the end. avoid: as in membership_differs_from (windows.hh).
std::optional<WordFamily> search_family(const Dfa& dfa, unsigned k, bool hybrid, const WindowOptions& o,
                                        std::size_t* steps, bool* exhausted, State avoid = kNoAvoid);

// An alternating family x·(pʳqʳ)ʳ·pʳ·y / x·(pʳqʳ)ʳ·pʳ·qʳ·z (docs/WINDOWS.md §2b): p ≠ q primitive
// of length ≤ 3 (≤ 2 over 5+ letters), tails ≤ 2 over up to 3 letters (≤ 1 beyond), x as in
// search_family; the first found.
struct AlternatingBounds {
    std::size_t max_p, max_tail;
};
inline AlternatingBounds alternating_bounds(std::size_t sigma) {
    return sigma <= 3 ? AlternatingBounds{3, 2} : sigma == 4 ? AlternatingBounds{3, 1} : AlternatingBounds{2, 1};
}
std::optional<WordFamily> search_alternating_family(const Dfa& dfa, unsigned k, bool hybrid, const WindowOptions& o,
                                                    std::size_t* steps, State avoid = kNoAvoid);

// --- "yes" by formula synthesis (formula_synthesis.cc)
// The sample words, concatenated: position i of word w is start[w] + i, its EOS start[w] + |w|.
struct Sample {
    std::vector<Word> words;
    std::vector<std::size_t> start;  // position index of w's first position; EOS = start + |w|
    std::size_t total = 0;
    std::size_t blocks = 0;
    void add(const Word& w) {
        words.push_back(w);
        start.push_back(total);
        total += w.size() + 1;
        blocks = (total + 63) / 64;
    }
};
struct Feature {
    ltl::Formula f;
    std::size_t size;               // ties go to the smaller formula
    std::vector<std::uint8_t> val;  // per sample word
};
// A Boolean combination of the features that agrees with target on every sample word (a decision
// tree over the features greedy_features chooses); null when none does.
std::optional<std::vector<std::size_t>> greedy_features(const std::vector<std::uint8_t>& target, std::vector<int> cls,
                                                        const std::vector<Feature>& feats);
ltl::Formula decision_formula(const std::vector<std::uint8_t>& target, const std::vector<Feature>& feats);
// Does the formula define the language of `minimal` (compiled back and compared)? On false, a
// word on which they differ goes to counterexample.
Result<bool> formula_defines(ltl::Formula f, const Dfa& minimal, Word* counterexample);
Sample initial_sample(std::size_t sigma, unsigned k, bool hybrid);
struct YesSearchReport {
    ltl::Formula formula;
    std::size_t rounds = 0, max_size = 0, pool = 0, sample_words = 0;
    std::string failure;  // compile error, if any
};
YesSearchReport search_formula(const Dfa& minimal, unsigned k, bool hybrid, std::size_t budget, std::size_t* steps);

// --- what the window-type and sink-state strategies share: the DFA × window-types product
// (definitions in window_types.cc)

// The disjunction of f(t) over ts (false when ts is empty).
template <class F>
ltl::Formula disjoin(const std::set<long>& ts, F&& f) {
    ltl::Formula out = ltl::Formula::ff();
    bool first = true;
    for (long t : ts) {
        ltl::Formula g = f(t);
        out = first ? g : ltl::Formula::disj(out, g);
        first = false;
    }
    return out;
}

// A window type's level (0 for a letter or EOS), its level-0 type, and its window (level j-1 ids).
unsigned type_level(const WindowTypes& types, long id);
long type_ground(const WindowTypes& types, long id);
std::vector<long> type_window(const WindowTypes& types, long id);

// A set of others (0..n-1, by index) as bits, 64 to a word (bit i % 64 of word i / 64).
using CoverBits = std::vector<std::uint64_t>;
inline std::size_t cover_words(std::size_t others) { return (others + 63) / 64; }
// Every one of `others` others (the bits past them in the last word clear).
inline CoverBits all_others(std::size_t others) {
    CoverBits b(cover_words(others), ~std::uint64_t{0});
    if (others % 64) b.back() = (std::uint64_t{1} << (others % 64)) - 1;
    return b;
}

// Greedy set cover (docs/WINDOWS.md §3c, step 4): candidate c excludes the other types i with bit i
// of excl[c] set; repeatedly picks the unused candidate that excludes the most others not yet
// excluded per unit of cost (the first of equal scores), until every other is excluded, then drops
// (in order) each pick whose exclusions the remaining picks cover. nullopt when the candidates
// together do not exclude every other, or the budget is spent. Word-parallel: one step of a pass
// examines 64 others, and the budget is charged one item per word (tests/test_greedy_cover.cc
// compares it with the one-other-at-a-time greedy on random instances).
std::optional<std::vector<std::size_t>> greedy_cover(const std::vector<CoverBits>& excl,
                                                     const std::vector<std::size_t>& cost, std::size_t others);

// The conjuncts of a characteristic formula offered to greedy_cover, each with the others (0..n-1,
// by index) it excludes; cost = tree size.
struct CoverCandidates {
    std::size_t others = 0;
    std::vector<ltl::Formula> formulas;
    std::vector<CoverBits> excl;
    // Each candidate charges the search budget for its `others` checks (budget.hh); past the budget
    // its column is left empty (excludes nothing), and the caller, which finds the budget spent,
    // discards what it builds.
    template <class Excludes>
    void add(ltl::Formula f, Excludes&& excludes) {
        formulas.push_back(f);
        excl.emplace_back(cover_words(others), 0);
        if (budget_charge(1 + others / kItemsPerPoll)) return;
        CoverBits& col = excl.back();
        for (std::size_t i = 0; i < others; ++i)
            if (excludes(i)) col[i / 64] |= std::uint64_t{1} << (i % 64);
    }
    // A candidate whose column is already known (from an OthersIndex): charges one item per word.
    void add_column(ltl::Formula f, CoverBits col) {
        formulas.push_back(f);
        if (budget_charge(1 + col.size() / kItemsPerPoll)) col.assign(cover_words(others), 0);
        excl.push_back(std::move(col));
    }
    // The conjunction of the greedy choice; nullopt when the candidates do not exclude every other.
    std::optional<ltl::Formula> cover() const;
    ltl::Formula all() const { return ltl::conjunction(formulas); }
};

// The others of one level (the types a weakened characteristic formula must exclude), indexed once
// for every type of the level that needs a cover of them (docs/WINDOWS.md §3c, step 4): for each
// value of an other's ground type, of its own level-(j-1) type and of each type in its window, the
// others that have it, as bits. The columns of the candidates "same ground type", "same own type"
// and "Y<=k chi(s)" are then complements of these sets, one word operation per 64 others, where
// testing each other costs one comparison or binary search per other and per candidate. Building
// charges one item per (other, key) pair and the memory of the sets (budget.hh); past the budget
// the sets are left incomplete, and the caller, which finds the budget spent, discards what it builds.
struct OthersIndex {
    std::size_t others = 0;
    std::unordered_map<long, CoverBits> ground, own, member;
    bool complete = false;  // built within the budget; otherwise differs() excludes nothing
    OthersIndex(const WindowTypes& types, const std::vector<long>& others);
    // The others whose key under `by` is not `key` (all others when none has it).
    CoverBits differs(const std::unordered_map<long, CoverBits>& by, long key) const;
};

// The word that a breadth-first exploration reached state s by: parent[s] = (previous state, letter),
// (-1, -1) at the start.
Word word_from_parents(const std::vector<std::pair<std::int32_t, std::int32_t>>& parent, std::int32_t s);

// The window part of the product automata of the window-type and sink-state strategies: after the DFA state, a
// state holds the level-0..D-1 types of the last k positions (oldest first, -1 before the word).
// levels() computes the level-0..D types of a new position (or EOS) into `fresh`; shift() writes
// the windows of the successor state after that position into nx[1..D*k].
struct WindowTypeStep {
    WindowTypes& types;
    unsigned D;
    std::vector<long> fresh = std::vector<long>(D + 1), win = {};
    // past >= 0: the level-0 type also holds the set of letters before the position (bit mask)
    void levels(const std::vector<long>& st, long label, long past = -1) {
        const std::ptrdiff_t k = static_cast<std::ptrdiff_t>(types.k);
        fresh[0] = past < 0 ? types.intern({-2, label}) : types.intern({-2, label, past});
        for (unsigned j = 1; j <= D; ++j) {
            win.assign(st.begin() + 1 + std::ptrdiff_t(j - 1) * k, st.begin() + 1 + std::ptrdiff_t(j) * k);
            win.erase(std::remove(win.begin(), win.end(), -1L), win.end());
            std::sort(win.begin(), win.end());
            win.erase(std::unique(win.begin(), win.end()), win.end());
            std::vector<long> sig{fresh[j - 1]};
            sig.insert(sig.end(), win.begin(), win.end());
            fresh[j] = types.intern(std::move(sig));
        }
    }
    void shift(const std::vector<long>& st, std::vector<long>& nx) const {
        const std::size_t k = types.k;
        for (unsigned j = 0; j < D; ++j) {
            const std::size_t base = 1 + std::size_t(j) * k;
            for (std::size_t i = 0; i + 1 < k; ++i) nx[base + i] = st[base + i + 1];
            nx[base + k - 1] = fresh[j];
        }
    }
};

struct LongVecHash {
    std::size_t operator()(const std::vector<long>& v) const noexcept {
        std::uint64_t h = 0x9e3779b97f4a7c15ULL ^ v.size();
        for (long x : v) h = splitmix64(h ^ static_cast<std::uint64_t>(x));
        return static_cast<std::size_t>(h);
    }
};

// --- "yes" by characteristic formulas of window types (window_type_formulas.cc)
struct WindowTypeSearchReport {
    ltl::Formula formula;
    unsigned depth = 0;           // window depth D of the types
    std::size_t rounds = 0, states = 0;  // rounds over all depths; product states explored
};
WindowTypeSearchReport search_window_types(const Dfa& minimal, unsigned k, bool hybrid, unsigned max_depth, std::size_t max_states,
                               unsigned past_depth);

}  // namespace ltlkit::automata::algebra::window_strategies
