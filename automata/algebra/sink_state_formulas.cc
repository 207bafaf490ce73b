// "yes" for a language decided by entering a sink state (docs/WINDOWS.md §3c): G = the window types
// of the positions of words that avoid the sink; when every word that enters it shows a type
// outside G (or an EOS type outside those of G's words), "entered" is a formula over those types.
#include "automata/algebra/window_strategies.hh"

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include "automata/algebra/budget.hh"
#include "automata/algebra/flat_interner.hh"
#include "ltl/builder.hh"

namespace ltlkit::automata::algebra {

using namespace window_strategies;

namespace {

// A weakening of chi(t) for a level-j type t (docs/WINDOWS.md §3c, step 4): a greedy choice among
// its conjuncts (its letter, its level-(j-1) type, one "Y<=k chi(s)" per window type s, "nothing
// else in the window") that still excludes every type of `others` (level-j types other than t,
// indexed by `index`), then without the conjuncts that the others cover. It holds wherever t does
// and, like chi(t), only depends on the level-j type. `eos`: t is an EOS type, evaluated only at EOS
// (no letter conjunct).
ltl::Formula weakened_chi(WindowTypes& types, long t, const std::vector<long>& others, const OthersIndex& index,
                          bool eos, const std::vector<std::string>& alphabet) {
    const unsigned j = type_level(types, t);
    if (j == 0) return types.formula(t, alphabet);
    // past the budget the caller discards the formula: nothing more to build
    if (budget_exhausted()) return ltl::Formula::tt();
    const long own = types.sig[std::size_t(t)][0];
    const std::vector<long> S = type_window(types, t);
    CoverCandidates cands{others.size(), {}, {}};
    if (!eos) {
        const long ground = type_ground(types, t);
        cands.add_column(types.formula(ground, alphabet), index.differs(index.ground, ground));
    }
    if (j >= 2 || eos) cands.add_column(types.formula(own, alphabet), index.differs(index.own, own));
    for (long si : S)
        cands.add_column(ltl::Formula::bounded_yesterday(types.formula(si, alphabet), types.k), index.differs(index.member, si));
    const std::set<long> Sset(S.begin(), S.end());
    cands.add(ltl::Formula::neg(ltl::Formula::bounded_yesterday(
                  ltl::Formula::neg(disjoin(Sset, [&](long si) { return types.formula(si, alphabet); })), types.k)),
              [&](std::size_t i) {
                  const auto& w = types.sig[std::size_t(others[i])];  // [own type, window types...] (sorted after the first)
                  return !std::includes(S.begin(), S.end(), w.begin() + 1, w.end());
              });
    const auto f = cands.cover();
    return f ? *f : types.formula(t, alphabet);  // (cannot fail: together they are chi(t))
}

}  // namespace

SinkSearchReport search_sink(const Dfa& minimal, unsigned k, unsigned max_depth, std::size_t max_states, bool extended,
                             std::size_t formula_cap) {
    SinkSearchReport rep;
    const std::size_t sigma = minimal.num_symbols(), n = minimal.num_states();
    std::optional<std::size_t> sink;
    for (std::size_t q = 0; q < n && !sink; ++q) {
        bool loops = true;
        for (std::size_t c = 0; c < sigma; ++c) loops = loops && minimal.delta[q * sigma + c] == q;
        if (loops) sink = q;
    }
    if (!sink || *sink == minimal.initial || sigma == 0) return rep;
    const bool sink_acc = minimal.accepting[*sink] != 0;
    bool uniform = true;
    for (std::size_t q = 0; q < n; ++q)
        if (q != *sink && (minimal.accepting[q] != 0) == sink_acc) uniform = false;
    if (!uniform && !extended) return rep;
    if (extended && sigma > 30) return rep;  // the letter sets are bit masks
    rep.applicable = true;
    const long s = static_cast<long>(*sink);
    bool stop = false;
    for (unsigned D = 1; D <= max_depth && !stop && !budget_exhausted(); ++D)
      for (int enrich = 0; enrich < 2 && !stop; ++enrich) {
        // the plain pass (window types) unless the extended call repeats the first call's work; the
        // extended call adds letters annotated with the set of letters before them
        if ((enrich && !extended) || (!enrich && extended && uniform)) continue;
        WindowTypes types{k, sigma, {}, {}};
        const std::size_t W = std::size_t(D) * k;
        // layout: [q, level 0 window (k, oldest first), ..., level D-1 window(, letters so far)]
        // the product states met, in one pool (flat_interner.hh), each with the state and letter it
        // was reached from
        FlatInterner<long> states;
        std::vector<std::pair<std::int32_t, std::int32_t>> parent;
        std::vector<long> cur, tmp;  // copies of a state: the pool grows while it is read
        std::vector<long> init(W + 1 + (enrich ? 1 : 0), -1);
        init[0] = static_cast<long>(minimal.initial);
        if (enrich) init[W + 1] = 0;
        states.intern(init);
        parent.emplace_back(-1, -1);
        WindowTypeStep tw{types, D};
        const std::vector<long>& fresh = tw.fresh;
        std::vector<long> nx(init.size());
        auto levels = [&](const std::vector<long>& st, long label) { tw.levels(st, label, enrich ? st[W + 1] : -1); };
        auto successor = [&](const std::vector<long>& st, long q, std::size_t c) {
            nx[0] = q;
            tw.shift(st, nx);
            if (enrich) nx[W + 1] = st[W + 1] | (1L << c);
        };
        auto word_of = [&](std::int32_t x) { return word_from_parents(parent, x); };
        bool limit = false;
        auto push = [&](std::size_t from, std::size_t c) {
            if (states.find(nx.data(), nx.size()) >= 0) return;
            if (rep.states + states.size() >= max_states || budget_charge_bytes(FlatInterner<long>::bytes_of(nx.size()))) {
                limit = true;
                return;
            }
            states.intern(nx);
            parent.emplace_back(std::int32_t(from), std::int32_t(c));
        };
        // Phase 1: the words that avoid the sink; G and G_EOS. Entries into the sink wait for phase 2.
        // seen / seen_eos hold their types of every level 0..D (ids are distinct across levels, so
        // the level-D ones are G and G_EOS), so that a type outside them can be reported at its
        // coarsest level, which keeps the P form short.
        std::set<long> seen, seen_eos, bad, bad_eos;
        std::map<long, int> eos_membership;  // level-D EOS type of words avoiding the sink -> 1 rejected | 2 accepted
        auto coarsest = [&](const std::set<long>& in) {
            unsigned j = 0;
            while (j < D && in.count(fresh[j])) ++j;
            return fresh[j];
        };
        std::vector<std::pair<std::size_t, std::size_t>> entries;
        // With both acceptances besides the sink, the pass fails as soon as one EOS type of a word
        // avoiding the sink is met accepted and rejected: the rest of the exploration cannot help.
        bool undecided = false;
        for (std::size_t si = 0; si < states.size() && !limit && !undecided; ++si) {
            states.copy(std::int32_t(si), cur);
            const std::vector<long>& st = cur;
            levels(st, static_cast<long>(sigma));
            seen_eos.insert(fresh.begin(), fresh.end());
            undecided = (eos_membership[fresh[D]] |= minimal.accepting[std::size_t(st[0])] ? 2 : 1) == 3;
            for (std::size_t c = 0; c < sigma && !limit; ++c) {
                const long q = static_cast<long>(minimal.delta[std::size_t(st[0]) * sigma + c]);
                if (q == s) {
                    entries.emplace_back(si, c);
                    continue;
                }
                levels(st, static_cast<long>(c));
                seen.insert(fresh.begin(), fresh.end());
                successor(st, q, c);
                push(si, c);
            }
        }
        if (undecided) {
            rep.states += states.size();
            continue;
        }
        // Phase 2: from each entry on, every continuation until its first type outside G / G_EOS.
        const std::size_t phase2 = states.size();
        auto step = [&](std::size_t si, std::size_t c) {
            states.copy(std::int32_t(si), tmp);
            const std::vector<long>& st = tmp;
            levels(st, static_cast<long>(c));
            if (!seen.count(fresh[D])) {
                bad.insert(coarsest(seen));
                return;
            }
            successor(st, s, c);
            push(si, c);
        };
        for (const auto& [si, c] : entries) {
            if (limit) break;
            step(si, c);
        }
        bool conflict = false;
        for (std::size_t si = phase2; si < states.size() && !limit && !conflict; ++si) {
            states.copy(std::int32_t(si), cur);
            levels(cur, static_cast<long>(sigma));
            if (seen_eos.count(fresh[D])) {
                conflict = true;
                // a word that avoids the sink with the same EOS type, for the report
                const long e = fresh[D];
                for (std::size_t sj = 0; sj < phase2; ++sj) {
                    states.copy(std::int32_t(sj), cur);
                    levels(cur, static_cast<long>(sigma));
                    if (e == fresh[D]) {
                        rep.conflict = std::make_pair(word_of(std::int32_t(si)), word_of(std::int32_t(sj)));
                        rep.conflict_depth = D;
                        break;
                    }
                }
                break;
            }
            bad_eos.insert(coarsest(seen_eos));
            for (std::size_t c = 0; c < sigma && !limit; ++c) step(si, c);
        }
        rep.states += states.size();
        if (limit) {
            stop = true;
            break;
        }
        if (conflict) continue;
        // with both acceptances besides the sink: the EOS type must decide the words that avoid it
        bool decided = true;
        for (const auto& [e, m] : eos_membership) decided = decided && m != 3;
        if (!decided || entries.empty()) continue;
        // Lemma 4's hypothesis holds: a proof whether or not the formula below is built in time and
        // compiles back within the cap (docs/WINDOWS.md §3c, "Without a formula").
        rep.holds = true;
        rep.depth = D;
        rep.good = 0;
        for (const std::set<long>* g : {&seen, &seen_eos})
            for (long t : *g) rep.good += type_level(types, t) == D;
        rep.bad = bad.size() + bad_eos.size();
        rep.past_letters = enrich != 0;
        rep.mixed = !uniform;
        rep.sink_word = word_of(entries.front().first);
        rep.sink_word.push_back(static_cast<Symbol>(entries.front().second));
        // "entered the sink": A = P(V weakened bad) | V weakened bad_eos, or B = !(H(V G) & V G_EOS).
        auto chi = [&](long t) { return types.formula(t, minimal.alphabet); };
        std::map<unsigned, std::vector<long>> by_level, eos_by_level;  // the types of seen / seen_eos
        for (long t : seen) by_level[type_level(types, t)].push_back(t);
        for (long t : seen_eos) eos_by_level[type_level(types, t)].push_back(t);
        // the others of each level, indexed once for all the types of the level (OthersIndex)
        std::map<std::pair<bool, unsigned>, OthersIndex> indexes;
        auto weakened = [&](long t, bool eos) {
            const unsigned j = type_level(types, t);
            if (j == 0) return types.formula(t, minimal.alphabet);  // nothing to weaken: no index needed
            const std::vector<long>& others = (eos ? eos_by_level : by_level)[j];
            auto it = indexes.find({eos, j});
            if (it == indexes.end()) it = indexes.emplace(std::pair(eos, j), OthersIndex(types, others)).first;
            return weakened_chi(types, t, others, it->second, eos, minimal.alphabet);
        };
        const std::vector<long>& G = by_level[D];
        const std::vector<long>& G_eos = eos_by_level[D];
        ltl::Formula a = ltl::Formula::disj(
            ltl::Formula::past(disjoin(bad, [&](long t) { return weakened(t, false); })),
            disjoin(bad_eos, [&](long t) { return weakened(t, true); }));
        ltl::Formula b = ltl::Formula::neg(ltl::Formula::conj(
            ltl::Formula::historically(disjoin(std::set<long>(G.begin(), G.end()), chi)),
            disjoin(std::set<long>(G_eos.begin(), G_eos.end()), chi)));
        ltl::Formula f = ltl::tree_size(a) <= ltl::tree_size(b) ? a : b;  // "entered the sink"
        if (uniform) {
            if (!sink_acc) f = ltl::Formula::neg(f);
        } else {
            // membership of the words that avoid the sink: their EOS types, accepted or (negated) rejected
            std::set<long> acc, rej;
            for (const auto& [e, m] : eos_membership) (m == 2 ? acc : rej).insert(e);
            ltl::Formula pa = disjoin(acc, chi), pr = ltl::Formula::neg(disjoin(rej, chi));
            ltl::Formula psi = ltl::tree_size(pa) <= ltl::tree_size(pr) ? pa : pr;
            f = sink_acc ? ltl::Formula::disj(f, psi) : ltl::Formula::conj(ltl::Formula::neg(f), psi);
        }
        if (budget_exhausted() || (formula_cap && ltl::tree_size(f) > formula_cap)) return rep;
        auto ok = formula_defines(f, minimal, nullptr);
        if (ok && *ok) rep.formula = f;
        // else a compile limit (or a bug, which the checker's own exploration and the tests catch)
        return rep;
    }
    return rep;
}

}  // namespace ltlkit::automata::algebra
