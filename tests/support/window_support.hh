// What the window tests share (tests/test_window_*.cc, tests/test_depth_probe.cc,
// tests/test_folded_graph.cc): DFAs of formulas, window certificates and their re-verification,
// pumped words, bounded-depth types computed on the finite words (a route independent of the
// folded graphs), random DFAs and the direct semantics on every short word.
#pragma once

#include <catch2/catch.hpp>

#include <cstdint>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "automata/algebra/budget.hh"
#include "automata/algebra/classify.hh"
#include "automata/algebra/depth_probe.hh"
#include "automata/algebra/windows.hh"
#include "automata/algorithms.hh"
#include "automata/monitor.hh"
#include "ltl/fragment.hh"
#include "ltl/parser.hh"
#include "ltl/semantics.hh"

namespace ltlkit::testing {

using namespace ltlkit::automata;
using namespace ltlkit::automata::algebra;

inline const std::vector<std::string> AB = {"a", "b"};

// The minimal DFA of a formula, given or as text.
inline Dfa dfa_of(const ltl::Formula& f, const std::vector<std::string>& alphabet = AB) {
    auto d = compile(f, alphabet);
    REQUIRE(d.ok());
    return minimize(*d);
}

inline Dfa dfa_of(const std::string& formula, const std::vector<std::string>& alphabet = AB) {
    auto f = ltl::parse_formula(formula);
    REQUIRE(f.ok());
    return dfa_of(*f, alphabet);
}

// The certificate exactly as `classify --certificates` writes it (docs/CLASSES.md §3).
inline std::string cert_json(const Certificate& c, const Dfa& d) { return certificate_to_json(c, d); }

inline Certificate window_certificate(const ClassId& class_id, bool member, CertificateKind kind) {
    Certificate c;
    c.class_id = class_id;
    c.member = member;
    c.kind = kind;
    return c;
}

inline bool reverifies(const Certificate& c, const Dfa& d) {
    std::string why;
    auto ok = check_window_certificate(cert_json(c, d), &why);
    INFO(to_string(c.class_id) << " " << to_string(c.kind) << ": " << (ok ? why : ok.error().message));
    return ok.ok() && *ok;
}

// classify `d` at --max-k `max_k` and --window-work `work`, with `option` on (its default) and off,
// and the work (budget.hh polls) the first used: the comparison of tests/test_classify_second_round.cc
// and tests/test_classify_definite_first.cc.
struct ClassifiedTwice {
    Classification with, without;
    std::uint64_t work_with = 0;
};
inline ClassifiedTwice classify_with_and_without(const Dfa& d, unsigned max_k, std::uint64_t work, bool ClassifyOptions::*option) {
    ClassifyOptions on;
    on.max_k = max_k;
    on.window_work = work;
    on.*option = true;
    ClassifyOptions off = on;
    off.*option = false;
    const std::uint64_t w0 = budget_work_done();
    auto a = classify(d, on);
    const std::uint64_t w1 = budget_work_done();
    auto b = classify(d, off);
    REQUIRE(a);
    REQUIRE(b);
    return {std::move(*a), std::move(*b), w1 - w0};
}

inline Word pumped(const Word& x, const Word& p, std::size_t r, const Word& tail) {
    Word w = x;
    for (std::size_t i = 0; i < r; ++i) w.insert(w.end(), p.begin(), p.end());
    w.insert(w.end(), tail.begin(), tail.end());
    return w;
}

inline std::vector<std::string> names(const Word& w) { return word_symbols(AB, w); }

// Bounded-depth types (independent of the folded graphs): the depth-j type of a position is its
// label, the set of depth-(j-1) types in its window of k predecessors and, for the hybrid
// fragment, the set of depth-(j-1) types strictly before it. Two positions have equal depth-d
// types iff they agree on every formula of modal depth <= d. Ids are interned across words.
struct TypeTable {
    std::map<std::vector<long>, long> ids;
    long intern(std::vector<long> v) { return ids.emplace(std::move(v), long(ids.size())).first->second; }
    long eos_type(const Word& w, unsigned k, bool past, int depth) {
        const std::size_t n = w.size();
        std::vector<long> t(n + 1);
        for (std::size_t i = 0; i <= n; ++i) t[i] = intern({0, i < n ? long(w[i]) : -1});
        for (int j = 1; j <= depth; ++j) {
            std::vector<long> u(n + 1);
            std::set<long> before;
            for (std::size_t i = 0; i <= n; ++i) {
                std::set<long> win;
                for (std::size_t q = (i >= k ? i - k : 0); q < i; ++q) win.insert(t[q]);
                std::vector<long> sig{j, i < n ? long(w[i]) : -1};
                sig.insert(sig.end(), win.begin(), win.end());
                sig.push_back(-2);
                if (past) sig.insert(sig.end(), before.begin(), before.end());
                u[i] = intern(std::move(sig));
                before.insert(t[i]);
            }
            t = std::move(u);
        }
        return t[n];
    }
};

// The minimal DFA over {a, b, c} with initial state 0, these accepting flags and this row-major
// transition table (as in the files of bench/data/window-unknowns).
inline Dfa minimal_abc(std::vector<std::uint8_t> accepting, std::vector<State> delta) {
    Dfa d;
    d.alphabet = {"a", "b", "c"};
    d.initial = 0;
    d.accepting = std::move(accepting);
    d.delta = std::move(delta);
    return minimize(d);
}

inline Dfa random_dfa(std::mt19937_64& rng, std::size_t states, std::size_t symbols) {
    Dfa d;
    for (std::size_t i = 0; i < symbols; ++i) d.alphabet.push_back(std::string(1, char('a' + i)));
    d.initial = 0;
    d.accepting.resize(states);
    for (auto& a : d.accepting) a = rng() % 2;
    d.delta.resize(states * symbols);
    for (auto& t : d.delta) t = static_cast<State>(rng() % states);
    return minimize(d);
}


// A random minimal DFA with n states besides a sink (accepting or not; the sink's acceptance drawn
// first); mixed: the other states take random acceptances, else the sink's opposite.
inline Dfa random_sink_dfa(std::mt19937_64& rng, std::size_t sigma, std::size_t n, bool mixed) {
    Dfa d;
    for (std::size_t i = 0; i < sigma; ++i) d.alphabet.push_back(std::string(1, char('a' + i)));
    d.initial = 0;
    const bool sink_acc = rng() % 2;
    d.accepting.assign(n + 1, !sink_acc);
    d.accepting[n] = sink_acc;
    if (mixed)
        for (std::size_t q = 0; q < n; ++q) d.accepting[q] = rng() % 2;
    d.delta.resize((n + 1) * sigma);
    for (std::size_t q = 0; q <= n; ++q)
        for (std::size_t c = 0; c < sigma; ++c) d.delta[q * sigma + c] = static_cast<State>(q == n ? n : rng() % (n + 1));
    return minimize(d);
}

// A random minimal DFA whose n states form layers (a transition never goes back to an earlier
// layer), so that several closed sets exist (docs/WINDOWS.md §3d).
inline Dfa random_layered_dfa(std::mt19937_64& rng, std::size_t sigma, std::size_t n) {
    Dfa d;
    for (std::size_t i = 0; i < sigma; ++i) d.alphabet.push_back(std::string(1, char('a' + i)));
    d.initial = 0;
    std::vector<std::size_t> layer(n);
    for (std::size_t q = 1; q < n; ++q) layer[q] = layer[q - 1] + (rng() % 2);
    d.accepting.resize(n);
    for (auto& a : d.accepting) a = rng() % 2;
    d.delta.resize(n * sigma);
    for (std::size_t q = 0; q < n; ++q) {
        std::size_t first = q;
        while (first > 0 && layer[first - 1] == layer[q]) --first;
        for (std::size_t c = 0; c < sigma; ++c) d.delta[q * sigma + c] = static_cast<State>(first + rng() % (n - first));
    }
    return minimize(d);
}

// Every word over the DFA's alphabet up to length n, in length-lexicographic order.
inline std::vector<Word> all_words(std::size_t sigma, std::size_t n) {
    std::vector<Word> out{Word{}};
    for (std::size_t i = 0; i < out.size(); ++i)
        if (out[i].size() < n)
            for (std::size_t c = 0; c < sigma; ++c) {
                Word w = out[i];
                w.push_back(static_cast<Symbol>(c));
                out.push_back(std::move(w));
            }
    return out;
}

// A random language whose membership is a function of the last delta letters (and of the whole word
// when shorter), as a minimal DFA: states are the words of length <= delta.
inline Dfa random_definite(std::mt19937_64& rng, std::size_t sigma, std::size_t delta) {
    std::vector<Word> words = all_words(sigma, delta);
    std::map<Word, State> id;
    for (std::size_t i = 0; i < words.size(); ++i) id[words[i]] = State(i);
    Dfa d;
    for (std::size_t i = 0; i < sigma; ++i) d.alphabet.push_back(std::string(1, char('a' + i)));
    d.initial = 0;
    d.accepting.resize(words.size());
    for (auto& a : d.accepting) a = rng() % 2;
    d.delta.resize(words.size() * sigma);
    for (std::size_t i = 0; i < words.size(); ++i)
        for (Symbol a = 0; a < sigma; ++a) {
            Word w = words[i];
            w.push_back(a);
            if (w.size() > delta) w.erase(w.begin());
            d.delta[i * sigma + a] = id.at(w);
        }
    return minimize(d);
}

// The formula, by the direct semantics at EOS, and the DFA agree on every word up to max_len.
inline void agrees_on_short_words(ltl::Formula f, const Dfa& d, std::size_t max_len) {
    for (const Word& w : all_words(d.num_symbols(), max_len)) {
        std::vector<std::string> names;
        for (Symbol s : w) names.push_back(d.alphabet[s]);
        INFO(format_word(d.alphabet, w));
        REQUIRE(ltl::holds_at_eos(f, names) == d.accepts(w));
    }
}

// The route's formula against the direct semantics (ltl/semantics.hh) on every short word, and its
// temporal depth: P (or H) over characteristic formulas of depth-D window types.
inline void check_sink_formula(const SinkSearchReport& r, const Dfa& d, std::size_t n) {
    REQUIRE_FALSE(r.formula.is_null());
    CHECK(ltl::temporal_depth(r.formula) <= r.depth + (r.past_letters ? 2 : 1));
    CHECK(formula_in_window_fragment(r.formula, 2, true));
    agrees_on_short_words(r.formula, d, n);
}

}  // namespace ltlkit::testing
