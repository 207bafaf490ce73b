// Bounded-depth EOS types for LTL[Y<=k] / LTL[P,Y<=k] (see depth_probe.hh, docs/WINDOWS.md §4).
#include "automata/algebra/depth_probe.hh"

#include <algorithm>
#include <cstdint>
#include <map>
#include <vector>

#include "automata/algebra/budget.hh"
#include "automata/algebra/flat_interner.hh"
#include "automata/algebra/windows.hh"
#include "automata/random.hh"
#include "ltl/builder.hh"

namespace ltlkit::automata::algebra {

namespace {

using Vec = std::vector<std::int32_t>;

using Interner = FlatInterner<std::int32_t>;  // flat_interner.hh: sequences of ids in one pool

// Sets of type ids (sorted, interned), with memoized insertion in an open-addressing table.
class SetTable {
public:
    SetTable() { sets_(Vec{}); }  // id 0 = the empty set
    std::int32_t add(std::int32_t set, std::int32_t t) {
        const std::uint64_t key = (std::uint64_t(std::uint32_t(set)) << 32) | std::uint32_t(t);
        if (2 * (memo_used_ + 1) > memo_.size()) grow_memo();
        std::size_t i = slot_of(key);
        if (memo_[i].second >= 0) return memo_[i].second;
        const auto [p, n] = sets_.get(set);
        scratch_.assign(p, p + n);
        auto pos = std::lower_bound(scratch_.begin(), scratch_.end(), t);
        if (pos == scratch_.end() || *pos != t) scratch_.insert(pos, t);
        const std::int32_t id = sets_(scratch_);
        memo_[i] = {key, id};
        ++memo_used_;
        return id;
    }
    // The bytes held: the sets and about two memo slots (16 bytes each) per entry (for the budget).
    std::size_t bytes() const { return sets_.bytes() + 32 * memo_used_; }
    Vec members(std::int32_t set) const {
        const auto [p, n] = sets_.get(set);
        return Vec(p, p + n);
    }

private:
    std::size_t slot_of(std::uint64_t key) const {
        std::size_t i = static_cast<std::size_t>(splitmix64(key)) & (memo_.size() - 1);
        while (memo_[i].second >= 0 && memo_[i].first != key) i = (i + 1) & (memo_.size() - 1);
        return i;
    }
    void grow_memo() {
        std::vector<std::pair<std::uint64_t, std::int32_t>> old(std::max<std::size_t>(1024, memo_.size() * 2), {0, -1});
        old.swap(memo_);
        for (const auto& e : old)
            if (e.second >= 0) memo_[slot_of(e.first)] = e;
    }
    Interner sets_;
    std::vector<std::pair<std::uint64_t, std::int32_t>> memo_;  // (set, type) -> set ∪ {type}; -1 = free
    std::size_t memo_used_ = 0;
    Vec scratch_;
};

// The type of a position at depth j >= 1 from its label, the depth-(j-1) types of its window (in
// any order, duplicates allowed; -1 = no position) and the id of the set of depth-(j-1) types
// strictly before it (-1 without the past modality).
std::int32_t type_of(Interner& types, unsigned j, std::int32_t label, const std::int32_t* window, unsigned k,
                     std::int32_t past_set) {
    thread_local Vec sig;
    sig.clear();
    sig.push_back(static_cast<std::int32_t>(j));
    sig.push_back(label);
    sig.push_back(past_set);
    const std::size_t first = sig.size();
    for (unsigned i = 0; i < k; ++i)
        if (window[i] >= 0) sig.push_back(window[i]);
    std::sort(sig.begin() + static_cast<std::ptrdiff_t>(first), sig.end());
    sig.erase(std::unique(sig.begin() + static_cast<std::ptrdiff_t>(first), sig.end()), sig.end());
    return types(sig);
}

// The explored product states, stored flat (L ids per state, numbered in discovery order) with an
// open-addressing index of their numbers: no allocation per state, about 4·L + 16 bytes each.
class StateStore {
public:
    explicit StateStore(std::size_t width) : width_(width), slots_(1024, -1) {}
    std::size_t size() const { return count_; }
    // The bytes held: the states and about two index slots per state (for the budget).
    std::size_t bytes() const { return (4 * width_ + 8) * count_; }
    const std::int32_t* at(std::int32_t id) const { return &pool_[static_cast<std::size_t>(id) * width_]; }
    // The number of `s`, or -1 when it has not been stored.
    std::int32_t find(const std::int32_t* s) const {
        for (std::size_t i = hash(s) & mask(); ; i = (i + 1) & mask()) {
            const std::int32_t id = slots_[i];
            if (id < 0 || std::equal(s, s + width_, at(id))) return id;
        }
    }
    // Stores `s` (not yet stored) and returns its number.
    std::int32_t add(const std::int32_t* s) {
        if (2 * (count_ + 1) > slots_.size()) grow();
        const auto id = static_cast<std::int32_t>(count_++);
        pool_.insert(pool_.end(), s, s + width_);
        place(id);
        return id;
    }

private:
    std::size_t mask() const { return slots_.size() - 1; }
    std::size_t hash(const std::int32_t* s) const {
        std::uint64_t h = 0x9e3779b97f4a7c15ULL ^ width_;
        for (std::size_t i = 0; i < width_; ++i) {
            h ^= static_cast<std::uint32_t>(s[i]) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
            h *= 0xff51afd7ed558ccdULL;
        }
        return static_cast<std::size_t>(h ^ (h >> 33));
    }
    void place(std::int32_t id) {
        std::size_t i = hash(at(id)) & mask();
        while (slots_[i] >= 0) i = (i + 1) & mask();
        slots_[i] = id;
    }
    void grow() {
        slots_.assign(slots_.size() * 2, -1);
        for (std::size_t id = 0; id < count_; ++id) place(static_cast<std::int32_t>(id));
    }
    std::size_t width_, count_ = 0;
    std::vector<std::int32_t> pool_;
    std::vector<std::int32_t> slots_;
};

}  // namespace

// The probe of both entry points (depth_probe.hh). With past_letters, the EOS label carries the set S
// of the word's letters (a bit mask), σ + (σ+1)·S, and with every_position each position's label the
// set of letters strictly before it, c + (σ+1)·S; the set is the last slot of a state.
// With state_labels, an EOS type is labelled by the DFA state the word reaches instead of its
// acceptance (a conflict: two states, one type), and the formulas are one per state; the product
// states whose DFA state is `avoid` are neither recorded nor expanded (their words do not count).
static DepthProbe probe(const Dfa& dfa, unsigned k, bool hybrid, bool past_letters, bool every_position, unsigned depth,
                        std::size_t max_states, bool build_formula, std::size_t max_formula_types,
                        const std::vector<std::int32_t>* labels = nullptr, State avoid = kNoAvoid) {
    const bool state_labels = labels != nullptr;
    const std::size_t label_count =
        state_labels && !labels->empty() ? static_cast<std::size_t>(*std::max_element(labels->begin(), labels->end())) + 1 : 0;
    DepthProbe out;
    out.depth = depth;
    const std::size_t sigma = dfa.num_symbols();
    const auto eos_label = static_cast<std::int32_t>(sigma);
    const auto stride = static_cast<std::int32_t>(sigma + 1);
    // Without every_position only the EOS label carries the set (a position's set is then 0).
    auto label_of = [&](std::int32_t letter, std::int32_t set) {
        return past_letters && (every_position || letter == eos_label) ? letter + stride * set : letter;
    };
    Interner types;
    SetTable sets;
    // State layout: [q, window(level 0..depth-1) k slots each (oldest first), past set id per level].
    // States are numbered in breadth-first discovery order, so the queue is the range of numbers
    // not yet expanded.
    const std::size_t W = std::size_t(depth) * k, L = 1 + W + (hybrid ? depth : 0) + (past_letters ? 1 : 0);
    StateStore states(L);
    std::vector<std::pair<std::int32_t, std::int32_t>> parent;  // (state, symbol)
    Vec init(L, -1);
    init[0] = static_cast<std::int32_t>(dfa.initial);
    if (hybrid)
        for (unsigned j = 0; j < depth; ++j) init[1 + W + j] = 0;
    if (past_letters) init[L - 1] = 0;
    states.add(init.data());
    parent.emplace_back(-1, -1);
    // EOS types met: per type id, 0 = not met, else 1 + its label (0 = rejected, 1 = accepted, or
    // with state_labels the DFA state); the product state that met it first; and the types met, in order.
    std::vector<std::int32_t> eos_label_of;
    std::vector<std::int32_t> eos_state, eos_seen;
    auto word_of = [&](std::int32_t s) {
        Word w;
        while (parent[static_cast<std::size_t>(s)].first >= 0) {
            w.push_back(static_cast<Symbol>(parent[static_cast<std::size_t>(s)].second));
            s = parent[static_cast<std::size_t>(s)].first;
        }
        std::reverse(w.begin(), w.end());
        return w;
    };
    std::vector<std::int32_t> fresh(depth), level0(sigma);
    for (std::size_t c = 0; c < sigma; ++c) level0[c] = types(Vec{0, static_cast<std::int32_t>(c)});
    auto level0_of = [&](std::int32_t label) {
        return past_letters ? types(Vec{0, label}) : level0[static_cast<std::size_t>(label)];
    };
    Vec st(L), nx(L);
    // The work clock pays for the memory the probe holds (states, types, sets, parents; budget.hh):
    // each expanded state charges the bytes grown since the previous charge, one poll per
    // kBytesPerPoll, less those that the poll of each new state paid for (so a state costs
    // max(1, its bytes / kBytesPerPoll) polls). Its CPU time follows the bytes (0.5–1.5 µs per
    // poll at depths 3 and 4 of either fragment; docs/PERFORMANCE.md, "Every window strategy under
    // the default budget").
    std::size_t charged_bytes = 0;
    auto held_bytes = [&] { return states.bytes() + types.bytes() + sets.bytes() + 8 * parent.size(); };
    for (std::size_t next = 0; next < states.size(); ++next) {
        const auto si = static_cast<std::int32_t>(next);
        if (const std::size_t held = held_bytes(); held >= charged_bytes + kBytesPerPoll) {
            const std::size_t polls = (held - charged_bytes) / kBytesPerPoll;
            charged_bytes += polls * kBytesPerPoll;
            if (budget_charge(polls)) {
                out.status = DepthProbe::Status::Limit;
                out.states = states.size();
                out.eos_types = eos_seen.size();
                return out;
            }
        }
        std::copy_n(states.at(si), L, st.begin());  // a copy: the store grows below
        if (avoid != kNoAvoid && static_cast<State>(st[0]) == avoid) continue;
        // EOS type at depth `depth` (depth >= 1; depth 0 would be the EOS label alone).
        const std::int32_t set = past_letters ? st[L - 1] : 0;
        std::int32_t eos =
            depth == 0 ? (past_letters ? level0_of(label_of(eos_label, set)) : eos_label)
                       : type_of(types, depth, label_of(eos_label, set), &st[1 + std::size_t(depth - 1) * k], k,
                                 hybrid ? st[1 + W + depth - 1] : -1);
        const std::int32_t mark = 1 + (state_labels ? (*labels)[static_cast<std::size_t>(st[0])]
                                                    : dfa.accepting[static_cast<std::size_t>(st[0])] != 0);
        const auto e = static_cast<std::size_t>(eos);
        if (e >= eos_label_of.size()) {  // a new type id (or, at depth 0, the EOS label)
            eos_label_of.resize(std::max(e + 1, types.size()), 0);
            eos_state.resize(eos_label_of.size(), -1);
        }
        if (eos_label_of[e] == 0) {
            eos_label_of[e] = mark;
            eos_state[e] = si;
            eos_seen.push_back(eos);
        } else if (eos_label_of[e] != mark) {
            out.status = DepthProbe::Status::Conflict;
            Word a = word_of(eos_state[e]), b = word_of(si);
            if (!state_labels && eos_label_of[e] != 2) std::swap(a, b);
            out.accepted = std::move(a);
            out.rejected = std::move(b);
            out.states = states.size();
            out.eos_types = eos_seen.size();
            return out;
        }
        for (std::size_t c = 0; c < sigma; ++c) {
            nx[0] = static_cast<std::int32_t>(dfa.delta[static_cast<std::size_t>(st[0]) * sigma + c]);
            // The new position's types, level by level (from the old windows and past sets).
            const std::int32_t label = label_of(static_cast<std::int32_t>(c), set);
            for (unsigned j = 0; j < depth; ++j)
                fresh[j] = j == 0 ? level0_of(label)
                                  : type_of(types, j, label, &st[1 + std::size_t(j - 1) * k], k,
                                            hybrid ? st[1 + W + j - 1] : -1);
            if (past_letters) nx[L - 1] = set | (std::int32_t(1) << c);
            for (unsigned j = 0; j < depth; ++j) {
                const std::size_t base = 1 + std::size_t(j) * k;
                for (unsigned i = 0; i + 1 < k; ++i) nx[base + i] = st[base + i + 1];
                nx[base + k - 1] = fresh[j];
                if (hybrid) nx[1 + W + j] = sets.add(st[1 + W + j], fresh[j]);
            }
            if (states.find(nx.data()) >= 0) continue;
            if (states.size() >= max_states || budget_exhausted()) {
                out.status = DepthProbe::Status::Limit;
                out.states = states.size();
                out.eos_types = eos_seen.size();
                return out;
            }
            states.add(nx.data());
            parent.emplace_back(si, static_cast<std::int32_t>(c));
            charged_bytes += kBytesPerPoll;  // its poll paid for kBytesPerPoll of what it holds
        }
    }
    out.status = DepthProbe::Status::Separates;
    out.states = states.size();
    out.eos_types = eos_seen.size();
    // The types the formula refers to: the EOS types met and, transitively, the types of their
    // windows and past sets. Each has its own characteristic formula (distinct signatures give
    // distinct conjunctions), so the formula has at least that many distinct subformulas; over
    // max_formula_types it is not built (the formulas are interned for the process's lifetime).
    // At depth 0 every word's EOS type is the EOS label alone (not an interned type): the language
    // is empty or universal, and its formula a constant.
    if (depth == 0 && !past_letters) {
        out.formula_types = 1;
        const std::int32_t only = eos_label_of.size() > static_cast<std::size_t>(eos_label) ? eos_label_of[static_cast<std::size_t>(eos_label)] : 0;
        if (build_formula && state_labels) {
            out.state_formulas.assign(label_count, ltl::Formula::ff());
            if (only > 0) out.state_formulas[static_cast<std::size_t>(only - 1)] = ltl::Formula::tt();
        } else if (build_formula) {
            out.formula = only == 2 ? ltl::Formula::tt() : ltl::Formula::ff();
        }
        return out;
    }
    std::vector<std::uint8_t> used(types.size(), 0);
    {
        std::vector<std::int32_t> stack(eos_seen.begin(), eos_seen.end());
        for (std::int32_t t : stack) used[static_cast<std::size_t>(t)] = 1;
        while (!stack.empty()) {
            const std::int32_t t = stack.back();
            stack.pop_back();
            ++out.formula_types;
            const auto [first, length] = types.get(t);
            if (first[0] == 0) continue;
            auto visit = [&](std::int32_t u) {
                if (!used[static_cast<std::size_t>(u)]) used[static_cast<std::size_t>(u)] = 1, stack.push_back(u);
            };
            for (std::size_t i = 3; i < length; ++i) visit(first[i]);
            if (first[2] >= 0)
                for (std::int32_t u : sets.members(first[2])) visit(u);
        }
    }
    if (build_formula && (max_formula_types == 0 || out.formula_types <= max_formula_types)) {
        std::vector<ltl::Formula> chi(types.size());
        std::vector<ltl::Formula> letter(sigma);
        for (std::size_t c = 0; c < sigma; ++c) letter[c] = ltl::Formula::atom(dfa.alphabet[c]);
        const auto any = [](const std::vector<ltl::Formula>& fs) { return ltl::disjunction(fs); };
        // With past_letters: the letter of a label (σ for EOS) and "exactly the letters of S occur
        // strictly before": P b for b in S, ¬P b for the others.
        auto letter_of = [&](std::int32_t label) { return past_letters ? label % stride : label; };
        auto annotation = [&](std::int32_t label) {
            std::vector<ltl::Formula> parts;
            const std::int32_t set = label / stride;
            for (std::size_t b = 0; b < sigma; ++b)
                parts.push_back((set >> b) & 1 ? ltl::Formula::past(letter[b]) : ltl::Formula::neg(ltl::Formula::past(letter[b])));
            return parts;
        };
        // Children are interned before their parents, so ids increase along every signature:
        // one pass in id order builds every formula after those it refers to.
        for (std::size_t id = 0; id < chi.size(); ++id) {
            if (!used[id]) continue;
            const auto [first, length] = types.get(static_cast<std::int32_t>(id));
            const Vec v(first, first + length);
            std::vector<ltl::Formula> parts;
            if (letter_of(v[1]) != eos_label) parts.push_back(letter[static_cast<std::size_t>(letter_of(v[1]))]);
            if (past_letters && (every_position || letter_of(v[1]) == eos_label))
                for (ltl::Formula f : annotation(v[1])) parts.push_back(f);
            if (v[0] == 0) {
                chi[id] = ltl::conjunction(parts);
                continue;
            }
            auto all_and_only = [&](const Vec& members, auto&& modality) {
                std::vector<ltl::Formula> alts;
                for (std::int32_t t : members) {
                    alts.push_back(chi[static_cast<std::size_t>(t)]);
                    parts.push_back(modality(chi[static_cast<std::size_t>(t)]));
                }
                parts.push_back(ltl::Formula::neg(modality(ltl::Formula::neg(any(alts)))));
            };
            all_and_only(Vec(v.begin() + 3, v.end()), [&](ltl::Formula f) { return ltl::Formula::bounded_yesterday(f, k); });
            if (v[2] >= 0)
                all_and_only(sets.members(v[2]), [](ltl::Formula f) { return ltl::Formula::past(f); });
            chi[id] = ltl::conjunction(parts);
        }
        if (state_labels) {
            std::vector<std::vector<ltl::Formula>> by_state(label_count);
            for (std::int32_t t : eos_seen)
                by_state[static_cast<std::size_t>(eos_label_of[static_cast<std::size_t>(t)] - 1)].push_back(chi[static_cast<std::size_t>(t)]);
            for (auto& fs : by_state) {
                std::sort(fs.begin(), fs.end(), [](ltl::Formula a, ltl::Formula b) { return a.id() < b.id(); });
                out.state_formulas.push_back(any(fs));
            }
            return out;
        }
        std::vector<ltl::Formula> acc, rej;
        for (std::int32_t t : eos_seen)
            (eos_label_of[static_cast<std::size_t>(t)] == 2 ? acc : rej).push_back(chi[static_cast<std::size_t>(t)]);
        auto by_id = [](ltl::Formula a, ltl::Formula b) { return a.id() < b.id(); };
        std::sort(acc.begin(), acc.end(), by_id);
        std::sort(rej.begin(), rej.end(), by_id);
        out.formula = acc.size() <= rej.size() ? any(acc) : ltl::Formula::neg(any(rej));
    }
    return out;
}

DepthProbe probe_depth(const Dfa& dfa, unsigned k, bool hybrid, unsigned depth, std::size_t max_states,
                       bool build_formula, std::size_t max_formula_types) {
    return probe(dfa, k, hybrid, false, false, depth, max_states, build_formula, max_formula_types);
}

DepthProbe probe_depth_past_letters(const Dfa& dfa, unsigned k, unsigned depth, bool every_position, std::size_t max_states,
                                    bool build_formula, std::size_t max_formula_types) {
    if (dfa.num_symbols() > kMaxPastLetters) {
        DepthProbe out;
        out.depth = depth;
        return out;  // Status::Limit
    }
    return probe(dfa, k, false, true, every_position, depth, max_states, build_formula, max_formula_types);
}

DepthProbe probe_depth_states(const Dfa& dfa, const std::vector<std::int32_t>& labels, State avoid, unsigned k, unsigned depth,
                              std::size_t max_states, bool build_formula, std::size_t max_formula_types) {
    return probe(dfa, k, false, false, false, depth, max_states, build_formula, max_formula_types, &labels, avoid);
}

bool eos_depth_types_equal(const Word& u, const Word& v, unsigned k, bool hybrid, unsigned depth) {
    // Straight from the definition, level by level on each word; type ids are shared by both words
    // through one table of (level, label, window types, past types) signatures (ordered sets).
    std::map<std::vector<long>, long> ids;
    auto intern = [&](std::vector<long> s) { return ids.emplace(std::move(s), long(ids.size())).first->second; };
    auto eos_type = [&](const Word& w) {
        const std::size_t n = w.size();
        auto label = [&](std::size_t i) { return i < n ? long(w[i]) : -1L; };
        std::vector<long> t(n + 1);
        for (std::size_t i = 0; i <= n; ++i) t[i] = intern({0, label(i)});
        for (unsigned j = 1; j <= depth; ++j) {
            std::vector<long> next(n + 1);
            std::vector<long> before;  // sorted set of earlier types
            for (std::size_t i = 0; i <= n; ++i) {
                std::vector<long> win(t.begin() + static_cast<std::ptrdiff_t>(i >= k ? i - k : 0),
                                      t.begin() + static_cast<std::ptrdiff_t>(i));
                std::sort(win.begin(), win.end());
                win.erase(std::unique(win.begin(), win.end()), win.end());
                std::vector<long> sig{long(j), label(i), long(win.size())};
                sig.insert(sig.end(), win.begin(), win.end());
                if (hybrid) sig.insert(sig.end(), before.begin(), before.end());
                next[i] = intern(std::move(sig));
                auto pos = std::lower_bound(before.begin(), before.end(), t[i]);
                if (pos == before.end() || *pos != t[i]) before.insert(pos, t[i]);
            }
            t = std::move(next);
        }
        return t[n];
    };
    return eos_type(u) == eos_type(v);
}

}  // namespace ltlkit::automata::algebra
