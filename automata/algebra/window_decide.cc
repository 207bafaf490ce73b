#include "automata/algebra/window_strategies.hh"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <limits>
#include <nlohmann/json.hpp>
#include <numeric>
#include <set>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

#include "automata/algebra/budget.hh"
#include "automata/algebra/classes.hh"
#include "automata/algebra/depth_probe.hh"
#include "automata/algebra/window_complete.hh"
#include "automata/algebra/window_letters.hh"
#include "automata/algebra/window_reduction.hh"
#include "automata/algebra/window_strategies.hh"
#include "automata/algorithms.hh"
#include "base/json.hh"
#include "ltl/builder.hh"
#include "automata/monitor.hh"
#include "automata/random.hh"
#include "ltl/fragment.hh"
#include "ltl/parser.hh"
#include "ltl/printer.hh"

namespace ltlkit::automata::algebra {

using namespace window_strategies;

namespace {

constexpr unsigned kTypeDepth = 3;  // window depths of the window-type strategy
constexpr std::size_t kProbeFormulaDag = 2'000;  // depth-probe formulas compiled back up to this DAG size
constexpr unsigned kSinkDepth = 6;  // window depths of the sink-state strategy

// A "yes" by a formula that was compiled back: the certificate, the formula printed up to the cap.
WindowDecision formula_decision(ltl::Formula f, std::size_t size, unsigned k, bool hybrid, const std::string& fact,
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

// Yes: an R-trivial language is in LTL[P] ⊆ LTL[P,Y<=k]; LC25 Lemma C.1's formula, compiled back.
std::optional<WindowDecision> r_trivial_formula(const Question& q, Tried&) {
    if (!q.hybrid) return std::nullopt;
    auto f = partially_ordered_formula(q.minimal);
    if (!f) return std::nullopt;
    auto ok = formula_defines(*f, q.minimal, nullptr);
    if (!ok || !*ok) return std::nullopt;
    const std::size_t size = ltl::tree_size(*f);
    return q.formula_yes(*f, size,
                         "R-trivial (partially ordered minimal DFA), so LC25 Lemma C.1 gives an LTL[P] formula (tree size " +
                             std::to_string(size) + "), which lies in " + q.frag + "; compiled back");
}

// A "no" by a word family: the certificate with its fact, the family, three pairs of its words (up
// to 4,000 symbols together) and the modalities.
WindowDecision family_no(const Question& q, const WordFamily& fam, std::string fact, WindowFields fields = {}) {
    WindowDecision d = q.blank();
    Certificate& c = d.certificate;
    d.answer = Answer::No;
    c.member = false;
    c.kind = q.hybrid ? CertificateKind::HybridBisimulation : CertificateKind::WindowBisimulation;
    c.fact = std::move(fact);
    c.family = fam;
    for (std::size_t r = fam.r_min; r < fam.r_min + 3; ++r) {
        auto [u, v] = fam.at(r);
        if (u.size() + v.size() > 4000) break;
        if (!q.minimal.accepts(u)) std::swap(u, v);
        c.pairs.emplace_back(u, v);
    }
    fields.k = q.k;
    fields.modalities = q.hybrid ? "window+past" : "window";
    c.window = std::move(fields);
    return d;
}

// The fact of a one-period family's certificate.
std::string one_period_fact(const Question& q, const WordFamily& fam) {
    const auto& A = q.minimal.alphabet;
    auto fw = [&](const Word& w) { return w.empty() ? std::string("ε") : format_word(A, w); };
    std::ostringstream os;
    os << "the EOS nodes of the folded graphs of p^ω·y and p^ω·z (p = " << fw(fam.p) << ", y = "
       << fw(fam.y) << ", z = " << fw(fam.z) << ") are bisimilar for the window-" << q.k
       << (q.hybrid ? " and strict-past modalities" : " modality") << ", so no " << q.frag
       << " formula separates x·p^r·y from x·p^r·z (x = " << fw(fam.x) << ") for large r, while their membership differs for every r >= "
       << fam.r_min;
    return os.str();
}

// No: a word family x·p^r·y / x·p^r·z whose folded graphs have bisimilar EOS nodes (folded_graph.cc).
std::optional<WindowDecision> bisimilar_family(const Question& q, Tried& t) {
    auto fam = search_family(q.minimal, q.k, q.hybrid, q.options, &t.steps, &t.exhausted);
    if (!fam) return std::nullopt;
    return family_no(q, *fam, one_period_fact(q, *fam));
}

// Yes: a formula of the fragment found by enumerative search on a word sample (formula_synthesis.cc).
std::optional<WindowDecision> searched_formula(const Question& q, Tried& t) {
    std::size_t steps = 0;
    t.search = search_formula(q.minimal, q.k, q.hybrid, q.options.search_budget, &steps);
    t.steps += steps;
    if (t.search.formula.is_null()) return std::nullopt;
    const std::size_t size = ltl::tree_size(t.search.formula);
    return q.formula_yes(t.search.formula, size,
                         "a " + q.frag + " formula (tree size " + std::to_string(size) +
                             ") whose minimal DFA equals the language's, found by formula search and compiled back");
}

// The sink-state strategy's hypothesis held but its formula was not built within the budget or is
// over the cap: a "yes" whose certificate is the exploration (kind depth_types, types "sink"), which
// check-certificate re-runs with its own code (docs/WINDOWS.md §3c, "Without a formula"). decide's
// loop keeps it as its capped answer, so a later strategy's formula (or the probe's) still wins.
WindowDecision sink_exploration_yes(const Question& q, const SinkSearchReport& sink) {
    WindowDecision d = q.blank();
    Certificate& c = d.certificate;
    d.answer = Answer::Yes;
    c.member = true;
    c.kind = CertificateKind::DepthTypes;
    const std::string types = "the depth-" + std::to_string(sink.depth) + " window types" +
                              (sink.past_letters ? std::string(" of letters annotated with the set of letters before them") : std::string());
    c.fact = "the run's entry into the sink state decides" +
             (sink.mixed ? std::string(" (and, for the words that avoid it, the EOS type)") : std::string()) + ": " + types +
             " of the positions and of EOS in words that avoid the sink (" + std::to_string(sink.good) +
             " types) never cover a word that enters it (" + std::to_string(sink.bad) +
             " types outside them are reached), so by Lemma 4 (docs/WINDOWS.md §3c) a " + q.frag + " formula of depth " +
             std::to_string(sink.depth + 1 + (sink.past_letters ? 1 : 0)) + " defines the language";
    c.formula_omitted = "the formula of Lemma 4 was not built within the question's budget or is over the cap (--formula-cap); "
                        "check-certificate re-runs the exploration";
    c.window = WindowFields{.k = q.k,
                            .route = "sink",
                            .past_letters = sink.past_letters,
                            .mixed = sink.mixed,
                            .depth = sink.depth,
                            .types = "sink",
                            .x = sink.sink_word};
    return d;
}

// Yes: a language "the run enters the sink" (or its complement): the window types that words
// avoiding the sink never show (docs/WINDOWS.md §3c), compiled back.
std::optional<WindowDecision> sink_state_formula(const Question& q, Tried& t) {
    if (!q.hybrid) return std::nullopt;
    t.sink = search_sink(q.minimal, q.k, kSinkDepth, 4 * q.options.probe_states, false, q.options.max_formula_size);
    const SinkSearchReport& sink = t.sink;
    if (sink.formula.is_null() && sink.holds) return sink_exploration_yes(q, sink);
    if (sink.formula.is_null()) return std::nullopt;
    const std::size_t size = ltl::tree_size(sink.formula);
    return q.formula_yes(sink.formula, size,
                         "a " + q.frag + " formula (tree size " + std::to_string(size) +
                             ") saying whether the run entered the sink state: the depth-" + std::to_string(sink.depth) +
                             " window types of the positions and of EOS in words that avoid the sink (" +
                             std::to_string(sink.good) + " types) never cover a word that enters it (" +
                             std::to_string(sink.bad) + " types outside them are reached; docs/WINDOWS.md §3c); compiled back",
                         WindowFields{.route = "sink", .type_depth = sink.depth});
}

// Yes: characteristic formulas of window types (depths 1..3), chosen on a sample and compiled back;
// at past depth 1 (P χ(t)), then, for the hybrid fragment, 2 (ordered pairs of types).
std::optional<WindowDecision> window_type_formula(const Question& q, Tried& t) {
    WindowTypeSearchReport& found = t.window_types;
    unsigned past_depth = 0;
    for (unsigned pd = 1; pd <= (q.hybrid ? 2u : 1u) && found.formula.is_null(); ++pd) {
        WindowTypeSearchReport r = search_window_types(q.minimal, q.k, q.hybrid, kTypeDepth, 4 * q.options.probe_states, pd);
        r.rounds += found.rounds;
        r.states += found.states;
        found = std::move(r);
        past_depth = pd;
    }
    if (found.formula.is_null()) return std::nullopt;
    const std::size_t size = ltl::tree_size(found.formula);
    WindowFields fields{.type_depth = found.depth};
    if (q.hybrid) fields.past_depth = past_depth;
    return q.formula_yes(found.formula, size,
                         "a " + q.frag + " formula (tree size " + std::to_string(size) +
                             ") built from characteristic formulas of the depth-" + std::to_string(found.depth) +
                             " window types" +
                             (!q.hybrid ? std::string(" at EOS")
                                        : past_depth == 1 ? std::string(" at EOS and under P")
                                                          : std::string(" at EOS, under P and under P(χ ∧ ±P χ')")) +
                             " (docs/WINDOWS.md §3b), whose minimal DFA equals the language's: compiled back",
                         fields);
}

// Yes: the sink-state strategy extended (docs/WINDOWS.md §3c): letters annotated with the set of
// letters before them, and sinks with both acceptances among the other states. Last of the searches,
// so the tables of §7 (which have no unknown cell) do not depend on it.
std::optional<WindowDecision> extended_sink_state_formula(const Question& q, Tried& t) {
    if (!q.hybrid) return std::nullopt;
    SinkSearchReport ext = search_sink(q.minimal, q.k, kSinkDepth, 4 * q.options.probe_states, true, q.options.max_formula_size);
    t.sink.states += ext.states;
    t.sink.applicable = t.sink.applicable || ext.applicable;
    if (ext.formula.is_null() && ext.holds) return sink_exploration_yes(q, ext);
    if (ext.formula.is_null()) return std::nullopt;
    const std::size_t size = ltl::tree_size(ext.formula);
    return q.formula_yes(ext.formula, size,
                         "a " + q.frag + " formula (tree size " + std::to_string(size) +
                             ") saying whether the run entered the sink state" +
                             (ext.mixed ? std::string(" and, if not, deciding by the EOS type") : std::string()) +
                             ": the depth-" + std::to_string(ext.depth) + " window types" +
                             (ext.past_letters ? std::string(" of letters annotated with the set of letters before them")
                                               : std::string()) +
                             " of the positions and of EOS in words that avoid the sink (" + std::to_string(ext.good) +
                             " types) never cover a word that enters it (" + std::to_string(ext.bad) +
                             " types outside them are reached; docs/WINDOWS.md §3c); compiled back",
                         WindowFields{.route = "sink",
                                             .type_depth = ext.depth,
                                             .past_letters = ext.past_letters,
                                             .mixed = ext.mixed});
}

// Yes: the closed-set strategy (docs/WINDOWS.md §3d): which sets of states closed under the
// transitions (an SCC and what it reaches) the run entered, each by Lemma 4 of §3c, and the EOS
// type. After the other searches, so the tables of §7 do not depend on it.
// The closed-set strategy's proof held but its formula was not built within the budget or is over
// the cap: a "yes" whose certificate is the chain of sets with their explorations (kind depth_types,
// types "closed_sets"), which check-certificate re-explores with its own code (docs/WINDOWS.md §3d,
// "Without a formula"). Each set is written as words into its states (shortest, breadth-first), so
// that the certificate does not depend on how a reader numbers the states.
WindowDecision closed_set_exploration_yes(const Question& q, const UpsetSearchReport& u) {
    const Dfa& d = q.minimal;
    std::vector<std::optional<Word>> to(d.num_states());
    to[d.initial] = Word{};
    std::vector<State> queue{d.initial};
    for (std::size_t i = 0; i < queue.size(); ++i)
        for (Symbol c = 0; c < d.num_symbols(); ++c)
            if (const State t = d.next(queue[i], c); !to[t]) {
                to[t] = *to[queue[i]];
                to[t]->push_back(c);
                queue.push_back(t);
            }
    auto exploration = [](const UpsetSearchReport::Exploration& e) {
        return nlohmann::json{{"depth", e.depth}, {"past_letters", e.past_letters}, {"nested", e.nested}, {"marks", e.marks}};
    };
    nlohmann::json sets = nlohmann::json::array();
    for (const auto& step : u.chain) {
        nlohmann::json j = exploration(step.by);
        nlohmann::json words = nlohmann::json::array();
        for (State s = 0; s < d.num_states(); ++s)
            if (step.set[s] && to[s]) words.push_back(format_word(d.alphabet, *to[s]));
        j["states"] = std::move(words);
        sets.push_back(std::move(j));
    }
    WindowDecision w = q.blank();
    Certificate& c = w.certificate;
    w.answer = Answer::Yes;
    c.member = true;
    c.kind = CertificateKind::DepthTypes;
    c.fact = "membership is a function of which of " + std::to_string(u.chain.size()) +
             " sets of states closed under the transitions the run entered and of the EOS key (the depth-" +
             std::to_string(u.decision.depth) + " window type with the marks of those sets), and each set's entry is seen, by Lemma 5 "
             "(docs/WINDOWS.md §3d), through window types that words avoiding it never show; so a " + q.frag + " formula defines the language";
    c.formula_omitted = "the formula of §3d was not built within the question's budget or is over the cap (--formula-cap); "
                        "check-certificate re-runs the explorations";
    c.window = WindowFields{.k = q.k,
                            .route = "closed_sets",
                            .past_letters = u.decision.past_letters,
                            .nested_marks = u.decision.nested,
                            .depth = u.decision.depth,
                            .types = "closed_sets",
                            .closed_sets = nlohmann::json{{"sets", std::move(sets)}, {"decision", exploration(u.decision)}}};
    return w;
}

std::optional<WindowDecision> closed_set_formula(const Question& q, Tried& t) {
    if (!q.hybrid) return std::nullopt;
    t.upsets = search_upsets(q.minimal, q.k, kSinkDepth, 4 * q.options.probe_states, q.options.max_formula_size);
    const UpsetSearchReport& u = t.upsets;
    if (u.holds && (u.formula.is_null() || ltl::tree_size(u.formula) > q.options.max_formula_size))
        return closed_set_exploration_yes(q, u);
    if (u.formula.is_null()) return std::nullopt;
    const std::size_t size = ltl::tree_size(u.formula);
    return q.formula_yes(
        u.formula, size,
        "a " + q.frag + " formula (tree size " + std::to_string(size) + ") deciding by which of " +
            std::to_string(u.entered) +
            " sets of states closed under the transitions the run entered, each seen through the depth-" +
            std::to_string(u.depth) + " window types" +
            (u.past_letters ? std::string(" of letters annotated with the set of letters before them") : std::string()) +
            " that words avoiding it never show, and by the EOS type (docs/WINDOWS.md §3d); compiled back",
        WindowFields{.route = "closed_sets",
                            .type_depth = u.depth,
                            .past_letters = u.past_letters,
                            .nested_marks = u.nested_marks});
}

// No: an alternating family x·(pʳqʳ)ʳ·pʳ·y / x·(pʳqʳ)ʳ·pʳ·qʳ·z whose two-cycle folded graph has
// bisimilar EOS nodes (docs/WINDOWS.md §2b). After the other searches, so the tables of §7 do not
// depend on it.
std::optional<WindowDecision> alternating_family(const Question& q, Tried& t) {
    auto fam = search_alternating_family(q.minimal, q.k, q.hybrid, q.options, &t.steps);
    t.alternating = !fam;
    if (!fam) return std::nullopt;
    const auto& A = q.minimal.alphabet;
    auto fw = [&](const Word& w) { return w.empty() ? std::string("ε") : format_word(A, w); };
    std::ostringstream os;
    os << "the EOS nodes after y = " << fw(fam->y) << " on the cycle of p = " << fw(fam->p) << " and after z = "
       << fw(fam->z) << " on the cycle of q = " << fw(fam->q)
       << " are bisimilar in their folded graph (both cycles; docs/WINDOWS.md §2b) for the window-" << q.k
       << (q.hybrid ? " and strict-past modalities" : " modality") << ", so no " << q.frag
       << " formula separates x·(pʳqʳ)ʳ·pʳ·y from x·(pʳqʳ)ʳ·pʳ·qʳ·z (x = " << fw(fam->x)
       << ") for large r, while their membership differs for every r >= " << fam->r_min;
    return family_no(q, *fam, os.str(), WindowFields{.family_form = "alternating"});
}

// The fact of a two-period family's certificate (the alternating form, read for the window alone).
std::string two_period_fact(const Question& q, const WordFamily& fam) {
    const auto& A = q.minimal.alphabet;
    auto fw = [&](const Word& w) { return w.empty() ? std::string("ε") : format_word(A, w); };
    std::ostringstream os;
    os << "the EOS nodes after y = " << fw(fam.y) << " on the cycle of p = " << fw(fam.p) << " and after z = "
       << fw(fam.z) << " on the cycle of q = " << fw(fam.q)
       << " are bisimilar in their folded graph (both cycles; docs/WINDOWS.md §2b) for the window-" << q.k
       << (q.hybrid ? " and strict-past modalities" : " modality") << ", so no " << q.frag
       << " formula separates x·(pʳqʳ)ʳ·pʳ·y from x·(pʳqʳ)ʳ·pʳ·qʳ·z (x = " << fw(fam.x)
       << ") for large r, while their membership differs for every r >= " << fam.r_min;
    return os.str();
}

// No (local only): two ultimately periodic words ^ω p·y, ^ω q·z with bisimilar EOS nodes and
// different eventual membership, all Lyndon periods and tails within the bounds in one graph
// (docs/WINDOWS.md §10, window_complete.cc). Last, so the earlier answers do not depend on it.
std::optional<WindowDecision> periodic_pair_family(const Question& q, Tried& t) {
    if (q.hybrid) return std::nullopt;
    auto fam = search_periodic_pair(q.minimal, q.k, periodic_pair_bounds(q.minimal.num_symbols()), &t.steps, &t.periodic_pair);
    if (!fam) return std::nullopt;
    if (fam->q.empty()) return family_no(q, *fam, one_period_fact(q, *fam), WindowFields{.route = "periodic_pair"});
    return family_no(q, *fam, two_period_fact(q, *fam), WindowFields{.route = "periodic_pair", .family_form = "alternating"});
}

// No (hybrid only), by Theorem 10.6 (docs/WINDOWS.md §10, window_reduction.cc): a bottom SCC whose
// residual is not definite or has a window family; else (Corollary 10.11) a window family that
// stays inside another SCC. After the other searches.
std::optional<WindowDecision> bottom_scc_family(const Question& q, Tried& t) {
    if (!q.hybrid) return std::nullopt;
    auto found = bottom_scc_no(q.minimal, q.k, q.options, &t.steps);
    const auto& A = q.minimal.alphabet;
    if (!found) {
        auto fam = q.options.inner_scc ? inner_scc_no(q.minimal, q.k, q.options, &t.steps) : std::nullopt;
        if (!fam) return std::nullopt;
        const std::string fact =
            "from the state after x = " + (fam->x.empty() ? std::string("ε") : format_word(A, fam->x)) +
            " (in an SCC that is not a bottom SCC) the window family p = " + format_word(A, fam->p) +
            (fam->q.empty() ? "" : ", q = " + format_word(A, fam->q)) + " keeps both runs inside that SCC, with membership differing, for every r >= " +
            std::to_string(fam->r_min) + ", and has bisimilar EOS nodes for the window-" + std::to_string(q.k) +
            " modality; so by Corollary 10.11 (docs/WINDOWS.md §10: on long words that stay inside an SCC, a language of " + q.frag +
            " agrees with one of " + fragment_name(false, q.k) + ") the language is not in " + q.frag;
        WindowDecision d = family_no(q, *fam, fact, WindowFields{.family_form = fam->q.empty() ? std::optional<std::string>()
                                                                                              : std::optional<std::string>("alternating"),
                                                                 .reduction = "scc"});
        d.certificate.window->modalities = "window";
        return d;
    }
    const std::string xs = found->x.empty() ? std::string("ε") : format_word(A, found->x);
    const std::string thm = ", so by Theorem 10.6 (docs/WINDOWS.md §10: every bottom-SCC residual of a language of " + q.frag +
                            " is definite and in " + fragment_name(false, q.k) + ") the language is not in " + q.frag;
    if (found->residual_not_definite) {
        WindowDecision d = q.blank();
        d.answer = Answer::No;
        d.certificate.member = false;
        d.certificate.kind = CertificateKind::HybridBisimulation;
        d.certificate.fact = "the residual after x = " + xs + " (a bottom SCC of the minimal DFA) is not definite" + thm;
        d.certificate.window =
            WindowFields{.k = q.k, .reduction = "bottom_scc", .residual_not_definite = true, .x = found->x};
        return d;
    }
    const WordFamily& fam = *found->family;
    const std::string fact = "the residual after x = " + xs + " (a bottom SCC) is not in " + fragment_name(false, q.k) +
                             ": its window family p = " + format_word(A, fam.p) + (fam.q.empty() ? "" : ", q = " + format_word(A, fam.q)) +
                             " has bisimilar EOS nodes for the window-" + std::to_string(q.k) +
                             " modality and membership differing for every r >= " + std::to_string(fam.r_min) + thm;
    WindowFields fields{.reduction = "bottom_scc"};
    if (!fam.q.empty()) fields.family_form = "alternating";
    WindowDecision d = family_no(q, fam, fact, fields);
    d.certificate.window->modalities = "window";
    return d;
}

// Yes (local only), by Corollary 10.5 (docs/WINDOWS.md §10) where the degree lies in its certified
// range: Π(|Σ|, k, δ) recertified and the last-δ-letters labelling constant on its blocks. Last of
// the searches, so every earlier answer (with a formula or a family) is unchanged.
std::optional<WindowDecision> corollary_answer(const Question& q, Tried&) {
    if (q.hybrid || !corollary_10_5_delta(q.minimal, q.k)) return std::nullopt;
    const CorollaryCheck cc = check_corollary_10_5(q.minimal, q.k);
    if (!cc.holds || !cc.member) return std::nullopt;  // not member: the periodic-pair search has the family
    const std::size_t depth = std::max<std::size_t>(cc.depth, cc.delta);
    WindowDecision d = q.blank();
    Certificate& c = d.certificate;
    d.answer = Answer::Yes;
    c.member = true;
    c.kind = CertificateKind::DepthTypes;
    c.fact = "the language is " + std::to_string(cc.delta) + "-definite and its last-" + std::to_string(cc.delta) +
             "-letters labelling is constant on the blocks of the certified partition Π(" +
             std::to_string(q.minimal.num_symbols()) + ", " + std::to_string(q.k) + ", " + std::to_string(cc.delta) + ") (" +
             std::to_string(cc.blocks) + " blocks, depth " + std::to_string(cc.depth) +
             "), so by Corollary 10.5 (docs/WINDOWS.md §10) a formula of depth " + std::to_string(depth) + " defines it";
    c.formula_omitted = "not built: the certificate is Corollary 10.5's criterion, which check-certificate recomputes";
    c.window = WindowFields{.k = q.k,
                                 .route = "corollary_10_5",
                                 .complete = corollary_10_5_claim(q.minimal.num_symbols(), q.k, cc.delta, false)};
    return d;
}

// Yes from a probe that separates at `depth` (its types: the EOS types of `types_of`): its formula
// compiled back when it is within the bounds (field route), else a depth_types certificate (field
// types, when not the fragment's own) whose exploration check-certificate re-runs. formula_depth:
// the depth of the formula the types define.
WindowDecision separation_yes(const Question& q, const DepthProbe& pr, unsigned depth, unsigned formula_depth,
                              const std::string& types_of, const std::string& route, std::optional<std::string> types) {
    const WindowOptions& options = q.options;
    const std::size_t size = pr.formula.is_null() ? 0 : ltl::tree_size(pr.formula);
    const std::string what = "the Boolean combination of characteristic formulas of the depth-" + std::to_string(depth) +
                             " EOS types of " + types_of + " (exhaustive exploration of " + std::to_string(pr.states) +
                             " product states, " + std::to_string(pr.eos_types) + " EOS types)";
    // Compiling back costs (product states × subformulas): only for formulas of at most
    // kProbeFormulaDag distinct subformulas (probe_depth does not build larger ones).
    const std::size_t dag = pr.formula.is_null() ? 0 : ltl::dag_size(pr.formula);
    if (!pr.formula.is_null() && size <= options.max_formula_size && dag <= kProbeFormulaDag) {
        auto ok = formula_defines(pr.formula, q.minimal, nullptr);
        if (ok && *ok)
            return q.formula_yes(pr.formula, size, what + ", tree size " + std::to_string(size) + ", defines the language; compiled back",
                                 WindowFields{.route = route, .type_depth = depth});
    }
    WindowDecision d = q.blank();
    Certificate& c = d.certificate;
    d.answer = Answer::Yes;
    c.member = true;
    c.kind = CertificateKind::DepthTypes;
    c.fact = "the depth-" + std::to_string(depth) + " EOS types of " + types_of +
             " determine membership on every word (exhaustive exploration of " + std::to_string(pr.states) +
             " product states, " + std::to_string(pr.eos_types) + " EOS types), so a formula of depth " +
             std::to_string(formula_depth) + " defines the language";
    c.formula_omitted = pr.formula.is_null()
                            ? "the formula (" + what + ") refers to " + std::to_string(pr.formula_types) +
                                  " window types, each its own subformula, over the " + std::to_string(kProbeFormulaDag) +
                                  " compiled back within a question, so it was not built; check-certificate re-runs the exploration"
                        : size > options.max_formula_size
                            ? "the formula (" + what + ") has tree size " + std::to_string(size) + ", over the cap " +
                                  std::to_string(options.max_formula_size) +
                                  " (--formula-cap); check-certificate re-runs the exploration"
                            : "the formula (" + what + ") has " + std::to_string(dag) +
                                  " distinct subformulas, over the " + std::to_string(kProbeFormulaDag) +
                                  " compiled back within a question; check-certificate re-runs the exploration";
    c.window = WindowFields{.k = q.k, .depth = depth, .probe_states = pr.states, .types = std::move(types)};
    return d;
}

// Yes (hybrid only): the window types over letters annotated with the letters seen before them
// (docs/WINDOWS.md §4b, probe_depth_past_letters) separate at some depth: a formula of LTL[P,Y<=k]
// whose P applies to letters only. Its formula compiled back when small enough, else a depth_types
// certificate ("types": "past_letters") whose exploration check-certificate re-runs. A conflict
// proves nothing for the fragment: the next depth is tried until a bound stops it.
std::optional<WindowDecision> past_letter_types(const Question& q) {
    if (!q.hybrid) return std::nullopt;
    for (unsigned depth = 1; depth <= q.options.probe_depth; ++depth) {
        // The EOS annotated first (far fewer product states), then every position.
        DepthProbe pr = probe_depth_past_letters(q.minimal, q.k, depth, false, q.options.probe_states, true, kProbeFormulaDag);
        bool every = false;
        if (pr.status == DepthProbe::Status::Conflict) {
            pr = probe_depth_past_letters(q.minimal, q.k, depth, true, q.options.probe_states, true, kProbeFormulaDag);
            every = true;
        }
        if (pr.status == DepthProbe::Status::Conflict) continue;
        if (pr.status != DepthProbe::Status::Separates) return std::nullopt;
        return separation_yes(q, pr, depth, depth + 1,
                              q.frag + (every ? " over letters annotated with the letters before them"
                                              : " with the word's letters at EOS") + " (P b, ¬P b)",
                              "past_letter_types", every ? "past_letters" : "eos_letters");
    }
    return std::nullopt;
}

// The searches, in the order they are tried; each answers or records what it tried.
constexpr Strategy kSearches[] = {r_trivial_formula,   bisimilar_family,    searched_formula,
                                  sink_state_formula,  window_type_formula, extended_sink_state_formula,
                                  closed_set_formula,  alternating_family,  periodic_pair_family,
                                  bottom_scc_family,   corollary_answer};
// Their names in unknown answers (fact and JSON "cuts"), in the same order.
constexpr const char* kSearchNames[] = {"r_trivial_formula", "bisimilar_family",     "formula_search",
                                        "sink_state",        "window_types",         "extended_sink_state",
                                        "closed_sets",       "alternating_family",   "periodic_pair",
                                        "bottom_scc",        "corollary_10_5"};
static_assert(std::size(kSearchNames) == std::size(kSearches));

const char* bound_name(BudgetBound b) {
    return b == BudgetBound::Work ? "work" : b == BudgetBound::Time ? "time" : b == BudgetBound::Memory ? "memory" : "none";
}

// Yes or a lower bound: the depth-d EOS types probed exactly (depth_probe.hh). A conflict at depth
// d proves that no defining formula has depth <= d; separation at depth d proves membership (the
// type exploration is the certificate, re-run by the checker).
std::optional<WindowDecision> depth_probe_answer(const Question& q, Tried& t) {
    const WindowOptions& options = q.options;
    for (unsigned depth = 1; depth <= options.probe_depth; ++depth) {
        DepthProbe pr = probe_depth(q.minimal, q.k, q.hybrid, depth, options.probe_states, true, kProbeFormulaDag);
        if (pr.status == DepthProbe::Status::Conflict) {
            t.lower = depth;
            t.conflicts.emplace_back(pr.accepted, pr.rejected);
            t.witness = std::move(pr);
            continue;
        }
        if (pr.status != DepthProbe::Status::Separates) break;  // state limit
        return separation_yes(q, pr, depth, depth, q.frag, "depth_types", std::nullopt);
    }
    return std::nullopt;
}

// Unknown: what every strategy tried, the depth lower bound, and the bound that stopped them.
WindowDecision unknown_answer(const Question& q, const Tried& t) {
    const WindowOptions& options = q.options;
    const YesSearchReport& rep = t.search;
    NoSearchBounds b = no_bounds(q.minimal.num_symbols(), q.minimal.num_states(), q.k, q.hybrid, options);
    WindowDecision d = q.blank();
    Certificate& c = d.certificate;
    d.answer = Answer::Unknown;
    c.member = false;
    c.kind = CertificateKind::SearchExhausted;
    std::ostringstream os;
    os << "no witness family with |p| <= " << b.max_p << ", |y|,|z| <= " << b.max_tail
       << (b.x_every_state ? ", x a shortest word to each state" : ", |x| <= " + std::to_string(b.max_x))
       << (t.exhausted ? "" : " (budget hit before the end)") << ", and no " << q.frag
       << " formula among " << rep.pool << " distinct behaviours up to size " << rep.max_size << " on "
       << rep.sample_words << " sample words in " << rep.rounds << " rounds"
       << (rep.failure.empty() ? "" : " (" + rep.failure + ")") << "; " << t.steps << " search steps"
       << "; no Boolean combination of window types of depth <= " << kTypeDepth
       << (q.hybrid ? " at EOS, under P and under P(χ ∧ ±P χ')" : " at EOS")
       << " found in " << t.window_types.rounds << " rounds (" << t.window_types.states << " product states)";
    if (t.sink.applicable)
        os << "; no formula from the sink-state strategy (window depths <= " << kSinkDepth << ", " << t.sink.states
           << " product states)";
    if (t.upsets.applicable)
        os << "; none from the closed-set strategy (" << t.upsets.sets << " closed sets, window depths <= " << kSinkDepth
           << ", " << t.upsets.states << " product states)";
    if (t.alternating)
        os << "; no alternating family x·(pʳqʳ)ʳ·pʳ·y / x·(pʳqʳ)ʳ·pʳ·qʳ·z with |p|,|q| <= "
           << alternating_bounds(q.minimal.num_symbols()).max_p << ", |y|,|z| <= "
           << alternating_bounds(q.minimal.num_symbols()).max_tail;
    if (t.periodic_pair) {
        const PeriodicBounds pb = periodic_pair_bounds(q.minimal.num_symbols());
        os << "; no periodic pair ^ω p·y / ^ω q·z (docs/WINDOWS.md §10) with Lyndon |p|,|q| <= " << pb.max_period
           << ", |y|,|z| <= " << pb.max_tail;
    }
    if (t.lower > 0)
        os << "; no defining formula has depth <= " << t.lower << " (the depth-" << t.lower << " EOS types of '"
           << format_word(q.minimal.alphabet, t.witness.accepted) << "' (accepted) and '"
           << format_word(q.minimal.alphabet, t.witness.rejected) << "' (rejected) are equal)";
    const BudgetBound bound = budget_bound_reached();
    if (t.lower < options.probe_depth && bound == BudgetBound::None)
        os << "; the depth-" << (t.lower + 1) << " probe stopped at " << options.probe_states << " product states";
    if (t.searches_cut && bound == BudgetBound::None) {
        os << "; the searches stopped at their shares of three quarters of the question's budget (";
        if (options.work_limit) os << options.work_limit << " steps, --window-work; ";
        if (options.time_limit_s > 0) os << options.time_limit_s << " s, --window-time; ";
        os << (options.memory_limit_bytes >> 20) << " MiB, --window-memory), the rest went to the probe";
    }
    for (const Tried::Cut& cut : t.cuts) {
        os << "; " << cut.strategy << " stopped by the " << bound_name(cut.bound) << " budget after " << cut.used << " steps";
        if (cut.bound == BudgetBound::Work && cut.had) os << " (its share: " << cut.had << ")";
        if (cut.bound == BudgetBound::Memory) os << " (" << (options.memory_limit_bytes >> 20) << " MiB grown)";
    }
    if (bound == BudgetBound::Work)
        os << "; stopped by the work budget: " << options.work_limit << " steps for this question (raise --window-work)";
    if (bound == BudgetBound::Time)
        os << "; stopped by the time budget: " << options.time_limit_s << " s for this question (raise --window-time)";
    if (bound == BudgetBound::Memory)
        os << "; stopped by the memory budget: " << (options.memory_limit_bytes >> 20)
           << " MiB of memory grown while it ran (raise --window-memory)";
    c.fact = os.str();
    c.unknown = true;
    if (t.lower > 0) c.pairs.emplace_back(t.witness.accepted, t.witness.rejected);
    WindowFields fields;
    fields.k = q.k;
    fields.bounds = SearchBounds{.max_p = b.max_p,
                                 .max_tail = b.max_tail,
                                 .max_x = b.x_every_state ? std::nullopt : std::optional<std::size_t>(b.max_x),
                                 .formula_pool = rep.pool,
                                 .formula_size = rep.max_size,
                                 .search_budget = options.search_budget,
                                 .type_depth = kTypeDepth,
                                 .probe_depth = options.probe_depth,
                                 .probe_states = options.probe_states};
    if (t.lower > 0) fields.depth_lower_bound = t.lower;
    for (const Tried::Cut& cut : t.cuts) fields.cuts.push_back({cut.strategy, bound_name(cut.bound), cut.used, cut.had});
    if (bound == BudgetBound::Work) fields.budget = BudgetStop{.bound = BudgetStop::Bound::Work, .amount = options.work_limit};
    if (bound == BudgetBound::Time) fields.budget = BudgetStop{.bound = BudgetStop::Bound::Time, .seconds = options.time_limit_s};
    if (bound == BudgetBound::Memory)
        fields.budget = BudgetStop{.bound = BudgetStop::Bound::Memory, .amount = options.memory_limit_bytes};
    if (bound != BudgetBound::None && !t.cuts.empty()) fields.budget->strategy = t.cuts.back().strategy;
    c.window = std::move(fields);
    return d;
}

WindowDecision decide(const Dfa& minimal, unsigned k, bool hybrid, const WindowOptions& options);

// Yes or no (hybrid only), by Theorem 10.8 (docs/WINDOWS.md §10): the DFA's transient SCCs are single
// states, so the language is in LTL[P,Y<=k] iff the residual of every bottom state entered from a
// transient state is in LTL[Y<=k]. Each residual's local question gets an equal share of what is left
// of `work` and `seconds` (0: none); a "no" is the residual's family behind a word into its bottom
// SCC (Theorem 10.6's certificate), a "yes" Theorem 10.8's formula, compiled back. nullopt when a
// residual is unknown or answers without a formula or family.
std::optional<WindowDecision> transient_dag_decision(const Dfa& minimal, const TransientDag& dag, unsigned k,
                                                     const WindowOptions& options, std::uint64_t work, double seconds) {
    const Question q{minimal, k, true, options, fragment_name(true, k)};
    const std::uint64_t work_start = budget_work_done();
    const auto time_start = BudgetClock::now();
    auto elapsed = [&] { return std::chrono::duration<double>(BudgetClock::now() - time_start).count(); };
    auto work_left = [&](std::size_t parts) {
        const std::uint64_t used = budget_work_done() - work_start;
        return std::max<std::uint64_t>(work > used ? (work - used) / parts : 0, 1);
    };
    const auto& A = minimal.alphabet;
    struct Solved {
        std::optional<ltl::Formula> formula;
        nlohmann::json certificate;  // null for a residual of one state
    };
    // The local question on the residual after entry i; nullopt: unknown, or no formula or family.
    std::optional<WindowDecision> refuted;
    auto solve = [&](std::size_t i, std::size_t parts) -> std::optional<Solved> {
        const Dfa r = residual_dfa(minimal, dag.entries[i]);
        if (r.num_states() == 1) return Solved{r.accepting[0] ? ltl::Formula::tt() : ltl::Formula::ff(), nullptr};
        WindowOptions o = options;
        o.work_limit = work ? work_left(parts) : 0;
        o.time_limit_s = seconds > 0 ? std::max(1e-3, (seconds - elapsed()) / double(parts)) : 0;
        const WindowDecision d = decide(r, k, false, o);
        if (d.answer == Answer::Unknown) return std::nullopt;
        if (d.answer == Answer::No) {
            if (!d.certificate.family) return std::nullopt;
            const Word& x = dag.entry_words[i];
            auto fam = family_behind(minimal, x, *d.certificate.family);
            if (!fam) return std::nullopt;
            const std::string xs = x.empty() ? std::string("ε") : format_word(A, x);
            WindowFields fields{.route = "transient_dag", .reduction = "bottom_scc"};
            if (!fam->q.empty()) fields.family_form = "alternating";
            refuted = family_no(q, *fam,
                                "the residual after x = " + xs + " (a bottom SCC) is not in " + fragment_name(false, k) + " (" +
                                    d.certificate.fact + "), so by Theorem 10.6 (docs/WINDOWS.md §10) the language is not in " + q.frag,
                                fields);
            refuted->certificate.window->modalities = "window";
            return std::nullopt;
        }
        Solved out{std::nullopt, nlohmann::json::parse(certificate_to_json(d.certificate, r))};
        if (d.certificate.formula)
            if (auto parsed = ltl::parse_formula(*d.certificate.formula)) out.formula = *parsed;
        return out;
    };
    // One residual per bottom SCC decides (Theorem 10.8: one state of a bottom SCC, equivalently every).
    std::vector<std::optional<Solved>> by_entry(dag.entries.size());
    const std::size_t bottoms = dag.first_entry.size();
    for (std::size_t b = 0; b < bottoms; ++b) {
        const std::size_t i = dag.first_entry[b];
        by_entry[i] = solve(i, bottoms - b);
        if (refuted) return refuted;
        if (!by_entry[i]) return std::nullopt;
    }
    const std::string shape = "every SCC of the minimal DFA that is not a bottom SCC is a single state, and the residual of a state of each "
                              "of the " + std::to_string(bottoms) + " bottom SCCs entered from one is in " + fragment_name(false, k);
    // Theorem 10.8's formula needs a formula for the residual of every entry.
    std::string omitted = "a residual's \"yes\" has no formula within the cap (its depth types are re-explored)";
    bool formulas = true;
    for (std::size_t i = 0; i < dag.entries.size() && formulas; ++i) {
        if (!by_entry[i]) by_entry[i] = solve(i, dag.entries.size() - i);
        formulas = by_entry[i] && by_entry[i]->formula;
    }
    if (formulas) {
        std::vector<ltl::Formula> psi;
        for (const auto& e : by_entry) psi.push_back(*e->formula);
        // Compiling the formula back is charged to what is left of the work (budget.hh).
        SearchBudget compile_budget;
        compile_budget.work = work ? work_left(1) : 0;
        BudgetScope scope(compile_budget);
        auto yes = window_yes_by_formula(minimal, theorem_10_8_formula(minimal, dag, psi), k, true, options,
                                         shape + ", so Theorem 10.8's formula (docs/WINDOWS.md §10) defines the language",
                                         "transient_dag");
        if (yes && yes->certificate.formula) return yes;
        omitted = "Theorem 10.8's formula, assembled from the residuals' formulas, is over the formula cap";
    }
    // Some residual's "yes" has no formula (its depth types are re-explored), or the assembled
    // formula is over the cap: the residuals' certificates are the certificate.
    WindowDecision d = q.blank();
    Certificate& c = d.certificate;
    d.answer = Answer::Yes;
    c.member = true;
    c.kind = CertificateKind::DepthTypes;
    c.fact = shape + " (their certificates, in field residuals), so by Theorem 10.8 (docs/WINDOWS.md §10) the language is in " + q.frag;
    nlohmann::json residuals = nlohmann::json::array();
    for (const std::size_t i : dag.first_entry) residuals.push_back(by_entry[i]->certificate);
    c.formula_omitted = omitted + "; the residuals' certificates are the certificate";
    c.window = WindowFields{.k = k, .route = "transient_dag"};
    c.window->residuals = std::move(residuals);
    return d;
}

WindowDecision decide_by_search(const Dfa& minimal, unsigned k, bool hybrid, const WindowOptions& options);

WindowDecision decide(const Dfa& minimal, unsigned k, bool hybrid, const WindowOptions& options) {
    // Zero letters (hybrid only): the same question on the words without them (Proposition 10.10).
    if (hybrid && options.zero_letters)
        if (auto zero = zero_letters(minimal))
            return lift_zero_decision(decide(zero->reduced, k, hybrid, options), *zero, minimal, k, options);
    // Letters that act alike: the same question over one letter per class (Proposition 10.9).
    if (auto merged = letters_acting_alike(minimal))
        return lift_decision(decide(merged->reduced, k, hybrid, options), *merged, minimal, k, hybrid, options);
    // Theorem 10.8's shape (hybrid only): the local questions on the bottom residuals first, on half
    // of the question's work and time. A "no" stands; a "yes" stands unless the searches, on what the
    // route left, find a smaller formula (the route's formula is often several times larger).
    if (hybrid && options.transient_dag)
        if (auto dag = transient_dag(minimal)) {
            const std::uint64_t w0 = budget_work_done();
            const auto t0 = BudgetClock::now();
            std::optional<WindowDecision> d =
                transient_dag_decision(minimal, *dag, k, options,
                                       // half, but never 0 (no bound) when the question has a bound of 1
                                       options.work_limit ? std::max<std::uint64_t>(options.work_limit / 2, 1) : 0,
                                       options.time_limit_s / 2);
            if (d && d->answer == Answer::No) return std::move(*d);
            WindowOptions rest = options;
            const std::uint64_t used = budget_work_done() - w0;
            if (options.work_limit) rest.work_limit = std::max<std::uint64_t>(options.work_limit > used ? options.work_limit - used : 0, 1);
            if (options.time_limit_s > 0)
                rest.time_limit_s = std::max(1e-3, options.time_limit_s - std::chrono::duration<double>(BudgetClock::now() - t0).count());
            WindowDecision searched = decide_by_search(minimal, k, hybrid, rest);
            if (!d || searched.answer == Answer::No) return searched;  // a "no" cannot meet a "yes": both are proofs
            auto size = [](const WindowDecision& w) {
                return w.certificate.window && w.certificate.window->formula_size ? *w.certificate.window->formula_size
                                                                                  : std::numeric_limits<std::size_t>::max();
            };
            if (searched.answer == Answer::Yes && searched.certificate.formula && size(searched) <= size(*d)) return searched;
            return std::move(*d);
        }
    return decide_by_search(minimal, k, hybrid, options);
}

// The weights of the searches' shares, in the order of kSearches: the formula search and the three
// routes that build a formula from window types (sink state, extended sink state, closed sets) get
// six shares each, every other search one (docs/WINDOWS.md §5b: on the unknown cells of the two
// window benches these four answered once given more, while their shares ran out first; the others
// answer cheaply or give up early, leaving their shares to the next).
constexpr std::uint64_t kShareWeight[] = {1, 1, 6, 6, 1, 6, 6, 1, 1, 1, 1};
static_assert(std::size(kShareWeight) == std::size(kSearches));
std::uint64_t weights_from(std::size_t i) {
    std::uint64_t w = 0;
    for (std::size_t j = i; j < std::size(kShareWeight); ++j) w += kShareWeight[j];
    return w;
}

// One question, after the reductions of §10 in decide() above: the searches of kSearches under the
// first three quarters of its budget, so that the exact depth probe, which decides some languages in
// a fraction of a second where every search fails, always runs; then the probe; then the unknown
// answer with what was tried. Within the searches' part, each search gets its weighted share
// (kShareWeight) of what is left to the searches not yet tried (one that answers or gives up early
// leaves the rest to the next): the strategies decide different languages, and one that finds
// nothing must not starve a later one that would answer in milliseconds. Without a time budget
// every search runs to its own bounds, in order.
WindowDecision decide_by_search(const Dfa& minimal, unsigned k, bool hybrid, const WindowOptions& options) {
    SearchBudget budget;
    if (options.time_limit_s > 0)
        budget.deadline = SearchBudget::Clock::now() +
                          std::chrono::duration_cast<SearchBudget::Clock::duration>(std::chrono::duration<double>(options.time_limit_s));
    budget.work = options.work_limit;
    budget.memory_bytes = options.memory_limit_bytes;
    budget.progress = options.progress;
    BudgetScope scope(budget);
    const auto searches_end =
        options.time_limit_s > 0 ? SearchBudget::Clock::now() + (budget.deadline - SearchBudget::Clock::now()) / 4 * 3
                                 : budget.deadline;
    // The same split in work: three quarters of it for the searches, in weighted shares of what is left.
    const std::uint64_t work_start = budget_work_done();
    const std::uint64_t searches_work = options.work_limit / 4 * 3;
    const Question q{minimal, k, hybrid, options, fragment_name(hybrid, k)};
    Tried tried;
    std::optional<WindowDecision> capped;  // the first "yes" whose formula is over the cap
    constexpr std::size_t kStrategies = std::size(kSearches);
    for (std::size_t i = 0; i < kStrategies; ++i) {
        std::optional<BudgetScope> share;
        std::uint64_t share_work = 0;
        if (options.time_limit_s > 0 || options.work_limit) {
            SearchBudget part = budget;
            const auto now = SearchBudget::Clock::now();
            if (options.time_limit_s > 0)
                // divided first, so that a huge --window-time cannot overflow
                part.deadline = now + std::max(searches_end - now, SearchBudget::Clock::duration::zero()) /
                                          static_cast<std::int64_t>(weights_from(i)) * static_cast<std::int64_t>(kShareWeight[i]);
            if (options.work_limit) {
                const std::uint64_t used = budget_work_done() - work_start;
                // at least one poll, so that a spent share stops the search at its first poll
                part.work = std::max<std::uint64_t>(
                    searches_work > used ? (searches_work - used) / weights_from(i) * kShareWeight[i] : 0, 1);
                share_work = part.work;
            }
            share.emplace(part);
        }
        const std::uint64_t before = budget_work_done();
        std::optional<WindowDecision> d = kSearches[i](q, tried);
        if (const BudgetBound b = budget_bound_reached(); b != BudgetBound::None) {
            tried.searches_cut = true;
            tried.cuts.push_back({kSearchNames[i], b, budget_work_done() - before, share ? share_work : 0});
        }
        // what the search freed goes back to the system, so that the memory bound (resident
        // memory) measures the next search's own footprint
        if (options.memory_limit_bytes) release_free_memory();
        if (!d) continue;
        if (d->answer == Answer::Yes && !d->certificate.formula) {
            // Over the formula cap (or, for the sink-state strategy, not built within its share):
            // the answer stands; the later strategies and the probe may still give a formula. Of
            // these answers the first whose certificate can be re-verified is kept (the sink-state
            // exploration, re-run by check-certificate), else the first.
            auto verifiable = [](const WindowDecision& w) {
                return w.certificate.kind == CertificateKind::DepthTypes && w.certificate.window && w.certificate.window->types;
            };
            if (!capped || (!verifiable(*capped) && verifiable(*d))) capped = std::move(d);
            continue;
        }
        return std::move(*d);
    }
    // The annotated-letter probe (hybrid, §4b) on a quarter of what is left for the depth probe, so
    // that the searches' shares are those of the fragment without it.
    if (hybrid) {
        const std::uint64_t before = budget_work_done();
        std::optional<WindowDecision> lettered;
        {
            SearchBudget part = budget;
            if (options.work_limit) {
                const std::uint64_t used = budget_work_done() - work_start;
                part.work = std::max<std::uint64_t>(options.work_limit > used ? (options.work_limit - used) / 4 : 0, 1);
            }
            if (options.time_limit_s > 0)
                part.deadline = SearchBudget::Clock::now() + (budget.deadline - SearchBudget::Clock::now()) / 4;
            BudgetScope quarter(part);
            lettered = past_letter_types(q);
            if (const BudgetBound b = budget_bound_reached(); b != BudgetBound::None)
                tried.cuts.push_back({"past_letter_types", b, budget_work_done() - before, part.work});
        }
        if (options.memory_limit_bytes) release_free_memory();
        if (lettered) return std::move(*lettered);
    }
    const std::uint64_t before_probe = budget_work_done();
    auto probed = depth_probe_answer(q, tried);
    if (const BudgetBound b = budget_bound_reached(); b != BudgetBound::None)
        tried.cuts.push_back({"depth_probe at depth " + std::to_string(tried.lower + 1), b, budget_work_done() - before_probe,
                              options.work_limit > before_probe - work_start ? options.work_limit - (before_probe - work_start)
                                                                             : 0});
    if (probed) return std::move(*probed);
    // No: a family read off one of the probe's conflicts, deepest first (its words agree up to that
    // depth; the family's tails are as long as the words, beyond the family search's bounds).
    for (auto it = tried.conflicts.rbegin(); it != tried.conflicts.rend(); ++it)
        if (auto fam = family_from_pair(minimal, it->first, it->second, k, hybrid))
            return family_no(q, *fam, one_period_fact(q, *fam), WindowFields{.family_source = "depth_probe_conflict"});
    if (capped) return std::move(*capped);
    return unknown_answer(q, tried);
}

}  // namespace

bool formula_in_window_fragment(ltl::Formula f, unsigned k, bool hybrid) {
    ltl::Fragment fr = ltl::fragment_of(f);
    using K = ltl::FragmentKind;
    switch (fr.kind) {
        case K::None: return true;
        case K::YLeqK: return fr.k == k;
        case K::P: return hybrid;
        case K::PYLeqK: return hybrid && fr.k == k;
        default: return false;
    }
}

// Beyond this many nested windows the unfolded formula is not built: compiling it back costs
// (states × subformulas), quadratic in the window.
constexpr unsigned kMaxUnfoldedWindows = 1'000;

ltl::Formula unfold_windows(ltl::Formula f, unsigned k) {
    return ltl::rebuilt(f, [k](ltl::Formula g, ltl::Formula c0, ltl::Formula c1) {
        if (g.op() != ltl::Op::BoundedYesterday || g.k() <= k || g.k() % k != 0 || g.k() / k > kMaxUnfoldedWindows)
            return ltl::with_children(g, c0, c1);
        // Y<=qk φ = Y<=k (φ | Y<=k (φ | ... Y<=k φ)) with q windows: the windows chain back over
        // exactly the qk previous positions.
        ltl::Formula r = ltl::Formula::bounded_yesterday(c0, k);
        for (unsigned i = 1; i < g.k() / k; ++i) r = ltl::Formula::bounded_yesterday(ltl::Formula::disj(c0, r), k);
        return r;
    });
}

std::optional<WindowDecision> window_yes_by_formula(const Dfa& minimal, ltl::Formula f, unsigned k, bool hybrid,
                                                    const WindowOptions& options, const std::string& why,
                                                    const std::string& route) {
    if (!formula_in_window_fragment(f, k, hybrid)) return std::nullopt;
    auto ok = formula_defines(f, minimal, nullptr);
    if (!ok || !*ok) return std::nullopt;
    const std::size_t size = ltl::tree_size(f);
    return formula_decision(f, size, k, hybrid,
                            why + " (tree size " + std::to_string(size) + "); compiled back, its minimal DFA is the language's",
                            WindowFields{.route = route}, options);
}

bool definite_by_pair_graph(const Dfa& minimal) {
    DfaAnalysis A(minimal);
    return find_class(ClassKind::Definite)->by_dfa(A).member;
}

bool locally_r_trivial_by_pair_graph(const Dfa& minimal) {
    DfaAnalysis A(minimal);
    return find_class(ClassKind::LocallyRTrivial)->by_dfa(A).member;
}

WindowDecision decide_local_k(const Dfa& minimal, unsigned k, const WindowOptions& options) {
    return decide(minimal, k, false, options);
}

WindowDecision decide_hybrid_k(const Dfa& minimal, unsigned k, const WindowOptions& options) {
    return decide(minimal, k, true, options);
}

}  // namespace ltlkit::automata::algebra
