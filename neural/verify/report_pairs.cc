// The report's summary of the runs' pair outputs (neural/pairs.hh): per cell and pair kind, the
// pairs and the share answered right in each run, and the first pairs that fail, with their words.

#include <algorithm>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "neural/verify/report_internal.hh"

namespace ltlkit::neural::verify::report_detail {

using nlohmann::json;

namespace {

constexpr std::size_t kFailingShown = 3;   // failing pairs shown per kind
constexpr std::size_t kWordShown = 48;     // symbols of a word's description before "…"

// A word for people: runs of a block repeated three or more times written "(block)^n" (a symbol
// alone "a^n"), as format_word spells the rest; ε when empty. Greedy, blocks of up to 8 symbols,
// the repetition that saves most symbols first.
std::string describe_word(const std::vector<std::string>& alphabet, const automata::Word& w) {
    if (w.empty()) return "ε";
    const bool single = automata::single_char_alphabet(alphabet);
    auto sym = [&](automata::Symbol a) { return a < alphabet.size() ? alphabet[a] : std::string("?"); };
    std::string out;
    std::size_t shown = 0;
    auto add = [&](const std::string& t) {
        if (!out.empty() && !single) out += ' ';
        out += t;
    };
    for (std::size_t i = 0; i < w.size();) {
        if (shown >= kWordShown) {
            add("… (" + std::to_string(w.size()) + " symbols)");
            break;
        }
        std::size_t best_len = 0, best_count = 0;
        for (std::size_t len = 1; len <= 8 && i + 2 * len <= w.size(); ++len) {
            std::size_t count = 1;
            while (i + (count + 1) * len <= w.size() &&
                   std::equal(w.begin() + static_cast<long>(i), w.begin() + static_cast<long>(i + len),
                              w.begin() + static_cast<long>(i + count * len)))
                ++count;
            if (count >= 3 && (count - 1) * len > (best_count > 0 ? (best_count - 1) * best_len : 0))
                best_len = len, best_count = count;
        }
        if (best_count == 0) {
            add(sym(w[i]));
            ++i, ++shown;
            continue;
        }
        std::string block;
        // Appended piece by piece (a "(" + ... chain trips GCC 12's -Wrestrict).
        if (best_len > 1) block += '(';
        for (std::size_t k = 0; k < best_len; ++k) {
            if (k && !single) block += ' ';
            block += sym(w[i + k]);
        }
        if (best_len > 1) block += ')';
        block += '^';
        block += std::to_string(best_count);
        add(block);
        i += best_len * best_count;
        shown += best_len;
    }
    return out;
}

const char* answer(bool accepted) { return accepted ? "accept" : "reject"; }

// "#40: b a^70 (71, reject→accept ✗) / a^71 (71, accept→accept ✓)"; a boundary pair by its id in
// the dataset's boundary split and its lengths.
std::string pair_text(const std::vector<std::string>& alphabet, const PairOutput& p) {
    std::string t = "#";
    t += std::to_string(p.pair);
    t += ": ";
    for (int i = 0; i < 2; ++i) {
        if (i) t += " / ";
        if (p.words_stored) {
            t += describe_word(alphabet, p.words[i]);
            t += ' ';
        }
        t += p.words_stored ? "(" : "(length ";
        t += std::to_string(p.lengths[i]);
        t += ", ";
        t += answer(p.labels[i]);
        t += "→";
        t += answer(p.logits[i] > 0);
        t += p.right(i) ? " ✓)" : " ✗)";
    }
    return t;
}

}  // namespace

bool has_pair_outputs(const Cell& c) {
    return std::any_of(c.results.begin(), c.results.end(), [](const LoadedRun* r) { return r && !r->pairs_file.empty(); });
}

std::vector<std::string> pair_lines(const Cell& c, const LanguagePlan& lang) {
    std::vector<std::string> lines;
    for (PairKind kind : kPairKinds) {
        std::string per_run, failing;
        for (std::size_t i = 0; i < c.runs.size(); ++i) {
            const LoadedRun* r = c.results[i];
            if (!r || r->pairs_file.empty()) continue;
            PairCounts n;
            std::vector<const PairOutput*> wrong;
            for (const auto& p : r->pairs) {
                if (p.kind != kind) continue;
                ++n.pairs;
                if (p.correct())
                    ++n.correct;
                else
                    wrong.push_back(&p);
            }
            if (n.pairs == 0) continue;
            per_run += (per_run.empty() ? "" : ", ") + c.runs[i]->label() + " " + std::to_string(n.correct) + "/" +
                       std::to_string(n.pairs) + " (" + pct(static_cast<double>(n.correct) / static_cast<double>(n.pairs)) + ")";
            if (failing.empty() && !wrong.empty()) {
                failing = "first failing (" + c.runs[i]->label() + "): ";
                for (std::size_t k = 0; k < std::min(kFailingShown, wrong.size()); ++k)
                    failing += (k ? "; " : "") + pair_text(lang.alphabet, *wrong[k]);
                if (wrong.size() > kFailingShown) failing += "; … " + std::to_string(wrong.size() - kFailingShown) + " more";
            }
        }
        if (per_run.empty()) continue;
        lines.push_back(to_string(kind) + " pairs correct: " + per_run + (failing.empty() ? "" : "; " + failing));
    }
    if (lines.empty()) lines.push_back("no pairs evaluated");
    return lines;
}

json pair_outputs_json(const Cell& c) {
    json all = json::array();
    for (std::size_t i = 0; i < c.runs.size(); ++i) {
        const LoadedRun* r = c.results[i];
        if (!r || r->pairs_file.empty()) continue;
        json kinds = json::object();
        for (const auto& [kind, n] : count_pairs(r->pairs))
            kinds[to_string(kind)] = {{"pairs", n.pairs}, {"correct", n.correct}};
        all.push_back({{"run", c.runs[i]->label()}, {"file", r->pairs_file}, {"kinds", kinds}});
    }
    return all;
}

}  // namespace ltlkit::neural::verify::report_detail
