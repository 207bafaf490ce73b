#include "automata/algebra/classify.hh"
#include "automata/algebra/subregular.hh"

#include <algorithm>
#include <chrono>
#include <memory>
#include <sstream>

#include <nlohmann/json.hpp>

#include "automata/algebra/budget.hh"
#include "automata/algebra/certificate_json.hh"
#include "automata/algebra/class_support.hh"
#include "automata/algebra/classes.hh"
#include "automata/algebra/window_complete.hh"
#include "automata/algebra/window_letters.hh"
#include "automata/algebra/window_reduction.hh"
#include "automata/algebra/window_strategies.hh"
#include "automata/algebra/windows.hh"
#include "automata/algorithms.hh"
#include "automata/dfa_json.hh"
#include "base/json.hh"
#include "base/trace.hh"
#include "automata/monitor.hh"
#include "ltl/fragment.hh"
#include "ltl/parser.hh"

namespace ltlkit::automata::algebra {

// Semigroups for classify are also bounded in memory (a 10^4-state DFA has 20 KB per element).
namespace {
constexpr std::size_t kClassifyImageBytes = std::size_t(256) << 20;
}  // namespace

Result<std::unique_ptr<SemigroupAnalysis>> detail::classify_semigroup(const Dfa& d, std::size_t max_elements) {
    SemigroupOptions o;
    o.max_elements = max_elements;
    o.max_image_bytes = kClassifyImageBytes;
    auto s = TransitionSemigroup::of_dfa(d, o);
    if (!s) return s.error();
    auto a = std::unique_ptr<SemigroupAnalysis>(new SemigroupAnalysis{d, std::move(s.value()), {}, {}, 0});
    a->green = green_classes(a->s);
    a->idempotents = a->s.idempotents();
    if (a->s.size() > 0) a->kernel = minimal_ideal(a->s, a->green);
    return a;
}

namespace {

Certificate relabel(const Certificate& c, const ClassId& id, const std::string& why) {
    Certificate r = c;
    r.class_id = id;
    r.fact = why + ": " + c.fact;
    return r;
}

// The window fields of a certificate, added (empty) to a relabelled class certificate.
WindowFields& window_of(Certificate& c) {
    if (!c.window) c.window.emplace();
    return *c.window;
}

// A formula of LTL[Y<=k] is one of LTL[P,Y<=k].
Certificate local_yes_as_hybrid(const Certificate& local, unsigned k) {
    const std::string ks = std::to_string(k);
    Certificate c = relabel(local, window_class_id(true, k), "in LTL[Y<=" + ks + "] ⊆ LTL[P,Y<=" + ks + "]");
    if (c.kind == CertificateKind::DepthTypes) {
        // The window types alone separate; the checker re-runs that (smaller) exploration.
        window_of(c).types = "window";
    }
    return c;
}

// A family that no formula of LTL[P,Y<=k] separates defeats every formula of LTL[Y<=k] too (a
// bisimulation for the window and past modalities is one for the window alone).
Certificate hybrid_no_as_local(const Certificate& hybrid, unsigned k) {
    const std::string ks = std::to_string(k);
    Certificate c = relabel(hybrid, window_class_id(false, k), "not in LTL[P,Y<=" + ks + "] ⊇ LTL[Y<=" + ks + "]");
    c.kind = CertificateKind::WindowBisimulation;
    return c;
}

// Theorem 10.6 on a definite language: a local_k "no" by a window family is a hybrid_k "no" (every
// bottom-SCC residual of a language of LTL[P,Y<=k] is in LTL[Y<=k], and the residual agrees with the
// language on long words). The family moves behind a word into the (unique) bottom SCC; the checker
// re-verifies it for the window modality and the bottom SCC.
std::optional<Certificate> definite_local_no_as_hybrid(const Dfa& minimal, const Certificate& local, unsigned k) {
    if (!local.family) return std::nullopt;
    const std::vector<Word> into = words_to_bottom_sccs(minimal);
    if (into.empty()) return std::nullopt;
    auto fam = family_behind(minimal, into.front(), *local.family);
    if (!fam) return std::nullopt;
    const std::string ks = std::to_string(k);
    Certificate c = relabel(local, window_class_id(true, k),
                            "definite, not in LTL[Y<=" + ks + "], hence not in LTL[P,Y<=" + ks +
                                "] (Theorem 10.6, docs/WINDOWS.md §10; the family moved behind a word into the bottom SCC)");
    c.kind = CertificateKind::HybridBisimulation;
    c.family = *fam;
    c.pairs.clear();
    for (std::size_t r = fam->r_min; r < fam->r_min + 3; ++r) {
        auto [u, v] = fam->at(r);
        if (u.size() + v.size() > 4000) break;
        if (!minimal.accepts(u)) std::swap(u, v);
        c.pairs.emplace_back(u, v);
    }
    window_of(c).reduction = "bottom_scc";
    window_of(c).modalities = "window";
    return c;
}

// Records on each yes/no window answer of a definite language whose degree lies in Corollary 10.5's
// certified range that the answer is complete by it (hybrid_k: with Theorem 10.6).
void record_completeness(const Dfa& minimal, unsigned max_k, Classification& out) {
    for (unsigned k = 2; k <= max_k; ++k) {
        const std::optional<std::size_t> delta = corollary_10_5_delta(minimal, k);
        if (!delta) continue;
        for (bool hybrid : {false, true}) {
            const auto& answers = hybrid ? out.hybrid_k : out.local_k;
            auto it = answers.find(k);
            if (it == answers.end() || it->second == Answer::Unknown) continue;
            Certificate& c = out.certificates[window_class_id(hybrid, k)];
            window_of(c).complete = corollary_10_5_claim(letter_classes(minimal), k, *delta, hybrid);
        }
    }
}

}  // namespace

// A bisimulation of a folded graph for the window-k relation W is one for W ∪ W² ∪ … ∪ W^q, which
// is the window-qk relation there (a step back of at most qk positions is at most q steps of at most
// k, along the word as along the folded period), so a no family for k is one for qk.
void apply_window_inclusions(const Dfa& minimal, unsigned max_k, std::size_t formula_cap, Classification& out) {
    WindowOptions options;
    options.max_formula_size = formula_cap;
    using window_strategies::fragment_name;
    const bool definite = definite_by_pair_graph(minimal);  // Theorem 10.6 carries local "no" to hybrid
    bool changed = true;
    while (changed) {
        changed = false;
        for (bool hybrid : {false, true}) {
            std::map<unsigned, Answer>& answers = hybrid ? out.hybrid_k : out.local_k;
            auto answer = [&](unsigned k) {
                auto it = answers.find(k);
                return it == answers.end() ? std::optional<Answer>() : std::optional<Answer>(it->second);
            };
            for (unsigned k = 2; k <= max_k; ++k)
                for (unsigned m = 2 * k; m <= max_k; m += k) {
                    const ClassId kid = window_class_id(hybrid, k), mid = window_class_id(hybrid, m);
                    if (answer(m) == Answer::Yes && answer(k) == Answer::Unknown && out.certificates[mid].formula) {
                        auto f = ltl::parse_formula(*out.certificates[mid].formula);
                        if (!f) continue;
                        auto w = window_yes_by_formula(
                            minimal, unfold_windows(*f, k), k, hybrid, options,
                            "in " + fragment_name(hybrid, m) + " ⊆ " + fragment_name(hybrid, k) + ": the " + to_string(mid) +
                                " formula with each Y<=" + std::to_string(m) + " written as " + std::to_string(m / k) +
                                " nested Y<=" + std::to_string(k),
                            "unfolded_from_k_" + std::to_string(m));
                        if (!w) continue;
                        answers[k] = Answer::Yes;
                        out.certificates[kid] = w->certificate;
                        changed = true;
                    }
                    if (answer(k) == Answer::No && answer(m) == Answer::Unknown && out.certificates[kid].family) {
                        Certificate c = relabel(out.certificates[kid], mid,
                                                "not in " + fragment_name(hybrid, k) + " ⊇ " + fragment_name(hybrid, m) +
                                                    " (a bisimulation for window " + std::to_string(k) +
                                                    " is one for window " + std::to_string(m) + ")");
                        window_of(c).k = m;
                        window_of(c).bisimilar_for_k = k;
                        answers[m] = Answer::No;
                        out.certificates[mid] = c;
                        changed = true;
                    }
                }
        }
        for (auto& [k, a] : out.local_k) {
            auto h = out.hybrid_k.find(k);
            if (h == out.hybrid_k.end()) continue;
            if (a == Answer::Yes && h->second == Answer::Unknown) {
                h->second = Answer::Yes;
                out.certificates[window_class_id(true, k)] = local_yes_as_hybrid(out.certificates[window_class_id(false, k)], k);
                changed = true;
            }
            if (a == Answer::No && h->second == Answer::Unknown && definite) {
                if (auto c = definite_local_no_as_hybrid(minimal, out.certificates[window_class_id(false, k)], k)) {
                    h->second = Answer::No;
                    out.certificates[window_class_id(true, k)] = *c;
                    changed = true;
                }
            }
            if (h->second == Answer::No && a == Answer::Unknown && out.certificates[window_class_id(true, k)].family) {
                a = Answer::No;
                out.certificates[window_class_id(false, k)] = hybrid_no_as_local(out.certificates[window_class_id(true, k)], k);
                changed = true;
            }
        }
    }
}

Result<Classification> classify(const Dfa& minimal, const ClassifyOptions& options) {
    if (auto v = minimal.validate(); !v) return v.error();
    trace_event("classify " + std::to_string(minimal.num_states()) + "-state DFA");  // tests only (base/trace.hh)
    Classification out;
    out.alphabet = minimal.alphabet;
    out.states = minimal.num_states();
    DfaAnalysis A(minimal);
    std::unique_ptr<SemigroupAnalysis> S;
    std::string semigroup_reason;
    bool semigroup_tried = false;
    auto need_semigroup = [&]() -> Result<bool> {
        if (!semigroup_tried) {
            semigroup_tried = true;
            auto s = detail::classify_semigroup(minimal, options.max_elements);
            if (s) S = std::move(s.value());
            else if (s.error().exit_code == 3) semigroup_reason = s.error().message;
            else return s.error();
        }
        return S != nullptr;
    };
    for (const ClassRow& row : class_table()) {
        ClassDecision d;
        if (row.by_dfa) {
            d = row.by_dfa(A);
        } else if (auto quick = decide_without_semigroup(row.kind, A, out.classes, out.certificates)) {
            d = std::move(*quick);
        } else {
            auto have = need_semigroup();
            if (!have) return have.error();
            if (!*have) {
                out.classes[row.id()] = std::nullopt;
                out.null_reasons[row.id()] = "decided only through the syntactic semigroup: " + semigroup_reason;
                continue;
            }
            d = row.by_semigroup(*S);
        }
        if (row.certify) row.certify(A, d, options.formula_cap);
        out.classes[row.id()] = d.member;
        out.certificates[row.id()] = d.certificate;
    }
    if (out.classes[ClassKind::Definite] == true) {
        auto lp = A.pair_graph_longest_path();
        out.definite_degree = minimal.num_states() <= 1 ? 0 : 1 + lp.value_or(0);
    }
    WindowOptions wo;
    wo.max_formula_size = options.formula_cap;
    wo.search_budget = options.window_budget;
    wo.probe_depth = options.probe_depth;
    wo.probe_states = options.probe_states;
    wo.memory_limit_bytes = options.window_memory_bytes;
    // Measured on the budget clock (wall or this thread's CPU time), like each question's deadline.
    const auto window_start = SearchBudget::Clock::now();
    const std::uint64_t window_work_start = budget_work_done();
    // For a definite language hybrid_k is local_k (Corollary 10.7, docs/WINDOWS.md §10): under a work
    // or time budget with the second round on, its hybrid questions wait until every local one has been
    // asked, and are asked only for the k whose local answer stayed unknown, so that the local questions
    // get the shares of both (the second round then gives what is left to both).
    const bool defer_definite_hybrid = options.window_definite_local_first && options.window_second_round &&
                                       (options.window_work > 0 || options.window_time_s > 0) &&
                                       out.classes[ClassKind::Definite] == true;
    std::size_t questions_left = 0;
    for (ClassKind id : {ClassKind::Definite, ClassKind::LocallyRTrivial})
        if (out.classes[id] != false && !(id == ClassKind::LocallyRTrivial && defer_definite_hybrid))
            questions_left += options.max_k >= 2 ? options.max_k - 1 : 0;
    std::vector<unsigned> deferred;  // the k of the hybrid questions of a definite language, asked after the loop
    // The work and time each question asked had (keyed by hybrid, k), for the second round.
    std::map<std::pair<bool, unsigned>, std::pair<std::uint64_t, double>> asked;
    auto ask = [&](const ClassId& id, bool hybrid, unsigned k) {
        if (options.window_time_s > 0) {
            const double used = std::chrono::duration<double>(SearchBudget::Clock::now() - window_start).count();
            wo.time_limit_s = std::max(options.window_time_s - used, 1e-3) / double(std::max<std::size_t>(questions_left, 1));
        }
        if (options.window_work > 0) {
            const std::uint64_t used = budget_work_done() - window_work_start;
            wo.work_limit = std::max<std::uint64_t>(options.window_work > used ? options.window_work - used : 0, 1) /
                            std::max<std::size_t>(questions_left, 1);
            wo.work_limit = std::max<std::uint64_t>(wo.work_limit, 1);
        }
        if (options.progress) wo.progress = [&](double sec, std::size_t rss) { options.progress(to_string(id), sec, rss); };
        WindowDecision w = hybrid ? decide_hybrid_k(minimal, k, wo) : decide_local_k(minimal, k, wo);
        release_free_memory();
        asked[{hybrid, k}] = {wo.work_limit, wo.time_limit_s};
        return w;
    };
    // The input formula, when its syntax lies in the fragment, is its own certificate.
    auto own_formula = [&](bool hybrid, unsigned k) -> std::optional<WindowDecision> {
        if (options.source.is_null()) return std::nullopt;
        for (const auto& a : ltl::atoms(options.source))
            if (std::find(minimal.alphabet.begin(), minimal.alphabet.end(), a) == minimal.alphabet.end()) return std::nullopt;
        const std::string frag = "LTL[" + std::string(hybrid ? "P," : "") + "Y<=" + std::to_string(k) + "]";
        if (formula_in_window_fragment(options.source, k, hybrid))
            return window_yes_by_formula(minimal, options.source, k, hybrid, wo, "the input formula lies in " + frag + " by its syntax");
        const ltl::Formula unfolded = unfold_windows(options.source, k);
        if (unfolded != options.source && formula_in_window_fragment(unfolded, k, hybrid))
            return window_yes_by_formula(minimal, unfolded, k, hybrid, wo,
                                         "the input formula with each Y<=qk written as q nested Y<=" + std::to_string(k) +
                                             " lies in " + frag);
        return std::nullopt;
    };
    for (unsigned k = 2; k <= options.max_k; ++k) {
        const ClassId lid = window_class_id(false, k), hid = window_class_id(true, k);
        const std::string ks = std::to_string(k);
        if (out.classes[ClassKind::Definite] == false) {
            out.local_k[k] = Answer::No;
            out.certificates[lid] = relabel(out.certificates[ClassKind::Definite], lid,
                                            "not definite, and LTL[Y<=" + ks + "] ⊆ LTL[Y]");
        } else {
            auto own = own_formula(false, k);
            WindowDecision w = own ? std::move(*own) : ask(lid, false, k);
            out.local_k[k] = w.answer;
            out.certificates[lid] = w.certificate;
            --questions_left;
        }
        if (out.classes[ClassKind::LocallyRTrivial] == false) {
            out.hybrid_k[k] = Answer::No;
            out.certificates[hid] = relabel(out.certificates[ClassKind::LocallyRTrivial], hid,
                                            "not locally R-trivial, and LTL[P,Y<=" + ks + "] ⊆ LTL[P,Y]");
        } else if (out.local_k[k] == Answer::Yes) {
            out.hybrid_k[k] = Answer::Yes;
            out.certificates[hid] = local_yes_as_hybrid(out.certificates[lid], k);
        } else if (auto derived = out.local_k[k] == Answer::No && out.classes[ClassKind::Definite] == true
                                      ? definite_local_no_as_hybrid(minimal, out.certificates[lid], k)
                                      : std::nullopt) {
            out.hybrid_k[k] = Answer::No;
            out.certificates[hid] = *derived;
        } else if (auto own = own_formula(true, k)) {
            out.hybrid_k[k] = own->answer;
            out.certificates[hid] = std::move(own->certificate);
        } else if (defer_definite_hybrid) {
            out.hybrid_k[k] = Answer::Unknown;
            deferred.push_back(k);
        } else {
            WindowDecision w = ask(hid, true, k);
            out.hybrid_k[k] = w.answer;
            out.certificates[hid] = w.certificate;
        }
        if (out.classes[ClassKind::LocallyRTrivial] != false && !defer_definite_hybrid) --questions_left;
    }
    questions_left = deferred.size();
    for (unsigned k : deferred) {
        const ClassId hid = window_class_id(true, k);
        WindowDecision w = ask(hid, true, k);
        --questions_left;
        w.certificate.fact += " (asked after every local question: for a definite language hybrid_k:" + std::to_string(k) +
                              " is local_k:" + std::to_string(k) + ", Corollary 10.7, docs/WINDOWS.md §10)";
        out.hybrid_k[k] = w.answer;
        out.certificates[hid] = std::move(w.certificate);
    }
    // The second round (docs/WINDOWS.md §5b): a question answered early leaves its share to the
    // questions after it, but not to those before; what is left at the end goes, in equal shares, to
    // the unknown questions a work or time bound stopped, or one of whose searches ran out of its
    // share (not memory: the same bound would stop them again), each asked again only if its share
    // is larger than the one it had, since the searches are deterministic in their work.
    if (options.window_second_round && (options.window_work > 0 || options.window_time_s > 0)) {
        apply_window_inclusions(minimal, options.max_k, options.formula_cap, out);
        // The bound that stopped an unknown question, or a search of it ("work" / "time"; memory
        // does not count): the one that ended it, else the first share a search ran out of.
        auto stopped_by = [](const Certificate& c) -> std::optional<BudgetStop::Bound> {
            if (!c.window) return std::nullopt;
            if (c.window->budget && c.window->budget->bound != BudgetStop::Bound::Memory) return c.window->budget->bound;
            for (const BudgetCut& cut : c.window->cuts)
                if (cut.bound == "work" || cut.bound == "time")
                    return cut.bound == "work" ? BudgetStop::Bound::Work : BudgetStop::Bound::Time;
            return std::nullopt;
        };
        std::vector<std::pair<bool, unsigned>> again;
        for (const auto& [q, had] : asked) {
            const auto& answers = q.first ? out.hybrid_k : out.local_k;
            if (answers.at(q.second) == Answer::Unknown && stopped_by(out.certificates[window_class_id(q.first, q.second)]))
                again.push_back(q);
        }
        // local before hybrid for each k, smaller k first: a local yes answers the hybrid question
        std::sort(again.begin(), again.end(), [](const auto& a, const auto& b) {
            return std::pair(a.second, a.first) < std::pair(b.second, b.first);
        });
        questions_left = again.size();
        for (const auto& [hybrid, k] : again) {
            std::map<unsigned, Answer>& answers = hybrid ? out.hybrid_k : out.local_k;
            const ClassId id = window_class_id(hybrid, k);
            const auto [work_had, time_had] = asked.at({hybrid, k});
            const std::uint64_t work_used = budget_work_done() - window_work_start;
            const std::uint64_t work_share =
                options.window_work > work_used ? (options.window_work - work_used) / std::max<std::size_t>(questions_left, 1) : 0;
            const double time_share =
                options.window_time_s > 0
                    ? (options.window_time_s - std::chrono::duration<double>(SearchBudget::Clock::now() - window_start).count()) /
                          double(std::max<std::size_t>(questions_left, 1))
                    : 0;
            const BudgetStop::Bound bound = stopped_by(out.certificates[id]).value_or(BudgetStop::Bound::Work);
            const bool larger = bound == BudgetStop::Bound::Work ? options.window_work == 0 || work_share > work_had
                                                                 : options.window_time_s == 0 || time_share > time_had;
            if (answers.at(k) != Answer::Unknown || !larger) {  // answered by an inclusion meanwhile, or no more to give
                --questions_left;
                continue;
            }
            // Theorem 10.12's route had its share at the first asking (window_decide.cc): now the
            // searches get the whole of the larger one.
            wo.route_after_searches = false;
            WindowDecision w = ask(id, hybrid, k);
            wo.route_after_searches = true;
            --questions_left;
            // An unknown again says what the larger share reached (its bounds are at least the first's).
            w.certificate.fact += w.answer == Answer::Unknown
                                      ? " (asked a second time with what the other window questions left: still unknown)"
                                      : " (asked a second time, with what the other window questions left)";
            answers[k] = w.answer;
            out.certificates[id] = std::move(w.certificate);
            if (w.answer != Answer::Unknown) apply_window_inclusions(minimal, options.max_k, options.formula_cap, out);
        }
    }
    // A hybrid no gives an unknown local answer its family, and the inclusions across k apply.
    apply_window_inclusions(minimal, options.max_k, options.formula_cap, out);
    record_completeness(minimal, options.max_k, out);
    return out;
}

std::optional<ClassId> predicting_class(const Architecture& arch) {
    for (const ClassRow& row : class_table())
        if (row.arch && *row.arch == arch) return row.id();
    const bool window = arch.kind == Architecture::Kind::Local || arch.kind == Architecture::Kind::Hybrid;
    if (window && arch.k >= 2) return window_class_id(arch.kind == Architecture::Kind::Hybrid, unsigned(arch.k));
    return std::nullopt;
}

ArchPrediction predict(const Classification& c, const Architecture& arch) {
    ArchPrediction p;
    p.arch = arch;
    const std::optional<ClassId> cls = predicting_class(arch);
    if (!cls) {
        p.reason = "unknown architecture '" + to_string(arch) + "'";
        return p;
    }
    const std::string id = to_string(*cls);
    auto cert = c.certificates.find(*cls);
    if (!cls->is_window()) {
        auto it = c.classes.find(*cls);
        if (it == c.classes.end() || !it->second) {
            p.reason = id + " undecided";
            return p;
        }
        if (*it->second) {
            p.prediction = Prediction::Recognizes;
            p.reason = id + (cert != c.certificates.end() ? ": " + cert->second.fact : "");
        } else {
            p.prediction = Prediction::Fails;
            p.reason = "not " + id + (cert != c.certificates.end() ? ": " + cert->second.fact : "");
            if (cert != c.certificates.end()) p.witness = cert->second.family;
        }
        return p;
    }
    const auto& m = cls->hybrid() ? c.hybrid_k : c.local_k;
    auto it = m.find(cls->k);
    if (it == m.end()) {
        p.reason = "window " + std::to_string(cls->k) + " above --max-k";
        return p;
    }
    const std::string fact = cert != c.certificates.end() ? cert->second.fact : "";
    if (it->second == Answer::Yes) p.prediction = Prediction::Recognizes, p.reason = id + ": " + fact;
    else if (it->second == Answer::No) {
        p.prediction = Prediction::Fails;
        p.reason = "not " + id + ": " + fact;
        if (cert != c.certificates.end()) p.witness = cert->second.family;
    } else p.reason = id + " unknown: " + fact;
    return p;
}

std::string explain_prediction(const Classification& c, const ArchPrediction& p, const Dfa* dfa) {
    const std::optional<ClassId> cls = predicting_class(p.arch);
    if (const ClassRow* row = cls ? find_class(*cls) : nullptr) {
        switch (p.prediction) {
            case Prediction::Recognizes: return "the language is " + row->phrase + " (" + row->logic + ")";
            case Prediction::Fails: return "the language is not " + row->phrase + ", so no " + row->logic + " formula defines it";
            case Prediction::Unknown: {
                auto why = c.null_reasons.find(row->id());
                return to_string(row->id()) + " is undecided" + (why != c.null_reasons.end() ? ": " + why->second : std::string());
            }
        }
    }
    const bool local = p.arch.kind == Architecture::Kind::Local;
    const std::string k = std::to_string(p.arch.k);
    const std::string logic = local ? "LTL[Y<=" + k + "]" : "LTL[P,Y<=" + k + "]";
    const std::string id = to_string(window_class_id(!local, unsigned(p.arch.k)));
    switch (p.prediction) {
        case Prediction::Recognizes: return "an " + logic + " formula defines the language (" + id + ": yes)";
        case Prediction::Fails: {
            const std::string why = dfa ? window_failure_reason(c, p, *dfa) : "";
            return "no " + logic + " formula defines the language (" + id + ": no)" + (why.empty() ? "" : ": " + why);
        }
        case Prediction::Unknown: break;
    }
    return "whether an " + logic + " formula defines the language is open (" + id + ": unknown, see its line above)";
}

std::optional<std::pair<Word, Word>> labelled_witness(const ArchPrediction& p, const Dfa& dfa) {
    if (!p.witness) return std::nullopt;
    auto [u, v] = p.witness->at(std::max<std::size_t>(p.witness->r_min, 2));
    if (dfa.accepts(u)) return std::make_pair(u, v);
    return std::make_pair(v, u);
}

}  // namespace ltlkit::automata::algebra
