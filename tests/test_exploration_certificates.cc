// A sink-state "yes" without a formula (docs/WINDOWS.md §3c, "Without a formula"): the checker's own
// exploration (window_sink_check.cc) against the route's (sink_state_formulas.cc), which also
// builds the formula and compiles it back; and the certificate decide writes when the formula is over
// the cap, re-verified, with forgeries refused, including sink-state claims for languages that a
// word family proves outside the fragment.
#include <catch2/catch.hpp>

#include <random>

#include <nlohmann/json.hpp>

#include "automata/algebra/windows.hh"
#include "automata/algorithms.hh"
#include "automata/dfa_json.hh"
#include "support/window_support.hh"

using namespace ltlkit;
using namespace ltlkit::testing;

namespace {

// A random minimal DFA with n states besides a sink (accepting or not); mixed: the other states
// take random acceptances, else the sink's opposite.
Dfa random_sink_dfa(std::mt19937_64& rng, std::size_t sigma, std::size_t n, bool mixed) {
    Dfa d;
    for (std::size_t i = 0; i < sigma; ++i) d.alphabet.push_back(std::string(1, char('a' + i)));
    d.initial = 0;
    const bool sink_acc = rng() % 2;
    d.accepting.assign(n + 1, !sink_acc);
    d.accepting[n] = sink_acc;
    if (mixed)
        for (std::size_t q = 0; q < n; ++q) d.accepting[q] = rng() % 2;
    d.delta.resize((n + 1) * sigma);
    for (std::size_t q = 0; q <= n; ++q)
        for (std::size_t c = 0; c < sigma; ++c) d.delta[q * sigma + c] = static_cast<State>(q == n ? n : rng() % (n + 1));
    return minimize(d);
}

// The checker's verdict on a sink-state claim: true when its exploration finds the hypothesis.
bool checker_holds(const Dfa& d, unsigned k, unsigned D, bool letters, bool mixed, const Word& x) {
    auto r = check_sink_exploration(d, k, D, letters, mixed, x, 2'000'000);
    REQUIRE(r.ok());
    return !r->has_value();
}

bool is_sink(const Dfa& d, State q) {
    for (Symbol c = 0; c < d.num_symbols(); ++c)
        if (d.next(q, c) != q) return false;
    return true;
}

// A shortest word into the first sink besides the initial state, if any.
std::optional<Word> word_into_sink(const Dfa& d) {
    for (const Word& w : all_words(d.num_symbols(), 6)) {  // shortest first
        const State q = d.run(d.initial, w);
        if (q != d.initial && is_sink(d, q)) return w;
    }
    return std::nullopt;
}

bool accepted(const std::string& json) {
    std::string why;
    auto ok = check_window_certificate(json, &why);
    REQUIRE(ok.ok());
    return *ok;
}

}  // namespace

