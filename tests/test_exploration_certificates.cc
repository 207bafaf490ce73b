// A sink-state or closed-set "yes" without a formula (docs/WINDOWS.md §3c and §3d, "Without a
// formula"): the checker's own explorations (window_sink_check.cc) against the routes'
// (sink_state_formulas.cc, upset_formulas.cc), which also build the formula and compile it back; the
// certificates decide writes when the formula is over the cap, re-verified through their JSON; and
// forgeries refused, including claims for languages that a word family proves outside the fragment.
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

namespace {

bool chain_holds(const Dfa& d, unsigned k, const std::vector<UpsetSearchReport::Step>& chain,
                 const UpsetSearchReport::Exploration& decision) {
    auto r = check_closed_set_chain(d, k, chain, decision, 2'000'000);
    REQUIRE(r.ok());
    return !r->has_value();
}

// Every set reachable from one state (closed), without the initial state, as candidate chains.
std::vector<std::vector<char>> up_sets(const Dfa& d) {
    std::vector<std::vector<char>> out;
    for (State q = 0; q < d.num_states(); ++q) {
        std::vector<char> up(d.num_states(), 0);
        std::vector<State> stack{q};
        up[q] = 1;
        while (!stack.empty()) {
            const State v = stack.back();
            stack.pop_back();
            for (Symbol c = 0; c < d.num_symbols(); ++c)
                if (!up[d.next(v, c)]) up[d.next(v, c)] = 1, stack.push_back(d.next(v, c));
        }
        if (!up[d.initial] && std::find(out.begin(), out.end(), up) == out.end()) out.push_back(up);
    }
    return out;
}

}  // namespace

