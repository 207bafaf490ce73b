// The checker's verification of a sink-state or closed-set "yes" without a formula (docs/WINDOWS.md
// §3c and §3d, "Without a formula"; check_window_certificate, window_certificate_check.cc). Written
// apart from the searches (sink_state_formulas.cc, upset_formulas.cc): its own type interning and
// product states, and a counterexample word when a hypothesis fails. The sink-state check explores
// only the words that avoid the sink and their continuations while their types stay in G; checked as
// the closed-set chain of {sink}, it would explore the whole product, 20 times more on the windows
// table's cell 75 (2.5 s instead of 0.12 s).
#include <algorithm>
#include <cstdint>
#include <deque>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "automata/algebra/windows.hh"
#include "automata/random.hh"

namespace ltlkit::automata::algebra {

namespace {

struct IntVecHash {
    std::size_t operator()(const std::vector<int>& v) const noexcept {
        std::uint64_t h = 0x51ed270b27b0f3a1ULL + v.size();
        for (int x : v) h = splitmix64(h + static_cast<std::uint64_t>(static_cast<std::uint32_t>(x)));
        return static_cast<std::size_t>(h);
    }
};

// Window types (docs/WINDOWS.md §3b): level 0 is the label (a letter, or -1 for EOS) with the set of
// letters before the position (0 when letters are not annotated); level j is the position's own
// level-(j-1) type with the set of level-(j-1) types of the (up to k) positions before it.
class Types {
public:
    int intern(const std::vector<int>& key) {
        if (auto it = ids_.find(key); it != ids_.end()) return it->second;
        return ids_.emplace(key, static_cast<int>(ids_.size())).first->second;
    }
    std::size_t size() const { return ids_.size(); }

private:
    std::unordered_map<std::vector<int>, int, IntVecHash> ids_;
};

}  // namespace

Result<std::optional<std::string>> check_sink_exploration(const Dfa& minimal, unsigned k, unsigned D, bool past_letters,
                                                          bool mixed, const Word& sink_word, std::size_t max_states) {
    const std::size_t sigma = minimal.num_symbols();
    if (k == 0 || D == 0) return make_error("a sink-state certificate needs k >= 1 and a depth >= 1");
    if (past_letters && sigma > 30) return make_error("letters annotated with the letters before them: at most 30 letters");
    for (Symbol c : sink_word)
        if (c >= sigma) return make_error("the word into the sink uses a symbol outside the alphabet");
    const State s = minimal.run(minimal.initial, sink_word);
    auto why = [](std::string w) -> Result<std::optional<std::string>> { return std::optional<std::string>(std::move(w)); };
    if (s == minimal.initial) return why("the word into the sink leads to the initial state");
    for (Symbol c = 0; c < sigma; ++c)
        if (minimal.next(s, c) != s) return why("the state after the word into the sink is not a sink (it leaves on " + minimal.alphabet[c] + ")");
    const bool sink_acc = minimal.accepting[s] != 0;
    if (!mixed)
        for (State q = 0; q < minimal.num_states(); ++q)
            if (q != s && (minimal.accepting[q] != 0) == sink_acc)
                return why("a state besides the sink has the sink's acceptance, which the certificate's form (not mixed) excludes");

    // A product state: [q, letters read (bit mask, 0 unless annotated), then for each level
    // j = 0..D-1 the level-j types of the last k positions, oldest first, -1 before the word].
    Types types;
    const std::size_t width = 2 + std::size_t(D) * k;
    std::unordered_map<std::vector<int>, std::size_t, IntVecHash> seen;
    std::vector<std::vector<int>> states;
    std::vector<std::pair<std::size_t, Symbol>> parent;  // (previous state, letter); the first has none
    auto word_to = [&](std::size_t i) {
        Word w;
        while (i != 0) {
            w.push_back(parent[i].second);
            i = parent[i].first;
        }
        std::reverse(w.begin(), w.end());
        return w;
    };
    // The level-D type of a new position labelled c (-1: EOS) after state st; its levels 0..D-1 in lv.
    std::vector<int> lv(D + 1), key;
    key.reserve(2 + k);
    auto type_after = [&](const std::vector<int>& st, int c) {
        lv[0] = types.intern({0, c, past_letters ? st[1] : 0});
        for (unsigned j = 1; j <= D; ++j) {
            key.assign({static_cast<int>(j), lv[j - 1]});
            for (std::size_t i = 0; i < k; ++i)
                if (const int t = st[2 + std::size_t(j - 1) * k + i]; t >= 0) key.push_back(t);
            std::sort(key.begin() + 2, key.end());  // the window as a set
            key.erase(std::unique(key.begin() + 2, key.end()), key.end());
            lv[j] = types.intern(key);
        }
        return lv[D];
    };
    // The successor of st after a position labelled c whose types type_after just computed.
    auto successor = [&](const std::vector<int>& st, Symbol c) {
        std::vector<int> nx(width);
        nx[0] = static_cast<int>(minimal.next(static_cast<State>(st[0]), c));
        nx[1] = past_letters ? (st[1] | (1 << c)) : 0;
        for (unsigned j = 0; j < D; ++j) {
            const std::size_t base = 2 + std::size_t(j) * k;
            for (std::size_t i = 0; i + 1 < k; ++i) nx[base + i] = st[base + i + 1];
            nx[base + k - 1] = lv[j];
        }
        return nx;
    };
    auto add = [&](std::vector<int> nx, std::size_t from, Symbol c) -> Result<bool> {
        if (seen.count(nx)) return false;
        if (states.size() >= max_states)
            return make_error("the sink-state exploration exceeded " + std::to_string(max_states) + " product states");
        seen.emplace(nx, states.size());
        states.push_back(std::move(nx));
        parent.emplace_back(from, c);
        return true;
    };
    std::vector<int> init(width, -1);
    init[0] = static_cast<int>(minimal.initial);
    init[1] = 0;
    if (auto r = add(init, 0, 0); !r) return r.error();

    // Words that avoid the sink: G (position types), G_EOS (EOS types) and, per EOS type, the
    // acceptances it meets (bit 1 rejected, bit 2 accepted); the entries into the sink wait.
    std::set<int> G;
    std::map<int, std::pair<int, std::size_t>> eos;  // EOS type -> (acceptances, a state with it)
    std::vector<std::pair<std::size_t, Symbol>> entries;
    for (std::size_t i = 0; i < states.size(); ++i) {
        const std::vector<int> st = states[i];
        const int e = type_after(st, -1);
        auto& [acc, where] = eos.try_emplace(e, 0, i).first->second;
        const int bit = minimal.accepting[static_cast<State>(st[0])] ? 2 : 1;
        if (mixed && (acc | bit) == 3) {
            const Word u = word_to(where), v = word_to(i);
            return why("the words '" + format_word(minimal.alphabet, u) + "' and '" + format_word(minimal.alphabet, v) +
                       "' avoid the sink, have equal depth-" + std::to_string(D) + " EOS types and differ in membership");
        }
        acc |= bit;
        for (Symbol c = 0; c < sigma; ++c) {
            if (minimal.next(static_cast<State>(st[0]), c) == s) {
                entries.emplace_back(i, c);
                continue;
            }
            G.insert(type_after(st, static_cast<int>(c)));
            if (auto r = add(successor(st, c), i, c); !r) return r.error();
        }
    }
    // Words that enter the sink, from the entry on, as long as every position type lies in G: none
    // may end with an EOS type of G_EOS.
    const std::size_t avoiding = states.size();
    auto follow = [&](std::size_t i, Symbol c) -> Result<bool> {
        const std::vector<int> st = states[i];
        if (!G.count(type_after(st, static_cast<int>(c)))) return false;  // a type outside G: the branch ends
        return add(successor(st, c), i, c);
    };
    for (const auto& [i, c] : entries)
        if (auto r = follow(i, c); !r) return r.error();
    for (std::size_t i = avoiding; i < states.size(); ++i) {
        if (auto it = eos.find(type_after(states[i], -1)); it != eos.end()) {
            const Word u = word_to(i), v = word_to(it->second.second);
            return why("the word '" + format_word(minimal.alphabet, u) + "' enters the sink, and every one of its depth-" +
                       std::to_string(D) + " position types is that of a position of a word avoiding the sink, and its EOS type that of '" +
                       format_word(minimal.alphabet, v) + "', which avoids it");
        }
        for (Symbol c = 0; c < sigma; ++c)
            if (auto r = follow(i, c); !r) return r.error();
    }
    return std::optional<std::string>();
}

namespace {

// The whole DFA x window-type product of one exploration of the closed-set strategy (docs/WINDOWS.md
// §3d): level-0 types carry the letters before the position (letters) and, nested, the marks of the
// state before it (the sets of `marks` holding it); a key is a level-D type with those marks.
class MarkedProduct {
public:
    MarkedProduct(const Dfa& d, unsigned k, unsigned D, bool letters, bool nested, std::vector<const std::vector<char>*> marks)
        : d_(d), k_(k), D_(D), letters_(letters), nested_(nested), marks_(std::move(marks)), lv_(D + 1) {}

