// Checksums (docs/DURABILITY.md): SHA-256, and the checksum embedded in the JSON files that a later
// step reads back.
#pragma once

#include <string>

#include "base/error.hh"

namespace ltlkit {

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

}  // namespace ltlkit
