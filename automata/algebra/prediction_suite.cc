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
    for (const auto& row : class_table()) s += (s.empty() ? "" : ", ") + row.id;
    for (const auto& id : subregular_class_ids()) s += ", " + id;
    return s + ", local_k:K, hybrid_k:K (K >= 2)";
}

// A name known to parse (the tables below); parse() of user text goes through its Error.
ClassRef must(const std::string& text) { return ClassRef::parse(text).value(); }

// One Horn rule: every literal of `if_all` true implies `then` (each literal a class and an answer).
struct Lit {
    ClassRef cls;
    bool member;
};
struct Rule {
    std::vector<Lit> if_all;
    Lit then;
    const char* why;  // the source of the inclusion
};

// The inclusions (one place; tests/test_prediction_suite.cc checks each on random DFAs by classify).
std::vector<Rule> rules_for(const std::set<unsigned>& windows) {
    auto in = [](const char* id) { return Lit{must(id), true}; };
    auto implies = [&](const char* a, const char* b, const char* why) { return Rule{{in(a)}, in(b), why}; };
    std::vector<Rule> r = {
        // docs/CLASSES.md §2 (LC25, LC26; Pin, Varieties of Formal Languages)
        implies("definite", "locally_r_trivial", "LTL[Y] ⊆ LTL[P,Y]"),
        implies("r_trivial", "locally_r_trivial", "LTL[P] ⊆ LTL[P,Y]"),
        implies("locally_testable", "locally_r_trivial", "eSe a semilattice is R-trivial"),
        implies("piecewise_testable", "r_trivial", "J-trivial is R-trivial"),
        implies("locally_r_trivial", "star_free", "LTL[P,Y] ⊆ LTL[S] (Schützenberger)"),
        implies("definite", "l_trivial", "x·e = e gives y·(xy)^ω = (xy)^ω"),
        implies("piecewise_testable", "l_trivial", "J-trivial is L-trivial"),
        implies("l_trivial", "star_free", "an L-trivial monoid is aperiodic"),
        implies("definite", "generalized_definite", "x·e = e gives e·s·e = e"),
        implies("reverse_definite", "generalized_definite", "e·s = e gives e·s·e = e"),
        implies("reverse_definite", "r_trivial", "every state on a cycle absorbing: partially ordered"),
        implies("generalized_definite", "locally_testable", "eSe = {e} is idempotent and commutative"),
        Rule{{in("r_trivial"), in("l_trivial")}, in("piecewise_testable"), "R- and L-trivial is J-trivial (Simon)"},
        // docs/SUBREGULAR.md §1
        implies("finite", "definite", "docs/SUBREGULAR.md §3"),
        implies("cofinite", "definite", "docs/SUBREGULAR.md §3"),
        implies("finite", "SL", "finite ⊆ SL-(longest+2)"),
        implies("definite", "SL", "degree d: forbid s⋉ for the rejected suffixes s of length d and the rejected ⋊w⋉, |w| < d (SL-(d+1))"),
        implies("reverse_definite", "SL", "degree d: forbid ⋊p for the rejected prefixes p of length d and the rejected ⋊w⋉, |w| < d"),
        implies("SL", "LT", "SL-k ⊆ LT-k"),
        implies("LT", "LTT", "LT-k ⊆ LTT-(k,1)"),
        implies("SL", "TSL", "SL-k ⊆ TSL-k on the tier Σ"),
        implies("SP", "PT", "SP-k ⊆ PT-k"),
        implies("PT", "DA", "PT ⊆ DA"),
        implies("aperiodic_commutative", "PT", "aperiodic commutative ⊆ PT"),
        implies("LTT", "star_free", "LTT ⊆ star-free"),
        implies("DA", "star_free", "DA ⊆ star-free"),
        implies("r_trivial", "DA", "R-trivial monoids lie in DA (Tesson–Thérien 2002)"),
        implies("l_trivial", "DA", "L-trivial monoids lie in DA (Tesson–Thérien 2002)"),
        // one class under two names: LT = locally_testable, PT = piecewise_testable
        implies("LT", "locally_testable", "the same class"),
        implies("locally_testable", "LT", "the same class"),
        implies("PT", "piecewise_testable", "the same class (Simon)"),
        implies("piecewise_testable", "PT", "the same class (Simon)"),
    };
    // docs/WINDOWS.md and docs/CLASSES.md §2: necessary conditions and the window inclusions.
    for (unsigned k : windows) {
        const ClassRef lk = must("local_k:" + std::to_string(k)), hk = must("hybrid_k:" + std::to_string(k));
        r.push_back({{{lk, true}}, in("definite"), "local_k implies definite (LTL[Y<=k] ⊆ LTL[Y])"});
        r.push_back({{{hk, true}}, in("locally_r_trivial"), "hybrid_k implies locally R-trivial"});
        r.push_back({{{lk, true}}, {hk, true}, "LTL[Y<=k] ⊆ LTL[P,Y<=k]"});
        r.push_back({{in("r_trivial")}, {hk, true}, "LTL[P] ⊆ LTL[P,Y<=k]"});
        for (unsigned m : windows)
            if (m != k && m % k == 0) {
                r.push_back({{{must("local_k:" + std::to_string(m)), true}}, {lk, true}, "LTL[Y<=qk] ⊆ LTL[Y<=k]"});
                r.push_back({{{must("hybrid_k:" + std::to_string(m)), true}}, {hk, true}, "LTL[P,Y<=qk] ⊆ LTL[P,Y<=k]"});
            }
    }
    return r;
}

