#include "automata/io.hh"

#include "automata/json.hh"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cstdint>
#include <filesystem>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <stdexcept>
#include <unordered_set>

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

namespace {
// What a non-regular file is, for the messages.
const char* file_kind(mode_t mode) {
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISSOCK(mode)) return "a socket";
    if (S_ISLNK(mode)) return "a symbolic link";
    return "not a regular file";
}
}  // namespace

Result<std::string> read_file(const std::string& path) {
    // O_NONBLOCK: opening a FIFO that no process writes must not block; only regular files are
    // read (a FIFO, /dev/zero or a terminal would hang or never end), whole, then closed.
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) return make_error(path + ": cannot open file for reading: " + std::strerror(errno));
    struct stat st{};
    if (::fstat(fd, &st) != 0) {
        const std::string why = std::strerror(errno);
        ::close(fd);
        return make_error(path + ": cannot read file: " + why);
    }
    if (S_ISDIR(st.st_mode)) {
        ::close(fd);
        return io_error(path + ": is a directory, not a file");
    }
    if (!S_ISREG(st.st_mode)) {
        ::close(fd);
        return make_error(path + ": is " + file_kind(st.st_mode) +
                          ", not a regular file; ltlkit reads its input files whole, so give a regular file");
    }
    std::string out;
    out.reserve(static_cast<std::size_t>(std::max<off_t>(st.st_size, 0)));
    char buf[1 << 16];
    for (;;) {
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n == 0) break;
        if (n < 0) {
            if (errno == EINTR || errno == EAGAIN) continue;
            const std::string why = std::strerror(errno);
            ::close(fd);
            return make_error(path + ": cannot read file: " + why);
        }
        out.append(buf, static_cast<std::size_t>(n));
    }
    ::close(fd);
    return out;
}

namespace {
Result<bool> write_all(int fd, const std::string& content, const std::string& what) {
    const char* p = content.data();
    std::size_t left = content.size();
    while (left > 0) {
        const ssize_t w = ::write(fd, p, left);
        if (w < 0) {
            if (errno == EINTR) continue;
            return io_error(what + ": cannot write: " + std::strerror(errno));
        }
        p += w;
        left -= static_cast<std::size_t>(w);
    }
    return true;
}
}  // namespace

// Whether `path` is, or reaches through symbolic links, a descriptor of this process
// (/dev/stdout -> /proc/self/fd/1 -> a pipe or the file the shell opened): written into, never
// replaced, so that `-o /dev/stdout >> log` appends to log.
bool through_process_fd(std::filesystem::path p) {
    for (int hops = 0; hops < 40; ++hops) {
        const std::string s = p.string();
        if (s.rfind("/proc/", 0) == 0 || s.rfind("/dev/fd/", 0) == 0) return true;
        std::error_code ec;
        if (!std::filesystem::is_symlink(p, ec)) return false;
        const std::filesystem::path next = std::filesystem::read_symlink(p, ec);
        if (ec) return false;
        p = next.is_absolute() ? next : p.parent_path() / next;
    }
    return false;
}

Result<bool> write_output_file(const std::string& path, const std::string& content) {
    struct stat st{};
    if (::lstat(path.c_str(), &st) != 0) {
        if (errno == ENOENT) return write_file_atomic(path, content);
        return io_error(path + ": cannot write: " + std::strerror(errno));
    }
    const bool link = S_ISLNK(st.st_mode);
    if (link && ::stat(path.c_str(), &st) != 0)
        return io_error(path + ": is a symbolic link to a file that does not exist (" + std::strerror(errno) + ")");
    const bool direct = S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode) || (S_ISREG(st.st_mode) && link && through_process_fd(path));
    std::string target = path;
    if (link && S_ISREG(st.st_mode) && !direct) {
        // Written through: the link stays, its target gets the content (as a shell's `>` does).
        std::error_code ec;
        target = std::filesystem::canonical(path, ec).string();
        if (ec) return io_error(path + ": cannot resolve the symbolic link: " + ec.message());
    }
    if (direct) {
        // /dev/null, /dev/stdout, a terminal or a pipe: written into directly, never renamed
        // over (that would replace the device by a regular file). A FIFO without a reader is
        // refused rather than waited for; a file reached through /proc/self/fd is appended to.
        const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK | (S_ISREG(st.st_mode) ? O_APPEND : 0));
        if (fd < 0)
            return io_error(path + ": cannot open " + file_kind(st.st_mode) + " for writing: " +
                            (errno == ENXIO ? std::string("no process reads it") : std::strerror(errno)));
        ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
        auto w = write_all(fd, content, path);
        if (::close(fd) != 0 && w.ok()) return io_error(path + ": cannot write: " + std::strerror(errno));
        return w;
    }
    if (S_ISREG(st.st_mode)) return write_file_atomic(target, content);
    if (S_ISDIR(st.st_mode)) return io_error(path + ": is a directory, not a file");
    return io_error(path + ": is " + std::string(file_kind(st.st_mode)) + "; ltlkit writes only regular files, "
                    "character devices and pipes");
}

