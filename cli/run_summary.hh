// The one-line summary of a run's result.json that `ltlkit train` and `ltlkit eval` print.
#pragma once

#include <cmath>
#include <cstdio>
#include <iostream>
#include <string>

#include "neural/run.hh"

namespace ltlkit::cli {

// "42s", "3m07s", "2h05m"; "?" for a negative or infinite duration.
inline std::string fmt_duration(double s) {
    if (!(s >= 0) || !std::isfinite(s)) return "?";
    char buf[32];
    const long t = std::lround(s);
    if (t >= 3600)
        std::snprintf(buf, sizeof buf, "%ldh%02ldm", t / 3600, (t / 60) % 60);
    else if (t >= 60)
        std::snprintf(buf, sizeof buf, "%ldm%02lds", t / 60, t % 60);
    else
        std::snprintf(buf, sizeof buf, "%lds", t);
    return buf;
}


inline void print_run_summary(const neural::RunResult& r, const std::string& rundir, bool json,
                              const std::string& file = "result.json") {
    if (r.already_finished)
        std::fprintf(stderr, "%s: already finished (same language, configuration and data); nothing to do\n",
                     rundir.c_str());
    if (json) {
        std::cout << neural::result_to_json(r);
        return;
    }
    std::printf("%s/%s: %s  mean %.4f  min-bin %.4f  N* %d  train %.4f%s%s\n", rundir.c_str(), file.c_str(),
                r.failed_to_fit ? "failed_to_fit" : (r.success ? "success" : "no success"),
                r.mean_accuracy, r.min_bin_accuracy, r.n_star, r.train_accuracy,
                r.adversarial_accuracy ? ("  adversarial " + std::to_string(*r.adversarial_accuracy)).c_str() : "",
                r.boundary_accuracy ? ("  boundary " + std::to_string(*r.boundary_accuracy)).c_str() : "");
}

}  // namespace ltlkit::cli
