// The subregular classes of docs/SUBREGULAR.md — finite, cofinite, SL (strictly local), SP (strictly
// piecewise), LT, PT, LTT, TSL (tier-based strictly local), DA (= FO²[<]) and aperiodic commutative —
// with their parameters (least k, threshold t, tier), each decided on the minimal DFA or its
// syntactic semigroup by the published characterization that docs/SUBREGULAR.md cites, and with a
// certificate that check_subregular_certificate re-verifies by another route (e.g. the SL-k
// language rebuilt from the forbidden factors and compared with the embedded DFA).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "automata/class_id.hh"
#include "automata/dfa.hh"
#include "base/error.hh"

namespace ltlkit::automata::algebra {

// The subregular classes in display order (the keys of `classify --json`'s "subregular" object).
const std::vector<ClassId>& subregular_class_ids();
// Whether the text names a subregular class (parse_class_id).
bool is_subregular_class(const std::string& text);

struct SubregularOptions {
    unsigned max_k = 4;                    // LT-k / PT-k / LTT-(k,t) searched for k <= max_k
    unsigned max_t = 3;                    // LTT thresholds searched for t <= max_t
    std::size_t max_type_states = 20'000;   // product states of one k-type search (LT-k, PT-k, LTT)
    std::size_t max_elements = 20'000;     // syntactic semigroup limit (DA, LTT, and LT/PT membership)
    std::size_t max_listed = 2'000;        // forbidden factors / subsequences listed in a certificate
    // Pair graph (SL, TSL) above this many live states: undecided (4 bytes per pair: 32 MB at 4,000);
    // SP's pair search stops after max_pair_states² / 2 pairs.
    std::size_t max_pair_states = 4'000;
};

// The largest values the limits above may take (classify's options, Python's keyword arguments and
// the "limits" a certificate records, which its checker re-runs): the pair graph at 30,000 live
// states is 1.8 GB.
struct SubregularLimitCaps {
    static constexpr std::size_t max_pair_states = 30'000;
    static constexpr std::size_t max_type_states = 5'000'000;
    static constexpr std::size_t max_elements = 1'000'000;
    static constexpr unsigned max_k = 16, max_t = 16;
    static constexpr std::size_t max_listed = 100'000;
};

struct SubregularDecision {
    ClassId id;                     // ClassKind::SL, ... (written by to_string)
    std::optional<bool> member;     // nullopt: a limit was reached (fact says which)
    nlohmann::ordered_json params;  // {"k": 2}, {"k": 2, "t": 1}, {"tier": [...], "k": 2}; {} when none
    std::string fact;               // one line a person can read
    // The certificate object without the DFA: {"class", "member", "kind": "subregular", "params",
    // "fact", ...kind-specific fields}; certificate_json adds the DFA.
    nlohmann::ordered_json certificate;
};

// Every class of subregular_class_ids() for the language of a minimal DFA.
std::vector<SubregularDecision> classify_subregular(const Dfa& minimal, const SubregularOptions& options = {});
// One class (nullopt for an unknown id).
std::optional<SubregularDecision> decide_subregular(const ClassId& id, const Dfa& minimal,
                                                    const SubregularOptions& options = {});

// The certificate with the DFA embedded (as `ltlkit check-certificate` reads it).
std::string subregular_certificate_json(const SubregularDecision& d, const Dfa& minimal);
// Re-verifies such a certificate (already parsed): true holds, false does not, Error malformed.
Result<bool> check_subregular_certificate(const nlohmann::json& j, std::string* explanation = nullptr);

// Where the class sits relative to LTL[P] (global attention), LTL[Y<=k] (local attention) and
// LTL[P,Y<=k] (hybrid), as proved in docs/SUBREGULAR.md §3; "" when nothing is proved.
std::string subregular_prediction_note(const SubregularDecision& d);

// `classify --json`'s "subregular" object: {id: {"member", "params", "fact", "prediction"}}.
nlohmann::ordered_json subregular_summary_json(const std::vector<SubregularDecision>& ds);

// ---- building blocks (also used by the tests as the independent routes)

// The SL-k language given by forbidden k-factors over Σ ∪ {⋊, ⋉} (strings written with the symbols
// of `alphabet`, ⋊ = kLeftMarker, ⋉ = kRightMarker; a factor shorter than k must start with ⋊ and
// end with ⋉ and stands for a whole marked word), as a minimal DFA.
inline constexpr Symbol kLeftMarker = 0xFFFFFFFEu;
inline constexpr Symbol kRightMarker = 0xFFFFFFFFu;
Dfa sl_dfa_from_forbidden(const std::vector<std::string>& alphabet, unsigned k, const std::vector<Word>& forbidden);
// The SP language of words with no forbidden subsequence, as a minimal DFA.
// A DFA over a tier lifted to `alphabet` ⊇ its letters: the others loop on every state (minimal).
Dfa lift_tier_dfa(const Dfa& over_tier, const std::vector<std::string>& alphabet);
Dfa sp_dfa_from_forbidden(const std::vector<std::string>& alphabet, const std::vector<Word>& forbidden);
// k-types of a word: PT (the set of subsequences of length <= k), LT (k-factors of ⋊w⋉ as a set;
// the whole ⋊w⋉ when shorter), LTT (the same counted up to threshold t). Equal types = same class.
std::vector<Word> pt_type(const Word& w, unsigned k);
std::vector<Word> lt_type(const Word& w, unsigned k);
std::vector<std::pair<Word, std::size_t>> ltt_type(const Word& w, unsigned k, unsigned t);
// Text of a marked word (⋊ and ⋉ written as such).
std::string marked_word_text(const std::vector<std::string>& alphabet, const Word& w);

}  // namespace ltlkit::automata::algebra

namespace ltlkit::automata::algebra {

// Random minimal DFAs of one subregular class (docs/SUBREGULAR.md §5), for `ltlkit suite`. Each draw
// is a random complete DFA with a uniform number of states in [min_states, max_states] and one of
// three shapes (uniform transitions; partially ordered; mostly self-loops), or for SL / TSL / SP
// with probability 1/2 the language of a random set of forbidden factors / subsequences; it is
// minimized and kept when the class decides it a member with the requested least k (and t), and its
// language was not drawn before. So the draw is rejection sampling over that distribution: uniform
// neither over languages nor over DFAs of a size, but reproducible from the seed.
struct SuiteRequest {
    std::string cls;
    std::optional<unsigned> k, t;
    std::vector<std::string> alphabet;
    std::size_t count = 10;
    std::uint64_t seed = 1;
    std::size_t min_states = 1, max_states = 6;
    std::size_t max_draws = 200'000;
    bool proper_tier = false;  // TSL: the tier a proper subset of the alphabet (--proper-tier)
};
struct SuiteDraw {
    std::vector<Dfa> dfas;
    std::vector<SubregularDecision> decisions;
    std::size_t draws = 0;  // candidates drawn in all
};
Result<SuiteDraw> draw_suite(const SuiteRequest& r);

}  // namespace ltlkit::automata::algebra
