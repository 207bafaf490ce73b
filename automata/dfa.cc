#include "automata/dfa.hh"

#include <sstream>
#include <string_view>
#include <unordered_set>

namespace ltlkit::automata {

State Dfa::run(State q, const Word& w) const {
    const std::size_t m = alphabet.size();
    for (Symbol a : w) q = delta[q * m + a];
    return q;
}

Result<bool> Dfa::validate() const {
    const std::size_t n = accepting.size();
    const std::size_t m = alphabet.size();
    if (n == 0) return make_error("a DFA needs at least one state");
    std::unordered_set<std::string_view> seen;  // linear in the alphabet (10^5 symbols)
    for (std::size_t i = 0; i < m; ++i) {
        if (alphabet[i].empty()) return make_error("alphabet symbol " + std::to_string(i) + " is empty");
        if (!seen.insert(alphabet[i]).second) return make_error("alphabet symbol '" + alphabet[i] + "' appears twice");
    }
    if (initial >= n)
        return make_error("initial state " + std::to_string(initial) + " is not a state (there are " +
                          std::to_string(n) + ")");
    for (std::size_t q = 0; q < n; ++q)
        if (accepting[q] > 1)
            return make_error("state " + std::to_string(q) + " has an accepting flag other than 0/1");
    if (delta.size() != n * m) {
        std::size_t q = delta.size() / (m ? m : 1);
        std::size_t a = m ? delta.size() % m : 0;
        if (delta.size() < n * m)
            return make_error("state " + std::to_string(q) + " has no transition on symbol '" +
                              alphabet[a] + "'");
        return make_error("transition table has " + std::to_string(delta.size()) +
                          " entries, expected " + std::to_string(n * m));
    }
    for (std::size_t q = 0; q < n; ++q)
        for (std::size_t a = 0; a < m; ++a)
            if (delta[q * m + a] >= n)
                return make_error("state " + std::to_string(q) + " on symbol '" + alphabet[a] +
                                  "' goes to " + std::to_string(delta[q * m + a]) +
                                  ", which is not a state");
    return true;
}

bool single_char_alphabet(const std::vector<std::string>& alphabet) {
    for (const auto& s : alphabet)
        if (s.size() != 1) return false;
    return true;
}

std::vector<std::string> word_symbols(const std::vector<std::string>& alphabet, const Word& w) {
    std::vector<std::string> out;
    out.reserve(w.size());
    for (Symbol a : w) out.push_back(alphabet.at(a));
    return out;
}

std::string format_word(const std::vector<std::string>& alphabet, const Word& w) {
    const bool single = single_char_alphabet(alphabet);
    std::string out;
    for (std::size_t i = 0; i < w.size(); ++i) {
        if (!single && i > 0) out += ' ';
        out += alphabet.at(w[i]);
    }
    return out;
}

namespace {
long symbol_index(const std::vector<std::string>& alphabet, const std::string& s) {
    for (std::size_t i = 0; i < alphabet.size(); ++i)
        if (alphabet[i] == s) return static_cast<long>(i);
    return -1;
}

std::string alphabet_list(const std::vector<std::string>& alphabet) {
    std::string out;
    for (std::size_t i = 0; i < alphabet.size(); ++i) out += (i ? "," : "") + alphabet[i];
    return out;
}
}  // namespace

Result<Word> parse_word(const std::vector<std::string>& alphabet, const std::string& text) {
    Word w;
    const bool single = single_char_alphabet(alphabet);
    std::istringstream in(text);
    std::string token;
    while (in >> token) {
        long idx = symbol_index(alphabet, token);
        if (idx >= 0) {
            w.push_back(static_cast<Symbol>(idx));
            continue;
        }
        if (single) {  // letter by letter
            for (char c : token) {
                long j = symbol_index(alphabet, std::string(1, c));
                if (j < 0)
                    return make_error("word '" + text + "': symbol '" + std::string(1, c) +
                                      "' is not in the alphabet {" + alphabet_list(alphabet) + "}");
                w.push_back(static_cast<Symbol>(j));
            }
            continue;
        }
        return make_error("word '" + text + "': symbol '" + token + "' is not in the alphabet {" +
                          alphabet_list(alphabet) + "}");
    }
    return w;
}

}  // namespace ltlkit::automata
