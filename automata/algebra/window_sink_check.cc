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
#include <vector>

#include "automata/algebra/flat_interner.hh"
#include "automata/algebra/window_strategies.hh"
#include "automata/algebra/windows.hh"

namespace ltlkit::automata::algebra {

namespace {


// One step of the DFA x window-type product (docs/WINDOWS.md §3b). A product state is [q, letters
// read (bit mask, 0 unless annotated), then for each level j = 0..D-1 the level-j types of the last
// k positions, oldest first, -1 before the word]. Level 0 of a position's type is its label (a
// letter, or -1 for EOS) with the letters before it (letters) and, nested, the marks of the state
// before it (the sets of `marks` holding it); level j is the level-(j-1) type with the set of
// level-(j-1) types of the positions in its window. Types are interned here, apart from the
// searches' WindowTypes.
class WindowStepper {
public:
    WindowStepper(const Dfa& d, unsigned k, unsigned D, bool letters, bool nested = false,
                  std::vector<const std::vector<char>*> marks = {})
        : d_(d), k_(k), D_(D), letters_(letters), nested_(nested), marks_(std::move(marks)), lv_(D + 1) {}

    std::vector<long> initial() const {
        std::vector<long> st(2 + std::size_t(D_) * k_, -1);
        st[0] = static_cast<long>(d_.initial);
        st[1] = 0;
        return st;
    }
    // The level-D type of a new position labelled c (-1: EOS) after state st.
    long type_after(const std::vector<long>& st, long c) {
        lv_[0] = intern({0, c, letters_ ? st[1] : 0, nested_ ? mark_bits(state(st)) : 0});
        for (unsigned j = 1; j <= D_; ++j) {
            key_.assign({static_cast<long>(j), lv_[j - 1]});
            for (std::size_t i = 0; i < k_; ++i)
                if (const long t = st[2 + std::size_t(j - 1) * k_ + i]; t >= 0) key_.push_back(t);
            std::sort(key_.begin() + 2, key_.end());  // the window as a set
            key_.erase(std::unique(key_.begin() + 2, key_.end()), key_.end());
            lv_[j] = intern(key_);
        }
        return lv_[D_];
    }
    // The successor of st after the position labelled c whose type type_after just computed.
    std::vector<long> successor(const std::vector<long>& st, Symbol c) const {
        std::vector<long> nx(st.size());
        nx[0] = static_cast<long>(d_.next(state(st), c));
        nx[1] = letters_ ? (st[1] | (1L << c)) : 0;
        for (unsigned j = 0; j < D_; ++j) {
            const std::size_t base = 2 + std::size_t(j) * k_;
            for (std::size_t i = 0; i + 1 < k_; ++i) nx[base + i] = st[base + i + 1];
            nx[base + k_ - 1] = lv_[j];
        }
        return nx;
    }
    static State state(const std::vector<long>& st) { return static_cast<State>(st[0]); }
    long mark_bits(State q) const {
        long m = 0;
        for (std::size_t i = 0; i < marks_.size(); ++i)
            if ((*marks_[i])[q]) m |= 1L << i;
        return m;
    }

private:
    long intern(const std::vector<long>& key) { return ids_(key); }
    const Dfa& d_;
    std::size_t k_;
    unsigned D_;
    bool letters_, nested_;
    std::vector<const std::vector<char>*> marks_;
    FlatInterner<long> ids_;  // the types met, in one pool (flat_interner.hh)
    std::vector<long> lv_, key_;
};

// The product states an exploration has met, in order, each with the state and letter it was
// reached from, so that a counterexample is written as the word that reaches it.
class ProductStates {
public:
    explicit ProductStates(std::size_t max_states, std::string what) : max_(max_states), what_(std::move(what)) {}
    // The index of st, added (reached from state `from` by c) when new; an error past max_states.
    Result<std::size_t> add(const std::vector<long>& st, std::size_t from, Symbol c) {
        if (const std::int32_t id = states_.find(st.data(), st.size()); id >= 0) return static_cast<std::size_t>(id);
        if (states_.size() >= max_) return make_error("the " + what_ + " exploration exceeded " + std::to_string(max_) + " product states");
        parent_.emplace_back(from, c);
        return static_cast<std::size_t>(states_(st));
    }
    std::size_t size() const { return states_.size(); }
    State dfa_state(std::size_t i) const { return static_cast<State>(states_.get(static_cast<std::int32_t>(i)).first[0]); }
    // A copy: the pool moves as states are added.
    std::vector<long> operator[](std::size_t i) const {
        std::vector<long> st;
        states_.copy(static_cast<std::int32_t>(i), st);
        return st;
    }
    Word word_to(std::size_t i) const {
        Word w;
        for (; i != 0; i = parent_[i].first) w.push_back(parent_[i].second);
        std::reverse(w.begin(), w.end());
        return w;
    }

private:
    std::size_t max_;
    std::string what_;
    FlatInterner<long> states_;  // in one pool (flat_interner.hh), ids in order of first sight
    std::vector<std::pair<std::size_t, Symbol>> parent_;
};

// The whole product of one exploration of the closed-set strategy (docs/WINDOWS.md §3d), with each
// state's EOS key and each transition's key (a level-D type with the marks of the state before).
class MarkedProduct {
public:
    MarkedProduct(const Dfa& d, unsigned k, unsigned D, bool letters, bool nested, std::vector<const std::vector<char>*> marks,
                  std::size_t max_states)
        : d_(d), step_(d, k, D, letters, nested, std::move(marks)), states_(max_states, "closed-set") {}