std::set<unsigned> windows_of(const std::vector<ClassConstraint>& cs) {
    std::set<unsigned> w;
    for (const auto& c : cs)
        if (c.cls.is_window()) w.insert(c.cls.k());
    return w;
}

}  // namespace

Result<ClassRef> ClassRef::parse(const std::string& text) {
    for (const auto& row : class_table())
        if (row.id == text) return ClassRef(Family::Table, text, 0);
    if (is_subregular_class(text)) return ClassRef(Family::Subregular, text, 0);
    for (const char* stem : {"local_k", "hybrid_k"}) {
        const std::string p = std::string(stem) + ":";
        if (text.rfind(p, 0) != 0) continue;
        const std::string num = text.substr(p.size());
        const bool digits = !num.empty() && num.size() <= 3 && std::all_of(num.begin(), num.end(), [](char c) { return c >= '0' && c <= '9'; });
        const unsigned k = digits ? unsigned(std::stoul(num)) : 0;
        if (!digits || k < 2 || k > kMaxWindow)
            return make_error("class '" + text + "': the window K of " + stem + ":K must be an integer 2.." + std::to_string(kMaxWindow));
        return ClassRef(std::string(stem) == "local_k" ? Family::LocalK : Family::HybridK, stem, k);
    }
    return make_error("unknown class '" + text + "' (" + allowed_names() + ")");
}

std::string ClassRef::text() const { return is_window() ? id_ + ":" + std::to_string(k_) : id_; }

std::optional<bool> ConstraintClosure::of(const ClassRef& c) const {
    for (const auto& k : known)
        if (k.cls == c) return k.member;
    return std::nullopt;
}

Result<ConstraintClosure> close_constraints(const std::vector<ClassConstraint>& constraints) {
    // Unit propagation on Horn clauses, which is complete for their satisfiability: a rule fires
    // forward when all its premises hold, backward (its last open premise fails) when its
    // conclusion fails with every other premise holding.
    std::map<ClassRef, std::pair<bool, std::string>> val;  // class -> answer, why
    std::string clash;
    auto set = [&](const ClassRef& c, bool m, const std::string& why) {
        auto it = val.find(c);
        if (it == val.end()) {
            val.emplace(c, std::make_pair(m, why));
            return true;
        }
        if (it->second.first != m && clash.empty())
            clash = "contradictory constraints: " + std::string(m ? "" : "not ") + c.text() + " (" + why + ") and " +
                    (it->second.first ? "" : "not ") + c.text() + " (" + it->second.second + ")";
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
                for (const Lit& l : r.if_all) s += (s.empty() ? "" : " and ") + std::string(l.member ? "" : "not ") + l.cls.text();
                return s;
            }();
            const std::string rule_text = premises + " implies " + (r.then.member ? "" : "not ") + r.then.cls.text() + ": " + r.why;
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
    for (const char* arch : {"global", "local-1", "hybrid-1"})
        for (const auto& row : class_table())
            if (row.arch == arch)
                if (auto v = closure->of(must(row.id))) out.push_back({row.arch, *v});
    for (unsigned k : windows_of(constraints))
        for (bool hybrid : {false, true})
            if (auto v = closure->of(must(window_class_id(hybrid, k))))
                out.push_back({std::string(hybrid ? "hybrid-" : "local-") + std::to_string(k), *v});
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
                out.push_back({must("locally_r_trivial"), false});
                continue;
            }
            auto c = ClassRef::parse(text);
            if (!c) return c.error();
            out.push_back({*c, member});
        }
    return out;
}

