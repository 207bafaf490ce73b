// Strict JSON reading, used for every JSON text ltlkit reads (DFA files, certificates, dataset
// meta.json and jsonl lines, checksummed files): nlohmann's parser (RFC 8259) plus two refusals it
// does not make itself. An object with the same key twice is an error naming the key (RFC 8259 §4
// leaves its meaning open; nlohmann keeps the last value, so an edit could hide behind an earlier
// key), and so is a UTF-8 byte order mark before the text (which nlohmann skips silently).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "base/error.hh"

namespace ltlkit {

// The parsed value, or an Error (exit 2) with LINE:COL and the offending line:
//   "malformed JSON: <nlohmann's reason>" for a syntax error (or a number out of range),
//   "duplicate key \"K\"" (plus " in the object at /JSON/POINTER" below the top level) at the
//   second occurrence of the key,
//   the check_no_byte_order_mark() error (base/text.hh) for a text that starts with a byte
//   order mark.
//   "JSON nested deeper than 128 levels" at the bracket that opens level 129: ltlkit's formats
//   nest a few levels, and nlohmann's dump, copy and comparison recurse once per level, so a
//   10^5-deep value would overflow the stack wherever it is later dumped (an error message, a
//   checksum).
// Only a syntax error's message starts with "malformed JSON".
template <class Json>
Result<Json> parse_json(const std::string& text);
extern template Result<nlohmann::json> parse_json(const std::string& text);
extern template Result<nlohmann::ordered_json> parse_json(const std::string& text);

inline constexpr std::size_t kMaxJsonDepth = 128;

// A bounded excerpt of `v` for an error message: its compact JSON text, cut after about
// `max_chars` characters (ending in "…"), written without recursion, so that a huge or deep value
// quoted in an error neither overflows the stack nor floods the terminal.
template <class Json>
std::string json_excerpt(const Json& v, std::size_t max_chars = 60);
extern template std::string json_excerpt(const nlohmann::json& v, std::size_t max_chars);
extern template std::string json_excerpt(const nlohmann::ordered_json& v, std::size_t max_chars);

}  // namespace ltlkit
