// `ltlkit score RUNDIR WORD...`: the trained recognizer's logit on each word, computed as `ltlkit eval`
// computes it, beside the language's own answer. A thin layer over neural::score_run.
#include <cstdio>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "cli/command.hh"
#include "cli/common.hh"
#include "neural/score.hh"

namespace ltlkit::cli {
namespace {

struct ScoreArgs {
    std::string rundir, words_file, device = "cpu";
    std::vector<std::string> words;
    int threads = 1;
    bool json = false;
};

// Nine significant digits: a float read back from the text is the same float.
std::string float_text(float x) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(x));
    return buf;
}

LTLKIT_COMMAND(CommandDef{
    "score", "Print each word's logit under a trained run's recognizer (> 0: accepted)",
    [](CLI::App& app) -> Runner {
        auto a = std::make_shared<ScoreArgs>();
        app.add_option("RUNDIR", a->rundir, "Run folder written by `ltlkit train`")->required();
        app.add_option("WORD", a->words,
                       "Words over the run's alphabet, letter by letter (abba) or space-separated symbols in one "
                       "argument; '' is the empty word");
        app.add_option("--words", a->words_file, "Read words from FILE ('-' = stdin), one per line (a blank line is the empty word)");
        app.add_option("--threads", a->threads, "CPU threads (default 1)")->check(at_least(1));
        app.add_option("--device", a->device, "auto | cpu | cuda (default cpu)")->check(one_of(kDeviceNames));
        app.add_flag("--json", a->json, "One JSON object: alphabet, results [{word, symbols, logit, accepted, label}]");
        app.footer(
            "Output: a header line (word, logit, accepted, label), then per word WORD<TAB>LOGIT<TAB>1|0 (the "
            "recognizer's answer)<TAB>1|0 (the language's).\n"
            "Examples:\n"
            "  ltlkit score runs/x ab ba ''\n"
            "  ltlkit score runs/x --words words.txt --json");
        return [a]() -> int {
            auto info = take(neural::read_run_info(a->rundir));
            std::vector<std::string> texts = a->words;
            if (!a->words_file.empty())
                for (const auto& l : read_numbered_lines(a->words_file, false)) texts.push_back(l.text);
            std::vector<automata::Word> words;
            for (const auto& t : texts) words.push_back(take(automata::parse_word(info.dfa.alphabet, t)));
            const auto logits = take(neural::score_run(a->rundir, words, take(neural::parse_device(a->device)), a->threads));
            const auto& alphabet = info.dfa.alphabet;
            std::string out;
            if (a->json) {
                nlohmann::json j;
                j["alphabet"] = alphabet;
                j["results"] = nlohmann::json::array();
                for (std::size_t i = 0; i < words.size(); ++i)
                    j["results"].push_back({{"word", automata::format_word(alphabet, words[i])},
                                            {"symbols", automata::word_symbols(alphabet, words[i])},
                                            {"logit", static_cast<double>(logits[i])},
                                            {"accepted", logits[i] > 0},
                                            {"label", info.dfa.accepts(words[i])}});
                out = j.dump() + "\n";
            } else {
                out = "word\tlogit\taccepted\tlabel\n";  // the columns (a TSV header)
                for (std::size_t i = 0; i < words.size(); ++i)
                    out += automata::format_word(alphabet, words[i]) + "\t" + float_text(logits[i]) + "\t" +
                           (logits[i] > 0 ? "1" : "0") + "\t" + (info.dfa.accepts(words[i]) ? "1" : "0") + "\n";
            }
            std::cout << out << std::flush;
            return 0;
        };
    }});

}  // namespace
}  // namespace ltlkit::cli
