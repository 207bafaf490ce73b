#include "ltl/error.hh"

namespace ltlkit {

std::string Error::one_line() const {
    std::string out;
    if (!origin.empty()) out += origin + ":";
    if (line > 0) {
        out += std::to_string(line) + ":";
        if (column > 0) out += std::to_string(column) + ":";
    }
    if (!out.empty()) out += " ";
    out += message;
    return out;
}

namespace {
// Number of bytes of the first `chars` UTF-8 characters of s (tabs are kept so the caret aligns).
std::string caret_prefix(const std::string& s, int chars) {
    std::string out;
    int count = 0;
    for (std::size_t i = 0; i < s.size() && count < chars; ++i) {
        unsigned char c = static_cast<unsigned char>(s[i]);
        if ((c & 0xC0) == 0x80) continue;  // continuation byte
        out += (c == '\t') ? '\t' : ' ';
        ++count;
    }
    while (count < chars) out += ' ', ++count;
    return out;
}
}  // namespace

std::string Error::render() const {
    std::string out = one_line();
    if (!source_line.empty() && column > 0) {
        out += "\n  " + source_line + "\n  " + caret_prefix(source_line, column - 1) + "^";
    }
    return out;
}

}  // namespace ltlkit