const std::vector<PredictionStratum>& prediction_strata() {
    static const std::vector<PredictionStratum> strata = [] {
        auto c = [](const char* id, bool m) { return ClassConstraint{must(id), m}; };
        std::vector<PredictionStratum> s = {
            {"rt_definite", {c("r_trivial", true), c("definite", true)},
             "R-trivial and definite (LTL[P] and LTL[Y]): every 1-window architecture recognizes", {}},
            {"rt_not_definite", {c("r_trivial", true), c("definite", false)},
             "R-trivial, not definite: global and hybrid-1 recognize, local-1 fails", {}},
            {"definite_not_rt", {c("definite", true), c("r_trivial", false)},
             "definite, not R-trivial: local-1 and hybrid-1 recognize, global fails", {}},
            {"lrt_only", {c("locally_r_trivial", true), c("r_trivial", false), c("definite", false)},
             "locally R-trivial, neither R-trivial nor definite: only hybrid-1 recognizes", {}},
            {"none", {c("locally_r_trivial", false)},
             "not locally R-trivial: global, local-1 and hybrid-1 all fail (and every window k)", {}},
            {"definite_local2", {c("definite", true), c("r_trivial", false), c("local_k:2", true)},
             "definite, not R-trivial, in LTL[Y<=2]: local-2 recognizes as local-1 does", {}},
            {"definite_not_local2", {c("definite", true), c("r_trivial", false), c("local_k:2", false)},
             "definite, not R-trivial, not in LTL[Y<=2]: local-1 recognizes, local-2 fails", {}},
            {"lrt_only_hybrid2",
             {c("locally_r_trivial", true), c("r_trivial", false), c("definite", false), c("hybrid_k:2", true)},
             "as lrt_only and in LTL[P,Y<=2]: hybrid-2 recognizes as hybrid-1 does", {}},
            {"lrt_only_not_hybrid2",
             {c("locally_r_trivial", true), c("r_trivial", false), c("definite", false), c("hybrid_k:2", false)},
             "as lrt_only, not in LTL[P,Y<=2]: hybrid-1 recognizes, hybrid-2 fails", {}},
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
    for (const auto& c : cs) j.push_back({{"class", c.cls.text()}, {"member", c.member}});
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
        for (const auto& x : d.answers[i]) answers[x.cls.text()] = to_string(x.answer);
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

Answer class_answer(const Classification& c, const Dfa& minimal, const ClassRef& cls) {
    auto of = [](std::optional<bool> b) { return !b ? Answer::Unknown : *b ? Answer::Yes : Answer::No; };
    switch (cls.family()) {
        case ClassRef::Family::Table: {
            auto it = c.classes.find(cls.id());
            return it == c.classes.end() ? Answer::Unknown : of(it->second);
        }
        case ClassRef::Family::Subregular: {
            auto d = decide_subregular(cls.id(), minimal);
            return d ? of(d->member) : Answer::Unknown;
        }
        case ClassRef::Family::LocalK:
        case ClassRef::Family::HybridK: {
            const auto& m = cls.family() == ClassRef::Family::LocalK ? c.local_k : c.hybrid_k;
            auto it = m.find(cls.k());
            return it == m.end() ? Answer::Unknown : it->second;
        }
    }
    return Answer::Unknown;
}

}  // namespace ltlkit::automata::algebra
