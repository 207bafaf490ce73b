// The table of docs/WINDOWS.md: every minimal complete DFA with at most N states over an alphabet
// of size S (canonically numbered, so each language once) that is definite or locally R-trivial,
// with the answers of decide_local_k / decide_hybrid_k for k = 2..K, each certificate re-verified
// through check_window_certificate. Prints Markdown rows and a summary (counts, unknowns, time).
//
//   bench_windows_table [max_states=4] [symbols=2] [max_k=4] [--only-definite] [--shard I/N] [--random N[:SEED]]
// --shard I/N decides only the rows whose number is I+1 modulo N (rows keep their global numbers;
// the summary counts this shard's rows), so that N processes share a long table. --random N[:SEED]
// replaces the enumeration by N distinct random minimal locally R-trivial DFAs with exactly
// max_states states (for sizes whose enumeration is out of reach; the unknown rate beyond the tables).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "automata/algebra/classify.hh"
#include "automata/algebra/windows.hh"
#include "automata/algorithms.hh"
#include "automata/io.hh"

using namespace ltlkit::automata;
using namespace ltlkit::automata::algebra;

namespace {

// The certificate exactly as `classify --certificates` writes it (SPEC §6).
std::string cert_json(const Certificate& c, const Dfa& d) { return certificate_to_json(c, d); }

std::string describe(const Dfa& d) {
    std::string s = "δ=";
    for (std::size_t q = 0; q < d.num_states(); ++q) {
        if (q) s += ",";
        for (Symbol a = 0; a < d.num_symbols(); ++a) s += std::to_string(d.next(static_cast<State>(q), a));
    }
    s += " F={";
    bool first = true;
    for (std::size_t q = 0; q < d.num_states(); ++q)
        if (d.is_accepting(static_cast<State>(q))) {
            if (!first) s += ",";
            s += std::to_string(q);
            first = false;
        }
    return s + "}";
}

std::string cell(const WindowDecision& w, const Dfa& d) {
    if (w.answer == Answer::Yes && w.certificate.kind == CertificateKind::DepthTypes)
        return "yes: depth-" + std::to_string(nlohmann::json::parse(w.certificate.extra_json).value("depth", 0u)) + " types separate";
    if (w.answer == Answer::Yes) {
        // The typed and sink routes' formulas (docs/WINDOWS.md §3b, §3c) run to thousands of characters: summarized.
        auto extra = nlohmann::json::parse(w.certificate.extra_json, nullptr, false);
        if (extra.is_object() && extra.value("route", "") == "sink")
            return std::string(extra.value("past_letters", false) || extra.value("mixed", false) ? "yes: extended sink route, depth-"
                                                                                                    : "yes: sink route, depth-") +
                   std::to_string(extra["type_depth"].get<unsigned>()) +
                   " window types (formula of tree size " + std::to_string(extra.value("formula_size", 0u)) + ")";
        if (extra.is_object() && extra.contains("type_depth"))
            return "yes: depth-" + std::to_string(extra["type_depth"].get<unsigned>()) + " window types (formula of tree size " +
                   std::to_string(extra.value("formula_size", 0u)) + ")";
        // Other long formulas (the LTL[P] formula of an R-trivial language, a large bottom-up one).
        if (w.certificate.formula && w.certificate.formula->size() > 600 && extra.is_object())
            return "yes: formula of tree size " + std::to_string(extra.value("formula_size", 0u)) + " (not shown)";
        return "yes: `" + w.certificate.formula.value_or("(omitted)") + "`";
    }
    if (w.answer == Answer::No) {
        const auto& f = *w.certificate.family;
        auto fw = [&](const Word& v) { return v.empty() ? std::string("ε") : format_word(d.alphabet, v); };
        return "no: " + (f.x.empty() ? std::string() : fw(f.x) + "·") + "(" + fw(f.p) + ")^r·" + fw(f.y) + " / " + fw(f.z);
    }
    // unknown: the exact depth probe's lower bound, if it found one (docs/WINDOWS.md §5)
    auto extra = nlohmann::json::parse(w.certificate.extra_json, nullptr, false);
    if (extra.is_object() && extra.contains("depth_lower_bound"))
        return "**unknown** (no formula of depth ≤ " + std::to_string(extra["depth_lower_bound"].get<unsigned>()) + ")";
    return "**unknown**";
}

}  // namespace

