// Windows k >= 2 (SPEC §5, issue 4): membership of a language in LTL[Y<=k] (k-local attention) and
// LTL[P,Y<=k] (hybrid-k attention), answered yes / no / unknown, each with a certificate.
#pragma once

#include <cstddef>
#include <string>

#include "automata/algebra/classify.hh"
#include "automata/dfa.hh"

namespace ltlkit::automata::algebra {

struct WindowOptions {
    std::size_t max_formula_size = 20'000;  // formulas larger than this are not printed
    std::size_t search_budget = 200'000;    // search steps per question before answering unknown
};

struct WindowDecision {
    Answer answer = Answer::Unknown;
    Certificate certificate;  // class_id "local_k:K" / "hybrid_k:K"; for unknown: fact states the bounds
};

// Preconditions: `minimal` is minimal and canonical; the caller has already checked the necessary
// condition (definite for local_k, locally_r_trivial for hybrid_k) and only asks when it holds.
WindowDecision decide_local_k(const Dfa& minimal, unsigned k, const WindowOptions& options = {});
WindowDecision decide_hybrid_k(const Dfa& minimal, unsigned k, const WindowOptions& options = {});

// Re-verifies a window certificate (class id local_k:K / hybrid_k:K) given as the JSON text of
// SPEC §6; used by check_certificate_json. true = holds, false = does not, Error = malformed.
Result<bool> check_window_certificate(const std::string& json_text, std::string* explanation);

}  // namespace ltlkit::automata::algebra
