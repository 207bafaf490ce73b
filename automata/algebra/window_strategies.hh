// The strategies behind decide_local_k / decide_hybrid_k (windows.hh), one file each, and what
// they share. Internal to the window decisions: the CLI and the tests use windows.hh.
//   folded_graph.cc          "no": a word family whose folded graphs have bisimilar EOS nodes
//   formula_synthesis.cc     "yes": enumerative formula search on a word sample, compiled back
//   window_type_formulas.cc  "yes": Boolean combinations of characteristic formulas of window types,
//                            and formulas for languages decided by entering a sink state
//   window_decide.cc         decide: the strategies in order, and the certificate each one writes
//   window_certificate_check.cc  the independent checker of window certificates
// The exact depth probe is depth_probe.hh; window types are WindowTypes (windows.hh).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "automata/algebra/windows.hh"
#include "automata/certificate.hh"
#include "automata/dfa.hh"
#include "ltl/formula.hh"

namespace ltlkit::automata::algebra::window_strategies {

inline std::string class_id(bool hybrid, unsigned k) {
    return std::string(hybrid ? "hybrid_k:" : "local_k:") + std::to_string(k);
}
inline std::string fragment_name(bool hybrid, unsigned k) {
    return std::string(hybrid ? "LTL[P,Y<=" : "LTL[Y<=") + std::to_string(k) + "]";
}

// Every word of length lo..hi over letters 0..n-1, shortest first.
std::vector<Word> words_between(std::size_t n, std::size_t lo, std::size_t hi);

// --- "no" (folded_graph.cc)
struct NoSearchBounds {
    std::size_t max_p, max_tail, max_x;
};
NoSearchBounds no_bounds(std::size_t sigma, unsigned k, bool hybrid, const WindowOptions& o);
// A family x·p^r·y / x·p^r·z within the bounds whose membership differs for all large r while the
// EOS nodes of its folded graphs are bisimilar; steps counts search steps, exhausted says whether
// the bounds were searched to the end.
std::optional<WordFamily> search_family(const Dfa& dfa, unsigned k, bool hybrid, const WindowOptions& o,
                                        std::size_t* steps, bool* exhausted);

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

// --- "yes" by characteristic formulas of window types (window_type_formulas.cc)
struct TypedSearchReport {
    ltl::Formula formula;
    unsigned depth = 0;           // window depth D of the types
    std::size_t rounds = 0, states = 0;  // rounds over all depths; product states explored
};
TypedSearchReport search_typed(const Dfa& minimal, unsigned k, bool hybrid, unsigned max_depth, std::size_t max_states,
                               unsigned past_depth);

}  // namespace ltlkit::automata::algebra::window_strategies
