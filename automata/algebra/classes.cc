// The class deciders and their certificates (docs/CLASSES.md §1–3): one DFA route and one
// semigroup route per class, the certificate completion, and the class table with its inclusions.
// The analyses they share are in class_analysis.cc, the member formulas in member_formulas.cc.
#include "automata/algebra/classes.hh"

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <numeric>
#include <sstream>
#include <tuple>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "automata/algebra/scc.hh"
#include "ltl/formula.hh"
#include "ltl/printer.hh"
#include "ltl/builder.hh"

#include "automata/algebra/class_support.hh"

namespace ltlkit::automata::algebra {

namespace {

using detail::base;
using detail::cat;
using detail::fw;
using detail::no;
using detail::violation;
using detail::yes;

// The non-definite family from a C-node (p ≠ q, w loops both): x_p·w^r·y vs x_q·w^r·y.
WordFamily definite_family(DfaAnalysis& A, State p, State q, const Word& w) {
    WordFamily f;
    f.x = A.access(p);
    f.x2 = A.access(q);
    f.p = w;
    f.y = f.z = A.separator(p, q);
    f.r_min = 1;
    return f;
}

// --- definite

ClassDecision definite_by_dfa(DfaAnalysis& A) {
    auto cn = A.c_nodes([](State, State) { return true; }, true);
    const Dfa& d = A.dfa();
    if (!cn.empty()) {
        auto [p, q] = cn[0];
        Word w = A.loop_word(p, q);
        WordFamily f = definite_family(A, p, q, w);
        Certificate c = base(ClassKind::Definite, false, CertificateKind::SuffixFamily,
                             "states " + std::to_string(p) + " and " + std::to_string(q) + " share the loop " + fw(d, w) +
                                 ", so x·p^r·y and x2·p^r·y (x, x2 reach them, y separates them) end in the same " +
                                 "r·|p|+|y| symbols yet differ in membership for every r: no definite language (of any " +
                                 "degree d, hence no LTL[Y] formula) separates them for r·|p|+|y| ≥ d");
        c.family = f;
        return no(c);
    }
    auto lp = A.pair_graph_longest_path();
    const std::size_t degree = A.n() <= 1 ? 0 : 1 + *lp;
    Certificate c = base(ClassKind::Definite, true, CertificateKind::PairGraphAcyclic,
                         "the graph on pairs of distinct states is acyclic (longest path " + std::to_string(lp.value_or(0)) +
                             " edges): membership of words of length ≥ " + std::to_string(degree) +
                             " depends only on their last " + std::to_string(degree) + " symbols");
    c.fields = DegreeFields{degree};
    return yes(c);
}

ClassDecision definite_by_semigroup(const SemigroupAnalysis& S) {
    for (Element e : S.idempotents)
        for (std::size_t a = 0; a < S.s.num_generators(); ++a)
            if (S.s.left(e, Symbol(a)) != e)
                return no(violation(ClassKind::Definite, Identity::XE, "x·e ≠ e for the idempotent e (identity x·y^ω = y^ω fails)",
                                    {{"e", S.s.word(e)}, {"x", Word{Symbol(a)}}}));
    return yes(base(ClassKind::Definite, true, CertificateKind::SemigroupIdentity, "x·e = e for every idempotent e of the syntactic semigroup"));
}

// --- r_trivial

ClassDecision r_trivial_by_dfa(DfaAnalysis& A) {
    const Dfa& d = A.dfa();
    // The least state s of a non-trivial SCC and the least other state t of its SCC.
    std::unordered_map<std::size_t, std::size_t> scc_size;
    for (State q = 0; q < A.n(); ++q) ++scc_size[A.scc(q)];
    State s = 0;
    while (s < A.n() && scc_size[A.scc(s)] < 2) ++s;
    for (State t = 0; s < A.n() && t < A.n(); ++t)
        if (t != s && A.scc(t) == A.scc(s)) {
                Word u = *A.path(s, t), v = *A.path(t, s);
                WordFamily f;
                f.x = A.access(s);
                f.p = cat({&u, &v});
                f.y = A.separator(s, t);
                f.z = cat({&u, &f.y});
                Certificate c = base(ClassKind::RTrivial, false, CertificateKind::RFamily,
                                     "states " + std::to_string(s) + " and " + std::to_string(t) +
                                         " lie in one SCC (u = " + fw(d, u) + ", v = " + fw(d, v) +
                                         "): x(uv)^r y and x(uv)^r u y differ in membership for every r, while " +
                                         "(uv)^ω u = (uv)^ω in every R-trivial monoid, so no LTL[P] formula separates them for large r");
                c.family = f;
                return no(c);
            }
    return yes(base(ClassKind::RTrivial, true, CertificateKind::PartiallyOrdered, "every SCC of the minimal DFA is a single state (partially ordered)"));
}

// R-class witness s R s·a (s·a·b = s, s·a ≠ s) from the right Cayley graph.
std::optional<Certificate> r_class_violation(const SemigroupAnalysis& S, ClassKind id, bool left) {
    const auto& cls = left ? S.green.l : S.green.r;
    const std::size_t k = S.s.num_generators();
    for (Element x = 0; x < S.s.size(); ++x)
        for (std::size_t a = 0; a < k; ++a) {
            Element y = left ? S.s.left(x, Symbol(a)) : S.s.right(x, Symbol(a));
            if (y == x || cls[y] != cls[x]) continue;
            // BFS from y back to x inside the class.
            std::unordered_map<Element, std::pair<Element, Symbol>> parent{{y, {y, 0}}};
            std::deque<Element> queue{y};
            while (!queue.empty()) {
                Element z = queue.front();
                queue.pop_front();
                if (z == x) break;
                for (std::size_t b = 0; b < k; ++b) {
                    Element t = left ? S.s.left(z, Symbol(b)) : S.s.right(z, Symbol(b));
                    if (cls[t] != cls[x] || parent.count(t)) continue;
                    parent[t] = {z, Symbol(b)};
                    queue.push_back(t);
                }
            }
            Word back;  // letters in the order they were applied
            for (Element z = x; z != y; z = parent[z].first) back.push_back(parent[z].second);
            std::reverse(back.begin(), back.end());
            if (left) std::reverse(back.begin(), back.end());  // left multiplications compose reversed
            if (!left)
                return violation(id, Identity::RClass,
                                 "s ≠ s·a but s·a·b = s: s and s·a are distinct R-equivalent elements",
                                 {{"s", S.s.word(x)}, {"a", Word{Symbol(a)}}, {"b", back}});
            return violation(id, Identity::LClass, "s ≠ a·s but b·a·s = s: s and a·s are distinct L-equivalent elements",
                             {{"s", S.s.word(x)}, {"a", Word{Symbol(a)}}, {"b", back}});
        }
    return std::nullopt;
}

ClassDecision r_trivial_by_semigroup(const SemigroupAnalysis& S) {
    if (auto v = r_class_violation(S, ClassKind::RTrivial, false)) return no(*v);
    return yes(base(ClassKind::RTrivial, true, CertificateKind::SemigroupIdentity, "the syntactic monoid is R-trivial"));
}

ClassDecision l_trivial_by_semigroup(const SemigroupAnalysis& S) {
    if (auto v = r_class_violation(S, ClassKind::LTrivial, true)) return no(*v);
    return yes(base(ClassKind::LTrivial, true, CertificateKind::SemigroupIdentity, "the syntactic monoid is L-trivial"));
}

// --- locally R-trivial

ClassDecision lrt_by_dfa(DfaAnalysis& A) {
    const Dfa& d = A.dfa();
    auto cn = A.c_nodes([&](State p, State q) { return A.scc(p) == A.scc(q); }, true);
    if (cn.empty())
        return yes(base(ClassKind::LocallyRTrivial, true, CertificateKind::NoCommonLoopInScc,
                        "no two distinct states of one SCC share a common non-empty loop word"));
    auto [p, q] = cn[0];
    Word w = A.loop_word(p, q), u = *A.path(p, q), v = *A.path(q, p);
    const Symbol M = WordFamily::kLoopMarker;
    WordFamily f;
    f.x = A.access(p);
    f.e = w;
    f.p = Word{M};
    f.p.insert(f.p.end(), u.begin(), u.end());
    f.p.push_back(M);
    f.p.insert(f.p.end(), v.begin(), v.end());
    f.p.push_back(M);
    f.y = A.separator(p, q);
    f.z = Word{M};
    f.z.insert(f.z.end(), u.begin(), u.end());
    f.z.push_back(M);
    f.z.insert(f.z.end(), f.y.begin(), f.y.end());
    Certificate c = base(ClassKind::LocallyRTrivial, false, CertificateKind::LrtFamily,
                         "states " + std::to_string(p) + " and " + std::to_string(q) + " of one SCC share the loop w = " +
                             fw(d, w) + " (u = " + fw(d, u) + " leads from the first to the second, v = " + fw(d, v) +
                             " back); with E = w^r, x(EuEvE)^r y and x(EuEvE)^r EuE y differ for every r, while " +
                             "(eueve)^ω eue = (eueve)^ω in every locally R-trivial semigroup, so no LTL[P,Y] formula separates them for large r");
    c.family = f;
    return no(c);
}

ClassDecision lrt_by_semigroup(const SemigroupAnalysis& S) {
    for (Element e : S.idempotent_per_d_class()) {
        auto M = S.local_monoid(e);
        std::unordered_map<std::uint32_t, Element> by_r;
        for (Element x : M) {
            auto [it, fresh] = by_r.emplace(S.green.r[x], x);
            if (fresh) continue;
            Element y = it->second;
            // words s, t with y = x·s, x = y·t (BFS in the right Cayley graph).
            auto walk = [&](Element from, Element to) {
                std::unordered_map<Element, std::pair<Element, Symbol>> parent{{from, {from, 0}}};
                std::deque<Element> queue{from};
                while (!queue.empty()) {
                    Element z = queue.front();
                    queue.pop_front();
                    if (z == to) break;
                    for (std::size_t a = 0; a < S.s.num_generators(); ++a) {
                        Element t = S.s.right(z, Symbol(a));
                        if (parent.count(t)) continue;
                        parent[t] = {z, Symbol(a)};
                        queue.push_back(t);
                    }
                }
                Word w;
                for (Element z = to; z != from; z = parent[z].first) w.push_back(parent[z].second);
                std::reverse(w.begin(), w.end());
                return w;
            };
            return no(violation(ClassKind::LocallyRTrivial, Identity::LocalR,
                                "x ≠ x·(e s e) = y and y·(e t e) = x for x in eSe: eSe is not R-trivial",
                                {{"e", S.s.word(e)}, {"x", S.s.word(x)}, {"s", walk(x, y)}, {"t", walk(y, x)}}));
        }
    }
    return yes(base(ClassKind::LocallyRTrivial, true, CertificateKind::SemigroupIdentity, "eSe is R-trivial for every idempotent e"));
}

// --- locally testable (Trahtman's theorem on the pair graph; Brzozowski–Simon identity)

ClassDecision lt_by_dfa(DfaAnalysis& A) {
    const Dfa& d = A.dfa();
    auto cn = A.c_nodes([&](State p, State q) { return A.scc(p) == A.scc(q); }, true);
    if (!cn.empty()) {
        auto [p, q] = cn[0];
        Certificate c = base(ClassKind::LocallyTestable, false, CertificateKind::DfaCriterion,
                             "C-node (" + std::to_string(p) + "," + std::to_string(q) +
                                 ") of the pair graph with both states in one SCC (Trahtman's condition 1 fails)");
        c.fields = CNodeFields{p, q, A.loop_word(p, q)};
        return no(c);
    }
    // Condition 2: for every C-node (p,q) with p ≥ q and every s: p·s ≥ q iff q·s ≥ q.
    auto all = A.c_nodes([](State, State) { return true; }, false);
    std::map<State, std::vector<State>> by_q;  // q -> sources p (p reaches q)
    for (auto [p, q] : all) {
        if (A.reaches(p, q)) by_q[q].push_back(p);
        if (A.reaches(q, p)) by_q[p].push_back(q);
    }
    const std::size_t n = A.n(), k = d.num_symbols();
    // Predecessor lists (CSR), for the set of states that reach each q by a backward search.
    std::vector<std::uint32_t> first_in, pred;
    if (!by_q.empty()) {
        first_in.assign(n + 1, 0);
        for (State x = 0; x < n; ++x)
            for (std::size_t a = 0; a < k; ++a) ++first_in[d.next(x, Symbol(a)) + 1];
        std::partial_sum(first_in.begin(), first_in.end(), first_in.begin());
        pred.resize(n * k);
        std::vector<std::uint32_t> fill(first_in.begin(), first_in.end() - 1);
        for (State x = 0; x < n; ++x)
            for (std::size_t a = 0; a < k; ++a) pred[fill[d.next(x, Symbol(a))]++] = x;
    }
    std::vector<char> to_q(n);
    for (const auto& [q, sources] : by_q) {
        std::fill(to_q.begin(), to_q.end(), 0);
        std::vector<State> back{q};
        to_q[q] = 1;
        while (!back.empty()) {
            const State y = back.back();
            back.pop_back();
            for (std::uint32_t i = first_in[y]; i < first_in[y + 1]; ++i)
                if (!to_q[pred[i]]) to_q[pred[i]] = 1, back.push_back(pred[i]);
        }
        std::unordered_map<std::uint64_t, char> seen;
        std::deque<std::uint64_t> queue;
        for (State p : sources) {
            std::uint64_t v = std::uint64_t(p) * n + q;
            if (seen.emplace(v, 1).second) queue.push_back(v);
        }
        while (!queue.empty()) {
            std::uint64_t v = queue.front();
            queue.pop_front();
            State r = State(v / n), t = State(v % n);
            if (to_q[r] != to_q[t]) {
                Certificate c = base(ClassKind::LocallyTestable, false, CertificateKind::DfaCriterion,
                                     "a C-node (p," + std::to_string(q) + ") with p ≥ " + std::to_string(q) +
                                         " reaches the pair (" + std::to_string(r) + "," + std::to_string(t) +
                                         ") of which exactly one reaches " + std::to_string(q) +
                                         " (Trahtman's condition 2 fails)");
                c.fields = CNodeReachFields{q, r, t};
                return no(c);
            }
            for (std::size_t a = 0; a < k; ++a) {
                State r2 = d.next(r, Symbol(a)), t2 = d.next(t, Symbol(a));
                if (r2 == t2) continue;
                std::uint64_t w = std::uint64_t(r2) * n + t2;
                if (seen.emplace(w, 1).second) queue.push_back(w);
            }
        }
    }
    return yes(base(ClassKind::LocallyTestable, true, CertificateKind::DfaCriterion,
                    "Trahtman's conditions hold: every C-node (p,q) of the pair graph with p ≥ q has p = q when p ~ q, "
                    "and p·s ≥ q iff q·s ≥ q for all s"));
}

ClassDecision lt_by_semigroup(const SemigroupAnalysis& S) {
    for (Element e : S.idempotent_per_d_class()) {
        auto M = S.local_monoid(e);
        for (Element x : M)
            if (S.s.product(x, x) != x)
                return no(violation(ClassKind::LocallyTestable, Identity::LocalIdempotent, "(e s e)² ≠ e s e: eSe is not idempotent",
                                    {{"e", S.s.word(e)}, {"s", S.s.word(x)}}));
        for (std::size_t i = 0; i < M.size(); ++i)
            for (std::size_t j = i + 1; j < M.size(); ++j)
                if (S.s.product(M[i], M[j]) != S.s.product(M[j], M[i]))
                    return no(violation(ClassKind::LocallyTestable, Identity::LocalCommutative,
                                        "(ese)(ete) ≠ (ete)(ese): eSe is not commutative",
                                        {{"e", S.s.word(e)}, {"s", S.s.word(M[i])}, {"t", S.s.word(M[j])}}));
    }
    return yes(base(ClassKind::LocallyTestable, true, CertificateKind::SemigroupIdentity,
                    "eSe is idempotent and commutative for every idempotent e (Brzozowski–Simon)"));
}

// --- piecewise testable (Klíma–Polák: partially ordered and locally confluent)

// Whether the {a,b}*-successors of x and y meet (breadth-first over the states).
bool successors_meet(const Dfa& d, Symbol a, Symbol b, State x, State y) {
    std::vector<char> seen(d.num_states(), 0);
    auto closure = [&](State s, char mark) {
        std::vector<State> todo{s};
        if (seen[s] == 1 && mark == 2) return true;
        seen[s] = mark;
        while (!todo.empty()) {
            const State z = todo.back();
            todo.pop_back();
            for (Symbol c : {a, b}) {
                const State t = d.next(z, c);
                if (mark == 2 && seen[t] == 1) return true;
                if (seen[t] != mark) seen[t] = mark, todo.push_back(t);
            }
        }
        return false;
    };
    closure(x, 1);
    return closure(y, 2);
}

// The least state q < limit of a partially ordered DFA at which q·a and q·b have no common
// {a,b}*-successor. The moves s -> s·a, s -> s·b (s·c ≠ s) terminate, so by Newman's lemma the
// moves are locally confluent iff every state reaches exactly one {a,b}-sink (s·a = s·b = s).
// That sink is computed bottom-up in O(n); q is a violation iff q·a and q·b reach distinct unique
// sinks, and the successors are compared breadth-first only where one of them reaches several.
std::optional<State> first_nonconfluent(const DfaAnalysis& A, Symbol a, Symbol b, State limit) {
    const Dfa& d = A.dfa();
    const std::size_t n = A.n();
    constexpr State kSeveral = std::numeric_limits<State>::max();
    // Every SCC is one state and successors have smaller SCC numbers: increasing SCC number is a
    // bottom-up order.
    std::vector<State> order(n);
    for (State q = 0; q < n; ++q) order[A.scc(q)] = q;
    std::vector<State> sink(n, kSeveral);
    for (State s : order) {
        State u = s;
        bool first = true;
        for (Symbol c : {a, b}) {
            const State t = d.next(s, c);
            if (t == s) continue;
            if (first) u = sink[t], first = false;
            else if (sink[t] != u) u = kSeveral;
        }
        sink[s] = u;
    }
    for (State q = 0; q < std::min<std::size_t>(limit, n); ++q) {
        const State x = d.next(q, a), y = d.next(q, b);
        if (x == y) continue;
        if (sink[x] != kSeveral && sink[y] != kSeveral) {
            if (sink[x] != sink[y]) return q;
        } else if (!successors_meet(d, a, b, x, y)) {
            return q;
        }
    }
    return std::nullopt;
}

ClassDecision pt_by_dfa(DfaAnalysis& A) {
    const Dfa& d = A.dfa();
    auto rt = r_trivial_by_dfa(A);
    if (!rt.member) {
        const WordFamily& f = *rt.certificate.family;
        // s = (uv)^m with (uv)^m idempotent; s·u ≠ s; s·u·(v (uv)^{m-1}) = s.
        Word uv = f.p, u(f.z.begin(), f.z.end() - std::ptrdiff_t(f.y.size()));
        Word v(uv.begin() + std::ptrdiff_t(u.size()), uv.end());
        Certificate c = violation(ClassKind::PiecewiseTestable, Identity::RClassOmega,
                                  "with e = (uv)^ω: e ≠ e·u and e·u·v·(uv)^{ω-1} = e, so the monoid is not R-trivial, hence not J-trivial",
                                  {{"u", u}, {"v", v}});
        return no(c);
    }
    // Local confluence: for every q and letters a, b, q·a and q·b have a common {a,b}*-successor.
    const std::size_t k = d.num_symbols();
    std::optional<std::tuple<State, std::size_t, std::size_t>> first;
    for (std::size_t a = 0; a < k; ++a)
        for (std::size_t b = a + 1; b < k; ++b)
            if (auto q = first_nonconfluent(A, Symbol(a), Symbol(b), first ? std::get<0>(*first) : State(A.n())))
                first = std::tuple{*q, a, b};
    if (first) {
        const auto [q, a, b] = *first;
        Certificate c = base(ClassKind::PiecewiseTestable, false, CertificateKind::DfaCriterion,
                             "not locally confluent: from state " + std::to_string(q) + ", " +
                                 d.alphabet[a] + " and " + d.alphabet[b] + " lead to states with no common {" +
                                 d.alphabet[a] + "," + d.alphabet[b] + "}*-successor (Klíma–Polák)");
        c.fields = ConfluenceFields{q, Symbol(a), Symbol(b)};
        return no(c);
    }
    return yes(base(ClassKind::PiecewiseTestable, true, CertificateKind::DfaCriterion,
                    "the minimal DFA is partially ordered and locally confluent (Klíma–Polák)"));
}

ClassDecision pt_by_semigroup(const SemigroupAnalysis& S) {
    if (auto v = r_class_violation(S, ClassKind::PiecewiseTestable, false)) return no(*v);
    if (auto v = r_class_violation(S, ClassKind::PiecewiseTestable, true)) return no(*v);
    return yes(base(ClassKind::PiecewiseTestable, true, CertificateKind::SemigroupIdentity, "the syntactic monoid is J-trivial (Simon)"));
}

// --- star-free

ClassDecision star_free_by_semigroup(const SemigroupAnalysis& S) {
    for (Element x = 0; x < S.s.size(); ++x) {
        Element w = S.s.omega(x);
        if (S.s.product(w, x) != w)
            return no(violation(ClassKind::StarFree, Identity::Aperiodic, "u^ω ≠ u^(ω+1): the syntactic monoid has a non-trivial group",
                                {{"u", S.s.word(x)}}));
    }
    return yes(base(ClassKind::StarFree, true, CertificateKind::SemigroupIdentity, "the syntactic monoid is aperiodic (Schützenberger)"));
}

// --- reverse definite

ClassDecision rd_by_dfa(DfaAnalysis& A) {
    const Dfa& d = A.dfa();
    for (State q = 0; q < A.n(); ++q) {
        if (!A.on_cycle(q)) continue;
        for (std::size_t a = 0; a < d.num_symbols(); ++a)
            if (d.next(q, Symbol(a)) != q) {
                // a loop at q
                Word w;
                for (std::size_t b = 0; b < d.num_symbols() && w.empty(); ++b) {
                    auto back = A.path(d.next(q, Symbol(b)), q);
                    if (back) w = Word{Symbol(b)}, w.insert(w.end(), back->begin(), back->end());
                }
                return no(violation(ClassKind::ReverseDefinite, Identity::EX,
                                    "state " + std::to_string(q) + " lies on a cycle but is not absorbing: e·x ≠ e for e = w^ω",
                                    {{"e", w}, {"x", Word{Symbol(a)}}}));
            }
    }
    return yes(base(ClassKind::ReverseDefinite, true, CertificateKind::DfaCriterion, "every state on a cycle is absorbing (all letters loop)"));
}

ClassDecision rd_by_semigroup(const SemigroupAnalysis& S) {
    for (Element e : S.idempotents)
        for (std::size_t a = 0; a < S.s.num_generators(); ++a)
            if (S.s.right(e, Symbol(a)) != e)
                return no(violation(ClassKind::ReverseDefinite, Identity::EX, "e·x ≠ e for the idempotent e",
                                    {{"e", S.s.word(e)}, {"x", Word{Symbol(a)}}}));
    return yes(base(ClassKind::ReverseDefinite, true, CertificateKind::SemigroupIdentity, "e·S = e for every idempotent e"));
}

// --- generalized definite

ClassDecision gd_by_dfa(DfaAnalysis& A) {
    auto cn = A.c_nodes([&](State p, State q) { return A.reaches(p, q) || A.reaches(q, p); }, true);
    if (cn.empty())
        return yes(base(ClassKind::GeneralizedDefinite, true, CertificateKind::DfaCriterion,
                        "no C-node (p,q), p ≠ q, of the pair graph has q reachable from p"));
    auto [p, q] = cn[0];
    if (!A.reaches(p, q)) std::swap(p, q);
    Word w = A.loop_word(p, q), s = *A.path(p, q);
    return no(violation(ClassKind::GeneralizedDefinite, Identity::EXE,
                        "states " + std::to_string(p) + " and " + std::to_string(q) + " share the loop w and " +
                            std::to_string(q) + " is reachable from " + std::to_string(p) + ": e·x·e ≠ e for e = w^ω",
                        {{"e", w}, {"x", s}}));
}

ClassDecision gd_by_semigroup(const SemigroupAnalysis& S) {
    for (Element e : S.idempotents)
        if (S.green.j[e] != S.kernel) {
            Element k0 = 0;
            while (S.green.j[k0] != S.kernel) ++k0;
            return no(violation(ClassKind::GeneralizedDefinite, Identity::EXE, "e·x·e ≠ e: the idempotent e is not in the minimal ideal",
                                {{"e", S.s.word(e)}, {"x", S.s.word(k0)}}));
        }
    for (Element e : S.idempotents)
        for (Element x = 0; x < S.s.size(); ++x)
            if (x != e && S.green.h[x] == S.green.h[e])
                return no(violation(ClassKind::GeneralizedDefinite, Identity::EXE, "e·x·e = x ≠ e in the group H-class of e",
                                    {{"e", S.s.word(e)}, {"x", S.s.word(x)}}));
    return yes(base(ClassKind::GeneralizedDefinite, true, CertificateKind::SemigroupIdentity,
                    "every idempotent lies in the minimal ideal, which is H-trivial: eSe = e"));
}

// --- certificate completion

void add_family_pairs(DfaAnalysis& A, ClassDecision& d) {
    if (!d.certificate.family || !d.certificate.pairs.empty()) return;
    const auto& f = *d.certificate.family;
    for (std::size_t r = f.r_min; r < f.r_min + 3; ++r) {
        auto [u, v] = f.at(r);
        if (A.dfa().accepts(u) == A.dfa().accepts(v)) continue;
        if (!A.dfa().accepts(u)) std::swap(u, v);
        d.certificate.pairs.emplace_back(u, v);
    }
}

void add_violation_pair(DfaAnalysis& A, ClassDecision& d) {
    if (d.member || d.certificate.kind != CertificateKind::IdentityViolation || !d.certificate.pairs.empty()) return;
    // A pair of words that the violated identity would make equal.
    const auto* v = std::get_if<ViolationFields>(&d.certificate.fields);
    if (!v) return;
    const Dfa& dfa = A.dfa();
    // The pair costs runs of the words (up to 64 powers of them) from every state: skip it where that
    // exceeds 2·10^7 steps (the violation itself is checked on transformations, pair or not).
    std::size_t letters_in_words = 0;  // the length of the words as the certificate writes them
    for (const auto& [name, w] : v->words) letters_in_words += format_word(dfa.alphabet, w).size();
    if (letters_in_words * dfa.num_states() > 20'000'000) return;
    auto word = [&](const char* name) { return v->word(name); };
    auto omega_word = [&](const Word& w) {
        // w^m with τ(w)^m idempotent (m ≤ a bound, else w itself); τ(w)^m by one composition per m
        const std::vector<State> t = transformation_of(dfa, w);
        std::vector<State> tm = t;
        Word p = w;
        for (std::size_t m = 1; m <= 64; ++m) {
            bool idempotent = true;
            for (std::size_t q = 0; q < tm.size() && idempotent; ++q) idempotent = tm[tm[q]] == tm[q];
            if (idempotent) return p;
            for (auto& x : tm) x = t[x];
            p = cat({&p, &w});
        }
        return w;
    };
    Word a, b;
    switch (v->identity) {
        case Identity::XE: { Word e = omega_word(word("e")), x = word("x"); a = cat({&x, &e}); b = e; break; }
        case Identity::EX: { Word e = omega_word(word("e")), x = word("x"); a = cat({&e, &x}); b = e; break; }
        case Identity::EXE: { Word e = omega_word(word("e")), x = word("x"); a = cat({&e, &x, &e}); b = e; break; }
        case Identity::RClass: { Word s = word("s"), x = word("a"); a = s; b = cat({&s, &x}); break; }
        case Identity::LClass: { Word s = word("s"), x = word("a"); a = s; b = cat({&x, &s}); break; }
        case Identity::Aperiodic: { Word u = omega_word(word("u")); Word u1 = word("u"); a = u; b = cat({&u, &u1}); break; }
        case Identity::RClassOmega: { Word u = word("u"), v = word("v"); Word uv = cat({&u, &v}); Word e = omega_word(uv); a = e; b = cat({&e, &u}); break; }
        case Identity::LocalR: { Word e = omega_word(word("e")), x = word("x"), s = word("s"); a = x; b = cat({&x, &e, &s, &e}); break; }
        case Identity::LocalIdempotent: { Word e = omega_word(word("e")), s = word("s"); Word x = cat({&e, &s, &e}); a = x; b = cat({&x, &x}); break; }
        case Identity::LocalCommutative: { Word e = omega_word(word("e")), s = word("s"), t = word("t"); Word x = cat({&e, &s, &e}), y = cat({&e, &t, &e}); a = cat({&x, &y}); b = cat({&y, &x}); break; }
    }
    if (auto p = separating_context(dfa, a, b)) d.certificate.pairs.push_back(*p);
}

void certify_common(DfaAnalysis& A, ClassDecision& d, std::size_t) {
    add_family_pairs(A, d);
    add_violation_pair(A, d);
}

void attach_formula(ClassDecision& d, const std::optional<ltl::Formula>& f, std::size_t formula_cap, const std::string& what) {
    if (!f) return;
    const std::size_t size = ltl::tree_size(*f);
    d.certificate.kind = CertificateKind::Formula;
    if (size <= formula_cap) d.certificate.formula = ltl::to_string(*f);
    else
        d.certificate.formula_omitted = what + " formula of tree size " + std::to_string(size) + " exceeds the cap " +
                                        std::to_string(formula_cap) + " (--formula-cap)";
}

void certify_definite(DfaAnalysis& A, ClassDecision& d, std::size_t formula_cap) {
    if (d.member && d.certificate.kind == CertificateKind::PairGraphAcyclic) {
        const std::size_t cap = std::max<std::size_t>(formula_cap, 1000);
        auto f = definite_formula(A.dfa(), cap);
        if (f) attach_formula(d, f, formula_cap, "the Y-chain");
        else {
            const std::size_t work_cap = kDefiniteFormulaWork / std::max<std::size_t>(A.n(), 1);
            d.certificate.kind = CertificateKind::Formula;
            d.certificate.formula_omitted =
                "the Y-chain decision tree has more than " + std::to_string(std::min(cap, work_cap)) + " distinct nodes" +
                (work_cap < cap ? " (10^8 state entries over " + std::to_string(A.n()) + " states; --formula-cap is " +
                                      std::to_string(formula_cap) + ")"
                                : std::string(" (--formula-cap)"));
        }
    }
    certify_common(A, d, formula_cap);
}

void certify_r_trivial(DfaAnalysis& A, ClassDecision& d, std::size_t formula_cap) {
    if (d.member && d.certificate.kind == CertificateKind::PartiallyOrdered) attach_formula(d, partially_ordered_formula(A.dfa()), formula_cap, "the LTL[P]");
    certify_common(A, d, formula_cap);
}

}  // namespace

const std::vector<ClassRow>& class_table() {
    using A = Architecture;
    using F = ltl::FragmentKind;
    using I = Identity;
    static const std::vector<ClassRow> rows = {
        {.kind = ClassKind::Definite, .name = "definite", .phrase = "definite",
         .characterization = "syntactic semigroup satisfies x·y^ω = y^ω; pair graph on distinct states acyclic",
         .logic = "LTL[Y]", .arch = A{A::Kind::Local, 1}, .refuted_by = {I::XE, I::Aperiodic},
         .refuting_family = CertificateKind::SuffixFamily, .formula_fragment = F::Y,
         .by_dfa = definite_by_dfa, .by_semigroup = definite_by_semigroup, .certify = certify_definite},
        {.kind = ClassKind::RTrivial, .name = "left-deterministic polynomial", .phrase = "R-trivial",
         .characterization = "R-trivial syntactic monoid; minimal DFA partially ordered",
         .logic = "LTL[P]", .arch = A{A::Kind::Global, 0}, .refuted_by = {I::RClass, I::RClassOmega, I::Aperiodic},
         .refuting_family = CertificateKind::RFamily, .formula_fragment = F::P,
         .by_dfa = r_trivial_by_dfa, .by_semigroup = r_trivial_by_semigroup, .certify = certify_r_trivial},
        {.kind = ClassKind::LocallyRTrivial, .name = "locally R-trivial", .phrase = "locally R-trivial",
         .characterization = "eSe R-trivial for every idempotent e; no two distinct states of one SCC share a non-empty loop word",
         .logic = "LTL[P,Y]", .arch = A{A::Kind::Hybrid, 1}, .refuted_by = {I::LocalR, I::Aperiodic},
         .refuting_family = CertificateKind::LrtFamily,
         .by_dfa = lrt_by_dfa, .by_semigroup = lrt_by_semigroup, .certify = certify_common},
        {.kind = ClassKind::LocallyTestable, .name = "locally testable", .phrase = "locally testable",
         .characterization = "eSe idempotent and commutative (Brzozowski–Simon); Trahtman's DFA test",
         .logic = "⊂ LTL[P,Y]", .refuted_by = {I::LocalIdempotent, I::LocalCommutative, I::Aperiodic},
         .by_dfa = lt_by_dfa, .by_semigroup = lt_by_semigroup, .certify = certify_common},
        {.kind = ClassKind::PiecewiseTestable, .name = "piecewise testable", .phrase = "piecewise testable",
         .characterization = "J-trivial (Simon); partially ordered + locally confluent (Klíma–Polák)",
         .logic = "⊂ LTL[P]", .refuted_by = {I::RClass, I::LClass, I::RClassOmega, I::Aperiodic},
         .by_dfa = pt_by_dfa, .by_semigroup = pt_by_semigroup, .certify = certify_common},
        {.kind = ClassKind::StarFree, .name = "star-free", .phrase = "star-free",
         .characterization = "aperiodic syntactic monoid (Schützenberger)", .logic = "LTL[S]", .refuted_by = {I::Aperiodic},
         .by_semigroup = star_free_by_semigroup, .certify = certify_common},
        {.kind = ClassKind::ReverseDefinite, .name = "reverse definite", .phrase = "reverse definite",
         .characterization = "e·S = e; every state on a cycle is absorbing", .refuted_by = {I::EX, I::Aperiodic},
         .by_dfa = rd_by_dfa, .by_semigroup = rd_by_semigroup, .certify = certify_common},
        {.kind = ClassKind::GeneralizedDefinite, .name = "generalized definite", .phrase = "generalized definite",
         .characterization = "eSe = e; no C-node (p,q), p ≠ q, with q reachable from p", .refuted_by = {I::EXE, I::Aperiodic},
         .by_dfa = gd_by_dfa, .by_semigroup = gd_by_semigroup, .certify = certify_common},
        {.kind = ClassKind::LTrivial, .name = "L-trivial", .phrase = "L-trivial", .characterization = "L-trivial syntactic monoid",
         .refuted_by = {I::LClass, I::Aperiodic}, .by_semigroup = l_trivial_by_semigroup, .certify = certify_common},
    };
    return rows;
}

const ClassRow* find_class(const ClassId& id) {
    for (const auto& r : class_table())
        if (r.id() == id) return &r;
    return nullptr;
}

const std::vector<Inclusion>& class_inclusions() {
    using K = ClassKind;
    // Read in this order by the closure of prediction_suite.hh (its contradiction messages name the first rule that fires).
    static const std::vector<Inclusion> all = {
        // docs/CLASSES.md §2 (LC25, LC26; Pin, Varieties of Formal Languages)
        {{K::Definite}, K::LocallyRTrivial, "LTL[Y] ⊆ LTL[P,Y]"},
        {{K::RTrivial}, K::LocallyRTrivial, "LTL[P] ⊆ LTL[P,Y]"},
        {{K::LocallyTestable}, K::LocallyRTrivial, "eSe a semilattice is R-trivial"},
        {{K::PiecewiseTestable}, K::RTrivial, "J-trivial is R-trivial"},
        // LTL[P,Y] ⊆ LTL[S] (Schützenberger: star-free = aperiodic).
        {{K::LocallyRTrivial}, K::StarFree, "LTL[P,Y] ⊆ LTL[S] (Schützenberger)", true},
        // x·e = e for every idempotent e gives y·(xy)^ω = (xy)^ω, the identity of L-trivial monoids.
        {{K::Definite}, K::LTrivial, "x·e = e gives y·(xy)^ω = (xy)^ω", true},
        {{K::PiecewiseTestable}, K::LTrivial, "J-trivial is L-trivial", true},
        {{K::LTrivial}, K::StarFree, "an L-trivial monoid is aperiodic"},
        {{K::Definite}, K::GeneralizedDefinite, "x·e = e gives e·s·e = e"},
        {{K::ReverseDefinite}, K::GeneralizedDefinite, "e·s = e gives e·s·e = e"},
        {{K::ReverseDefinite}, K::RTrivial, "every state on a cycle absorbing: partially ordered"},
        {{K::GeneralizedDefinite}, K::LocallyTestable, "eSe = {e} is idempotent and commutative"},
        // R-trivial and L-trivial is J-trivial, i.e. piecewise testable (Simon): kind "excluded".
        {{K::RTrivial, K::LTrivial}, K::PiecewiseTestable, "R- and L-trivial is J-trivial (Simon)", true},
        // docs/SUBREGULAR.md §1
        {{K::Finite}, K::Definite, "docs/SUBREGULAR.md §3"},
        {{K::Cofinite}, K::Definite, "docs/SUBREGULAR.md §3"},
        {{K::Finite}, K::SL, "finite ⊆ SL-(longest+2)"},
        {{K::Definite}, K::SL, "degree d: forbid s⋉ for the rejected suffixes s of length d and the rejected ⋊w⋉, |w| < d (SL-(d+1))"},
        {{K::ReverseDefinite}, K::SL, "degree d: forbid ⋊p for the rejected prefixes p of length d and the rejected ⋊w⋉, |w| < d"},
        {{K::SL}, K::LT, "SL-k ⊆ LT-k"},
        {{K::LT}, K::LTT, "LT-k ⊆ LTT-(k,1)"},
        {{K::SL}, K::TSL, "SL-k ⊆ TSL-k on the tier Σ"},
        {{K::SP}, K::PT, "SP-k ⊆ PT-k"},
        {{K::PT}, K::DA, "PT ⊆ DA"},
        {{K::AperiodicCommutative}, K::PT, "aperiodic commutative ⊆ PT"},
        {{K::LTT}, K::StarFree, "LTT ⊆ star-free"},
        {{K::DA}, K::StarFree, "DA ⊆ star-free"},
        {{K::RTrivial}, K::DA, "R-trivial monoids lie in DA (Tesson–Thérien 2002)"},
        {{K::LTrivial}, K::DA, "L-trivial monoids lie in DA (Tesson–Thérien 2002)"},
        // one class under two names: LT = locally_testable, PT = piecewise_testable
        {{K::LT}, K::LocallyTestable, "the same class"},
        {{K::LocallyTestable}, K::LT, "the same class"},
        {{K::PT}, K::PiecewiseTestable, "the same class (Simon)"},
        {{K::PiecewiseTestable}, K::PT, "the same class (Simon)"},
    };
    return all;
}

std::vector<Inclusion> window_inclusions(const std::vector<unsigned>& ks) {
    std::vector<Inclusion> r;
    for (unsigned k : ks) {
        const ClassId lk = window_class_id(false, k), hk = window_class_id(true, k);
        r.push_back({{lk}, ClassKind::Definite, "local_k implies definite (LTL[Y<=k] ⊆ LTL[Y])"});
        r.push_back({{hk}, ClassKind::LocallyRTrivial, "hybrid_k implies locally R-trivial"});
        r.push_back({{lk}, hk, "LTL[Y<=k] ⊆ LTL[P,Y<=k]"});
        r.push_back({{ClassKind::RTrivial}, hk, "LTL[P] ⊆ LTL[P,Y<=k]"});
        for (unsigned m : ks)
            if (m != k && m % k == 0) {
                r.push_back({{window_class_id(false, m)}, lk, "LTL[Y<=qk] ⊆ LTL[Y<=k]"});
                r.push_back({{window_class_id(true, m)}, hk, "LTL[P,Y<=qk] ⊆ LTL[P,Y<=k]"});
            }
    }
    return r;
}

bool class_implies(const ClassId& from, const ClassId& to) {
    for (const Inclusion& i : class_inclusions())
        if (i.certifies && i.if_all.size() == 1 && i.if_all[0] == from && i.then == to) return true;
    return false;
}

bool class_excludes(const ClassId& in, const ClassId& not_in, const ClassId& cls) {
    // {in, cls} ⊆ not_in: in without not_in leaves no room for cls.
    for (const Inclusion& i : class_inclusions())
        if (i.certifies && i.if_all.size() == 2 && i.if_all[0] == in && i.if_all[1] == cls && i.then == not_in) return true;
    return false;
}

std::optional<ClassDecision> decide_without_semigroup(ClassKind id, DfaAnalysis& A, const ClassMap<std::optional<bool>>& decided,
                                                      const ClassMap<Certificate>& certificates) {
    const std::string name = to_string(id);
    // The sources tried in this order: the classes with a DFA criterion that a certifying inclusion leaves.
    for (ClassKind from : {ClassKind::LocallyRTrivial, ClassKind::Definite, ClassKind::PiecewiseTestable}) {
        auto it = decided.find(from);
        if (it == decided.end() || it->second != true || !class_implies(from, id)) continue;
        Certificate c = base(id, true, CertificateKind::Implied, "in " + to_string(from) + ", which is included in " + name + ": " +
                                                      certificates.at(from).fact);
        c.fields = ImpliedFields{from};
        return yes(c);
    }
    // R-trivial and not piecewise testable excludes L-trivial.
    for (const Inclusion& i : class_inclusions()) {
        if (!i.certifies || i.if_all.size() != 2 || i.if_all[1] != id) continue;
        const ClassId in = i.if_all[0], not_in = i.then;
        auto a = decided.find(in), b = decided.find(not_in);
        if (a == decided.end() || a->second != true || b == decided.end() || b->second != false) continue;
        Certificate c = base(id, false, CertificateKind::Excluded,
                             "R-trivial (" + certificates.at(in).fact + ") but not piecewise testable (" +
                                 certificates.at(not_in).fact +
                                 "), and an R-trivial L-trivial monoid is J-trivial, i.e. piecewise testable (Simon)");
        c.fields = ExcludedFields{in, not_in};
        return no(c);
    }
    if (id == ClassKind::LTrivial) {
        // Not aperiodic, so not L-trivial (an L-trivial monoid is aperiodic): star_free's violation.
        auto it = decided.find(ClassKind::StarFree);
        auto cert = certificates.find(ClassKind::StarFree);
        if (it != decided.end() && it->second == false && cert != certificates.end() &&
            cert->second.kind == CertificateKind::IdentityViolation &&
            std::get_if<ViolationFields>(&cert->second.fields) &&
            std::get<ViolationFields>(cert->second.fields).identity == Identity::Aperiodic) {
            Certificate c = cert->second;
            c.class_id = id;
            c.fact = "not aperiodic, so not L-trivial: " + c.fact;
            return no(c);
        }
    }
    if (find_class(id)->by_dfa) return std::nullopt;
    const Dfa& d = A.dfa();
    const std::size_t n = A.n();
    for (std::size_t a = 0; a < d.num_symbols(); ++a) {
        std::vector<std::uint8_t> state(n, 0);  // 0 new, 1 on the current path, 2 done
        for (std::size_t s0 = 0; s0 < n; ++s0) {
            std::vector<State> path;
            State x = State(s0);
            while (!state[x]) state[x] = 1, path.push_back(x), x = d.next(x, Symbol(a));
            const bool cycle = state[x] == 1 && d.next(x, Symbol(a)) != x;
            for (State z : path) state[z] = 2;
            if (cycle)
                return no(violation(id, Identity::Aperiodic,
                                    "the letter " + d.alphabet[a] + " permutes a cycle of states (through state " +
                                        std::to_string(x) + "): u^ω ≠ u^(ω+1) for u = " + d.alphabet[a] +
                                        ", a non-trivial group in the syntactic monoid",
                                    {{"u", Word{Symbol(a)}}}));
        }
    }
    return std::nullopt;
}


}  // namespace ltlkit::automata::algebra