TEST_CASE("The checker's sink-state exploration agrees with the route at every depth it tried", "[windows]") {
    // Where the route holds at depth D (and compiles its formula back, with no cap and no budget),
    // the checker holds at D with the same form; at every smaller depth the route tried the same form
    // and failed, and so must the checker. Where the route failed at every depth, the checker fails too.
    std::mt19937_64 rng(11);
    std::size_t held = 0, refused = 0, mixed_held = 0, letters_held = 0;
    for (int trial = 0; trial < 700 && (held < 30 || mixed_held < 5 || letters_held < 3); ++trial) {
        const std::size_t sigma = 2 + trial % 2, n = 2 + trial % 3;
        const bool extended = trial % 4 >= 2;
        const Dfa d = random_sink_dfa(rng, sigma, n, trial % 4 == 3);
        if (!locally_r_trivial_by_pair_graph(d)) continue;
        for (unsigned k = 2; k <= 3; ++k) {
            const SinkSearchReport r = search_sink(d, k, 3, 300'000, extended);
            INFO(to_json(d) << " k = " << k << (extended ? " extended" : ""));
            if (!r.applicable) continue;
            if (r.holds) {
                ++held;
                mixed_held += r.mixed;
                letters_held += r.past_letters;
                CHECK_FALSE(r.formula.is_null());  // no cap, no budget: the formula compiles back
                CHECK(is_sink(d, d.run(d.initial, r.sink_word)));
                CHECK(checker_holds(d, k, r.depth, r.past_letters, r.mixed, r.sink_word));
                for (unsigned D = 1; D < r.depth; ++D) {
                    CHECK_FALSE(checker_holds(d, k, D, r.past_letters, r.mixed, r.sink_word));
                    ++refused;
                }
            } else if (r.conflict) {
                auto x = word_into_sink(d);
                REQUIRE(x);
                for (unsigned D = 1; D <= 3; ++D) {
                    CHECK_FALSE(checker_holds(d, k, D, extended, true, *x));
                    CHECK_FALSE(checker_holds(d, k, D, false, true, *x));
                    refused += 2;
                }
            }
        }
    }
    CHECK(held >= 30);
    CHECK(mixed_held >= 5);
    CHECK(letters_held >= 3);
    CHECK(refused >= 30);
}

TEST_CASE("A sink-state yes over the formula cap is certified by its exploration, and forged ones are refused", "[windows]") {
    std::mt19937_64 rng(5);
    std::size_t certified = 0, forged = 0, no_languages = 0;
    for (int trial = 0; trial < 400 && (certified < 12 || no_languages < 12); ++trial) {
        const std::size_t sigma = 2 + trial % 2, n = 2 + trial % 3;
        const bool mixed = trial % 3 == 2;
        const Dfa d = random_sink_dfa(rng, sigma, n, mixed);
        if (!locally_r_trivial_by_pair_graph(d)) continue;
        const unsigned k = 2 + trial % 2;
        INFO(to_json(d) << " k = " << k);
        const SinkSearchReport r = search_sink(d, k, 3, 300'000, true);
        if (r.holds && certified < 12) {
            // A cap of 1: every formula is over it, so the route's answer is its exploration.
            WindowOptions o;
            o.max_formula_size = 1;
            o.work_limit = 100'000;
            o.probe_depth = 0;  // the probe's own depth_types answer would come first
            const WindowDecision w = decide_hybrid_k(d, k, o);
            REQUIRE(w.answer == Answer::Yes);
            const Certificate& c = w.certificate;
            if (!c.window || c.window->types != "sink") continue;  // another route's certificate came first
            ++certified;
            CHECK_FALSE(c.formula);
            const std::string json = certificate_to_json(c, d);
            CHECK(accepted(json));
            auto forge = [&](auto&& edit) {
                nlohmann::json j = nlohmann::json::parse(json);
                edit(j);
                ++forged;
                return accepted(j.dump());
            };
            CHECK_FALSE(forge([&](nlohmann::json& j) { j["class"] = "local_k:" + std::to_string(k); }));
            CHECK_FALSE(forge([&](nlohmann::json& j) { j["x"] = ""; }));  // the initial state, not a sink
            if (r.depth > 1) CHECK_FALSE(forge([&](nlohmann::json& j) { j["depth"] = r.depth - 1; }));
            // not mixed: a state besides the sink shares the sink's acceptance
            if (r.mixed) CHECK_FALSE(forge([&](nlohmann::json& j) { j["mixed"] = false; }));
        }
        if (!r.holds && no_languages < 12) {
            // Outside the fragment (a family proves it): no sink-state claim may pass, whatever its
            // depth and form.
            WindowOptions o;
            o.work_limit = 100'000;
            const WindowDecision w = decide_hybrid_k(d, k, o);
            if (w.answer != Answer::No) continue;
            auto x = word_into_sink(d);
            if (!x) continue;
            ++no_languages;
            Certificate c;
            c.class_id = window_class_id(true, k);
            c.member = true;
            c.kind = CertificateKind::DepthTypes;
            c.fact = "forged";
            for (unsigned D = 1; D <= 3; ++D)
                for (int form = 0; form < 4; ++form) {
                    c.window = WindowFields{.k = k, .route = "sink", .past_letters = (form & 1) != 0, .mixed = (form & 2) != 0,
                                            .depth = D, .types = "sink", .x = *x};
                    ++forged;
                    CHECK_FALSE(accepted(certificate_to_json(c, d)));
                }
        }
    }
    CHECK(certified >= 12);
    CHECK(no_languages >= 12);
    CHECK(forged >= 150);
}
