// The subregular classes decided on the syntactic semigroup (docs/SUBREGULAR.md §2.7–2.9): DA (=
// FO²[<], Thérien–Wilke 1998), locally threshold testable (Thérien–Weiss 1985, Beauquier–Pin 1991)
// and aperiodic commutative, and the identities their certificates name, evaluated on
// transformations of the minimal DFA (so the checker does not need the semigroup).
#include <algorithm>
#include <map>
#include <set>

#include "automata/algebra/classes.hh"
#include "automata/algebra/subregular_internal.hh"

namespace ltlkit::automata::algebra::subregular {

namespace {

using T = std::vector<State>;

T compose(const T& a, const T& b) {  // a then b (word order)
    T r(a.size());
    for (std::size_t q = 0; q < a.size(); ++q) r[q] = b[a[q]];
    return r;
}

// t^ω: per point q, z = t^n(q) lies on a cycle of length c, and t^m(q) for m ≡ 0 (mod c), m >= n
// is t^((c - n mod c) mod c)(z).
T omega(const T& t) {
    const std::size_t n = t.size();
    T r(n);
    for (std::size_t q = 0; q < n; ++q) {
        State z = State(q);
        for (std::size_t i = 0; i < n; ++i) z = t[z];
        std::size_t c = 1;
        for (State y = t[z]; y != z; y = t[y]) ++c;
        for (std::size_t i = 0; i < (c - n % c) % c; ++i) z = t[z];
        r[q] = z;
    }
    return r;
}

Element sg_omega_word_product(const TransitionSemigroup& s, std::initializer_list<Element> es) {
    Element r = *es.begin();
    for (auto it = es.begin() + 1; it != es.end(); ++it) r = s.product(r, *it);
    return r;
}

// The semigroup limit: max_elements, lowered so that elements × states stays under 5·10⁷ (the
// transformations are stored, up to 4 bytes per point).
std::size_t element_limit(const Dfa& d, const SubregularOptions& o) {
    return std::max<std::size_t>(1, std::min(o.max_elements, std::size_t(50'000'000) / std::max<std::size_t>(d.num_states(), 1)));
}

// A letter whose map has a cycle of length >= 2 (no aperiodic language), or nullopt.
std::optional<Symbol> periodic_letter(const Dfa& d) {
    for (Symbol a = 0; a < d.num_symbols(); ++a) {
        const T t = transformation_of(d, Word{a});
        if (compose(omega(t), t) != omega(t)) return a;
    }
    return std::nullopt;
}

Json aperiodic_no(const Dfa& d, const Word& x) {
    return Json{{"identity", "aperiodic"}, {"words", {{"x", word_json(d, x)}}}};
}

}  // namespace

Result<bool> identity_violated(const Dfa& d, const std::string& identity, const nlohmann::json& words, std::string* why) {
    auto get = [&](const char* name) -> Result<T> {
        if (!words.is_object() || !words.contains(name))
            return make_error(std::string("the identity ") + identity + " needs the word \"" + name + "\"");
        auto w = word_from_json(words[name], d.alphabet);
        if (!w) return w.error();
        return transformation_of(d, *w);
    };
    T lhs, rhs;
    if (identity == "da") {
        auto x = get("x"), y = get("y");
        if (!x) return x.error();
        if (!y) return y.error();
        const T e = omega(compose(*x, *y));
        lhs = compose(compose(e, *x), e), rhs = e;
    } else if (identity == "tw") {
        auto e = get("e"), f = get("f"), x = get("x"), y = get("y"), z = get("z");
        for (auto* r : {&e, &f, &x, &y, &z})
            if (!*r) return r->error();
        const T E = omega(*e), F = omega(*f);
        lhs = compose(compose(compose(compose(compose(compose(E, *x), F), *y), E), *z), F);
        rhs = compose(compose(compose(compose(compose(compose(E, *z), F), *y), E), *x), F);
    } else if (identity == "commutative") {
        auto x = get("x"), y = get("y");
        if (!x) return x.error();
        if (!y) return y.error();
        lhs = compose(*x, *y), rhs = compose(*y, *x);
    } else if (identity == "aperiodic") {
        auto x = get("x");
        if (!x) return x.error();
        lhs = omega(*x), rhs = compose(lhs, *x);
    } else {
        return make_error("unknown identity '" + identity + "' (da, tw, commutative, aperiodic)");
    }
    const bool violated = lhs != rhs;
    if (why) *why = "the identity '" + identity + "' " + (violated ? "fails" : "holds") + " on the named words (transformations of the minimal DFA)";
    return violated;
}

SubregularDecision decide_aperiodic_commutative(const Dfa& d) {
    const ClassId id = ClassKind::AperiodicCommutative;
    if (auto a = periodic_letter(d))
        return decision(id, false, Json::object(), "the letter " + d.alphabet[*a] + " permutes a cycle of states: not aperiodic",
                        Json{{"violation", aperiodic_no(d, Word{*a})}});
    for (Symbol a = 0; a < d.num_symbols(); ++a)
        for (Symbol b = Symbol(a + 1); b < d.num_symbols(); ++b)
            for (State q = 0; q < d.num_states(); ++q)
                if (d.next(d.next(q, a), b) != d.next(d.next(q, b), a))
                    return decision(id, false, Json::object(),
                                    "the letters " + d.alphabet[a] + " and " + d.alphabet[b] + " do not commute",
                                    Json{{"violation", {{"identity", "commutative"}, {"words", {{"x", word_json(d, Word{a})}, {"y", word_json(d, Word{b})}}}}}});
    return decision(id, true, Json::object(), "the letters commute and none permutes a cycle of states (the syntactic monoid is commutative and aperiodic)");
}

SubregularDecision decide_da(const Dfa& d, const SubregularOptions& o) {
    if (auto a = periodic_letter(d))
        return decision(ClassKind::DA, false, Json::object(), "not aperiodic (the letter " + d.alphabet[*a] + " permutes states), so not in DA",
                        Json{{"violation", aperiodic_no(d, Word{*a})}});
    DfaAnalysis A(d);
    if (find_class(ClassKind::PiecewiseTestable)->by_dfa(A).member)
        return decision(ClassKind::DA, true, Json::object(), "piecewise testable (J-trivial), and J-trivial monoids are in DA", Json{{"by", to_string(ClassKind::PT)}});
    auto S = SemigroupAnalysis::of(d, element_limit(d, o));
    if (!S) return decision(ClassKind::DA, std::nullopt, Json::object(), "the syntactic semigroup has more than " + std::to_string(element_limit(d, o)) + " elements");
    const auto& s = (*S)->s;
    const auto& g = (*S)->green;
    std::vector<std::uint8_t> regular(g.num_j, 0);
    for (Element e : (*S)->idempotents) regular[g.j[e]] = 1;
    for (Element x = 0; x < s.size(); ++x) {
        if (!regular[g.j[x]] || s.is_idempotent(x)) continue;
        // x lies in a regular D-class: some inverse y (x·y·x = x) gives (xy)^ω x (xy)^ω ≠ (xy)^ω.
        for (Element y = 0; y < s.size(); ++y) {
            const Element w = s.omega(s.product(x, y));
            if (sg_omega_word_product(s, {w, x, w}) != w)
                return decision(ClassKind::DA, false, Json::object(),
                                "a regular D-class holds a non-idempotent: (xy)^ω x (xy)^ω ≠ (xy)^ω",
                                Json{{"violation", {{"identity", "da"}, {"words", {{"x", word_json(d, s.word(x))}, {"y", word_json(d, s.word(y))}}}}}});
        }
    }
    return decision(ClassKind::DA, true, Json::object(), "every regular D-class of the syntactic semigroup is an aperiodic semigroup (its elements are idempotent)");
}

// The least (k, t) of LTT in the order of docs/SUBREGULAR.md §2.7: the least k such that
// LTT-(k,t) holds for some t <= max_t, then the least such t. The parameters, the certificate fields
// that prove them least ("below_k": two words of one (k-1, max_t)-type that differ, "below_t": of
// one (k, t-1)-type) and a one-line note; LT-K ⊆ LTT-(K,1) (`upper`) ends the search at K.
struct LttParams {
    Json params = Json::object();
    Json fields = Json::object();
    std::string note;
};

LttParams ltt_params(const Dfa& d, const SubregularOptions& o, const SubregularDecision* lt) {
    LttParams r;
    const std::optional<std::size_t> upper = known_k(lt);
    std::optional<std::pair<Word, Word>> below_k;
    unsigned refuted = 0;  // every (k', t') with k' <= refuted, t' <= max_t is refuted
    std::string stop;
    r.fields["t_max"] = o.max_t;
    for (unsigned k = 1; k <= o.max_k && stop.empty(); ++k) {
        if (upper && k == *upper) break;
        std::optional<std::pair<Word, Word>> below_t;
        for (unsigned t = 1; t <= o.max_t; ++t) {
            TypeSearch s = type_search(d, TypeKind::LTT, k, t, o.max_type_states);
            if (s.consistent == true) {
                r.params = Json{{"k", k}, {"t", t}};
                if (below_k) r.fields["below_k"] = pair_json(d, *below_k);
                if (below_t) r.fields["below_t"] = pair_json(d, *below_t);
                r.note = "; LTT-(" + std::to_string(k) + "," + std::to_string(t) + ") with the least such k (t <= " +
                         std::to_string(o.max_t) + "), then the least t";
                return r;
            }
            if (!s.conflict) {
                stop = "the (" + std::to_string(k) + "," + std::to_string(t) + ")-type search reached its limit (--type-max-states)";
                break;
            }
            below_t = s.conflict;
        }
        if (stop.empty()) below_k = below_t, refuted = k;
    }
    if (below_k) r.fields["below_k"] = pair_json(d, *below_k);
    if (upper && refuted + 1 == *upper) {
        r.params = Json{{"k", *upper}, {"t", 1}};
        r.fields["by"] = lt->certificate;
        r.note = "; LTT-(" + std::to_string(*upper) + ",1) since " + to_string(lt->id) + "-" + std::to_string(*upper) + " ⊆ LTT-(" +
                 std::to_string(*upper) + ",1), with the least such k (t <= " + std::to_string(o.max_t) + ")";
        return r;
    }
    r.fields["limits"] = limits_json(o);
    if (refuted) r.params["k_above"] = refuted;
    if (upper) r.params["k_at_most"] = *upper, r.fields["by"] = lt->certificate;
    if (stop.empty()) stop = "no (k,t) with k <= " + std::to_string(o.max_k) + ", t <= " + std::to_string(o.max_t) + " (--subregular-max-k, --subregular-max-t)";
    r.note = "; " + stop + (upper ? "; LTT-(" + std::to_string(*upper) + ",1) by " + to_string(lt->id) : std::string());
    return r;
}

SubregularDecision decide_ltt(const Dfa& d, const SubregularOptions& o, const SubregularDecision* lt) {
    if (auto a = periodic_letter(d))
        return decision(ClassKind::LTT, false, Json::object(), "not aperiodic (the letter " + d.alphabet[*a] + " permutes states), so not LTT",
                        Json{{"violation", aperiodic_no(d, Word{*a})}});
    if (lt && lt->member == true) {
        LttParams p = ltt_params(d, o, lt);
        Json fields = p.fields;
        // LT ⊆ LTT proves membership when no (k,t) of LTT's own search does.
        if (!fields.contains("by") && !p.params.contains("k")) fields["by"] = lt->certificate;
        return decision(ClassKind::LTT, true, p.params, "locally testable, and LT ⊆ LTT" + p.note, fields);
    }
    auto S = SemigroupAnalysis::of(d, element_limit(d, o));
    if (!S) return decision(ClassKind::LTT, std::nullopt, Json::object(), "the syntactic semigroup has more than " + std::to_string(element_limit(d, o)) + " elements");
    const auto& s = (*S)->s;
    if (!(*S)->green.h_trivial(s.size()))
        for (Element x = 0; x < s.size(); ++x)
            if (s.product(s.omega(x), x) != s.omega(x))
                return decision(ClassKind::LTT, false, Json::object(), "the syntactic semigroup is not aperiodic", Json{{"violation", aperiodic_no(d, s.word(x))}});
    // Thérien–Weiss: e·x·f·y·e·z·f = e·z·f·y·e·x·f, i.e. p·q·r = r·q·p for p, r ∈ eSf and q ∈ fSe.
    const auto& E = (*S)->idempotents;
    std::size_t work = 0;
    const std::size_t kMaxWork = 50'000'000;
    for (Element e : E)
        for (Element f : E) {
            std::set<Element> ef, fe;
            for (Element x = 0; x < s.size(); ++x) ef.insert(s.product(s.product(e, x), f)), fe.insert(s.product(s.product(f, x), e));
            work += 2 * s.size() + ef.size() * ef.size() * fe.size();
            if (work > kMaxWork)
                return decision(ClassKind::LTT, std::nullopt, Json::object(), "the Thérien–Weiss identity needs more than " + std::to_string(kMaxWork) + " products");
            for (Element p : ef)
                for (Element q : fe)
                    for (Element r : ef)
                        if (s.product(s.product(p, q), r) != s.product(s.product(r, q), p))
                            return decision(ClassKind::LTT, false, Json::object(),
                                            "the Thérien–Weiss identity e·x·f·y·e·z·f = e·z·f·y·e·x·f fails",
                                            Json{{"violation", {{"identity", "tw"},
                                                                {"words", {{"e", word_json(d, s.word(e))}, {"f", word_json(d, s.word(f))},
                                                                           {"x", word_json(d, s.word(p))}, {"y", word_json(d, s.word(q))},
                                                                           {"z", word_json(d, s.word(r))}}}}}});
        }
    LttParams p = ltt_params(d, o, nullptr);
    return decision(ClassKind::LTT, true, p.params, "aperiodic and the Thérien–Weiss identity holds" + p.note, p.fields);
}

}  // namespace ltlkit::automata::algebra::subregular
