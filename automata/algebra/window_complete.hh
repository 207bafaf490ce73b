// The local window fragment LTL[Y<=k] on definite languages, through the universal partition of
// docs/WINDOWS.md §10: a δ-definite language over s letters is in LTL[Y<=k] iff its last-δ-letters
// labelling is constant on the blocks of a partition Π(s, k, δ) of Σ^δ that does not depend on the
// language. Two routes bound Π from both sides:
//   - from above (coarser): E_d, the pairs of δ-suffixes of words whose depth-d EOS types are equal,
//     computed exactly by a breadth-first exploration of the depth-d type automaton;
//   - from below (finer): the pairs of δ-suffixes of two ultimately periodic left-infinite words
//     ^ω p·y, ^ω q·z (Lyndon p, q) whose EOS nodes are bisimilar in one finite graph holding every
//     such word within the bounds.
// When the two partitions coincide, Π is known exactly (Theorem 10.3), and with it the answer for
// every δ-definite language over s letters at window k.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "automata/certificate.hh"
#include "automata/dfa.hh"

namespace ltlkit::automata::algebra {

struct PeriodicBounds {
    std::size_t max_period = 0;  // |p| of the Lyndon words p
    std::size_t max_tail = 0;    // |y|
};

// The partition of Σ^δ (index of a word: base-s digits, first letter most significant) into the
// blocks of E_d (coarse) and of the periodic witnesses (fine), as block representatives.
struct LocalPartition {
    std::size_t sigma = 0, delta = 0;
    unsigned k = 0;
    std::vector<std::size_t> witness_blocks;  // per δ-word: the representative of its block
    std::vector<std::size_t> depth_blocks;    // of E_depth, at the last depth computed
    unsigned depth = 0;                       // last depth computed
    std::size_t witness_count = 0, depth_count = 0;  // numbers of blocks
    std::size_t type_states = 0;                      // states of the last type exploration
    bool certified = false;  // the two partitions are equal: Π(sigma, k, delta) = depth_blocks
    bool stopped = false;    // the state bound or the installed budget (budget.hh) ended it
    // Some witness block is not inside an E_d block: impossible by Lemma 10.2 (a defect if set).
    bool inconsistent = false;
};

// Computes the periodic-witness partition once, then E_1, E_2, ... up to max_depth, stopping at the
// first depth where the partitions agree (certified), at max_states type-automaton states, or when
// the installed budget runs out.
LocalPartition local_partition(std::size_t sigma, unsigned k, std::size_t delta, unsigned max_depth,
                               PeriodicBounds bounds, std::size_t max_states);

// The pairs of δ-suffixes (as index pairs) of words with equal depth-d EOS types, as blocks
// (union-find representatives) — the coarse side alone, for tests.
std::vector<std::size_t> local_depth_blocks(std::size_t sigma, unsigned k, std::size_t delta, unsigned depth,
                                            std::size_t max_states, std::size_t* states, bool* stopped);

// Corollary 10.5's range (docs/WINDOWS.md §10): the largest δ such that Π(sigma, k, δ') was certified
// for every δ' = 1..δ by bench_window_partition (the table of §10), 0 when none. The one place the
// table lives in code; classify and check-certificate both read it.
std::size_t corollary_10_5_max_delta(std::size_t sigma, unsigned k);

// The degree δ >= 1 of a definite minimal DFA (definite_degree_by_merging) when (|Σ|, k, δ) lies in
// Corollary 10.5's range; nullopt otherwise (not definite, δ = 0, or outside the range).
std::optional<std::size_t> corollary_10_5_delta(const Dfa& minimal, unsigned k);

// The certificate field "complete" recording that the answer is complete by Corollary 10.5 (for a
// hybrid_k class, with Theorem 10.6: on definite languages LTL[P,Y<=k] and LTL[Y<=k] agree).
CompletenessClaim corollary_10_5_claim(std::size_t sigma, unsigned k, std::size_t delta, bool hybrid);

// Corollary 10.5 recomputed on one DFA: the degree, the range, the partition Π(|Σ|, k, δ) certified
// again (local_partition with periodic_pair_bounds, depths <= 10), and whether the last-δ-letters
// labelling f is constant on its blocks (then the language is in LTL[Y<=k], else not).
struct CorollaryCheck {
    bool holds = false;        // the degree is δ, (|Σ|, k, δ) in range, and Π recertified
    bool member = false;       // f constant on Π's blocks
    std::size_t delta = 0;
    unsigned depth = 0;        // the depth d at which Π_d equals the witness partition
    std::size_t blocks = 0;
    std::string why;           // when !holds: what failed
};
CorollaryCheck check_corollary_10_5(const Dfa& minimal, unsigned k);

namespace window_strategies {

// "No" for LTL[Y<=k] on a definite minimal DFA: two ultimately periodic left-infinite words
// ^ω p·y and ^ω q·z, every Lyndon p, q of length <= max_period and tails <= max_tail at once in one
// graph, with bisimilar EOS nodes and different eventual membership. Returned as a one-period
// family (p = q: x = ε, p, y, z) or an alternating one (p ≠ q, field q), each re-verified with the
// checker's own functions before it is returned. steps counts polls; nullopt when none is found or
// the budget runs out (*exhausted tells which).
std::optional<WordFamily> search_periodic_pair(const Dfa& minimal, unsigned k, PeriodicBounds bounds,
                                               std::size_t* steps, bool* exhausted);

// The default bounds of that search for an alphabet of s letters (about 10^5 graph nodes).
PeriodicBounds periodic_pair_bounds(std::size_t sigma);

}  // namespace window_strategies

}  // namespace ltlkit::automata::algebra
