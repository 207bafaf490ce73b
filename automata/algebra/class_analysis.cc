// The analyses the class deciders share (docs/CLASSES.md §1–2): DfaAnalysis on the minimal DFA
// (SCCs, reachability, the pair graph, separating words) and SemigroupAnalysis on its syntactic
// semigroup (Green's classes, idempotents, local monoids).
#include "automata/algebra/classes.hh"

#include <algorithm>
#include <deque>
#include <limits>
#include <numeric>

#include "automata/algebra/class_support.hh"
#include "automata/algebra/scc.hh"

namespace ltlkit::automata::algebra {

namespace {

using detail::cat;
using detail::fw;

inline std::size_t tri(State p, State q) {  // p < q
    return std::size_t(q) * (q - 1) / 2 + p;
}

}  // namespace

std::vector<State> transformation_of(const Dfa& d, const Word& w) {
    std::vector<State> t(d.num_states());
    for (std::size_t q = 0; q < t.size(); ++q) t[q] = d.run(State(q), w);
    return t;
}

// ---------------------------------------------------------------- DfaAnalysis

DfaAnalysis::DfaAnalysis(const Dfa& minimal) : dfa_(minimal) {
    const std::size_t n = minimal.num_states(), k = minimal.num_symbols();
    // SCCs of the transition graph, numbered in reverse topological order.
    num_scc_ = strong_components(n, k, [&](std::uint32_t q, std::size_t a) {
        return std::int64_t(minimal.next(State(q), Symbol(a)));
    }, scc_);
    std::vector<std::size_t> size(num_scc_, 0);
    for (auto c : scc_) ++size[c];
    on_cycle_.assign(n, 0);
    for (std::size_t q = 0; q < n; ++q) {
        if (size[scc_[q]] > 1) on_cycle_[q] = 1;
        for (std::size_t a = 0; a < k; ++a)
            if (minimal.next(State(q), Symbol(a)) == q) on_cycle_[q] = 1;
    }
}

// Up to kDenseReachScc SCCs (8 MiB of bits), the whole reachability relation bottom-up. Above, one
// row per queried source SCC by a search from it, so that memory stays linear in the queries; once
// more than kLazyRows sources have been asked and the whole relation fits in kDenseReachBytes, it is
// computed after all.
constexpr std::size_t kDenseReachScc = 8192;
constexpr std::size_t kDenseReachBytes = std::size_t(256) << 20;
constexpr std::size_t kLazyRows = 64;
constexpr std::size_t kReachRowWords = std::size_t(1) << 24;  // cached lazy rows, in 64-bit words

void DfaAnalysis::compute_reach() {
    if (!reach_.empty()) return;
    if (num_scc_ > kDenseReachScc) {
        reach_.assign(num_scc_, {});
        return;
    }
    compute_dense_reach();
}

void DfaAnalysis::compute_dense_reach() {
    const std::size_t words = (num_scc_ + 63) / 64;
    reach_.assign(num_scc_, std::vector<std::uint64_t>(words, 0));
    std::vector<std::vector<std::uint32_t>> succ(num_scc_);
    for (std::size_t q = 0; q < n(); ++q)
        for (std::size_t a = 0; a < dfa_.num_symbols(); ++a) {
            auto c = scc_[q], d = scc_[dfa_.next(State(q), Symbol(a))];
            if (c != d) succ[c].push_back(d);
        }
    // Successor SCCs have smaller numbers (Tarjan finishes them first).
    for (std::size_t c = 0; c < num_scc_; ++c) {
        reach_[c][c / 64] |= std::uint64_t(1) << (c % 64);
        for (auto d : succ[c])
            for (std::size_t i = 0; i < words; ++i) reach_[c][i] |= reach_[d][i];
    }
}

bool DfaAnalysis::reaches(State p, State q) {
    const auto c = scc_[p], d = scc_[q];
    if (c == d) return true;
    if (c < d) return false;  // successors have smaller SCC numbers
    compute_reach();
    if (reach_[c].empty()) {
        const std::size_t words = (num_scc_ + 63) / 64;
        if (++lazy_rows_asked_ > kLazyRows && num_scc_ * words * 8 <= kDenseReachBytes) {
            compute_dense_reach();
            return (reach_[c][d / 64] >> (d % 64)) & 1;
        }
        if ((reach_rows_ + 1) * words > kReachRowWords) {
            for (auto& row : reach_) std::vector<std::uint64_t>().swap(row);
            reach_rows_ = 0;
        }
        std::vector<std::uint64_t> row(words, 0);
        std::vector<char> seen(n(), 0);
        std::vector<State> todo{p};
        seen[p] = 1;
        while (!todo.empty()) {
            const State x = todo.back();
            todo.pop_back();
            row[scc_[x] / 64] |= std::uint64_t(1) << (scc_[x] % 64);
            for (std::size_t a = 0; a < dfa_.num_symbols(); ++a)
                if (const State y = dfa_.next(x, Symbol(a)); !seen[y]) seen[y] = 1, todo.push_back(y);
        }
        reach_[c] = std::move(row);
        ++reach_rows_;
    }
    return (reach_[c][d / 64] >> (d % 64)) & 1;
}

// The SCCs of the graph of unordered pairs {p ≠ q} with edges {p,q} -> {p·a, q·a} when p·a ≠ q·a
// (searched in place: strong_components on its successor function), and its longest path when it
// is acyclic.
// With `blocks`, only the pairs of states that lie on cycles, and only the edges that keep each
// state in its SCC: a cycle of the pair graph stays in SCC(p) × SCC(q) (p·w = p, q·w = q), so the
// pairs on cycles are the same, and a partially ordered part of the DFA costs nothing. Without it,
// the whole graph, and the longest path when it is acyclic.
void DfaAnalysis::compute_pairs(bool blocks) {
    if (pairs_mode_ == 2 || (pairs_mode_ == 1 && blocks)) return;
    pairs_mode_ = blocks ? 1 : 2;
    pair_states_.clear();
    for (std::size_t q = 0; q < this->n(); ++q)
        if (!blocks || on_cycle_[q]) pair_states_.push_back(State(q));
    std::vector<std::int64_t> at(this->n(), -1);
    for (std::size_t i = 0; i < pair_states_.size(); ++i) at[pair_states_[i]] = std::int64_t(i);
    const std::size_t n = pair_states_.size(), k = dfa_.num_symbols();
    if (n < 2) {
        pair_cyclic_.clear();
        longest_ = 0;
        return;
    }
    const std::size_t P = n * (n - 1) / 2;
    if (blocks && num_scc_ == this->n() && k <= 64) {
        // Every SCC is one state: the only edges kept are the self-loops {p,q} -> {p,q} of the
        // letters that fix both p and q.
        std::vector<std::uint64_t> fixes(n, 0);
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t a = 0; a < k; ++a)
                if (dfa_.next(pair_states_[i], Symbol(a)) == pair_states_[i]) fixes[i] |= std::uint64_t(1) << a;
        pair_cyclic_.assign(P, 0);
        for (std::size_t j = 1; j < n; ++j)
            for (std::size_t i = 0; i < j; ++i) pair_cyclic_[tri(State(i), State(j))] = (fixes[i] & fixes[j]) != 0;
        return;
    }
    auto unpack = [&](std::size_t v, State& p, State& q) {
        // q = largest with q(q-1)/2 <= v
        std::size_t qq = std::size_t((1 + std::sqrt(1.0 + 8.0 * double(v))) / 2);
        while (qq * (qq - 1) / 2 > v) --qq;
        while ((qq + 1) * qq / 2 <= v) ++qq;
        q = State(qq);
        p = State(v - qq * (qq - 1) / 2);
    };
    auto succ = [&](std::uint32_t v, std::size_t a) -> std::int64_t {
        State i, j;
        unpack(v, i, j);
        const State p = pair_states_[i], q = pair_states_[j];
        const State x = dfa_.next(p, Symbol(a)), y = dfa_.next(q, Symbol(a));
        if (x == y) return -1;
        if (blocks && (scc_[x] != scc_[p] || scc_[y] != scc_[q])) return -1;
        State ix = State(at[x]), iy = State(at[y]);
        if (ix > iy) std::swap(ix, iy);
        return std::int64_t(tri(ix, iy));
    };
    std::vector<std::uint32_t> comp;
    const std::size_t num_comp = strong_components(P, k, succ, comp);
    // A pair lies on a cycle iff its component has another pair or a letter loops it.
    pair_cyclic_.assign(P, 0);
    {
        std::vector<std::uint32_t> size(num_comp, 0);
        for (std::size_t v = 0; v < P; ++v) ++size[comp[v]];
        for (std::size_t v = 0; v < P; ++v) {
            if (size[comp[v]] > 1) {
                pair_cyclic_[v] = 1;
                continue;
            }
            for (std::size_t a = 0; a < k && !pair_cyclic_[v]; ++a)
                if (succ(std::uint32_t(v), a) == std::int64_t(v)) pair_cyclic_[v] = 1;
        }
    }
    if (blocks) return;
    if (num_comp < P || std::find(pair_cyclic_.begin(), pair_cyclic_.end(), 1) != pair_cyclic_.end()) return;
    // Acyclic: every pair is its own component and every edge leads to a smaller component number,
    // so the longest paths follow in increasing component order.
    std::vector<std::uint32_t> by_comp(P), lp(P, 0);
    for (std::size_t v = 0; v < P; ++v) by_comp[comp[v]] = std::uint32_t(v);
    comp = {};
    std::uint32_t longest = 0;
    for (const std::uint32_t v : by_comp) {
        for (std::size_t a = 0; a < k; ++a)
            if (const std::int64_t y = succ(v, a); y >= 0) lp[v] = std::max(lp[v], lp[std::size_t(y)] + 1);
        longest = std::max(longest, lp[v]);
    }
    longest_ = longest;
}

