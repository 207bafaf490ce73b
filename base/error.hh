// Errors as values (docs/ARCHITECTURE.md, "Errors"): every library function that can fail on user input returns a
// Result<T>; only the CLI turns an Error into one line on stderr and an exit code.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace ltlkit {

// What went wrong and where. line/column are 1-based (columns in characters, not bytes); 0 = unknown.
struct Error {
    std::string message;      // what was expected / what is wrong, without the "ltlkit: error:" prefix
    int line = 0;
    int column = 0;
    std::string source_line;  // the offending line of input, for the caret display (may be empty)
    std::string origin;       // file name or other context ("suite.txt", "--regex"), may be empty
    int exit_code = 2;        // what the CLI exits with: 2 bad input, 3 a limit was hit, 4 I/O failure

    // "ORIGIN:LINE:COL: message" with the parts that are known (raw: not made printable).
    std::string one_line() const;
    // What a terminal is shown: one_line() made printable() and at most kMaxMessageChars wide,
    // then (when source_line is set) one line of context, at most kMaxContextChars wide around
    // the column, and a caret under the column.
    std::string render() const;
};

inline constexpr std::size_t kMaxMessageChars = 500;
inline constexpr std::size_t kMaxContextChars = 200;

// `text` made safe to print on one terminal line: control bytes (C0 other than tab, and DEL) are
// written \xNN (ESC as \x1b, a newline as \x0a), C1 control characters as \uNNNN, bytes that are
// not part of a valid UTF-8 character as \xNN; a text wider than `max_chars` characters keeps its
// start and its end around an ellipsis "…". The result is valid UTF-8 and one line.
std::string printable(std::string_view text, std::size_t max_chars = kMaxMessageChars);

template <class T>
class Result {
public:
    Result(T value) : v_(std::move(value)) {}              // NOLINT(google-explicit-constructor)
    Result(Error error) : v_(std::move(error)) {}          // NOLINT(google-explicit-constructor)
    bool ok() const { return v_.index() == 0; }
    explicit operator bool() const { return ok(); }
    T& value() & { return std::get<0>(v_); }
    const T& value() const& { return std::get<0>(v_); }
    T&& value() && { return std::get<0>(std::move(v_)); }
    const Error& error() const { return std::get<1>(v_); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }

private:
    std::variant<T, Error> v_;
};

inline Error make_error(std::string message) {
    Error e;
    e.message = std::move(message);
    return e;
}
// A construction exceeded a limit; the message must name the option that raises it.
inline Error limit_error(std::string message) {
    Error e;
    e.message = std::move(message);
    e.exit_code = 3;
    return e;
}
inline Error io_error(std::string message) {
    Error e;
    e.message = std::move(message);
    e.exit_code = 4;
    return e;
}

}  // namespace ltlkit
