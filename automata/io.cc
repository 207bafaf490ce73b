#include "automata/io.hh"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

namespace ltlkit::automata {

using nlohmann::json;

std::string to_json(const Dfa& d) {
    const std::size_t n = d.num_states(), m = d.num_symbols();
    std::string out = "{\"alphabet\": [";
    for (std::size_t i = 0; i < m; ++i) out += (i ? "," : "") + json(d.alphabet[i]).dump();
    out += "], \"initial\": " + std::to_string(d.initial) + ", \"accepting\": [";
    bool first = true;
    for (std::size_t q = 0; q < n; ++q)
        if (d.accepting[q]) {
            out += (first ? "" : ",") + std::to_string(q);
            first = false;
        }
    out += "], \"transitions\": [";
    for (std::size_t q = 0; q < n; ++q) {
        out += q ? ",[" : "[";
        for (std::size_t a = 0; a < m; ++a) out += (a ? "," : "") + std::to_string(d.delta[q * m + a]);
        out += "]";
    }
    out += "]}";
    return out;
}

namespace {

// 1-based line and column (in characters) of the byte at `offset` in text.
std::pair<int, int> line_column(const std::string& text, std::size_t offset, std::string& line_text) {
    int line = 1, column = 1;
    std::size_t line_start = 0;
    for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
        const unsigned char c = static_cast<unsigned char>(text[i]);
        if (c == '\n') {
            ++line;
            column = 1;
            line_start = i + 1;
        } else if ((c & 0xC0) != 0x80) {
            ++column;
        }
    }
    std::size_t end = text.find('\n', line_start);
    line_text = text.substr(line_start, end == std::string::npos ? std::string::npos : end - line_start);
    if (!line_text.empty() && line_text.back() == '\r') line_text.pop_back();
    return {line, column};
}

Error dfa_error(const std::string& message) { return make_error("DFA JSON: " + message); }

// A non-negative integer that fits a state number, or an error naming `what`.
Result<std::uint64_t> state_number(const json& v, const std::string& what) {
    if (!v.is_number_integer() || (v.is_number_integer() && !v.is_number_unsigned() && v.get<long long>() < 0))
        return dfa_error(what + " must be a non-negative integer, not " + v.dump());
    return v.get<std::uint64_t>();
}

}  // namespace

