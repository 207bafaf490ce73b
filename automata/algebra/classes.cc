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

namespace ltlkit::automata::algebra {

namespace {

std::string fw(const Dfa& d, const Word& w) { return w.empty() ? std::string("ε") : format_word(d.alphabet, w); }

Word cat(std::initializer_list<const Word*> parts) {
    Word w;
    for (const Word* p : parts) w.insert(w.end(), p->begin(), p->end());
    return w;
}

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

// ---------------------------------------------------------------- certificates helpers

namespace {

Certificate base(const std::string& id, bool member, CertificateKind kind, const std::string& fact) {
    Certificate c;
    c.class_id = id;
    c.member = member;
    c.kind = kind;
    c.fact = fact;
    return c;
}

// An identity violation: words named in `words` (e-words stand for the ω-power of their
// transformation), re-checked by the certificate checker on transformations.
Certificate violation(const Dfa& d, const std::string& id, const std::string& identity, const std::string& fact,
                      const std::vector<std::pair<std::string, Word>>& words) {
    Certificate c = base(id, false, CertificateKind::IdentityViolation, fact);
    nlohmann::json w = nlohmann::json::object();
    for (const auto& [name, word] : words) w[name] = format_word(d.alphabet, word);
    nlohmann::json extra = {{"identity", identity}, {"words", w}};
    c.extra_json = extra.dump();
    return c;
}

ClassDecision yes(Certificate c) { return ClassDecision{true, std::move(c)}; }
ClassDecision no(Certificate c) { return ClassDecision{false, std::move(c)}; }

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
        Certificate c = base("definite", false, CertificateKind::SuffixFamily,
                             "states " + std::to_string(p) + " and " + std::to_string(q) + " share the loop " + fw(d, w) +
                                 ", so x·p^r·y and x2·p^r·y (x, x2 reach them, y separates them) end in the same " +
                                 "r·|p|+|y| symbols yet differ in membership for every r: no definite language (of any " +
                                 "degree d, hence no LTL[Y] formula) separates them for r·|p|+|y| ≥ d");
        c.family = f;
        return no(c);
    }
    auto lp = A.pair_graph_longest_path();
    const std::size_t degree = A.n() <= 1 ? 0 : 1 + *lp;
    Certificate c = base("definite", true, CertificateKind::PairGraphAcyclic,
                         "the graph on pairs of distinct states is acyclic (longest path " + std::to_string(lp.value_or(0)) +
                             " edges): membership of words of length ≥ " + std::to_string(degree) +
                             " depends only on their last " + std::to_string(degree) + " symbols");
    c.extra_json = nlohmann::json{{"degree", degree}}.dump();
    return yes(c);
}

ClassDecision definite_by_semigroup(const SemigroupAnalysis& S) {
    for (Element e : S.idempotents)
        for (std::size_t a = 0; a < S.s.num_generators(); ++a)
            if (S.s.left(e, Symbol(a)) != e)
                return no(violation(S.dfa, "definite", "x_e", "x·e ≠ e for the idempotent e (identity x·y^ω = y^ω fails)",
                                    {{"e", S.s.word(e)}, {"x", Word{Symbol(a)}}}));
    return yes(base("definite", true, CertificateKind::SemigroupIdentity, "x·e = e for every idempotent e of the syntactic semigroup"));
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
                Certificate c = base("r_trivial", false, CertificateKind::RFamily,
                                     "states " + std::to_string(s) + " and " + std::to_string(t) +
                                         " lie in one SCC (u = " + fw(d, u) + ", v = " + fw(d, v) +
                                         "): x(uv)^r y and x(uv)^r u y differ in membership for every r, while " +
                                         "(uv)^ω u = (uv)^ω in every R-trivial monoid, so no LTL[P] formula separates them for large r");
                c.family = f;
                return no(c);
            }
    return yes(base("r_trivial", true, CertificateKind::PartiallyOrdered, "every SCC of the minimal DFA is a single state (partially ordered)"));
}

