// Text that a person wrote: positions (line and column in characters), byte order marks, control
// bytes and UTF-8 validity.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "base/error.hh"

namespace ltlkit {

// 1-based line and column (in characters) of the byte at `offset` of `text`, and that line.
struct TextPosition {
    int line = 1;
    int column = 1;
    std::string line_text;
};
TextPosition text_position(const std::string& text, std::size_t offset);

// Text files a person writes (suites, formula and word lists, JSON) must not start with a UTF-8
// byte order mark: read as text it would become part of the first name or formula. An Error at
// 1:1 when `text` starts with one (the caller sets its origin).
Result<bool> check_no_byte_order_mark(std::string_view text);

// Whether `s` holds an ASCII control byte (below 0x20, or DEL): refused in names and symbols.
bool has_control_byte(std::string_view s);
// Whether `s` is valid UTF-8 (RFC 3629: no overlong forms, surrogates or code points beyond
// U+10FFFF): names and symbols must be, since every JSON output quotes them.
bool is_valid_utf8(std::string_view s);

}  // namespace ltlkit
