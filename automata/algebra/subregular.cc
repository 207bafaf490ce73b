// The subregular classes as a whole (docs/SUBREGULAR.md): the list of names, the decisions, the
// certificate JSON, the independent checker and the notes on attention architectures.
#include "automata/algebra/subregular.hh"

#include <algorithm>
#include <map>
#include <set>

#include "automata/algebra/class_support.hh"
#include "automata/algebra/classes.hh"
#include "automata/algebra/classify.hh"
#include "automata/algebra/subregular_internal.hh"
#include "automata/algorithms.hh"
#include "automata/dfa_json.hh"

namespace ltlkit::automata::algebra {

using subregular::Json;

const std::vector<std::string>& subregular_class_ids() {
    static const std::vector<std::string> ids = {"finite", "cofinite", "SL", "SP", "LT", "PT", "LTT", "TSL", "DA",
                                                 "aperiodic_commutative"};
    return ids;
}

bool is_subregular_class(const std::string& id) {
    const auto& ids = subregular_class_ids();
    return std::find(ids.begin(), ids.end(), id) != ids.end();
}

namespace subregular {

SubregularDecision decision(const std::string& id, std::optional<bool> member, Json params, const std::string& fact, Json fields) {
    SubregularDecision d;
    d.id = id;
    d.member = member;
    d.params = params.is_null() ? Json::object() : params;
    d.fact = fact;
    Json c;
    c["class"] = id;
    c["member"] = member ? Json(*member) : Json(nullptr);
    c["kind"] = "subregular";
    c["params"] = d.params;
    c["fact"] = fact;
    for (auto& [k, v] : fields.items()) c[k] = v;
    d.certificate = c;
    return d;
}

Json word_json(const Dfa& d, const Word& w) { return format_word(d.alphabet, w); }

Json marked_json(const std::vector<std::string>& alphabet, const Word& w) {
    Json a = Json::array();
    for (Symbol s : w) a.push_back(s == kLeftMarker ? std::string("⋊") : s == kRightMarker ? std::string("⋉") : alphabet[s]);
    return a;
}

Result<Word> word_from_json(const nlohmann::json& j, const std::vector<std::string>& alphabet) {
    if (!j.is_string()) return make_error("a word is a JSON string");
    return parse_word(alphabet, j.get<std::string>());
}

Result<Word> marked_from_json(const nlohmann::json& j, const std::vector<std::string>& alphabet) {
    if (!j.is_array()) return make_error("a marked factor is an array of symbol names (⋊ and ⋉ for the word boundaries)");
    Word w;
    for (const auto& s : j) {
        if (!s.is_string()) return make_error("a marked factor holds strings");
        const std::string name = s;
        if (name == "⋊") w.push_back(kLeftMarker);
        else if (name == "⋉") w.push_back(kRightMarker);
        else {
            auto it = std::find(alphabet.begin(), alphabet.end(), name);
            if (it == alphabet.end()) return make_error("the symbol '" + name + "' of a factor is not in the alphabet");
            w.push_back(Symbol(it - alphabet.begin()));
        }
    }
    return w;
}

}  // namespace subregular

std::string marked_word_text(const std::vector<std::string>& alphabet, const Word& w) {
    std::string s;
    for (const auto& x : subregular::marked_json(alphabet, w)) s += x.get<std::string>();
    return s;
}

std::optional<SubregularDecision> decide_subregular(const std::string& id, const Dfa& d, const SubregularOptions& o) {
    using namespace subregular;
    if (id == "finite") return decide_finite(d, false, o);
    if (id == "cofinite") return decide_finite(d, true, o);
    if (id == "SL") return decide_sl(d, o);
    if (id == "SP") return decide_sp(d, o);
    if (id == "LT") return decide_pt_lt(d, TypeKind::LT, o);
    if (id == "PT") return decide_pt_lt(d, TypeKind::PT, o);
    if (id == "LTT") return decide_ltt(d, o);
    if (id == "TSL") return decide_tsl(d, o);
    if (id == "DA") return decide_da(d, o);
    if (id == "aperiodic_commutative") return decide_aperiodic_commutative(d);
    return std::nullopt;
}

std::vector<SubregularDecision> classify_subregular(const Dfa& d, const SubregularOptions& o) {
    std::vector<SubregularDecision> out;
    for (const auto& id : subregular_class_ids()) out.push_back(*decide_subregular(id, d, o));
    return out;
}

std::string subregular_certificate_json(const SubregularDecision& dec, const Dfa& d) {
    Json c = dec.certificate;
    c["dfa"] = Json::parse(to_json(d));
    return c.dump(2);
}

std::string subregular_prediction_note(const SubregularDecision& d) {
    if (d.member != true) return "";
    // docs/SUBREGULAR.md §3.
    if (d.id == "finite" || d.id == "cofinite")
        return "definite (a language of words of length <= m, or its complement, is definite of degree m+1): LTL[Y], local attention recognizes it";
    if (d.id == "SP" || d.id == "PT" || d.id == "aperiodic_commutative")
        return std::string(d.id == "SP" ? "SP ⊆ PT; " : d.id == "PT" ? "" : "aperiodic commutative ⊆ PT; ") +
               "PT is J-trivial, hence R-trivial: LTL[P], global attention recognizes it";
    if (d.id == "SL" || d.id == "LT")
        return std::string(d.id == "SL" ? "SL ⊆ LT; " : "") +
               "LT (eSe a semilattice) is locally R-trivial: LTL[P,Y], hybrid attention recognizes it; SL-k is not in general definite";
    return "";
}

nlohmann::ordered_json subregular_summary_json(const std::vector<SubregularDecision>& ds) {
    Json j = Json::object();
    for (const auto& d : ds)
        j[d.id] = {{"member", d.member ? Json(*d.member) : Json(nullptr)}, {"params", d.params}, {"fact", d.fact},
                   {"prediction", subregular_prediction_note(d)}};
    return j;
}

// ---------------------------------------------------------------- checker

namespace {

struct Say {
    std::string* why;
    bool operator()(const std::string& s, bool v) const {
        if (why) *why = s;
        return v;
    }
};

Dfa lift(const Dfa& over_tier, const std::vector<std::string>& alphabet) {
    // Letters outside the tier loop on every state.
    Dfa r;
    r.alphabet = alphabet;
    r.initial = over_tier.initial;
    r.accepting = over_tier.accepting;
    r.delta.resize(over_tier.num_states() * alphabet.size());
    for (State q = 0; q < over_tier.num_states(); ++q)
        for (std::size_t a = 0; a < alphabet.size(); ++a) {
            auto it = std::find(over_tier.alphabet.begin(), over_tier.alphabet.end(), alphabet[a]);
            r.delta[q * alphabet.size() + a] =
                it == over_tier.alphabet.end() ? q : over_tier.next(q, Symbol(it - over_tier.alphabet.begin()));
        }
    return minimize(r);
}

Result<bool> same_language(const Dfa& built, const Dfa& d, const std::string& what, Say say) {
    if (auto w = distinguishing_word(built, d))
        return say(what + " and the embedded DFA differ on '" + format_word(d.alphabet, *w) + "'", false);
    return say(what + " is the embedded DFA's language", true);
}

Result<std::size_t> param_k(const nlohmann::json& j) {
    if (!j.contains("k") || !j["k"].is_number_integer() || j["k"].get<long long>() < 1 || j["k"].get<long long>() > 64)
        return make_error("the certificate needs \"k\", an integer from 1 to 64");
    return std::size_t(j["k"].get<long long>());
}

Result<bool> check_sl_like(const nlohmann::json& j, const Dfa& d, bool tier, Say say) {
    using namespace subregular;
    std::vector<std::string> sigma = d.alphabet;
    Dfa on = d;
    if (tier) {
        // The tier must hold every letter that is not free, for the "no" answers to be about every tier.
        if (!j.contains("tier") || !j["tier"].is_array()) return make_error("a TSL certificate needs \"tier\"");
        sigma.clear();
        std::vector<Symbol> keep;
        for (const auto& s : j["tier"]) {
            if (!s.is_string()) return make_error("\"tier\" holds symbol names");
            auto it = std::find(d.alphabet.begin(), d.alphabet.end(), s.get<std::string>());
            if (it == d.alphabet.end()) return make_error("the tier symbol '" + s.get<std::string>() + "' is not in the alphabet");
            keep.push_back(Symbol(it - d.alphabet.begin())), sigma.push_back(s);
        }
        on = restrict_letters(d, keep);
        if (j["member"] == false)
            for (Symbol a = 0; a < d.num_symbols(); ++a)
                if (std::find(keep.begin(), keep.end(), a) == keep.end())
                    for (State q = 0; q < d.num_states(); ++q)
                        if (d.next(q, a) != q) return say("the letter " + d.alphabet[a] + " is not free but is not on the tier", false);
    }
    if (j["member"] == false) {
        if (!j.contains("every_k")) return make_error("a non-member certificate needs \"every_k\"");
        return check_sl_triple(on, j["every_k"], std::nullopt, say.why);
    }
    auto k = param_k(j);
    if (!k) return k.error();
    if (j.contains("below")) {
        std::string w;
        auto r = check_sl_triple(on, j["below"], *k - 1, &w);
        if (!r) return r.error();
        if (!*r) return say("the triple refuting SL-" + std::to_string(*k - 1) + ": " + w, false);
    } else if (*k >= 2) {
        return say("k = " + std::to_string(*k) + " is claimed least but no \"below\" triple refutes k-1", false);
    }
    std::vector<Word> forbidden;
    if (j.contains("forbidden")) {
        if (!j["forbidden"].is_array()) return make_error("\"forbidden\" is an array of marked factors");
        for (const auto& f : j["forbidden"]) {
            auto w = marked_from_json(f, on.alphabet);
            if (!w) return w.error();
            forbidden.push_back(*w);
        }
    } else {
        auto allowed = sl_allowed_factors(on, unsigned(*k), 2'000'000);
        if (!allowed) return say("too many factors to rebuild the SL-" + std::to_string(*k) + " language", false);
        std::set<Word> ok(allowed->begin(), allowed->end());
        for (const Word& f : sl_all_factors(on.num_symbols(), unsigned(*k)))
            if (!ok.count(f)) forbidden.push_back(f);
    }
    Dfa built = sl_dfa_from_forbidden(on.alphabet, unsigned(*k), forbidden);
    if (tier) built = lift(built, d.alphabet);
    return same_language(built, d, std::string(tier ? "the tier projection's " : "the ") + "SL-" + std::to_string(*k) +
                                       " language of the forbidden factors" + (tier ? ", lifted," : ""),
                         say);
}

Result<bool> check_pair_types(const nlohmann::json& b, const Dfa& d, subregular::TypeKind kind, unsigned k, Say say) {
    using namespace subregular;
    if (!b.is_object() || !b.contains("accepted") || !b.contains("rejected")) return make_error("\"below\" needs \"accepted\" and \"rejected\"");
    auto u = word_from_json(b["accepted"], d.alphabet), v = word_from_json(b["rejected"], d.alphabet);
    if (!u) return u.error();
    if (!v) return v.error();
    if (!d.accepts(*u) || d.accepts(*v)) return say("the pair is not [accepted, rejected]", false);
    const bool same = kind == TypeKind::PT ? pt_type(*u, k) == pt_type(*v, k) : lt_type(*u, k) == lt_type(*v, k);
    if (!same) return say("the two words have different " + std::to_string(k) + "-types", false);
    return say("two words of one " + std::to_string(k) + "-type differ", true);
}

}  // namespace

Result<bool> check_subregular_certificate(const nlohmann::json& j, std::string* why) {
    using namespace subregular;
    Say say{why};
    if (!j.contains("dfa") || !j.contains("member")) return make_error("a certificate needs \"dfa\" and \"member\"");
    auto dr = dfa_from_json(j["dfa"].dump());
    if (!dr) return dr.error();
    const Dfa& d = *dr;
    if (!is_minimal(d)) return say("the embedded DFA is not minimal", false);
    const std::string cls = j["class"];
    if (!j["member"].is_boolean()) return say("the decision was left open (\"member\": null): nothing to check", false);
    const bool member = j["member"];
    if (j.contains("violation")) {  // an identity that every language of the class satisfies
        if (member) return say("an identity violation refutes membership; it cannot prove it", false);
        const auto& v = j["violation"];
        if (!v.is_object() || !v.contains("identity") || !v["identity"].is_string() || !v.contains("words"))
            return make_error("\"violation\" needs \"identity\" and \"words\"");
        const std::string id = v["identity"];
        const std::map<std::string, std::set<std::string>> refutes = {
            {"DA", {"da", "aperiodic"}}, {"LTT", {"tw", "aperiodic"}}, {"aperiodic_commutative", {"commutative", "aperiodic"}}};
        auto it = refutes.find(cls);
        if (it == refutes.end() || !it->second.count(id)) return say("the identity '" + id + "' does not refute " + cls, false);
        return identity_violated(d, id, v["words"], why);
    }
    if (cls == "finite" || cls == "cofinite") {
        const Dfa e = cls == "cofinite" ? complement(d) : d;
        if (!member) {
            if (!j.contains("pump")) return make_error("a non-member certificate needs \"pump\"");
            Word u, w, v;
            for (auto [name, out] : {std::pair{"u", &u}, {"w", &w}, {"v", &v}}) {
                auto r = j["pump"].contains(name) ? word_from_json(j["pump"][name], d.alphabet) : Result<Word>(make_error("\"pump\" needs u, w, v"));
                if (!r) return r.error();
                *out = *r;
            }
            const State q = e.run(e.initial, u);
            if (w.empty() || e.run(q, w) != q) return say("w is empty or does not loop after u", false);
            if (!e.is_accepting(e.run(q, v))) return say(std::string("u·v is ") + (cls == "finite" ? "rejected" : "accepted"), false);
            return say(std::string("u·wʳ·v is ") + (cls == "finite" ? "accepted" : "rejected") + " for every r", true);
        }
        // Pumping: an infinite language has a word of length in [n, 2n).
        const std::size_t n = e.num_states();
        const auto counts = count_accepted(e, 2 * n);
        for (std::size_t len = n; len < 2 * n; ++len)
            if (counts[len]) return say("a word of length " + std::to_string(len) + " >= the number of states is in the set", false);
        return say(std::string("no ") + (cls == "finite" ? "accepted" : "rejected") + " word of length in [n, 2n): the set is finite", true);
    }
    if (cls == "SL") return check_sl_like(j, d, false, say);
    if (cls == "TSL") return check_sl_like(j, d, true, say);
    if (cls == "SP") {
        if (!member) {
            const auto& del = j.contains("deletion") ? j["deletion"] : nlohmann::json();
            if (!del.is_object() || !del.contains("longer") || !del.contains("shorter")) return make_error("a non-member SP certificate needs \"deletion\"");
            auto a = word_from_json(del["longer"], d.alphabet), b = word_from_json(del["shorter"], d.alphabet);
            if (!a) return a.error();
            if (!b) return b.error();
            bool one_deletion = a->size() == b->size() + 1;
            if (one_deletion) {
                std::size_t i = 0;
                while (i < b->size() && (*a)[i] == (*b)[i]) ++i;
                one_deletion = std::equal(b->begin() + long(i), b->end(), a->begin() + long(i) + 1);
            }
            if (!one_deletion) return say("the shorter word is not the longer one with a letter deleted", false);
            if (!d.accepts(*a) || d.accepts(*b)) return say("the longer word is not accepted or the shorter one is", false);
            return say("deleting a letter leaves the language: not closed under subsequences", true);
        }
        auto k = param_k(j);
        if (!k) return k.error();
        if (!j.contains("forbidden") || !j["forbidden"].is_array()) return say("no forbidden subsequences to rebuild the language", false);
        std::vector<Word> forbidden;
        std::size_t longest = 0;
        for (const auto& f : j["forbidden"]) {
            auto w = word_from_json(f, d.alphabet);
            if (!w) return w.error();
            longest = std::max(longest, w->size()), forbidden.push_back(*w);
        }
        if (longest > *k) return say("a forbidden subsequence is longer than k", false);
        if (*k >= 2) {
            auto b = j.contains("below") ? word_from_json(j["below"], d.alphabet) : Result<Word>(make_error("SP-k with k >= 2 needs \"below\""));
            if (!b) return b.error();
            if (b->size() != *k || d.accepts(*b)) return say("\"below\" is not a rejected word of length k", false);
            for (std::size_t i = 0; i < b->size(); ++i) {
                Word x = *b;
                x.erase(x.begin() + long(i));
                if (!d.accepts(x)) return say("\"below\" is not a minimal rejected word", false);
            }
        }
        return same_language(sp_dfa_from_forbidden(d.alphabet, forbidden), d, "the SP language of the forbidden subsequences", say);
    }
    if (cls == "PT" || cls == "LT") {
        const TypeKind kind = cls == "PT" ? TypeKind::PT : TypeKind::LT;
        const std::string base = cls == "PT" ? "piecewise_testable" : "locally_testable";
        if (j.contains("by_class")) {
            const auto& b = j["by_class"];
            if (!b.is_object() || b.value("class", "") != base || b.value("member", !member) != member)
                return say("\"by_class\" is not a " + base + " certificate with the same answer", false);
            return check_certificate_json(b.dump(), why);
        }
        if (!member) return say("a non-member certificate needs \"by_class\"", false);
        if (j.contains("k_above")) {
            if (!j["k_above"].is_number_unsigned() || !j.contains("below")) return make_error("\"k_above\" needs an integer and \"below\"");
            return check_pair_types(j["below"], d, kind, j["k_above"].get<unsigned>(), say);
        }
        auto k = param_k(j);
        if (!k) return k.error();
        if (*k >= 2) {
            if (!j.contains("below")) return say("no \"below\" pair refutes k-1", false);
            std::string w;
            auto r = check_pair_types(j["below"], d, kind, unsigned(*k - 1), Say{&w});
            if (!r) return r.error();
            if (!*r) return say(w, false);
        }
        TypeSearch s = type_search(d, kind, unsigned(*k), 1, 5'000'000);
        if (!s.consistent) return say(s.conflict ? "two words of one " + std::to_string(*k) + "-type differ" : "the type search is over its limit", false);
        return say("membership is a function of the " + std::to_string(*k) + "-type (exhaustive product search)", true);
    }
    if (cls == "LTT" && member) {
        const auto& p = j.contains("params") ? j["params"] : nlohmann::json();
        if (p.is_object() && p.contains("k") && p.contains("t") && p["k"].is_number_unsigned() && p["t"].is_number_unsigned()) {
            TypeSearch s = type_search(d, TypeKind::LTT, p["k"].get<unsigned>(), p["t"].get<unsigned>(), 5'000'000);
            if (s.consistent == true) return say("membership is a function of the (k,t)-threshold counts of factors (exhaustive product search)", true);
            return say("the (k,t)-type search does not confirm the parameters", false);
        }
    }
    if (cls == "DA" || cls == "LTT" || cls == "aperiodic_commutative") {
        if (!member) return say("a non-member certificate needs \"violation\"", false);
        // Re-decided: DA by the identity (xy)^ω x (xy)^ω = (xy)^ω over all pairs of a small
        // semigroup, the others by their deciders.
        if (cls == "DA") {
            auto S = SemigroupAnalysis::of(d, 3'000);
            if (S) {
                const auto& s = (*S)->s;
                for (Element x = 0; x < s.size(); ++x)
                    for (Element y = 0; y < s.size(); ++y) {
                        const Element w = s.omega(s.product(x, y));
                        if (s.product(s.product(w, x), w) != w) return say("(xy)^ω x (xy)^ω ≠ (xy)^ω for some x, y", false);
                    }
                return say("(xy)^ω x (xy)^ω = (xy)^ω for every x, y of the syntactic semigroup", true);
            }
        }
        auto again = decide_subregular(cls, d);
        if (!again || again->member != true) return say("re-deciding " + cls + " does not give membership", false);
        return say("re-decided: " + again->fact, true);
    }
    return make_error("unknown subregular class '" + cls + "'");
}

}  // namespace ltlkit::automata::algebra
