// Finite, cofinite, strictly local (SL-k) and tier-based strictly local (TSL) languages on the
// minimal DFA (docs/SUBREGULAR.md §2.1–2.3).
//
// SL-k by suffix substitution closure (Rogers & Pullum 2011): L is SL-k iff u1·x·v1 ∈ L and
// u2·x·v2 ∈ L imply u1·x·v2 ∈ L for every x of length k-1. On the minimal DFA: the live states
// (from which an accepting state is reachable) that words ending in x lead to are all one state.
// So on the graph of unordered pairs {p ≠ q} of live states with edges {p,q} -a-> {p·a, q·a}
// (kept when both are live and distinct), L is SL iff the graph is acyclic, and then the least k is
// the longest path (in edges) plus 2, or 1 when there are fewer than two live states.
#include <algorithm>
#include <deque>
#include <map>
#include <set>

#include "automata/algebra/class_support.hh"
#include "automata/algebra/classes.hh"
#include "automata/algebra/subregular_internal.hh"
#include "automata/algorithms.hh"

namespace ltlkit::automata::algebra {
namespace subregular {

std::vector<std::uint8_t> live_states(const Dfa& d) {
    const std::size_t n = d.num_states(), k = d.num_symbols();
    std::vector<std::vector<State>> pred(n);
    for (State q = 0; q < n; ++q)
        for (std::size_t a = 0; a < k; ++a) pred[d.next(q, Symbol(a))].push_back(q);
    std::vector<std::uint8_t> live(n, 0);
    std::vector<State> todo;
    for (State q = 0; q < n; ++q)
        if (d.is_accepting(q)) live[q] = 1, todo.push_back(q);
    while (!todo.empty()) {
        const State q = todo.back();
        todo.pop_back();
        for (State p : pred[q])
            if (!live[p]) live[p] = 1, todo.push_back(p);
    }
    return live;
}

namespace {

inline std::size_t tri(std::size_t i, std::size_t j) { return j * (j - 1) / 2 + i; }  // i < j

// A word with q·v accepting (q live).
Word to_accepting(DfaAnalysis& A, State q) {
    const Dfa& d = A.dfa();
    std::optional<Word> best;
    for (State f = 0; f < d.num_states(); ++f)
        if (d.is_accepting(f))
            if (auto w = A.path(q, f); w && (!best || w->size() < best->size())) best = w;
    return *best;
}

// The triple u1·x·v1 ∈ L, u2·x·v2 ∈ L, u1·x·v2 ∉ L for live p = q0·u1·x ≠ q = q0·u2·x.
Json triple(DfaAnalysis& A, const Word& u1, const Word& u2, const Word& x, State p, State q) {
    const Dfa& d = A.dfa();
    Word s = A.separator(p, q);
    Word a1 = u1, a2 = u2;
    if (d.is_accepting(d.run(p, s))) std::swap(a1, a2), std::swap(p, q);  // now q·s accepting, p·s not
    Json t;
    t["u1"] = word_json(d, a1);
    t["u2"] = word_json(d, a2);
    t["x"] = word_json(d, x);
    t["v1"] = word_json(d, to_accepting(A, p));
    t["v2"] = word_json(d, s);
    return t;
}

}  // namespace

SlAnalysis analyze_sl(const Dfa& d, const SubregularOptions& o) {
    SlAnalysis r;
    const auto live = live_states(d);
    std::vector<State> L;  // live states, ascending
    std::vector<std::uint32_t> idx(d.num_states(), UINT32_MAX);
    for (State q = 0; q < d.num_states(); ++q)
        if (live[q]) idx[q] = std::uint32_t(L.size()), L.push_back(q);
    const std::size_t m = L.size(), ns = d.num_symbols();
    if (m > o.max_pair_states) return r;  // decided stays nullopt
    r.decided = true;
    DfaAnalysis A(d);
    if (m < 2) r.k = 1;
    else {
        // depth: 0 unvisited, 1 on the DFS stack, 2 + (longest path in edges) when done.
        std::vector<std::uint32_t> depth(m * (m - 1) / 2, 0);
        auto succ = [&](std::size_t node_i, std::size_t node_j, std::size_t a, std::size_t& si, std::size_t& sj) {
            const State p = d.next(L[node_i], Symbol(a)), q = d.next(L[node_j], Symbol(a));
            if (p == q || !live[p] || !live[q]) return false;
            si = std::min(idx[p], idx[q]), sj = std::max(idx[p], idx[q]);
            return true;
        };
        struct Frame {
            std::uint32_t i, j, a;
        };
        std::vector<Frame> stack;
        std::uint32_t best = 0;
        std::size_t best_i = 0, best_j = 1;
        for (std::size_t j0 = 1; j0 < m && !r.cyclic; ++j0)
            for (std::size_t i0 = 0; i0 < j0 && !r.cyclic; ++i0) {
                if (depth[tri(i0, j0)]) continue;
                depth[tri(i0, j0)] = 1;
                stack.push_back({std::uint32_t(i0), std::uint32_t(j0), 0});
                while (!stack.empty() && !r.cyclic) {
                    Frame& f = stack.back();
                    if (f.a == ns) {
                        std::uint32_t dep = 0;
                        for (std::size_t a = 0; a < ns; ++a) {
                            std::size_t si, sj;
                            if (succ(f.i, f.j, a, si, sj)) dep = std::max(dep, depth[tri(si, sj)] - 1);
                        }
                        depth[tri(f.i, f.j)] = dep + 2;
                        if (dep > best) best = dep, best_i = f.i, best_j = f.j;
                        stack.pop_back();
                        continue;
                    }
                    std::size_t si, sj;
                    const std::size_t a = f.a++;
                    if (!succ(f.i, f.j, a, si, sj)) continue;
                    if (depth[tri(si, sj)] == 1) {
                        // A cycle through {L[si], L[sj]}: the letters from its frame to the top, then a.
                        Word w;
                        std::size_t from = stack.size();
                        while (from > 0 && !(stack[from - 1].i == si && stack[from - 1].j == sj)) --from;
                        for (std::size_t s = from - 1; s < stack.size(); ++s) w.push_back(Symbol(stack[s].a - 1));
                        const State p = L[si], q = L[sj];
                        if (d.run(p, w) != p) {  // {p,q}·w swapped them: w·w loops both
                            const Word once = w;
                            w.insert(w.end(), once.begin(), once.end());
                        }
                        Json t = triple(A, A.access(p), A.access(q), w, p, q);
                        t["loop"] = true;
                        r.cyclic = true;
                        r.no_below = t;
                        break;
                    }
                    if (depth[tri(si, sj)] == 0) {
                        depth[tri(si, sj)] = 1;
                        stack.push_back({std::uint32_t(si), std::uint32_t(sj), 0});
                    }
                }
            }
        if (!r.cyclic) {
            r.k = best + 2;
            // A path of best edges from {L[best_i], L[best_j]}: follow successors one shallower.
            Word x;
            std::size_t i = best_i, j = best_j;
            for (std::uint32_t dep = best; dep > 0; --dep)
                for (std::size_t a = 0; a < ns; ++a) {
                    std::size_t si, sj;
                    if (succ(i, j, a, si, sj) && depth[tri(si, sj)] == dep + 1) {
                        x.push_back(Symbol(a)), i = si, j = sj;
                        break;
                    }
                }
            const State p0 = L[best_i], q0 = L[best_j];
            r.no_below = triple(A, A.access(p0), A.access(q0), x, d.run(p0, x), d.run(q0, x));
        }
    }
    if (r.cyclic) return r;
    // The forbidden factors, when (|Σ|+2)^k stays listable.
    double all = 1;
    for (std::size_t i = 0; i < r.k; ++i) all *= double(ns + 2);
    if (all <= double(o.max_listed) * 50) {
        auto allowed = sl_allowed_factors(d, unsigned(r.k), o.max_type_states);
        if (allowed) {
            std::set<Word> ok(allowed->begin(), allowed->end());
            std::vector<Word> forbidden;
            for (const Word& f : sl_all_factors(ns, unsigned(r.k)))
                if (!ok.count(f)) forbidden.push_back(f);
            r.forbidden_count = forbidden.size();
            if (forbidden.size() <= o.max_listed) r.forbidden = std::move(forbidden);
        }
    }
    return r;
}

std::optional<std::vector<Word>> sl_allowed_factors(const Dfa& d, unsigned k, std::size_t max_buffers) {
    const auto live = live_states(d);
    std::set<Word> allowed;
    std::set<std::pair<State, Word>> seen;
    std::deque<std::pair<State, Word>> todo;
    auto feed = [&](const Word& buf, Symbol s) {
        Word nb = buf;
        nb.push_back(s);
        if (nb.size() == k) allowed.insert(nb);
        if (nb.size() > k - 1) nb.erase(nb.begin());
        return nb;
    };
    if (!live[d.initial]) return std::vector<Word>{};
    // The ⋊ factor is recorded when the start is live (the empty language has no factor at all).
    std::pair<State, Word> start{d.initial, feed({}, kLeftMarker)};
    seen.insert(start), todo.push_back(start);
    while (!todo.empty()) {
        auto [q, buf] = todo.front();
        todo.pop_front();
        if (d.is_accepting(q)) {
            Word nb = buf;
            nb.push_back(kRightMarker);
            if (nb.size() <= k) allowed.insert(nb);  // a k-factor, or the whole ⋊w⋉ when shorter
        }
        for (std::size_t a = 0; a < d.num_symbols(); ++a) {
            const State p = d.next(q, Symbol(a));
            if (!live[p]) continue;
            std::pair<State, Word> nx{p, feed(buf, Symbol(a))};
            if (seen.insert(nx).second) {
                if (seen.size() > max_buffers) return std::nullopt;
                todo.push_back(std::move(nx));
            }
        }
    }
    return std::vector<Word>(allowed.begin(), allowed.end());
}

std::vector<Word> sl_all_factors(std::size_t ns, unsigned k) {
    std::vector<Word> out;
    // Strings of length len over Σ ∪ {⋊, ⋉}, ⋊ only first and ⋉ only last; shorter than k only
    // when both markers are there (a whole marked word).
    for (unsigned len = 1; len <= k; ++len)
        for (int left = 0; left < 2; ++left)
            for (int right = 0; right < 2; ++right) {
                if (len < k && !(left && right)) continue;
                const int inner = int(len) - left - right;
                if (inner < 0 || (len == 1 && left && right)) continue;
                std::size_t count = 1;
                for (int i = 0; i < inner; ++i) count *= ns;
                for (std::size_t c = 0; c < count; ++c) {
                    Word w;
                    if (left) w.push_back(kLeftMarker);
                    std::size_t x = c;
                    Word mid(std::size_t(inner), 0);
                    for (int i = inner - 1; i >= 0; --i) mid[std::size_t(i)] = Symbol(x % ns), x /= ns;
                    w.insert(w.end(), mid.begin(), mid.end());
                    if (right) w.push_back(kRightMarker);
                    out.push_back(std::move(w));
                }
            }
    return out;
}

}  // namespace subregular

Dfa sl_dfa_from_forbidden(const std::vector<std::string>& alphabet, unsigned k, const std::vector<Word>& forbidden) {
    const std::set<Word> F(forbidden.begin(), forbidden.end());
    const std::size_t ns = alphabet.size();
    std::map<Word, State> id;
    std::vector<Word> bufs;
    Dfa r;
    r.alphabet = alphabet;
    const State dead = 0;  // state 0: a forbidden factor was seen
    bufs.push_back({});
    auto state_of = [&](const std::optional<Word>& b) -> State {
        if (!b) return dead;
        auto [it, fresh] = id.emplace(*b, State(bufs.size()));
        if (fresh) bufs.push_back(*b);
        return it->second;
    };
    auto feed = [&](const Word& buf, Symbol s) -> std::optional<Word> {
        Word nb = buf;
        nb.push_back(s);
        if (nb.size() == k) {
            if (F.count(nb)) return std::nullopt;
            nb.erase(nb.begin());
        }
        return nb;
    };
    r.initial = state_of(feed({}, kLeftMarker));
    for (std::size_t s = 0; s < bufs.size(); ++s)  // bufs grows while we go
        for (std::size_t a = 0; a < ns; ++a) {
            const State to = s == dead ? dead : state_of(feed(bufs[s], Symbol(a)));
            r.delta.resize(std::max(r.delta.size(), (s + 1) * ns));
            r.delta[s * ns + a] = to;
        }
    r.accepting.assign(bufs.size(), 0);
    for (std::size_t s = 1; s < bufs.size(); ++s) {
        Word nb = bufs[s];
        nb.push_back(kRightMarker);
        r.accepting[s] = !F.count(nb);
    }
    r.delta.resize(bufs.size() * ns);
    return minimize(r);
}

Dfa lift_tier_dfa(const Dfa& over_tier, const std::vector<std::string>& alphabet) {
    Dfa r;
    r.alphabet = alphabet;
    r.initial = over_tier.initial;
    r.accepting = over_tier.accepting;
    r.delta.resize(over_tier.num_states() * alphabet.size());
    for (State q = 0; q < over_tier.num_states(); ++q)
        for (std::size_t a = 0; a < alphabet.size(); ++a) {
            auto it = std::find(over_tier.alphabet.begin(), over_tier.alphabet.end(), alphabet[a]);
            r.delta[q * alphabet.size() + a] = it == over_tier.alphabet.end() ? q : over_tier.next(q, Symbol(it - over_tier.alphabet.begin()));
        }
    return minimize(r);
}

namespace subregular {

Result<bool> check_sl_triple(const Dfa& d, const nlohmann::json& t, std::optional<std::size_t> k, std::string* why) {
    if (!t.is_object()) return make_error("a suffix-substitution triple is an object {u1, u2, x, v1, v2}");
    std::map<std::string, Word> w;
    for (const char* key : {"u1", "u2", "x", "v1", "v2"}) {
        if (!t.contains(key)) return make_error(std::string("the triple needs \"") + key + "\"");
        auto r = word_from_json(t[key], d.alphabet);
        if (!r) return r.error();
        w[key] = *r;
    }
    const bool loop = t.contains("loop") && t["loop"] == true;
    auto say = [&](const std::string& s, bool v) {
        if (why) *why = s;
        return v;
    };
    if (loop) {
        if (w["x"].empty()) return say("the loop word x is empty", false);
        const State p = d.run(d.initial, w["u1"]), q = d.run(d.initial, w["u2"]);
        if (d.run(p, w["x"]) != p || d.run(q, w["x"]) != q) return say("x does not loop at both u1 and u2", false);
    } else if (k && w["x"].size() + 1 != *k) {
        return say("|x| = " + std::to_string(w["x"].size()) + " is not k-1 = " + std::to_string(*k - 1), false);
    }
    using detail::cat;
    if (!d.accepts(cat({&w["u1"], &w["x"], &w["v1"]}))) return say("u1·x·v1 is not in the language", false);
    if (!d.accepts(cat({&w["u2"], &w["x"], &w["v2"]}))) return say("u2·x·v2 is not in the language", false);
    if (d.accepts(cat({&w["u1"], &w["x"], &w["v2"]}))) return say("u1·x·v2 is in the language", false);
    return say(loop ? "u1·xʳ·v1, u2·xʳ·v2 ∈ L and u1·xʳ·v2 ∉ L for every r (x loops): not closed under suffix substitution for any k"
                    : "u1·x·v1, u2·x·v2 ∈ L and u1·x·v2 ∉ L with |x| = k-1: not closed under suffix substitution",
               true);
}

SubregularDecision decide_sl(const Dfa& d, const SubregularOptions& o) {
    SlAnalysis a = analyze_sl(d, o);
    if (!a.decided)
        return decision(ClassKind::SL, std::nullopt, Json::object(),
                        "more than " + std::to_string(o.max_pair_states) +
                            " live states: the pair graph was not built (raise the limit with --sl-max-states)");
    if (a.cyclic)
        return decision(ClassKind::SL, false, Json::object(),
                        "two distinct live states share a loop word: not closed under suffix substitution for any k",
                        Json{{"every_k", a.no_below}});
    Json fields;
    fields["k"] = a.k;
    if (a.forbidden) {
        Json f = Json::array();
        for (const Word& w : *a.forbidden) f.push_back(marked_json(d.alphabet, w));
        fields["forbidden"] = f;
    } else {
        fields["forbidden_omitted"] = "over the listing limit (" + std::to_string(a.forbidden_count) + " factors or more buffers)";
    }
    if (a.k >= 2) fields["below"] = a.no_below;
    return decision(ClassKind::SL, true, Json{{"k", a.k}},
                    "strictly " + std::to_string(a.k) + "-local" +
                        (a.forbidden ? " (" + std::to_string(a.forbidden->size()) + " forbidden " + std::to_string(a.k) + "-factors)" : std::string()) +
                        (a.k >= 2 ? "; not SL-" + std::to_string(a.k - 1) + " by a suffix-substitution triple" : std::string()),
                    fields);
}

SubregularDecision decide_tsl(const Dfa& d, const SubregularOptions& o) {
    // The tier: the letters that are not free (some state moves). Every tier contains them, and
    // SL-k on a larger tier implies SL-k on this one, so it gives the least k.
    std::vector<Symbol> tier;
    Json tier_names = Json::array();
    for (Symbol a = 0; a < d.num_symbols(); ++a)
        for (State q = 0; q < d.num_states(); ++q)
            if (d.next(q, a) != q) {
                tier.push_back(a), tier_names.push_back(d.alphabet[a]);
                break;
            }
    const Dfa t = restrict_letters(d, tier);
    SlAnalysis a = analyze_sl(t, o);
    if (!a.decided) return decision(ClassKind::TSL, std::nullopt, Json::object(), "more than " + std::to_string(o.max_pair_states) +
                            " live states on the tier projection: the pair graph was not built (raise the limit with --sl-max-states)");
    if (a.cyclic)
        return decision(ClassKind::TSL, false, Json::object(),
                        "the projection to the tier of non-free letters {" + std::to_string(tier.size()) +
                            " letters} is not SL for any k (every tier contains these letters)",
                        Json{{"tier", tier_names}, {"every_k", a.no_below}});
    Json fields{{"tier", tier_names}, {"k", a.k}};
    if (a.forbidden) {
        Json f = Json::array();
        for (const Word& w : *a.forbidden) f.push_back(marked_json(t.alphabet, w));
        fields["forbidden"] = f;
    } else {
        fields["forbidden_omitted"] = "over the listing limit";
    }
    if (a.k >= 2) fields["below"] = a.no_below;
    return decision(ClassKind::TSL, true, Json{{"tier", tier_names}, {"k", a.k}},
                    "tier-based strictly " + std::to_string(a.k) + "-local on a tier of " + std::to_string(tier.size()) +
                        " letters (the others are free: inserting or deleting them never changes membership)",
                    fields);
}

SubregularDecision decide_finite(const Dfa& d0, bool cofinite, const SubregularOptions& o) {
    const Dfa d = cofinite ? complement(d0) : d0;
    const ClassId id = cofinite ? ClassKind::Cofinite : ClassKind::Finite;
    const auto live = live_states(d);
    DfaAnalysis A(d);
    for (State q = 0; q < d.num_states(); ++q)
        if (live[q] && A.on_cycle(q)) {
            // q·w = q for a non-empty w: u·wʳ·v is accepted (rejected for cofinite) for every r.
            Word w;
            for (Symbol a = 0; a < d.num_symbols() && w.empty(); ++a)
                if (auto back = A.path(d.next(q, a), q)) w = Word{a}, w.insert(w.end(), back->begin(), back->end());
            return decision(id, false, Json::object(),
                            std::string("a live state lies on a cycle: u·wʳ·v is ") + (cofinite ? "rejected" : "accepted") +
                                " for every r",
                            Json{{"pump", {{"u", word_json(d, A.access(q))}, {"w", word_json(d, w)}, {"v", word_json(d, to_accepting(A, q))}}}});
        }
    // No live state on a cycle: list the words (the live part is a DAG).
    std::vector<Word> words;
    std::size_t longest = 0;
    std::vector<std::pair<State, Word>> stack;
    if (live[d.initial]) stack.push_back({d.initial, {}});
    bool capped = false;
    while (!stack.empty()) {
        auto [q, w] = stack.back();
        stack.pop_back();
        if (d.is_accepting(q)) {
            if (words.size() >= o.max_listed) {
                capped = true;
                break;
            }
            words.push_back(w), longest = std::max(longest, w.size());
        }
        for (Symbol a = 0; a < d.num_symbols(); ++a)
            if (live[d.next(q, a)]) {
                Word x = w;
                x.push_back(a);
                stack.push_back({d.next(q, a), std::move(x)});
            }
    }
    Json fields = Json::object();
    if (!capped) {
        Json list = Json::array();
        std::sort(words.begin(), words.end(), [](const Word& a, const Word& b) { return a.size() != b.size() ? a.size() < b.size() : a < b; });
        for (const Word& w : words) list.push_back(word_json(d, w));
        fields[cofinite ? "rejected" : "accepted"] = list;
    }
    Json params = capped ? Json::object() : Json{{"words", words.size()}};
    return decision(id, true, params,
                    std::string("no live state lies on a cycle") +
                        (capped ? "" : ": " + std::to_string(words.size()) + (cofinite ? " rejected" : " accepted") + " words"),
                    fields);
}

}  // namespace subregular
}  // namespace ltlkit::automata::algebra