std::optional<std::size_t> DfaAnalysis::pair_graph_longest_path_by_tarjan() {
    compute_pairs(false);
    return longest_;
}

std::optional<std::size_t> DfaAnalysis::pair_graph_longest_path() {
    if (n() < 2) return 0;
    auto d = definite_degree_by_merging();
    if (!d) return std::nullopt;
    return *d - 1;
}

std::optional<std::size_t> DfaAnalysis::definite_degree_by_merging() {
    if (merged_) return merge_degree_;
    merged_ = true;
    const std::size_t n = this->n(), k = dfa_.num_symbols();
    if (n < 2) return merge_degree_ = 0;
    // Predecessors (CSR).
    std::vector<std::uint32_t> start(n + 1, 0), pred(n * k);
    for (std::size_t q = 0; q < n; ++q)
        for (std::size_t a = 0; a < k; ++a) ++start[dfa_.next(State(q), Symbol(a)) + 1];
    for (std::size_t q = 0; q < n; ++q) start[q + 1] += start[q];
    {
        std::vector<std::uint32_t> fill(start.begin(), start.end() - 1);
        for (std::size_t q = 0; q < n; ++q)
            for (std::size_t a = 0; a < k; ++a) pred[fill[dfa_.next(State(q), Symbol(a))]++] = std::uint32_t(q);
    }
    std::vector<std::uint32_t> label(n), parent(n);
    std::vector<std::vector<std::uint32_t>> members(n);
    for (std::size_t q = 0; q < n; ++q) label[q] = parent[q] = std::uint32_t(q), members[q] = {std::uint32_t(q)};
    auto find = [&](std::uint32_t c) {
        while (parent[c] != c) c = parent[c] = parent[parent[c]];
        return c;
    };
    struct RowHash {
        std::size_t operator()(const std::vector<std::uint32_t>& v) const noexcept {
            std::uint64_t h = 0x9e3779b97f4a7c15ULL;
            for (auto x : v) h = (h ^ x) * 0xff51afd7ed558ccdULL, h ^= h >> 29;
            return std::size_t(h);
        }
    };
    // Row (successor classes per letter) -> a class with that row; entries whose row names a
    // class merged away are never matched again.
    std::unordered_map<std::vector<std::uint32_t>, std::uint32_t, RowHash> table;
    table.reserve(2 * n);
    std::vector<std::uint32_t> dirty(n), next_dirty;
    std::iota(dirty.begin(), dirty.end(), 0u);
    std::vector<std::uint8_t> marked(n, 0);
    std::vector<std::uint32_t> row(k);
    std::vector<std::pair<std::uint32_t, std::uint32_t>> merges;
    std::size_t live = n, rounds = 0;
    while (!dirty.empty() && live > 1) {
        ++rounds;
        merges.clear();
        for (std::uint32_t c : dirty) {
            marked[c] = 0;
            if (find(c) != c) continue;
            const std::uint32_t q = members[c][0];
            for (std::size_t a = 0; a < k; ++a) row[a] = label[dfa_.next(State(q), Symbol(a))];
            auto [it, fresh] = table.try_emplace(row, c);
            if (!fresh) merges.emplace_back(c, it->second);
        }
        next_dirty.clear();
        for (auto [x, y] : merges) {
            x = find(x), y = find(y);
            if (x == y) continue;
            if (members[x].size() < members[y].size()) std::swap(x, y);
            parent[y] = x;
            --live;
            for (std::uint32_t m : members[y]) {
                label[m] = x;
                members[x].push_back(m);
                for (std::uint32_t i = start[m]; i < start[m + 1]; ++i) {
                    const std::uint32_t c = find(label[pred[i]]);
                    if (!marked[c]) marked[c] = 1, next_dirty.push_back(c);
                }
            }
            std::vector<std::uint32_t>().swap(members[y]);
        }
        for (auto& c : next_dirty) c = find(c);
        dirty.swap(next_dirty);
    }
    if (live == 1) merge_degree_ = rounds;
    return merge_degree_;
}