int main(int argc, char** argv) {
    std::size_t max_states = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 4;
    std::size_t symbols = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 2;
    unsigned max_k = argc > 3 ? static_cast<unsigned>(std::strtoul(argv[3], nullptr, 10)) : 4;
    bool only_definite = false;
    std::size_t shard = 0, shards = 1, random_rows = 0;
    unsigned long long seed = 1;
    for (int i = 4; i < argc; ++i) {
        if (std::strcmp(argv[i], "--only-definite") == 0) {
            only_definite = true;
        } else if (std::strcmp(argv[i], "--shard") == 0 && i + 1 < argc &&
                   std::sscanf(argv[i + 1], "%zu/%zu", &shard, &shards) == 2 && shards > 0 && shard < shards) {
            ++i;
        } else if (std::strcmp(argv[i], "--random") == 0 && i + 1 < argc &&
                   std::sscanf(argv[i + 1], "%zu:%llu", &random_rows, &seed) >= 1 && random_rows > 0) {
            ++i;
        } else {
            std::cerr << "bench_windows_table: unknown or malformed argument '" << argv[i]
                      << "' (expected --only-definite, --shard I/N with I < N, or --random N[:SEED] with N > 0)\n";
            return 2;
        }
    }
    if (max_states < 1 || symbols < 1 || symbols > 26 || max_k < 2) {
        std::cerr << "bench_windows_table: need max_states >= 1, 1 <= symbols <= 26 and max_k >= 2\n";
        return 2;
    }
    std::vector<std::string> alphabet;
    for (std::size_t i = 0; i < symbols; ++i) alphabet.push_back(std::string(1, char('a' + i)));

    auto t0 = std::chrono::steady_clock::now();
    std::size_t n_def = 0, n_lrt = 0, unknown_local = 0, unknown_hybrid = 0, bad = 0, yes_l = 0, no_l = 0, yes_h = 0,
                no_h = 0;
    std::cout << "| # | states | DFA | definite | k | local_k | hybrid_k |\n|---|---|---|---|---|---|---|\n";
    std::size_t row = 0;
    auto verify = [&](const WindowDecision& w, const Dfa& d) {
        if (w.answer == Answer::Unknown) return;
        std::string why;
        auto ok = check_window_certificate(cert_json(w.certificate, d), &why);
        if (!ok || !*ok) {
            ++bad;
            std::cerr << "certificate failed: " << describe(d) << " " << w.certificate.class_id << ": "
                      << (ok ? why : ok.error().message) << "\n";
        }
    };
    // One row: d is minimal, canonical and locally R-trivial (definite when only_definite).
    auto decide_row = [&](const Dfa& d, bool def) {
        if (row++ % shards != shard) return;
        (def ? n_def : n_lrt)++;
        for (unsigned k = 2; k <= max_k; ++k) {
            std::string lc = "—";
            if (def) {
                auto w = decide_local_k(d, k);
                lc = cell(w, d);
                if (w.answer == Answer::Unknown) ++unknown_local;
                if (w.answer == Answer::Yes) ++yes_l;
                if (w.answer == Answer::No) ++no_l;
                verify(w, d);
            }
            auto h = decide_hybrid_k(d, k);
            if (h.answer == Answer::Unknown) ++unknown_hybrid;
            if (h.answer == Answer::Yes) ++yes_h;
            if (h.answer == Answer::No) ++no_h;
            verify(h, d);
            std::cout << "| " << (k == 2 ? std::to_string(row) : "") << " | "
                      << (k == 2 ? std::to_string(d.num_states()) : "") << " | " << (k == 2 ? describe(d) : "") << " | "
                      << (k == 2 ? (def ? "yes" : "no") : "") << " | " << k << " | " << lc << " | " << cell(h, d) << " |\n";
            std::cout.flush();
        }
    };
    if (random_rows > 0) {
        // Distinct random minimal DFAs with exactly max_states states (uniform transitions and
        // acceptance, minimized and canonically renumbered), kept when locally R-trivial.
        std::mt19937_64 rng(seed);
        std::set<std::string> seen;
        for (std::size_t tries = 0; seen.size() < random_rows && tries < random_rows * 100000; ++tries) {
            Dfa d;
            d.alphabet = alphabet;
            d.initial = 0;
            d.accepting.resize(max_states);
            for (auto& a : d.accepting) a = rng() % 2;
            d.delta.resize(max_states * symbols);
            for (auto& t : d.delta) t = static_cast<State>(rng() % max_states);
            d = canonical(minimize(d));
            if (d.num_states() != max_states || !locally_r_trivial_by_pair_graph(d)) continue;
            const bool def = definite_by_pair_graph(d);
            if ((only_definite && !def) || !seen.insert(describe(d)).second) continue;
            decide_row(d, def);
        }
    } else {
        for (std::size_t n = 1; n <= max_states; ++n) {
            std::size_t cells = n * symbols;
            std::vector<State> delta(cells, 0);
            while (true) {
                for (std::uint32_t accmask = 0; accmask < (1u << n); ++accmask) {
                    Dfa d;
                    d.alphabet = alphabet;
                    d.initial = 0;
                    d.delta = delta;
                    d.accepting.resize(n);
                    for (std::size_t q = 0; q < n; ++q) d.accepting[q] = (accmask >> q) & 1;
                    if (!is_minimal(d) || !(canonical(d) == d)) continue;
                    bool def = definite_by_pair_graph(d);
                    bool lrt = locally_r_trivial_by_pair_graph(d);
                    if (!lrt || (only_definite && !def)) continue;
                    decide_row(d, def);
                }
                std::size_t i = 0;
                while (i < cells && ++delta[i] == n) delta[i++] = 0;
                if (i == cells) break;
            }
        }
    }
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::cout << "\nSummary: " << n_def << " definite and " << n_lrt
              << " further locally R-trivial minimal DFAs with <= " << max_states << " states over " << symbols
              << " letters" << (random_rows > 0 ? " (random sample of exactly " + std::to_string(max_states) + " states, seed " + std::to_string(seed) + ")" : std::string())
              << "; k = 2.." << max_k << ": local_k yes " << yes_l << ", no " << no_l << ", unknown "
              << unknown_local << "; hybrid_k yes " << yes_h << ", no " << no_h << ", unknown " << unknown_hybrid
              << "; certificates failing re-verification: " << bad << "; " << secs << " s\n";
    return bad == 0 ? 0 : 1;
}
