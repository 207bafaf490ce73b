// Stopping training on request (base/stop.hh, what Ctrl-C does in `ltlkit train`): the run stops
// after the step at which the request came, writes its checkpoint at that step (not a multiple of
// --checkpoint-every) and returns the interrupted error (exit 130); resumed, it ends in the state of
// an uninterrupted run: the same state digest in the final checkpoint's header and the same
// training log (timing fields aside). Two routes to one state: stopped-and-resumed vs straight.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "automata/sampler.hh"
#include "base/stop.hh"
#include "fixtures.hh"
#include "neural/checkpoint.hh"
#include "neural/internal.hh"
#include "neural/training.hh"

using namespace ltlkit;
using namespace ltlkit::neural;
using namespace ltlkit::neural::testing;

namespace {

// metrics.jsonl without its timing fields, one dump per line.
std::vector<std::string> log_lines(const std::filesystem::path& dir) {
    std::vector<std::string> out;
    std::ifstream in(dir / "metrics.jsonl");
    for (std::string line; std::getline(in, line);) {
        auto j = nlohmann::json::parse(line);
        j.erase("seconds");
        j.erase("tokens_per_second");
        out.push_back(j.dump());
    }
    return out;
}

}  // namespace

TEST_CASE("a stop requested mid-training checkpoints that step, and the resumed run is the uninterrupted one",
          "[neural][train]") {
    const auto dfa = ends_with_a();
    auto sampler = automata::Sampler::create(dfa, 20);
    REQUIRE(sampler.ok());
    auto dist = TrainingDistribution::from_sampler(*sampler, 1, 12);
    REQUIRE(dist.ok());
    Config c = tiny_config("cpu");
    c.model.arch = {Architecture::Kind::Local, 1};
    c.model.layers = 1;
    c.training.steps = 90;
    c.runtime.checkpoint_every = 40;
    c.runtime.log_every = 10;
    const bool fit = GENERATE(false, true);
    if (fit) {  // training until the fit: the fit state is part of the stopped checkpoint too
        c.training.fit_check_every = 20;
        c.training.fit_check_words = 50;
        c.training.fit_target = 1.0;
        c.training.fit_extra_steps = 50;  // Σ*a fits by the first check: the stop is then at 70
    }
    const int at = GENERATE(1, 37, 53);  // not multiples of --checkpoint-every
    INFO("stop after step " << at << (fit ? ", until the fit" : ""));
    auto ref = scratch("stop-ref"), stopped = scratch("stop-int");
    auto straight = train_model(c, 2, *dist, ref.string(), nullptr);
    REQUIRE(straight.ok());
    REQUIRE(straight->steps_done > 53);

    // The request as the signal handler makes it, from the progress event of step `at`.
    int last_checkpoint = -1;
    ProgressFn progress = [&](const Progress& p) {
        if (p.phase == Progress::Phase::Step && p.step == at) CHECK(request_stop());
        if (p.phase == Progress::Phase::Checkpoint) last_checkpoint = p.step;
    };
    auto first = train_model(c, 2, *dist, stopped.string(), progress);
    REQUIRE(!first.ok());
    CHECK(first.error().exit_code == 130);
    CHECK(last_checkpoint == at);
    CHECK(!stop_requested());  // the scope is closed: the next signal ends a process at once
    {
        torch::serialize::InputArchive a;
        auto meta = read_checkpoint_file((stopped / "checkpoint.pt").string(), kRecognizerCheckpoint, a,
                                         torch::Device(torch::kCPU));
        REQUIRE(meta.ok());
        CHECK(meta->step == at);
    }
    auto resumed = train_model(c, 2, *dist, stopped.string(), nullptr);
    REQUIRE(resumed.ok());
    CHECK(resumed->steps_done == straight->steps_done);
    const auto want = checkpoint_header_state((ref / "checkpoint.pt").string());
    REQUIRE(!want.empty());
    CHECK(checkpoint_header_state((stopped / "checkpoint.pt").string()) == want);
    CHECK(log_lines(stopped) == log_lines(ref));
    std::filesystem::remove_all(ref);
    std::filesystem::remove_all(stopped);
}

TEST_CASE("a stop request outside training is not deferred: the caller stops at once", "[neural][train]") {
    CHECK(!request_stop());  // no StopPoints scope open: the handler ends the process
    {
        StopPoints scope;
        CHECK(!stop_requested());
        CHECK(request_stop());   // deferred to the next safe point
        CHECK(stop_requested());
        CHECK(!request_stop());  // a second one: at once
        CHECK(scope.close());
    }
    CHECK(!stop_requested());
    StopPoints quiet;
    CHECK(!quiet.close());
}
