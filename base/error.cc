#include "base/error.hh"

#include <vector>

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

// One character of the input as it is printed: itself when it is a printable UTF-8 character or
// a tab, an escape otherwise. `width` is the number of characters the glyph prints.
struct Glyph {
    std::string text;
    std::size_t width = 1;
    bool tab = false;
};

std::string hex_escape(unsigned char c) {
    static const char* digits = "0123456789abcdef";
    return std::string("\\x") + digits[c >> 4] + digits[c & 15];
}

// Length of the valid UTF-8 sequence starting at s[i] (RFC 3629: no overlong forms, no
// surrogates, at most U+10FFFF), or 0 when the bytes there are not one.
std::size_t utf8_length(std::string_view s, std::size_t i, char32_t& cp) {
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned char c = byte(i);
    std::size_t n;
    if (c < 0x80) {
        cp = c;
        return 1;
    } else if (c >= 0xC2 && c <= 0xDF) {
        n = 2, cp = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
        n = 3, cp = c & 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4, cp = c & 0x07;
    } else {
        return 0;
    }
    if (i + n > s.size()) return 0;
    for (std::size_t k = 1; k < n; ++k) {
        if ((byte(i + k) & 0xC0) != 0x80) return 0;
        cp = (cp << 6) | (byte(i + k) & 0x3F);
    }
    if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return n;
}

std::vector<Glyph> glyphs(std::string_view s) {
    std::vector<Glyph> out;
    for (std::size_t i = 0; i < s.size();) {
        char32_t cp = 0;
        const std::size_t n = utf8_length(s, i, cp);
        Glyph g;
        if (n == 0) {
            g.text = hex_escape(static_cast<unsigned char>(s[i]));
            i += 1;
        } else if (cp == '\t') {
            g.text = "\t";
            g.tab = true;
            i += 1;
        } else if (cp < 0x20 || cp == 0x7F) {
            g.text = hex_escape(static_cast<unsigned char>(cp));
            i += 1;
        } else if (cp >= 0x80 && cp <= 0x9F) {
            static const char* digits = "0123456789abcdef";
            g.text = std::string("\\u00") + digits[cp >> 4] + digits[cp & 15];
            i += n;
        } else {
            g.text = std::string(s.substr(i, n));
            i += n;
        }
        if (g.text.size() > 1 && g.text[0] == '\\') g.width = g.text.size();
        out.push_back(std::move(g));
    }
    return out;
}

std::string join(const std::vector<Glyph>& g, std::size_t from, std::size_t to) {
    std::string out;
    for (std::size_t i = from; i < to; ++i) out += g[i].text;
    return out;
}

constexpr const char* kEllipsis = "…";

}  // namespace

std::string printable(std::string_view text, std::size_t max_chars) {
    const auto g = glyphs(text);
    std::size_t total = 0;
    for (const auto& x : g) total += x.width;
    if (total <= max_chars) return join(g, 0, g.size());
    // Keep about 3/5 of the room for the start and the rest for the end.
    const std::size_t room = max_chars > 1 ? max_chars - 1 : 0;
    std::size_t head = 0, head_width = 0;
    while (head < g.size() && head_width + g[head].width <= room * 3 / 5) head_width += g[head++].width;
    std::size_t tail = g.size(), tail_width = 0;
    while (tail > head && head_width + tail_width + g[tail - 1].width <= room) tail_width += g[--tail].width;
    return join(g, 0, head) + kEllipsis + join(g, tail, g.size());
}

std::string Error::render() const {
    std::string out = printable(one_line(), kMaxMessageChars);
    if (source_line.empty() || column <= 0) return out;
    const auto g = glyphs(source_line);
    // The caret's glyph (one past the end when the column points after the line).
    const std::size_t caret = std::min(static_cast<std::size_t>(column - 1), g.size());
    const std::size_t room = kMaxContextChars - 2;  // both ellipses
    std::size_t first = caret, last = caret, width = 0;
    if (last < g.size()) width += g[last++].width;
    while (first > 0 && width + g[first - 1].width <= room / 2) width += g[--first].width;
    while (last < g.size() && width + g[last].width <= room) width += g[last++].width;
    while (first > 0 && width + g[first - 1].width <= room) width += g[--first].width;
    std::string context = (first > 0 ? kEllipsis : "") + join(g, first, last) + (last < g.size() ? kEllipsis : "");
    std::string under = first > 0 ? " " : "";
    for (std::size_t i = first; i < caret; ++i) under += g[i].tab ? std::string("\t") : std::string(g[i].width, ' ');
    out += "\n  " + context + "\n  " + under + "^";
    return out;
}

}  // namespace ltlkit
