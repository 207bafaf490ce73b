#include "automata/algorithms.hh"

#include <algorithm>
#include <limits>
#include <unordered_map>

namespace ltlkit::automata {

Dfa canonical(const Dfa& d) {
    const std::size_t n = d.num_states(), m = d.num_symbols();
    constexpr State kNone = std::numeric_limits<State>::max();
    std::vector<State> number(n, kNone);
    std::vector<State> order;  // old state of each new number
    order.reserve(n);
    number[d.initial] = 0;
    order.push_back(d.initial);
    for (std::size_t head = 0; head < order.size(); ++head) {
        const State q = order[head];
        for (std::size_t a = 0; a < m; ++a) {
            const State r = d.delta[q * m + a];
            if (number[r] == kNone) {
                number[r] = static_cast<State>(order.size());
                order.push_back(r);
            }
        }
    }
    Dfa out;
    out.alphabet = d.alphabet;
    out.initial = 0;
    out.accepting.resize(order.size());
    out.delta.resize(order.size() * m);
    for (std::size_t i = 0; i < order.size(); ++i) {
        const State q = order[i];
        out.accepting[i] = d.accepting[q];
        for (std::size_t a = 0; a < m; ++a) out.delta[i * m + a] = number[d.delta[q * m + a]];
    }
    return out;
}

namespace {

// A refinable partition of {0..n-1} (Valmari & Lehtinen 2008): elements of a set are contiguous
// in `elems`; marking moves an element to the front of its set; split() cuts every touched set
// into its marked and unmarked part, the smaller part getting the new set number. Per-element and
// per-set fields are interleaved so that a mark touches few cache lines.
struct RefinablePartition {
    struct Element {
        std::uint32_t loc;  // index in elems
        std::uint32_t set;
    };
    struct Set {
        std::uint32_t first, past, marked;
    };
    std::uint32_t sets = 0;
    std::vector<std::uint32_t> elems;
    std::vector<Element> info;
    std::vector<Set> set;
    std::vector<std::uint32_t> touched;

