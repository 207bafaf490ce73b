// Random suites of the PREDICTION classes (docs/SUBREGULAR.md §5b): minimal DFAs drawn at random
// and kept when they meet a conjunction of class constraints — any row of the class table
// (classes.hh: definite, r_trivial, locally_r_trivial, ...), any subregular class (subregular.hh:
// SL, SP, LT, ...), or a window class local_k:K / hybrid_k:K (K >= 2, windows.hh), each asked "in"
// or "not in" — or the constraints of one named stratum of prediction_strata() (e.g. r_trivial and
// not definite). The answers are classify's (classify.hh), so a kept language is classified the
// same way later; a candidate whose constrained answer is unknown (a window question out of budget,
// a semigroup over its limit, a subregular search stopped by a limit) is never kept, only counted.
// Constraints that the inclusions between the classes make impossible are refused before any draw.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "automata/algebra/classify.hh"
#include "automata/dfa.hh"
#include "base/error.hh"
#include "ltl/formula.hh"
#include "ltl/fragment.hh"

namespace ltlkit::automata::algebra {

// A class of a constraint, parsed from the user's text: a class-table row, a subregular class or a
// window class local_k:K / hybrid_k:K with 2 <= K <= 64 (parse_class_id with that bound). The error
// names the text and what is allowed.
Result<ClassId> parse_suite_class(const std::string& text);

struct ClassConstraint {
    ClassId cls;
    bool member = true;  // true: in the class; false: not in it
    std::string text() const { return (member ? "" : "not ") + to_string(cls); }
};

// What is known of every class from a set of constraints by the inclusions of docs/CLASSES.md §2,
// docs/SUBREGULAR.md §1 and docs/WINDOWS.md (necessary conditions, LTL[Y<=qk] ⊆ LTL[Y<=k],
// LTL[Y<=k] ⊆ LTL[P,Y<=k], LTL[P] ⊆ LTL[P,Y<=k]): the closure under "A implies B" and its
// contrapositive, and under "R-trivial and L-trivial is J-trivial". Error (one line naming the
// clash) when the constraints contradict each other.
struct ConstraintClosure {
    std::vector<ClassConstraint> known;  // every class with a forced answer (the inputs included)
    std::optional<bool> of(const ClassId& c) const;
};
Result<ConstraintClosure> close_constraints(const std::vector<ClassConstraint>& constraints);

// One named stratum of the theory's predictions.
struct ArchExpectation {
    std::string arch;       // "global", "local-1", "hybrid-1", "local-2", "hybrid-2", ...
    bool recognizes = false;  // the theory predicts that the architecture recognizes the language
};
struct PredictionStratum {
    std::string name;  // "rt_definite", "rt_not_definite", ...
    std::vector<ClassConstraint> constraints;
    std::string description;  // one line
    // The architectures whose class row (classes.hh `arch`) or window class has an answer forced
    // by the constraints, with the prediction (recognizes / fails) it gives.
    std::vector<ArchExpectation> predictions;
};
const std::vector<PredictionStratum>& prediction_strata();
const PredictionStratum* find_stratum(const std::string& name);
// The predictions a set of constraints forces (as in PredictionStratum::predictions), for the
// architectures global, local-1, hybrid-1 and local-K / hybrid-K for every K the constraints name.
std::vector<ArchExpectation> forced_predictions(const std::vector<ClassConstraint>& constraints);
// The constraints of `ltlkit suite [--stratum S] [--class X ...] [--not Z ...]` and of Python's
// suite(): the stratum's (empty: none), then each class in, then each class not in; the class name
// "none" stands for "not locally_r_trivial" (the stratum none) and cannot be negated.
Result<std::vector<ClassConstraint>> suite_constraints(const std::string& stratum, const std::vector<std::string>& in,
                                                       const std::vector<std::string>& not_in);

// Random formulas of a fragment in place of random DFAs (`ltlkit suite --from formulas`).
struct FormulaSource {
    ltl::Fragment fragment;  // P, Y, Y<=K, P,Y or P,Y<=K
    int depth = 3;           // nesting depth of the random formulas (1..8)
};
// "P", "Y", "Y<=K", "P,Y", "P,Y<=K" (K >= 2; LTL[...] around them accepted). Error names the text.
Result<ltl::Fragment> parse_suite_fragment(const std::string& text);
// The class every language of the fragment lies in (r_trivial, definite, local_k:K,
// locally_r_trivial, hybrid_k:K: docs/CLASSES.md §2).
ClassConstraint fragment_class(const ltl::Fragment& f);

struct PredictionSuiteRequest {
    std::vector<ClassConstraint> constraints;  // a conjunction; empty = every language
    std::optional<FormulaSource> formulas;     // draw formulas of a fragment instead of DFAs
    std::vector<std::string> alphabet;
    std::size_t count = 10;
    std::uint64_t seed = 1;
    std::size_t min_states = 1, max_states = 6;  // the kept minimal DFA has min..max states
    std::size_t max_draws = 200'000;
    // Windows asked by classify: 2..max_k (ClassifyOptions::max_k); 0 = the largest K the
    // constraints name (1 when they name none). Must be >= every K named.
    unsigned max_k = 0;
    std::uint64_t window_work = ClassifyOptions::kDefaultWindowWork;  // ClassifyOptions::window_work
};

// What was decided for one kept DFA: the answer of every constrained class (all true to the
// request), and the answers of the three class rows behind the 1-window predictions.
struct ClassAnswer {
    ClassId cls;
    Answer answer = Answer::Unknown;
};
struct PredictionSuiteDraw {
    std::vector<Dfa> dfas;                       // minimal, canonical, distinct languages
    std::vector<std::vector<ClassAnswer>> answers;  // per DFA
    std::vector<std::string> generators;         // per DFA: which generator drew it (docs §5b)
    std::vector<ltl::Formula> formulas;          // per DFA, with FormulaSource: the formula drawn
    std::size_t draws = 0;                       // candidates drawn in all
    std::size_t rejected_unknown = 0;            // candidates dropped for an unknown constrained answer
    std::size_t rejected_size = 0;               // candidates outside min_states..max_states
    std::size_t rejected_duplicate = 0;          // languages already classified (kept or not)
    unsigned max_k = 1;                          // the windows asked (2..max_k)
};
Result<PredictionSuiteDraw> draw_prediction_suite(const PredictionSuiteRequest& r);
// The constraints and, with formulas, the fragment's class (fragment_class): what every kept
// language meets, the base of the predictions of prediction_suite_json.
std::vector<ClassConstraint> request_facts(const PredictionSuiteRequest& r);

// The JSON of `ltlkit suite --json` and of Python's suite() (docs/SUBREGULAR.md §5b), one shape for
// both: constraints [{"class", "member"}], "stratum" (name or null), "predictions" {arch:
// "recognizes" | "fails"}, alphabet, seed, min_states, max_states, max_k, count, draws,
// rejected_unknown, rejected_size, rejected_duplicate, and "languages" [{"name", "states",
// "generator", "answers" {class: "yes" | "no"}, and "formula" when drawn from formulas}] with names
// NAME_STEM-1, NAME_STEM-2, ...; "from" ("dfas" | "formulas"), "fragment" and "depth" (null for DFAs).
nlohmann::ordered_json constraints_json(const std::vector<ClassConstraint>& cs);
nlohmann::ordered_json predictions_json(const std::vector<ArchExpectation>& ps);
nlohmann::ordered_json prediction_suite_json(const PredictionSuiteRequest& r, const PredictionSuiteDraw& d,
                                             const PredictionStratum* stratum, const std::string& name_stem);
// `ltlkit suite --list-strata --json`: [{"name", "constraints", "description", "predictions"}].
nlohmann::ordered_json prediction_strata_json();

// The answer classify gives for one class on a classification (subregular classes through
// decide_subregular with default options, which the classification does not hold).
Answer class_answer(const Classification& c, const Dfa& minimal, const ClassId& cls);

}  // namespace ltlkit::automata::algebra

