// The calibration behind the cost estimates (neural/calibrate.hh): rates that the estimate uses as
// given, and a random stream that does not depend on whether a calibration ran.
#include "fixtures.hh"  // torch before Catch2: glog defines CHECK

#include "neural/calibrate.hh"
#include "neural/cost.hh"

using namespace ltlkit;
using namespace ltlkit::neural;
using namespace ltlkit::neural::testing;

TEST_CASE("a calibration leaves the random stream where it was and its rates make the estimate",
          "[neural][cost]") {
    Config c = tiny_config("cpu");
    c.training.steps = 1000;
    c.evaluation.test_min = 20;
    c.evaluation.test_max = 60;
    c.evaluation.per_length = 32;
    torch::manual_seed(7);
    const auto expected = torch::rand({16});
    torch::manual_seed(7);
    const auto rate = measure_throughput(c, 0.1);
    const auto after = torch::rand({16});
    REQUIRE(rate.ok());
    CHECK(torch::equal(expected, after));
    CHECK(rate->train_tokens_per_second > 0);
    CHECK(rate->eval_tokens_per_second > 0);
    CHECK(rate->source.find("measured here") == 0);

    const auto e = estimate_cost(c, 3, 1, false, &*rate);
    CHECK(e.measured);
    CHECK(e.assumptions == rate->source);
    // Training: steps × batch × (mean training length + EOS) tokens at the measured rate; evaluation:
    // the test words and fit words at theirs; both with the overhead of what is not calibrated.
    const double train_tokens = 1000.0 * c.training.batch * ((1 + 12) / 2.0 + 1);
    CHECK(e.train_tokens == Approx(train_tokens));
    CHECK(e.train_seconds == Approx(kMeasuredOverhead * train_tokens / rate->train_tokens_per_second));
    CHECK(e.eval_seconds == Approx(kMeasuredOverhead * e.eval_tokens / rate->eval_tokens_per_second));
    CHECK(e.grid_hours == Approx(3 * (e.train_seconds + e.eval_seconds) / 3600));
    const auto assumed = estimate_cost(c, 3, 1, false);
    CHECK(!assumed.measured);

    // A device that is not there is an error, not a guess.
    Config cuda = c;
    cuda.runtime.device = Device::Cuda;
    if (!torch::cuda::is_available()) CHECK(!measure_throughput(cuda, 0.1).ok());
}

TEST_CASE("one estimate for every route: calibrated above the threshold, counting what is left to train",
          "[neural][cost]") {
    // A measurement that counts its calls and returns fixed rates, so that the numbers compare
    // exactly (neural::estimate_work is what train, eval, verify and verify --estimate print).
    int calls = 0;
    std::vector<double> seconds_asked;
    const MeasureFn fixed = [&](const Config& c, double seconds) -> Result<Throughput> {
        ++calls;
        seconds_asked.push_back(seconds);
        Throughput t;
        t.train_tokens_per_second = c.training.steps > 0 ? 1e5 : 0;
        t.eval_tokens_per_second = 4e5;
        t.source = "measured here: fixed";
        return t;
    };
    Config small = tiny_config("cpu");
    small.training.steps = 10;
    small.evaluation.test_min = 9;
    small.evaluation.test_max = 10;
    small.evaluation.per_length = 2;
    small.evaluation.fit_words = 10;
    // Under the threshold by the assumed rate: no calibration, the assumed estimate as it is.
    const auto quick = estimate_work({{small, 1}}, 1, false, fixed);
    CHECK(calls == 0);
    CHECK(!quick.measured);
    CHECK(quick.seconds_per_run == Approx(estimate_cost(small, 1, 1, false).seconds_per_run));
    CHECK(quick.seconds_per_run * 1 <= kCalibrateAbove);

    Config big = small;
    big.model.layers = 4;
    big.model.d_model = 64;
    big.model.d_ff = 256;
    big.training.steps = 20000;
    big.training.batch = 64;
    REQUIRE(estimate_cost(big, 1, 1, false).seconds_per_run > kCalibrateAbove);
    const auto one = estimate_work({{big, 1}}, 1, false, fixed);
    CHECK(calls == 1);
    CHECK(one.measured);
    Throughput rate = fixed(big, 0).value();
    --calls;
    const auto direct = estimate_cost(big, 1, 1, false, &rate);
    CHECK(one.seconds_per_run == Approx(direct.seconds_per_run));
    CHECK(one.train_seconds == Approx(direct.train_seconds));
    // The calibration's length follows the work (1% of the assumed time, 0.2 to 1.5 s).
    CHECK(seconds_asked.front() >= 0.2);
    CHECK(seconds_asked.front() <= 1.5);

    // A grid of two configurations, as verify and verify --estimate count it: the mean per run
    // weighted by the runs of each; the shards change the task's time, not the per-run estimate.
    Config other = big;
    other.model.arch = parse_architecture("local-1").value();
    const auto grid1 = estimate_work({{big, 3}, {other, 1}}, 1, false, fixed);
    const auto grid4 = estimate_work({{big, 3}, {other, 1}}, 4, false, fixed);
    CHECK(grid1.measured);
    CHECK(grid1.runs == 4);
    CHECK(grid4.runs_per_shard == 1);
    CHECK(grid1.seconds_per_run == Approx(grid4.seconds_per_run));
    CHECK(grid1.grid_hours == Approx(grid4.grid_hours));
    CHECK(grid1.task_seconds >= grid4.task_seconds);
    const double mean = (3 * estimate_cost(big, 1, 1, false, &rate).seconds_per_run +
                         estimate_cost(other, 1, 1, false, &rate).seconds_per_run) / 4;
    CHECK(grid1.seconds_per_run == Approx(mean));

    // A resumed run: only the steps left are trained (the print before `train` passes them).
    Config left = big;
    left.training.steps = big.training.steps / 4;
    const auto resumed = estimate_work({{left, 1}}, 1, false, fixed);
    CHECK(resumed.train_seconds == Approx(direct.train_seconds / 4));
    CHECK(resumed.eval_seconds == Approx(direct.eval_seconds));
    // An evaluation alone (eval): no training rate needed, no training time.
    Config eval_only = big;
    eval_only.training.steps = 0;
    eval_only.evaluation.per_length = 20000;
    const auto ev = estimate_work({{eval_only, 1}}, 1, false, fixed);
    CHECK(ev.measured);
    CHECK(ev.train_seconds == 0);
    CHECK(ev.eval_seconds == Approx(direct.eval_seconds * ev.eval_tokens / direct.eval_tokens));

    // A calibration that cannot run leaves the assumed rate and says why.
    const MeasureFn broken = [](const Config&, double) -> Result<Throughput> { return make_error("no such device"); };
    const auto fallback = estimate_work({{big, 1}}, 1, false, broken);
    CHECK(!fallback.measured);
    CHECK(fallback.seconds_per_run == Approx(estimate_cost(big, 1, 1, false).seconds_per_run));
    CHECK(fallback.assumptions.find("not calibrated: no such device") != std::string::npos);
}

TEST_CASE("a calibration of an evaluation alone measures no training", "[neural][cost]") {
    Config c = tiny_config("cpu");
    c.training.steps = 0;
    c.evaluation.test_min = 20;
    c.evaluation.test_max = 30;
    const auto rate = measure_throughput(c, 0.1);
    REQUIRE(rate.ok());
    CHECK(rate->train_tokens_per_second == 0);
    CHECK(rate->eval_tokens_per_second > 0);
    CHECK(estimate_cost(c, 1, 1, false, &*rate).measured);
}
