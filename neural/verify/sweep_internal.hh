// Shared by sweep.cc and sweep_report.cc (not installed): the sweep folder's files and levels.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/error.hh"
#include "neural/verify/sweep.hh"

namespace ltlkit::neural::verify {

struct DrawnLanguages {
    std::vector<SweepLanguage> languages;
    std::vector<std::string> dfa_json;  // parallel: the minimal DFA (docs/SYNTAX.md §9)
};
Result<DrawnLanguages> draw_languages_with_dfas(const SweepRequest& r, const std::function<void(const std::string&)>& log);

// The error of a folder whose sweep file could not be read: "DIR holds no sweep (WHY)".
Error holds_no_sweep(const std::string& dir, Error why);

// A language's object in languages.json (sweep_language_json's, as JSON).
nlohmann::ordered_json language_record(const SweepLanguage& l);

// The strata of a request (all of prediction_strata() when it names none).
std::vector<std::string> effective_strata(const SweepRequest& r);
Result<SweepRequest> request_from_config(const std::string& stored_json);
Result<bool> check_sweep_request(const SweepRequest& r);

std::string level_dir(const std::string& dir, int level);
// level-L/cells.txt (empty when the level was never started).
Result<std::vector<std::string>> read_level_cells(const std::string& dir, int level);
// level-L/verdicts.json by cell "LANGUAGE:ARCH" (empty when absent).
Result<std::map<std::string, nlohmann::json>> read_level_verdicts(const std::string& dir, int level);
// The runs a cell has at a level once the level is done (its seeds × the profile's learning rates).
int level_runs_per_cell(const Profile& base, const SweepLevel& level);
// Whether a verdicts.json entry lists its runs and every one of them fitted (failed_to_fit false).
bool every_run_fitted(const nlohmann::json& verdict);
std::string cell_of(const std::string& language, const std::string& arch);

// The `ltlkit verify` arguments of one level (without the program name).
std::vector<std::string> verify_arguments(const SweepRequest& r, const std::string& dir, const SweepLevel& level,
                                          const std::vector<std::string>& all_archs);
std::vector<std::string> union_archs(const std::vector<SweepLanguage>& langs);
// The languages of the sweep in `dir` (drawn, and with `write` recorded, when it holds none); a
// folder that holds a sweep with other settings is an error naming the first difference.
Result<std::vector<SweepLanguage>> open_sweep_folder(const SweepRequest& r, const std::string& dir, bool write,
                                                     const std::function<void(const std::string&)>& log);

}  // namespace ltlkit::neural::verify