std::vector<std::pair<State, State>> DfaAnalysis::c_nodes(const std::function<bool(State, State)>& want, bool first) {
    std::vector<std::pair<State, State>> out;
    if (definite_degree_by_merging()) return out;  // the pair graph is acyclic: no pair lies on a cycle
    const std::size_t n = this->n(), k = dfa_.num_symbols();
    if (first) {
        // Fast test: periodic points of one letter's map. Two points on one cycle of length c
        // are looped by a^c; two fixed points by a.
        for (std::size_t a = 0; a < k; ++a) {
            std::vector<std::uint8_t> state(n, 0);  // 0 new, 1 on current path, 2 done
            std::vector<State> fixed;
            for (std::size_t s0 = 0; s0 < n; ++s0) {
                if (state[s0]) continue;
                std::vector<State> pathv;
                State x = State(s0);
                while (!state[x]) {
                    state[x] = 1;
                    pathv.push_back(x);
                    x = dfa_.next(x, Symbol(a));
                }
                if (state[x] == 1) {  // a new cycle starting at x
                    std::vector<State> cyc;
                    State y = x;
                    do {
                        cyc.push_back(y);
                        y = dfa_.next(y, Symbol(a));
                    } while (y != x);
                    if (cyc.size() == 1) fixed.push_back(x);
                    else {
                        for (std::size_t i = 1; i < cyc.size(); ++i) {
                            State p = std::min(cyc[0], cyc[i]), q = std::max(cyc[0], cyc[i]);
                            if (want(p, q)) {
                                fast_loops_[{p, q}] = Word(cyc.size(), Symbol(a));
                                out.emplace_back(p, q);
                                return out;
                            }
                        }
                    }
                }
                for (State z : pathv) state[z] = 2;
            }
            std::size_t tries = 0;
            for (std::size_t i = 0; i < fixed.size() && tries < 4096; ++i)
                for (std::size_t j = i + 1; j < fixed.size() && tries < 4096; ++j, ++tries) {
                    State p = std::min(fixed[i], fixed[j]), q = std::max(fixed[i], fixed[j]);
                    if (want(p, q)) {
                        fast_loops_[{p, q}] = Word{Symbol(a)};
                        out.emplace_back(p, q);
                        return out;
                    }
                }
        }
    }
    compute_pairs(true);
    const std::size_t m = pair_cyclic_.empty() ? 0 : pair_states_.size();
    for (State j = 1; j < m; ++j)
        for (State i = 0; i < j; ++i)
            if (pair_cyclic_[tri(i, j)] && want(pair_states_[i], pair_states_[j])) {
                out.emplace_back(pair_states_[i], pair_states_[j]);
                if (first) return out;
            }
    return out;
}

