#include "automata/window_fields.hh"

#include <algorithm>
#include <iterator>
#include <string_view>

namespace ltlkit::automata {

namespace {

using json = nlohmann::json;

constexpr std::string_view kKeys[] = {"k",          "formula_size", "route",         "type_depth", "past_depth",
                                      "past_letters", "mixed",      "nested_marks",  "depth",      "probe_states",
                                      "types",      "modalities",   "family_form",   "family_source", "reduction",
                                      "residual_not_definite",      "x",             "bisimilar_for_k", "bounds",
                                      "depth_lower_bound",          "cuts",          "budget",     "complete",
                                      "zero_letters", "residuals",  "closed_sets"};

template <class T>
void put(json& j, const char* key, const std::optional<T>& v) {
    if (v) j[key] = *v;
}

const char* stop_name(BudgetStop::Bound b) {
    switch (b) {
        case BudgetStop::Bound::Work: return "work";
        case BudgetStop::Bound::Time: return "time";
        case BudgetStop::Bound::Memory: return "memory";
    }
    return "work";
}

// Reads one object's typed fields: each getter leaves its target alone when the key is absent and
// records the first field of the wrong type.
struct Reader {
    const json& j;
    std::optional<Error> error = std::nullopt;

    void wrong(const std::string& key, const std::string& what) {
        if (!error) error = make_error("certificate field \"" + key + "\" must be " + what);
    }
    template <class T>
    void count(const char* key, std::optional<T>& out) {
        if (!j.contains(key)) return;
        if (j[key].is_number_unsigned())
            out = j[key].get<T>();
        else
            wrong(key, "a non-negative integer");
    }
    template <class T>
    void count(const char* key, T& out) {
        std::optional<T> v;
        count(key, v);
        if (v) out = *v;
    }
    void text(const char* key, std::optional<std::string>& out) {
        if (!j.contains(key)) return;
        if (j[key].is_string())
            out = j[key].get<std::string>();
        else
            wrong(key, "a string");
    }
    void flag(const char* key, std::optional<bool>& out) {
        if (!j.contains(key)) return;
        if (j[key].is_boolean())
            out = j[key].get<bool>();
        else
            wrong(key, "true or false");
    }
};

}  // namespace

bool is_window_field(const std::string& key) {
    return std::find(std::begin(kKeys), std::end(kKeys), key) != std::end(kKeys);
}

json to_json(const WindowFields& f, const std::vector<std::string>& alphabet) {
    json j = json::object();
    put(j, "k", f.k);
    put(j, "formula_size", f.formula_size);
    put(j, "route", f.route);
    put(j, "type_depth", f.type_depth);
    put(j, "past_depth", f.past_depth);
    put(j, "past_letters", f.past_letters);
    put(j, "mixed", f.mixed);
    put(j, "nested_marks", f.nested_marks);
    put(j, "depth", f.depth);
    put(j, "probe_states", f.probe_states);
    put(j, "types", f.types);
    put(j, "modalities", f.modalities);
    put(j, "family_form", f.family_form);
    put(j, "family_source", f.family_source);
    put(j, "reduction", f.reduction);
    put(j, "residual_not_definite", f.residual_not_definite);
    if (f.x) j["x"] = format_word(alphabet, *f.x);
    put(j, "bisimilar_for_k", f.bisimilar_for_k);
    put(j, "zero_letters", f.zero_letters);
    put(j, "residuals", f.residuals);
    put(j, "closed_sets", f.closed_sets);
    if (f.bounds) {
        const SearchBounds& b = *f.bounds;
        j["bounds"] = {{"max_p", b.max_p},
                       {"max_tail", b.max_tail},
                       {"max_x", b.max_x ? json(*b.max_x) : json("every state")},
                       {"formula_pool", b.formula_pool},
                       {"formula_size", b.formula_size},
                       {"search_budget", b.search_budget},
                       {"type_depth", b.type_depth},
                       {"probe_depth", b.probe_depth},
                       {"probe_states", b.probe_states}};
    }
    put(j, "depth_lower_bound", f.depth_lower_bound);
    if (!f.cuts.empty()) {
        json cuts = json::array();
        for (const BudgetCut& c : f.cuts)
            cuts.push_back({{"strategy", c.strategy}, {"bound", c.bound}, {"steps", c.steps}, {"share", c.share}});
        j["cuts"] = cuts;
    }
    if (f.budget) {
        const BudgetStop& s = *f.budget;
        json budget = {{"bound", stop_name(s.bound)}};
        switch (s.bound) {
            case BudgetStop::Bound::Work: budget["steps"] = s.amount; budget["option"] = "--window-work"; break;
            case BudgetStop::Bound::Time: budget["seconds"] = s.seconds; budget["option"] = "--window-time"; break;
            case BudgetStop::Bound::Memory: budget["bytes"] = s.amount; budget["option"] = "--window-memory"; break;
        }
        put(budget, "strategy", s.strategy);
        j["budget"] = budget;
    }
    if (f.complete)
        j["complete"] = {{"by", f.complete->by}, {"sigma", f.complete->sigma}, {"k", f.complete->k}, {"delta", f.complete->delta}};
    return j;
}

Result<std::optional<WindowFields>> window_fields_from_json(const nlohmann::json& j, const std::vector<std::string>& alphabet) {
    if (!j.is_object()) return make_error("a certificate is a JSON object");
    bool any = false;
    for (auto it = j.begin(); it != j.end(); ++it) any = any || is_window_field(it.key());
    if (!any) return std::optional<WindowFields>();
    WindowFields f;
    Reader r{j};
    r.count("k", f.k);
    r.count("formula_size", f.formula_size);
    r.text("route", f.route);
    r.count("type_depth", f.type_depth);
    r.count("past_depth", f.past_depth);
    r.flag("past_letters", f.past_letters);
    r.flag("mixed", f.mixed);
    r.flag("nested_marks", f.nested_marks);
    r.count("depth", f.depth);
    r.count("probe_states", f.probe_states);
    r.text("types", f.types);
    r.text("modalities", f.modalities);
    r.text("family_form", f.family_form);
    r.text("family_source", f.family_source);
    r.text("reduction", f.reduction);
    r.flag("residual_not_definite", f.residual_not_definite);
    std::optional<std::string> x;
    r.text("x", x);
    r.count("bisimilar_for_k", f.bisimilar_for_k);
    if (j.contains("zero_letters")) {
        const json& z = j["zero_letters"];
        bool ok = z.is_array() && !z.empty();
        std::vector<std::string> letters;
        for (const json& a : z) {
            if (!a.is_string() || std::find(alphabet.begin(), alphabet.end(), a.get<std::string>()) == alphabet.end()) ok = false;
            else letters.push_back(a.get<std::string>());
        }
        if (!ok) return make_error("certificate field \"zero_letters\" must be a non-empty array of letters of the DFA's alphabet");
        f.zero_letters = letters;
    }
    if (j.contains("residuals")) {
        if (!j["residuals"].is_array()) return make_error("certificate field \"residuals\" must be an array of certificates");
        for (const json& c : j["residuals"])
            if (!c.is_object() && !c.is_null()) return make_error("certificate field \"residuals\" must hold certificate objects or null");
        f.residuals = j["residuals"];
    }
    if (j.contains("closed_sets")) {
        const json& c = j["closed_sets"];
        if (!c.is_object() || !c.contains("sets") || !c["sets"].is_array() || !c.contains("decision") || !c["decision"].is_object())
            return make_error("certificate field \"closed_sets\" must be an object with an array \"sets\" and an object \"decision\"");
        f.closed_sets = c;
    }
    r.count("depth_lower_bound", f.depth_lower_bound);
    if (j.contains("complete")) {
        const json& c = j["complete"];
        if (!c.is_object() || !c.contains("sigma") || !c.contains("k") || !c.contains("delta") || !c["sigma"].is_number_unsigned() ||
            !c["k"].is_number_unsigned() || !c["delta"].is_number_unsigned())
            return make_error("\"complete\" needs unsigned \"sigma\", \"k\" and \"delta\"");
        f.complete = CompletenessClaim{.by = c.contains("by") && c["by"].is_string() ? c["by"].get<std::string>() : std::string(),
                                       .sigma = c["sigma"].get<std::size_t>(),
                                       .k = c["k"].get<unsigned>(),
                                       .delta = c["delta"].get<std::size_t>()};
    }
    // The bounds, cuts and budget of an unknown answer are a record for people (the checker
    // re-verifies only the depth lower bound): their well-formed parts are read.
    if (j.contains("bounds")) {
        if (!j["bounds"].is_object()) return make_error("certificate field \"bounds\" must be an object");
        Reader b{j["bounds"]};
        SearchBounds s;
        b.count("max_p", s.max_p);
        b.count("max_tail", s.max_tail);
        if (j["bounds"].contains("max_x") && !j["bounds"]["max_x"].is_string()) b.count("max_x", s.max_x);
        b.count("formula_pool", s.formula_pool);
        b.count("formula_size", s.formula_size);
        b.count("search_budget", s.search_budget);
        b.count("type_depth", s.type_depth);
        b.count("probe_depth", s.probe_depth);
        b.count("probe_states", s.probe_states);
        if (b.error) return *b.error;
        f.bounds = s;
    }
    if (j.contains("cuts")) {
        if (!j["cuts"].is_array()) return make_error("certificate field \"cuts\" must be an array");
        for (const json& c : j["cuts"]) {
            if (!c.is_object()) return make_error("certificate field \"cuts\" must hold objects");
            BudgetCut cut;
            auto text = [&](const char* key) { return c.contains(key) && c[key].is_string() ? c[key].get<std::string>() : ""; };
            cut.strategy = text("strategy");
            cut.bound = text("bound");
            cut.steps = c.contains("steps") && c["steps"].is_number_unsigned() ? c["steps"].get<std::uint64_t>() : 0;
            cut.share = c.contains("share") && c["share"].is_number_unsigned() ? c["share"].get<std::uint64_t>() : 0;
            f.cuts.push_back(cut);
        }
    }
    if (j.contains("budget")) {
        const json& b = j["budget"];
        if (!b.is_object()) return make_error("certificate field \"budget\" must be an object");
        BudgetStop s;
        const std::string bound = b.contains("bound") && b["bound"].is_string() ? b["bound"].get<std::string>() : "";
        s.bound = bound == "time" ? BudgetStop::Bound::Time : bound == "memory" ? BudgetStop::Bound::Memory : BudgetStop::Bound::Work;
        const char* amount = s.bound == BudgetStop::Bound::Memory ? "bytes" : "steps";
        if (b.contains(amount) && b[amount].is_number_unsigned()) s.amount = b[amount].get<std::uint64_t>();
        if (b.contains("seconds") && b["seconds"].is_number()) s.seconds = b["seconds"].get<double>();
        if (b.contains("strategy") && b["strategy"].is_string()) s.strategy = b["strategy"].get<std::string>();
        f.budget = s;
    }
    if (r.error) return *r.error;
    if (x) {
        auto w = parse_word(alphabet, *x);
        if (!w) return make_error("certificate field \"x\" is not a word: " + w.error().one_line());
        f.x = *w;
    }
    return std::optional<WindowFields>(std::move(f));
}

}  // namespace ltlkit::automata
