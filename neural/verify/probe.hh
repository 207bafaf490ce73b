// The probe past the test lengths (docs/PROTOCOL.md "Verdict", rule 5): a run of a cell predicted to
// fail that passes both its random test and its adversarial set is asked about the prediction's
// witness family at lengths beyond the test range, from its checkpoint, before the cell counts
// against the theory. The outcome is RUNDIR/probe.json (not part of result.json or the run's
// identity: the probe reads a finished run and changes nothing of it).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "automata/certificate.hh"
#include "base/error.hh"
#include "neural/run.hh"

namespace ltlkit::neural::verify {

// The probe reaches lengths up to min(kProbeLengthFactor × the longest test length, kProbeMaxLength)
// with at most kProbePairs pairs of the family.
inline constexpr std::size_t kProbeLengthFactor = 20;
inline constexpr std::size_t kProbeMaxLength = 4000;
inline constexpr std::size_t kProbePairs = 12;

// The longest word the probe of a run tested at `test_max` reaches.
std::size_t probe_cap(std::size_t test_max);

// Up to `count` values of r, increasing and spread geometrically, whose pairs f.at(r) have both
// words longer than `above` and neither longer than `cap` (the family's lengths never decrease
// with r); empty when no r fits.
std::vector<std::size_t> probe_rs(const automata::WordFamily& f, std::size_t above, std::size_t cap,
                                  std::size_t count = kProbePairs);

struct ProbePair {
    std::size_t r = 0;
    automata::Word words[2];
    bool labels[2] = {false, false};
    float logits[2] = {0, 0};
    bool right() const { return (logits[0] > 0) == labels[0] && (logits[1] > 0) == labels[1]; }
};

struct Probe {
    std::string arch;     // the cell's architecture
    std::string family;   // the witness family as text (x=… p=… y=… z=…, as plan.json's witness)
    std::size_t test_max = 0, cap = 0;
    std::vector<ProbePair> pairs;
    ProbeOutcome outcome() const;
};

// probe.json: {"arch", "family", "test_max", "cap", "pairs": [{"r", "words", "labels", "logits",
// "right"}], "first_wrong": {"r", "length"} | null, "sha256"}; words spelled over `alphabet`.
std::string probe_to_json(const Probe& p, const std::vector<std::string>& alphabet);
// Reads it back (checksum, fields, every word over the alphabet, `right` as the logits say).
Result<Probe> probe_from_json(const std::string& text, const std::vector<std::string>& alphabet);

inline constexpr const char* kProbeFile = "probe.json";

// Whether a finished run of a cell predicted to fail needs the probe: fitted, exact on the random
// test and at least kPairSetPass on its adversarial set.
bool needs_probe(const RunResult& r);

}  // namespace ltlkit::neural::verify