Word DfaAnalysis::loop_word(State p, State q) {
    if (p > q) std::swap(p, q);
    if (auto it = fast_loops_.find({p, q}); it != fast_loops_.end()) return it->second;
    // BFS on ordered pairs from (p, q) back to (p, q).
    const std::size_t n = this->n(), k = dfa_.num_symbols();
    std::unordered_map<std::uint64_t, std::pair<std::uint64_t, Symbol>> parent;
    std::deque<std::uint64_t> queue;
    const std::uint64_t start = std::uint64_t(p) * n + q;
    queue.push_back(start);
    parent[start] = {start, 0};
    bool first_step = true;
    while (!queue.empty()) {
        std::uint64_t v = queue.front();
        queue.pop_front();
        State x = State(v / n), y = State(v % n);
        for (std::size_t a = 0; a < k; ++a) {
            State x2 = dfa_.next(x, Symbol(a)), y2 = dfa_.next(y, Symbol(a));
            if (x2 == y2) continue;
            std::uint64_t w = std::uint64_t(x2) * n + y2;
            if (w == start) {
                Word word{Symbol(a)};
                for (std::uint64_t c = v; c != start || (first_step && false);) {
                    if (c == start) break;
                    auto [pr, sym] = parent[c];
                    word.push_back(sym);
                    c = pr;
                }
                std::reverse(word.begin(), word.end());
                return word;
            }
            if (parent.count(w)) continue;
            parent[w] = {v, Symbol(a)};
            queue.push_back(w);
        }
        first_step = false;
    }
    return {};
}

