#include "base/text.hh"

#include <algorithm>

namespace ltlkit {

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

}  // namespace ltlkit
