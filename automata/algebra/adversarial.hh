// From a prediction to the adversarial set that tests it (docs/SYNTAX.md §12): the one place that
// turns the witness family of a `fails` prediction into a dataset's adversarial family, for
// `ltlkit generate` and `ltlkit verify` alike.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "automata/algebra/classify.hh"
#include "automata/dataset.hh"

namespace ltlkit::automata::algebra {

// The adversarial set of `p.arch` when `p` predicts `fails` with a witness family: that family,
// noted with the prediction's reason and, for an extended family, what determines its words beside
// x, p, y, z (the alternating family's q, or x2 and the loop e); nullopt otherwise. `alphabet`
// spells the words.
std::optional<AdversarialSpec> adversarial_spec(const ArchPrediction& p, const std::vector<std::string>& alphabet);

}  // namespace ltlkit::automata::algebra
