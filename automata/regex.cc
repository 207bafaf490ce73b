// Extended regular expressions -> minimal DFA by Brzozowski derivatives (Brzozowski 1964, "Derivatives
// of regular expressions"), with terms kept similarity-normalized (ACI of | and &, associativity of
// concatenation, ∅/ε units, r** = r*, !!r = r) and hash-consed, which makes the set of derivatives
// finite; the DFA built over reachable derivatives is then minimized by Hopcroft (algorithms.hh).
//
// Syntax, lowest precedence first:  r | s   r & s   r s (concatenation)   !r (prefix)   r* r+ r? r{n}
// r{m,n} r{m,} (counts, expanded in the syntax tree: r{m,n} = r…r (r?)…(r?))
// Atoms: a symbol, `.` (any symbol), `[ab]` (one of the symbols listed), `[^ab]` (a symbol of the
// alphabet not listed; the alphabet must be given), `ε` or `()` (empty word), `∅` (empty language), `( r )`.
// Whitespace is ignored everywhere. Symbols: with a non-empty alphabet, the longest alphabet symbol
// at the current position (operator characters are read as operators first); without one, every
// lowercase letter a-z is a symbol and the alphabet is the sorted set of letters used.
#include "automata/regex.hh"

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <unordered_map>

#include "automata/algorithms.hh"
#include "automata/regex_syntax.hh"

namespace ltlkit::automata {

namespace {

using namespace regex_syntax;

// --- similarity-normalized, hash-consed terms

enum class T : std::uint8_t { Empty, Eps, Sym, Concat, Or, And, Not, Star };

struct Term {
    T kind;
    Symbol sym;
    std::vector<std::uint32_t> kids;
    bool nullable;
};

struct TermKey {
    T kind;
    Symbol sym;
    std::vector<std::uint32_t> kids;
    bool operator==(const TermKey&) const = default;
};
struct TermKeyHash {
    std::size_t operator()(const TermKey& k) const noexcept {
        std::size_t h = static_cast<std::size_t>(k.kind) * 0x9e3779b97f4a7c15ULL ^ k.sym;
        for (auto x : k.kids) h = (h ^ x) * 0x100000001b3ULL + (h >> 29);
        return h;
    }
};

struct WorkLimit {};

class Terms {
public:
    using Id = std::uint32_t;
    std::size_t max_work_ = SIZE_MAX;  // compile_regex's --max-work; make() throws WorkLimit beyond it
    std::size_t work_ = 0;

    Terms() {
        empty_ = make(T::Empty, 0, {}, false);
        eps_ = make(T::Eps, 0, {}, true);
        all_ = make(T::Not, 0, {empty_}, true);  // Σ* = !∅
    }

    Id empty() const { return empty_; }
    Id eps() const { return eps_; }
    Id sym(Symbol a) { return make(T::Sym, a, {}, false); }
    const Term& at(Id i) const { return terms_[i]; }
    bool nullable(Id i) const { return terms_[i].nullable; }
    std::size_t size() const { return terms_.size(); }

    Id concat(Id r, Id s) {
        if (r == empty_ || s == empty_) return empty_;
        if (r == eps_) return s;
        if (s == eps_) return r;
        if (terms_[r].kind != T::Concat) return make(T::Concat, 0, {r, s}, terms_[r].nullable && terms_[s].nullable);
        // (x1 (x2 (... xn))) s = x1 (x2 (... (xn s))), rebuilt from the right by a loop, not by
        // recursion: a long concatenation would overflow the stack.
        std::vector<Id> heads;
        Id x = r;
        for (; terms_[x].kind == T::Concat; x = terms_[x].kids[1]) heads.push_back(terms_[x].kids[0]);
        Id acc = concat(x, s);
        for (std::size_t i = heads.size(); i-- > 0;) acc = concat(heads[i], acc);
        return acc;
    }

    Id star(Id r) {
        if (r == empty_ || r == eps_) return eps_;
        if (terms_[r].kind == T::Star) return r;
        return make(T::Star, 0, {r}, true);
    }

    Id neg(Id r) {
        if (terms_[r].kind == T::Not) return terms_[r].kids[0];
        return make(T::Not, 0, {r}, !terms_[r].nullable);
    }

    Id alt(std::vector<Id> xs) { return assoc(T::Or, std::move(xs)); }
    Id inter(std::vector<Id> xs) { return assoc(T::And, std::move(xs)); }