Result<bool> write_file_atomic(const std::string& path, const std::string& content) {
    std::string tmpl = path + ".tmp.XXXXXX";
    std::vector<char> buf(tmpl.begin(), tmpl.end());
    buf.push_back('\0');
    const int fd = mkstemp(buf.data());
    if (fd < 0) return io_error(path + ": cannot create a temporary file: " + std::strerror(errno));
    const std::string tmp(buf.data());
    if (auto w = write_all(fd, content, path); !w.ok()) {
        ::close(fd);
        ::unlink(tmp.c_str());
        return w.error();
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

TextPosition text_position(const std::string& text, std::size_t offset) {
    TextPosition p;
    std::size_t line_start = 0;
    for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
        const unsigned char c = static_cast<unsigned char>(text[i]);
        if (c == '\n') {
            ++p.line;
            p.column = 1;
            line_start = i + 1;
        } else if ((c & 0xC0) != 0x80) {
            ++p.column;
        }
    }
    const std::size_t end = text.find('\n', line_start);
    p.line_text = text.substr(line_start, end == std::string::npos ? std::string::npos : end - line_start);
    if (!p.line_text.empty() && p.line_text.back() == '\r') p.line_text.pop_back();
    return p;
}

Result<bool> check_no_byte_order_mark(std::string_view text) {
    if (text.substr(0, 3) != "\xEF\xBB\xBF") return true;
    Error e = make_error("the file starts with a UTF-8 byte order mark (BOM); save it without one");
    e.line = 1;
    e.column = 1;
    return e;
}

bool has_control_byte(std::string_view s) {
    return std::any_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7F; });
}

