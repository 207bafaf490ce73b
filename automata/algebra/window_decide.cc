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

namespace ltlkit::automata::algebra {

using namespace window_strategies;
using namespace window_answers;

namespace {

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

WindowDecision decide(const Dfa& minimal, unsigned k, bool hybrid, const WindowOptions& options);

// The deepest window types tried for Theorem 10.12's tracking: on the random DFAs of
// tests/test_window_tracked.cc every separation came at depth 1..3, on the window-budget bench at
// 2..4, while a tracking that fails conflicts at every depth, each costing about three times the
// one before (docs/WINDOWS.md §10, "In the code").
constexpr unsigned kTrackingDepth = 5;

// Yes or no (hybrid only), by Theorem 10.8 (docs/WINDOWS.md §10): the DFA's transient SCCs are single
// states, so the language is in LTL[P,Y<=k] iff the residual of every bottom state entered from a
// transient state is in LTL[Y<=k]. Each residual's local question gets an equal share of what is left
// of `work` and `seconds` (0: none); a "no" is the residual's family behind a word into its bottom
// SCC (Theorem 10.6's certificate), a "yes" Theorem 10.8's formula, compiled back. nullopt when a
// residual is unknown or answers without a formula or family. With transient SCCs of two or more
// states (Theorem 10.12) the windows must first tell the kind of state inside each, from each entry;
// "yes" is then the theorem's formula, or the residuals' certificates with the tracking depth.
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
    // Theorem 10.12 first: in each transient SCC of two or more states, from each of its entries,
    // the depth-d window types of the words that stay inside tell the kind of state they reach
    // (depth_probe.hh), at depths 1..kTrackingDepth, on half of the route's work and time (the
    // route runs after the searches, on what they left); where they do not, the route ends there.
    const bool tracked = !dag.tracked.empty();
    std::vector<std::vector<std::vector<ltl::Formula>>> tracking;
    unsigned tracking_depth = 0;
    if (tracked) {
        SearchBudget track_budget;
        track_budget.work = work ? std::max<std::uint64_t>(work / 2, 1) : 0;
        if (seconds > 0)
            track_budget.deadline = BudgetClock::now() + std::chrono::duration_cast<BudgetClock::duration>(
                                                             std::chrono::duration<double>(std::max(1e-3, seconds / 2)));
        BudgetScope scope(track_budget);
        for (const TransientDag::Tracked& g : dag.tracked) {
            tracking.emplace_back();
            for (const State e : g.entries) {
                unsigned depth = 0;
                auto chi = track_scc_states(minimal, e, k, std::min(options.probe_depth, kTrackingDepth), options.probe_states,
                                            kProbeFormulaDag, &depth);
                if (!chi) return std::nullopt;
                tracking.back().push_back(std::move(*chi));
                tracking_depth = std::max(tracking_depth, depth);
            }
        }
    }
    // One residual per bottom SCC decides (Theorem 10.8: one state of a bottom SCC, equivalently every).
    std::vector<std::optional<Solved>> by_entry(dag.entries.size());
    const std::size_t bottoms = dag.first_entry.size();
    for (std::size_t b = 0; b < bottoms; ++b) {
        const std::size_t i = dag.first_entry[b];
        by_entry[i] = solve(i, bottoms - b);
        if (refuted) return refuted;
        if (!by_entry[i]) return std::nullopt;
    }
    const std::string shape =
        tracked ? "in each of the " + std::to_string(dag.tracked.size()) +
                      " transient SCCs of two or more states, the depth-" + std::to_string(tracking_depth) +
                      " window types of the words read from each entry that stay inside tell the kind of state they reach (its acceptance and "
                      "where each letter leaves the SCC), and the residual of a "
                      "state of each of the " + std::to_string(bottoms) + " bottom SCCs entered from a transient state is in " +
                      fragment_name(false, k)
                : "every SCC of the minimal DFA that is not a bottom SCC is a single state, and the residual of a state of each "
                  "of the " + std::to_string(bottoms) + " bottom SCCs entered from one is in " + fragment_name(false, k);
    // Theorem 10.8's formula needs a formula for the residual of every entry.
    std::string omitted = "a residual's \"yes\" has no formula within the cap (its depth types are re-explored)";
    bool formulas = true;
    for (std::size_t i = 0; i < dag.entries.size() && formulas; ++i) {
        if (!by_entry[i]) by_entry[i] = solve(i, dag.entries.size() - i);
        formulas = by_entry[i] && by_entry[i]->formula;
    }
    bool tracking_formulas = true;
    for (const auto& g : tracking)
        for (const auto& chi : g)
            for (const ltl::Formula f : chi) tracking_formulas = tracking_formulas && !f.is_null();
    if (formulas && !tracking_formulas)
        omitted = "a tracking formula (the disjunction of the characteristic formulas of its window types) would refer to over " +
                  std::to_string(kProbeFormulaDag) + " window types, so it was not built (the tracking is re-explored)";
    if (formulas && tracking_formulas) {
        std::vector<ltl::Formula> psi;
        for (const auto& e : by_entry) psi.push_back(*e->formula);
        // Compiling the formula back is charged to what is left of the work (budget.hh).
        SearchBudget compile_budget;
        compile_budget.work = work ? work_left(1) : 0;
        BudgetScope scope(compile_budget);
        auto yes = window_yes_by_formula(minimal, theorem_10_8_formula(minimal, dag, psi, tracking), k, true, options,
                                         shape + (tracked ? ", so Theorem 10.12's formula (docs/WINDOWS.md §10) defines the language"
                                                          : ", so Theorem 10.8's formula (docs/WINDOWS.md §10) defines the language"),
                                         tracked ? "transient_scc" : "transient_dag");
        if (yes && yes->certificate.formula) return yes;
        omitted = tracked ? "Theorem 10.12's formula, assembled from the tracking and residual formulas, is over the formula cap or its "
                            "compile-back over the budget"
                          : "Theorem 10.8's formula, assembled from the residuals' formulas, is over the formula cap";
    }
    // Some residual's "yes" has no formula (its depth types are re-explored), or the assembled
    // formula is over the cap: the residuals' certificates are the certificate.
    WindowDecision d = q.blank();
    Certificate& c = d.certificate;
    d.answer = Answer::Yes;
    c.member = true;
    c.kind = CertificateKind::DepthTypes;
    c.fact = shape + " (their certificates, in field residuals), so by Theorem " + (tracked ? "10.12" : "10.8") +
             " (docs/WINDOWS.md §10) the language is in " + q.frag;
    nlohmann::json residuals = nlohmann::json::array();
    for (const std::size_t i : dag.first_entry) residuals.push_back(by_entry[i]->certificate);
    c.formula_omitted = omitted + (tracked ? "; the residuals' certificates and the tracking depth (field depth, re-explored) are the certificate"
                                           : "; the residuals' certificates are the certificate");
    c.window = WindowFields{.k = k, .route = tracked ? "transient_scc" : "transient_dag"};
    if (tracked) c.window->depth = tracking_depth, c.window->probe_states = options.probe_states;
    c.window->residuals = std::move(residuals);
    return d;
}

WindowDecision decide_by_search(const Dfa& minimal, unsigned k, bool hybrid, const WindowOptions& options);

// The question's options with the work and time spent since (w0, t0) taken off its bounds (never
// 0, which would mean no bound, where the question has one).
WindowOptions remaining(const WindowOptions& options, std::uint64_t w0, BudgetClock::time_point t0) {
    WindowOptions rest = options;
    const std::uint64_t used = budget_work_done() - w0;
    if (options.work_limit) rest.work_limit = std::max<std::uint64_t>(options.work_limit > used ? options.work_limit - used : 0, 1);
    if (options.time_limit_s > 0)
        rest.time_limit_s = std::max(1e-3, options.time_limit_s - std::chrono::duration<double>(BudgetClock::now() - t0).count());
    return rest;
}

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
        if (auto dag = transient_dag(minimal, true)) {
            if (!dag->tracked.empty() && !options.route_after_searches) return decide_by_search(minimal, k, hybrid, options);
            if (!dag->tracked.empty()) {
                // Theorem 10.12's shape: the searches first, on seven eighths of the work and time;
                // the route on what they leave (at least an eighth). Its tracking conflicts at every
                // depth on most such DFAs, and before the searches it cost cells they answer with the
                // whole budget (docs/WINDOWS.md §10, "In the code").
                const std::uint64_t w0 = budget_work_done();
                const auto t0 = BudgetClock::now();
                WindowOptions first = options;
                if (options.work_limit) first.work_limit = std::max<std::uint64_t>(options.work_limit / 8 * 7, 1);
                first.time_limit_s = options.time_limit_s / 8 * 7;
                WindowDecision searched = decide_by_search(minimal, k, hybrid, first);
                if (searched.answer != Answer::Unknown) return searched;
                const WindowOptions left = remaining(options, w0, t0);
                std::optional<WindowDecision> d = transient_dag_decision(minimal, *dag, k, options, left.work_limit, left.time_limit_s);
                return d ? std::move(*d) : searched;
            }
            const std::uint64_t w0 = budget_work_done();
            const auto t0 = BudgetClock::now();
            std::optional<WindowDecision> d =
                transient_dag_decision(minimal, *dag, k, options,
                                       // half, but never 0 (no bound) when the question has a bound of 1
                                       options.work_limit ? std::max<std::uint64_t>(options.work_limit / 2, 1) : 0,
                                       options.time_limit_s / 2);
            if (d && d->answer == Answer::No) return std::move(*d);
            WindowDecision searched = decide_by_search(minimal, k, hybrid, remaining(options, w0, t0));
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
