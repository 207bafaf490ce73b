// Run identities in JSON (run.cc), shared with train.cc, which stores them in checkpoints and
// run.json. PRIVATE header.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "neural/run.hh"

namespace ltlkit::neural {

// The model and training parts of a config without `steps`: what decides the trained model apart
// from how long it trains (the training identity and a checkpoint's training key hash it).
nlohmann::json trained_model_json(const Config& c);

// RunIdentity::evaluation from its parts (run_identity computes it the same way).
std::string evaluation_identity(const std::string& training, const Config& config, const std::string& data);

// The evaluation part of a config and the steps of the model it evaluates: what run.json records of
// each evaluation of the run it holds ("evaluations").
nlohmann::json evaluation_settings_json(const Config& c);

// The head groups per layer of the model (run.hh head_layout) as run.json records them ("layout"),
// for readers of a run folder such as Python's recognizer: one array per layer of {"first", "count",
// "window"}, window null for global heads; [] for the LSTM. In no identity: the config determines it.
nlohmann::json layout_to_json(const HeadLayout& layout);

// The "identity" object of run.json and result.json, and back (run.cc).
nlohmann::json identity_to_json(const RunIdentity& id);
Result<RunIdentity> identity_from_json(const nlohmann::json& j);

}  // namespace ltlkit::neural
