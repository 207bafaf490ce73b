#include "automata/certificate.hh"

#include <algorithm>
#include <array>

#include "automata/dfa_json.hh"

namespace ltlkit::automata {

std::string to_string(Answer a) {
    switch (a) {
        case Answer::Yes: return "yes";
        case Answer::No: return "no";
        default: return "unknown";
    }
}

namespace {

constexpr std::array<std::pair<CertificateKind, const char*>, 16> kKindNames{{
    {CertificateKind::DfaCriterion, "dfa_criterion"},
    {CertificateKind::SemigroupIdentity, "semigroup_identity"},
    {CertificateKind::IdentityViolation, "identity_violation"},
    {CertificateKind::Implied, "implied"},
    {CertificateKind::Excluded, "excluded"},
    {CertificateKind::PairGraphAcyclic, "pair_graph_acyclic"},
    {CertificateKind::PartiallyOrdered, "partially_ordered"},
    {CertificateKind::NoCommonLoopInScc, "no_common_loop_in_scc"},
    {CertificateKind::SuffixFamily, "suffix_family"},
    {CertificateKind::RFamily, "r_family"},
    {CertificateKind::LrtFamily, "lrt_family"},
    {CertificateKind::Formula, "formula"},
    {CertificateKind::WindowBisimulation, "window_bisimulation"},
    {CertificateKind::HybridBisimulation, "hybrid_bisimulation"},
    {CertificateKind::DepthTypes, "depth_types"},
    {CertificateKind::SearchExhausted, "search_exhausted"},
}};

constexpr std::array<std::pair<Identity, const char*>, 10> kIdentityNames{{
    {Identity::XE, "x_e"},
    {Identity::EX, "e_x"},
    {Identity::EXE, "e_x_e"},
    {Identity::RClass, "r_class"},
    {Identity::LClass, "l_class"},
    {Identity::RClassOmega, "r_class_omega"},
    {Identity::Aperiodic, "aperiodic"},
    {Identity::LocalR, "local_r"},
    {Identity::LocalIdempotent, "local_idempotent"},
    {Identity::LocalCommutative, "local_commutative"},
}};

const char* kMarkerText = "<e^r>";

// An enum's name in its table of names, and back (nullopt for an unknown name).
template <class E, std::size_t N>
std::string name_in(const std::array<std::pair<E, const char*>, N>& names, E value) {
    for (const auto& [v, name] : names)
        if (v == value) return name;
    return "";
}
template <class E, std::size_t N>
std::optional<E> value_in(const std::array<std::pair<E, const char*>, N>& names, const std::string& text) {
    for (const auto& [v, name] : names)
        if (text == name) return v;
    return std::nullopt;
}

}  // namespace

std::string to_string(CertificateKind k) { return name_in(kKindNames, k); }
std::optional<CertificateKind> parse_certificate_kind(const std::string& text) { return value_in(kKindNames, text); }
std::string to_string(Identity i) { return name_in(kIdentityNames, i); }
std::optional<Identity> parse_identity(const std::string& text) { return value_in(kIdentityNames, text); }

Word ViolationFields::word(const std::string& name) const {
    for (const auto& [n, w] : words)
        if (n == name) return w;
    return {};
}

namespace {
std::string loop_text(const std::vector<std::string>& alphabet, const Word& w) {
    return w.empty() ? std::string("ε") : format_word(alphabet, w);
}
}  // namespace

nlohmann::json to_json(const CertificateFields& f, const std::vector<std::string>& alphabet) {
    nlohmann::json j = nlohmann::json::object();
    if (auto* x = std::get_if<DegreeFields>(&f)) j = {{"degree", x->degree}};
    else if (auto* x = std::get_if<ImpliedFields>(&f)) j = {{"by", to_string(x->by)}};
    else if (auto* x = std::get_if<ExcludedFields>(&f)) j = {{"in", to_string(x->in)}, {"not_in", to_string(x->not_in)}};
    else if (auto* x = std::get_if<ViolationFields>(&f)) {
        nlohmann::json w = nlohmann::json::object();
        for (const auto& [name, word] : x->words) w[name] = format_word(alphabet, word);
        j = {{"identity", to_string(x->identity)}, {"words", w}};
    } else if (auto* x = std::get_if<CNodeFields>(&f)) j = {{"states", {x->p, x->q}}, {"loop", loop_text(alphabet, x->loop)}};
    else if (auto* x = std::get_if<CNodeReachFields>(&f)) j = {{"q", x->q}, {"pair", {x->r, x->t}}};
    else if (auto* x = std::get_if<ConfluenceFields>(&f)) j = {{"state", x->state}, {"letters", {alphabet.at(x->a), alphabet.at(x->b)}}};
    return j;
}

std::optional<CertificateFields> fields_from_json(const nlohmann::json& j, const std::vector<std::string>& alphabet) {
    if (!j.is_object()) return std::nullopt;
    auto state = [&](const nlohmann::json& v) -> std::optional<State> {
        if (!v.is_number_unsigned()) return std::nullopt;
        return State(v.get<std::size_t>());
    };
    auto cls = [&](const char* key) -> std::optional<ClassId> {
        if (!j.contains(key) || !j[key].is_string()) return std::nullopt;
        return parse_class_id(j[key].get<std::string>());
    };
    auto pair_of_states = [&](const char* key) -> std::optional<std::pair<State, State>> {
        if (!j.contains(key) || !j[key].is_array() || j[key].size() != 2) return std::nullopt;
        auto a = state(j[key][0]), b = state(j[key][1]);
        if (!a || !b) return std::nullopt;
        return std::pair{*a, *b};
    };
    auto letter = [&](const nlohmann::json& v) -> std::optional<Symbol> {
        if (!v.is_string()) return std::nullopt;
        auto it = std::find(alphabet.begin(), alphabet.end(), v.get<std::string>());
        if (it == alphabet.end()) return std::nullopt;
        return Symbol(it - alphabet.begin());
    };
    if (j.contains("degree")) {
        if (!j["degree"].is_number_unsigned()) return std::nullopt;
        return DegreeFields{j["degree"].get<std::size_t>()};
    }
    if (j.contains("by")) {
        auto by = cls("by");
        if (!by) return std::nullopt;
        return ImpliedFields{*by};
    }
    if (j.contains("in") || j.contains("not_in")) {
        auto in = cls("in"), not_in = cls("not_in");
        if (!in || !not_in) return std::nullopt;
        return ExcludedFields{*in, *not_in};
    }
    if (j.contains("identity") || j.contains("words")) {
        if (!j.contains("identity") || !j["identity"].is_string() || !j.contains("words") || !j["words"].is_object())
            return std::nullopt;
        auto identity = parse_identity(j["identity"].get<std::string>());
        if (!identity) return std::nullopt;
        ViolationFields v{*identity, {}};
        for (auto it = j["words"].begin(); it != j["words"].end(); ++it) {
            if (!it.value().is_string()) return std::nullopt;
            auto w = parse_word(alphabet, it.value().get<std::string>());
            if (!w) return std::nullopt;
            v.words.emplace_back(it.key(), *w);
        }
        return v;
    }
    if (j.contains("states") || j.contains("loop")) {
        auto pq = pair_of_states("states");
        if (!pq || !j.contains("loop") || !j["loop"].is_string()) return std::nullopt;
        const std::string text = j["loop"].get<std::string>();
        auto w = text == "ε" ? Result<Word>(Word{}) : parse_word(alphabet, text);
        if (!w) return std::nullopt;
        return CNodeFields{pq->first, pq->second, *w};
    }
    if (j.contains("pair")) {
        auto rt = pair_of_states("pair");
        auto q = j.contains("q") ? state(j["q"]) : std::nullopt;
        if (!rt || !q) return std::nullopt;
        return CNodeReachFields{*q, rt->first, rt->second};
    }
    if (j.contains("state") || j.contains("letters")) {
        auto q = j.contains("state") ? state(j["state"]) : std::nullopt;
        if (!q || !j.contains("letters") || !j["letters"].is_array() || j["letters"].size() != 2) return std::nullopt;
        auto a = letter(j["letters"][0]), b = letter(j["letters"][1]);
        if (!a || !b) return std::nullopt;
        return ConfluenceFields{*q, *a, *b};
    }
    return CertificateFields{};
}

std::pair<Word, Word> WordFamily::at(std::size_t r) const {
    auto expand = [&](const Word& w) {
        Word out;
        for (Symbol s : w) {
            if (s == kLoopMarker)
                for (std::size_t i = 0; i < r; ++i) out.insert(out.end(), e.begin(), e.end());
            else out.push_back(s);
        }
        return out;
    };
    const Word pe = expand(p), ye = expand(y), ze = expand(z);
    if (!q.empty()) {  // x·(pʳqʳ)ʳ·pʳ·y vs x·(pʳqʳ)ʳ·pʳ·qʳ·z
        Word u = x;
        auto power = [&](const Word& w) {
            for (std::size_t i = 0; i < r; ++i) u.insert(u.end(), w.begin(), w.end());
        };
        for (std::size_t i = 0; i < r; ++i) power(pe), power(q);
        power(pe);
        Word v = u;
        for (std::size_t i = 0; i < r; ++i) v.insert(v.end(), q.begin(), q.end());
        u.insert(u.end(), ye.begin(), ye.end());
        v.insert(v.end(), ze.begin(), ze.end());
        return {u, v};
    }
    Word u = x, v = x2 ? *x2 : x;
    for (std::size_t i = 0; i < r; ++i) {
        u.insert(u.end(), pe.begin(), pe.end());
        v.insert(v.end(), pe.begin(), pe.end());
    }
    u.insert(u.end(), ye.begin(), ye.end());
    v.insert(v.end(), ze.begin(), ze.end());
    return {u, v};
}

std::string family_word_text(const std::vector<std::string>& alphabet, const Word& w) {
    std::string out;
    Word seg;
    const bool single = single_char_alphabet(alphabet);
    auto flush = [&] {
        if (!seg.empty()) {
            if (!out.empty() && !single) out += " ";
            out += format_word(alphabet, seg);
        }
        seg.clear();
    };
    for (Symbol s : w) {
        if (s == WordFamily::kLoopMarker) {
            flush();
            if (!out.empty() && !single) out += " ";
            out += kMarkerText;
        } else seg.push_back(s);
    }
    flush();
    return out;
}

Result<Word> parse_family_word(const std::vector<std::string>& alphabet, const std::string& text) {
    Word out;
    std::size_t pos = 0;
    bool first = true;
    while (true) {
        std::size_t at = text.find(kMarkerText, pos);
        std::string seg = text.substr(pos, at == std::string::npos ? std::string::npos : at - pos);
        while (!seg.empty() && seg.front() == ' ') seg.erase(seg.begin());
        while (!seg.empty() && seg.back() == ' ') seg.pop_back();
        auto w = parse_word(alphabet, seg);
        if (!w) return w.error();
        if (!first) out.push_back(WordFamily::kLoopMarker);
        out.insert(out.end(), w->begin(), w->end());
        first = false;
        if (at == std::string::npos) break;
        pos = at + std::string(kMarkerText).size();
    }
    return out;
}

nlohmann::ordered_json family_to_json(const WordFamily& f, const std::vector<std::string>& alphabet) {
    nlohmann::ordered_json fam;
    fam["x"] = family_word_text(alphabet, f.x);
    fam["p"] = family_word_text(alphabet, f.p);
    fam["y"] = family_word_text(alphabet, f.y);
    fam["z"] = family_word_text(alphabet, f.z);
    fam["r_min"] = f.r_min;
    if (f.x2) fam["x2"] = family_word_text(alphabet, *f.x2);
    if (!f.e.empty()) fam["e"] = family_word_text(alphabet, f.e);
    if (!f.q.empty()) fam["q"] = family_word_text(alphabet, f.q);
    return fam;
}

Result<WordFamily> family_from_json(const nlohmann::json& j, const std::vector<std::string>& alphabet, FamilyForm form) {
    const bool extended = form == FamilyForm::Extended;
    auto word = [&](const nlohmann::json& v) { return extended ? parse_family_word(alphabet, v.get<std::string>())
                                                               : parse_word(alphabet, v.get<std::string>()); };
    WordFamily f;
    for (auto [name, dst] : {std::pair{"x", &f.x}, {"p", &f.p}, {"y", &f.y}, {"z", &f.z}}) {
        if (!j.contains(name) || !j[name].is_string()) return make_error(std::string("family needs a string \"") + name + "\"");
        auto w = word(j[name]);
        if (!w) return w.error();
        *dst = *w;
    }
    if (extended && j.contains("x2")) {
        auto w = word(j["x2"]);
        if (!w) return w.error();
        f.x2 = *w;
    }
    if (extended && j.contains("e")) {
        auto w = word(j["e"]);
        if (!w) return w.error();
        f.e = *w;
    }
    if (j.contains("q")) {
        if (!j["q"].is_string()) return make_error("family \"q\" must be a string");
        auto w = parse_word(alphabet, j["q"].get<std::string>());
        if (!w) return w.error();
        if (w->empty()) return make_error("family \"q\" must be non-empty");
        f.q = *w;
    }
    if (j.contains("r_min")) {
        if (!j["r_min"].is_number_unsigned()) return make_error("family \"r_min\" must be a non-negative integer");
        f.r_min = j["r_min"].get<std::size_t>();
    }
    return f;
}

std::string certificate_to_json(const Certificate& cert, const Dfa& dfa) {
    nlohmann::ordered_json j;
    j["dfa"] = nlohmann::ordered_json::parse(to_json(dfa));
    j["class"] = to_string(cert.class_id);
    j["member"] = cert.unknown ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(cert.member);
    j["kind"] = to_string(cert.kind);
    j["fact"] = cert.fact;
    if (cert.formula) j["formula"] = *cert.formula;
    if (cert.formula_omitted) j["formula_omitted"] = *cert.formula_omitted;
    if (cert.family) j["family"] = family_to_json(*cert.family, dfa.alphabet);
    if (!cert.pairs.empty()) {
        auto pairs = nlohmann::ordered_json::array();
        for (const auto& [a, b] : cert.pairs) pairs.push_back({format_word(dfa.alphabet, a), format_word(dfa.alphabet, b)});
        j["pairs"] = pairs;
    }
    // The typed fields and the untyped ones in one object in key order (the typed fields' keys win).
    nlohmann::json fields = to_json(cert.fields, dfa.alphabet);
    if (cert.window) {
        const nlohmann::json window = to_json(*cert.window, dfa.alphabet);
        for (auto it = window.begin(); it != window.end(); ++it) fields[it.key()] = it.value();
    }
    for (auto it = cert.untyped.begin(); it != cert.untyped.end(); ++it)
        if (!fields.contains(it.key())) fields[it.key()] = it.value();
    const auto merged = nlohmann::ordered_json::parse(fields.dump());
    for (auto it = merged.begin(); it != merged.end(); ++it)
        if (!j.contains(it.key())) j[it.key()] = it.value();
    return j.dump(2);
}

}  // namespace ltlkit::automata