// R-class witness s R s·a (s·a·b = s, s·a ≠ s) from the right Cayley graph.
std::optional<Certificate> r_class_violation(const SemigroupAnalysis& S, const std::string& id, bool left) {
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
                return violation(S.dfa, id, "r_class",
                                 "s ≠ s·a but s·a·b = s: s and s·a are distinct R-equivalent elements",
                                 {{"s", S.s.word(x)}, {"a", Word{Symbol(a)}}, {"b", back}});
            return violation(S.dfa, id, "l_class", "s ≠ a·s but b·a·s = s: s and a·s are distinct L-equivalent elements",
                             {{"s", S.s.word(x)}, {"a", Word{Symbol(a)}}, {"b", back}});
        }
    return std::nullopt;
}

ClassDecision r_trivial_by_semigroup(const SemigroupAnalysis& S) {
    if (auto v = r_class_violation(S, "r_trivial", false)) return no(*v);
    return yes(base("r_trivial", true, CertificateKind::SemigroupIdentity, "the syntactic monoid is R-trivial"));
}

ClassDecision l_trivial_by_semigroup(const SemigroupAnalysis& S) {
    if (auto v = r_class_violation(S, "l_trivial", true)) return no(*v);
    return yes(base("l_trivial", true, CertificateKind::SemigroupIdentity, "the syntactic monoid is L-trivial"));
}

// --- locally R-trivial

