// Classification of a regular language (given by its minimal DFA) into the classes of SPEC §4,
// with certificates (SPEC §6), and the predictions per attention architecture (SPEC §7).
// The single source of truth is the class table (classes.hh); this header is the public API the
// CLI, the dataset generator and the verifier use.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "automata/dfa.hh"
#include "ltl/formula.hh"

namespace ltlkit::automata::algebra {

// The words x·p^r·y and x·p^r·z: membership differs for every r >= r_min, and the architecture /
// fragment named by the certificate cannot separate them for large r.
struct WordFamily {
    Word x, p, y, z;
    std::size_t r_min = 1;
    // Extensions (added by the classifier; empty = the plain form above). Use at(), never
    // concatenate the fields by hand:
    // - x2 non-empty-or-set: the second word starts with x2 instead of x (x·p^r·y vs x2·p^r·z),
    //   for prefix-separated families such as the non-definite one (Σ* a vs aΣ*: no common prefix
    //   can work for aΣ*).
    // - e non-empty: every kLoopMarker symbol in p, y, z stands for e^r (the locally R-trivial
    //   family x·(e^r u e^r v e^r)^r·y vs x·(e^r u e^r v e^r)^r·e^r u e^r·y).
    std::optional<Word> x2;
    Word e;
    static constexpr Symbol kLoopMarker = 0xFFFFFFFFu;
    // Materialize the pair for a given r: {x p^r y, x p^r z} (with the extensions applied).
    std::pair<Word, Word> at(std::size_t r) const;
};

// A certificate (SPEC §6) as a value: the checker re-verifies it, the report prints it.
struct Certificate {
    std::string class_id;   // "definite", ..., or "local_k:2" / "hybrid_k:3"
    bool member = false;
    bool unknown = false;   // neither member nor non-member: written as "member": null
    std::string kind;       // how it is proved, e.g. "scc_trivial", "common_loop", "formula", ...
    std::string fact;       // one line a person can read
    std::optional<std::string> formula;          // member formula of the fragment (ASCII syntax)
    std::optional<std::string> formula_omitted;  // reason, when the formula exceeds the cap
    std::optional<WordFamily> family;            // non-member witness family
    std::vector<std::pair<Word, Word>> pairs;    // concrete [accepted, rejected] pairs
    std::string extra_json = "{}";               // kind-specific fields, merged into the JSON object
};

enum class Answer { Yes, No, Unknown };
std::string to_string(Answer a);  // "yes" / "no" / "unknown"

struct ClassifyOptions {
    unsigned max_k = 4;                    // windows 2..max_k for local_k / hybrid_k
    std::size_t max_elements = 1'000'000;  // semigroup size limit (--max-elements)
    std::size_t formula_cap = 200'000;     // member formulas larger than this are omitted
    std::size_t window_budget = 200'000;   // search steps per windows question (WindowOptions)
    unsigned probe_depth = 8;               // depth probe behind an unknown window answer (WindowOptions)
    std::size_t probe_states = 500'000;
    // Budget shared by all window questions (local_k, hybrid_k): wall seconds in all (0 = none), each
    // question getting an equal share of what is left, and the resident memory of the process
    // (0 = none). A question that reaches a bound answers unknown and names it.
    double window_time_s = 4;
    std::size_t window_memory_bytes = std::size_t(400) << 20;
    // Called about once a second while a window question runs longer than a second.
    std::function<void(const std::string& question, double seconds, std::size_t resident_bytes)> progress;
    // The formula the language was written as (null: none). A formula that lies in LTL[Y<=k] or
    // LTL[P,Y<=k] by its syntax is that question's certificate, compiled back like every other.
    ltl::Formula source;
};

struct Classification {
    std::vector<std::string> alphabet;
    std::size_t states = 0;  // minimal complete DFA, sink included
    // class id -> membership; nullopt when only decidable through a semigroup over max_elements.
    std::map<std::string, std::optional<bool>> classes;
    std::map<std::string, std::string> null_reasons;
    std::optional<std::size_t> definite_degree;
    std::map<unsigned, Answer> local_k;   // k = 2..max_k
    std::map<unsigned, Answer> hybrid_k;  // k = 2..max_k
    std::map<std::string, Certificate> certificates;  // class id (or "local_k:K") -> certificate
};

Result<Classification> classify(const Dfa& minimal, const ClassifyOptions& options = {});

enum class Prediction { Recognizes, Fails, Unknown };
std::string to_string(Prediction p);  // "recognizes" / "fails" / "unknown"

struct ArchPrediction {
    std::string arch;  // "global", "local-K", "hybrid-K"
    Prediction prediction = Prediction::Unknown;
    std::string reason;                 // e.g. "not r_trivial: SCC {1,2}"
    std::optional<WordFamily> witness;  // for Fails: the family that should expose the failure
};

// global <-> r_trivial; local-1 <-> definite; local-K <-> local_k[K]; hybrid-1 <->
// locally_r_trivial; hybrid-K <-> hybrid_k[K]. Unknown for an arch name it cannot parse or a
// K above max_k.
ArchPrediction predict(const Classification& c, const std::string& arch);

// Why `p` (= predict(c, arch)) follows, as one sentence naming the class or window answer and its
// logic: "the language is R-trivial (LTL[P])", "no LTL[Y<=2] formula defines the language
// (local_k:2: no)".
std::string explain_prediction(const Classification& c, const std::string& arch, const ArchPrediction& p);
// The witness pair of a `fails` prediction at r = max(r_min, 2), as {accepted, rejected} by `dfa`.
std::optional<std::pair<Word, Word>> labelled_witness(const ArchPrediction& p, const Dfa& dfa);

// Certificate JSON (SPEC §6) with the DFA embedded, and the independent checker behind
// `ltlkit check-certificate`: returns true when it holds, false when it does not, Error on bad input.
std::string certificate_to_json(const Certificate& cert, const Dfa& dfa);
Result<bool> check_certificate_json(const std::string& text, std::string* explanation = nullptr);

}  // namespace ltlkit::automata::algebra