    Result<bool> explore() {
        const std::size_t sigma = d_.num_symbols();
        if (auto r = states_.add(step_.initial(), 0, 0); !r) return r.error();
        for (std::size_t i = 0; i < states_.size(); ++i) {
            const std::vector<long> st = states_[i];
            const long m = step_.mark_bits(WindowStepper::state(st));
            eos_.push_back({step_.type_after(st, -1), m});
            for (Symbol c = 0; c < sigma; ++c) {
                keys_.push_back({step_.type_after(st, static_cast<long>(c)), m});
                auto to = states_.add(step_.successor(st, c), i, c);
                if (!to) return to.error();
                to_.push_back(*to);
            }
        }
        return true;
    }
    std::size_t size() const { return states_.size(); }
    State state(std::size_t i) const { return states_.dfa_state(i); }
    std::pair<long, long> eos_key(std::size_t i) const { return eos_[i]; }
    std::pair<long, long> step_key(std::size_t i, Symbol c) const { return keys_[i * d_.num_symbols() + c]; }
    std::size_t step_to(std::size_t i, Symbol c) const { return to_[i * d_.num_symbols() + c]; }
    Word word_to(std::size_t i) const { return states_.word_to(i); }

private:
    const Dfa& d_;
    WindowStepper step_;
    ProductStates states_;
    std::vector<std::pair<long, long>> eos_, keys_;
    std::vector<std::size_t> to_;
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

    WindowStepper step(minimal, k, D, past_letters);
    ProductStates states(max_states, "sink-state");
    if (auto r = states.add(step.initial(), 0, 0); !r) return r.error();

    // Words that avoid the sink: G (position types), G_EOS (EOS types) and, per EOS type, the
    // acceptances it meets (bit 1 rejected, bit 2 accepted); the entries into the sink wait.
    std::set<long> G;
    std::map<long, std::pair<int, std::size_t>> eos;  // EOS type -> (acceptances, a state with it)
    std::vector<std::pair<std::size_t, Symbol>> entries;
    for (std::size_t i = 0; i < states.size(); ++i) {
        const std::vector<long> st = states[i];
        const long e = step.type_after(st, -1);
        auto& [acc, where] = eos.try_emplace(e, 0, i).first->second;
        const int bit = minimal.accepting[WindowStepper::state(st)] ? 2 : 1;
        if (mixed && (acc | bit) == 3) {
            const Word u = states.word_to(where), v = states.word_to(i);
            return why("the words '" + format_word(minimal.alphabet, u) + "' and '" + format_word(minimal.alphabet, v) +
                       "' avoid the sink, have equal depth-" + std::to_string(D) + " EOS types and differ in membership");
        }
        acc |= bit;
        for (Symbol c = 0; c < sigma; ++c) {
            if (minimal.next(WindowStepper::state(st), c) == s) {
                entries.emplace_back(i, c);
                continue;
            }
            G.insert(step.type_after(st, static_cast<long>(c)));
            if (auto r = states.add(step.successor(st, c), i, c); !r) return r.error();
        }
    }
    // Words that enter the sink, from the entry on, as long as every position type lies in G: none
    // may end with an EOS type of G_EOS.
    const std::size_t avoiding = states.size();
    auto follow = [&](std::size_t i, Symbol c) -> Result<bool> {
        const std::vector<long> st = states[i];
        if (!G.count(step.type_after(st, static_cast<long>(c)))) return true;  // a type outside G: the branch ends
        if (auto r = states.add(step.successor(st, c), i, c); !r) return r.error();
        return true;
    };
    for (const auto& [i, c] : entries)
        if (auto r = follow(i, c); !r) return r.error();
    for (std::size_t i = avoiding; i < states.size(); ++i) {
        if (auto it = eos.find(step.type_after(states[i], -1)); it != eos.end()) {
            const Word u = states.word_to(i), v = states.word_to(it->second.second);
            return why("the word '" + format_word(minimal.alphabet, u) + "' enters the sink, and every one of its depth-" +
                       std::to_string(D) + " position types is that of a position of a word avoiding the sink, and its EOS type that of '" +
                       format_word(minimal.alphabet, v) + "', which avoids it");
        }
        for (Symbol c = 0; c < sigma; ++c)
            if (auto r = follow(i, c); !r) return r.error();
    }
    return std::optional<std::string>();
}

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
        return MarkedProduct(minimal, k, by.depth, by.past_letters, by.nested, std::move(marks), max_states);
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
        if (auto r = p.explore(); !r) return r.error();
        std::set<std::pair<long, long>> G, G_eos;
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
    if (auto r = p.explore(); !r) return r.error();
    std::map<std::pair<std::vector<char>, std::pair<long, long>>, std::pair<bool, std::size_t>> point;
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
