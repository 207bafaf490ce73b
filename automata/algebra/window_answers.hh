// The window strategies as answers (window_answers.cc): each search of docs/WINDOWS.md §2–§4 run on
// one question and turned into a decision with its certificate, the depth probe's answer and the
// unknown answer with what was tried. window_decide.cc orders them and shares the budget among them
// (decide_by_search), after the reductions of §10. Internal to the window decisions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "automata/algebra/budget.hh"
#include "automata/algebra/depth_probe.hh"
#include "automata/algebra/window_strategies.hh"
#include "ltl/printer.hh"

namespace ltlkit::automata::algebra::window_answers {

using namespace window_strategies;

inline constexpr unsigned kTypeDepth = 3;  // window depths of the window-type strategy
inline constexpr std::size_t kProbeFormulaDag = 2'000;  // depth-probe formulas compiled back up to this DAG size
inline constexpr unsigned kSinkDepth = 6;  // window depths of the sink-state strategy

// A "yes" by a formula that was compiled back: the certificate, the formula printed up to the cap.
inline WindowDecision formula_decision(ltl::Formula f, std::size_t size, unsigned k, bool hybrid, const std::string& fact,
                                WindowFields fields, const WindowOptions& options) {
    WindowDecision d;
    Certificate& c = d.certificate;
    c.class_id = window_class_id(hybrid, k);
    d.answer = Answer::Yes;
    c.member = true;
    c.kind = CertificateKind::Formula;
    c.fact = fact;
    if (size <= options.max_formula_size)
        c.formula = ltl::to_string(f);
    else
        c.formula_omitted = "formula tree size " + std::to_string(size) + " exceeds the cap " +
                            std::to_string(options.max_formula_size) + " (--formula-cap)";
    fields.k = k;
    fields.formula_size = size;
    c.window = std::move(fields);
    return d;
}

// One window question, and what the strategies that did not answer it leave for the certificate
// of an unknown answer.
struct Question {
    const Dfa& minimal;
    unsigned k;
    bool hybrid;
    const WindowOptions& options;
    std::string frag;  // "LTL[Y<=k]" or "LTL[P,Y<=k]"

    // A "yes" by a formula that was compiled back.
    WindowDecision formula_yes(ltl::Formula f, std::size_t size, const std::string& fact, WindowFields fields = {}) const {
        return formula_decision(f, size, k, hybrid, fact, std::move(fields), options);
    }
    WindowDecision blank() const {
        WindowDecision d;
        d.certificate.class_id = window_class_id(hybrid, k);
        return d;
    }
};

struct Tried {
    std::size_t steps = 0;   // search steps of the family search and the formula search
    bool exhausted = false;  // the family search ran to the end of its bounds
    YesSearchReport search;
    SinkSearchReport sink;
    WindowTypeSearchReport window_types;
    UpsetSearchReport upsets;
    bool alternating = false;  // the alternating family search ran (and found none)
    bool periodic_pair = false;  // the periodic-pair search (window_complete.cc) ran to its end
    bool searches_cut = false;  // the searches stopped at their part (three quarters) of the question's budget
    // Each strategy (or the probe) that a bound of the budget stopped: its name, the bound, the
    // steps (polls) it used and the steps it had.
    struct Cut {
        std::string strategy;
        BudgetBound bound;
        std::uint64_t used, had;
    };
    std::vector<Cut> cuts;
    unsigned lower = 0;         // no defining formula has depth <= lower (depth probe)
    std::vector<std::pair<Word, Word>> conflicts;  // the probe's conflict pair at each depth
    DepthProbe witness;         // the two words of equal depth-`lower` EOS types
};

using Strategy = std::optional<WindowDecision> (*)(const Question&, Tried&);

// The searches, each as a Strategy: an answer, or nullopt with what it tried recorded in Tried.
std::optional<WindowDecision> r_trivial_formula(const Question& q, Tried& t);
std::optional<WindowDecision> bisimilar_family(const Question& q, Tried& t);
std::optional<WindowDecision> searched_formula(const Question& q, Tried& t);
std::optional<WindowDecision> sink_state_formula(const Question& q, Tried& t);
std::optional<WindowDecision> window_type_formula(const Question& q, Tried& t);
std::optional<WindowDecision> extended_sink_state_formula(const Question& q, Tried& t);
std::optional<WindowDecision> closed_set_formula(const Question& q, Tried& t);
std::optional<WindowDecision> alternating_family(const Question& q, Tried& t);
std::optional<WindowDecision> periodic_pair_family(const Question& q, Tried& t);
std::optional<WindowDecision> bottom_scc_family(const Question& q, Tried& t);
std::optional<WindowDecision> corollary_answer(const Question& q, Tried& t);

// A "no" by a word family: the certificate with its fact, the family, three pairs of its words (up
// to 4,000 symbols together) and the modalities.
WindowDecision family_no(const Question& q, const WordFamily& fam, std::string fact, WindowFields fields = {});
// The fact of a one-period family's certificate.
std::string one_period_fact(const Question& q, const WordFamily& fam);

// Yes (hybrid only) from the window types over letters annotated with the letters before them.
std::optional<WindowDecision> past_letter_types(const Question& q);
// Yes or a lower bound (recorded in t) from the exact depth probe.
std::optional<WindowDecision> depth_probe_answer(const Question& q, Tried& t);
// Unknown: what every strategy tried, the depth lower bound, and the bound that stopped them.
WindowDecision unknown_answer(const Question& q, const Tried& t);

}  // namespace ltlkit::automata::algebra::window_answers