TEST_CASE("The checker's closed-set chains agree with the route, and forged chains are refused", "[windows]") {
    // Where the closed-set route (docs/WINDOWS.md §3d) records a proof and compiles its formula back
    // (no cap, no budget), the checker's own explorations hold on the recorded chain; with a set left
    // out of the chain where the decision needs it, with a set that holds the initial state or is not
    // closed, they refuse. For languages that a word family proves outside LTL[P,Y<=k], every chain of
    // up to two sets reachable from one state, at depths 1 and 2, in every form, is refused.
    std::mt19937_64 rng(23);
    std::size_t held = 0, nested = 0, refused = 0, no_languages = 0;
    for (int trial = 0; trial < 600 && (held < 20 || no_languages < 10); ++trial) {
        const std::size_t sigma = 2 + trial % 2, n = 3 + trial % 3;
        const Dfa d = random_layered_dfa(rng, sigma, n);
        if (!locally_r_trivial_by_pair_graph(d)) continue;
        const unsigned k = 2 + unsigned(trial % 4 == 3);
        INFO(to_json(d) << " k = " << k);
        const UpsetSearchReport r = search_upsets(d, k, 3, 200'000);
        if (r.holds && held < 20) {
            ++held;
            CHECK_FALSE(r.formula.is_null());  // no cap, no budget: the formula compiles back
            nested += r.decision.nested;
            CHECK(chain_holds(d, k, r.chain, r.decision));
            // the initial state added to the first set
            auto forged = r.chain;
            forged[0].set[d.initial] = 1;
            CHECK_FALSE(chain_holds(d, k, forged, r.decision));
            ++refused;
            // a set that is not closed: the first set's states without the ones some state of it reaches
            forged = r.chain;
            for (State q = 0; q < d.num_states(); ++q)
                if (forged[0].set[q])
                    for (Symbol c = 0; c < d.num_symbols(); ++c)
                        if (d.next(q, c) != q) forged[0].set[d.next(q, c)] = 0;
            if (forged[0].set != r.chain[0].set && std::count(forged[0].set.begin(), forged[0].set.end(), 1) > 0) {
                CHECK_FALSE(chain_holds(d, k, forged, r.decision));
                ++refused;
            }
        }
        if (!r.holds && no_languages < 10) {
            WindowOptions o;
            o.work_limit = 100'000;
            if (decide_hybrid_k(d, k, o).answer != Answer::No) continue;
            ++no_languages;
            const auto ups = up_sets(d);
            for (std::size_t a = 0; a < ups.size(); ++a)
                for (std::size_t b = a; b <= ups.size(); ++b)  // b == ups.size(): the chain of one set
                    for (unsigned D = 1; D <= 2; ++D)
                        for (int form = 0; form < 4; ++form) {
                            const UpsetSearchReport::Exploration first{D, (form & 1) != 0, false, {}};
                            const UpsetSearchReport::Exploration then{D, (form & 1) != 0, (form & 2) != 0, {0}};
                            std::vector<UpsetSearchReport::Step> chain{{ups[a], first}};
                            if (b < ups.size() && b != a) chain.push_back({ups[b], then});
                            CHECK_FALSE(chain_holds(d, k, chain, chain.size() > 1 ? then : first));
                            ++refused;
                        }
        }
    }
    WARN("closed-set chains: " << held << " recorded (" << nested << " with nested marks), " << refused << " forgeries refused");
    CHECK(held >= 20);
    CHECK(no_languages >= 10);
    CHECK(refused >= 100);
}

TEST_CASE("A closed-set yes over the formula cap is certified by its chain, re-verified through the JSON", "[windows]") {
    std::mt19937_64 rng(29);
    std::size_t certified = 0, forged = 0, cross_checked = 0;
    for (int trial = 0; trial < 600 && certified < 6; ++trial) {
        const std::size_t sigma = 2 + trial % 2, n = 3 + trial % 3;
        const Dfa d = random_layered_dfa(rng, sigma, n);
        if (!locally_r_trivial_by_pair_graph(d)) continue;
        const unsigned k = 2 + unsigned(trial % 4 == 3);
        INFO(to_json(d) << " k = " << k);
        if (!search_upsets(d, k, 3, 200'000).holds) continue;
        if (search_sink(d, k, 3, 200'000).holds || search_sink(d, k, 3, 200'000, true).holds) continue;  // its certificate would come first
        WindowOptions o;
        o.max_formula_size = 1;
        o.work_limit = 100'000;
        o.probe_depth = 0;
        o.transient_dag = false;  // Theorem 10.8's route answers most layered DFAs first
        const WindowDecision w = decide_hybrid_k(d, k, o);
        REQUIRE(w.answer == Answer::Yes);
        if (!w.certificate.window || w.certificate.window->types != "closed_sets") continue;  // another route's came first
        ++certified;
        const std::string json = certificate_to_json(w.certificate, d);
        CHECK(accepted(json));
        auto forge = [&](auto&& edit) {
            nlohmann::json j = nlohmann::json::parse(json);
            edit(j);
            ++forged;
            return accepted(j.dump());
        };
        CHECK_FALSE(forge([&](nlohmann::json& j) { j["class"] = "local_k:" + std::to_string(k); }));
        CHECK_FALSE(forge([&](nlohmann::json& j) { j["closed_sets"]["sets"][0]["states"].push_back(""); }));  // the initial state
        // a mark that names a later set: not a chain, an error
        {
            nlohmann::json j = nlohmann::json::parse(json);
            j["closed_sets"]["sets"][0]["marks"] = nlohmann::json::array({0});
            std::string why;
            CHECK_FALSE(check_window_certificate(j.dump(), &why).ok());
            ++forged;
        }
        // The same chain on the DFA with every acceptance but the initial state's flipped: where the
        // checker accepts it, that language is in the fragment, and the searches must not refute it.
        Dfa other = d;
        for (State q = 0; q < other.num_states(); ++q)
            if (q != other.initial) other.accepting[q] = !other.accepting[q];
        nlohmann::json j = nlohmann::json::parse(json);
        j["dfa"] = nlohmann::json::parse(to_json(other));
        if (accepted(j.dump())) {
            WindowOptions lo;
            lo.work_limit = 100'000;
            CHECK(decide_hybrid_k(minimize(other), k, lo).answer != Answer::No);
            ++cross_checked;
        }
    }
    WARN("closed-set certificates under a cap of 1: " << certified << ", forgeries " << forged << ", flipped languages accepted and cross-checked "
                                                     << cross_checked);
    CHECK(certified >= 6);
    CHECK(forged >= 18);
    CHECK(cross_checked >= 1);  // else the cross-check above never ran
}

TEST_CASE("Closed-set chains with nested marks: the windows table's 5-state 4-letter cell 52", "[windows]") {
    // The route (docs/WINDOWS.md §3d, 1,430,000 steps) proves hybrid_k:2 with two sets: U0 (after cc
    // or dc) at depth 3, then U1 (after dc) at depth 3 with U0's mark nested in the window types, and
    // the decision in that exploration; at depth 3 with the mark at the top of the keys only, U1's
    // hypothesis failed in the route, and so must it in the checker.
    Dfa d;
    d.alphabet = {"a", "b", "c", "d"};
    d.initial = 0;
    d.accepting = {0, 0, 0, 0, 1};
    const std::vector<std::vector<State>> rows = {{0, 0, 1, 2}, {0, 2, 3, 0}, {0, 0, 4, 4}, {3, 3, 4, 3}, {4, 4, 4, 4}};
    for (const auto& row : rows) d.delta.insert(d.delta.end(), row.begin(), row.end());
    d = minimize(d);
    auto set_of = [&](std::vector<std::string> words) {
        std::vector<char> s(d.num_states(), 0);
        for (const auto& w : words) s[d.run(d.initial, *parse_word(d.alphabet, w))] = 1;
        return s;
    };
    const std::vector<char> U0 = set_of({"cc", "dc"}), U1 = set_of({"dc"});
    const UpsetSearchReport::Exploration top{3, false, false, {}}, nested{3, false, true, {0}}, marked_top{3, false, false, {0}};
    CHECK(chain_holds(d, 2, {{U0, top}, {U1, nested}}, nested));
    CHECK_FALSE(chain_holds(d, 2, {{U0, top}, {U1, marked_top}}, marked_top));
    CHECK_FALSE(chain_holds(d, 2, {{U0, top}}, top));  // one set does not decide it
    CHECK_FALSE(chain_holds(d, 2, {{U1, top}}, top));  // U1 without U0's mark: not seen at depth 3
}

namespace {

// d with one more letter: a copy of letter 0's column (Proposition 10.9) or, zero, a letter that
// sends every state to a new rejecting sink (Proposition 10.10).
Dfa with_extra_letter(const Dfa& d, bool zero) {
    const std::size_t sigma = d.num_symbols(), n = d.num_states() + (zero ? 1 : 0);
    Dfa e;
    e.alphabet = d.alphabet;
    e.alphabet.push_back(zero ? "z" : "y");
    e.initial = d.initial;
    e.accepting = d.accepting;
    if (zero) e.accepting.push_back(0);
    e.delta.resize(n * (sigma + 1));
    for (State q = 0; q < n; ++q)
        for (Symbol c = 0; c <= sigma; ++c) {
            const bool sink = zero && q + 1 == n;
            e.delta[q * (sigma + 1) + c] = sink ? q
                                         : c < sigma ? d.next(q, c)
                                         : zero      ? static_cast<State>(n - 1)
                                                     : d.next(q, 0);
        }
    return minimize(e);
}

}  // namespace

TEST_CASE("Exploration certificates carry over letters that act alike and zero letters", "[windows]") {
    // decide asks the question without the extra letter (Propositions 10.9 and 10.10, docs/WINDOWS.md
    // §10); its sink or closed-set certificate, lifted, must re-verify on the DFA with the letter.
    std::mt19937_64 rng(31);
    std::map<std::string, std::size_t> lifted;  // "sink copy", "closed_sets zero", ...
    for (int trial = 0; trial < 300 && lifted.size() < 4; ++trial) {
        const std::size_t sigma = 2 + trial % 2;
        const bool layered = trial % 2 == 1;
        const Dfa d = layered ? random_layered_dfa(rng, sigma, 3 + trial % 3) : random_sink_dfa(rng, sigma, 2 + trial % 3, trial % 4 == 2);
        if (!locally_r_trivial_by_pair_graph(d)) continue;
        const unsigned k = 2;
        for (bool zero : {false, true}) {
            const Dfa e = with_extra_letter(d, zero);
            INFO(to_json(e) << " k = " << k);
            WindowOptions o;
            o.max_formula_size = 1;
            o.work_limit = 100'000;
            o.probe_depth = 0;
            o.transient_dag = false;
            const WindowDecision w = decide_hybrid_k(e, k, o);
            if (w.answer != Answer::Yes || !w.certificate.window || !w.certificate.window->types) continue;
            const std::string types = *w.certificate.window->types;
            if (types != "sink" && types != "closed_sets") continue;
            ++lifted[types + (zero ? " zero" : " copy")];
            CHECK(accepted(certificate_to_json(w.certificate, e)));
        }
    }
    for (const char* kind : {"sink copy", "sink zero", "closed_sets copy", "closed_sets zero"}) {
        INFO(kind);
        CHECK(lifted[kind] >= 1);
    }
}