std::optional<Word> DfaAnalysis::path(State from, State to) const {
    if (from == to) return Word{};
    const std::size_t n = this->n(), k = dfa_.num_symbols();
    std::vector<std::int64_t> parent(n, -1);
    std::vector<Symbol> via(n, 0);
    std::deque<State> queue{from};
    parent[from] = from;
    while (!queue.empty()) {
        State x = queue.front();
        queue.pop_front();
        for (std::size_t a = 0; a < k; ++a) {
            State y = dfa_.next(x, Symbol(a));
            if (parent[y] >= 0) continue;
            parent[y] = x;
            via[y] = Symbol(a);
            if (y == to) {
                Word w;
                for (State c = to; c != from; c = State(parent[c])) w.push_back(via[c]);
                std::reverse(w.begin(), w.end());
                return w;
            }
            queue.push_back(y);
        }
    }
    return std::nullopt;
}

Word DfaAnalysis::separator(State p, State q) const {
    return separator_within(p, q, std::numeric_limits<std::size_t>::max()).value_or(Word{});
}

std::optional<Word> DfaAnalysis::separator_within(State p, State q, std::size_t max_pairs) const {
    if (dfa_.is_accepting(p) != dfa_.is_accepting(q)) return Word{};
    const std::size_t n = this->n(), k = dfa_.num_symbols();
    std::unordered_map<std::uint64_t, std::pair<std::uint64_t, Symbol>> parent;
    std::deque<std::uint64_t> queue;
    const std::uint64_t start = std::uint64_t(p) * n + q;
    parent[start] = {start, 0};
    queue.push_back(start);
    while (!queue.empty()) {
        std::uint64_t v = queue.front();
        queue.pop_front();
        for (std::size_t a = 0; a < k; ++a) {
            State x = dfa_.next(State(v / n), Symbol(a)), y = dfa_.next(State(v % n), Symbol(a));
            std::uint64_t w = std::uint64_t(x) * n + y;
            if (parent.count(w)) continue;
            if (parent.size() >= max_pairs) return std::nullopt;
            parent[w] = {v, Symbol(a)};
            if (dfa_.is_accepting(x) != dfa_.is_accepting(y)) {
                Word word;
                for (std::uint64_t c = w; c != start; c = parent[c].first) word.push_back(parent[c].second);
                std::reverse(word.begin(), word.end());
                return word;
            }
            queue.push_back(w);
        }
    }
    return {};  // p, q equivalent: not a minimal DFA
}

