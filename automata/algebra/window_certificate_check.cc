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
#include "automata/algebra/classes.hh"
#include "automata/algebra/depth_probe.hh"
#include "automata/algebra/window_complete.hh"
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

using namespace window_strategies;

// Independent re-verification (docs/WINDOWS.md §6): a "yes" formula is parsed, its fragment
// checked and compiled back; a "no" family is re-checked by recomputing the bisimulation of the
// folded graphs and the eventual membership difference on the embedded DFA.
namespace {

Result<bool> check_window_certificate_itself(const std::string& json_text, std::string* explanation) {
    auto say = [&](const std::string& s) {
        if (explanation) *explanation = s;
    };
    auto parsed = parse_json<nlohmann::json>(json_text);
    if (!parsed.ok()) return parsed.error();
    nlohmann::json& j = *parsed;
    if (!j.is_object() || !j.contains("dfa") || !j.contains("class") || !j["class"].is_string())
        return make_error("certificate needs \"dfa\" and \"class\"");
    std::string cls = j["class"];
    const std::optional<ClassKind> stem = window_stem_of(cls);
    if (!stem) return make_error("not a window class id: " + cls);
    const bool hybrid = *stem == ClassKind::HybridK;
    const std::optional<ClassId> id = parse_class_id(cls);  // 1 to 4 digits
    if (!id) return make_error("bad window in class id: " + cls);
    unsigned k = id->k;
    if (k < 2) return make_error("window classes start at k = 2: " + cls);
    auto dfa = dfa_from_json(j["dfa"].dump());
    if (!dfa) return dfa.error();
    Dfa minimal = minimize(*dfa);
    std::string kind = j.contains("kind") && j["kind"].is_string() ? j["kind"].get<std::string>() : "";
    const bool unknown = parse_certificate_kind(kind) == CertificateKind::SearchExhausted;
    if (!j.contains("member") || !(unknown ? j["member"].is_null() : j["member"].is_boolean()))
        return make_error(unknown ? "an unknown answer (kind search_exhausted) needs \"member\": null"
                                  : "certificate needs a boolean \"member\"");
    const bool member = !unknown && j["member"].get<bool>();
    auto read_count = [&](const char* key, std::size_t hi) -> Result<std::size_t> {
        if (!j.contains(key) || !j[key].is_number_unsigned() || j[key].get<std::size_t>() < 1 || j[key].get<std::size_t>() > hi)
            return make_error(std::string("certificate needs \"") + key + "\" between 1 and " + std::to_string(hi));
        return j[key].get<std::size_t>();
    };
    if (member && parse_certificate_kind(kind) == CertificateKind::DepthTypes && !j.contains("formula")) {
        // Re-run the exhaustive exploration of the depth-d EOS types (depth_probe.hh).
        auto depth = read_count("depth", 64);
        if (!depth) return depth.error();
        const std::size_t limit = 5'000'000;
        // "types": "window" on a hybrid class: the LTL[Y<=k] types separate, and equal LTL[P,Y<=k]
        // types are equal LTL[Y<=k] types, so those separate too.
        const bool window_types = hybrid && j.contains("types") && j["types"] == "window";
        const bool probe_past = hybrid && !window_types;
        DepthProbe pr = probe_depth(minimal, k, probe_past, static_cast<unsigned>(*depth), limit);
        if (pr.status == DepthProbe::Status::Separates) {
            say("the depth-" + std::to_string(*depth) + " EOS types of " + fragment_name(probe_past, k) +
                " determine membership on every word (" + std::to_string(pr.states) + " product states explored)" +
                (window_types ? ", so do those of " + fragment_name(true, k) : std::string()));
            return true;
        }
        if (pr.status == DepthProbe::Status::Conflict)
            say("the depth-" + std::to_string(*depth) + " EOS types of '" + format_word(minimal.alphabet, pr.accepted) +
                "' (accepted) and '" + format_word(minimal.alphabet, pr.rejected) + "' (rejected) are equal");
        else
            say("the exploration exceeded " + std::to_string(limit) + " product states");
        return false;
    }
    if (unknown) {
        // "unknown": nothing is claimed but the depth lower bound, if any: an accepted and a rejected
        // word whose depth-D EOS types are equal (recomputed on the words themselves).
        if (!j.contains("depth_lower_bound")) {
            say("an unknown answer without a depth lower bound claims nothing that can be re-verified");
            return false;
        }
        auto depth = read_count("depth_lower_bound", 64);
        if (!depth) return depth.error();
        if (!j.contains("pairs") || !j["pairs"].is_array() || j["pairs"].empty() || !j["pairs"][0].is_array() ||
            j["pairs"][0].size() != 2 || !j["pairs"][0][0].is_string() || !j["pairs"][0][1].is_string())
            return make_error("a depth lower bound needs \"pairs\": [[accepted, rejected]]");
        auto a = parse_word(minimal.alphabet, j["pairs"][0][0].get<std::string>());
        if (!a) return a.error();
        auto r = parse_word(minimal.alphabet, j["pairs"][0][1].get<std::string>());
        if (!r) return r.error();
        if (!minimal.accepts(*a) || minimal.accepts(*r)) {
            say("the first pair is not [accepted, rejected]");
            return false;
        }
        if (!eos_depth_types_equal(*a, *r, k, hybrid, static_cast<unsigned>(*depth))) {
            say("the depth-" + std::to_string(*depth) + " EOS types of the pair differ");
            return false;
        }
        say("the answer is unknown; its lower bound holds: the depth-" + std::to_string(*depth) +
            " EOS types of an accepted and a rejected word are equal, so no " + fragment_name(hybrid, k) +
            " formula of depth <= " + std::to_string(*depth) + " defines the language");
        return true;
    }
    if (member) {
        if (!j.contains("formula") || !j["formula"].is_string()) {
            say("a member certificate without a formula cannot be re-verified");
            return false;
        }
        auto f = ltl::parse_formula(j["formula"].get<std::string>());
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
    const bool reduction = hybrid && j.contains("reduction");
    if (reduction) {
        if (!j["reduction"].is_string() || j["reduction"] != "bottom_scc")
            return make_error("\"reduction\" must be \"bottom_scc\"");
        const bool not_definite = j.contains("residual_not_definite") && j["residual_not_definite"] == true;
        Word x;
        if (not_definite) {
            if (!j.contains("x") || !j["x"].is_string()) return make_error("\"residual_not_definite\" needs the word \"x\"");
            auto w = parse_word(minimal.alphabet, j["x"].get<std::string>());
            if (!w) return w.error();
            x = *w;
        } else if (j.contains("family") && j["family"].is_object()) {
            auto fam = family_from_json(j["family"], minimal.alphabet, FamilyForm::Plain);
            if (!fam) return fam.error();
            x = fam->x;
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
        reduction ? "; x leads into a bottom SCC, whose residual is thus not in " + fragment_name(false, k) +
                        ", so by Theorem 10.6 the language is not in " + fragment_name(true, k)
                  : std::string();
    if (!j.contains("family") || !j["family"].is_object()) {
        say("a non-member certificate without a family cannot be re-verified (kind " + kind + ")");
        return false;
    }
    auto fam = family_from_json(j["family"], minimal.alphabet, FamilyForm::Plain);
    if (!fam) return fam.error();
    const WordFamily& f = *fam;
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

}  // namespace

// The certificate itself, and its field "complete" when present: the claim that the answer is
// complete by Corollary 10.5 (docs/WINDOWS.md §10; for hybrid_k with Theorem 10.6) is re-checked by
// recomputing the degree, the range, the certification of Π(|Σ|, k, δ) and the prediction (the
// last-δ-letters labelling constant on Π's blocks iff member). A "yes" of route corollary_10_5
// (kind depth_types without a formula) rests on that claim alone.
Result<bool> check_window_certificate(const std::string& json_text, std::string* explanation) {
    auto parsed = parse_json<nlohmann::json>(json_text);
    if (!parsed.ok()) return parsed.error();
    const nlohmann::json& j = *parsed;
    if (!j.is_object() || !j.contains("complete")) return check_window_certificate_itself(json_text, explanation);
    auto say = [&](const std::string& s) {
        if (explanation) *explanation = s;
    };
    const nlohmann::json& c = j["complete"];
    if (!c.is_object() || !c.contains("sigma") || !c.contains("k") || !c.contains("delta") || !c["sigma"].is_number_unsigned() ||
        !c["k"].is_number_unsigned() || !c["delta"].is_number_unsigned())
        return make_error("\"complete\" needs unsigned \"sigma\", \"k\" and \"delta\"");
    if (!j.contains("dfa") || !j.contains("class") || !j["class"].is_string())
        return make_error("certificate needs \"dfa\" and \"class\"");
    const std::string cls = j["class"];
    const std::optional<ClassKind> stem = window_stem_of(cls);
    if (!stem) return make_error("not a window class id: " + cls);
    const bool hybrid = *stem == ClassKind::HybridK;
    const std::optional<ClassId> id = parse_class_id(cls);  // 1 to 4 digits
    if (!id) return make_error("bad window in class id: " + cls);
    const unsigned k = id->k;
    auto dfa = dfa_from_json(j["dfa"].dump());
    if (!dfa) return dfa.error();
    const Dfa minimal = minimize(*dfa);
    if (c["sigma"].get<std::size_t>() != minimal.num_symbols() || c["k"].get<unsigned>() != k) {
        say("the completeness claim names (|Σ|, k) = (" + std::to_string(c["sigma"].get<std::size_t>()) + ", " +
            std::to_string(c["k"].get<unsigned>()) + "), the certificate's DFA and class have (" +
            std::to_string(minimal.num_symbols()) + ", " + std::to_string(k) + ")");
        return false;
    }
    if (!j.contains("member") || !j["member"].is_boolean()) {
        say("an answer complete by Corollary 10.5 is yes or no, not unknown");
        return false;
    }
    const bool member = j["member"].get<bool>();
    const CorollaryCheck cc = check_corollary_10_5(minimal, k);
    if (!cc.holds) {
        say("the completeness claim fails: " + cc.why);
        return false;
    }
    if (cc.delta != c["delta"].get<std::size_t>()) {
        say("the completeness claim names δ = " + std::to_string(c["delta"].get<std::size_t>()) + ", the language is " +
            std::to_string(cc.delta) + "-definite");
        return false;
    }
    const std::string ks = std::to_string(k);
    const std::string claim =
        "complete by Corollary 10.5" + std::string(hybrid ? " and Theorem 10.6" : "") + ": the language is " +
        std::to_string(cc.delta) + "-definite over " + std::to_string(minimal.num_symbols()) + " letters, Π(" +
        std::to_string(minimal.num_symbols()) + ", " + ks + ", " + std::to_string(cc.delta) + ") recertified at depth " +
        std::to_string(cc.depth) + " (" + std::to_string(cc.blocks) + " blocks), and its last-" + std::to_string(cc.delta) +
        "-letters labelling is " + (cc.member ? "constant" : "not constant") + " on them";
    if (cc.member != member) {
        say(claim + ", which contradicts the answer");
        return false;
    }
    const bool by_claim_alone = member && !j.contains("formula") && j.value("route", std::string()) == "corollary_10_5";
    if (by_claim_alone) {
        say(claim + ", so a formula of depth " + std::to_string(std::max<std::size_t>(cc.depth, cc.delta)) +
            " defines the language (Theorem 10.3(a))");
        return true;
    }
    std::string inner;
    auto r = check_window_certificate_itself(json_text, &inner);
    if (!r.ok() || !*r) {
        if (explanation) *explanation = inner;
        return r;
    }
    say(inner + "; " + claim);
    return true;
}

}  // namespace ltlkit::automata::algebra
