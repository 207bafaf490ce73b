// The plan of a verify run, verify's central type: the languages with their minimal DFAs, classes
// and predictions per architecture, and the run list with each run's seed, identity and folder;
// written as OUT/plan.json before any run trains, and read back by resume, `report` and merges.
// Torch-free.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "automata/dfa.hh"
#include "base/error.hh"
#include "neural/run.hh"
#include "neural/verify/published.hh"
#include "neural/verify/verdict.hh"

namespace ltlkit::neural::verify {

struct ArchPlan {
    Architecture arch;
    Prediction prediction = Prediction::Unknown;
    std::string reason;               // from the classifier
    std::string witness;              // the witness family in words ("x=… p=… y=… z=…"), may be empty
    std::size_t adversarial_words = 0;  // size of the adversarial set used (0: none)
    // Its pairs, and whether the architecture maps both words of every pair to the same vector at
    // any weights (docs/PROTOCOL.md "Evaluation"): "forced" (every pair), "informative" (none, or
    // an architecture whose vectors the window argument does not fix: global, hybrid, LSTM),
    // "mixed" (some); empty in a plan.json written before the marking.
    std::size_t adversarial_pairs = 0, adversarial_forced_pairs = 0;
    std::string adversarial_kind;
    std::string adversarial_note;  // e.g. why the family gives fewer pairs than asked
    // The exact ceiling on the runs' own test words (mean over test lengths), when computable.
    std::optional<double> ceiling_test_sample;
};

struct LanguagePlan {
    std::string name;  // as given (suite name or the formula/regex/path itself)
    std::string dir;   // folder name under data/ and runs/ (a safe spelling of the name)
    std::string kind;  // formula | regex | dfa
    std::string text;
    std::vector<std::string> alphabet;
    std::optional<automata::Dfa> dfa;  // the minimal complete DFA (plan.json: docs/SYNTAX.md §9; null in none written)
    std::size_t states = 0;
    std::optional<std::string> fragment;
    std::map<std::string, std::optional<bool>> classes;  // class id -> member (null: undecided)
    std::vector<ArchPlan> archs;
    std::size_t test_words = 0;
};

struct RunPlan {
    std::size_t index = 0;  // position in the run list (shards take index mod n == i)
    std::string language;   // LanguagePlan::dir
    Architecture arch;
    int seed_index = 1;
    double lr = 0;
    std::uint64_t seed = 0;  // derived from (language, arch, seed index, lr)
    std::string identity;    // RunIdentity::evaluation of the run (neural/run.hh)
    std::string rundir;      // relative to OUT: runs/<language>/<arch>/seed<i>-lr<lr>-<identity[0:8]>
    std::string label() const;  // "seed<i>-lr<lr>"
};

struct Plan {
    std::string profile;
    std::string profile_note;
    Config base;  // the profile's settings (arch, lr and seed vary per run)
    std::vector<Architecture> archs;
    int seeds = 1;
    std::uint64_t base_seed = 1;
    std::vector<double> lrs;
    std::vector<std::string> cells;  // "LANGUAGE:ARCH" chosen with --only / --cells (empty: all)
    std::vector<LanguagePlan> languages;
    std::vector<RunPlan> runs;
    std::optional<Published> published;  // the papers' numbers to show beside ours
};

std::string plan_to_json(const Plan& p);
Result<Plan> plan_from_json(const std::string& text);

}  // namespace ltlkit::neural::verify
