// The checker's verification of a sink-state "yes" without a formula (docs/WINDOWS.md §3c,
// "Without a formula"; check_window_certificate, window_certificate_check.cc). Written apart from
// the search (sink_state_formulas.cc): its own type interning and product states, one breadth-first
// pass for the words that avoid the sink and one for the words that enter it, and a counterexample
// word when the hypothesis fails.
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

}  // namespace ltlkit::automata::algebra
