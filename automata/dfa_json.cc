#include "automata/dfa_json.hh"

#include <algorithm>
#include <set>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <unordered_set>
#include <vector>

#include "base/file.hh"
#include "base/json.hh"
#include "base/text.hh"

namespace ltlkit::automata {

using nlohmann::json;
using ojson = nlohmann::ordered_json;

std::string to_json(const Dfa& d) {
    const std::size_t n = d.num_states(), m = d.num_symbols();
    std::string out = "{\"alphabet\": [";
    for (std::size_t i = 0; i < m; ++i) {
        if (i) out += ',';
        out += json(d.alphabet[i]).dump();
    }
    out += "], \"initial\": " + std::to_string(d.initial) + ", \"accepting\": [";
    bool first = true;
    for (std::size_t q = 0; q < n; ++q)
        if (d.accepting[q]) {
            if (!first) out += ',';
            out += std::to_string(q);
            first = false;
        }
    out += "], \"transitions\": [";
    for (std::size_t q = 0; q < n; ++q) {
        out += q ? ",[" : "[";
        for (std::size_t a = 0; a < m; ++a) {
            if (a) out += ',';
            out += std::to_string(d.delta[q * m + a]);
        }
        out += "]";
    }
    out += "]}";
    return out;
}

namespace {

Error dfa_error(const std::string& message) { return make_error("DFA JSON: " + message); }

// A non-negative integer that fits a state number, or an error naming `what`.
Result<std::uint64_t> state_number(const json& v, const std::string& what) {
    if (!v.is_number_integer() || (v.is_number_integer() && !v.is_number_unsigned() && v.get<long long>() < 0))
        return dfa_error(what + " must be a non-negative integer, not " + json_excerpt(v));
    return v.get<std::uint64_t>();
}

}  // namespace

Result<Dfa> dfa_from_json(const std::string& text) {
    auto parsed = parse_json<json>(text);
    if (!parsed.ok()) return parsed.error();
    const json& j = *parsed;
    if (!j.is_object()) return dfa_error("expected an object with keys alphabet, initial, accepting, transitions");
    static const std::set<std::string> keys{"alphabet", "initial", "accepting", "transitions"};
    for (auto it = j.begin(); it != j.end(); ++it)
        if (!keys.count(it.key()))
            return dfa_error("unknown key \"" + it.key() +
                             "\" (expected alphabet, initial, accepting, transitions)");
    for (const auto& k : keys)
        if (!j.contains(k)) return dfa_error("missing key \"" + k + "\"");

    Dfa d;
    const json& al = j.at("alphabet");
    std::unordered_set<std::string> seen;  // (a linear scan per symbol was quadratic: 10^5 symbols took a minute)
    if (!al.is_array()) return dfa_error("\"alphabet\" must be an array of symbol names");
    for (std::size_t i = 0; i < al.size(); ++i) {
        if (!al[i].is_string()) return dfa_error("alphabet entry " + std::to_string(i) + " is not a string: " + json_excerpt(al[i]));
        std::string s = al[i].get<std::string>();
        if (s.empty()) return dfa_error("alphabet entry " + std::to_string(i) + " is empty");
        if (s.find_first_of(" ,") != std::string::npos || has_control_byte(s))
            return dfa_error("alphabet symbol " + json_excerpt(al[i]) + " contains a space, a comma or a control character");
        if (!seen.insert(s).second) return dfa_error("alphabet symbol " + json_excerpt(al[i]) + " appears twice");
        d.alphabet.push_back(s);
    }
    const std::size_t m = d.alphabet.size();

    const json& tr = j.at("transitions");
    if (!tr.is_array()) return dfa_error("\"transitions\" must be an array with one row per state");
    const std::size_t n = tr.size();
    if (n == 0) return dfa_error("\"transitions\" is empty: a DFA needs at least one state");
    d.accepting.assign(n, 0);
    // Grown row by row, so that many empty rows and a long alphabet (n * m large, the text small)
    // do not allocate n * m before the first error.
    d.delta.reserve(std::min(n * m, text.size()));
    for (std::size_t q = 0; q < n; ++q) {
        const json& row = tr[q];
        if (!row.is_array())
            return dfa_error("transitions of state " + std::to_string(q) + " must be an array, not " + json_excerpt(row));
        d.delta.resize((q + 1) * m);
        for (std::size_t a = 0; a < m; ++a) {
            if (a >= row.size() || row[a].is_null())
                return dfa_error("state " + std::to_string(q) + " has no transition on symbol '" + d.alphabet[a] +
                                 "' (a DFA must be complete)");
            auto t = state_number(row[a], "the target of state " + std::to_string(q) + " on '" + d.alphabet[a] + "'");
            if (!t.ok()) return t.error();
            if (*t >= n)
                return dfa_error("state " + std::to_string(q) + " on symbol '" + d.alphabet[a] + "' goes to " +
                                 std::to_string(*t) + ", which is not a state (there are " + std::to_string(n) + ")");
            d.delta[q * m + a] = static_cast<State>(*t);
        }
        if (row.size() > m)
            return dfa_error("state " + std::to_string(q) + " has " + std::to_string(row.size()) +
                             " transitions but the alphabet has " + std::to_string(m) + " symbols");
    }
    auto init = state_number(j.at("initial"), "\"initial\"");
    if (!init.ok()) return init.error();
    if (*init >= n)
        return dfa_error("initial state " + std::to_string(*init) + " is not a state (there are " +
                         std::to_string(n) + ")");
    d.initial = static_cast<State>(*init);
    const json& acc = j.at("accepting");
    if (!acc.is_array()) return dfa_error("\"accepting\" must be an array of state numbers");
    for (const json& v : acc) {
        auto q = state_number(v, "an accepting state");
        if (!q.ok()) return q.error();
        if (*q >= n)
            return dfa_error("accepting state " + std::to_string(*q) + " is not a state (there are " +
                             std::to_string(n) + ")");
        if (d.accepting[*q]) return dfa_error("accepting state " + std::to_string(*q) + " is listed twice");
        d.accepting[*q] = 1;
    }
    auto ok = d.validate();
    if (!ok.ok()) return dfa_error(ok.error().message);
    return d;
}

Result<Dfa> read_dfa_file(const std::string& path) {
    auto text = read_file(path);
    if (!text.ok()) return text.error();
    auto d = dfa_from_json(*text);
    if (!d.ok()) {
        Error e = d.error();
        e.origin = path;
        return e;
    }
    return d;
}

}  // namespace ltlkit::automata
