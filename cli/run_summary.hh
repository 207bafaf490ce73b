// The one-line summary of a run's result.json that `ltlkit train` and `ltlkit eval` print.
#pragma once

#include <cstdio>
#include <iostream>
#include <string>

#include "neural/run.hh"

namespace ltlkit::cli {

inline void print_run_summary(const neural::RunResult& r, const std::string& rundir, bool json) {
    if (json) {
        std::cout << neural::result_to_json(r);
        return;
    }
    std::printf("%s/result.json: %s  mean %.4f  min-bin %.4f  N* %d  train %.4f%s%s\n", rundir.c_str(),
                r.failed_to_fit ? "failed_to_fit" : (r.success ? "success" : "no success"),
                r.mean_accuracy, r.min_bin_accuracy, r.n_star, r.train_accuracy,
                r.adversarial_accuracy ? ("  adversarial " + std::to_string(*r.adversarial_accuracy)).c_str() : "",
                r.boundary_accuracy ? ("  boundary " + std::to_string(*r.boundary_accuracy)).c_str() : "");
}

}  // namespace ltlkit::cli