    // Brzozowski derivative d_a(r), memoized.
    Id derive(Id r, Symbol a) {
        auto key = (static_cast<std::uint64_t>(r) << 32) | a;
        auto it = memo_.find(key);
        if (it != memo_.end()) return it->second;
        if (terms_[r].kind == T::Concat) return derive_concat(r, a);
        Id out = empty_;
        const Term t = terms_[r];  // copy: terms_ may grow below
        switch (t.kind) {
            case T::Empty: case T::Eps: out = empty_; break;
            case T::Sym: out = t.sym == a ? eps_ : empty_; break;
            case T::Concat: break;  // derive_concat
            case T::Star: out = concat(derive(t.kids[0], a), r); break;
            case T::Not: out = neg(derive(t.kids[0], a)); break;
            case T::Or: case T::And: {
                std::vector<Id> ds;
                for (Id k : t.kids) ds.push_back(derive(k, a));
                out = t.kind == T::Or ? alt(std::move(ds)) : inter(std::move(ds));
                break;
            }
        }
        memo_.emplace(key, out);
        return out;
    }

private:
    // d(x y) = d(x) y, or d(x) y | d(y) when x is nullable, for a concatenation x1 (x2 (... xn)):
    // walked along its right spine by a loop, not by recursion (a long chain of nullable terms
    // such as a*a*a*... would overflow the stack), in the order of the recursive form and with
    // every suffix memoized as it was.
    Id derive_concat(Id r, Symbol a) {
        auto key = [a](Id x) { return (static_cast<std::uint64_t>(x) << 32) | a; };
        std::vector<std::pair<Id, Id>> pending;  // (suffix, d(its head) · its tail), waiting for d(tail)
        Id cur = r, out = empty_;
        for (;;) {
            if (cur != r) {
                auto it = memo_.find(key(cur));
                if (it != memo_.end()) {
                    out = it->second;
                    break;
                }
            }
            const Term t = terms_[cur];  // copy: terms_ may grow below
            if (t.kind != T::Concat) {
                out = derive(cur, a);
                break;
            }
            const Id left = concat(derive(t.kids[0], a), t.kids[1]);
            if (!terms_[t.kids[0]].nullable) {
                out = left;
                memo_.emplace(key(cur), out);
                break;
            }
            pending.emplace_back(cur, left);
            cur = t.kids[1];
        }
        for (std::size_t i = pending.size(); i-- > 0;) {
            out = alt({pending[i].second, out});
            memo_.emplace(key(pending[i].first), out);
        }
        return out;
    }

    std::vector<Term> terms_;
    std::unordered_map<TermKey, Id, TermKeyHash> index_;
    std::unordered_map<std::uint64_t, Id> memo_;
    Id empty_ = 0, eps_ = 0, all_ = 0;

    Id make(T kind, Symbol s, std::vector<Id> kids, bool nullable) {
        // The work bound: every term looked up or built counts its size, 16 steps per element
        // (measured: a term costs about 16 times a monitor step in time and memory; docs/
        // PERFORMANCE.md, "Compilation work"); (a*)^n is rebuilt n^2/2 times while it is parsed.
        work_ += 16 * (1 + kids.size());
        if (work_ > max_work_) throw WorkLimit{};
        TermKey key{kind, s, kids};
        auto it = index_.find(key);
        if (it != index_.end()) return it->second;
        Id id = static_cast<Id>(terms_.size());
        terms_.push_back(Term{kind, s, std::move(kids), nullable});
        index_.emplace(std::move(key), id);
        return id;
    }