    explicit RefinablePartition(std::uint32_t n) : elems(n), info(n), set(n + 1, Set{0, 0, 0}) {
        for (std::uint32_t i = 0; i < n; ++i) {
            elems[i] = i;
            info[i] = {i, 0};
        }
        touched.reserve(n + 1);
        if (n) {
            sets = 1;
            set[0] = {0, n, 0};
        }
    }
    std::uint32_t set_of(std::uint32_t e) const { return info[e].set; }
    void mark(std::uint32_t e) {
        Element& x = info[e];
        Set& s = set[x.set];
        const std::uint32_t i = x.loc, j = s.first + s.marked;
        const std::uint32_t f = elems[j];
        elems[i] = f;
        info[f].loc = i;
        elems[j] = e;
        x.loc = j;
        if (!s.marked++) touched.push_back(x.set);
    }
    void split() {
        while (!touched.empty()) {
            const std::uint32_t s = touched.back();
            touched.pop_back();
            Set& old = set[s];
            const std::uint32_t j = old.first + old.marked;
            if (j == old.past) {
                old.marked = 0;
                continue;
            }
            const std::uint32_t z = sets++;
            Set& fresh = set[z];
            if (old.marked <= old.past - j) {
                fresh.first = old.first;
                fresh.past = old.first = j;
            } else {
                fresh.past = old.past;
                fresh.first = old.past = j;
            }
            for (std::uint32_t i = fresh.first; i < fresh.past; ++i) info[elems[i]].set = z;
            old.marked = fresh.marked = 0;
        }
    }
};

}  // namespace

// Hopcroft's minimization (Hopcroft 1971) in Valmari's formulation with refinable partitions of
// states and transitions ("Fast brief practical DFA minimization", IPL 2012): O(m log n), m = n·|Σ|.
Dfa restrict_letters(const Dfa& d, const std::vector<Symbol>& keep) {
    Dfa r;
    for (Symbol a : keep) r.alphabet.push_back(d.alphabet[a]);
    r.initial = d.initial;
    r.accepting = d.accepting;
    r.delta.resize(d.num_states() * keep.size());
    for (State q = 0; q < d.num_states(); ++q)
        for (std::size_t i = 0; i < keep.size(); ++i) r.delta[q * keep.size() + i] = d.next(q, keep[i]);
    return r;
}

Dfa minimize(const Dfa& input) {
    const Dfa d = canonical(input);  // reachable part only
    const std::uint32_t n = static_cast<std::uint32_t>(d.num_states());
    const std::uint32_t k = static_cast<std::uint32_t>(d.num_symbols());
    const std::uint32_t mt = n * k;  // transition t = q·k + a

    RefinablePartition blocks(n);
    for (std::uint32_t q = 0; q < n; ++q)
        if (d.accepting[q]) blocks.mark(q);
    blocks.split();

    // Cords: transitions grouped by label. Transition order: label-major.
    RefinablePartition cords(mt);
    if (mt) {
        std::uint32_t i = 0;
        cords.sets = 0;
        for (std::uint32_t a = 0; a < k; ++a) {
            cords.set[a].first = i;
            for (std::uint32_t q = 0; q < n; ++q, ++i) {
                const std::uint32_t t = q * k + a;
                cords.elems[i] = t;
                cords.info[t] = {i, a};
            }
            cords.set[a].past = i;
            ++cords.sets;
        }
    }
    // Incoming transitions of each state (by head), CSR.
    std::vector<std::uint32_t> in_first(n + 1, 0), in_trans(mt);
    for (std::uint32_t t = 0; t < mt; ++t) ++in_first[d.delta[t] + 1];
    for (std::uint32_t q = 0; q < n; ++q) in_first[q + 1] += in_first[q];
    {
        std::vector<std::uint32_t> fill(in_first.begin(), in_first.end() - 1);
        for (std::uint32_t t = 0; t < mt; ++t) in_trans[fill[d.delta[t]]++] = t;
    }

    std::uint32_t b = 1, c = 0;
    while (c < cords.sets) {
        for (std::uint32_t i = cords.set[c].first; i < cords.set[c].past; ++i)
            blocks.mark(cords.elems[i] / k);  // tail of the transition
        blocks.split();
        ++c;
        while (b < blocks.sets) {
            for (std::uint32_t i = blocks.set[b].first; i < blocks.set[b].past; ++i) {
                const std::uint32_t q = blocks.elems[i];
                for (std::uint32_t j = in_first[q]; j < in_first[q + 1]; ++j) cords.mark(in_trans[j]);
            }
            cords.split();
            ++b;
        }
    }

    Dfa quotient;
    quotient.alphabet = d.alphabet;
    const std::uint32_t nb = blocks.sets;
    quotient.accepting.resize(nb);
    quotient.delta.resize(static_cast<std::size_t>(nb) * k);
    for (std::uint32_t s = 0; s < nb; ++s) {
        const std::uint32_t rep = blocks.elems[blocks.set[s].first];
        quotient.accepting[s] = d.accepting[rep];
        for (std::uint32_t a = 0; a < k; ++a)
            quotient.delta[static_cast<std::size_t>(s) * k + a] = blocks.set_of(d.delta[rep * k + a]);
    }
    quotient.initial = blocks.set_of(d.initial);
    return canonical(quotient);
}

bool is_minimal(const Dfa& d) {
    if (canonical(d).num_states() != d.num_states()) return false;
    return minimize(d).num_states() == d.num_states();
}

Dfa complement(const Dfa& d) {
    Dfa out = d;
    for (auto& f : out.accepting) f = f ? 0 : 1;
    return out;
}

Dfa product(const Dfa& a, const Dfa& b, const std::function<bool(bool, bool)>& combine) {
    const std::size_t m = a.num_symbols();
    const std::uint64_t nb = b.num_states();
    std::unordered_map<std::uint64_t, State> index;
    std::vector<std::uint64_t> pairs;
    auto id_of = [&](State p, State q) {
        const std::uint64_t key = p * nb + q;
        auto [it, fresh] = index.try_emplace(key, static_cast<State>(pairs.size()));
        if (fresh) pairs.push_back(key);
        return it->second;
    };
    Dfa out;
    out.alphabet = a.alphabet;
    out.initial = id_of(a.initial, b.initial);
    for (std::size_t head = 0; head < pairs.size(); ++head) {
        const State p = static_cast<State>(pairs[head] / nb), q = static_cast<State>(pairs[head] % nb);
        out.accepting.push_back(combine(a.is_accepting(p), b.is_accepting(q)) ? 1 : 0);
        for (std::size_t s = 0; s < m; ++s) {
            const State target = id_of(a.next(p, static_cast<Symbol>(s)), b.next(q, static_cast<Symbol>(s)));
            out.delta.push_back(target);
        }
    }
    return out;
}

Result<Dfa> with_alphabet(const Dfa& d, const std::vector<std::string>& alphabet) {
    const std::size_t m = alphabet.size(), n = d.num_states();
    for (std::size_t i = 0; i < m; ++i)
        for (std::size_t j = 0; j < i; ++j)
            if (alphabet[i] == alphabet[j])
                return make_error("alphabet symbol '" + alphabet[i] + "' appears twice");
    std::vector<long> source(m, -1);  // index in d.alphabet of each new symbol
    std::size_t found = 0;
    for (std::size_t i = 0; i < m; ++i)
        for (std::size_t j = 0; j < d.alphabet.size(); ++j)
            if (alphabet[i] == d.alphabet[j]) {
                source[i] = static_cast<long>(j);
                ++found;
            }
    if (found != d.alphabet.size()) {
        for (const auto& s : d.alphabet)
            if (std::find(alphabet.begin(), alphabet.end(), s) == alphabet.end())
                return make_error("symbol '" + s + "' of the DFA is not in the given alphabet");
    }
    const bool need_sink = found < m;
    Dfa out;
    out.alphabet = alphabet;
    out.initial = d.initial;
    out.accepting = d.accepting;
    const State sink = static_cast<State>(n);
    if (need_sink) out.accepting.push_back(0);
    const std::size_t total = out.accepting.size();
    out.delta.resize(total * m);
    for (std::size_t q = 0; q < total; ++q)
        for (std::size_t i = 0; i < m; ++i)
            out.delta[q * m + i] = (q == sink || source[i] < 0)
                                       ? sink
                                       : d.delta[q * d.num_symbols() + static_cast<std::size_t>(source[i])];
    return out;
}

std::optional<Word> distinguishing_word(const Dfa& a, const Dfa& b_in, std::size_t max_pairs, bool* over_limit) {
    // Common alphabet: a's order, then b's extra symbols (a precondition violation, handled anyway).
    std::vector<std::string> alphabet = a.alphabet;
    for (const auto& s : b_in.alphabet)
        if (std::find(alphabet.begin(), alphabet.end(), s) == alphabet.end()) alphabet.push_back(s);
    const Dfa da = alphabet == a.alphabet ? a : with_alphabet(a, alphabet).value();
    const Dfa db = with_alphabet(b_in, alphabet).value();
    const std::size_t m = alphabet.size();
    const std::uint64_t nb = db.num_states();

    // BFS on the product, symbols in order: the first differing pair discovered is reached by the
    // shortest, then lexicographically least, word (Moore 1956 / Hopcroft–Karp style equivalence).
    std::unordered_map<std::uint64_t, std::uint32_t> seen;
    std::vector<std::uint64_t> pairs;
    std::vector<std::uint32_t> parent;
    std::vector<Symbol> via;
    auto differ = [&](std::uint64_t key) {
        return da.is_accepting(static_cast<State>(key / nb)) != db.is_accepting(static_cast<State>(key % nb));
    };
    auto word_to = [&](std::uint32_t i) {
        Word w;
        while (i != 0) {
            w.push_back(via[i]);
            i = parent[i];
        }
        std::reverse(w.begin(), w.end());
        return w;
    };
    const std::uint64_t start = static_cast<std::uint64_t>(da.initial) * nb + db.initial;
    seen.emplace(start, 0);
    pairs.push_back(start);
    parent.push_back(0);
    via.push_back(0);
    if (differ(start)) return Word{};
    for (std::uint32_t head = 0; head < pairs.size(); ++head) {
        const State p = static_cast<State>(pairs[head] / nb), q = static_cast<State>(pairs[head] % nb);
        for (std::size_t s = 0; s < m; ++s) {
            const std::uint64_t key = static_cast<std::uint64_t>(da.next(p, static_cast<Symbol>(s))) * nb +
                                      db.next(q, static_cast<Symbol>(s));
            auto [it, fresh] = seen.try_emplace(key, static_cast<std::uint32_t>(pairs.size()));
            if (!fresh) continue;
            pairs.push_back(key);
            if (pairs.size() > max_pairs) {
                if (over_limit) *over_limit = true;
                return std::nullopt;
            }
            parent.push_back(head);
            via.push_back(static_cast<Symbol>(s));
            if (differ(key)) return word_to(it->second);
        }
    }
    return std::nullopt;
}

std::vector<std::uint64_t> count_accepted(const Dfa& d, std::size_t max_len) {
    const std::size_t n = d.num_states(), m = d.num_symbols();
    constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();
    std::vector<std::uint64_t> cur(n, 0), nxt(n);
    cur[d.initial] = 1;
    std::vector<std::uint64_t> out;
    for (std::size_t len = 0;; ++len) {
        std::uint64_t acc = 0;
        for (std::size_t q = 0; q < n; ++q)
            if (d.accepting[q]) acc = (kMax - acc < cur[q]) ? kMax : acc + cur[q];
        out.push_back(acc);
        if (len == max_len) break;
        std::fill(nxt.begin(), nxt.end(), 0);
        for (std::size_t q = 0; q < n; ++q) {
            if (!cur[q]) continue;
            for (std::size_t a = 0; a < m; ++a) {
                std::uint64_t& t = nxt[d.delta[q * m + a]];
                t = (kMax - t < cur[q]) ? kMax : t + cur[q];
            }
        }
        cur.swap(nxt);
    }
    return out;
}

}  // namespace ltlkit::automata
