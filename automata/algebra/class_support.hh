// Small helpers shared by the class deciders (classes.cc), the DFA and semigroup analyses
// (class_analysis.cc) and the subregular deciders (subregular*.cc): word text, concatenation and
// the certificate constructors of docs/CLASSES.md §3. Internal to automata/algebra.
#pragma once

#include <initializer_list>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "automata/algebra/classes.hh"

namespace ltlkit::automata::algebra::detail {

inline std::string fw(const Dfa& d, const Word& w) { return w.empty() ? std::string("ε") : format_word(d.alphabet, w); }

inline Word cat(std::initializer_list<const Word*> parts) {
    Word w;
    for (const Word* p : parts) w.insert(w.end(), p->begin(), p->end());
    return w;
}

inline Certificate base(const ClassId& id, bool member, CertificateKind kind, const std::string& fact) {
    Certificate c;
    c.class_id = id;
    c.member = member;
    c.kind = kind;
    c.fact = fact;
    return c;
}

// An identity violation: words named in `words` (e-words stand for the ω-power of their
// transformation), re-checked by the certificate checker on transformations.
inline Certificate violation(const ClassId& id, Identity identity, const std::string& fact,
                      const std::vector<std::pair<std::string, Word>>& words) {
    Certificate c = base(id, false, CertificateKind::IdentityViolation, fact);
    c.fields = ViolationFields{identity, words};
    return c;
}

// The syntactic semigroup as classify builds it: at most max_elements elements and bounded in
// memory (classify.cc); also the checker's re-deciding route.
Result<std::unique_ptr<SemigroupAnalysis>> classify_semigroup(const Dfa& d, std::size_t max_elements);

inline ClassDecision yes(Certificate c) { return ClassDecision{true, std::move(c)}; }
inline ClassDecision no(Certificate c) { return ClassDecision{false, std::move(c)}; }

}  // namespace ltlkit::automata::algebra::detail