    // ACI normalization of | and &: flattened, sorted by id, duplicates removed, units dropped,
    // absorbing elements (Σ* for |, ∅ for &) short-circuit.
    Id assoc(T kind, std::vector<Id> xs) {
        const Id unit = kind == T::Or ? empty_ : all_;
        const Id zero = kind == T::Or ? all_ : empty_;
        std::vector<Id> flat;
        for (Id x : xs) {
            if (terms_[x].kind == kind)
                flat.insert(flat.end(), terms_[x].kids.begin(), terms_[x].kids.end());
            else
                flat.push_back(x);
        }
        std::sort(flat.begin(), flat.end());
        flat.erase(std::unique(flat.begin(), flat.end()), flat.end());
        std::vector<Id> kept;
        bool nullable = kind == T::And;
        for (Id x : flat) {
            if (x == zero) return zero;
            if (x == unit) continue;
            kept.push_back(x);
            nullable = kind == T::Or ? (nullable || terms_[x].nullable) : (nullable && terms_[x].nullable);
        }
        if (kept.empty()) return unit;
        if (kept.size() == 1) return kept[0];
        return make(kind, 0, std::move(kept), nullable);
    }
};

Terms::Id to_term(const Ast& a, Terms& terms) {
    switch (a.kind) {
        case Kind::Empty: return terms.empty();
        case Kind::Eps: return terms.eps();
        case Kind::Sym: return terms.sym(a.sym);
        case Kind::Any: {
            std::vector<Terms::Id> xs;
            for (Symbol s = 0; s < a.sym; ++s) xs.push_back(terms.sym(s));
            return terms.alt(std::move(xs));
        }
        case Kind::Concat: {  // built from the right: x1 (x2 (... xn))
            Terms::Id acc = terms.eps();
            for (std::size_t i = a.kids.size(); i-- > 0;) acc = terms.concat(to_term(*a.kids[i], terms), acc);
            return acc;
        }
        case Kind::Or: case Kind::And: {
            std::vector<Terms::Id> xs;
            for (const auto& k : a.kids) xs.push_back(to_term(*k, terms));
            return a.kind == Kind::Or ? terms.alt(std::move(xs)) : terms.inter(std::move(xs));
        }
        case Kind::Not: return terms.neg(to_term(*a.kids[0], terms));
        case Kind::Star: return terms.star(to_term(*a.kids[0], terms));
        case Kind::Plus: {
            auto x = to_term(*a.kids[0], terms);
            return terms.concat(x, terms.star(x));
        }
        case Kind::Opt: return terms.alt({terms.eps(), to_term(*a.kids[0], terms)});
    }
    return terms.empty();
}

// --- reference matcher: does the tree match w[i, j)? Plain backtracking over all splits.

bool match(const Ast& a, const Word& w, std::size_t i, std::size_t j);

// Do kids[k..] of a concatenation match w[i, j) one after the other?
bool match_seq(const Ast& a, std::size_t k, const Word& w, std::size_t i, std::size_t j) {
    if (k + 1 == a.kids.size()) return match(*a.kids[k], w, i, j);
    for (std::size_t m = i; m <= j; ++m)
        if (match(*a.kids[k], w, i, m) && match_seq(a, k + 1, w, m, j)) return true;
    return false;
}

bool match(const Ast& a, const Word& w, std::size_t i, std::size_t j) {
    switch (a.kind) {
        case Kind::Empty: return false;
        case Kind::Eps: return i == j;
        case Kind::Sym: return j == i + 1 && w[i] == a.sym;
        case Kind::Any: return j == i + 1 && w[i] < a.sym;
        case Kind::Concat: return match_seq(a, 0, w, i, j);
        case Kind::Or:
            for (const auto& k : a.kids)
                if (match(*k, w, i, j)) return true;
            return false;
        case Kind::And:
            for (const auto& k : a.kids)
                if (!match(*k, w, i, j)) return false;
            return true;
        case Kind::Not: return !match(*a.kids[0], w, i, j);
        case Kind::Opt: return i == j || match(*a.kids[0], w, i, j);
        case Kind::Star:
            if (i == j) return true;
            [[fallthrough]];
        case Kind::Plus:
            // the whole span in one iteration, or a non-empty first iteration w[i,m) and the rest
            // again (at least one more iteration; zero more is the first case)
            if (match(*a.kids[0], w, i, j)) return true;
            for (std::size_t m = i + 1; m < j; ++m)
                if (match(*a.kids[0], w, i, m) && match(a, w, m, j)) return true;
            return false;
    }
    return false;
}

// --- compositional automaton: one minimal DFA per node of the tree, built bottom-up by the
// textbook constructions (Thompson-style ε-NFAs and the subset construction for concatenation and
// iteration, the product for | and &, complement for !), independent of the derivatives above.

struct Nfa {
    std::size_t sigma = 0;
    std::vector<std::vector<std::vector<State>>> next;  // [state][symbol] -> targets
    std::vector<std::vector<State>> eps;
    std::vector<std::uint8_t> accepting;
    State initial = 0;
    State add() {
        next.emplace_back(sigma);
        eps.emplace_back();
        accepting.push_back(0);
        return State(next.size() - 1);
    }
    State embed(const Dfa& d) {  // copies d's states; returns the image of d.initial
        const State base = State(next.size());
        for (std::size_t q = 0; q < d.num_states(); ++q) {
            State x = add();
            accepting[x] = d.accepting[q];
            for (std::size_t a = 0; a < sigma; ++a) next[x][a].push_back(base + d.next(State(q), Symbol(a)));
        }
        return base + d.initial;
    }
};

Result<Dfa> determinize(const Nfa& n, const std::vector<std::string>& alphabet, std::size_t max_states) {
    auto closure = [&](std::vector<State> set) {
        std::vector<State> todo = set;
        std::set<State> seen(set.begin(), set.end());
        while (!todo.empty()) {
            State x = todo.back();
            todo.pop_back();
            for (State y : n.eps[x])
                if (seen.insert(y).second) todo.push_back(y);
        }
        return std::vector<State>(seen.begin(), seen.end());
    };
    Dfa d;
    d.alphabet = alphabet;
    std::map<std::vector<State>, State> id;
    std::vector<std::vector<State>> sets{closure({n.initial})};
    id.emplace(sets[0], 0);
    for (std::size_t i = 0; i < sets.size(); ++i) {
        const std::vector<State> cur = sets[i];
        bool acc = false;
        for (State x : cur) acc = acc || n.accepting[x];
        d.accepting.push_back(acc);
        for (std::size_t a = 0; a < n.sigma; ++a) {
            std::vector<State> to;
            for (State x : cur) to.insert(to.end(), n.next[x][a].begin(), n.next[x][a].end());
            to = closure(std::move(to));
            auto [it, fresh] = id.emplace(to, State(sets.size()));
            if (fresh) {
                if (sets.size() >= max_states)
                    return limit_error("the regex's compositional automaton needs more than " + std::to_string(max_states) +
                                       " states (--max-states)");
                sets.push_back(std::move(to));
            }
            d.delta.push_back(it->second);
        }
    }
    return minimize(d);
}

Result<Dfa> compose_dfa(const Ast& a, const std::vector<std::string>& alphabet, std::size_t max_states) {
    const std::size_t sigma = alphabet.size();
    auto letters = [&](auto&& accepts_symbol) {  // 0 -symbol-> 1 (accepting), everything else -> 2
        Dfa d;
        d.alphabet = alphabet;
        d.accepting = {0, 1, 0};
        for (State q = 0; q < 3; ++q)
            for (std::size_t c = 0; c < sigma; ++c) d.delta.push_back(q == 0 && accepts_symbol(Symbol(c)) ? 1 : 2);
        return minimize(d);
    };
    std::vector<Dfa> kids;
    for (const auto& k : a.kids) {
        auto d = compose_dfa(*k, alphabet, max_states);
        if (!d) return d.error();
        kids.push_back(std::move(*d));
    }
    Nfa n;
    n.sigma = sigma;
    switch (a.kind) {
        case Kind::Empty: {
            Dfa d;
            d.alphabet = alphabet;
            d.accepting = {0};
            d.delta.assign(sigma, 0);
            return d;
        }
        case Kind::Eps: {
            n.initial = n.add();
            n.accepting[n.initial] = 1;
            return determinize(n, alphabet, max_states);
        }
        case Kind::Sym: return letters([&](Symbol c) { return c == a.sym; });
        case Kind::Any: return letters([&](Symbol c) { return c < a.sym; });
        case Kind::Not: {
            Dfa d = kids[0];
            for (auto& f : d.accepting) f = !f;
            return minimize(d);
        }
        case Kind::Or:
        case Kind::And: {
            Dfa acc = kids[0];
            for (std::size_t i = 1; i < kids.size(); ++i) {
                n = Nfa{};
                n.sigma = sigma;
                // product, as an NFA with one successor per symbol (determinize keeps it as is)
                std::map<std::pair<State, State>, State> id;
                std::vector<std::pair<State, State>> todo{{acc.initial, kids[i].initial}};
                id.emplace(todo[0], n.add());
                for (std::size_t t = 0; t < todo.size(); ++t) {
                    auto [p, q] = todo[t];
                    const State x = id.at({p, q});
                    const bool fp = acc.accepting[p], fq = kids[i].accepting[q];
                    n.accepting[x] = a.kind == Kind::Or ? (fp || fq) : (fp && fq);
                    for (std::size_t c = 0; c < sigma; ++c) {
                        std::pair<State, State> to{acc.next(p, Symbol(c)), kids[i].next(q, Symbol(c))};
                        auto it = id.find(to);
                        if (it == id.end()) {
                            it = id.emplace(to, n.add()).first;
                            todo.push_back(to);
                        }
                        n.next[x][c].push_back(it->second);
                    }
                }
                n.initial = 0;
                auto d = determinize(n, alphabet, max_states);
                if (!d) return d.error();
                acc = std::move(*d);
            }
            return acc;
        }
        case Kind::Concat: {
            State first = n.embed(kids[0]);
            n.initial = first;
            std::vector<State> ends;
            for (std::size_t q = 0; q < n.accepting.size(); ++q)
                if (n.accepting[q]) ends.push_back(State(q));
            for (std::size_t i = 1; i < kids.size(); ++i) {
                const std::size_t from = n.accepting.size();
                const State start = n.embed(kids[i]);
                for (State e : ends) n.accepting[e] = 0, n.eps[e].push_back(start);
                ends.clear();
                for (std::size_t q = from; q < n.accepting.size(); ++q)
                    if (n.accepting[q]) ends.push_back(State(q));
            }
            return determinize(n, alphabet, max_states);
        }
        case Kind::Star:
        case Kind::Plus:
        case Kind::Opt: {
            const State hub = n.add();  // accepting for * and ?, the entry of every iteration
            n.initial = hub;
            n.accepting[hub] = a.kind != Kind::Plus;
            const State start = n.embed(kids[0]);
            n.eps[hub].push_back(start);
            if (a.kind != Kind::Opt)
                for (std::size_t q = start; q < n.accepting.size(); ++q)
                    if (n.accepting[q]) n.eps[q].push_back(hub);
            return determinize(n, alphabet, max_states);
        }
    }
    return make_error("unknown regex node");
}

}  // namespace

Result<Dfa> compile_regex(const std::string& regex, const std::vector<std::string>& alphabet,
                          std::size_t max_states, std::size_t max_work) {
    auto parsed = parse_regex(regex, alphabet);
    if (!parsed.ok()) return parsed.error();
    Parsed& p = parsed.value();
    Terms terms;
    terms.max_work_ = max_work ? max_work : SIZE_MAX;
    try {
        const Terms::Id start = to_term(*p.ast, terms);
        const std::size_t sigma = p.alphabet.size();

        // BFS over derivatives: each reachable similarity class of derivatives is one state.
        Dfa d;
        d.alphabet = p.alphabet;
        std::unordered_map<Terms::Id, State> state_of;
        std::vector<Terms::Id> queue = {start};
        state_of.emplace(start, 0);
        d.accepting.push_back(terms.nullable(start));
        for (std::size_t head = 0; head < queue.size(); ++head) {
            const Terms::Id r = queue[head];
            for (Symbol a = 0; a < sigma; ++a) {
                const Terms::Id dr = terms.derive(r, a);
                auto [it, fresh] = state_of.emplace(dr, static_cast<State>(queue.size()));
                if (fresh) {
                    if (queue.size() >= max_states)
                        return limit_error("the derivative automaton of the regular expression has more than " +
                                           std::to_string(max_states) + " states; raise --max-states to build it");
                    queue.push_back(dr);
                    d.accepting.push_back(terms.nullable(dr));
                }
                d.delta.push_back(it->second);
            }
        }
        return minimize(d);
    } catch (const WorkLimit&) {
        return limit_error("the derivatives of the regular expression need more than " + std::to_string(max_work) +
                           " steps of work (terms built, counted by size); raise --max-work to build it");
    }
}

Result<Dfa> compile_regex_compositionally(const std::string& regex, const std::vector<std::string>& alphabet,
                                          std::size_t max_states) {
    auto parsed = parse_regex(regex, alphabet);
    if (!parsed.ok()) return parsed.error();
    return compose_dfa(*parsed.value().ast, parsed.value().alphabet, max_states);
}

Result<bool> regex_matches_reference(const std::string& regex, const std::vector<std::string>& alphabet,
                                     const Word& w) {
    auto d = compile_regex_compositionally(regex, alphabet);
    if (!d.ok()) return d.error();
    for (Symbol s : w)
        if (s >= d->num_symbols()) return make_error("symbol index " + std::to_string(s) + " is outside the alphabet");
    return d->accepts(w);
}

Result<bool> regex_matches_backtracking(const std::string& regex, const std::vector<std::string>& alphabet,
                                        const Word& w) {
    auto parsed = parse_regex(regex, alphabet);
    if (!parsed.ok()) return parsed.error();
    const std::size_t sigma = parsed.value().alphabet.size();
    for (Symbol s : w)
        if (s >= sigma) return make_error("symbol index " + std::to_string(s) + " is outside the alphabet");
    return match(*parsed.value().ast, w, 0, w.size());
}

}  // namespace ltlkit::automata
