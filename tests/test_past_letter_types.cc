// The window types over letters annotated with the letters seen (docs/WINDOWS.md §4b,
// probe_depth_past_letters in automata/algebra/depth_probe.hh) against routes that do not use it:
// the annotated types computed on the words themselves (every word up to a length), the formula the
// probe builds against the DFA (compiled back) and the direct semantics, and the strategy's answers
// re-verified by check-certificate.
#include <map>
#include <random>
#include <set>

#include "automata/algebra/depth_probe.hh"
#include "automata/algebra/window_strategies.hh"
#include "automata/dfa_json.hh"
#include "ltl/fragment.hh"
#include "ltl/printer.hh"
#include "support/random_formula.hh"
#include "support/window_support.hh"

using namespace ltlkit;
using namespace ltlkit::automata;
using namespace ltlkit::automata::algebra;
using namespace ltlkit::testing;

namespace {

// Depth-d EOS type of w over annotated labels, computed on the word: a position's label is its
// letter with the set of letters before it (every_position) or its letter alone, the EOS's the set
// of all the word's letters; window modality only. Ids interned across words.
struct AnnotatedTypes : TypeTable {  // its interning of signatures; the types below are its own
    long eos_type(const Word& w, unsigned k, int depth, bool every_position) {
        const std::size_t n = w.size();
        std::vector<long> label(n + 1);
        long seen = 0;
        for (std::size_t i = 0; i <= n; ++i) {
            label[i] = i < n ? long(w[i]) + (every_position ? 100 * (seen + 1) : 0) : -1 - seen;
            if (i < n) seen |= long(1) << w[i];
        }
        std::vector<long> t(n + 1);
        for (std::size_t i = 0; i <= n; ++i) t[i] = intern({0, label[i]});
        for (int j = 1; j <= depth; ++j) {
            std::vector<long> u(n + 1);
            for (std::size_t i = 0; i <= n; ++i) {
                std::set<long> win;
                for (std::size_t q = (i >= k ? i - k : 0); q < i; ++q) win.insert(t[q]);
                std::vector<long> sig{j, label[i]};
                sig.insert(sig.end(), win.begin(), win.end());
                u[i] = intern(std::move(sig));
            }
            t = std::move(u);
        }
        return t[n];
    }
};

}  // namespace

TEST_CASE("Annotated window types: the probe's separations and conflicts hold on every short word", "[windows]") {
    std::mt19937_64 rng(4402);
    std::size_t separated = 0, conflicts = 0, formulas = 0;
    for (int i = 0; i < 60; ++i) {
        const std::size_t sigma = 2 + i % 2;
        Dfa d = random_dfa(rng, 2 + rng() % 4, sigma);
        const unsigned k = 2 + rng() % 2;
        for (bool every : {false, true})
            for (unsigned depth = 1; depth <= 2; ++depth) {
                DepthProbe pr = probe_depth_past_letters(d, k, depth, every, 200'000, true, 2'000);
                INFO(to_json(d) << " k = " << k << " depth " << depth << (every ? " every position" : " EOS"));
                if (pr.status == DepthProbe::Status::Limit) continue;
                AnnotatedTypes types;
                if (pr.status == DepthProbe::Status::Conflict) {
                    ++conflicts;
                    CHECK(d.accepts(pr.accepted));
                    CHECK_FALSE(d.accepts(pr.rejected));
                    CHECK(types.eos_type(pr.accepted, k, int(depth), every) == types.eos_type(pr.rejected, k, int(depth), every));
                    continue;
                }
                ++separated;
                std::map<long, bool> member;
                const std::size_t n = sigma == 2 ? 8 : 6;
                for (const Word& w : all_words(sigma, n)) {
                    const long t = types.eos_type(w, k, int(depth), every);
                    auto [it, fresh] = member.emplace(t, d.accepts(w));
                    CHECK(it->second == d.accepts(w));  // separation: equal types, equal membership
                }
                if (pr.formula.is_null()) continue;
                ++formulas;
                CHECK(formula_in_window_fragment(pr.formula, k, true));
                auto ok = window_strategies::formula_defines(pr.formula, d, nullptr);
                REQUIRE(ok.ok());
                CHECK(*ok);
            }
    }
    CHECK(separated >= 20);
    CHECK(conflicts >= 20);
    CHECK(formulas >= 10);
    WARN("annotated window types: " << separated << " separations (" << formulas << " formulas compiled back), "
                                    << conflicts << " conflicts re-verified on the words");
}

