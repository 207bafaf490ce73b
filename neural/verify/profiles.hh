// Training/evaluation profiles of the verifier (docs/PROTOCOL.md "Profiles"): the hyperparameters of
// every run, the seeds and learning rates per (language, architecture), the test lengths.
#pragma once

#include <string>
#include <vector>

#include "base/error.hh"
#include "neural/run.hh"

namespace ltlkit::neural::verify {

struct Profile {
    std::string name;
    Config base;              // model, training and evaluation settings (arch, lr, seed set per run)
    int seeds = 1;            // seeds per learning rate
    std::vector<double> lrs;  // learning rates tried
    int adversarial_pairs = 64;  // witness-family pairs per architecture predicted to fail
    std::string note;            // one line for the report (where it is meant to run)
};

// "quick" | "cpu" | "cpu-deep" | "standard" | "paper" (and the unlisted "tiny"); Error naming the listed names otherwise.
Result<Profile> profile_by_name(const std::string& name);
std::vector<std::string> profile_names();

// A tiny profile for tests (seconds per run); accepted as `--profile tiny` but not listed.
Profile tiny_profile();

// The learning rate as it appears in run folder names and reports ("0.003", "0.0001").
std::string format_lr(double lr);

}  // namespace ltlkit::neural::verify
