// Classification of a regular language (given by its minimal DFA) into the classes of docs/CLASSES.md §1–2,
// with certificates (docs/CLASSES.md §3), and the predictions per attention architecture (docs/CLASSES.md §4).
// The single source of truth is the class table (classes.hh); this header is the public API the
// CLI, the dataset generator and the verifier use.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "automata/algebra/certificate_check.hh"
#include "automata/architecture.hh"
#include "automata/certificate.hh"
#include "automata/class_id.hh"
#include "automata/dfa.hh"
#include "ltl/formula.hh"

namespace ltlkit::automata::algebra {

struct ClassifyOptions {
    unsigned max_k = 4;                    // windows 2..max_k for local_k / hybrid_k
    std::size_t max_elements = 1'000'000;  // semigroup size limit (--max-elements)
    std::size_t formula_cap = 200'000;     // member formulas larger than this are omitted
    std::size_t window_budget = 200'000;   // search steps per windows question (WindowOptions)
    unsigned probe_depth = 8;               // depth probe behind an unknown window answer (WindowOptions)
    std::size_t probe_states = 500'000;
    // Budget shared by all window questions (local_k, hybrid_k), each question getting an equal
    // share of what is left: work (polls of the searches, budget.hh; 0 = none), which gives the
    // same answers on any machine under any load; optionally seconds on the budget clock (0 =
    // none); and, per question, the growth of the resident memory (0 = none). A question that
    // reaches a bound answers unknown and names it. kDefaultWindowWork is calibrated in
    // docs/PERFORMANCE.md ("Window budget in work").
    static constexpr std::uint64_t kDefaultWindowWork = 1'000'000;
    std::uint64_t window_work = kDefaultWindowWork;
    double window_time_s = 0;
    std::size_t window_memory_bytes = std::size_t(400) << 20;
    // After every window question has been asked once, the work and time they left unused go to
    // the questions a work or time bound stopped, in equal shares, each asked again when its share
    // is larger than the one it had (docs/WINDOWS.md §5b). Within the same budget, so it never costs
    // more than the budget; off, every question is asked once.
    bool window_second_round = true;
    // For a definite language (hybrid_k = local_k, Corollary 10.7): with the second round on and a
    // work or time budget, the local questions share the budget first, and a hybrid question is asked
    // only where its local answer stayed unknown, with what the local ones left (docs/WINDOWS.md §5b).
    bool window_definite_local_first = true;
    // Called about once a second while a window question runs longer than a second.
    std::function<void(const std::string& question, double seconds, std::size_t resident_bytes)> progress;
    // The formula the language was written as (null: none). A formula that lies in LTL[Y<=k] or
    // LTL[P,Y<=k] by its syntax is that question's certificate, compiled back like every other.
    ltl::Formula source;
};

struct Classification {
    std::vector<std::string> alphabet;
    std::size_t states = 0;  // minimal complete DFA, sink included
    // table class -> membership; nullopt when only decidable through a semigroup over max_elements.
    // Keyed by ClassId in the order of their names (class_id.hh), as the JSON lists them.
    ClassMap<std::optional<bool>> classes;
    ClassMap<std::string> null_reasons;
    std::optional<std::size_t> definite_degree;
    std::map<unsigned, Answer> local_k;   // k = 2..max_k
    std::map<unsigned, Answer> hybrid_k;  // k = 2..max_k
    ClassMap<Certificate> certificates;  // table and window class -> certificate
};

Result<Classification> classify(const Dfa& minimal, const ClassifyOptions& options = {});

// The inclusions LTL[Y<=qk] ⊆ LTL[Y<=k] and LTL[P,Y<=qk] ⊆ LTL[P,Y<=k] (Y<=qk φ is q nested Y<=k)
// and LTL[Y<=k] ⊆ LTL[P,Y<=k], applied to the unknown window answers of `c` until nothing changes:
// a yes at qk with a formula gives a yes at k (the formula unfolded and compiled back), a no at k
// by a word family gives a no at qk (the same family; the checker re-verifies it for window qk),
// a local yes a hybrid yes and a hybrid no a local no. classify ends with it.
void apply_window_inclusions(const Dfa& minimal, unsigned max_k, std::size_t formula_cap, Classification& c);

struct ArchPrediction {
    Architecture arch;
    Prediction prediction = Prediction::Unknown;  // automata/architecture.hh
    std::string reason;                 // e.g. "not r_trivial: SCC {1,2}"
    std::optional<WordFamily> witness;  // for Fails: the family that should expose the failure
};

// The class whose membership an architecture's prediction is: the table row naming it (global <->
// r_trivial, local-1 <-> definite, hybrid-1 <-> locally_r_trivial), else local-K <-> local_k:K and
// hybrid-K <-> hybrid_k:K for K >= 2; nullopt for an architecture the theory does not cover (lstm).
std::optional<ClassId> predicting_class(const Architecture& arch);
// The prediction from that class's answer; Unknown for an architecture without one or a K above max_k.
ArchPrediction predict(const Classification& c, const Architecture& arch);

// Why `p` (= predict(c, p.arch)) follows, as one sentence naming the class or window answer and
// its logic: "the language is R-trivial (LTL[P])", "no LTL[Y<=2] formula defines the language
// (local_k:2: no)"; with the language's minimal DFA, a window failure goes on with
// window_failure_reason.
std::string explain_prediction(const Classification& c, const ArchPrediction& p, const Dfa* dfa = nullptr);
// Why window K >= 2 fails (p a `fails` prediction of local-K / hybrid-K with its witness family;
// "" otherwise): the family with concrete words labelled by `dfa` (the words of labelled_witness),
// the symbols the window sees at their ends, the bisimilarity behind it, and, when a smaller window
// recognizes the language, that membership is not monotone in k and why (docs/WINDOWS.md §8).
std::string window_failure_reason(const Classification& c, const ArchPrediction& p, const Dfa& dfa);
// The witness pair of a `fails` prediction at r = max(r_min, 2), as {accepted, rejected} by `dfa`.
std::optional<std::pair<Word, Word>> labelled_witness(const ArchPrediction& p, const Dfa& dfa);

// check_certificate_json, the independent checker, is in certificate_check.hh (included above).

}  // namespace ltlkit::automata::algebra