ClassDecision lrt_by_dfa(DfaAnalysis& A) {
    const Dfa& d = A.dfa();
    auto cn = A.c_nodes([&](State p, State q) { return A.scc(p) == A.scc(q); }, true);
    if (cn.empty())
        return yes(base("locally_r_trivial", true, CertificateKind::NoCommonLoopInScc,
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
    Certificate c = base("locally_r_trivial", false, CertificateKind::LrtFamily,
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
            return no(violation(S.dfa, "locally_r_trivial", "local_r",
                                "x ≠ x·(e s e) = y and y·(e t e) = x for x in eSe: eSe is not R-trivial",
                                {{"e", S.s.word(e)}, {"x", S.s.word(x)}, {"s", walk(x, y)}, {"t", walk(y, x)}}));
        }
    }
    return yes(base("locally_r_trivial", true, CertificateKind::SemigroupIdentity, "eSe is R-trivial for every idempotent e"));
}

// --- locally testable (Trahtman's theorem on the pair graph; Brzozowski–Simon identity)

ClassDecision lt_by_dfa(DfaAnalysis& A) {
    const Dfa& d = A.dfa();
    auto cn = A.c_nodes([&](State p, State q) { return A.scc(p) == A.scc(q); }, true);
    if (!cn.empty()) {
        auto [p, q] = cn[0];
        Certificate c = base("locally_testable", false, CertificateKind::DfaCriterion,
                             "C-node (" + std::to_string(p) + "," + std::to_string(q) +
                                 ") of the pair graph with both states in one SCC (Trahtman's condition 1 fails)");
        c.extra_json = nlohmann::json{{"states", {p, q}}, {"loop", fw(d, A.loop_word(p, q))}}.dump();
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
                Certificate c = base("locally_testable", false, CertificateKind::DfaCriterion,
                                     "a C-node (p," + std::to_string(q) + ") with p ≥ " + std::to_string(q) +
                                         " reaches the pair (" + std::to_string(r) + "," + std::to_string(t) +
                                         ") of which exactly one reaches " + std::to_string(q) +
                                         " (Trahtman's condition 2 fails)");
                c.extra_json = nlohmann::json{{"q", q}, {"pair", {r, t}}}.dump();
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
    return yes(base("locally_testable", true, CertificateKind::DfaCriterion,
                    "Trahtman's conditions hold: every C-node (p,q) of the pair graph with p ≥ q has p = q when p ~ q, "
                    "and p·s ≥ q iff q·s ≥ q for all s"));
}

ClassDecision lt_by_semigroup(const SemigroupAnalysis& S) {
    for (Element e : S.idempotent_per_d_class()) {
        auto M = S.local_monoid(e);
        for (Element x : M)
            if (S.s.product(x, x) != x)
                return no(violation(S.dfa, "locally_testable", "local_idempotent", "(e s e)² ≠ e s e: eSe is not idempotent",
                                    {{"e", S.s.word(e)}, {"s", S.s.word(x)}}));
        for (std::size_t i = 0; i < M.size(); ++i)
            for (std::size_t j = i + 1; j < M.size(); ++j)
                if (S.s.product(M[i], M[j]) != S.s.product(M[j], M[i]))
                    return no(violation(S.dfa, "locally_testable", "local_commutative",
                                        "(ese)(ete) ≠ (ete)(ese): eSe is not commutative",
                                        {{"e", S.s.word(e)}, {"s", S.s.word(M[i])}, {"t", S.s.word(M[j])}}));
    }
    return yes(base("locally_testable", true, CertificateKind::SemigroupIdentity,
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
        Certificate c = violation(d, "piecewise_testable", "r_class_omega",
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
        Certificate c = base("piecewise_testable", false, CertificateKind::DfaCriterion,
                             "not locally confluent: from state " + std::to_string(q) + ", " +
                                 d.alphabet[a] + " and " + d.alphabet[b] + " lead to states with no common {" +
                                 d.alphabet[a] + "," + d.alphabet[b] + "}*-successor (Klíma–Polák)");
        c.extra_json = nlohmann::json{{"state", q}, {"letters", {d.alphabet[a], d.alphabet[b]}}}.dump();
        return no(c);
    }
    return yes(base("piecewise_testable", true, CertificateKind::DfaCriterion,
                    "the minimal DFA is partially ordered and locally confluent (Klíma–Polák)"));
}

ClassDecision pt_by_semigroup(const SemigroupAnalysis& S) {
    if (auto v = r_class_violation(S, "piecewise_testable", false)) return no(*v);
    if (auto v = r_class_violation(S, "piecewise_testable", true)) return no(*v);
    return yes(base("piecewise_testable", true, CertificateKind::SemigroupIdentity, "the syntactic monoid is J-trivial (Simon)"));
}

// --- star-free

ClassDecision star_free_by_semigroup(const SemigroupAnalysis& S) {
    for (Element x = 0; x < S.s.size(); ++x) {
        Element w = S.s.omega(x);
        if (S.s.product(w, x) != w)
            return no(violation(S.dfa, "star_free", "aperiodic", "u^ω ≠ u^(ω+1): the syntactic monoid has a non-trivial group",
                                {{"u", S.s.word(x)}}));
    }
    return yes(base("star_free", true, CertificateKind::SemigroupIdentity, "the syntactic monoid is aperiodic (Schützenberger)"));
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
                return no(violation(d, "reverse_definite", "e_x",
                                    "state " + std::to_string(q) + " lies on a cycle but is not absorbing: e·x ≠ e for e = w^ω",
                                    {{"e", w}, {"x", Word{Symbol(a)}}}));
            }
    }
    return yes(base("reverse_definite", true, CertificateKind::DfaCriterion, "every state on a cycle is absorbing (all letters loop)"));
}

ClassDecision rd_by_semigroup(const SemigroupAnalysis& S) {
    for (Element e : S.idempotents)
        for (std::size_t a = 0; a < S.s.num_generators(); ++a)
            if (S.s.right(e, Symbol(a)) != e)
                return no(violation(S.dfa, "reverse_definite", "e_x", "e·x ≠ e for the idempotent e",
                                    {{"e", S.s.word(e)}, {"x", Word{Symbol(a)}}}));
    return yes(base("reverse_definite", true, CertificateKind::SemigroupIdentity, "e·S = e for every idempotent e"));
}

// --- generalized definite

ClassDecision gd_by_dfa(DfaAnalysis& A) {
    const Dfa& d = A.dfa();
    auto cn = A.c_nodes([&](State p, State q) { return A.reaches(p, q) || A.reaches(q, p); }, true);
    if (cn.empty())
        return yes(base("generalized_definite", true, CertificateKind::DfaCriterion,
                        "no C-node (p,q), p ≠ q, of the pair graph has q reachable from p"));
    auto [p, q] = cn[0];
    if (!A.reaches(p, q)) std::swap(p, q);
    Word w = A.loop_word(p, q), s = *A.path(p, q);
    return no(violation(d, "generalized_definite", "e_x_e",
                        "states " + std::to_string(p) + " and " + std::to_string(q) + " share the loop w and " +
                            std::to_string(q) + " is reachable from " + std::to_string(p) + ": e·x·e ≠ e for e = w^ω",
                        {{"e", w}, {"x", s}}));
}

ClassDecision gd_by_semigroup(const SemigroupAnalysis& S) {
    for (Element e : S.idempotents)
        if (S.green.j[e] != S.kernel) {
            Element k0 = 0;
            while (S.green.j[k0] != S.kernel) ++k0;
            return no(violation(S.dfa, "generalized_definite", "e_x_e", "e·x·e ≠ e: the idempotent e is not in the minimal ideal",
                                {{"e", S.s.word(e)}, {"x", S.s.word(k0)}}));
        }
    for (Element e : S.idempotents)
        for (Element x = 0; x < S.s.size(); ++x)
            if (x != e && S.green.h[x] == S.green.h[e])
                return no(violation(S.dfa, "generalized_definite", "e_x_e", "e·x·e = x ≠ e in the group H-class of e",
                                    {{"e", S.s.word(e)}, {"x", S.s.word(x)}}));
    return yes(base("generalized_definite", true, CertificateKind::SemigroupIdentity,
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
    auto j = nlohmann::json::parse(d.certificate.extra_json);
    const Dfa& dfa = A.dfa();
    // The pair costs runs of the words (up to 64 powers of them) from every state: skip it where that
    // exceeds 2·10^7 steps (the violation itself is checked on transformations, pair or not).
    std::size_t letters_in_words = 0;
    for (auto it = j["words"].begin(); it != j["words"].end(); ++it)
        letters_in_words += it.value().get<std::string>().size();
    if (letters_in_words * dfa.num_states() > 20'000'000) return;
    auto word = [&](const char* name) -> Word {
        if (!j["words"].contains(name)) return {};
        return *parse_word(dfa.alphabet, j["words"][name].get<std::string>());
    };
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
    const std::string id = j["identity"];
    Word a, b;
    if (id == "x_e") { Word e = omega_word(word("e")), x = word("x"); a = cat({&x, &e}); b = e; }
    else if (id == "e_x") { Word e = omega_word(word("e")), x = word("x"); a = cat({&e, &x}); b = e; }
    else if (id == "e_x_e") { Word e = omega_word(word("e")), x = word("x"); a = cat({&e, &x, &e}); b = e; }
    else if (id == "r_class") { Word s = word("s"), x = word("a"); a = s; b = cat({&s, &x}); }
    else if (id == "l_class") { Word s = word("s"), x = word("a"); a = s; b = cat({&x, &s}); }
    else if (id == "aperiodic") { Word u = omega_word(word("u")); Word u1 = word("u"); a = u; b = cat({&u, &u1}); }
    else if (id == "r_class_omega") { Word u = word("u"), v = word("v"); Word uv = cat({&u, &v}); Word e = omega_word(uv); a = e; b = cat({&e, &u}); }
    else if (id == "local_r") { Word e = omega_word(word("e")), x = word("x"), s = word("s"); a = x; b = cat({&x, &e, &s, &e}); }
    else if (id == "local_idempotent") { Word e = omega_word(word("e")), s = word("s"); Word x = cat({&e, &s, &e}); a = x; b = cat({&x, &x}); }
    else if (id == "local_commutative") { Word e = omega_word(word("e")), s = word("s"), t = word("t"); Word x = cat({&e, &s, &e}), y = cat({&e, &t, &e}); a = cat({&x, &y}); b = cat({&y, &x}); }
    else return;
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
    static const std::vector<ClassRow> rows = {
        {"definite", "definite", "syntactic semigroup satisfies x·y^ω = y^ω; pair graph on distinct states acyclic",
         "LTL[Y]", "local-1", definite_by_dfa, definite_by_semigroup, certify_definite},
        {"r_trivial", "left-deterministic polynomial", "R-trivial syntactic monoid; minimal DFA partially ordered",
         "LTL[P]", "global", r_trivial_by_dfa, r_trivial_by_semigroup, certify_r_trivial},
        {"locally_r_trivial", "locally R-trivial",
         "eSe R-trivial for every idempotent e; no two distinct states of one SCC share a non-empty loop word",
         "LTL[P,Y]", "hybrid-1", lrt_by_dfa, lrt_by_semigroup, certify_common},
        {"locally_testable", "locally testable", "eSe idempotent and commutative (Brzozowski–Simon); Trahtman's DFA test",
         "⊂ LTL[P,Y]", "", lt_by_dfa, lt_by_semigroup, certify_common},
        {"piecewise_testable", "piecewise testable", "J-trivial (Simon); partially ordered + locally confluent (Klíma–Polák)",
         "⊂ LTL[P]", "", pt_by_dfa, pt_by_semigroup, certify_common},
        {"star_free", "star-free", "aperiodic syntactic monoid (Schützenberger)", "LTL[S]", "", nullptr,
         star_free_by_semigroup, certify_common},
        {"reverse_definite", "reverse definite", "e·S = e; every state on a cycle is absorbing", "", "", rd_by_dfa,
         rd_by_semigroup, certify_common},
        {"generalized_definite", "generalized definite", "eSe = e; no C-node (p,q), p ≠ q, with q reachable from p", "", "",
         gd_by_dfa, gd_by_semigroup, certify_common},
        {"l_trivial", "L-trivial", "L-trivial syntactic monoid", "", "", nullptr, l_trivial_by_semigroup, certify_common},
    };
    return rows;
}

bool class_implies(const std::string& from, const std::string& to) {
    // LTL[P,Y] ⊆ LTL[S] (Schützenberger: star-free = aperiodic); x·e = e for every idempotent e
    // gives y·(xy)^ω = (xy)^ω, the identity of L-trivial monoids.
    // J-trivial (piecewise testable, Simon) is R-trivial and L-trivial.
    return (from == "locally_r_trivial" && to == "star_free") || (from == "definite" && to == "l_trivial") ||
           (from == "piecewise_testable" && to == "l_trivial");
}

bool class_excludes(const std::string& in, const std::string& not_in, const std::string& cls) {
    // R-trivial and L-trivial is J-trivial, i.e. piecewise testable (Simon).
    return cls == "l_trivial" && in == "r_trivial" && not_in == "piecewise_testable";
}

std::optional<ClassDecision> decide_without_semigroup(const std::string& id, DfaAnalysis& A,
                                                      const std::map<std::string, std::optional<bool>>& decided,
                                                      const std::map<std::string, Certificate>& certificates) {
    for (const char* from : {"locally_r_trivial", "definite", "piecewise_testable"}) {
        auto it = decided.find(from);
        if (it == decided.end() || it->second != true || !class_implies(from, id)) continue;
        Certificate c = base(id, true, CertificateKind::Implied, std::string("in ") + from + ", which is included in " + id + ": " +
                                                      certificates.at(from).fact);
        c.extra_json = nlohmann::json{{"by", from}}.dump();
        return yes(c);
    }
    if (id == "l_trivial" && decided.count("r_trivial") && decided.at("r_trivial") == true &&
        decided.count("piecewise_testable") && decided.at("piecewise_testable") == false) {
        Certificate c = base(id, false, CertificateKind::Excluded,
                             "R-trivial (" + certificates.at("r_trivial").fact + ") but not piecewise testable (" +
                                 certificates.at("piecewise_testable").fact +
                                 "), and an R-trivial L-trivial monoid is J-trivial, i.e. piecewise testable (Simon)");
        c.extra_json = nlohmann::json{{"in", "r_trivial"}, {"not_in", "piecewise_testable"}}.dump();
        return no(c);
    }
    if (id == "l_trivial") {
        // Not aperiodic, so not L-trivial (an L-trivial monoid is aperiodic): star_free's violation.
        auto it = decided.find("star_free");
        auto cert = certificates.find("star_free");
        if (it != decided.end() && it->second == false && cert != certificates.end() &&
            cert->second.kind == CertificateKind::IdentityViolation && cert->second.extra_json.find("\"aperiodic\"") != std::string::npos) {
            Certificate c = cert->second;
            c.class_id = id;
            c.fact = "not aperiodic, so not L-trivial: " + c.fact;
            return no(c);
        }
    }
    if (id != "star_free" && id != "l_trivial") return std::nullopt;
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
                return no(violation(d, id, "aperiodic",
                                    "the letter " + d.alphabet[a] + " permutes a cycle of states (through state " +
                                        std::to_string(x) + "): u^ω ≠ u^(ω+1) for u = " + d.alphabet[a] +
                                        ", a non-trivial group in the syntactic monoid",
                                    {{"u", Word{Symbol(a)}}}));
        }
    }
    return std::nullopt;
}

const ClassRow* find_class(const std::string& id) {
    for (const auto& r : class_table())
        if (r.id == id) return &r;
    return nullptr;
}

// ---------------------------------------------------------------- member formulas

namespace {
using ltl::Formula;
Formula letters(const Dfa& d, const std::vector<Symbol>& as) {
    Formula f = Formula::ff();
    for (Symbol a : as) f = ltl::simplified_disj(f, Formula::atom(d.alphabet[a]));
    return f;
}
}  // namespace

// LC25 Lemma C.1 (partially ordered DFA -> LTL[P]): with E_q = "q was entered before now" and
// L_q = "q was left before now", the current state is q iff E_q ∧ ¬L_q; E_q0 = true,
// E_q = P(∨_{p·a=q, p≠q} a ∧ S_p), L_q = P(E_q ∧ ∨_{q·a≠q} a). Well-founded because the run
// never returns to a state it left. Evaluated at EOS this reads the state after the whole word.
std::optional<ltl::Formula> partially_ordered_formula(const Dfa& d) {
    DfaAnalysis A(d);
    const std::size_t n = d.num_states(), k = d.num_symbols();
    if (A.num_scc() != n) return std::nullopt;
    // The transitions into each state from the others, by source state and then letter.
    std::vector<std::vector<std::pair<State, Symbol>>> into(n);
    for (State p = 0; p < n; ++p)
        for (std::size_t a = 0; a < k; ++a)
            if (const State q = d.next(p, Symbol(a)); q != p) into[q].emplace_back(p, Symbol(a));
    // Topological order: SCC numbers are reverse topological, so decreasing SCC number.
    std::vector<State> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](State a, State b) { return A.scc(a) > A.scc(b); });
    std::vector<Formula> S(n), E(n);
    std::vector<char> done(n, 0);
    for (State q : order) {
        Formula e = Formula::ff();
        if (q == d.initial) e = Formula::tt();
        else {
            const auto& in = into[q];
            for (std::size_t i = 0; i < in.size();) {
                const State p = in[i].first;
                std::vector<Symbol> as;
                for (; i < in.size() && in[i].first == p; ++i) as.push_back(in[i].second);
                e = ltl::simplified_disj(e, ltl::simplified_conj(letters(d, as), S[p]));  // p precedes q, so S[p] is built
            }
            e = ltl::simplified_past(e);
        }
        std::vector<Symbol> exits;
        for (std::size_t a = 0; a < k; ++a)
            if (d.next(q, Symbol(a)) != q) exits.push_back(Symbol(a));
        Formula left = ltl::simplified_past(ltl::simplified_conj(e, letters(d, exits)));
        E[q] = e;
        S[q] = ltl::simplified_conj(e, ltl::simplified_neg(left));
        done[q] = 1;
    }
    Formula f = Formula::ff();
    for (State q = 0; q < n; ++q)
        if (d.is_accepting(q)) f = ltl::simplified_disj(f, S[q]);
    return f;
}

