// The typed vocabulary of predictions (automata/architecture.hh, classify.hh) and the two places that
// speak it for everyone: the classification's public JSON (classification_json.hh) and the
// adversarial sets of `fails` predictions (adversarial.hh), each checked against a second route.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "automata/algebra/adversarial.hh"
#include "automata/algebra/classes.hh"
#include "automata/algebra/classification_json.hh"
#include "automata/algebra/classify.hh"
#include "automata/algorithms.hh"
#include "automata/architecture.hh"
#include "automata/random.hh"
#include "support/dfa_builders.hh"

using namespace ltlkit;
using namespace ltlkit::automata;
using namespace ltlkit::automata::algebra;

namespace {

std::vector<Dfa> random_minimal_dfas(std::uint64_t seed, std::size_t count) {
    Rng rng(seed);
    std::vector<Dfa> out;
    while (out.size() < count) {
        Dfa m = minimize(ltlkit::testing::random_shaped_dfa(rng, 2 + rng.below(5), 2));
        if (m.num_states() >= 2) out.push_back(m);
    }
    return out;
}

ClassifyOptions small_options() {
    ClassifyOptions o;
    o.max_k = 3;
    o.window_work = 200'000;
    o.window_memory_bytes = 0;
    return o;
}

}  // namespace

TEST_CASE("Architecture names parse back to the values they name, in classify's order", "[classify]") {
    std::vector<std::string> names;
    for (const auto& a : predicted_architectures(3)) names.push_back(to_string(a));
    CHECK(names == std::vector<std::string>{"global", "local-1", "local-2", "local-3", "hybrid-1", "hybrid-2", "hybrid-3"});
    for (const auto& a : predicted_architectures(5)) CHECK(*parse_architecture(to_string(a)) == a);
    for (const char* bad : {"local-0", "local-01", "local-", "hybrid", "Global", "lstm-1"}) CHECK_FALSE(parse_architecture(bad).ok());
    for (auto p : {Prediction::Recognizes, Prediction::Fails, Prediction::Unknown}) CHECK(*parse_prediction(to_string(p)) == p);
    CHECK_FALSE(parse_prediction("recognises").ok());
}

TEST_CASE("The classification JSON agrees with predict, the class table and the DFA", "[classify]") {
    for (const Dfa& d : random_minimal_dfas(31, 40)) {
        auto c = classify(d, small_options());
        REQUIRE(c.ok());
        ClassificationJsonContext ctx;
        ctx.max_k = 3;
        const auto j = classification_to_json(*c, d, ctx);
        CHECK_FALSE(j.contains("input"));
        CHECK_FALSE(j.contains("subregular"));
        std::size_t i = 0;
        for (const auto& [id, v] : j.at("classes").items()) {
            REQUIRE(i < class_table().size());
            CHECK(id == to_string(class_table()[i].id()));
            CHECK(v.is_null() == !c->classes.at(class_table()[i++].id()).has_value());
        }
        CHECK(i == class_table().size());
        CHECK(j.at("predictions").size() == 7);
        for (const auto& [name, pred] : j.at("predictions").items()) {
            const ArchPrediction p = predict(*c, *parse_architecture(name));
            CHECK(pred == to_string(p.prediction));
            // A witness pair exactly for the `fails` predictions with a family, labelled by the DFA.
            REQUIRE(j.at("witnesses").contains(name) == (p.prediction == Prediction::Fails && p.witness.has_value()));
            if (!j.at("witnesses").contains(name)) continue;
            const auto& w = j.at("witnesses").at(name);
            CHECK(d.accepts(*parse_word(d.alphabet, w.at("accepted").get<std::string>())));
            CHECK_FALSE(d.accepts(*parse_word(d.alphabet, w.at("rejected").get<std::string>())));
        }
        // Every class and window question has its certificate or its reason.
        for (const auto& [id, v] : c->classes) CHECK(j.at("certificates").contains(to_string(id)));
        for (const auto& [k, v] : c->local_k) CHECK(j.at("certificates").contains(to_string(window_class_id(false, k))));
    }
}

TEST_CASE("Each fails prediction with a family gives the adversarial set of that family, and only those", "[classify]") {
    std::size_t specs = 0;
    for (const Dfa& d : random_minimal_dfas(57, 40)) {
        auto c = classify(d, small_options());
        REQUIRE(c.ok());
        for (const auto& arch : predicted_architectures(3)) {
            const ArchPrediction p = predict(*c, arch);
            const auto spec = adversarial_spec(p, d.alphabet);
            REQUIRE(spec.has_value() == (p.prediction == Prediction::Fails && p.witness.has_value()));
            if (!spec) continue;
            ++specs;
            CHECK(spec->arch == to_string(arch));
            REQUIRE(spec->families.size() == 1);
            const AdversarialFamily& f = spec->families[0];
            CHECK(f.note == p.reason);
            CHECK(f.extra.empty() == !p.witness->extended());
            if (!p.witness->q.empty()) CHECK(f.extra.rfind("q='", 0) == 0);
            // The family's pairs separate the language, as the adversarial set needs.
            for (std::size_t r = std::max<std::size_t>(f.family.r_min, 2); r < 6; ++r) {
                const auto [u, v] = f.family.at(r);
                CHECK(d.accepts(u) != d.accepts(v));
            }
        }
    }
    CHECK(specs > 0);
}
