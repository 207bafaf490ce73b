// The subregular classes as a whole (docs/SUBREGULAR.md): the list of names, the decisions, the
// certificate JSON and the notes on attention architectures (the checker: subregular_check.cc).
#include "automata/algebra/subregular.hh"

#include <algorithm>
#include <map>
#include <set>

#include "automata/algebra/class_support.hh"
#include "automata/algebra/classes.hh"
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
    // The subclass whose parameter bounds the class's (docs/SUBREGULAR.md §1).
    if (id == "LT") {
        const auto sl = decide_sl(d, o);
        return decide_pt_lt(d, TypeKind::LT, o, &sl);
    }
    if (id == "PT") {
        const auto sp = decide_sp(d, o);
        return decide_pt_lt(d, TypeKind::PT, o, &sp);
    }
    if (id == "LTT") {
        const auto lt = *decide_subregular("LT", d, o);
        return decide_ltt(d, o, &lt);
    }
    if (id == "TSL") return decide_tsl(d, o);
    if (id == "DA") return decide_da(d, o);
    if (id == "aperiodic_commutative") return decide_aperiodic_commutative(d);
    return std::nullopt;
}

std::vector<SubregularDecision> classify_subregular(const Dfa& d, const SubregularOptions& o) {
    // As decide_subregular, each subclass decided once: SL bounds LT, SP bounds PT, LT bounds LTT.
    using namespace subregular;
    std::map<std::string, SubregularDecision> m;
    for (const char* id : {"finite", "cofinite", "SL", "SP", "TSL", "DA", "aperiodic_commutative"}) m.emplace(id, *decide_subregular(id, d, o));
    m.emplace("LT", decide_pt_lt(d, TypeKind::LT, o, &m.at("SL")));
    m.emplace("PT", decide_pt_lt(d, TypeKind::PT, o, &m.at("SP")));
    m.emplace("LTT", decide_ltt(d, o, &m.at("LT")));
    std::vector<SubregularDecision> out;
    for (const auto& id : subregular_class_ids()) out.push_back(m.at(id));
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

}  // namespace ltlkit::automata::algebra
