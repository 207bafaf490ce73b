// Certificates read back from their JSON (docs/CLASSES.md §3): the inverse of certificate_to_json
// (automata/certificate.hh), used by `check-certificate` (through check_certificate_json) and the
// Python module's check_certificate. Subregular certificates (docs/SUBREGULAR.md) have their own
// format and reader.
#pragma once

#include <optional>
#include <string>

#include "automata/certificate.hh"
#include "automata/dfa.hh"
#include "base/error.hh"

namespace ltlkit::automata::algebra {

// A certificate and the DFA it embeds. "class" is kept as written: certificate.class_id is its
// parse (automata/class_id.hh) when it names a class, and the checker names the text in its verdicts.
struct CertificateWithDfa {
    Certificate certificate;
    Dfa dfa;
    std::string class_text;
    std::optional<ClassId> class_id;  // parse_class_id(class_text)
};

// Reads certificate_to_json's object: "dfa", "class", "member" (true, false or null: unknown) and
// "kind" required; "fact", "formula", "formula_omitted", "family" (the extended form) and "pairs"
// typed when present; the kind-specific fields typed into Certificate::fields (the window structs of
// automata/window_fields.hh for a window class, the class structs of automata/certificate.hh
// otherwise); keys no struct covers kept in Certificate::untyped. Writing the result with
// certificate_to_json gives back the text certificate_to_json wrote. Errors are one line naming the
// field ("certificate field \"member\" must be true, false or null", "certificate needs \"kind\"",
// "unknown certificate kind 'x' ...", "an implied membership needs \"by\"").
Result<CertificateWithDfa> certificate_from_json(const std::string& text);

}  // namespace ltlkit::automata::algebra