    // Explores every reachable product state; an error past max_states.
    Result<bool> explore(std::size_t max_states) {
        const std::size_t sigma = d_.num_symbols(), width = 2 + std::size_t(D_) * k_;
        std::unordered_map<std::vector<int>, std::size_t, IntVecHash> seen;
        std::vector<int> init(width, -1);
        init[0] = static_cast<int>(d_.initial);
        init[1] = 0;
        seen.emplace(init, 0);
        states_.push_back(init);
        parent_.emplace_back(0, 0);
        for (std::size_t i = 0; i < states_.size(); ++i) {
            const std::vector<int> st = states_[i];
            const int m = mark_bits(static_cast<State>(st[0]));
            eos_.push_back({type_after(st, -1), m});
            for (Symbol c = 0; c < sigma; ++c) {
                step_.push_back({type_after(st, static_cast<int>(c)), m});
                std::vector<int> nx(width);
                nx[0] = static_cast<int>(d_.next(static_cast<State>(st[0]), c));
                nx[1] = letters_ ? (st[1] | (1 << c)) : 0;
                for (unsigned j = 0; j < D_; ++j) {
                    const std::size_t base = 2 + std::size_t(j) * k_;
                    for (std::size_t p = 0; p + 1 < k_; ++p) nx[base + p] = st[base + p + 1];
                    nx[base + k_ - 1] = lv_[j];
                }
                auto [it, fresh] = seen.try_emplace(nx, states_.size());
                if (fresh) {
                    if (states_.size() >= max_states)
                        return make_error("the closed-set exploration exceeded " + std::to_string(max_states) + " product states");
                    states_.push_back(std::move(nx));
                    parent_.emplace_back(i, c);
                }
                to_.push_back(it->second);
            }
        }
        return true;
    }
    std::size_t size() const { return states_.size(); }
    State state(std::size_t i) const { return static_cast<State>(states_[i][0]); }
    std::pair<int, int> eos_key(std::size_t i) const { return eos_[i]; }
    std::pair<int, int> step_key(std::size_t i, Symbol c) const { return step_[i * d_.num_symbols() + c]; }
    std::size_t step_to(std::size_t i, Symbol c) const { return to_[i * d_.num_symbols() + c]; }
    Word word_to(std::size_t i) const {
        Word w;
        for (; i != 0; i = parent_[i].first) w.push_back(parent_[i].second);
        std::reverse(w.begin(), w.end());
        return w;
    }

private:
    int mark_bits(State q) const {
        int m = 0;
        for (std::size_t i = 0; i < marks_.size(); ++i)
            if ((*marks_[i])[q]) m |= 1 << i;
        return m;
    }
    int type_after(const std::vector<int>& st, int c) {
        lv_[0] = types_.intern({0, c, letters_ ? st[1] : 0, nested_ ? mark_bits(static_cast<State>(st[0])) : 0});
        for (unsigned j = 1; j <= D_; ++j) {
            key_.assign({static_cast<int>(j), lv_[j - 1]});
            for (std::size_t i = 0; i < k_; ++i)
                if (const int t = st[2 + std::size_t(j - 1) * k_ + i]; t >= 0) key_.push_back(t);
            std::sort(key_.begin() + 2, key_.end());
            key_.erase(std::unique(key_.begin() + 2, key_.end()), key_.end());
            lv_[j] = types_.intern(key_);
        }
        return lv_[D_];
    }
    const Dfa& d_;
    std::size_t k_;
    unsigned D_;
    bool letters_, nested_;
    std::vector<const std::vector<char>*> marks_;
    Types types_;
    std::vector<int> lv_, key_;
    std::vector<std::vector<int>> states_;
    std::vector<std::pair<std::size_t, Symbol>> parent_;
    std::vector<std::pair<int, int>> eos_, step_;
    std::vector<std::size_t> to_;
};

}  // namespace

Result<std::optional<std::string>> check_closed_set_chain(const Dfa& minimal, unsigned k,
                                                          const std::vector<UpsetSearchReport::Step>& chain,
                                                          const UpsetSearchReport::Exploration& decision, std::size_t max_states) {
    const std::size_t n = minimal.num_states(), sigma = minimal.num_symbols();
    auto why = [](std::string w) -> Result<std::optional<std::string>> { return std::optional<std::string>(std::move(w)); };
    if (k == 0) return make_error("a closed-set certificate needs k >= 1");
    if (chain.empty()) return make_error("a closed-set certificate needs at least one set");
    if (chain.size() > 30) return make_error("a closed-set certificate has at most 30 sets");
    auto check_by = [&](const UpsetSearchReport::Exploration& by, std::size_t before, const std::string& what) -> Result<bool> {
        if (by.depth < 1 || by.depth > 64) return make_error(what + ": the depth must be between 1 and 64");
        if (by.past_letters && sigma > 30) return make_error(what + ": letters annotated with the letters before them: at most 30 letters");
        for (std::size_t m : by.marks)
            if (m >= before) return make_error(what + ": a mark must name an earlier set of the chain");
        return true;
    };
    auto product_of = [&](const UpsetSearchReport::Exploration& by) {
        std::vector<const std::vector<char>*> marks;
        for (std::size_t m : by.marks) marks.push_back(&chain[m].set);
        return MarkedProduct(minimal, k, by.depth, by.past_letters, by.nested, std::move(marks));
    };
    for (std::size_t i = 0; i < chain.size(); ++i) {
        const std::string what = "set " + std::to_string(i + 1);
        const std::vector<char>& U = chain[i].set;
        if (U.size() != n) return make_error(what + ": one membership per state expected");
        if (auto r = check_by(chain[i].by, i, what); !r) return r.error();
        if (U[minimal.initial]) return why(what + " holds the initial state");
        bool any = false;
        for (State q = 0; q < n; ++q) {
            if (!U[q]) continue;
            any = true;
            for (Symbol c = 0; c < sigma; ++c)
                if (!U[minimal.next(q, c)]) return why(what + " is not closed under the transitions");
        }
        if (!any) return why(what + " is empty");
        // Lemma 5: every word that enters U shows a key that no word avoiding U shows.
        MarkedProduct p = product_of(chain[i].by);
        if (auto r = p.explore(max_states); !r) return r.error();
        std::set<std::pair<int, int>> G, G_eos;
        for (std::size_t s = 0; s < p.size(); ++s) {
            if (U[p.state(s)]) continue;
            G_eos.insert(p.eos_key(s));
            for (Symbol c = 0; c < sigma; ++c)
                if (!U[p.state(p.step_to(s, c))]) G.insert(p.step_key(s, c));
        }
        std::vector<char> visited(p.size(), 0);
        std::deque<std::size_t> queue;
        auto follow = [&](std::size_t s, Symbol c) {
            if (!G.count(p.step_key(s, c))) return;  // a key outside G: this word is told apart
            const std::size_t t = p.step_to(s, c);
            if (!visited[t]) visited[t] = 1, queue.push_back(t);
        };
        for (std::size_t s = 0; s < p.size(); ++s)
            if (!U[p.state(s)])
                for (Symbol c = 0; c < sigma; ++c)
                    if (U[p.state(p.step_to(s, c))]) follow(s, c);
        while (!queue.empty()) {
            const std::size_t s = queue.front();
            queue.pop_front();
            if (G_eos.count(p.eos_key(s)))
                return why(what + ": the word '" + format_word(minimal.alphabet, p.word_to(s)) +
                           "' enters it while every key of its positions and of its EOS is one that a word avoiding it shows");
            for (Symbol c = 0; c < sigma; ++c) follow(s, c);
        }
    }
    if (auto r = check_by(decision, chain.size(), "the decision"); !r) return r.error();
    MarkedProduct p = product_of(decision);
    if (auto r = p.explore(max_states); !r) return r.error();
    std::map<std::pair<std::vector<char>, std::pair<int, int>>, std::pair<bool, std::size_t>> point;
    for (std::size_t s = 0; s < p.size(); ++s) {
        std::vector<char> in;
        for (const auto& step : chain) in.push_back(step.set[p.state(s)]);
        const bool acc = minimal.accepting[p.state(s)] != 0;
        auto [it, fresh] = point.try_emplace({std::move(in), p.eos_key(s)}, acc, s);
        if (!fresh && it->second.first != acc)
            return why("the words '" + format_word(minimal.alphabet, p.word_to(it->second.second)) + "' and '" +
                       format_word(minimal.alphabet, p.word_to(s)) +
                       "' entered the same sets of the chain and have equal EOS keys, but differ in membership");
    }
    return std::optional<std::string>();
}

}  // namespace ltlkit::automata::algebra
