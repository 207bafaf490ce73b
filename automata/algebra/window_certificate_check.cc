#include "automata/algebra/window_strategies.hh"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <numeric>
#include <set>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

#include "automata/algebra/budget.hh"
#include "automata/algebra/certificate_json.hh"
#include "automata/algebra/classes.hh"
#include "automata/algebra/depth_probe.hh"
#include "automata/algebra/window_complete.hh"
#include "automata/algebra/window_letters.hh"
#include "automata/algebra/window_reduction.hh"
#include "automata/algebra/window_strategies.hh"
#include "automata/algorithms.hh"
#include "automata/dfa_json.hh"
#include "base/json.hh"
#include "automata/monitor.hh"
#include "automata/random.hh"
#include "ltl/fragment.hh"
#include "ltl/parser.hh"
#include "ltl/printer.hh"

namespace ltlkit::automata::algebra {

// The product states every exploration the checker re-runs may reach (its messages say 5,000,000).
constexpr std::size_t kCheckProductStates = 5'000'000;

using namespace window_strategies;

// Independent re-verification (docs/WINDOWS.md §6): a "yes" formula is parsed, its fragment
// checked and compiled back; a "no" family is re-checked by recomputing the bisimulation of the
// folded graphs and the eventual membership difference on the embedded DFA.
namespace {

Result<bool> check_window_certificate_itself(const CertificateWithDfa& read, std::string* explanation) {
    auto say = [&](const std::string& s) {
        if (explanation) *explanation = s;
    };
    const Certificate& cert = read.certificate;
    const std::string& cls = read.class_text;
    const std::optional<ClassKind> stem = window_stem_of(cls);
    if (!stem) return make_error("not a window class id: " + cls);
    const bool hybrid = *stem == ClassKind::HybridK;
    if (!read.class_id) return make_error("bad window in class id: " + cls);  // 1 to 4 digits
    const unsigned k = read.class_id->k;
    if (k < 2) return make_error("window classes start at k = 2: " + cls);
    const Dfa minimal = minimize(read.dfa);
    const std::string kind = to_string(cert.kind);
    const bool unknown = cert.kind == CertificateKind::SearchExhausted;
    if (unknown != cert.unknown)
        return make_error(unknown ? "an unknown answer (kind search_exhausted) needs \"member\": null"
                                  : "certificate needs a boolean \"member\"");
    const bool member = !unknown && cert.member;
    auto count_in = [&](const char* key, const std::optional<std::size_t>& v, std::size_t hi) -> Result<std::size_t> {
        if (!v || *v < 1 || *v > hi)
            return make_error(std::string("certificate needs \"") + key + "\" between 1 and " + std::to_string(hi));
        return *v;
    };
    const WindowFields w = cert.window.value_or(WindowFields{});
    if (member && hybrid && w.residuals && !cert.formula) {
        // Theorem 10.8: the shape recomputed, then each entry's residual certificate re-checked on
        // the residual computed here; on the DFA over one letter per class where letters act alike
        // (Proposition 10.9: the same answer), as the decision asked it.
        const std::optional<LetterClasses> merged = letters_acting_alike(minimal);
        const Dfa& base = merged ? merged->reduced : minimal;
        // Theorem 10.12 (route transient_scc): transient SCCs of two or more states too, the state
        // inside each told by its window types from each entry, re-explored here at the given depth.
        const bool tracked = w.route == "transient_scc";
        const std::optional<TransientDag> dag = transient_dag(base, tracked);
        if (!dag) {
            say(tracked ? "Theorem 10.12 does not apply: the initial state lies in a bottom SCC"
                        : "Theorem 10.8 does not apply: the initial state lies in a bottom SCC or some other SCC has two or more states");
            return false;
        }
        if (tracked) {
            if (dag->tracked.empty()) {
                say("every transient SCC is a single state: Theorem 10.8's shape, not route transient_scc");
                return false;
            }
            auto depth = count_in("depth", w.depth, 64);
            if (!depth) return depth.error();
            for (const TransientDag::Tracked& g : dag->tracked)
                for (const State e : g.entries)
                    if (!track_scc_states(base, e, k, static_cast<unsigned>(*depth), kCheckProductStates, 0, nullptr, false)) {
                        say("from its entry state " + std::to_string(e) + " (of the minimal DFA" + (merged ? " over one letter per class" : "") + "), in a transient SCC of " +
                            std::to_string(g.states.size()) + " states, the window types up to depth " + std::to_string(*depth) +
                            " of the words that stay inside do not tell their state (or the exploration exceeds 5,000,000 states)");
                        return false;
                    }
        }
        const nlohmann::json& subs = *w.residuals;
        if (subs.size() != dag->first_entry.size()) {
            say("the DFA enters " + std::to_string(dag->first_entry.size()) + " bottom SCCs from transient states, the certificate has " +
                std::to_string(subs.size()) + " residual certificates");
            return false;
        }
        for (std::size_t b = 0; b < subs.size(); ++b) {
            // one state of the bottom SCC, equivalently every (Theorem 10.8): the certificate's DFA
            // must be the residual of some state of it
            const Word& x = dag->entry_words[dag->first_entry[b]];
            const std::string which = "the bottom SCC entered by '" + format_word(base.alphabet, x) + "'";
            const State entry = base.run(base.initial, x);
            if (residual_dfa(base, entry).num_states() == 1) continue;  // ∅ or Σ*: in every fragment
            if (subs[b].is_null()) {
                say(which + " has no residual certificate");
                return false;
            }
            auto sub = certificate_from_json(subs[b].dump());
            if (!sub) return make_error("residuals[" + std::to_string(b) + "]: " + sub.error().message);
            if (sub->class_text != to_string(window_class_id(false, k)) || !sub->certificate.member || sub->certificate.unknown) {
                say(which + ": its residual certificate is not a \"yes\" for " + to_string(window_class_id(false, k)));
                return false;
            }
            const Dfa claimed = minimize(sub->dfa);
            const std::vector<char> in = reachable_from(base, entry);  // a bottom SCC is what its states reach
            bool found = false;
            for (State s = 0; s < base.num_states() && !found; ++s) found = in[s] && residual_dfa(base, s) == claimed;
            if (!found) {
                say(which + ": its residual certificate is about the residual of no state of it");
                return false;
            }
            std::string why;
            auto ok = check_window_certificate(*sub, &why);
            if (!ok) return make_error("residuals[" + std::to_string(b) + "]: " + ok.error().message);
            if (!*ok) {
                say(which + ": " + why);
                return false;
            }
        }
        if (tracked)
            say("from every entry of each of the " + std::to_string(dag->tracked.size()) +
                " transient SCCs of two or more states, the window types of the words that stay inside tell their state (depth <= " +
                std::to_string(*w.depth) + ", re-explored), and the " + std::to_string(subs.size()) +
                " residual certificates (one per bottom SCC entered) re-verify in " + fragment_name(false, k) +
                ", so by Theorem 10.12 the language is in " + fragment_name(true, k));
        else
            say("every SCC that is not a bottom SCC is a single state and the " + std::to_string(subs.size()) +
                " residual certificates (one per bottom SCC entered) re-verify in " + fragment_name(false, k) +
                ", so by Theorem 10.8 the language is in " + fragment_name(true, k));
        return true;
    }
    if (member && cert.kind == CertificateKind::DepthTypes && !cert.formula && w.types == "closed_sets") {
        // Lemma 5 of docs/WINDOWS.md §3d for each set of the chain, then membership as a function of
        // the sets entered and the EOS key, each re-explored by the checker's own code
        // (window_sink_check.cc); over one letter per class where letters act alike (Proposition 10.9).
        if (!hybrid) {
            say("a closed-set exploration proves membership in LTL[P,Y<=k] (its formula uses P), not in " + fragment_name(false, k));
            return false;
        }
        if (!w.closed_sets) return make_error("a closed-set certificate needs the field \"closed_sets\"");
        const std::optional<LetterClasses> merged = letters_acting_alike(minimal);
        const Dfa& explored = merged ? merged->reduced : minimal;
        auto exploration = [&](const nlohmann::json& j, const std::string& what) -> Result<UpsetSearchReport::Exploration> {
            UpsetSearchReport::Exploration e;
            if (!j.is_object() || !j.contains("depth") || !j["depth"].is_number_unsigned() || !j.contains("marks") || !j["marks"].is_array())
                return make_error("closed_sets: " + what + " needs an unsigned \"depth\" and an array \"marks\"");
            e.depth = j["depth"].get<unsigned>();
            e.past_letters = j.value("past_letters", false);
            e.nested = j.value("nested", false);
            for (const auto& m : j["marks"]) {
                if (!m.is_number_unsigned()) return make_error("closed_sets: " + what + ": marks are indices of earlier sets");
                e.marks.push_back(m.get<std::size_t>());
            }
            return e;
        };
        std::vector<UpsetSearchReport::Step> chain;
        const nlohmann::json& sets = (*w.closed_sets)["sets"];
        for (std::size_t i = 0; i < sets.size(); ++i) {
            const std::string what = "set " + std::to_string(i + 1);
            auto by = exploration(sets[i], what);
            if (!by) return by.error();
            if (!sets[i].contains("states") || !sets[i]["states"].is_array() || sets[i]["states"].empty())
                return make_error("closed_sets: " + what + " needs a non-empty array \"states\" of words");
            UpsetSearchReport::Step step{std::vector<char>(explored.num_states(), 0), *by};
            for (const auto& text : sets[i]["states"]) {
                if (!text.is_string()) return make_error("closed_sets: " + what + ": states are words");
                auto word = parse_word(minimal.alphabet, text.get<std::string>());
                if (!word) return make_error("closed_sets: " + what + ": " + word.error().message);
                if (merged)
                    for (Symbol& c : *word) c = merged->class_of.at(c);
                step.set[explored.run(explored.initial, *word)] = 1;
            }
            chain.push_back(std::move(step));
        }
        auto decision = exploration((*w.closed_sets)["decision"], "the decision");
        if (!decision) return decision.error();
        auto found = check_closed_set_chain(explored, k, chain, *decision, kCheckProductStates);
        if (!found) return found.error();
        if (*found) {
            say(**found);
            return false;
        }
        say("each of the " + std::to_string(chain.size()) +
            " closed sets is closed, avoids the initial state and is entered only by words showing a key that words avoiding it never "
            "show, and membership is a function of the sets entered and the EOS key (re-explored), so by Lemmas 5 and 6 (docs/WINDOWS.md §3d) "
            "the language is in " + fragment_name(true, k));
        return true;
    }
    if (member && cert.kind == CertificateKind::DepthTypes && !cert.formula && w.types == "sink") {
        // Lemma 4 of docs/WINDOWS.md §3c: its hypothesis re-checked by an exploration of the checker's
        // own (window_sink_check.cc), on the DFA over one letter per class where letters act alike
        // (Proposition 10.9: the same answer, and the decision asked it there).
        if (!hybrid) {
            say("a sink-state exploration proves membership in LTL[P,Y<=k] (its formula uses P), not in " + fragment_name(false, k));
            return false;
        }
        auto depth = count_in("depth", w.depth, 64);
        if (!depth) return depth.error();
        if (!w.x) return make_error("a sink-state certificate needs the word \"x\" into the sink");
        const std::optional<LetterClasses> merged = letters_acting_alike(minimal);
        const Dfa& explored = merged ? merged->reduced : minimal;
        Word x = *w.x;
        if (merged)
            for (Symbol& c : x) c = merged->class_of.at(c);
        const bool letters = w.past_letters.value_or(false), mixed = w.mixed.value_or(false);
        auto found = check_sink_exploration(explored, k, static_cast<unsigned>(*depth), letters, mixed, x, kCheckProductStates);
        if (!found) return found.error();
        if (*found) {
            say(**found);
            return false;
        }
        say("the depth-" + std::to_string(*depth) + " window types" +
            (letters ? std::string(" of letters annotated with the letters before them") : std::string()) +
            " of words that avoid the sink (the state after '" + format_word(minimal.alphabet, *w.x) +
            "') never cover a word that enters it" + (mixed ? ", and their EOS types decide the words that avoid it" : "") +
            " (re-explored), so by Lemma 4 (docs/WINDOWS.md §3c) the language is in " + fragment_name(true, k));
        return true;
    }
    if (member && cert.kind == CertificateKind::DepthTypes && !cert.formula) {
        // Re-run the exhaustive exploration of the depth-d EOS types (depth_probe.hh).
        auto depth = count_in("depth", w.depth, 64);
        if (!depth) return depth.error();
        const std::size_t limit = kCheckProductStates;
        // "types": "window" on a hybrid class: the LTL[Y<=k] types separate, and equal LTL[P,Y<=k]
        // types are equal LTL[Y<=k] types, so those separate too.
        const bool window_types = hybrid && w.types == "window";
        // "types": "past_letters" on a hybrid class: the window types over letters annotated with the
        // letters before them (depth_probe.hh), whose characteristic formulas lie in LTL[P,Y<=k].
        const bool letter_types = w.types == "past_letters" || w.types == "eos_letters";
        if (letter_types && !hybrid) {
            say("types \"" + *w.types + "\" use the strict past, which " + fragment_name(false, k) + " lacks");
            return false;
        }
        const bool probe_past = hybrid && !window_types && !letter_types;
        // Over one letter per class of letters that act alike (Proposition 10.9, docs/WINDOWS.md §10):
        // equal types over the whole alphabet are equal types once the labels are merged, so types
        // that separate the merged words separate every word.
        const std::optional<LetterClasses> merged = letters_acting_alike(minimal);
        const Dfa& explored = merged ? merged->reduced : minimal;
        DepthProbe pr = letter_types ? probe_depth_past_letters(explored, k, static_cast<unsigned>(*depth),
                                                                w.types == "past_letters", limit)
                                     : probe_depth(explored, k, probe_past, static_cast<unsigned>(*depth), limit);
        if (pr.status == DepthProbe::Status::Separates) {
            say("the depth-" + std::to_string(*depth) + " EOS types of " + fragment_name(probe_past || letter_types, k) +
                (w.types == "past_letters"   ? " over letters annotated with the letters before them"
                 : w.types == "eos_letters" ? " with the word's letters at EOS"
                                            : "") +
                " determine membership on every word (" + std::to_string(pr.states) + " product states explored)" +
                (window_types ? ", so do those of " + fragment_name(true, k) : std::string()));
            return true;
        }
        if (pr.status == DepthProbe::Status::Conflict)
            say("the depth-" + std::to_string(*depth) + " EOS types of '" +
                format_word(minimal.alphabet, merged ? lift_word(pr.accepted, *merged) : pr.accepted) + "' (accepted) and '" +
                format_word(minimal.alphabet, merged ? lift_word(pr.rejected, *merged) : pr.rejected) + "' (rejected) are equal");
        else
            say("the exploration exceeded " + std::to_string(limit) + " product states");
        return false;
    }
    if (unknown) {
        // "unknown": nothing is claimed but the depth lower bound, if any: an accepted and a rejected
        // word whose depth-D EOS types are equal (recomputed on the words themselves).
        if (!w.depth_lower_bound) {
            say("an unknown answer without a depth lower bound claims nothing that can be re-verified");
            return false;
        }
        auto depth = count_in("depth_lower_bound", w.depth_lower_bound, 64);
        if (!depth) return depth.error();
        if (cert.pairs.empty()) return make_error("a depth lower bound needs \"pairs\": [[accepted, rejected]]");
        const auto& [a, r] = cert.pairs.front();
        if (!minimal.accepts(a) || minimal.accepts(r)) {
            say("the first pair is not [accepted, rejected]");
            return false;
        }
        if (!eos_depth_types_equal(a, r, k, hybrid, static_cast<unsigned>(*depth))) {
            say("the depth-" + std::to_string(*depth) + " EOS types of the pair differ");
            return false;
        }
        say("the answer is unknown; its lower bound holds: the depth-" + std::to_string(*depth) +
            " EOS types of an accepted and a rejected word are equal, so no " + fragment_name(hybrid, k) +
            " formula of depth <= " + std::to_string(*depth) + " defines the language");
        return true;
    }
    if (member) {
        if (!cert.formula) {
            say("a member certificate without a formula cannot be re-verified");
            return false;
        }
        auto f = ltl::parse_formula(*cert.formula);
        if (!f) return f.error();
        if (!formula_in_window_fragment(*f, k, hybrid)) {
            say("the formula is in " + ltl::fragment_of(*f).name() + ", not in " + fragment_name(hybrid, k));
            return false;
        }
        for (const auto& a : ltl::atoms(*f))
            if (std::find(minimal.alphabet.begin(), minimal.alphabet.end(), a) == minimal.alphabet.end()) {
                say("the formula uses symbol '" + a + "' outside the DFA's alphabet");
                return false;
            }
        Word cex;
        auto ok = formula_defines(*f, minimal, &cex);
        if (!ok) return ok.error();
        if (!*ok) {
            say("the formula's language differs from the DFA's on '" + format_word(minimal.alphabet, cex) + "'");
            return false;
        }
        say("the formula is in " + fragment_name(hybrid, k) + " and compiles to the DFA's minimal automaton");
        return true;
    }
    // Theorem 10.6 (window_reduction.hh): a hybrid "no" from a "no" for LTL[Y<=k] on the residual
    // after x, a word into a bottom SCC: either the residual is not definite, or the family (whose
    // words start with x) is re-checked for the window modality alone.
    const bool reduction = hybrid && w.reduction.has_value();
    // Corollary 10.11: the family, read from the state after x, keeps both runs inside that state's
    // SCC while membership differs, and its EOS nodes are bisimilar for the window alone.
    const bool inner = reduction && *w.reduction == "scc";
    if (inner) {
        if (w.residual_not_definite) return make_error("\"residual_not_definite\" belongs to reduction \"bottom_scc\"");
        if (!cert.family || cert.family->p.empty()) return make_error("reduction \"scc\" needs a family with a period");
        const auto from = scc_family_from(minimal, *cert.family);
        if (!from || *from > std::max<std::size_t>(cert.family->r_min, 1)) {
            say(from ? "the words stay inside the SCC of the state after x with membership differing only from r = " + std::to_string(*from)
                     : "for infinitely many r the words leave the SCC of the state after x or agree in membership");
            return false;
        }
    } else if (reduction) {
        if (*w.reduction != "bottom_scc") return make_error("\"reduction\" must be \"bottom_scc\" or \"scc\"");
        const bool not_definite = w.residual_not_definite.value_or(false);
        Word x;
        if (not_definite) {
            if (!w.x) return make_error("\"residual_not_definite\" needs the word \"x\"");
            x = *w.x;
        } else if (cert.family) {
            x = cert.family->x;
        }
        const State q = minimal.run(minimal.initial, x);
        if (!in_bottom_scc(minimal, q)) {
            say("the state after x = '" + format_word(minimal.alphabet, x) + "' is not in a bottom SCC");
            return false;
        }
        if (not_definite) {
            if (definite_by_pair_graph(residual_dfa(minimal, q))) {
                say("the residual after x = '" + format_word(minimal.alphabet, x) + "' is definite");
                return false;
            }
            say("the residual after x = '" + format_word(minimal.alphabet, x) +
                "' (a bottom SCC) is not definite, so not in LTL[Y<=" + std::to_string(k) + "] ⊆ LTL[Y]; by Theorem 10.6 "
                "the language is not in " + fragment_name(true, k));
            return true;
        }
    }
    const bool past_modality = hybrid && !reduction;
    const std::string by_reduction =
        inner ? "; read from the state after x, both words stay inside its SCC for those r, so by Corollary 10.11 the "
                "language is not in " + fragment_name(true, k)
        : reduction ? "; x leads into a bottom SCC, whose residual is thus not in " + fragment_name(false, k) +
                          ", so by Theorem 10.6 the language is not in " + fragment_name(true, k)
                    : std::string();
    if (!cert.family) {
        say("a non-member certificate without a family cannot be re-verified (kind " + kind + ")");
        return false;
    }
    // A window family is plain (x2 and e are not part of it) and has no loop markers.
    WordFamily f = *cert.family;
    f.x2.reset();
    f.e.clear();
    for (const Word* w : {&f.x, &f.p, &f.y, &f.z})
        if (std::find(w->begin(), w->end(), WordFamily::kLoopMarker) != w->end()) {
            // A loop marker is no letter of the alphabet: the word, as written, is not a word.
            auto as_word = parse_word(minimal.alphabet, family_word_text(minimal.alphabet, *w));
            return as_word ? make_error("a window family has no loop markers") : as_word.error();
        }
    const std::size_t r_min = f.r_min;
    if (f.p.empty()) {
        say("the period p is empty");
        return false;
    }
    if (!f.q.empty()) {  // the alternating family (docs/WINDOWS.md §2b)
        auto alt = alternating_differs_from(minimal, f.x, f.p, f.q, f.y, f.z);
        if (!alt || *alt > std::max<std::size_t>(r_min, 1)) {
            say(alt ? "membership of x·(pʳqʳ)ʳ·pʳ·y and x·(pʳqʳ)ʳ·pʳ·qʳ·z differs only from r = " + std::to_string(*alt)
                    : "membership of x·(pʳqʳ)ʳ·pʳ·y and x·(pʳqʳ)ʳ·pʳ·qʳ·z agrees for infinitely many r");
            return false;
        }
        if (!alternating_eos_bisimilar(f.p, f.q, f.y, f.z, k, past_modality)) {
            say("the EOS nodes of the two-cycle folded graph are not bisimilar for " + fragment_name(past_modality, k));
            return false;
        }
        say("membership differs for every r >= " + std::to_string(std::max<std::size_t>(r_min, 1)) +
            " and the two-cycle folded graph's EOS nodes are bisimilar for " + fragment_name(past_modality, k) + by_reduction);
        return true;
    }
    auto from = membership_differs_from(minimal, f.x, f.p, f.y, f.z);
    if (from && r_min == 0 &&
        minimal.accepts(f.at(0).first) == minimal.accepts(f.at(0).second))
        from = std::nullopt;
    if (!from || *from > std::max<std::size_t>(r_min, 1)) {
        say(from ? "membership of x·p^r·y and x·p^r·z differs only from r = " + std::to_string(*from)
                 : "membership of x·p^r·y and x·p^r·z agrees for infinitely many r");
        return false;
    }
    if (!family_eos_bisimilar(f.p, f.y, f.z, k, past_modality)) {
        say("the EOS nodes of the folded graphs are not bisimilar for " + fragment_name(past_modality, k));
        return false;
    }
    say("membership differs for every r >= " + std::to_string(std::max<std::size_t>(r_min, 1)) +
        " and the folded graphs' EOS nodes are bisimilar for " + fragment_name(past_modality, k) + by_reduction);
    return true;
}

// Proposition 10.10 (docs/WINDOWS.md §10): a certificate with "zero_letters" is about the language
// without them. The letters must be exactly those the repeated removal finds (zero_letters,
// window_letters.hh); the certificate, its words renamed into the remaining alphabet, is re-checked
// on what is left. The reduction carries
// a hybrid answer either way and a local "no" only.
Result<bool> check_zero_letters(const CertificateWithDfa& read, std::string* explanation) {
    auto say = [&](const std::string& s) {
        if (explanation) *explanation = s;
    };
    const std::vector<std::string>& listed = *read.certificate.window->zero_letters;
    const bool hybrid = window_stem_of(read.class_text) == ClassKind::HybridK;
    if (!hybrid && (read.certificate.member || read.certificate.unknown)) {
        say("zero letters carry only a \"no\" to LTL[Y<=k]: removing them does not preserve membership in it");
        return false;
    }
    const Dfa minimal = minimize(read.dfa);
    const std::optional<ZeroLetters> zero = zero_letters(minimal);
    std::vector<std::string> want = zero ? zero->letters() : std::vector<std::string>{}, got = listed;
    std::sort(want.begin(), want.end());
    std::sort(got.begin(), got.end());
    if (!zero || want != got) {
        std::string w, g;
        for (const auto& a : want) w += (w.empty() ? "" : ", ") + a;
        for (const auto& a : got) g += (g.empty() ? "" : ", ") + a;
        say("the certificate names zero letters {" + g + "}, but the DFA's are {" + w + "}");
        return false;
    }
    CertificateWithDfa inner = read;
    inner.dfa = zero->reduced;
    inner.certificate.window->zero_letters.reset();
    std::vector<std::optional<Symbol>> to_inner(minimal.num_symbols());
    for (Symbol b = 0; b < zero->kept.size(); ++b) to_inner[zero->kept[b]] = b;
    std::optional<std::string> stray;
    rename_words(inner.certificate, [&](Symbol s) {
        if (!to_inner.at(s)) stray = minimal.alphabet[s];
        return to_inner[s].value_or(s);
    });
    if (stray) {
        say("the certificate's words use the zero letter " + *stray + ", which the reduction removes");
        return false;
    }
    std::string inner_why;
    auto ok = check_window_certificate(inner, &inner_why);
    if (!ok) return ok.error();
    std::string letters;
    for (const auto& a : got) letters += (letters.empty() ? "" : ", ") + a;
    say("{" + letters + "} " + (got.size() == 1 ? "is the zero letter" : "are the zero letters") +
        " of the DFA (Proposition 10.10); without " + std::string(got.size() == 1 ? "it" : "them") + ": " + inner_why);
    return *ok;
}

}  // namespace

// The certificate itself, and its field "complete" when present: the claim that the answer is
// complete by Corollary 10.5 (docs/WINDOWS.md §10; for hybrid_k with Theorem 10.6) is re-checked by
// recomputing the degree, the range, the certification of Π(|Σ|, k, δ) and the prediction (the
// last-δ-letters labelling constant on Π's blocks iff member). A "yes" of route corollary_10_5
// (kind depth_types without a formula) rests on that claim alone.
Result<bool> check_window_certificate(const CertificateWithDfa& read, std::string* explanation) {
    const Certificate& cert = read.certificate;
    if (cert.window && cert.window->zero_letters) return check_zero_letters(read, explanation);
    if (!cert.window || !cert.window->complete) return check_window_certificate_itself(read, explanation);
    const CompletenessClaim& c = *cert.window->complete;
    auto say = [&](const std::string& s) {
        if (explanation) *explanation = s;
    };
    const std::string& cls = read.class_text;
    const std::optional<ClassKind> stem = window_stem_of(cls);
    if (!stem) return make_error("not a window class id: " + cls);
    const bool hybrid = *stem == ClassKind::HybridK;
    if (!read.class_id) return make_error("bad window in class id: " + cls);  // 1 to 4 digits
    const unsigned k = read.class_id->k;
    const Dfa minimal = minimize(read.dfa);
    // |Σ| counts letters that act alike once (Proposition 10.9), as check_corollary_10_5 does.
    const std::size_t sigma = letter_classes(minimal);
    if (c.sigma != sigma || c.k != k) {
        say("the completeness claim names (|Σ|, k) = (" + std::to_string(c.sigma) + ", " + std::to_string(c.k) +
            "), the certificate's DFA and class have (" + std::to_string(sigma) + ", " + std::to_string(k) + ")");
        return false;
    }
    if (cert.unknown) {
        say("an answer complete by Corollary 10.5 is yes or no, not unknown");
        return false;
    }
    const bool member = cert.member;
    const CorollaryCheck cc = check_corollary_10_5(minimal, k);
    if (!cc.holds) {
        say("the completeness claim fails: " + cc.why);
        return false;
    }
    if (cc.delta != c.delta) {
        say("the completeness claim names δ = " + std::to_string(c.delta) + ", the language is " + std::to_string(cc.delta) +
            "-definite");
        return false;
    }
    const std::string ks = std::to_string(k);
    const std::string claim =
        "complete by Corollary 10.5" + std::string(hybrid ? " and Theorem 10.6" : "") + ": the language is " +
        std::to_string(cc.delta) + "-definite over " + std::to_string(sigma) + " letters" +
        (sigma != minimal.num_symbols() ? " (letters that act alike counted once)" : "") + ", Π(" + std::to_string(sigma) + ", " + ks + ", " + std::to_string(cc.delta) + ") recertified at depth " +
        std::to_string(cc.depth) + " (" + std::to_string(cc.blocks) + " blocks), and its last-" + std::to_string(cc.delta) +
        "-letters labelling is " + (cc.member ? "constant" : "not constant") + " on them";
    if (cc.member != member) {
        say(claim + ", which contradicts the answer");
        return false;
    }
    const bool by_claim_alone = member && !cert.formula && cert.window->route == "corollary_10_5";
    if (by_claim_alone) {
        say(claim + ", so a formula of depth " + std::to_string(std::max<std::size_t>(cc.depth, cc.delta)) +
            " defines the language (Theorem 10.3(a))");
        return true;
    }
    std::string inner;
    auto r = check_window_certificate_itself(read, &inner);
    if (!r.ok() || !*r) {
        if (explanation) *explanation = inner;
        return r;
    }
    say(inner + "; " + claim);
    return true;
}

Result<bool> check_window_certificate(const std::string& json_text, std::string* explanation) {
    auto read = certificate_from_json(json_text);
    if (!read) return read.error();
    return check_window_certificate(*read, explanation);
}

}  // namespace ltlkit::automata::algebra