bool is_valid_utf8(std::string_view s) {
    for (std::size_t i = 0; i < s.size();) {
        const auto c = static_cast<unsigned char>(s[i]);
        std::size_t n = 0;
        std::uint32_t cp = 0;
        if (c < 0x80) { ++i; continue; }
        if (c >= 0xC2 && c <= 0xDF) n = 1, cp = c & 0x1F;
        else if (c >= 0xE0 && c <= 0xEF) n = 2, cp = c & 0x0F;
        else if (c >= 0xF0 && c <= 0xF4) n = 3, cp = c & 0x07;
        else return false;
        for (std::size_t j = 1; j <= n; ++j) {
            if (i + j >= s.size()) return false;
            const auto d = static_cast<unsigned char>(s[i + j]);
            if ((d & 0xC0) != 0x80) return false;
            cp = (cp << 6) | (d & 0x3F);
        }
        if ((n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000) || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            return false;
        i += n + 1;
    }
    return true;
}

// ------------------------------------------------------------------ SHA-256 (FIPS 180-4)

std::string sha256_hex(const std::string& data) {
    static constexpr std::array<std::uint32_t, 64> k = {
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};
    std::uint32_t h[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                          0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    auto rotr = [](std::uint32_t x, int n) { return (x >> n) | (x << (32 - n)); };
    auto block = [&](const unsigned char* p) {
        std::uint32_t w[64];
        for (int i = 0; i < 16; ++i)
            w[i] = (std::uint32_t(p[4 * i]) << 24) | (std::uint32_t(p[4 * i + 1]) << 16) |
                   (std::uint32_t(p[4 * i + 2]) << 8) | std::uint32_t(p[4 * i + 3]);
        for (int i = 16; i < 64; ++i) {
            std::uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
            std::uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
            w[i] = w[i - 16] + s0 + w[i - 7] + s1;
        }
        std::uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
        for (int i = 0; i < 64; ++i) {
            std::uint32_t S1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
            std::uint32_t ch = (e & f) ^ (~e & g);
            std::uint32_t t1 = hh + S1 + ch + k[i] + w[i];
            std::uint32_t S0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
            std::uint32_t mj = (a & b) ^ (a & c) ^ (b & c);
            std::uint32_t t2 = S0 + mj;
            hh = g; g = f; f = e; e = d + t1; d = c; c = b; b = a; a = t1 + t2;
        }
        h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
    };
    const auto* bytes = reinterpret_cast<const unsigned char*>(data.data());
    std::size_t n = data.size(), i = 0;
    for (; i + 64 <= n; i += 64) block(bytes + i);
    unsigned char tail[128] = {};
    std::size_t rest = n - i;
    std::memcpy(tail, bytes + i, rest);
    tail[rest] = 0x80;
    std::size_t tail_len = rest + 1 + 8 <= 64 ? 64 : 128;
    std::uint64_t bits = static_cast<std::uint64_t>(n) * 8;
    for (int j = 0; j < 8; ++j) tail[tail_len - 1 - j] = static_cast<unsigned char>(bits >> (8 * j));
    block(tail);
    if (tail_len == 128) block(tail + 64);
    static const char* hex = "0123456789abcdef";
    std::string out;
    for (std::uint32_t v : h)
        for (int j = 7; j >= 0; --j) out += hex[(v >> (4 * j)) & 0xf];
    return out;
}

// ------------------------------------------------------------------ embedded checksums

std::string json_with_checksum(const std::string& object_json, int indent) {
    ojson j = ojson::parse(object_json);
    if (!j.is_object()) throw std::invalid_argument("json_with_checksum: not a JSON object");
    j.erase(kChecksumKey);
    // Hash what a reader re-dumps after parsing the written text (numbers round-trip exactly).
    const std::string canonical = ojson::parse(j.dump()).dump();
    j[kChecksumKey] = sha256_hex(canonical);
    return j.dump(indent) + "\n";
}

ChecksumState json_checksum_state(const std::string& text) {
    auto parsed = parse_json<ojson>(text);
    if (!parsed.ok()) return ChecksumState::Mismatch;
    ojson& j = *parsed;
    if (!j.is_object()) return ChecksumState::Mismatch;
    auto it = j.find(kChecksumKey);
    if (it == j.end()) return ChecksumState::Missing;
    if (!it->is_string()) return ChecksumState::Mismatch;
    const std::string want = it->get<std::string>();
    j.erase(kChecksumKey);
    return sha256_hex(j.dump()) == want ? ChecksumState::Valid : ChecksumState::Mismatch;
}

Error checksum_error(const std::string& path, const std::string& what_to_do) {
    return make_error(path + ": checksum mismatch (truncated or corrupted); " + what_to_do);
}

Result<bool> check_json_checksum(const std::string& path, const std::string& text, const std::string& what_to_do) {
    switch (json_checksum_state(text)) {
        case ChecksumState::Valid: return true;
        case ChecksumState::Missing:
            return make_error(path + ": no checksum (key \"" + kChecksumKey +
                              "\" missing): written by an older ltlkit or edited; " + what_to_do);
        case ChecksumState::Mismatch: break;
    }
    // A text that parses but is refused by the strict reader (a duplicate key) says why.
    if (auto parsed = parse_json<ojson>(text); !parsed.ok() && parsed.error().message.rfind("malformed JSON", 0) != 0) {
        Error e = parsed.error();
        e.origin = path;
        return e;
    }
    return checksum_error(path, what_to_do);
}

bool is_temporary_name(const std::string& name, std::string* stem) {
    const auto pos = name.rfind(".tmp");
    if (pos == std::string::npos || pos == 0) return false;
    const std::string rest = name.substr(pos + 4);
    bool temp = rest.empty();
    if (rest.size() == 7 && rest[0] == '.') {
        temp = true;
        for (std::size_t i = 1; i < rest.size(); ++i)
            if (!std::isalnum(static_cast<unsigned char>(rest[i]))) temp = false;
    }
    if (temp && stem) *stem = name.substr(0, pos);
    return temp;
}

void remove_stale_temporaries(const std::string& dir, const std::function<bool(const std::string&)>& ours) {
    namespace fs = std::filesystem;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        std::string stem;
        if (!is_temporary_name(it->path().filename().string(), &stem) || !ours(stem)) continue;
        std::error_code ec2;
        if (it->is_regular_file(ec2) && !it->is_symlink(ec2)) fs::remove(it->path(), ec2);
    }
}

void remove_stale_temporaries(const std::string& dir) {
    namespace fs = std::filesystem;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        const auto pos = name.rfind(".tmp");
        if (pos == std::string::npos || pos == 0) continue;
        const std::string rest = name.substr(pos + 4);
        bool stale = rest.empty();
        if (rest.size() == 7 && rest[0] == '.') {
            stale = true;
            for (std::size_t i = 1; i < rest.size(); ++i)
                if (!std::isalnum(static_cast<unsigned char>(rest[i]))) stale = false;
        }
        std::error_code ec2;
        if (stale && it->is_regular_file(ec2)) fs::remove(it->path(), ec2);
    }
}

}  // namespace ltlkit::automata
