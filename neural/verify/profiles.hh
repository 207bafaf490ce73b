// Training/evaluation profiles of the verifier (docs/PROTOCOL.md "Profiles"): the hyperparameters of
// every run, the seeds and learning rates per (language, architecture), the test lengths.
#pragma once

#include <optional>
#include <string>
#include <utility>
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

// "first" | "quick" | "demo" | "cpu" | "cpu-deep" | "standard" | "paper" (and the unlisted "tiny"); Error naming the
// listed names otherwise.
Result<Profile> profile_by_name(const std::string& name);
std::vector<std::string> profile_names();
// The profile a verify uses when neither --profile nor a profile file names one.
inline constexpr const char* kDefaultProfile = "quick";

// A profile sized by the user (verify --steps, --layers, --d-model, --heads, --test-lengths,
// --per-length, or a profile file): each field set replaces the profile's value. The sizes end up
// in the profile's base Config, so plan.json and every run's identity record them.
struct ProfileSizes {
    std::optional<std::string> profile;  // the profile sized (a profile file's "profile")
    std::optional<int> steps, layers, d_model, heads, d_ff, per_length, seeds;
    std::optional<std::pair<int, int>> test_lengths;  // inclusive
    // Fields of `over` replace those of this one (the command line over a profile file).
    ProfileSizes merged_with(const ProfileSizes& over) const;
};

// `p` with the sizes applied and checked (every size positive, d_model a multiple of heads, the test
// lengths 1 <= A <= B). When d_model changes and d_ff is not given, d_ff keeps its ratio to d_model.
Result<Profile> apply_sizes(Profile p, const ProfileSizes& s);

// A profile file: a JSON object with any of "profile" (the profile it sizes, default quick),
// "steps", "layers", "d_model", "heads", "d_ff", "per_length", "seeds" (positive integers) and
// "test_lengths" ("A:B"); any other key is an error naming it.
Result<ProfileSizes> read_profile_file(const std::string& path);

// The profile table of docs/PROTOCOL.md "Profiles", from the profiles themselves (`ltlkit verify
// --list-profiles [--markdown]`; tests/cli/doc_truths.sh compares the documents with it): the
// column names, one row per profile (its sizes, success rule, fit check and note), and the whole
// table over profile_names() as Markdown or as plain text.
std::vector<std::string> profile_columns();
std::vector<std::string> profile_row(const Profile& p);
std::string profile_table(bool markdown);

// A tiny profile for tests (seconds per run); accepted as `--profile tiny` but not listed.
Profile tiny_profile();

// The learning rate as it appears in run folder names and reports ("0.003", "0.0001").
std::string format_lr(double lr);

}  // namespace ltlkit::neural::verify
