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

const std::vector<ClassId>& subregular_class_ids() {
    static const std::vector<ClassId> ids = [] {
        std::vector<ClassId> v;
        for (ClassKind k : class_kinds(ClassFamily::Subregular)) v.push_back(k);
        return v;
    }();
    return ids;
}

bool is_subregular_class(const std::string& text) {
    const auto id = parse_class_id(text);
    return id && id->family() == ClassFamily::Subregular;
}

namespace subregular {

SubregularDecision decision(const ClassId& id, std::optional<bool> member, Json params, const std::string& fact, Json fields) {
    SubregularDecision d;
    d.id = id;
    d.member = member;
    d.params = params.is_null() ? Json::object() : params;
    d.fact = fact;
    Json c;
    c["class"] = to_string(id);
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

std::optional<SubregularDecision> decide_subregular(const ClassId& id, const Dfa& d, const SubregularOptions& o) {
    using namespace subregular;
    switch (id.kind) {
        case ClassKind::Finite: return decide_finite(d, false, o);
        case ClassKind::Cofinite: return decide_finite(d, true, o);
        case ClassKind::SL: return decide_sl(d, o);
        case ClassKind::SP: return decide_sp(d, o);
        // The subclass whose parameter bounds the class's (docs/SUBREGULAR.md §1).
        case ClassKind::LT: {
            const auto sl = decide_sl(d, o);
            return decide_pt_lt(d, TypeKind::LT, o, &sl);
        }
        case ClassKind::PT: {
            const auto sp = decide_sp(d, o);
            return decide_pt_lt(d, TypeKind::PT, o, &sp);
        }
        case ClassKind::LTT: {
            const auto lt = *decide_subregular(ClassKind::LT, d, o);
            return decide_ltt(d, o, &lt);
        }
        case ClassKind::TSL: return decide_tsl(d, o);
        case ClassKind::DA: return decide_da(d, o);
        case ClassKind::AperiodicCommutative: return decide_aperiodic_commutative(d);
        default: return std::nullopt;
    }
}

std::vector<SubregularDecision> classify_subregular(const Dfa& d, const SubregularOptions& o) {
    // As decide_subregular, each subclass decided once: SL bounds LT, SP bounds PT, LT bounds LTT.
    using namespace subregular;
    using K = ClassKind;
    std::map<ClassId, SubregularDecision> m;
    for (K id : {K::Finite, K::Cofinite, K::SL, K::SP, K::TSL, K::DA, K::AperiodicCommutative}) m.emplace(id, *decide_subregular(id, d, o));
    m.emplace(K::LT, decide_pt_lt(d, TypeKind::LT, o, &m.at(K::SL)));
    m.emplace(K::PT, decide_pt_lt(d, TypeKind::PT, o, &m.at(K::SP)));
    m.emplace(K::LTT, decide_ltt(d, o, &m.at(K::LT)));
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
    using K = ClassKind;
    const K id = d.id.kind;
    if (id == K::Finite || id == K::Cofinite)
        return "definite (a language of words of length <= m, or its complement, is definite of degree m+1): LTL[Y], local attention recognizes it";
    if (id == K::SP || id == K::PT || id == K::AperiodicCommutative)
        return std::string(id == K::SP ? "SP ⊆ PT; " : id == K::PT ? "" : "aperiodic commutative ⊆ PT; ") +
               "PT is J-trivial, hence R-trivial: LTL[P], global attention recognizes it";
    if (id == K::SL || id == K::LT)
        return std::string(id == K::SL ? "SL ⊆ LT; " : "") +
               "LT (eSe a semilattice) is locally R-trivial: LTL[P,Y], hybrid attention recognizes it; SL-k is not in general definite";
    return "";
}

nlohmann::ordered_json subregular_summary_json(const std::vector<SubregularDecision>& ds) {
    Json j = Json::object();
    for (const auto& d : ds)
        j[to_string(d.id)] = {{"member", d.member ? Json(*d.member) : Json(nullptr)}, {"params", d.params}, {"fact", d.fact},
                   {"prediction", subregular_prediction_note(d)}};
    return j;
}

}  // namespace ltlkit::automata::algebra
