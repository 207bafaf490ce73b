// DFA JSON and Graphviz DOT (docs/SYNTAX.md §9).
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "automata/dfa.hh"

namespace ltlkit::automata {

// {"alphabet": [...], "initial": 0, "accepting": [...], "transitions": [[...], ...]}.
std::string to_json(const Dfa& d);
// Strict reader (automata/json.hh: no duplicate keys): a partial DFA is an error naming the state
// and symbol that are missing.
Result<Dfa> dfa_from_json(const std::string& text);
Result<Dfa> read_dfa_file(const std::string& path);

struct DotOptions {
    bool hide_sink = false;  // omit a rejecting sink (and the edges into it); otherwise drawn grey
};
std::string to_dot(const Dfa& d, const DotOptions& options = {});

// The index of a rejecting sink state (all transitions to itself, not accepting), or -1.
long find_rejecting_sink(const Dfa& d);

// Reads a whole regular file; Error mentions the path (exit 2; a directory is an I/O error, exit
// 4). A FIFO, a device or a socket (also through a symbolic link, e.g. to /dev/zero) is refused
// with exit 2 rather than read: it may never end or block forever.
Result<std::string> read_file(const std::string& path);
// Writes atomically (temporary file + rename); every write is checked.
Result<bool> write_file_atomic(const std::string& path, const std::string& content);
// The writer of a user-named output file (`-o PATH`, `--certificates DIR`'s files): a missing
// path or a regular file is written atomically (write_file_atomic); a symbolic link is written
// through (its target, atomically; the link stays); a character device or a FIFO (/dev/null,
// /dev/stdout, a terminal) is written into directly and never renamed over; a directory, a block
// device, a socket or a FIFO that no process reads is refused (exit 4).
Result<bool> write_output_file(const std::string& path, const std::string& content);

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

// Checksums (docs/DURABILITY.md) ------------------------------------------------------------

// SHA-256 of a byte string, lowercase hex (FIPS 180-4).
std::string sha256_hex(const std::string& data);

// JSON files that a later step reads back carry an embedded checksum: the key "sha256" holding the
// SHA-256 of the object's canonical content, i.e. the object without "sha256", keys in file order,
// dumped compactly (nlohmann::ordered_json::dump()).
inline constexpr const char* kChecksumKey = "sha256";
// The JSON object `object_json` (any formatting) with "sha256" set (last key), dumped with
// `indent` (as nlohmann's dump) and a final newline. Throws on text that is not a JSON object.
std::string json_with_checksum(const std::string& object_json, int indent = 2);
enum class ChecksumState { Valid, Missing, Mismatch };
// Valid: the embedded checksum matches; Missing: a JSON object without "sha256"; Mismatch: it does
// not match, or the text is not a JSON object (truncated). Readers of a format that carries a
// checksum accept only Valid: a missing key is never a reason to skip the check.
ChecksumState json_checksum_state(const std::string& text);
// "PATH: checksum mismatch (truncated or corrupted); WHAT_TO_DO" (exit 2, bad input).
Error checksum_error(const std::string& path, const std::string& what_to_do);
// Error unless json_checksum_state(text) is Valid: checksum_error on a mismatch,
// "PATH: no checksum (key "sha256" missing): written by an older ltlkit or edited; WHAT_TO_DO".
Result<bool> check_json_checksum(const std::string& path, const std::string& text, const std::string& what_to_do);

// Removes what an interrupted write_file_atomic leaves behind in `dir` (not recursive): regular
// files named NAME.tmp or NAME.tmp.XXXXXX. Errors are ignored.
void remove_stale_temporaries(const std::string& dir);
// Whether `name` is such a temporary (NAME.tmp or NAME.tmp.XXXXXX); `stem` gets NAME.
bool is_temporary_name(const std::string& name, std::string* stem = nullptr);
// Only the temporaries whose NAME satisfies `ours` (the files the caller writes), so that a
// folder shared with a user's own files (notes.tmp.abc123) loses none of them.
void remove_stale_temporaries(const std::string& dir, const std::function<bool(const std::string&)>& ours);

}  // namespace ltlkit::automata
