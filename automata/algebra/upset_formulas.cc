// "yes" for a language decided by which closed sets of states the run entered (docs/WINDOWS.md §3d):
// the sink-state strategy's Lemma 4 applied to every set U of states closed under the transitions
// that an SCC generates (the states reachable from it, with and without it), then membership as a
// function of the sets entered and of the EOS type.
#include "automata/algebra/window_strategies.hh"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "automata/algebra/budget.hh"
#include "automata/algebra/scc.hh"
#include "ltl/builder.hh"

namespace ltlkit::automata::algebra {

using namespace window_strategies;

namespace {

constexpr std::size_t kMaxMarks = 6;            // marks per exploration
constexpr long kMarkSpan = 1L << kMaxMarks;  // key = type · kMarkSpan + marks

// The closed sets of the SCC decomposition: for every SCC C, the states reachable from C (↑C) and
// ↑C without C (closed too: a state of C reachable from ↑C \ C would put it in C's SCC). The empty
// set and the sets holding the initial state (every run starts in them) say nothing and are left out.
std::vector<std::string> closed_sets(const Dfa& minimal) {
    const std::size_t n = minimal.num_states(), sigma = minimal.num_symbols();
    std::vector<std::uint32_t> comp;
    strong_components(
        n, sigma, [&](std::uint32_t v, std::size_t i) { return static_cast<long>(minimal.delta[v * sigma + i]); },
        comp);
    std::set<std::string> out;  // membership per state, '\0' or '\1'
    std::vector<char> done_comp(n, 0);
    for (std::size_t q = 0; q < n; ++q) {
        if (done_comp[comp[q]]) continue;
        done_comp[comp[q]] = 1;
        std::string up(n, '\0');
        std::vector<std::size_t> stack{q};
        up[q] = 1;
        while (!stack.empty()) {
            const std::size_t v = stack.back();
            stack.pop_back();
            for (std::size_t c = 0; c < sigma; ++c) {
                const std::size_t t = minimal.delta[v * sigma + c];
                if (!up[t]) up[t] = 1, stack.push_back(t);
            }
        }
        std::string below = up;
        for (std::size_t v = 0; v < n; ++v)
            if (comp[v] == comp[q]) below[v] = 0;
        for (const std::string* u : {&up, &below})
            if (!(*u)[minimal.initial] && u->find('\1') != std::string::npos) out.insert(*u);
    }
    return {out.begin(), out.end()};
}


// Formulas for window types relative to the types an exhaustive exploration realized
// (docs/WINDOWS.md §3d). rho(t) holds at a position (at EOS, for an EOS type) of a word exactly
// when its type is t, provided every type of every word is realized: by induction on the level,
// each conjunct's truth at a realized position depends only on its type, and the conjuncts chosen
// exclude every other realized type of t's level and kind. An EOS type's rho has no letter test,
// so it also holds at a position exactly when the word before the position has that EOS type.
// cover(t, others) excludes only `others`. Levels with more than kMaxRealized types use the full
// characteristic formula (the greedy choice is quadratic in them).
class Covers {
public:
    // bits [0, letters) of a level-0 mask are the letters before the position (P a), the bits from
    // `letters` on the formulas `marks` (nested marks, docs/WINDOWS.md §3d)
    Covers(WindowTypes& types, const std::vector<std::string>& alphabet, std::size_t letters,
           std::vector<ltl::Formula> marks)
        : t_(types), a_(alphabet), letters_(letters), marks_(std::move(marks)) {}
    void realize(long t, bool eos) {
        for (;;) {
            auto& lv = (eos ? eos_ : pos_)[type_level(t_, t)];
            if (!lv.insert(t).second) return;
            if (t_.sig[std::size_t(t)][0] == -2) return;
            t = t_.sig[std::size_t(t)][0];
        }
    }
    ltl::Formula rho(long t, bool eos) {
        auto& memo = eos ? rho_eos_ : rho_pos_;
        if (auto it = memo.find(t); it != memo.end()) return it->second;
        const auto& lv = (eos ? eos_ : pos_)[type_level(t_, t)];
        ltl::Formula f;
        if (lv.size() > kMaxRealized) {
            f = cover(t, {}, eos, true);
        } else {
            std::vector<long> others;
            for (long g : lv)
                if (g != t) others.push_back(g);
            f = cover(t, others, eos);
        }
        memo.emplace(t, f);
        return f;
    }
    // all: every conjunct (the characteristic formula itself, for levels too large to choose in)
    ltl::Formula cover(long t, const std::vector<long>& others, bool eos, bool all = false) {
        const auto& sg = t_.sig[std::size_t(t)];
        CoverCandidates cands{others.size(), {}, {}};
        auto add = [&](ltl::Formula f, auto&& excludes) {
            cands.add(f, [&](std::size_t i) { return excludes(t_.sig[std::size_t(others[i])]); });
        };
        if (sg[0] == -2) {
            if (!eos) add(ltl::Formula::atom(a_[std::size_t(sg[1])]), [&](const auto& g) { return g[1] != sg[1]; });
            if (sg.size() == 3)  // the letters before the position (P a / !P a), then the marks
                for (std::size_t b = 0; b < letters_ + marks_.size(); ++b) {
                    const bool on = (sg[2] >> b) & 1;
                    const ltl::Formula m =
                        b < letters_ ? ltl::Formula::past(ltl::Formula::atom(a_[b])) : marks_[b - letters_];
                    add(on ? m : ltl::Formula::neg(m),
                        [&](const auto& g) { return g.size() == 3 && bool((g[2] >> b) & 1) != on; });
                }
        } else {
            add(rho(sg[0], eos), [&](const auto& g) { return g[0] != sg[0]; });
            const std::vector<long> S(sg.begin() + 1, sg.end());
            for (long si : S)
                add(ltl::Formula::bounded_yesterday(rho(si, false), t_.k),
                    [&](const auto& g) { return !std::binary_search(g.begin() + 1, g.end(), si); });
            ltl::Formula any = ltl::Formula::ff();
            for (std::size_t i = 0; i < S.size(); ++i) any = i ? ltl::Formula::disj(any, rho(S[i], false)) : rho(S[i], false);
            add(ltl::Formula::neg(ltl::Formula::bounded_yesterday(ltl::Formula::neg(any), t_.k)),
                [&](const auto& g) { return !std::includes(S.begin(), S.end(), g.begin() + 1, g.end()); });
        }
        if (all) return cands.all();
        const auto f = cands.cover();
        return f ? *f : cands.all();  // (cannot fail: distinct signatures differ in a conjunct)
    }

private:
    static constexpr std::size_t kMaxRealized = 4000;
    WindowTypes& t_;
    const std::vector<std::string>& a_;
    std::size_t letters_;
    std::vector<ltl::Formula> marks_;
    std::map<unsigned, std::set<long>> pos_, eos_;
    std::unordered_map<long, ltl::Formula> rho_pos_, rho_eos_;
};

}  // namespace

UpsetSearchReport search_upsets(const Dfa& minimal, unsigned k, unsigned max_depth, std::size_t max_states,
                                std::size_t formula_cap) {
    UpsetSearchReport rep;
    const std::size_t sigma = minimal.num_symbols();
    const std::vector<std::string> sets = closed_sets(minimal);
    if (sigma == 0 || sigma > 30 || sets.empty()) return rep;  // letter sets are bit masks
    rep.applicable = true;
    rep.sets = sets.size();
    // The sets whose "entered" formula is known, in the order found. The formula holds at EOS when
    // the word entered the set, and at a position when the word before it did (docs/WINDOWS.md §3d).
    struct Entered {
        std::size_t set;
        ltl::Formula formula;
        UpsetSearchReport::Exploration by;  // the exploration in which Lemma 5 held (marks: indices into known)
    };
    std::vector<Entered> known;
    auto is_known = [&](std::size_t ui) {
        return std::any_of(known.begin(), known.end(), [&](const Entered& e) { return e.set == ui; });
    };
    for (unsigned D = 1; D <= max_depth; ++D)
        for (int pass = 0; pass < 4; ++pass) {
            // passes: the marks at the top of a position's key only, then also inside its type
            // (nested: the windows see their positions' marks; stronger, larger formulas); each
            // with plain window types, then with the letters before each position (enrich)
            const bool enrich = pass % 2 == 1, nested = pass >= 2;
            const std::size_t letter_bits = enrich ? sigma : 0;
            bool grew = true;
            while (grew) {
                grew = false;
                if (budget_exhausted()) return rep;
                // Marks: the known sets that contain a set not known yet. A position's key is its
                // window type together with the marks of the state before it (the word before it
                // entered the set); EOS's, with the marks of the last state.
                std::vector<std::size_t> marks;
                for (std::size_t i = 0; i < known.size() && marks.size() < kMaxMarks; ++i) {
                    const std::string& Up = sets[known[i].set];
                    bool useful = false;
                    for (std::size_t ui = 0; ui < sets.size() && !useful; ++ui) {
                        if (is_known(ui)) continue;
                        bool sub = true;
                        for (std::size_t v = 0; v < Up.size() && sub; ++v) sub = !sets[ui][v] || Up[v];
                        useful = sub;
                    }
                    if (useful) marks.push_back(i);
                }
                if (nested && marks.empty()) break;  // the same as the pass before
                // The product of the DFA with the window types of the last k positions (levels
                // 0..D-1) and, in the second pass, the set of letters read so far (a letter's
                // level-0 type then carries the letters before it).
                WindowTypes types{k, sigma, {}, {}};
                WindowTypeStep tw{types, D};
                const std::vector<long>& fresh = tw.fresh;
                const std::size_t W = std::size_t(D) * k;
                std::unordered_map<std::vector<long>, std::int32_t, LongVecHash> index;
                std::vector<std::vector<long>> states;
                std::vector<long> init(W + 1 + (enrich ? 1 : 0), -1);
                init[0] = static_cast<long>(minimal.initial);
                if (enrich) init[W + 1] = 0;
                index.emplace(init, 0);
                states.push_back(init);
                // per state: its level-D EOS type; per transition (state · sigma + letter): the
                // level-D type of the position read and the successor
                std::vector<long> eos, step_type;
                std::vector<std::int32_t> step_to;
                std::vector<long> nx(init.size());
                auto level0 = [&](const std::vector<long>& st) {  // the level-0 annotation, -1: none
                    long m = enrich ? st[W + 1] : 0;
                    if (nested)
                        for (std::size_t i = 0; i < marks.size(); ++i)
                            if (sets[known[marks[i]].set][std::size_t(st[0])]) m |= 1L << (letter_bits + i);
                    return enrich || nested ? m : -1L;
                };
                bool limit = false;
                for (std::size_t si = 0; si < states.size() && !limit; ++si) {
                    const std::vector<long> st = states[si];  // a copy: states grows below
                    const long ann = level0(st);
                    tw.levels(st, static_cast<long>(sigma), ann);
                    eos.push_back(fresh[D]);
                    for (std::size_t c = 0; c < sigma; ++c) {
                        tw.levels(st, static_cast<long>(c), ann);
                        step_type.push_back(fresh[D]);
                        nx[0] = static_cast<long>(minimal.delta[std::size_t(st[0]) * sigma + c]);
                        tw.shift(st, nx);
                        if (enrich) nx[W + 1] = st[W + 1] | (1L << c);
                        auto it = index.find(nx);
                        if (it == index.end()) {
                            if (rep.states + states.size() >= max_states || budget_charge_bytes(product_state_bytes(nx.size()))) {
                                limit = true;
                                break;
                            }
                            it = index.emplace(nx, std::int32_t(states.size())).first;
                            states.push_back(nx);
                        }
                        step_to.push_back(it->second);
                    }
                }
                rep.states += states.size();
                if (limit) return rep;
                const std::size_t N = states.size();
                auto dfa_state = [&](std::size_t si) { return std::size_t(states[si][0]); };
                std::vector<long> mask(N, 0);
                for (std::size_t si = 0; si < N; ++si)
                    for (std::size_t i = 0; i < marks.size(); ++i)
                        if (sets[known[marks[i]].set][dfa_state(si)]) mask[si] |= 1L << i;
                auto key = [](long t, long m) { return t * kMarkSpan + m; };
                auto key_type = [](long key) { return key / kMarkSpan; };
                auto key_mask = [](long key) { return key % kMarkSpan; };
                std::vector<ltl::Formula> nested_marks;
                if (nested)
                    for (std::size_t i : marks) nested_marks.push_back(known[i].formula);
                Covers covers(types, minimal.alphabet, letter_bits, nested_marks);
                for (long e : eos) covers.realize(e, true);
                for (long t : step_type) covers.realize(t, false);
                // A key and its coarser levels (the first component of a level-j signature is the
                // level-(j-1) type), finest first; the marks stay.
                auto chain = [&](long kt) {
                    std::vector<long> c{key_type(kt)};
                    while (types.sig[std::size_t(c.back())][0] != -2) c.push_back(types.sig[std::size_t(c.back())][0]);
                    for (long& t : c) t = key(t, key_mask(kt));
                    return c;
                };
                auto coarsest = [&](long kt, const std::set<long>& seen) {
                    const std::vector<long> c = chain(kt);
                    for (auto it = c.rbegin(); it != c.rend(); ++it)
                        if (!seen.count(*it)) return *it;
                    return kt;
                };
                // The marks of a key as a formula (the known sets' formulas, or their negations).
                auto mark_formula = [&](long m) {
                    std::vector<ltl::Formula> lits;
                    for (std::size_t i = 0; i < marks.size(); ++i) {
                        const ltl::Formula& f = known[marks[i]].formula;
                        lits.push_back(((m >> i) & 1) ? f : ltl::Formula::neg(f));
                    }
                    return ltl::conjunction(lits);
                };
                // ⋁ over `keys` of a formula that holds at the key and at no key of `others` at its
                // level: grouped by marks, so that each mark formula is written once per group.
                auto keys_formula = [&](const std::set<long>& keys, const std::set<long>& others, bool at_eos) {
                    std::map<long, std::set<long>> by_mask;
                    for (long kt : keys) by_mask[key_mask(kt)].insert(key_type(kt));
                    std::vector<ltl::Formula> groups;
                    for (const auto& [m, ts] : by_mask) {
                        std::map<unsigned, std::vector<long>> rivals;  // same marks, by level
                        for (long o : others)
                            if (key_mask(o) == m) rivals[type_level(types, key_type(o))].push_back(key_type(o));
                        ltl::Formula body =
                            disjoin(ts, [&](long t) { return covers.cover(t, rivals[type_level(types, t)], at_eos); });
                        groups.push_back(ltl::simplified_conj(mark_formula(m), body));
                    }
                    return ltl::disjunction(groups);
                };
                // Lemma 4 (docs/WINDOWS.md §3c) for each set not known yet.
                for (std::size_t ui = 0; ui < sets.size(); ++ui) {
                    if (is_known(ui)) continue;
                    if (budget_charge(1 + N * sigma / kItemsPerPoll)) return rep;  // a pass over the product
                    const std::string& U = sets[ui];
                    std::set<long> seen, seen_eos, G, G_eos, bad, bad_eos;  // seen: every level; G: level D
                    for (std::size_t si = 0; si < N; ++si) {
                        if (U[dfa_state(si)]) continue;
                        G_eos.insert(key(eos[si], mask[si]));
                        for (std::size_t c = 0; c < sigma; ++c) {
                            const std::size_t e = si * sigma + c;
                            if (!U[dfa_state(std::size_t(step_to[e]))]) G.insert(key(step_type[e], mask[si]));
                        }
                    }
                    for (long kt : G)
                        for (long t : chain(kt)) seen.insert(t);
                    for (long kt : G_eos)
                        for (long t : chain(kt)) seen_eos.insert(t);
                    // Every continuation of an entry into U while its positions' keys lie in G.
                    std::vector<char> visited(N, 0);
                    std::vector<std::size_t> queue;
                    auto follow = [&](std::size_t si, std::size_t c) {
                        const std::size_t e = si * sigma + c;
                        const long kp = key(step_type[e], mask[si]);
                        if (!G.count(kp)) {
                            bad.insert(coarsest(kp, seen));
                            return;
                        }
                        const std::size_t to = std::size_t(step_to[e]);
                        if (!visited[to]) visited[to] = 1, queue.push_back(to);
                    };
                    for (std::size_t si = 0; si < N; ++si)
                        if (!U[dfa_state(si)])
                            for (std::size_t c = 0; c < sigma; ++c)
                                if (U[dfa_state(std::size_t(step_to[si * sigma + c]))]) follow(si, c);
                    bool holds = true;
                    for (std::size_t qi = 0; qi < queue.size() && holds; ++qi) {
                        const std::size_t si = queue[qi];
                        const long ke = key(eos[si], mask[si]);
                        if (G_eos.count(ke)) holds = false;  // a word in U whose keys all lie in G's
                        else bad_eos.insert(coarsest(ke, seen_eos));
                        for (std::size_t c = 0; c < sigma && holds; ++c) follow(si, c);
                    }
                    if (!holds) continue;
                    // Lemma 4's formula: a position, or EOS, with a key that words avoiding U never
                    // show. EOS keys' formulas test no letter, and the marks hold at a position when
                    // they hold at the EOS of the word before it: so at a position the formula says
                    // that the word before it entered U.
                    ltl::Formula f = ltl::Formula::disj(ltl::Formula::past(keys_formula(bad, seen, false)),
                                                        keys_formula(bad_eos, seen_eos, true));
                    known.push_back({ui, f, {D, enrich, nested, marks}});
                    grew = true;
                }
                // Membership as a function of (the known sets the run is in, EOS key): a set is
                // entered iff the run's state lies in it (it is closed).
                std::map<std::string, std::map<long, int>> points;  // known sets holding the state -> EOS key -> 1 rej | 2 acc
                bool function = true;
                for (std::size_t si = 0; si < N && function; ++si) {
                    std::string in(known.size(), '\0');
                    for (std::size_t i = 0; i < known.size(); ++i) in[i] = sets[known[i].set][dfa_state(si)];
                    int& m = points[in][key(eos[si], mask[si])];
                    m |= minimal.accepting[dfa_state(si)] ? 2 : 1;
                    function = m != 3;
                }
                if (!function) continue;  // with new sets (grew): explore again with their marks
                if (!rep.holds) {  // the proof, before its formula is built
                    rep.holds = true;
                    rep.chain.clear();
                    for (const Entered& e : known)
                        rep.chain.push_back({std::vector<char>(sets[e.set].begin(), sets[e.set].end()), e.by});
                    rep.decision = {D, enrich, nested, marks};
                    rep.depth = D;
                    rep.entered = known.size();
                    rep.past_letters = enrich;
                    rep.nested_marks = nested;
                }
                // A decision tree: split on "entered U" until the EOS keys alone decide the points left.
                auto leaf = [&](const std::map<long, int>& m) {
                    std::set<long> acc, rej;
                    for (const auto& [e, v] : m) (v == 2 ? acc : rej).insert(e);
                    if (acc.empty()) return ltl::Formula::ff();
                    if (rej.empty()) return ltl::Formula::tt();
                    ltl::Formula pa = keys_formula(acc, rej, true);
                    ltl::Formula pr = ltl::Formula::neg(keys_formula(rej, acc, true));
                    return ltl::tree_size(pa) <= ltl::tree_size(pr) ? pa : pr;
                };
                std::function<ltl::Formula(const std::vector<const std::string*>&)> tree =
                    [&](const std::vector<const std::string*>& group) {
                        std::map<long, int> merged;
                        bool consistent = true;
                        for (const auto* g : group)
                            for (const auto& [e, v] : points.at(*g)) consistent = (merged[e] |= v) != 3 && consistent;
                        if (consistent) return leaf(merged);
                        for (std::size_t i = 0; i < known.size(); ++i) {
                            std::vector<const std::string*> in, out;
                            for (const auto* g : group) ((*g)[i] ? in : out).push_back(g);
                            if (!in.empty() && !out.empty())
                                return ltl::if_then_else(known[i].formula, tree(in), tree(out));
                        }
                        return ltl::Formula();  // cannot happen: distinct keys differ in some set
                    };
                std::vector<const std::string*> all;
                for (const auto& [k2, m] : points) all.push_back(&k2);
                ltl::Formula f = tree(all);
                if (f.is_null()) continue;
                auto ok = formula_defines(f, minimal, nullptr);
                if (!ok || !*ok) return rep;  // a compile limit (or a bug, caught here)
                const std::size_t size = ltl::tree_size(f);
                if (rep.formula.is_null() || size < ltl::tree_size(rep.formula)) {
                    rep.formula = f;
                    rep.depth = D;
                    rep.entered = known.size();
                    rep.past_letters = enrich;
                    rep.nested_marks = nested;
                }
                if (formula_cap == 0 || size <= formula_cap) return rep;
                // Over the cap (it could not be printed): the next passes start afresh, since the
                // formulas of the sets known so far are part of this one.
                known.clear();
                break;
            }
        }
    return rep;  // none, or the smallest found over the cap
}

}  // namespace ltlkit::automata::algebra
