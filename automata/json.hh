// Strict JSON reading, used for every JSON text ltlkit reads (DFA files, certificates, dataset
// meta.json and jsonl lines, checksummed files): nlohmann's parser (RFC 8259) plus two refusals it
// does not make itself. An object with the same key twice is an error naming the key (RFC 8259 §4
// leaves its meaning open; nlohmann keeps the last value, so an edit could hide behind an earlier
// key), and so is a UTF-8 byte order mark before the text (which nlohmann skips silently).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "ltl/error.hh"

namespace ltlkit::automata {

// The parsed value, or an Error (exit 2) with LINE:COL and the offending line:
//   "malformed JSON: <nlohmann's reason>" for a syntax error (or a number out of range),
//   "duplicate key \"K\"" (plus " in the object at /JSON/POINTER" below the top level) at the
//   second occurrence of the key,
//   the check_no_byte_order_mark() error (automata/io.hh) for a text that starts with a byte
//   order mark.
// Only a syntax error's message starts with "malformed JSON".
template <class Json>
Result<Json> parse_json(const std::string& text);
extern template Result<nlohmann::json> parse_json(const std::string& text);
extern template Result<nlohmann::ordered_json> parse_json(const std::string& text);

}  // namespace ltlkit::automata
