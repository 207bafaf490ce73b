// Strictly piecewise (SP-k) languages on the minimal DFA, and the k-type searches behind the least k
// of LT-k, PT-k and LTT-(k,t) (docs/SUBREGULAR.md §2.4–2.6).
//
// SP: L is SP iff it is closed under subsequences (Rogers, Heinz, Bailey, Edlefsen, Visscher,
// Wellcome, Wibel 2010), i.e. u·a·v ∈ L implies u·v ∈ L; on the minimal DFA, Lang(q·a) ⊆ Lang(q)
// for every state q and letter a. Its forbidden subsequences are the minimal words outside L
// (finitely many, Higman); each has a run without repeated states (else a shorter subsequence
// would reach the same state), so they are found by a search over simple runs, and the least k is
// the length of the longest.
#include <algorithm>
#include <deque>
#include <functional>
#include <type_traits>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "automata/algebra/classes.hh"
#include "automata/algebra/subregular_internal.hh"
#include "automata/algorithms.hh"

namespace ltlkit::automata::algebra {
namespace subregular {

namespace {

// A violation u·a·v ∈ L, u·v ∉ L of subsequence closure, or nullopt when L is closed (or, with
// *over set, when more than max_pairs pairs were reached).
std::optional<std::tuple<Word, Symbol, Word>> sp_violation(const Dfa& d, DfaAnalysis& A, std::size_t max_pairs, bool* over) {
    const std::size_t n = d.num_states(), ns = d.num_symbols();
    // Joint breadth-first search over ordered pairs (q·a, q) -> (q·a·v, q·v) looking for an
    // accepting first and rejecting second component; parents to rebuild v and the start pair.
    struct Parent {
        std::uint64_t from;
        Symbol a;
    };
    std::unordered_map<std::uint64_t, Parent> parent;
    std::deque<std::uint64_t> todo;
    auto key = [&](State p, State q) { return std::uint64_t(p) * n + q; };
    const std::uint64_t kStart = UINT64_MAX;
    for (State q = 0; q < n; ++q)
        for (Symbol a = 0; a < ns; ++a) {
            const std::uint64_t k = key(d.next(q, a), q);
            if (parent.emplace(k, Parent{kStart, a}).second) todo.push_back(k);
        }
    while (!todo.empty()) {
        const std::uint64_t k = todo.front();
        todo.pop_front();
        const State p = State(k / n), q = State(k % n);
        if (d.is_accepting(p) && !d.is_accepting(q)) {
            Word v;
            std::uint64_t c = k;
            while (parent.at(c).from != kStart) v.push_back(parent.at(c).a), c = parent.at(c).from;
            std::reverse(v.begin(), v.end());
            const State q0 = State(c % n);
            return std::make_tuple(A.access(q0), parent.at(c).a, v);
        }
        for (Symbol a = 0; a < ns; ++a) {
            const std::uint64_t nk = key(d.next(p, a), d.next(q, a));
            if (parent.emplace(nk, Parent{k, a}).second) todo.push_back(nk);
        }
        if (parent.size() > max_pairs) {
            *over = true;
            return std::nullopt;
        }
    }
    return std::nullopt;
}

// Minimal words outside a subsequence-closed L, by a search over accepted words whose runs repeat
// no state; nullopt after max_nodes words.
std::optional<std::vector<Word>> minimal_non_members(const Dfa& d, std::size_t max_nodes) {
    std::vector<Word> out;
    if (!d.is_accepting(d.initial)) return std::vector<Word>{Word{}};
    std::size_t nodes = 0;
    std::vector<std::uint8_t> on_run(d.num_states(), 0);
    Word w;
    bool over = false;
    std::function<void(State)> go = [&](State q) {
        if (over || ++nodes > max_nodes) return void(over = true);
        on_run[q] = 1;
        for (Symbol a = 0; a < d.num_symbols(); ++a) {
            const State p = d.next(q, a);
            w.push_back(a);
            if (!d.is_accepting(p)) {
                bool minimal = true;
                for (std::size_t i = 0; i + 1 < w.size() && minimal; ++i) {
                    Word del = w;
                    del.erase(del.begin() + long(i));
                    minimal = d.accepts(del);
                }
                if (minimal) out.push_back(w);
            } else if (!on_run[p]) {
                go(p);
            }
            w.pop_back();
        }
        on_run[q] = 0;
    };
    go(d.initial);
    if (over) return std::nullopt;
    std::sort(out.begin(), out.end(), [](const Word& a, const Word& b) { return a.size() != b.size() ? a.size() < b.size() : a < b; });
    return out;
}

}  // namespace

}  // namespace subregular

Dfa sp_dfa_from_forbidden(const std::vector<std::string>& alphabet, const std::vector<Word>& forbidden) {
    // State: per forbidden word, the length of its longest prefix embedded so far (greedy
    // embedding is optimal for subsequences); a full match goes to the dead state 0.
    const std::size_t ns = alphabet.size();
    std::map<std::vector<std::uint32_t>, State> id;
    std::vector<std::vector<std::uint32_t>> st{{}};  // state 0: dead
    auto state_of = [&](const std::vector<std::uint32_t>& v) -> State {
        for (std::size_t i = 0; i < forbidden.size(); ++i)
            if (v[i] == forbidden[i].size()) return 0;
        auto [it, fresh] = id.emplace(v, State(st.size()));
        if (fresh) st.push_back(v);
        return it->second;
    };
    Dfa r;
    r.alphabet = alphabet;
    r.initial = state_of(std::vector<std::uint32_t>(forbidden.size(), 0));
    for (std::size_t s = 0; s < st.size(); ++s)
        for (std::size_t a = 0; a < ns; ++a) {
            State to = 0;
            if (s != 0) {
                std::vector<std::uint32_t> v = st[s];
                for (std::size_t i = 0; i < forbidden.size(); ++i)
                    if (v[i] < forbidden[i].size() && forbidden[i][v[i]] == a) ++v[i];
                to = state_of(v);
            }
            r.delta.resize(std::max(r.delta.size(), (s + 1) * ns));
            r.delta[s * ns + a] = to;
        }
    r.delta.resize(st.size() * ns);
    r.accepting.assign(st.size(), 1);
    r.accepting[0] = 0;
    return minimize(r);
}

namespace subregular {

SubregularDecision decide_sp(const Dfa& d, const SubregularOptions& o) {
    DfaAnalysis A(d);
    bool over = false;
    auto violation = sp_violation(d, A, o.max_pair_states * o.max_pair_states / 8, &over);
    if (over)
        return decision(ClassKind::SP, std::nullopt, Json::object(), "the search for a deletion that leaves the language passed its limit of " +
                            std::to_string(o.max_pair_states * o.max_pair_states / 8) + " pairs of states (--sl-max-states² / 8)");
    if (auto v = violation) {
        const auto& [u, a, rest] = *v;
        Word uav = u;
        uav.push_back(a);
        uav.insert(uav.end(), rest.begin(), rest.end());
        Word uv = u;
        uv.insert(uv.end(), rest.begin(), rest.end());
        return decision(ClassKind::SP, false, Json::object(),
                        "not closed under subsequences: a letter deleted from an accepted word gives a rejected one",
                        Json{{"deletion", {{"longer", word_json(d, uav)}, {"shorter", word_json(d, uv)}}}});
    }
    auto mins = minimal_non_members(d, o.max_type_states);
    if (!mins)
        return decision(ClassKind::SP, true, Json::object(), "closed under subsequences (the forbidden subsequences are over the search limit)");
    std::size_t k = 1;
    for (const Word& w : *mins) k = std::max(k, w.size());
    Json fields{{"k", k}};
    if (mins->size() <= o.max_listed) {
        Json f = Json::array();
        for (const Word& w : *mins) f.push_back(word_json(d, w));
        fields["forbidden"] = f;
    } else {
        fields["forbidden_omitted"] = std::to_string(mins->size()) + " forbidden subsequences";
    }
    if (k >= 2) fields["below"] = word_json(d, mins->back());  // a longest one: every SP-(k-1) language accepts it
    return decision(ClassKind::SP, true, Json{{"k", k}},
                    "closed under subsequences; " + std::to_string(mins->size()) + " forbidden subsequences of length <= " +
                        std::to_string(k),
                    fields);
}

// ---- k-types

}  // namespace subregular

std::vector<Word> pt_type(const Word& w, unsigned k) {
    std::set<Word> s{Word{}};
    for (Symbol a : w) {
        std::vector<Word> add;
        for (const Word& x : s)
            if (x.size() < k) add.push_back(x), add.back().push_back(a);
        s.insert(add.begin(), add.end());
    }
    return std::vector<Word>(s.begin(), s.end());
}

namespace subregular {

namespace {
Word marked(const Word& w) {
    Word m{kLeftMarker};
    m.insert(m.end(), w.begin(), w.end());
    m.push_back(kRightMarker);
    return m;
}
}  // namespace

}  // namespace subregular

std::vector<std::pair<Word, std::size_t>> ltt_type(const Word& w, unsigned k, unsigned t) {
    const Word m = subregular::marked(w);
    std::map<Word, std::size_t> c;
    if (m.size() < k) c[m] = 1;
    for (std::size_t i = 0; i + k <= m.size(); ++i) {
        auto& x = c[Word(m.begin() + long(i), m.begin() + long(i + k))];
        x = std::min<std::size_t>(x + 1, t);
    }
    return std::vector<std::pair<Word, std::size_t>>(c.begin(), c.end());
}

namespace subregular {

}  // namespace subregular

std::vector<Word> lt_type(const Word& w, unsigned k) {
    std::vector<Word> out;
    for (auto& [f, c] : ltt_type(w, k, 1)) out.push_back(f);
    return out;
}

namespace subregular {

TypeSearch type_search(const Dfa& d, TypeKind kind, unsigned k, unsigned t, std::size_t max_states) {
    // The type of a word as a byte string, updated letter by letter:
    // PT: a bitset over the words of length <= k (index of x·a = offset(|x|+1) + index(x)·|Σ| + a).
    // LT/LTT: the last k-1 symbols of ⋊w, then counts (capped at t; t = 1 for LT) of the k-factors
    // of ⋊w indexed by their first symbol (⋊ or a letter) and the rest in base |Σ|.
    const std::size_t ns = std::max<std::size_t>(d.num_symbols(), 1);
    std::vector<std::size_t> offset{0};
    std::size_t p = 1;
    for (unsigned len = 0; len <= k; ++len) offset.push_back(offset.back() + p), p *= ns;
    std::size_t pow = 1;
    for (unsigned i = 0; i + 1 < k; ++i) pow *= ns;
    const std::size_t factors = (ns + 1) * pow;
    const unsigned cap = kind == TypeKind::LTT ? t : 1;
    using Type = std::string;
    auto start = [&]() -> Type {
        if (kind == TypeKind::PT) {
            Type s((offset[k + 1] + 7) / 8, '\0');
            s[0] = 1;  // ε
            return s;
        }
        Type s;  // header: buffer length, then the buffer (symbol + 1, 0 = ⋊), then counts
        s.push_back(char(1)), s.push_back(char(0));
        s.resize(1 + std::size_t(k) + factors, '\0');
        return s;
    };
    auto step = [&](const Type& s, Symbol a) -> Type {
        Type r = s;
        if (kind == TypeKind::PT) {
            for (unsigned len = k; len-- > 0;)  // longer first, so one letter extends once
                for (std::size_t i = 0; i < offset[len + 1] - offset[len]; ++i) {
                    const std::size_t x = offset[len] + i;
                    if (s[x / 8] >> (x % 8) & 1) {
                        const std::size_t y = offset[len + 1] + i * ns + a;
                        r[y / 8] = char(r[y / 8] | (1 << (y % 8)));
                    }
                }
            return r;
        }
        const std::size_t blen = std::size_t(std::uint8_t(s[0]));
        std::vector<std::size_t> buf;  // symbols, ⋊ = ns
        for (std::size_t i = 0; i < blen; ++i) buf.push_back(std::uint8_t(s[1 + i]) == 0 ? ns : std::uint8_t(s[1 + i]) - 1u);
        buf.push_back(a);
        if (buf.size() == k) {
            std::size_t mul = 1, rest = 0;
            for (std::size_t i = k; i-- > 1;) rest += buf[i] * mul, mul *= ns;
            const std::size_t f = buf[0] * pow + rest;  // buf[0] = ns is ⋊
            auto& c = r[1 + k + f];
            if (std::uint8_t(c) < cap) c = char(std::uint8_t(c) + 1);
            buf.erase(buf.begin());
        }
        r[0] = char(buf.size());
        for (std::size_t i = 0; i < k; ++i) r[1 + i] = i < buf.size() ? char(buf[i] == ns ? 0 : buf[i] + 1) : '\0';
        return r;
    };
    // For LT/LTT, k = 1: the buffer stays empty and ⋊ itself is the only ⋊-factor (always there).
    struct Node {
        State q;
        std::uint32_t parent;
        Symbol a;
    };
    std::vector<Node> nodes;
    std::vector<Type> types;
    std::unordered_map<Type, std::pair<bool, std::uint32_t>> first;  // type -> (accepting, node)
    std::unordered_set<std::string> seen;
    auto word_of = [&](std::uint32_t i) {
        Word w;
        for (; nodes[i].parent != UINT32_MAX; i = nodes[i].parent) w.push_back(nodes[i].a);
        std::reverse(w.begin(), w.end());
        return w;
    };
    TypeSearch out;
    auto visit = [&](State q, Type ty, std::uint32_t parent, Symbol a) -> bool {
        std::string key(reinterpret_cast<const char*>(&q), sizeof q);
        key += ty;
        if (!seen.insert(key).second) return true;
        nodes.push_back({q, parent, a});
        types.push_back(ty);
        const std::uint32_t me = std::uint32_t(nodes.size() - 1);
        // For LT/LTT the end factor (buffer·⋉) is a function of the buffer, part of the type.
        auto [it, fresh] = first.emplace(ty, std::make_pair(d.is_accepting(q), me));
        if (!fresh && it->second.first != d.is_accepting(q)) {
            out.conflict = std::make_pair(word_of(it->second.second), word_of(me));
            if (!it->second.first) std::swap(out.conflict->first, out.conflict->second);  // accepted first
            return false;
        }
        return true;
    };
    Type s0 = start();
    if (kind != TypeKind::PT && k == 1) s0[0] = 0;  // no buffer; the ⋊ factor is in every type
    if (!visit(d.initial, s0, UINT32_MAX, 0)) return out.consistent = false, out;
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        if (nodes.size() > max_states) return out;  // consistent stays nullopt
        for (Symbol a = 0; a < d.num_symbols(); ++a)
            if (!visit(d.next(nodes[i].q, a), step(types[i], a), std::uint32_t(i), a)) return out.consistent = false, out;
    }
    out.consistent = true;
    return out;
}

Json pair_json(const Dfa& d, const std::pair<Word, Word>& p) {
    return Json{{"accepted", word_json(d, p.first)}, {"rejected", word_json(d, p.second)}};
}

std::optional<std::size_t> known_k(const SubregularDecision* sub) {
    if (!sub || sub->member != true) return std::nullopt;
    for (const char* key : {"k", "k_at_most"})
        if (sub->params.contains(key)) return sub->params[key].get<std::size_t>();
    return std::nullopt;
}

Json sub_certificate(const SubregularDecision& sub) { return sub.certificate; }

Json limits_json(const SubregularOptions& o) {
    return Json{{"max_k", o.max_k}, {"max_t", o.max_t}, {"max_type_states", o.max_type_states}, {"max_elements", o.max_elements},
                {"max_listed", o.max_listed}, {"max_pair_states", o.max_pair_states}};
}

Result<SubregularOptions> limits_from_json(const nlohmann::json& j) {
    // Capped, so that a certificate cannot make its checker search without end.
    SubregularOptions o;
    if (!j.is_object()) return make_error("\"limits\" is an object of the search limits");
    auto get = [&](const char* key, std::size_t cap, auto& out) -> Result<bool> {
        if (!j.contains(key) || !j[key].is_number_unsigned() || j[key].get<std::size_t>() < 1 || j[key].get<std::size_t>() > cap)
            return make_error(std::string("\"limits\".") + key + " must be an integer from 1 to " + std::to_string(cap));
        out = static_cast<std::remove_reference_t<decltype(out)>>(j[key].get<std::size_t>());
        return true;
    };
    using C = SubregularLimitCaps;
    for (auto r : {get("max_k", C::max_k, o.max_k), get("max_t", C::max_t, o.max_t), get("max_type_states", C::max_type_states, o.max_type_states),
                   get("max_elements", C::max_elements, o.max_elements), get("max_listed", C::max_listed, o.max_listed),
                   get("max_pair_states", C::max_pair_states, o.max_pair_states)})
        if (!r) return r.error();
    return o;
}

SubregularDecision decide_pt_lt(const Dfa& d, TypeKind kind, const SubregularOptions& o, const SubregularDecision* sub) {
    const ClassId cls = kind == TypeKind::PT ? ClassKind::PT : ClassKind::LT;
    const ClassId base_cls = kind == TypeKind::PT ? ClassKind::PiecewiseTestable : ClassKind::LocallyTestable;
    const std::string id = to_string(cls), base = to_string(base_cls);
    const std::string lt = kind == TypeKind::PT ? "piecewise" : "locally";
    // The subclass (SP-k ⊆ PT-k, SL-k ⊆ LT-k; docs/SUBREGULAR.md §1) bounds the least k from above.
    const std::optional<std::size_t> upper = known_k(sub);
    DfaAnalysis A(d);
    const ClassDecision cd = find_class(base_cls)->by_dfa(A);
    if (!cd.member)
        return decision(cls, false, Json::object(), "not " + base + ": " + cd.certificate.fact,
                        Json{{"by_class", nlohmann::ordered_json::parse(certificate_to_json(cd.certificate, d))}});
    std::optional<std::pair<Word, Word>> below;  // a conflict at `refuted`: the least k is larger
    unsigned refuted = 0;
    std::string stop;
    for (unsigned k = 1; k <= o.max_k; ++k) {
        if (upper && k == *upper) break;
        TypeSearch s = type_search(d, kind, k, 1, o.max_type_states);
        if (s.consistent == true) {
            Json fields{{"k", k}};
            if (below) fields["below"] = pair_json(d, *below);
            return decision(cls, true, Json{{"k", k}},
                            lt + " " + std::to_string(k) + "-testable: membership is a function of the " + std::to_string(k) + "-type" +
                                (below ? "; two words of one " + std::to_string(k - 1) + "-type differ" : std::string()),
                            fields);
        }
        if (!s.conflict) {
            stop = "the " + std::to_string(k) + "-type search is over its limit of " + std::to_string(o.max_type_states) +
                   " product states (--type-max-states)";
            break;
        }
        below = s.conflict, refuted = k;
    }
    Json fields = Json::object();
    if (below) fields["below"] = pair_json(d, *below);
    if (upper && refuted + 1 == *upper) {
        // Every smaller k refuted and k = upper holds by the subclass: the least k is upper.
        fields["by"] = sub_certificate(*sub);
        return decision(cls, true, Json{{"k", *upper}},
                        lt + " " + std::to_string(*upper) + "-testable, since " + to_string(sub->id) + "-" + std::to_string(*upper) + " ⊆ " + id +
                            "-" + std::to_string(*upper) +
                            (below ? "; two words of one " + std::to_string(*upper - 1) + "-type differ" : std::string()),
                        fields);
    }
    Json params = Json::object();
    fields["limits"] = limits_json(o);
    if (refuted) params["k_above"] = refuted;
    if (upper) params["k_at_most"] = *upper, fields["by"] = sub_certificate(*sub);
    else fields["by_class"] = nlohmann::ordered_json::parse(certificate_to_json(cd.certificate, d));
    if (stop.empty()) stop = "not " + id + "-k for any k <= " + std::to_string(o.max_k) + " (--subregular-max-k)";
    std::string bound = "the least k is ";
    if (refuted && upper) bound += "in " + std::to_string(refuted + 1) + ".." + std::to_string(*upper);
    else if (refuted) bound += "above " + std::to_string(refuted);
    else if (upper) bound += "at most " + std::to_string(*upper);
    else bound = "the least k is not known";
    return decision(cls, true, params,
                    (upper ? to_string(sub->id) + "-" + std::to_string(*upper) + " ⊆ " + id + "-" + std::to_string(*upper)
                           : base + " (" + (kind == TypeKind::PT ? "Simon: J-trivial" : "Brzozowski–Simon") + ")") +
                        "; " + stop + ", so " + bound,
                    fields);
}

}  // namespace subregular
}  // namespace ltlkit::automata::algebra
