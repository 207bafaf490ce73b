// Train a small transformer recognizer on a language and evaluate it on longer words (PROTOCOL.md),
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
    c.arch = "local-1";
    c.layers = 1;
    c.d_model = 16;
    c.heads = 2;
    c.d_ff = 32;
    c.steps = 150;
    c.batch = 32;
    c.lr = 1e-2;
    c.train_min = 1;
    c.train_max = 8;
    c.test_min = 9;
    c.test_max = 16;
    c.per_length = 16;
    c.fit_words = 64;
    c.device = "cpu";
    c.log_every = 0;
    c.checkpoint_every = 150;
    auto result = neural::train_and_evaluate(language->dfa, c, rundir, {}, spec.text);
    if (!result) {
        std::cerr << "train_recognizer: " << result.error().one_line() << "\n";
        return result.error().exit_code;
    }
    std::cout << "arch " << c.arch << " on " << spec.text << ": train accuracy " << result->train_accuracy
              << ", mean test accuracy " << result->mean_accuracy << " (lengths " << c.test_min << ".." << c.test_max
              << "), success " << (result->success ? "yes" : "no") << "\n";
    return 0;
}
