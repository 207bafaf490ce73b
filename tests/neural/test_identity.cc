// Run identities (neural/run.hh): equal exactly when the language (as a minimal DFA, whatever its
// state numbering), every setting that changes a result, and the evaluation data are equal.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include <set>

#include "automata/algorithms.hh"
#include "automata/dfa_json.hh"
#include "base/checksum.hh"
#include "neural/run.hh"

using namespace ltlkit;
using namespace ltlkit::neural;

namespace {

automata::Dfa dfa_of(const std::string& json) {
    auto d = automata::dfa_from_json(json);
    REQUIRE(d.ok());
    return *d;
}

const char* kLastA = R"({"alphabet":["a","b"],"initial":0,"accepting":[1],"transitions":[[1,0],[1,0]]})";
// The same language with the states numbered the other way round.
const char* kLastASwapped = R"({"alphabet":["a","b"],"initial":1,"accepting":[0],"transitions":[[0,1],[0,1]]})";
const char* kFirstA = R"({"alphabet":["a","b"],"initial":0,"accepting":[1],"transitions":[[1,2],[1,1],[2,2]]})";

}  // namespace

TEST_CASE("run identity: the same language under another state numbering has the same identity", "[identity]") {
    const Config c;
    const auto a = run_identity(dfa_of(kLastA), c, {});
    const auto b = run_identity(dfa_of(kLastASwapped), c, {});
    CHECK(a == b);
    const auto f = run_identity(dfa_of(kFirstA), c, {});
    CHECK(f.dfa != a.dfa);
    CHECK(f.training != a.training);
    CHECK(f.evaluation != a.evaluation);
    CHECK(identity_mismatch(a, f).value_or("") == "language (minimal DFA)");
    for (const auto* h : {&a.dfa, &a.data, &a.training, &a.evaluation}) CHECK(h->size() == 64);
}

TEST_CASE("run identity: every Config field but the incidental ones changes it, each in its part", "[identity]") {
    const auto dfa = dfa_of(kLastA);
    const Config base;
    const auto id0 = run_identity(dfa, base, {});
    const auto j0 = nlohmann::json::parse(config_to_json(base));
    const std::set<std::string> incidental{"threads", "device", "checkpoint_every", "log_every"};
    const std::set<std::string> evaluation{"steps", "test_min", "test_max", "per_length", "fit_words", "success_rule"};
    for (const auto& [key, value] : j0.items()) {
        INFO("field " << key);
        nlohmann::json j = j0;
        if (value.is_boolean())
            j[key] = !value.get<bool>();
        else if (value.is_string())
            j[key] = key == "arch" ? "local-3" : key == "pe" ? "rope" : key == "success_rule" ? "bins99" : "cpu";
        else if (value.is_number_float())
            j[key] = value.get<double>() * 2 + 0.5;
        else
            j[key] = value.get<long>() + 1;
        auto c = config_from_json(j.dump());
        REQUIRE(c.ok());
        const auto id = run_identity(dfa, *c, {});
        if (incidental.count(key)) {
            CHECK(id == id0);
            CHECK(config_differences(base, *c).empty());
        } else if (evaluation.count(key)) {
            CHECK(id.training == id0.training);
            CHECK(id.evaluation != id0.evaluation);
            CHECK(config_differences(*c, base).find(key) != std::string::npos);
        } else {
            CHECK(id.training != id0.training);
            CHECK(id.evaluation != id0.evaluation);
            CHECK(identity_mismatch(id0, id).value_or("") == "training configuration");
        }
    }
}

TEST_CASE("run identity: the test distribution is part of the evaluation identity only", "[identity]") {
    const auto dfa = dfa_of(kLastA);
    Config c;
    const auto id0 = run_identity(dfa, c, {});
    c.evaluation.test_distribution = TestDistribution::Lc25;
    const auto id = run_identity(dfa, c, {});
    CHECK(id.training == id0.training);
    CHECK(id.evaluation != id0.evaluation);
}

TEST_CASE("run identity: the evaluation data and the training words are part of it", "[identity]") {
    const auto dfa = dfa_of(kLastA);
    const Config c;
    EvalSets sets;
    const auto sampled = run_identity(dfa, c, sets);
    sets.test = {{{0, 1, 0}, true, -1}, {{0, 1, 1}, false, -1}};
    const auto with_test = run_identity(dfa, c, sets);
    CHECK(with_test.data != sampled.data);
    CHECK(with_test.training == sampled.training);
    CHECK(with_test.evaluation != sampled.evaluation);
    sets.test[1].label = true;  // one label flipped
    CHECK(run_identity(dfa, c, sets).data != with_test.data);
    sets.test[1].label = false;
    sets.adversarial = {{{0}, true, 0}, {{1}, false, 0}};
    CHECK(run_identity(dfa, c, sets).data != with_test.data);
    EvalSets trained = sets;
    trained.train = {{{0}, true, -1}, {{1}, false, -1}};
    CHECK(run_identity(dfa, c, trained).training != run_identity(dfa, c, sets).training);
}

TEST_CASE("result.json carries its identity and refuses a missing or renamed checksum", "[identity]") {
    RunResult r;
    r.identity = run_identity(dfa_of(kLastA), r.config, {});
    r.per_length_accuracy[41] = 1.0;
    const std::string text = result_to_json(r);
    auto back = result_from_json(text);
    REQUIRE(back.ok());
    CHECK(back->identity == r.identity);
    std::string renamed = text;
    const auto at = renamed.find("\"sha256\"");
    REQUIRE(at != std::string::npos);
    renamed.replace(at, 8, "\"sha257\"");
    auto refused = result_from_json(renamed);
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().message.find("no checksum") != std::string::npos);
    CHECK(json_checksum_state(renamed) == ChecksumState::Missing);
    CHECK_FALSE(check_json_checksum("f", renamed, "x").ok());
}