std::optional<std::pair<Word, Word>> separating_context(const Dfa& d, const Word& w1, const Word& w2) {
    DfaAnalysis A(d);
    for (std::size_t q = 0; q < d.num_states(); ++q) {
        State a = d.run(State(q), w1), b = d.run(State(q), w2);
        if (a == b) continue;
        auto c = A.path(d.initial, State(q));
        if (!c) continue;
        // A concrete pair is an extra of the certificate: not worth a quadratic search of the pairs.
        auto sep_found = A.separator_within(a, b, 64 * d.num_states() * std::max<std::size_t>(d.num_symbols(), 1));
        if (!sep_found) return std::nullopt;
        const Word& sep = *sep_found;
        Word u = cat({&*c, &w1, &sep}), v = cat({&*c, &w2, &sep});
        if (d.accepts(u) == d.accepts(v)) continue;
        if (!d.accepts(u)) std::swap(u, v);
        return std::make_pair(u, v);
    }
    return std::nullopt;
}

// ---------------------------------------------------------------- SemigroupAnalysis

Result<std::unique_ptr<SemigroupAnalysis>> SemigroupAnalysis::of(const Dfa& minimal, std::size_t max_elements) {
    SemigroupOptions o;
    o.max_elements = max_elements;
    auto s = TransitionSemigroup::of_dfa(minimal, o);
    if (!s) return s.error();
    auto a = std::unique_ptr<SemigroupAnalysis>(new SemigroupAnalysis{minimal, std::move(s.value()), {}, {}, 0});
    a->green = green_classes(a->s);
    a->idempotents = a->s.idempotents();
    if (a->s.size() > 0) a->kernel = minimal_ideal(a->s, a->green);
    return a;
}

std::vector<Element> SemigroupAnalysis::idempotent_per_d_class() const {
    std::vector<Element> out;
    std::vector<char> seen(green.num_j, 0);
    for (Element e : idempotents)
        if (!seen[green.j[e]]) seen[green.j[e]] = 1, out.push_back(e);
    return out;
}

std::vector<Element> SemigroupAnalysis::local_monoid(Element e) const {
    const std::size_t n = s.size(), k = s.num_generators();
    auto reach = [&](bool right) {
        std::vector<char> seen(n, 0);
        std::vector<Element> todo{e};
        seen[e] = 1;
        while (!todo.empty()) {
            Element x = todo.back();
            todo.pop_back();
            for (std::size_t a = 0; a < k; ++a) {
                Element y = right ? s.right(x, Symbol(a)) : s.left(x, Symbol(a));
                if (!seen[y]) seen[y] = 1, todo.push_back(y);
            }
        }
        return seen;
    };
    auto r = reach(true), l = reach(false);
    std::vector<Element> out;
    for (Element x = 0; x < n; ++x)
        if (r[x] && l[x]) out.push_back(x);
    return out;
}

}  // namespace ltlkit::automata::algebra
