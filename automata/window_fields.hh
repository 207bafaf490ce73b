// The fields of the window certificates (local_k:K, hybrid_k:K; docs/WINDOWS.md §6) as one value:
// what window_decide and classify record beside the formula, the family or the pairs of a window
// answer — how a formula was found, for which modalities a family's folded graphs are bisimilar and
// where it came from, the depth-d EOS types, the record of an unknown answer, and the claim that an
// answer is complete. Certificate::window holds it (automata/certificate.hh); certificate_to_json
// writes it (to_json below, merged in key order into the certificate object), certificate_from_json
// reads it back (window_fields_from_json) and the window checker re-verifies what it claims. Every
// member keeps the JSON name it is written under; an absent optional is a field not written.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "automata/dfa.hh"
#include "base/error.hh"

namespace ltlkit::automata {

// "complete": the claim that a yes/no answer of a definite language is complete by Corollary 10.5
// (with Theorem 10.6 for hybrid_k), re-checked by recomputing (sigma, k, delta).
struct CompletenessClaim {
    std::string by = {};  // the results it rests on, for people
    std::size_t sigma = 0;
    unsigned k = 0;
    std::size_t delta = 0;
    bool operator==(const CompletenessClaim&) const = default;
};

// "bounds" of an unknown answer: how far the searches went.
struct SearchBounds {
    std::size_t max_p = 0, max_tail = 0;
    std::optional<std::size_t> max_x = {};  // nullopt: "every state" (one shortest word to each)
    std::size_t formula_pool = 0, formula_size = 0, search_budget = 0;
    unsigned type_depth = 0, probe_depth = 0;
    std::size_t probe_states = 0;
    bool operator==(const SearchBounds&) const = default;
};
// One of "cuts": a strategy a bound of the budget stopped, the steps it used and its share.
struct BudgetCut {
    std::string strategy = {}, bound = {};  // bound: "work", "time" or "memory"
    std::uint64_t steps = 0, share = 0;
    bool operator==(const BudgetCut&) const = default;
};
// "budget": the bound that ended the question, its amount and the option that raises it.
struct BudgetStop {
    enum class Bound { Work, Time, Memory };
    Bound bound = Bound::Work;
    std::uint64_t amount = 0;  // steps (work) or bytes (memory)
    double seconds = 0;        // time
    std::optional<std::string> strategy = {};  // the last strategy it cut
    bool operator==(const BudgetStop&) const = default;
};

struct WindowFields {
    std::optional<unsigned> k = {};  // the window, as the class id says
    // A "yes" by a formula (kind formula): its tree size, the route that found it ("sink",
    // "closed_sets", "depth_types", "periodic_pair", "corollary_10_5", "unfolded_from_k_M", ...),
    // and the strategies' parameters.
    std::optional<std::size_t> formula_size = {};
    std::optional<std::string> route = {};
    std::optional<std::size_t> type_depth = {}, past_depth = {};
    std::optional<bool> past_letters = {}, mixed = {}, nested_marks = {};
    // A "yes" by the depth-d EOS types (kind depth_types, no formula): the depth the checker
    // re-explores; types "window": on a hybrid class, the LTL[Y<=k] types already separate.
    std::optional<std::size_t> depth = {}, probe_states = {};
    std::optional<std::string> types = {};
    // A "no" by a family (window_bisimulation / hybrid_bisimulation): the modalities its folded
    // graphs are bisimilar for ("window" or "window+past"), its form and source; with reduction
    // "bottom_scc" (Theorem 10.6) the family lies behind a word into a bottom SCC, or, with
    // residual_not_definite, the residual after x is not definite; with reduction "scc"
    // (Corollary 10.11) its words, read from the state after x, stay inside that state's SCC for
    // every r >= r_min (checked with the window modality alone); bisimilar_for_k: a family for
    // that window carried to k, a multiple of it.
    std::optional<std::string> modalities = {}, family_form = {}, family_source = {}, reduction = {};
    std::optional<bool> residual_not_definite = {};
    std::optional<Word> x = {};
    std::optional<unsigned> bisimilar_for_k = {};
    // Zero letters removed before the question (Proposition 10.10, docs/WINDOWS.md §10): the rest of
    // the certificate is about the language without them; the checker removes them first.
    std::optional<std::vector<std::string>> zero_letters = {};
    // A hybrid "yes" by Theorem 10.8 without a formula (route "transient_dag"): one local_k
    // certificate (a JSON object, its DFA embedded) per bottom state entered from a transient state,
    // in the order of a breadth-first search; null for a residual of one state (∅ or Σ*).
    std::optional<nlohmann::json> residuals = {};
    // A hybrid "yes" by the closed-set strategy without a formula (kind depth_types, types
    // "closed_sets"; docs/WINDOWS.md §3d, "Without a formula"): {"sets": [{"states": [words, one
    // into each state of the set], "depth", "past_letters", "nested", "marks": [indices of earlier
    // sets]}, ...], "decision": {"depth", "past_letters", "nested", "marks"}}.
    std::optional<nlohmann::json> closed_sets = {};
    // An unknown answer (kind search_exhausted): the bounds reached, the depth lower bound (its
    // witness is the certificate's first pair), the strategies a budget stopped, the bound that
    // ended the question.
    std::optional<SearchBounds> bounds = {};
    std::optional<std::size_t> depth_lower_bound = {};
    std::vector<BudgetCut> cuts = {};
    std::optional<BudgetStop> budget = {};
    // Any yes/no answer of a definite language in Corollary 10.5's range.
    std::optional<CompletenessClaim> complete = {};
    bool operator==(const WindowFields&) const = default;
};

// The fields as one JSON object (keys sorted, as every certificate's fields are written).
nlohmann::json to_json(const WindowFields& f, const std::vector<std::string>& alphabet);

// The window fields of a certificate's JSON object: nullopt when it has none of their keys; an error
// names a field of the wrong type ("certificate field \"depth\" must be a non-negative integer").
Result<std::optional<WindowFields>> window_fields_from_json(const nlohmann::json& j, const std::vector<std::string>& alphabet);

// The keys WindowFields is written under.
bool is_window_field(const std::string& key);

}  // namespace ltlkit::automata