// Definite language of degree d: a decision tree over the last symbols. F(v) holds at position i
// when the symbols from i on are v; it is constant when all states {q·v} agree, else
// (¬Y⊤ ∧ [q0·v ∈ F]) ∨ ∨_a Y(a ∧ F(av)).
std::optional<ltl::Formula> definite_formula(const Dfa& d, std::size_t max_nodes) {
    // Each node costs a tuple of n states: at most kDefiniteFormulaWork tuple entries in all.
    max_nodes = std::min(max_nodes, kDefiniteFormulaWork / std::max<std::size_t>(d.num_states(), 1));
    DfaAnalysis A(d);
    if (!A.pair_graph_longest_path()) return std::nullopt;
    const std::size_t n = d.num_states(), k = d.num_symbols();
    // F depends on v only through the tuple (q·v)_q, and tuple(av)[q] = tuple(v)[q·a]: memoize. The
    // memo is keyed by two independent 64-bit hashes of the tuple instead of the tuple (n states per
    // node); a collision of both would give a wrong formula, which compiling it back (check-certificate,
    // the tests) would expose.
    struct Key128 {
        std::uint64_t a, b;
        bool operator==(const Key128&) const = default;
    };
    struct Key128Hash {
        std::size_t operator()(const Key128& k) const noexcept { return std::size_t(k.a ^ (k.b * 0x9e3779b97f4a7c15ULL)); }
    };
    std::unordered_map<Key128, Formula, Key128Hash> memo;
    auto hash_of = [](const std::vector<State>& tv) {
        std::uint64_t h1 = 0x9e3779b97f4a7c15ULL, h2 = 0xc2b2ae3d27d4eb4fULL;
        for (State x : tv) {
            h1 = (h1 ^ x) * 0xff51afd7ed558ccdULL, h1 ^= h1 >> 29;
            h2 = (h2 + x + 0x165667b19e3779f9ULL) * 0xc4ceb9fe1a85ec53ULL, h2 ^= h2 >> 31;
        }
        return Key128{h1, h2};
    };
    std::size_t nodes = 0;
    bool too_big = false;
    std::function<Formula(const std::vector<State>&)> F = [&](const std::vector<State>& tv) -> Formula {
        const Key128 h = hash_of(tv);
        if (auto it = memo.find(h); it != memo.end()) return it->second;
        if (++nodes > max_nodes) {
            too_big = true;
            return Formula::ff();
        }
        bool acc = false, rej = false;
        for (State s : tv) (d.is_accepting(s) ? acc : rej) = true;
        Formula f;
        if (!rej) f = Formula::tt();
        else if (!acc) f = Formula::ff();
        else {
            f = d.is_accepting(tv[d.initial]) ? ltl::simplified_neg(Formula::yesterday(Formula::tt())) : Formula::ff();
            std::vector<std::pair<Formula, std::vector<Symbol>>> groups;
            for (std::size_t a = 0; a < k; ++a) {
                std::vector<State> ta(n);
                for (State q = 0; q < n; ++q) ta[q] = tv[d.next(q, Symbol(a))];
                Formula g = F(ta);
                if (g.op() == ltl::Op::False) continue;
                auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& x) { return x.first == g; });
                if (it == groups.end()) groups.push_back({g, {Symbol(a)}});
                else it->second.push_back(Symbol(a));
            }
            for (const auto& [g, as] : groups) f = ltl::simplified_disj(f, Formula::yesterday(ltl::simplified_conj(letters(d, as), g)));
        }
        memo.emplace(h, f);
        return f;
    };
    std::vector<State> id(n);
    std::iota(id.begin(), id.end(), 0);
    Formula f = F(id);
    if (too_big) return std::nullopt;
    return f;
}

}  // namespace ltlkit::automata::algebra