TEST_CASE("Annotated window types decide P-of-letters languages that the window types alone do not", "[windows]") {
    // "b among the last two letters, or c somewhere": not definite, so no local formula.
    Dfa d = dfa_of("Y<=2 b | P c", {"a", "b", "c"});
    CHECK(probe_depth(d, 2, false, 2, 100'000).status == DepthProbe::Status::Conflict);
    DepthProbe eos = probe_depth_past_letters(d, 2, 2, false, 100'000, true, 2'000);
    CHECK(eos.status == DepthProbe::Status::Separates);
    REQUIRE_FALSE(eos.formula.is_null());
    agrees_on_short_words(eos.formula, d, 6);
    // "no b before the last a": P under a window; the EOS annotation alone cannot see it.
    Dfa e = dfa_of("Y<=2 (a & !P b)", {"a", "b"});
    WindowDecision w = decide_hybrid_k(e, 2);
    CHECK(w.answer == Answer::Yes);
    CHECK(reverifies(w.certificate, e));
}

TEST_CASE("The annotated-letter strategy's separations re-verify, and the decision never says no to them", "[windows]") {
    // The strategy (past_letter_types in window_decide.cc) answers yes when the annotated probe
    // separates: EOS annotation first, then every position, depths 1..3. The decision runs the
    // other searches first, so it rarely reaches the strategy itself; here each separation is
    // certified as the strategy certifies it (depth_types, "eos_letters" / "past_letters"), that
    // certificate re-checked by check-certificate, and decide_hybrid_k asked the same question:
    // it must not answer no where a formula of LTL[P,Y<=k] exists.
    std::mt19937_64 rng(4403);
    std::size_t separations = 0, by_every = 0, decided_yes = 0;
    for (int i = 0; i < 80; ++i) {
        ltl::Formula f = random_formula(rng, ltl::FragmentKind::PYLeqK, {"a", "b", "c"}, 3, 2);
        Dfa d = dfa_of(f, {"a", "b", "c"});
        if (d.num_states() > 10 || !locally_r_trivial_by_pair_graph(d)) continue;
        for (unsigned k = 2; k <= 3; ++k) {
            std::optional<std::pair<unsigned, bool>> found;  // depth, every position
            for (unsigned depth = 1; depth <= 3 && !found; ++depth)
                for (bool every : {false, true}) {
                    DepthProbe pr = probe_depth_past_letters(d, k, depth, every, 200'000, false, 0);
                    if (pr.status == DepthProbe::Status::Separates) {
                        found = {depth, every};
                        break;
                    }
                    if (pr.status != DepthProbe::Status::Conflict) break;
                }
            if (!found) continue;
            ++separations;
            by_every += found->second;
            INFO(ltl::to_string(f) << " k = " << k << " depth " << found->first << (found->second ? " every" : " EOS"));
            Certificate c = window_certificate(*parse_class_id("hybrid_k:" + std::to_string(k)), true,
                                               CertificateKind::DepthTypes);
            c.formula_omitted = "not built";
            c.window = WindowFields{.k = k, .depth = found->first,
                                    .types = std::string(found->second ? "past_letters" : "eos_letters")};
            CHECK(reverifies(c, d));
            const WindowDecision w = decide_hybrid_k(d, k);
            CHECK(w.answer != Answer::No);
            decided_yes += w.answer == Answer::Yes;
        }
    }
    CHECK(separations >= 40);
    CHECK(by_every >= 1);
    CHECK(decided_yes * 10 >= separations * 9);
    WARN("annotated-letter separations: " << separations << " (" << by_every << " needing every position), "
                                          << decided_yes << " of them decided yes by decide_hybrid_k");
}

TEST_CASE("check-certificate re-runs the annotated exploration and refuses it where it does not hold", "[windows]") {
    // b at distance 2 to 4 from EOS, or c somewhere: depth 2, since depth 1 sees only the last two letters.
    Dfa d = dfa_of("Y<=2 Y<=2 b | P c", {"a", "b", "c"});
    auto cert = [&](const char* cls, const char* types, std::size_t depth) {
        Certificate c = window_certificate(*parse_class_id(cls), true, CertificateKind::DepthTypes);
        c.formula_omitted = "not built";
        c.window = WindowFields{.k = 2, .depth = depth, .types = std::string(types)};
        return c;
    };
    CHECK(reverifies(cert("hybrid_k:2", "eos_letters", 2), d));
    CHECK(reverifies(cert("hybrid_k:2", "past_letters", 2), d));
    CHECK_FALSE(reverifies(cert("hybrid_k:2", "eos_letters", 1), d));  // depth 1: a conflict
    CHECK_FALSE(reverifies(cert("local_k:2", "eos_letters", 2), d));   // no past in LTL[Y<=2]
    // The plain window types (no annotation) never see a c far back.
    CHECK_FALSE(reverifies(cert("hybrid_k:2", "window", 2), d));
}
