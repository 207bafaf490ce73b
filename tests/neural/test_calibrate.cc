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
