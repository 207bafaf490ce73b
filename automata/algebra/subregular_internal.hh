// What the subregular deciders (subregular_local.cc, subregular_piecewise.cc,
// subregular_semigroup.cc) and their checker (subregular.cc) share. Internal to automata/algebra.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "automata/algebra/subregular.hh"

namespace ltlkit::automata::algebra::subregular {

using Json = nlohmann::ordered_json;

// A decision with its certificate object filled from the arguments (kind "subregular").
SubregularDecision decision(const ClassId& id, std::optional<bool> member, Json params, const std::string& fact,
                            Json fields = Json::object());

// States from which an accepting state is reachable (co-reachable, "live").
std::vector<std::uint8_t> live_states(const Dfa& d);
// Words as JSON strings (format_word) and marked words as arrays of symbol names ("⋊", "⋉").
Json word_json(const Dfa& d, const Word& w);
Json marked_json(const std::vector<std::string>& alphabet, const Word& w);
Result<Word> word_from_json(const nlohmann::json& j, const std::vector<std::string>& alphabet);
Result<Word> marked_from_json(const nlohmann::json& j, const std::vector<std::string>& alphabet);

// --- SL (subregular_local.cc)
struct SlAnalysis {
    bool cyclic = false;            // not SL for any k
    std::size_t k = 1;              // the least k (when !cyclic)
    std::optional<bool> decided;    // nullopt: over the pair limit
    Json no_below;                  // the suffix-substitution triple refuting SL-(k-1) or every SL-k
    std::optional<std::vector<Word>> forbidden;  // forbidden k-factors (when listable)
    std::size_t forbidden_count = 0;
};
SlAnalysis analyze_sl(const Dfa& d, const SubregularOptions& o);
// Allowed marked k-factors of L (those of ⋊w⋉, w ∈ L; whole ⋊w⋉ when shorter than k); nullopt
// when more than max_buffers (state, last k-1 symbols) pairs are reachable.
std::optional<std::vector<Word>> sl_allowed_factors(const Dfa& d, unsigned k, std::size_t max_buffers);
// All well-formed marked factors of length k and marked whole words shorter than k.
std::vector<Word> sl_all_factors(std::size_t num_symbols, unsigned k);
// Verifies a suffix-substitution triple {u1, u2, x, v1, v2[, loop]} on d for parameter k (|x| = k-1,
// or x looping at both u1 and u2 for "every k"); explanation on failure.
Result<bool> check_sl_triple(const Dfa& d, const nlohmann::json& t, std::optional<std::size_t> k, std::string* why);

SubregularDecision decide_finite(const Dfa& d, bool cofinite, const SubregularOptions& o);
SubregularDecision decide_sl(const Dfa& d, const SubregularOptions& o);
SubregularDecision decide_tsl(const Dfa& d, const SubregularOptions& o);

// --- piecewise and k-type searches (subregular_piecewise.cc)
SubregularDecision decide_sp(const Dfa& d, const SubregularOptions& o);
enum class TypeKind { PT, LT, LTT };
struct TypeSearch {
    std::optional<bool> consistent;  // nullopt: over max_type_states
    std::optional<std::pair<Word, Word>> conflict;  // same type, different membership
};
// Is L a union of classes of the k-type (threshold t for LTT)? Exhaustive over the reachable
// states of D × (type automaton).
TypeSearch type_search(const Dfa& d, TypeKind kind, unsigned k, unsigned t, std::size_t max_states);
// `sub` (may be null): the decision of the subclass (SL for LT, SP for PT) whose k bounds the least k.
SubregularDecision decide_pt_lt(const Dfa& d, TypeKind kind, const SubregularOptions& o, const SubregularDecision* sub);
// The limits a bounded search ran under, recorded in a certificate whose least k is not known (the
// checker re-runs the decision under them and expects the same parameters), and read back.
Json limits_json(const SubregularOptions& o);
Result<SubregularOptions> limits_from_json(const nlohmann::json& j);
// {"accepted", "rejected"} of a pair of words.
Json pair_json(const Dfa& d, const std::pair<Word, Word>& p);
// The k a member decision proves (its "k", else its "k_at_most"), or nullopt.
std::optional<std::size_t> known_k(const SubregularDecision* sub);

// --- semigroup classes (subregular_semigroup.cc)
SubregularDecision decide_da(const Dfa& d, const SubregularOptions& o);
// `lt` (may be null): the LT decision; LT-k ⊆ LTT-(k,1) bounds the least (k, t).
SubregularDecision decide_ltt(const Dfa& d, const SubregularOptions& o, const SubregularDecision* lt);
SubregularDecision decide_aperiodic_commutative(const Dfa& d);
// The identities the checker evaluates on transformations: "da" ((xy)^ω x (xy)^ω = (xy)^ω),
// "tw" (e x f y e z f = e z f y e x f, e and f idempotent), "commutative" (xy = yx),
// "aperiodic" (x^ω = x^(ω+1)). true when the named words violate it.
Result<bool> identity_violated(const Dfa& d, const std::string& identity, const nlohmann::json& words, std::string* why);

}  // namespace ltlkit::automata::algebra::subregular
