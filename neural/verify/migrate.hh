// Completing a plan.json written by an older ltlkit, for `report` (report.cc): the one place where
// the report reaches back into verify's stages (datasets, planning), so that report.cc calls
// migrate.cc and nothing of verify calls the report's loader back.
#pragma once

#include <cstddef>
#include <string>

#include "base/error.hh"
#include "neural/verify/plan.hh"

namespace ltlkit::neural::verify {

// For a plan written before adversarial sets were marked forced or informative (docs/PROTOCOL.md
// "Evaluation"): regenerates each language's datasets into SCRATCH (deterministically, as verify
// did), and where a run's identity proves them to be the sets its runs used, records in `plan`
// the marking, the pair count with its shortfall note, and the exact ceiling of the test words.
// Best effort: a plan of no known profile, or a language that cannot be loaded or classified
// again, keeps its sets unmarked. Returns how many sets it marked.
Result<std::size_t> mark_plan_adversarial(Plan& plan, const std::string& scratch);

}  // namespace ltlkit::neural::verify
