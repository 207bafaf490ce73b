#include "automata/algebra/window_answers.hh"

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

namespace ltlkit::automata::algebra::window_answers {

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
WindowDecision family_no(const Question& q, const WordFamily& fam, std::string fact, WindowFields fields) {
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

// Yes: the closed-set strategy (docs/WINDOWS.md §3d): which sets of states closed under the
// transitions (an SCC and what it reaches) the run entered, each by Lemma 4 of §3c, and the EOS
// type. After the other searches, so the tables of §7 do not depend on it.
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

}  // namespace ltlkit::automata::algebra::window_answers
