// The sweep's escalation between levels (neural/verify/sweep_folder.cc escalation_to, docs/PROTOCOL.md
// "Sweeps"): a level that changes only the step budget is not given a cell whose runs all fitted
// before their budget (training stops at the fit check, so the same seeds train the same models
// again). Checked on the rule itself and on the committed sweep: the cells the rule sends from level
// 2 to level 3 are level 3's committed cell list (written by the rule before it) less exactly the
// cells whose level-2 runs all fitted, and level 3's runs of those cells repeat level 2's results.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "neural/verify/profiles.hh"
#include "neural/verify/sweep.hh"

using namespace ltlkit::neural::verify;
using nlohmann::json;

namespace {

json read_json(const std::string& path) {
    std::ifstream in(path);
    REQUIRE(in.good());
    std::stringstream s;
    s << in.rdbuf();
    return json::parse(s.str());
}

std::set<std::string> read_cells(const std::string& path) {
    std::ifstream in(path);
    REQUIRE(in.good());
    std::set<std::string> out;
    for (std::string line; std::getline(in, line);)
        if (!line.empty() && line[0] != '#') out.insert(line);
    return out;
}

}  // namespace

TEST_CASE("a level that raises only the step budget gets no cell whose runs all fitted") {
    const Profile demo = *profile_by_name("demo");
    const SweepLevel l1 = *sweep_level(demo, 1), l2 = *sweep_level(demo, 2), l3 = *sweep_level(demo, 3);
    // 2 -> 3 raises only the steps; 1 -> 2 doubles the width; 0 -> 1 adds seeds
    for (const char* evidence : {"controls_failed", "no_success", "flat_fit"}) {
        INFO(evidence);
        CHECK_FALSE(escalation_to("not_reproduced", evidence, "recognizes", 3, true, l2, l3).escalate);
        CHECK(escalation_to("not_reproduced", evidence, "recognizes", 3, false, l2, l3).escalate);
        CHECK(escalation_to("not_reproduced", evidence, "recognizes", 3, true, l1, l2).escalate);
    }
    CHECK(escalation_to("not_reproduced", "controls_failed", "recognizes", 1, true, *sweep_level(demo, 0), l1).escalate);
    CHECK_FALSE(escalation_to("confirmed", "success", "recognizes", 3, true, l1, l2).escalate);
    CHECK(escalation_to("not_reproduced", "controls_failed", "recognizes", 0, true, l2, l3).escalate);  // no runs known
    CHECK(escalation_to("inconclusive", "not_fitted", "fails", 3, false, l2, l3).escalate);
    const EscalationDecision d = escalation_to("not_reproduced", "controls_failed", "recognizes", 3, true, l2, l3);
    CHECK(d.why.find("raises only the step budget") != std::string::npos);
}

TEST_CASE("levels 4 and up train level 3's models from new seeds, and take the cells more steps cannot change") {
    const Profile demo = *profile_by_name("demo");
    const SweepLevel l3 = *sweep_level(demo, 3), l4 = *sweep_level(demo, 4), l5 = *sweep_level(demo, 5);
    for (const SweepLevel* l : {&l4, &l5}) {
        INFO("level " << l->level);
        CHECK(l->sizes.steps == l3.sizes.steps);
        CHECK(l->sizes.d_model == l3.sizes.d_model);
        CHECK(l->sizes.heads == l3.sizes.heads);
        CHECK(l->sizes.seeds == l3.sizes.seeds);
    }
    // seed indices 1..3 below level 4, then 4..6 and 7..9: no run of a level repeats one below it
    for (int L = 0; L <= 3; ++L) CHECK(sweep_level(demo, L)->first_seed == 1);
    CHECK(l4.first_seed == 4);
    CHECK(l5.first_seed == 7);
    CHECK(l4.description.find("new seeds 4..6") != std::string::npos);
    // a cell whose level-3 runs all fitted and failed their controls goes on to new seeds; so does
    // one that no seed fitted
    CHECK(escalation_to("not_reproduced", "controls_failed", "recognizes", 3, true, l3, l4).escalate);
    CHECK(escalation_to("not_reproduced", "controls_failed", "recognizes", 3, true, l4, l5).escalate);
    CHECK(escalation_to("inconclusive", "not_fitted", "fails", 3, false, l3, l4).escalate);
    CHECK_FALSE(escalation_to("confirmed", "length_failure", "fails", 3, true, l3, l4).escalate);
}

TEST_CASE("on the committed sweep the rule drops from level 3 exactly the cells whose level-2 runs all fitted") {
    const std::string dir = std::string(LTLKIT_SOURCE_DIR) + "/docs/results/sweep";
    REQUIRE(std::filesystem::exists(dir + "/level-3/cells.txt"));
    const Profile demo = *profile_by_name("demo");
    const SweepLevel l2 = *sweep_level(demo, 2), l3 = *sweep_level(demo, 3);
    const std::set<std::string> planned = read_cells(dir + "/level-3/cells.txt");
    std::set<std::string> kept, all_fitted;
    for (const json& v : read_json(dir + "/level-2/verdicts.json")) {
        const std::string cell = v["language"].get<std::string>() + ":" + v["arch"].get<std::string>();
        bool fitted = !v["all_runs"].empty();
        for (const json& r : v["all_runs"]) fitted = fitted && !r.value("failed_to_fit", true);
        const std::string verdict = v.value("verdict", "pending"), evidence = v.value("evidence", "none"),
                          prediction = v.value("prediction", "unknown");
        if (escalation_of(verdict, evidence, prediction).escalate && fitted) all_fitted.insert(cell);
        if (escalation_to(verdict, evidence, prediction, v.value("runs", 0), fitted, l2, l3).escalate) kept.insert(cell);
    }
    REQUIRE_FALSE(all_fitted.empty());
    std::set<std::string> expected;
    for (const auto& c : planned)
        if (!all_fitted.count(c)) expected.insert(c);
    CHECK(kept == expected);
    // and where level 3 already trained such a cell, its runs repeat level 2's control accuracy
    const json v3 = read_json(dir + "/level-3/verdicts.json");
    const json v2 = read_json(dir + "/level-2/verdicts.json");
    std::size_t compared = 0;
    for (const json& a : v3) {
        const std::string cell = a["language"].get<std::string>() + ":" + a["arch"].get<std::string>();
        if (!all_fitted.count(cell) || a.value("verdict", "pending") == "pending") continue;
        for (const json& b : v2)
            if (b["language"] == a["language"] && b["arch"] == a["arch"]) {
                REQUIRE(a["all_runs"].size() == b["all_runs"].size());
                for (std::size_t i = 0; i < a["all_runs"].size(); ++i)
                    CHECK(a["all_runs"][i]["adversarial_accuracy"] == b["all_runs"][i]["adversarial_accuracy"]);
                ++compared;
            }
    }
    CHECK(compared >= 1);
}
