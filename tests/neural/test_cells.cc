// verify --cells / --only: a plan of chosen (language, architecture) cells holds exactly their runs,
// with the same identities and folders as the full plan's, records the cells, and refuses a cell
// that names no language of the suite or no architecture of --archs.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <set>

#include "base/file.hh"
#include "neural/verify/report.hh"
#include "neural/verify/verify.hh"

using namespace ltlkit;
using namespace ltlkit::neural;
using namespace ltlkit::neural::verify;

namespace {

automata::LanguageSpec formula_spec(const std::string& name, const std::string& text) {
    automata::LanguageSpec spec;
    spec.kind = automata::InputKind::Formula;
    spec.text = text;
    spec.alphabet = {"a", "b"};
    spec.name = name;
    return spec;
}

automata::Language formula(const std::string& name, const std::string& text) {
    auto lang = automata::load_language(formula_spec(name, text));
    REQUIRE(lang.ok());
    return *lang;
}

VerifyOptions options(const std::string& out) {
    VerifyOptions o;
    o.languages = {formula("last-a", "a"), formula("ever-a", "P a"), formula("prev-a", "Y a")};
    o.archs = {*parse_architecture("local-1"), *parse_architecture("hybrid-1"), *parse_architecture("global")};
    o.profile = tiny_profile();
    o.seeds = 2;
    o.out = out;
    o.log = [](const std::string&) {};
    return o;
}

std::filesystem::path scratch(const std::string& name) {
    auto dir = std::filesystem::temp_directory_path() / ("ltlkit-test-cells-" + name);
    std::filesystem::remove_all(dir);
    return dir;
}

}  // namespace

TEST_CASE("verify cells: the chosen cells' runs are the full plan's runs of those cells", "[report]") {
    const auto all_dir = scratch("all"), some_dir = scratch("some");
    auto all = prepare(options(all_dir.string()));
    REQUIRE(all.ok());
    CHECK(all->cells.empty());
    CHECK(all->runs.size() == 3 * 3 * 2);
    auto o = options(some_dir.string());
    o.cells = {"last-a:global", "prev-a:local-1", "last-a:local-1"};
    auto some = prepare(o);
    INFO((some.ok() ? "" : some.error().message));
    REQUIRE(some.ok());
    // Languages without a chosen cell are left out of the plan.
    REQUIRE(some->languages.size() == 2);
    CHECK(some->languages[0].name == "last-a");
    CHECK(some->languages[1].name == "prev-a");
    const std::set<std::string> want{"last-a:global", "last-a:local-1", "prev-a:local-1"};
    CHECK(std::set<std::string>(some->cells.begin(), some->cells.end()) == want);
    REQUIRE(some->runs.size() == 3 * 2);
    std::set<std::string> full_dirs;
    for (const auto& r : all->runs) full_dirs.insert(r.rundir + " " + r.identity);
    for (const auto& r : some->runs) {
        const std::string lang = r.language.rfind("last-a", 0) == 0 ? "last-a" : "prev-a";
        CHECK(want.count(lang + ":" + to_string(r.arch)));
        // Same seed, identity and folder as in the plan of every cell.
        CHECK(full_dirs.count(r.rundir + " " + r.identity));
    }
    // plan.json records the cells and reads them back.
    auto text = read_file((some_dir / "plan.json").string());
    REQUIRE(text.ok());
    auto back = plan_from_json(*text);
    REQUIRE(back.ok());
    CHECK(back->cells == some->cells);
    std::filesystem::remove_all(all_dir);
    std::filesystem::remove_all(some_dir);
}

TEST_CASE("verify cells: a cell of no language, of an architecture not in --archs, or malformed is refused",
          "[report]") {
    const auto dir = scratch("bad");
    for (const std::string bad : {"nope:global", "last-a:local-2", "last-a", ":global", "last-a:cnn"}) {
        auto o = options(dir.string());
        o.cells = {bad};
        auto p = prepare(o);
        INFO(bad);
        REQUIRE_FALSE(p.ok());
        CHECK(p.error().message.find(bad) != std::string::npos);
        CHECK_FALSE(std::filesystem::exists(dir / "plan.json"));
    }
    // A cells file: comments and blank lines skipped, a bad line named by its number.
    std::filesystem::create_directories(dir);
    const auto file = dir / "cells.txt";
    std::ofstream(file) << "# chosen\n\nlast-a:global\n  prev-a:local-1  \n";
    auto cells = read_cells_file(file.string());
    REQUIRE(cells.ok());
    CHECK(*cells == std::vector<std::string>{"last-a:global", "prev-a:local-1"});
    std::ofstream(file) << "last-a:global\nlast-a\n";
    auto bad = read_cells_file(file.string());
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.error().message.find("cells.txt:2:") != std::string::npos);
    std::ofstream(file) << "# nothing\n";
    CHECK_FALSE(read_cells_file(file.string()).ok());
    CHECK_FALSE(read_cells_file((dir / "missing.txt").string()).ok());
    std::filesystem::remove_all(dir);
}

// verify compiles each language once: the suite's languages are compiled by load_languages (as
// `ltlkit verify` does), and checking the options, planning (classify, datasets) and running the
// runs and the report compile none again (automata::languages_compiled counts every compilation).
TEST_CASE("verify compiles each language of a suite exactly once", "[report]") {
    const auto dir = scratch("once");
    std::filesystem::create_directories(dir);
    const auto suite = dir / "two.suite";
    std::ofstream(suite) << "last-a\ta,b\tformula\tY a\nprev-a\ta,b\tregex\t.*a.\n";
    auto specs = automata::read_suite(suite.string());
    REQUIRE(specs.ok());
    REQUIRE(specs->size() == 2);
    auto o = options((dir / "out").string());
    const std::size_t before = automata::languages_compiled();
    auto languages = load_languages(*specs);
    REQUIRE(languages.ok());
    CHECK(automata::languages_compiled() - before == 2);
    o.languages = std::move(languages).value();
    o.archs = {*parse_architecture("local-1"), *parse_architecture("global")};
    o.seeds = 1;
    o.max_runs = 1;  // one run trained: the training path too compiles nothing
    REQUIRE(check_verify_options(o).ok());
    auto summary = run_verify(o);
    INFO((summary.ok() ? "" : summary.error().message));
    REQUIRE(summary.ok());
    CHECK(summary->runs_trained == 1);
    REQUIRE(summary->plan.languages.size() == 2);
    CHECK(summary->plan.languages[1].kind == "regex");
    CHECK(summary->report.has_value());
    CHECK(automata::languages_compiled() - before == 2);
    // A language that does not compile is refused by load_languages, naming its suite line.
    std::ofstream(suite) << "last-a\ta,b\tformula\ta\nbroken\ta,b\tformula\ta &\n";
    auto bad_specs = automata::read_suite(suite.string());
    REQUIRE(bad_specs.ok());
    auto bad = load_languages(*bad_specs);
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.error().one_line().find("two.suite:2") != std::string::npos);
    std::filesystem::remove_all(dir);
}
