#include "automata/algebra/certificate_json.hh"

#include <algorithm>
#include <iterator>

#include <nlohmann/json.hpp>

#include "automata/dfa_json.hh"
#include "base/json.hh"

namespace ltlkit::automata::algebra {

namespace {

using ojson = nlohmann::ordered_json;

Error field_error(const std::string& field, const std::string& what) {
    return make_error("certificate field \"" + field + "\" " + what);
}

// The string at `field`, absent or not.
Result<std::optional<std::string>> optional_string(const ojson& j, const char* field) {
    if (!j.contains(field)) return std::optional<std::string>{};
    if (!j[field].is_string()) return field_error(field, "must be a string");
    return std::optional<std::string>(j[field].get<std::string>());
}

// The class certificates' fields, typed where they are well formed: "by" (implied), "in" / "not_in"
// (excluded) naming classes, "identity" naming an identity with "words" of the alphabet, and the
// DFA criteria's witnesses and the degree (fields_from_json). What does not type stays untyped, and
// the checker says what is wrong with it where it would have used it.
CertificateFields class_fields(const nlohmann::json& j, CertificateKind kind, const std::vector<std::string>& alphabet) {
    auto class_at = [&](const char* key) -> std::optional<ClassId> {
        if (!j.contains(key) || !j[key].is_string()) return std::nullopt;
        return parse_class_id(j[key].get<std::string>());
    };
    if (kind == CertificateKind::Implied) {
        auto by = class_at("by");
        return by ? CertificateFields(ImpliedFields{*by}) : CertificateFields{};
    }
    if (kind == CertificateKind::Excluded) {
        auto in = class_at("in"), not_in = class_at("not_in");
        return in && not_in ? CertificateFields(ExcludedFields{*in, *not_in}) : CertificateFields{};
    }
    if (kind == CertificateKind::IdentityViolation) {
        if (!j.contains("identity") || !j["identity"].is_string() || !j.contains("words") || !j["words"].is_object()) return {};
        const std::optional<Identity> identity = parse_identity(j["identity"].get<std::string>());
        if (!identity) return {};
        ViolationFields v{*identity, {}};
        for (auto it = j["words"].begin(); it != j["words"].end(); ++it) {
            if (!it.value().is_string()) return {};
            auto w = parse_word(alphabet, it.value().get<std::string>());
            if (!w) return {};
            v.words.emplace_back(it.key(), std::move(w).value());
        }
        return v;
    }
    return fields_from_json(j, alphabet).value_or(CertificateFields{});
}

}  // namespace

Result<CertificateWithDfa> certificate_from_json(const std::string& text) {
    auto parsed = parse_json<ojson>(text);
    if (!parsed.ok()) return parsed.error();
    const ojson& j = *parsed;
    if (!j.is_object()) return make_error("a certificate is a JSON object");
    for (const char* key : {"dfa", "class", "member", "kind"})
        if (!j.contains(key)) return make_error(std::string("certificate needs \"") + key + "\"");
    CertificateWithDfa out;
    Certificate& c = out.certificate;
    auto dfa = dfa_from_json(j["dfa"].dump());
    if (!dfa.ok()) return field_error("dfa", "is not a DFA: " + dfa.error().one_line());
    out.dfa = std::move(dfa).value();
    if (!j["class"].is_string()) return field_error("class", "must be a string");
    out.class_text = j["class"].get<std::string>();
    out.class_id = parse_class_id(out.class_text);
    if (out.class_id) c.class_id = *out.class_id;
    if (j["member"].is_boolean())
        c.member = j["member"].get<bool>();
    else if (j["member"].is_null())
        c.unknown = true;
    else
        return field_error("member", "must be true, false or null");
    if (!j["kind"].is_string()) return field_error("kind", "must be a string");
    const std::string kind = j["kind"].get<std::string>();
    const auto k = parse_certificate_kind(kind);
    // A kind ltlkit does not write is malformed input (exit 2), not a certificate that fails.
    if (!k) return make_error("unknown certificate kind '" + kind + "' (the kinds are listed in automata/certificate.hh)");
    c.kind = *k;
    auto fact = optional_string(j, "fact");
    if (!fact.ok()) return fact.error();
    c.fact = fact->value_or("");
    auto formula = optional_string(j, "formula");
    if (!formula.ok()) return formula.error();
    c.formula = *formula;
    auto omitted = optional_string(j, "formula_omitted");
    if (!omitted.ok()) return omitted.error();
    c.formula_omitted = *omitted;
    if (j.contains("family")) {
        if (!j["family"].is_object()) return field_error("family", "must be an object");
        Result<WordFamily> f = make_error("");
        try {
            f = family_from_json(nlohmann::json::parse(j["family"].dump()), out.dfa.alphabet, FamilyForm::Extended);
        } catch (const nlohmann::json::exception&) {
            return field_error("family", "is malformed: its words must be strings");
        }
        if (!f.ok()) return field_error("family", "is malformed: " + f.error().one_line());
        c.family = std::move(f).value();
    }
    if (j.contains("pairs")) {
        if (!j["pairs"].is_array()) return field_error("pairs", "must be an array of [accepted, rejected] words");
        for (const auto& p : j["pairs"]) {
            if (!p.is_array() || p.size() != 2 || !p[0].is_string() || !p[1].is_string())
                return field_error("pairs", "must be an array of [accepted, rejected] words");
            auto a = parse_word(out.dfa.alphabet, p[0].get<std::string>());
            auto b = parse_word(out.dfa.alphabet, p[1].get<std::string>());
            if (!a.ok()) return field_error("pairs", "holds a bad word: " + a.error().one_line());
            if (!b.ok()) return field_error("pairs", "holds a bad word: " + b.error().one_line());
            c.pairs.emplace_back(std::move(a).value(), std::move(b).value());
        }
    }
    // The kind-specific fields, typed; the keys they do not cover stay untyped, in order.
    nlohmann::json rest = nlohmann::json::object();
    for (auto it = j.begin(); it != j.end(); ++it) {
        static const char* const common[] = {"dfa",     "class",           "member", "kind", "fact",
                                             "formula", "formula_omitted", "family", "pairs"};
        if (std::find(std::begin(common), std::end(common), it.key()) == std::end(common))
            rest[it.key()] = nlohmann::json::parse(it.value().dump());
    }
    c.fields = class_fields(rest, c.kind, out.dfa.alphabet);
    nlohmann::json typed = to_json(c.fields, out.dfa.alphabet);
    if (window_stem_of(out.class_text)) {
        auto window = window_fields_from_json(rest, out.dfa.alphabet);
        if (!window) return window.error();
        c.window = std::move(window).value();
        if (c.window) {
            const nlohmann::json written = to_json(*c.window, out.dfa.alphabet);
            for (auto it = written.begin(); it != written.end(); ++it) typed[it.key()] = it.value();
        }
    }
    for (auto it = j.begin(); it != j.end(); ++it)
        if (rest.contains(it.key()) && !typed.contains(it.key())) c.untyped[it.key()] = it.value();
    return out;
}

}  // namespace ltlkit::automata::algebra
