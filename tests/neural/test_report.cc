// The verification report from a fixture of synthetic results (files, verdicts.json keys, the HTML
// grid), shard + merge equal to one run, and a verify run killed midway then restarted giving the
// same results as an uninterrupted one (tiny profile, seconds).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>

#include "automata/dfa_json.hh"
#include "base/checksum.hh"
#include "base/file.hh"
#include "neural/verify/report.hh"
#include "neural/verify/verify.hh"

namespace fs = std::filesystem;
using namespace ltlkit;
using namespace ltlkit::neural;
using namespace ltlkit::neural::verify;

namespace {

Architecture named(const std::string& name) { return *parse_architecture(name); }

struct TempDir {
    fs::path path;
    TempDir() {
        std::random_device rd;
        path = fs::temp_directory_path() / ("ltlkit-test-report-" + std::to_string(rd()) + std::to_string(rd()));
        fs::create_directories(path);
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
    std::string operator/(const std::string& s) const { return (path / s).string(); }
};

std::string slurp(const std::string& p) {
    std::ifstream in(p);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

// Two languages × three architectures × two seeds, with hand-made results.
Plan fixture_plan() {
    Plan p;
    p.profile = "fixture";
    p.base.evaluation.test_min = 41;
    p.base.evaluation.test_max = 60;
    p.archs = {named("global"), named("local-1"), named("hybrid-1")};
    p.seeds = 2;
    p.lrs = {3e-4};
    const std::string last_a = R"({"alphabet":["a","b"],"initial":0,"accepting":[1],"transitions":[[1,0],[1,0]]})";
    const std::string first_a =
        R"({"alphabet":["a","b"],"initial":0,"accepting":[1],"transitions":[[1,2],[1,1],[2,2]]})";
    for (auto [name, dfa, g, l] : {std::tuple{"last-a", last_a, Prediction::Fails, Prediction::Recognizes},
                                   std::tuple{"first-a", first_a, Prediction::Recognizes, Prediction::Fails}}) {
        LanguagePlan lp;
        lp.name = name;
        lp.dir = name;
        lp.kind = "formula";
        lp.text = name;
        lp.alphabet = {"a", "b"};
        lp.dfa = *automata::dfa_from_json(dfa);
        lp.states = 3;
        lp.classes = {{"definite", l == Prediction::Recognizes}, {"r_trivial", g == Prediction::Recognizes},
                      {"star_free", std::nullopt}};
        auto arch_plan = [](Architecture a, Prediction e, std::string witness, std::size_t words) {
            ArchPlan ap;
            ap.arch = a;
            ap.prediction = e;
            ap.reason = "fixture";
            ap.witness = std::move(witness);
            ap.adversarial_words = words;
            return ap;
        };
        lp.archs = {arch_plan(named("global"), g, "", 0), arch_plan(named("local-1"), l, "x=a p=b y=a z=b r≥1", 8),
                    arch_plan(named("hybrid-1"), Prediction::Recognizes, "", 0)};
        p.languages.push_back(lp);
    }
    for (const auto& lp : p.languages)
        for (const auto& arch : p.archs)
            for (int s = 1; s <= 2; ++s) {
                RunPlan r;
                r.index = p.runs.size();
                r.language = lp.dir;
                r.arch = arch;
                r.seed_index = s;
                r.lr = 3e-4;
                r.seed = 1000 + r.index;
                r.identity = sha256_hex("fixture run " + std::to_string(r.index));
                r.rundir = "runs/" + lp.dir + "/" + to_string(arch) + "/" + r.label() + "-" + r.identity.substr(0, 8);
                p.runs.push_back(r);
            }
    return p;
}

RunResult fixture_result(const Plan& p, const RunPlan& r) {
    RunResult res;
    res.config.model.arch = r.arch;
    res.config.training.lr = r.lr;
    res.config.training.seed = r.seed;
    res.seed = r.seed;
    res.language = r.language;
    res.identity.dfa = sha256_hex("dfa " + r.language);
    res.identity.data = sha256_hex("data " + r.language);
    res.identity.training = sha256_hex("training " + std::to_string(r.index));
    res.identity.evaluation = r.identity;
    Prediction pred = Prediction::Unknown;
    for (const auto& l : p.languages)
        if (l.dir == r.language)
            for (const auto& a : l.archs)
                if (a.arch == r.arch) pred = a.prediction;
    const bool good = pred == Prediction::Recognizes && r.seed_index == 1;
    for (int n = 41; n <= 60; ++n) res.per_length_accuracy[n] = good ? 1.0 : (n < 50 ? 1.0 : 0.6);
    res.mean_accuracy = good ? 1.0 : 0.82;
    res.n_star = good ? 60 : 49;
    res.success = good;
    res.train_accuracy = 1.0;
    if (pred == Prediction::Fails) res.adversarial_accuracy = 0.5;
    res.steps_done = 10;
    return res;
}

void write_fixture(const Plan& p, const std::string& dir, std::size_t mod = 1, std::size_t rem = 0) {
    REQUIRE(write_file_atomic(dir + "/plan.json", plan_to_json(p)).ok());
    for (const auto& r : p.runs) {
        if (r.index % mod != rem) continue;
        fs::create_directories(fs::path(dir) / r.rundir);
        REQUIRE(write_file_atomic(dir + "/" + r.rundir + "/result.json",
                                            result_to_json(fixture_result(p, r)))
                    .ok());
    }
}

// The parts of a result that do not depend on timing.
nlohmann::json essentials(const RunResult& r) {
    nlohmann::json acc = nlohmann::json::object();
    for (const auto& [n, a] : r.per_length_accuracy) acc[std::to_string(n)] = a;
    return {{"arch", to_string(r.config.model.arch)},
            {"seed", r.seed},
            {"acc", acc},
            {"mean", r.mean_accuracy},
            {"n_star", r.n_star},
            {"train", r.train_accuracy},
            {"adv", r.adversarial_accuracy ? nlohmann::json(*r.adversarial_accuracy) : nlohmann::json(nullptr)},
            {"success", r.success},
            {"ftf", r.failed_to_fit},
            {"steps", r.steps_done}};
}

nlohmann::json essentials_of(const Plan& plan, const std::string& dir) {
    auto runs = load_runs(plan, dir);
    REQUIRE(runs.ok());
    nlohmann::json j = nlohmann::json::object();
    for (const auto& [k, v] : *runs) j[k] = essentials(v.result);
    return j;
}

VerifyOptions tiny_options(const std::string& out) {
    VerifyOptions o;
    automata::LanguageSpec spec;
    spec.kind = automata::InputKind::Formula;
    spec.text = "Y a";
    spec.alphabet = {"a", "b"};
    spec.name = "last-a";
    o.languages = {*automata::load_language(spec)};
    o.archs = {named("local-1"), named("global")};
    o.profile = tiny_profile();
    o.seeds = 2;
    o.out = out;
    o.threads = 1;
    o.log = [](const std::string&) {};
    return o;
}

}  // namespace

TEST_CASE("plan.json round-trips", "[report]") {
    const Plan p = fixture_plan();
    auto back = plan_from_json(plan_to_json(p));
    REQUIRE(back.ok());
    CHECK(plan_to_json(*back) == plan_to_json(p));
    CHECK_FALSE(plan_from_json("{\"x\": 1}").ok());
}

TEST_CASE("report from a fixture writes every file, the verdict keys and the HTML grid", "[report]") {
    TempDir t;
    const Plan p = fixture_plan();
    write_fixture(p, t.path.string());
    auto runs = load_runs(p, t.path.string());
    REQUIRE(runs.ok());
    CHECK(runs->size() == p.runs.size());
    auto rep = write_report(p, *runs, t.path.string());
    REQUIRE(rep.ok());
    for (const char* f : {"report.md", "report.html", "results.jsonl", "verdicts.json"})
        CHECK(fs::exists(t.path / f));

    const auto verdicts = nlohmann::json::parse(slurp(t / "verdicts.json"));
    REQUIRE(verdicts.is_array());
    CHECK(verdicts.size() == 6);
    for (const auto& v : verdicts)
        for (const char* key : {"language", "arch", "prediction", "verdict", "runs", "successes", "max_accuracy",
                                "mean_accuracy", "adversarial_accuracy", "n_star_max"})
            CHECK(v.contains(key));
    // Predicted recognizers succeed with seed 1: confirmed; predicted failures never succeed: confirmed.
    for (const auto& v : verdicts) {
        CHECK(v["verdict"] == "confirmed");
        CHECK(v["runs"] == 2);
    }

    std::size_t lines = 0;
    std::ifstream jl(t / "results.jsonl");
    for (std::string line; std::getline(jl, line);) {
        ++lines;
        CHECK(nlohmann::json::parse(line).contains("per_length_accuracy"));
    }
    CHECK(lines == p.runs.size());

    const std::string html = slurp(t / "report.html");
    CHECK(html.find("id=\"verdict-grid\"") != std::string::npos);
    std::size_t cells = 0;
    for (std::size_t pos = 0; (pos = html.find("class=\"cell v-", pos)) != std::string::npos; ++pos) ++cells;
    CHECK(cells == 6);
    CHECK(html.find("<polyline") != std::string::npos);  // accuracy curves
    CHECK(html.find("<link") == std::string::npos);      // self-contained
    CHECK(html.find("<script src") == std::string::npos);
    const std::string md = slurp(t / "report.md");
    CHECK(md.find("| language | global | local-1 | hybrid-1 |") != std::string::npos);
    CHECK(rep->summary.find("first-a") != std::string::npos);
}

TEST_CASE("merging shard folders gives the report of one folder", "[report]") {
    TempDir t;
    const Plan p = fixture_plan();
    fs::create_directories(t.path / "one");
    fs::create_directories(t.path / "s0");
    fs::create_directories(t.path / "s1");
    write_fixture(p, t / "one");
    write_fixture(p, t / "s0", 2, 0);
    write_fixture(p, t / "s1", 2, 1);
    auto single = merge_report({t / "one"}, t / "one");
    auto merged = merge_report({t / "s0", t / "s1"}, t / "merged");
    REQUIRE(single.ok());
    REQUIRE(merged.ok());
    CHECK(slurp(t / "merged/verdicts.json") == slurp(t / "one/verdicts.json"));
    CHECK(slurp(t / "merged/results.jsonl") == slurp(t / "one/results.jsonl"));
    // A shard alone is partial.
    auto partial = merge_report({t / "s0"}, t / "s0");
    REQUIRE(partial.ok());
    CHECK(partial->runs_found == p.runs.size() / 2);
    // Folders of different verifications are refused: other runs, other identities, other settings.
    Plan other = p;
    other.runs.pop_back();
    fs::create_directories(t.path / "other");
    REQUIRE(write_file_atomic(t / "other/plan.json", plan_to_json(other)).ok());
    CHECK_FALSE(merge_report({t / "one", t / "other"}, t / "x").ok());
    Plan reidentified = p;
    reidentified.runs[3].identity = sha256_hex("another identity");
    REQUIRE(write_file_atomic(t / "other/plan.json", plan_to_json(reidentified)).ok());
    auto r1 = merge_report({t / "one", t / "other"}, t / "x");
    REQUIRE_FALSE(r1.ok());
    CHECK(r1.error().message.find("run 4 differs") != std::string::npos);
    Plan resized = p;
    resized.base.model.d_ff = 17;
    REQUIRE(write_file_atomic(t / "other/plan.json", plan_to_json(resized)).ok());
    auto r2 = merge_report({t / "one", t / "other"}, t / "x");
    REQUIRE_FALSE(r2.ok());
    CHECK(r2.error().message.find("d_ff") != std::string::npos);
}

TEST_CASE("verify: shards merged equal one run, and a run killed midway resumes to the same results",
          "[report][pipeline]") {
    TempDir t;
    // One uninterrupted run.
    auto one = run_verify(tiny_options(t / "one"));
    REQUIRE(one.ok());
    REQUIRE(one->report);
    CHECK(one->report->runs_found == 4);
    CHECK(one->runs_trained == 4);
    const Plan& plan = one->plan;
    const auto reference = essentials_of(plan, t / "one");

    // Rerunning the same command trains nothing.
    auto again = run_verify(tiny_options(t / "one"));
    REQUIRE(again.ok());
    CHECK(again->runs_trained == 0);
    CHECK(again->runs_skipped == 4);

    // Two shards into two folders, merged.
    for (int i = 0; i < 2; ++i) {
        auto o = tiny_options(t / ("shard" + std::to_string(i)));
        o.shard_index = i;
        o.shard_count = 2;
        auto s = run_verify(o);
        REQUIRE(s.ok());
        CHECK(s->runs_trained == 2);
    }
    auto merged = merge_report({t / "shard0", t / "shard1"}, t / "merged");
    REQUIRE(merged.ok());
    CHECK(merged->runs_found == 4);
    // `report` writes the merged report; the runs stay in the shard folders.
    auto shard_runs = essentials_of(plan, t / "shard0");
    CHECK(shard_runs.size() == 2);
    shard_runs.update(essentials_of(plan, t / "shard1"));
    CHECK(shard_runs == reference);
    CHECK(slurp(t / "merged/results.jsonl").size() > 0);
    CHECK(slurp(t / "merged/verdicts.json") == slurp(t / "one/verdicts.json"));

    // Killed midway: the first invocation stops after one run, keeping a mid-training checkpoint of
    // the second run is simulated below; the restart finishes with the same results.
    auto o = tiny_options(t / "killed");
    o.max_runs = 1;
    auto first = run_verify(o);
    REQUIRE(first.ok());
    CHECK(first->runs_trained == 1);
    CHECK(first->report->runs_found == 1);

    // Second invocation: save the checkpoint of a run while it trains, then throw the finished
    // result away and put the mid-training checkpoint back (as if killed after that checkpoint).
    o.max_runs = 1;
    std::string saved_from;
    const fs::path saved = t.path / "saved-checkpoint.pt";
    o.on_progress = [&](const RunPlan&, const std::string& rundir, const Progress& pr) {
        const fs::path ck = fs::path(rundir) / "checkpoint.pt";
        if (saved_from.empty() && pr.step < pr.total && fs::exists(ck)) {
            fs::copy_file(ck, saved, fs::copy_options::overwrite_existing);
            saved_from = rundir;
        }
    };
    auto second = run_verify(o);
    REQUIRE(second.ok());
    CHECK(second->runs_trained == 1);
    REQUIRE_FALSE(saved_from.empty());  // the tiny profile checkpoints every 10 of 20 steps
    fs::remove(fs::path(saved_from) / "result.json");
    fs::copy_file(saved, fs::path(saved_from) / "checkpoint.pt", fs::copy_options::overwrite_existing);

    o.max_runs = std::numeric_limits<std::size_t>::max();
    o.on_progress = nullptr;
    auto restarted = run_verify(o);
    REQUIRE(restarted.ok());
    CHECK(restarted->runs_trained == 3);
    CHECK(restarted->report->runs_found == 4);
    CHECK(essentials_of(plan, t / "killed") == reference);
    CHECK(slurp(t / "killed/verdicts.json") == slurp(t / "one/verdicts.json"));
}

// A folder's plan is reused, extended by new languages, or the command refused (docs/DURABILITY.md
// "verify into an existing folder"): a run is never reused under another identity, and a refused
// command changes nothing on disk.
TEST_CASE("verify never reuses a run made with other settings: a folder's plan is reused, extended or refused",
          "[report][pipeline]") {
    TempDir t;
    auto o = tiny_options(t / "x");
    o.archs = {named("local-1")};
    o.seeds = 1;
    auto first = run_verify(o);
    REQUIRE(first.ok());
    REQUIRE(first->plan.runs.size() == 1);
    const std::string plan_text = slurp(t / "x/plan.json");
    const std::string first_result = slurp(t / ("x/" + first->plan.runs[0].rundir + "/result.json"));
    // The same command again: the plan reused, nothing trained.
    auto again = run_verify(o);
    REQUIRE(again.ok());
    CHECK(again->runs_trained == 0);
    CHECK(again->runs_skipped == 1);
    CHECK(slurp(t / "x/plan.json") == plan_text);
    // Other settings into the same folder: refused, naming the setting; the folder's plan is kept.
    auto thirty = o;
    thirty.profile.base.training.steps = 30;
    auto refused = run_verify(thirty);
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().message.find("holds a verification with other settings: steps 20 (now 30)") !=
          std::string::npos);
    CHECK(slurp(t / "x/plan.json") == plan_text);
    // ... into another folder: a run of another identity, in a folder of another name.
    thirty.out = t / "y";
    auto second = run_verify(thirty);
    REQUIRE(second.ok());
    CHECK(second->runs_trained == 1);
    REQUIRE(second->plan.runs.size() == 1);
    CHECK(first->plan.runs[0].rundir != second->plan.runs[0].rundir);
    CHECK(first->plan.runs[0].identity != second->plan.runs[0].identity);
    auto runs = load_runs(second->plan, t / "y");
    REQUIRE(runs.ok());
    REQUIRE(runs->size() == 1);
    CHECK(runs->begin()->second.result.steps_done == 30);
    CHECK(runs->begin()->second.result.identity.evaluation == second->plan.runs[0].identity);
    // A result copied into the folder of another run is refused, never reported under its name.
    fs::copy_file(t.path / "x" / first->plan.runs[0].rundir / "result.json",
                  t.path / "y" / second->plan.runs[0].rundir / "result.json", fs::copy_options::overwrite_existing);
    auto tampered = load_runs(second->plan, t / "y");
    REQUIRE_FALSE(tampered.ok());
    CHECK(tampered.error().message.find("is not the run plan.json lists there") != std::string::npos);
    // Another language under the same name: refused in x, a new run folder elsewhere.
    auto renamed = o;
    automata::LanguageSpec other = o.languages[0].spec;
    other.text = "P a";
    renamed.languages[0] = *automata::load_language(other);
    auto clash = run_verify(renamed);
    REQUIRE_FALSE(clash.ok());
    CHECK(clash.error().message.find("the language 'last-a' has another minimal DFA") != std::string::npos);
    CHECK(slurp(t / "x/plan.json") == plan_text);
    renamed.out = t / "z";
    auto third = run_verify(renamed);
    REQUIRE(third.ok());
    CHECK(third->runs_trained == 1);
    CHECK(third->plan.runs[0].rundir != first->plan.runs[0].rundir);
    // A new language into x: the plan extended, the finished run kept as it was and reported.
    auto more = o;
    other.text = "P a";
    other.name = "some-a";
    more.languages.push_back(*automata::load_language(other));
    auto extended = run_verify(more);
    REQUIRE(extended.ok());
    CHECK(extended->runs_trained == 1);
    CHECK(extended->runs_skipped == 1);
    REQUIRE(extended->plan.languages.size() == 2);
    REQUIRE(extended->plan.runs.size() == 2);
    CHECK(extended->plan.runs[0].rundir == first->plan.runs[0].rundir);
    CHECK(extended->plan.runs[0].identity == first->plan.runs[0].identity);
    CHECK(slurp(t / ("x/" + first->plan.runs[0].rundir + "/result.json")) == first_result);
    REQUIRE(extended->report);
    CHECK(extended->report->runs_found == 2);
    // More seeds into x, for one cell: the seed-1 runs kept as they were, seed 2 trained for that
    // cell only, the other cell's seed 2 planned and pending in the report.
    auto seeds = more;
    seeds.seeds = 2;
    seeds.cells = {"last-a:local-1"};
    auto two = run_verify(seeds);
    REQUIRE(two.ok());
    CHECK(two->plan.seeds == 2);
    REQUIRE(two->plan.runs.size() == 4);
    CHECK(two->runs_trained == 1);
    CHECK(two->runs_skipped == 1);
    for (const auto& r : extended->plan.runs)
        CHECK(std::count_if(two->plan.runs.begin(), two->plan.runs.end(), [&](const RunPlan& n) {
                  return n.rundir == r.rundir && n.identity == r.identity;
              }) == 1);
    CHECK(slurp(t / ("x/" + first->plan.runs[0].rundir + "/result.json")) == first_result);
    REQUIRE(two->report);
    CHECK(two->report->runs_found == 3);
    // The seed-2 run is the run a fresh 2-seed verification of that cell makes (same identity and folder).
    auto fresh = seeds;
    fresh.out = t / "w";
    auto w = run_verify(fresh);
    REQUIRE(w.ok());
    for (const auto& r : w->plan.runs)
        CHECK(std::count_if(two->plan.runs.begin(), two->plan.runs.end(), [&](const RunPlan& n) {
                  return n.rundir == r.rundir && n.identity == r.identity;
              }) == 1);
    // Fewer seeds than the folder's: refused, naming both counts; the plan kept.
    const std::string two_plan = slurp(t / "x/plan.json");
    auto fewer = run_verify(more);
    REQUIRE_FALSE(fewer.ok());
    CHECK(fewer.error().message.find("other settings: seeds 2 (now 1; more seeds extend a folder, fewer do not)") !=
          std::string::npos);
    CHECK(slurp(t / "x/plan.json") == two_plan);
}

TEST_CASE("language folder names are safe and distinct", "[report]") {
    CHECK(language_dir_name("last-a") == "last-a");
    const std::string a = language_dir_name("P(b & Y a)"), b = language_dir_name("P(b | Y a)");
    CHECK(a != b);
    for (char c : a) CHECK((std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.'));
    CHECK(parse_shard("1/3").ok());
    CHECK_FALSE(parse_shard("3/3").ok());
    CHECK_FALSE(parse_shard("1").ok());
    CHECK_FALSE(parse_shard("-1/2").ok());
    for (const char* lenient : {" 0/2", "+0/2", "0/ 2", "0x1/2", "1/0", "0/2 ", "0/9999999999"})
        CHECK_FALSE(parse_shard(lenient).ok());
    CHECK(parse_shard("0/2").ok());
}

TEST_CASE("report: per-label numbers or 'not measured', the published sd, FAR, and null means", "[report]") {
    TempDir t;
    Plan p = fixture_plan();
    Published pub;
    pub.file = "fixture.tsv";
    pub.test_distribution = "lc25";
    pub.values = {{"last-a", "global", "mean", "paper", 60.0}, {"last-a", "global", "sd", "paper", 1.5},
                  {"first-a", "global", "mean", "paper", 81.0}};
    p.published = pub;
    write_fixture(p, t.path.string());
    // Give the runs of first-a / global per-label counts: 1 accepted word (right) and 1 rejected
    // (wrong) at every length; last-a's runs stay as an older result.json would be.
    for (const auto& r : p.runs) {
        if (r.language != "first-a" || r.arch != named("global")) continue;
        RunResult res = fixture_result(p, r);
        for (int n = 41; n <= 60; ++n) res.per_length_labels[n] = {1, 1, 0, 1};
        REQUIRE(write_file_atomic(t / (r.rundir + "/result.json"), result_to_json(res)).ok());
    }
    auto runs = load_runs(p, t.path.string());
    REQUIRE(runs.ok());
    REQUIRE(write_report(p, *runs, t.path.string()).ok());
    const auto verdicts = nlohmann::json::parse(slurp(t / "verdicts.json"));
    const std::string md = slurp(t / "report.md");
    bool seen_first = false, seen_last = false;
    for (const auto& v : verdicts) {
        if (v["arch"] != "global") continue;
        if (v["language"] == "first-a") {
            seen_first = true;
            REQUIRE(v["labels"].is_object());
            CHECK(v["labels"]["accepted_accuracy"].get<double>() == 1.0);
            CHECK(v["labels"]["rejected_accuracy"].get<double>() == 0.0);
            CHECK(v["labels"]["balanced_accuracy"].get<double>() == 0.5);
            // 91.0 (mean of 100 and 82) against 81.0: more than 5 points apart.
            CHECK(v["published"][0]["far"] == true);
        } else {
            seen_last = true;
            CHECK(v["labels"].is_null());
            CHECK(v["labels_note"] == "not measured (older result.json)");
            CHECK(v["published"].size() == 2);  // mean and sd
        }
    }
    CHECK(seen_first);
    CHECK(seen_last);
    CHECK(md.find("accepted 100.0% · rejected 0.0% · balanced 50.0%") != std::string::npos);
    CHECK(md.find("per label: not measured") != std::string::npos);
    CHECK(md.find("FAR") != std::string::npos);
    CHECK(md.find("sd: ours") != std::string::npos);
    CHECK(md.find("NOT LIKE FOR LIKE") != std::string::npos);  // the paper's words are lc25, ours uniform

    // A cell whose runs all failed to fit: null mean in verdicts.json, "not fitted" in the report.
    for (const auto& r : p.runs) {
        if (r.language != "last-a" || r.arch != named("global")) continue;
        RunResult res = fixture_result(p, r);
        res.failed_to_fit = true;
        res.train_accuracy = 0.8;
        REQUIRE(write_file_atomic(t / (r.rundir + "/result.json"), result_to_json(res)).ok());
    }
    runs = load_runs(p, t.path.string());
    REQUIRE(runs.ok());
    REQUIRE(write_report(p, *runs, t.path.string()).ok());
    for (const auto& v : nlohmann::json::parse(slurp(t / "verdicts.json")))
        if (v["language"] == "last-a" && v["arch"] == "global") {
            CHECK(v["mean_accuracy"].is_null());
            CHECK(v["verdict"] == "inconclusive");
            CHECK(v["rule_id"] == "1b");
            CHECK(v["mark"] == "not_fitted");
            CHECK(v["ceiling"]["train"].is_null());  // global attention has no ceiling
        }
    CHECK(slurp(t / "report.md").find("**inconclusive** (not fitted)") != std::string::npos);
}

TEST_CASE("a merge names its missing shards: no plan, unfinished runs, no folder", "[report]") {
    TempDir t;
    const Plan p = fixture_plan();
    for (const char* d : {"s0", "s1", "s2"}) fs::create_directories(t.path / d);
    write_fixture(p, t / "s0", 3, 0);
    write_fixture(p, t / "s1", 3, 1);
    for (int k : {0, 1, 2}) REQUIRE(write_shard_file(t / ("s" + std::to_string(k)), k, 3).ok());
    // Shard 1 lost one finished run (its task was cancelled); shard 2 failed before planning.
    const RunPlan* lost = nullptr;
    for (const auto& r : p.runs)
        if (r.index % 3 == 1) lost = &r;
    REQUIRE(lost);
    fs::remove(t.path / "s1" / lost->rundir / "result.json");
    auto r = merge_report({t / "s0", t / "s1", t / "s2"}, t / "merged");
    REQUIRE(r.ok());
    // The counts by brute force over the plan: runs of shard k are those with index mod 3 == k.
    std::size_t in1 = 0, in2 = 0;
    for (const auto& run : p.runs) {
        if (run.index % 3 == 1) ++in1;
        if (run.index % 3 == 2) ++in2;
    }
    REQUIRE(r->missing.size() == 2);
    CHECK(r->missing[0] == "shard 1/3 (" + (t / "s1") + "): 1 of " + std::to_string(in1) +
                               " runs missing; its task failed or has not finished");
    CHECK(r->missing[1] == "shard 2/3 (" + (t / "s2") + "): no plan.json, its task failed before planning; " +
                               std::to_string(in2) + " of " + std::to_string(in2) + " runs missing");
    CHECK(r->runs_found == p.runs.size() - 1 - in2);
    CHECK(slurp(t / "merged/report.md").find("- **Missing:** shard 2/3 (") != std::string::npos);
    // Without shard 2's folder it is still named (shard.json of the others gives the split).
    auto r2 = merge_report({t / "s0", t / "s1"}, t / "merged2");
    REQUIRE(r2.ok());
    REQUIRE(r2->missing.size() == 2);
    CHECK(r2->missing[1].rfind("shard 2/3: no folder given holds it", 0) == 0);
    // Complete: nothing missing, and the report has no Missing line.
    write_fixture(p, t / "s1", 3, 1);
    write_fixture(p, t / "s2", 3, 2);
    auto full = merge_report({t / "s0", t / "s1", t / "s2"}, t / "merged");
    REQUIRE(full.ok());
    CHECK(full->missing.empty());
    CHECK(full->runs_found == p.runs.size());
    CHECK(slurp(t / "merged/report.md").find("Missing") == std::string::npos);
}
