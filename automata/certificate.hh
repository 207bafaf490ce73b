// Certificates (docs/CLASSES.md §3) as values: what a class decision or a window answer proves and how
// (CertificateKind), the word families x·pʳ·y / x·pʳ·z that witness non-membership, the
// three-valued answer of the window questions, their JSON form and their rendering for people.
// The classes and windows of algebra/, the dataset generator (adversarial pairs) and the verifier
// share this vocabulary; the checkers that re-verify a certificate live in algebra/. Kinds and
// answers are enums here and strings only in JSON and on the command line.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "automata/class_id.hh"
#include "automata/dfa.hh"
#include "automata/window_fields.hh"

namespace ltlkit::automata {

// The answer to a membership question that may stay open (the window classes).
enum class Answer { Yes, No, Unknown };
std::string to_string(Answer a);  // "yes" / "no" / "unknown"

// How a certificate proves its claim. The JSON spelling is to_string's (docs/CLASSES.md §3).
enum class CertificateKind {
    DfaCriterion,        // "dfa_criterion": the class's polynomial DFA test, re-run by the checker
    SemigroupIdentity,   // "semigroup_identity": the identity holds on the syntactic semigroup
    IdentityViolation,   // "identity_violation": words whose transformations break the identity
    Implied,             // "implied": membership in a class included in this one
    Excluded,            // "excluded": membership in one class and not another excludes this one
    PairGraphAcyclic,    // "pair_graph_acyclic": definite (no cycle through a pair of distinct states)
    PartiallyOrdered,    // "partially_ordered": R-trivial (every SCC a single state)
    NoCommonLoopInScc,   // "no_common_loop_in_scc": locally R-trivial
    SuffixFamily,        // "suffix_family": not definite, by a word family
    RFamily,             // "r_family": not R-trivial, by a word family
    LrtFamily,           // "lrt_family": not locally R-trivial, by an extended word family
    Formula,             // "formula": a member formula of the fragment, compiled back
    WindowBisimulation,  // "window_bisimulation": not in LTL[Y<=k], by a family and bisimilar folded graphs
    HybridBisimulation,  // "hybrid_bisimulation": not in LTL[P,Y<=k], likewise
    DepthTypes,          // "depth_types": the depth-d EOS types determine membership
    SearchExhausted,     // "search_exhausted": an unknown window answer and the bounds it reached
};
std::string to_string(CertificateKind k);
std::optional<CertificateKind> parse_certificate_kind(const std::string& text);

// The semigroup identities whose violation (kind identity_violation, field "identity") refutes a
// class; which classes each refutes is the class rows' `refuted_by` (algebra/classes.hh). e stands
// for an idempotent (the ω-power of a word), x, y, s, t, u, v for words.
enum class Identity : std::uint8_t {
    XE,                // "x_e": x·e = e (definite)
    EX,                // "e_x": e·x = e (reverse definite)
    EXE,               // "e_x_e": e·x·e = e (generalized definite)
    RClass,            // "r_class": distinct R-equivalent elements s, s·a
    LClass,            // "l_class": distinct L-equivalent elements s, a·s
    RClassOmega,       // "r_class_omega": (uv)^ω u = (uv)^ω
    Aperiodic,         // "aperiodic": u^ω = u^(ω+1)
    LocalR,            // "local_r": eSe R-trivial
    LocalIdempotent,   // "local_idempotent": eSe idempotent
    LocalCommutative,  // "local_commutative": eSe commutative
};
std::string to_string(Identity i);
std::optional<Identity> parse_identity(const std::string& text);

// The kind-specific fields of a class certificate (docs/CLASSES.md §3), one small struct per shape.
// certificate_to_json writes them with to_json (merged, in key order, into the certificate object);
// fields_from_json reads them back. The window certificates' fields are Certificate::window
// (automata/window_fields.hh).
struct DegreeFields {  // pair_graph_acyclic (definite): "degree"
    std::size_t degree = 0;
    bool operator==(const DegreeFields&) const = default;
};
struct ImpliedFields {  // implied: "by", the included class (re-checked by its DFA criterion)
    ClassId by;
    bool operator==(const ImpliedFields&) const = default;
};
struct ExcludedFields {  // excluded: "in" and "not_in" (re-checked by their DFA criteria)
    ClassId in, not_in;
    bool operator==(const ExcludedFields&) const = default;
};
struct ViolationFields {  // identity_violation: "identity" and "words" {name: word}
    Identity identity = Identity::Aperiodic;
    std::vector<std::pair<std::string, Word>> words;  // named as the identity names them (e, x, s, ...)
    // The word named `name`; empty when the violation names none.
    Word word(const std::string& name) const;
    bool operator==(const ViolationFields&) const = default;
};
struct CNodeFields {  // dfa_criterion, not locally testable (Trahtman's condition 1): "states", "loop"
    State p = 0, q = 0;
    Word loop;
    bool operator==(const CNodeFields&) const = default;
};
struct CNodeReachFields {  // dfa_criterion, not locally testable (Trahtman's condition 2): "q", "pair"
    State q = 0, r = 0, t = 0;
    bool operator==(const CNodeReachFields&) const = default;
};
struct ConfluenceFields {  // dfa_criterion, not piecewise testable (Klíma–Polák): "state", "letters"
    State state = 0;
    Symbol a = 0, b = 0;
    bool operator==(const ConfluenceFields&) const = default;
};
using CertificateFields = std::variant<std::monostate, DegreeFields, ImpliedFields, ExcludedFields, ViolationFields,
                                       CNodeFields, CNodeReachFields, ConfluenceFields>;
// The fields as a JSON object (keys in order; {} for none), words written with `alphabet`.
nlohmann::json to_json(const CertificateFields& f, const std::vector<std::string>& alphabet);
// The typed fields of a class certificate's JSON object `j`, told apart by their keys (a definite
// certificate keeps its "degree" when its kind becomes "formula"): monostate when it has none,
// nullopt when one is missing a part or is malformed.
std::optional<CertificateFields> fields_from_json(const nlohmann::json& j, const std::vector<std::string>& alphabet);

// The words x·pʳ·y and x·pʳ·z: membership differs for every r >= r_min, and the architecture /
// fragment named by the certificate cannot separate them for large r. Build the words with at(),
// never by concatenating the fields.
struct WordFamily {
    Word x, p, y, z;
    std::size_t r_min = 1;
    // Extensions (empty = the plain form above):
    // - x2 set: the second word starts with x2 instead of x (x·pʳ·y vs x2·pʳ·z), for prefix-separated
    //   families such as the non-definite one (Σ*a vs aΣ*: no common prefix can work for aΣ*).
    // - e non-empty: every kLoopMarker symbol in p, y, z stands for eʳ (the locally R-trivial family
    //   x·(eʳ u eʳ v eʳ)ʳ·y vs x·(eʳ u eʳ v eʳ)ʳ·eʳ u eʳ·y).
    // - q non-empty (window fragments, docs/WINDOWS.md §2b): the alternating family
    //   x·(pʳqʳ)ʳ·pʳ·y vs x·(pʳqʳ)ʳ·pʳ·qʳ·z.
    std::optional<Word> x2;
    Word e;
    Word q;
    static constexpr Symbol kLoopMarker = 0xFFFFFFFFu;
    bool extended() const { return x2.has_value() || !e.empty() || !q.empty(); }
    // The pair for a given r: {x pʳ y, x pʳ z} with the extensions applied.
    std::pair<Word, Word> at(std::size_t r) const;
};

// A word of a family as text: format_word's spelling, with each kLoopMarker written "<e^r>".
std::string family_word_text(const std::vector<std::string>& alphabet, const Word& w);
// The inverse of family_word_text (segments around "<e^r>" are read by parse_word).
Result<Word> parse_family_word(const std::vector<std::string>& alphabet, const std::string& text);

// The family as the JSON object of a certificate: x, p, y, z, r_min, then x2 and e when set.
nlohmann::ordered_json family_to_json(const WordFamily& f, const std::vector<std::string>& alphabet);
// Reads that object. Plain: x, p, y, z as words of the alphabet (no loop markers) and r_min;
// x2 and e are not read. Extended: loop markers allowed, x2 and e read when present.
enum class FamilyForm { Plain, Extended };
Result<WordFamily> family_from_json(const nlohmann::json& j, const std::vector<std::string>& alphabet, FamilyForm form);

// A certificate as a value: the checker re-verifies it, the report prints it.
struct Certificate {
    ClassId class_id;       // written as to_string(class_id) (automata/class_id.hh)
    bool member = false;
    bool unknown = false;   // neither member nor non-member: written as "member": null
    CertificateKind kind = CertificateKind::DfaCriterion;
    std::string fact;       // one line a person can read
    std::optional<std::string> formula;          // member formula of the fragment (ASCII syntax)
    std::optional<std::string> formula_omitted;  // reason, when the formula exceeds the cap
    std::optional<WordFamily> family;            // non-member witness family
    std::vector<std::pair<Word, Word>> pairs;    // concrete [accepted, rejected] pairs
    CertificateFields fields;                    // the class certificates' kind-specific fields
    std::optional<WindowFields> window;          // the window certificates' fields (window_fields.hh)
    // Fields of a certificate read back (certificate_from_json) that no struct types, kept so that
    // writing what was read gives them back (in key order with the typed ones); ltlkit sets none.
    nlohmann::ordered_json untyped = nlohmann::ordered_json::object();
};

// Certificate JSON (docs/CLASSES.md §3) with the DFA embedded.
std::string certificate_to_json(const Certificate& cert, const Dfa& dfa);

}  // namespace ltlkit::automata
