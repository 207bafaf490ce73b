// Train a small transformer recognizer on a language and evaluate it on longer words (docs/PROTOCOL.md),
// with settings tiny enough to run in seconds on a CPU. The run folder gets checkpoint.pt,
// run.json and result.json.
//   train_recognizer 'Y a' RUNDIR
#include <iostream>
#include <string>

#include "automata/language.hh"
#include "neural/run.hh"

using namespace ltlkit;

int main(int argc, char** argv) {
    automata::LanguageSpec spec;
    spec.text = argc > 1 ? argv[1] : "Y a";
    spec.alphabet = {"a", "b"};
    const std::string rundir = argc > 2 ? argv[2] : "run";
    auto language = automata::load_language(spec);
    if (!language) {
        std::cerr << "train_recognizer: " << language.error().render() << "\n";
        return language.error().exit_code;
    }
    neural::Config c;  // defaults are the protocol's; shrink everything
    c.model.arch = {neural::Architecture::Kind::Local, 1};  // local-1
    c.model.layers = 1;
    c.model.d_model = 16;
    c.model.heads = 2;
    c.model.d_ff = 32;
    c.training.steps = 150;
    c.training.batch = 32;
    c.training.lr = 1e-2;
    c.training.train_min = 1;
    c.training.train_max = 8;
    c.evaluation.test_min = 9;
    c.evaluation.test_max = 16;
    c.evaluation.per_length = 16;
    c.evaluation.fit_words = 64;
    c.runtime.device = neural::Device::Cpu;
    c.runtime.log_every = 0;
    c.runtime.checkpoint_every = 150;
    auto result = neural::train_and_evaluate(language->dfa, c, rundir, {}, spec.text);
    if (!result) {
        std::cerr << "train_recognizer: " << result.error().one_line() << "\n";
        return result.error().exit_code;
    }
    std::cout << "arch " << neural::to_string(c.model.arch) << " on " << spec.text << ": train accuracy "
              << result->train_accuracy << ", mean test accuracy " << result->mean_accuracy << " (lengths "
              << c.evaluation.test_min << ".." << c.evaluation.test_max << "), success " << (result->success ? "yes" : "no") << "\n";
    return 0;
}