Result<Dfa> dfa_from_json(const std::string& text) {
    json j;
    try {
        j = json::parse(text);
    } catch (const json::parse_error& e) {
        std::string what = e.what();
        // "[json.exception.parse_error.101] parse error at line 1, column 5: syntax error ..."
        auto colon = what.find(": ", what.find("parse error"));
        std::string detail = colon == std::string::npos ? what : what.substr(colon + 2);
        Error err = make_error("malformed JSON: " + detail);
        std::string line_text;
        auto [line, column] = line_column(text, e.byte ? e.byte - 1 : 0, line_text);
        err.line = line;
        err.column = column;
        err.source_line = line_text;
        return err;
    }
    if (!j.is_object()) return dfa_error("expected an object with keys alphabet, initial, accepting, transitions");
    static const std::set<std::string> keys{"alphabet", "initial", "accepting", "transitions"};
    for (auto it = j.begin(); it != j.end(); ++it)
        if (!keys.count(it.key()))
            return dfa_error("unknown key \"" + it.key() +
                             "\" (expected alphabet, initial, accepting, transitions)");
    for (const auto& k : keys)
        if (!j.contains(k)) return dfa_error("missing key \"" + k + "\"");

    Dfa d;
    const json& al = j["alphabet"];
    if (!al.is_array()) return dfa_error("\"alphabet\" must be an array of symbol names");
    for (std::size_t i = 0; i < al.size(); ++i) {
        if (!al[i].is_string()) return dfa_error("alphabet entry " + std::to_string(i) + " is not a string: " + al[i].dump());
        std::string s = al[i].get<std::string>();
        if (s.empty()) return dfa_error("alphabet entry " + std::to_string(i) + " is empty");
        if (s.find_first_of(" \t\r\n,") != std::string::npos)
            return dfa_error("alphabet symbol \"" + s + "\" contains a space or a comma");
        for (const auto& t : d.alphabet)
            if (t == s) return dfa_error("alphabet symbol \"" + s + "\" appears twice");
        d.alphabet.push_back(s);
    }
    const std::size_t m = d.alphabet.size();

    const json& tr = j["transitions"];
    if (!tr.is_array()) return dfa_error("\"transitions\" must be an array with one row per state");
    const std::size_t n = tr.size();
    if (n == 0) return dfa_error("\"transitions\" is empty: a DFA needs at least one state");
    d.accepting.assign(n, 0);
    d.delta.resize(n * m);
    for (std::size_t q = 0; q < n; ++q) {
        const json& row = tr[q];
        if (!row.is_array())
            return dfa_error("transitions of state " + std::to_string(q) + " must be an array, not " + row.dump());
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
    auto init = state_number(j["initial"], "\"initial\"");
    if (!init.ok()) return init.error();
    if (*init >= n)
        return dfa_error("initial state " + std::to_string(*init) + " is not a state (there are " +
                         std::to_string(n) + ")");
    d.initial = static_cast<State>(*init);
    const json& acc = j["accepting"];
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

long find_rejecting_sink(const Dfa& d) {
    const std::size_t m = d.num_symbols();
    for (std::size_t q = 0; q < d.num_states(); ++q) {
        if (d.accepting[q]) continue;
        bool sink = true;
        for (std::size_t a = 0; a < m && sink; ++a) sink = d.delta[q * m + a] == q;
        if (sink) return static_cast<long>(q);
    }
    return -1;
}

std::string to_dot(const Dfa& d, const DotOptions& options) {
    const std::size_t n = d.num_states(), m = d.num_symbols();
    const long sink = find_rejecting_sink(d);
    // The sink is hidden only when something else remains to draw.
    const bool hide = options.hide_sink && sink >= 0 && static_cast<State>(sink) != d.initial;
    auto quote = [](const std::string& s) { return json(s).dump(); };
    std::ostringstream out;
    out << "digraph dfa {\n  rankdir=LR;\n  node [shape=circle];\n";
    out << "  __start [shape=point, label=\"\", width=0.1];\n";
    for (std::size_t q = 0; q < n; ++q) {
        if (hide && static_cast<long>(q) == sink) continue;
        out << "  " << q << " [";
        out << (d.accepting[q] ? "shape=doublecircle" : "shape=circle");
        if (static_cast<long>(q) == sink) out << ", color=grey, fontcolor=grey";
        out << "];\n";
    }
    out << "  __start -> " << d.initial << ";\n";
    for (std::size_t q = 0; q < n; ++q) {
        if (hide && static_cast<long>(q) == sink) continue;
        std::map<State, std::string> labels;  // target -> symbols, in alphabet order
        for (std::size_t a = 0; a < m; ++a) {
            const State t = d.delta[q * m + a];
            if (hide && static_cast<long>(t) == sink) continue;
            auto& l = labels[t];
            l += (l.empty() ? "" : ",") + d.alphabet[a];
        }
        for (const auto& [t, l] : labels) {
            out << "  " << q << " -> " << t << " [label=" << quote(l);
            if (static_cast<long>(t) == sink) out << ", color=grey, fontcolor=grey";
            out << "];\n";
        }
    }
    out << "}\n";
    return out.str();
}

Result<std::string> read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return make_error(path + ": cannot open file for reading: " + std::strerror(errno));
    std::ostringstream ss;
    ss << in.rdbuf();
    if (in.bad()) return make_error(path + ": cannot read file: " + std::strerror(errno));
    return ss.str();
}

Result<bool> write_file_atomic(const std::string& path, const std::string& content) {
    std::string tmpl = path + ".tmp.XXXXXX";
    std::vector<char> buf(tmpl.begin(), tmpl.end());
    buf.push_back('\0');
    const int fd = mkstemp(buf.data());
    if (fd < 0) return io_error(path + ": cannot create a temporary file: " + std::strerror(errno));
    const std::string tmp(buf.data());
    const char* p = content.data();
    std::size_t left = content.size();
    while (left > 0) {
        const ssize_t w = ::write(fd, p, left);
        if (w < 0) {
            if (errno == EINTR) continue;
            const std::string why = std::strerror(errno);
            ::close(fd);
            ::unlink(tmp.c_str());
            return io_error(path + ": cannot write: " + why);
        }
        p += w;
        left -= static_cast<std::size_t>(w);
    }
    ::fchmod(fd, 0644);
    if (::close(fd) != 0) {
        const std::string why = std::strerror(errno);
        ::unlink(tmp.c_str());
        return io_error(path + ": cannot write: " + why);
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
        const std::string why = std::strerror(errno);
        ::unlink(tmp.c_str());
        return io_error(path + ": cannot rename the temporary file into place: " + why);
    }
    return true;
}

}  // namespace ltlkit::automata