namespace ltlkit::automata {
class Rng;
}

namespace ltlkit::automata::algebra {

// ---- the random generators (docs/SUBREGULAR.md §5 and §5b), reproducible with automata/random.hh

// A random complete DFA with n states, each accepting with probability 1/2, of one shape: 0 uniform
// transitions, 1 partially ordered (no edge to a smaller state: R-trivial), 2 mostly self-loops
// (an edge leaves with probability 1/3). With no shape given, the shape is drawn uniformly after the
// acceptance bits (the order `ltlkit suite` has always used). Not minimized.
Dfa random_shaped_dfa(Rng& rng, std::size_t n, const std::vector<std::string>& alphabet,
                      std::optional<unsigned> shape = std::nullopt);
// A random definite language of degree <= d: the DFA whose states are the words of length <= d,
// reading a letter appends it (dropping the first letter of a word of length d), each state
// accepting with probability 1/2; with probability 1/2 the states of length d share one random
// answer (then the language is finite or cofinite). Not minimized.
Dfa random_definite_dfa(Rng& rng, unsigned d, const std::vector<std::string>& alphabet);
// A random formula of the fragment (only its operators, Boolean connectives included) over the atoms,
// of nesting depth <= depth: a leaf with probability 1/8 at each level (an atom, or true / false
// with probability 1/(6·|atoms|+1)).
ltl::Formula random_fragment_formula(Rng& rng, const ltl::Fragment& fragment, const std::vector<std::string>& atoms, int depth);

}  // namespace ltlkit::automata::algebra
