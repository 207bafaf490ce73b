// Class constraints, their closure under the inclusions, and the strata of the predictions
// (prediction_suite.hh; docs/SUBREGULAR.md §5b). The random generators and the draw are in
// prediction_draw.cc.
#include "automata/algebra/prediction_suite.hh"

#include <algorithm>
#include <map>
#include <set>

#include "automata/algebra/classes.hh"
#include "automata/algebra/subregular.hh"
#include "ltl/printer.hh"

namespace ltlkit::automata::algebra {

namespace {

constexpr unsigned kMaxWindow = 64;

std::string allowed_names() {
    std::string s;
    for (ClassFamily f : {ClassFamily::Table, ClassFamily::Subregular})
        for (ClassKind k : class_kinds(f)) s += (s.empty() ? "" : ", ") + std::string(class_name(k));
    return s + ", " + class_name(ClassKind::LocalK) + ":K, " + class_name(ClassKind::HybridK) + ":K (K >= 2)";
}

// One Horn rule: every literal of `if_all` true implies `then` (each literal a class and an answer).
struct Lit {
    ClassId cls;
    bool member;
};
struct Rule {
    std::vector<Lit> if_all;
    Lit then;
    const char* why;  // the source of the inclusion
};

// The inclusions of classes.hh (tests/test_prediction_suite.cc checks each on random DFAs by
// classify), then those of the windows named.
std::vector<Rule> rules_for(const std::set<unsigned>& windows) {
    std::vector<Rule> r;
    auto add = [&](const Inclusion& i) {
        Rule rule{{}, {i.then, true}, i.why};
        for (const ClassId& c : i.if_all) rule.if_all.push_back({c, true});
        r.push_back(std::move(rule));
    };
    for (const Inclusion& i : class_inclusions()) add(i);
    for (const Inclusion& i : window_inclusions(std::vector<unsigned>(windows.begin(), windows.end()))) add(i);
    return r;
}

std::set<unsigned> windows_of(const std::vector<ClassConstraint>& cs) {
    std::set<unsigned> w;
    for (const auto& c : cs)
        if (c.cls.is_window()) w.insert(c.cls.k);
    return w;
}

}  // namespace

Result<ClassId> parse_suite_class(const std::string& text) {
    if (auto stem = window_stem_of(text)) {
        auto id = parse_class_id(text, 3);
        if (!id || id->k < 2 || id->k > kMaxWindow)
            return make_error("class '" + text + "': the window K of " + class_name(*stem) + ":K must be an integer 2.." +
                              std::to_string(kMaxWindow));
        return *id;
    }
    if (auto id = parse_class_id(text)) return *id;
    return make_error("unknown class '" + text + "' (" + allowed_names() + ")");
}

std::optional<bool> ConstraintClosure::of(const ClassId& c) const {
    for (const auto& k : known)
        if (k.cls == c) return k.member;
    return std::nullopt;
}

Result<ConstraintClosure> close_constraints(const std::vector<ClassConstraint>& constraints) {
    // Unit propagation on Horn clauses, which is complete for their satisfiability: a rule fires
    // forward when all its premises hold, backward (its last open premise fails) when its
    // conclusion fails with every other premise holding.
    std::map<ClassId, std::pair<bool, std::string>> val;  // class -> answer, why
    std::string clash;
    auto set = [&](const ClassId& c, bool m, const std::string& why) {
        auto it = val.find(c);
        if (it == val.end()) {
            val.emplace(c, std::make_pair(m, why));
            return true;
        }
        if (it->second.first != m && clash.empty())
            clash = "contradictory constraints: " + std::string(m ? "" : "not ") + to_string(c) + " (" + why + ") and " +
                    (it->second.first ? "" : "not ") + to_string(c) + " (" + it->second.second + ")";
        return false;
    };
    for (const auto& c : constraints) set(c.cls, c.member, "asked");
    if (!clash.empty()) return make_error(clash);
    const auto rules = rules_for(windows_of(constraints));
    for (bool changed = true; changed && clash.empty();) {
        changed = false;
        for (const Rule& r : rules) {
            std::size_t open = 0, held = 0;
            const Lit* last_open = nullptr;
            bool broken = false;
            for (const Lit& l : r.if_all) {
                auto it = val.find(l.cls);
                if (it == val.end()) ++open, last_open = &l;
                else if (it->second.first == l.member) ++held;
                else broken = true;
            }
            if (broken) continue;
            auto concl = val.find(r.then.cls);
            const std::string premises = [&] {
                std::string s;
                for (const Lit& l : r.if_all) s += (s.empty() ? "" : " and ") + std::string(l.member ? "" : "not ") + to_string(l.cls);
                return s;
            }();
            const std::string rule_text = premises + " implies " + (r.then.member ? "" : "not ") + to_string(r.then.cls) + ": " + r.why;
            if (open == 0 && held == r.if_all.size()) {
                if (concl == val.end() || concl->second.first != r.then.member) changed |= set(r.then.cls, r.then.member, rule_text);
            } else if (open == 1 && concl != val.end() && concl->second.first != r.then.member) {
                changed |= set(last_open->cls, !last_open->member, rule_text);
            }
            if (!clash.empty()) break;
        }
    }
    if (!clash.empty()) return make_error(clash);
    ConstraintClosure out;
    for (const auto& [c, v] : val) out.known.push_back({c, v.first});
    return out;
}

std::vector<ArchExpectation> forced_predictions(const std::vector<ClassConstraint>& constraints) {
    std::vector<ArchExpectation> out;
    auto closure = close_constraints(constraints);
    if (!closure) return out;
    using A = Architecture;
    for (const A& arch : {A{A::Kind::Global, 0}, A{A::Kind::Local, 1}, A{A::Kind::Hybrid, 1}})
        for (const auto& row : class_table())
            if (row.arch == arch)
                if (auto v = closure->of(row.id())) out.push_back({to_string(arch), *v});
    for (unsigned k : windows_of(constraints))
        for (bool hybrid : {false, true})
            if (auto v = closure->of(window_class_id(hybrid, k)))
                out.push_back({to_string(A{hybrid ? A::Kind::Hybrid : A::Kind::Local, int(k)}), *v});
    return out;
}

Result<std::vector<ClassConstraint>> suite_constraints(const std::string& stratum, const std::vector<std::string>& in,
                                                       const std::vector<std::string>& not_in) {
    std::vector<ClassConstraint> out;
    if (!stratum.empty()) {
        const PredictionStratum* st = find_stratum(stratum);
        if (!st) {
            std::string names;
            for (const auto& s : prediction_strata()) names += (names.empty() ? "" : ", ") + s.name;
            return make_error("unknown stratum '" + stratum + "' (" + names + ")");
        }
        out = st->constraints;
    }
    for (bool member : {true, false})
        for (const auto& text : member ? in : not_in) {
            if (text == "none") {
                if (!member) return make_error("'none' (the languages of no prediction class: not locally_r_trivial) cannot be negated");
                out.push_back({ClassKind::LocallyRTrivial, false});
                continue;
            }
            auto c = parse_suite_class(text);
            if (!c) return c.error();
            out.push_back({*c, member});
        }
    return out;
}

const std::vector<PredictionStratum>& prediction_strata() {
    static const std::vector<PredictionStratum> strata = [] {
        auto c = [](ClassId id, bool m) { return ClassConstraint{id, m}; };
        using K = ClassKind;
        const ClassId local2 = window_class_id(false, 2), hybrid2 = window_class_id(true, 2);
        std::vector<PredictionStratum> s = {
            {"rt_definite", {c(K::RTrivial, true), c(K::Definite, true)},
             "R-trivial and definite (LTL[P] and LTL[Y]): every 1-window architecture recognizes", {}},
            {"rt_not_definite", {c(K::RTrivial, true), c(K::Definite, false)},
             "R-trivial, not definite: global and hybrid-1 recognize, local-1 fails", {}},
            {"definite_not_rt", {c(K::Definite, true), c(K::RTrivial, false)},
             "definite, not R-trivial: local-1 and hybrid-1 recognize, global fails", {}},
            {"lrt_only", {c(K::LocallyRTrivial, true), c(K::RTrivial, false), c(K::Definite, false)},
             "locally R-trivial, neither R-trivial nor definite: only hybrid-1 recognizes", {}},
            {"none", {c(K::LocallyRTrivial, false)},
             "not locally R-trivial: global, local-1 and hybrid-1 all fail (and every window k)", {}},
            {"definite_local2", {c(K::Definite, true), c(K::RTrivial, false), c(local2, true)},
             "definite, not R-trivial, in LTL[Y<=2]: local-2 recognizes as local-1 does", {}},
            {"definite_not_local2", {c(K::Definite, true), c(K::RTrivial, false), c(local2, false)},
             "definite, not R-trivial, not in LTL[Y<=2]: local-1 recognizes, local-2 fails", {}},
            {"lrt_only_hybrid2",
             {c(K::LocallyRTrivial, true), c(K::RTrivial, false), c(K::Definite, false), c(hybrid2, true)},
             "as lrt_only and in LTL[P,Y<=2]: hybrid-2 recognizes as hybrid-1 does", {}},
            {"lrt_only_not_hybrid2",
             {c(K::LocallyRTrivial, true), c(K::RTrivial, false), c(K::Definite, false), c(hybrid2, false)},
             "as lrt_only, not in LTL[P,Y<=2]: hybrid-1 recognizes, hybrid-2 fails", {}},
            // `none` drawn at random is almost never star-free (all ten of the first sweep's were
            // not): its failures may come from modular counting, which no LTL formula does. This
            // one keeps the failures the theory is about: in LTL, outside every window fragment's
            // 1-window classes.
            {"star_free_not_lrt", {c(K::LocallyRTrivial, false), c(K::StarFree, true)},
             "star-free (in LTL), not locally R-trivial: global, local-1 and hybrid-1 all fail, without "
             "modular counting",
             {}},
        };
        for (auto& st : s) st.predictions = forced_predictions(st.constraints);
        return s;
    }();
    return strata;
}

const PredictionStratum* find_stratum(const std::string& name) {
    for (const auto& s : prediction_strata())
        if (s.name == name) return &s;
    return nullptr;
}

nlohmann::ordered_json constraints_json(const std::vector<ClassConstraint>& cs) {
    nlohmann::ordered_json j = nlohmann::ordered_json::array();
    for (const auto& c : cs) j.push_back({{"class", to_string(c.cls)}, {"member", c.member}});
    return j;
}

nlohmann::ordered_json predictions_json(const std::vector<ArchExpectation>& ps) {
    nlohmann::ordered_json j = nlohmann::ordered_json::object();
    for (const auto& p : ps) j[p.arch] = p.recognizes ? "recognizes" : "fails";
    return j;
}

nlohmann::ordered_json prediction_suite_json(const PredictionSuiteRequest& r, const PredictionSuiteDraw& d,
                                             const PredictionStratum* stratum, const std::string& name_stem) {
    nlohmann::ordered_json langs = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < d.dfas.size(); ++i) {
        nlohmann::ordered_json answers = nlohmann::ordered_json::object();
        for (const auto& x : d.answers[i]) answers[to_string(x.cls)] = to_string(x.answer);
        langs.push_back({{"name", name_stem + "-" + std::to_string(i + 1)},
                         {"states", d.dfas[i].num_states()},
                         {"generator", d.generators[i]},
                         {"answers", answers}});
        if (i < d.formulas.size()) langs.back()["formula"] = ltl::to_string(d.formulas[i]);
    }
    return {{"constraints", constraints_json(r.constraints)},
            {"stratum", stratum ? nlohmann::ordered_json(stratum->name) : nlohmann::ordered_json()},
            {"from", r.formulas ? "formulas" : "dfas"},
            {"fragment", r.formulas ? nlohmann::ordered_json(r.formulas->fragment.name()) : nlohmann::ordered_json()},
            {"depth", r.formulas ? nlohmann::ordered_json(r.formulas->depth) : nlohmann::ordered_json()},
            {"predictions", predictions_json(forced_predictions(request_facts(r)))},
            {"alphabet", r.alphabet},
            {"seed", r.seed},
            {"min_states", r.min_states},
            {"max_states", r.max_states},
            {"max_k", d.max_k},
            {"count", d.dfas.size()},
            {"draws", d.draws},
            {"rejected_unknown", d.rejected_unknown},
            {"rejected_size", d.rejected_size},
            {"rejected_duplicate", d.rejected_duplicate},
            {"languages", langs}};
}

nlohmann::ordered_json prediction_strata_json() {
    nlohmann::ordered_json all = nlohmann::ordered_json::array();
    for (const auto& st : prediction_strata())
        all.push_back({{"name", st.name}, {"constraints", constraints_json(st.constraints)}, {"description", st.description},
                       {"predictions", predictions_json(st.predictions)}});
    return all;
}

Answer class_answer(const Classification& c, const Dfa& minimal, const ClassId& cls) {
    auto of = [](std::optional<bool> b) { return !b ? Answer::Unknown : *b ? Answer::Yes : Answer::No; };
    switch (cls.family()) {
        case ClassFamily::Table: {
            auto it = c.classes.find(cls);
            return it == c.classes.end() ? Answer::Unknown : of(it->second);
        }
        case ClassFamily::Subregular: {
            auto d = decide_subregular(cls.kind, minimal);
            return d ? of(d->member) : Answer::Unknown;
        }
        case ClassFamily::Window: {
            const auto& m = cls.hybrid() ? c.hybrid_k : c.local_k;
            auto it = m.find(cls.k);
            return it == m.end() ? Answer::Unknown : it->second;
        }
    }
    return Answer::Unknown;
}

}  // namespace ltlkit::automata::algebra
