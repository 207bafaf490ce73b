// Evaluation as docs/PROTOCOL.md "Evaluation" asks for it, torch-free: per-label counts and the
// label-balanced accuracy against an independent count, LC25's test words against brute force,
// the fit sample spread over every training length, and result.json with and without the
// per-label fields.
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>
#include <random>
#include <set>

#include <nlohmann/json.hpp>

#include "automata/algebra/classify.hh"
#include "automata/dataset.hh"
#include "automata/dfa_json.hh"
#include "base/file.hh"
#include "base/checksum.hh"
#include "automata/language.hh"
#include "automata/sampler.hh"
#include "neural/internal.hh"
#include "neural/run.hh"
#include "neural/verify/ceilings.hh"

using namespace ltlkit;
using namespace ltlkit::neural;

namespace {

automata::Dfa regex_dfa(const std::string& regex, const std::string& alphabet) {
    automata::LanguageSpec spec;
    spec.kind = automata::InputKind::Regex;
    spec.text = regex;
    spec.alphabet = *automata::parse_alphabet(alphabet);
    auto lang = automata::load_language(spec);
    REQUIRE(lang.ok());
    return lang->dfa;
}

// Every word of length n over k symbols.
std::vector<automata::Word> all_words(std::size_t n, std::size_t k) {
    std::vector<automata::Word> out{{}};
    for (std::size_t i = 0; i < n; ++i) {
        std::vector<automata::Word> next;
        for (const auto& w : out)
            for (std::size_t a = 0; a < k; ++a) {
                next.push_back(w);
                next.back().push_back(static_cast<automata::Symbol>(a));
            }
        out = std::move(next);
    }
    return out;
}

// Occurrences of the factor f in w (overlapping), by direct comparison.
int occurrences(const automata::Word& w, const automata::Word& f) {
    int k = 0;
    for (std::size_t i = 0; i + f.size() <= w.size(); ++i)
        k += std::equal(f.begin(), f.end(), w.begin() + static_cast<long>(i));
    return k;
}

// Accept iff the word has even length: right on (ab)* at odd lengths and on its one accepted word
// per even length, wrong on every rejected word of even length.
const Predictor kEvenLength = [](const std::vector<const automata::Word*>& ws) {
    std::vector<float> out;
    for (const auto* w : ws) out.push_back(w->size() % 2 == 0 ? 1.0f : -1.0f);
    return out;
};

}  // namespace

TEST_CASE("per-label accuracy and the label-balanced accuracy match an independent count", "[neural][eval]") {
    const auto dfa = regex_dfa("(ab)*", "a,b");
    auto sampler = automata::Sampler::create(dfa, 12);
    REQUIRE(sampler.ok());
    auto dist = TrainingDistribution::from_sampler(*sampler, 1, 4);
    REQUIRE(dist.ok());
    // Every word of lengths 5..8 as the test set.
    EvalSets sets;
    for (std::size_t n = 5; n <= 8; ++n)
        for (auto& w : all_words(n, 2)) sets.test.push_back({w, dfa.accepts(w), -1});
    RunResult r;
    r.config.evaluation.test_min = 5;
    r.config.evaluation.test_max = 8;
    r.config.evaluation.per_length = 8;
    r.config.evaluation.fit_words = 40;
    REQUIRE(evaluate_model(r, kEvenLength, &*sampler, *dist, sets).ok());
    // The independent count: one pass over the words with the DFA and the rule.
    std::map<int, LabelCounts> expect;
    for (const auto& w : sets.test) {
        const bool says = w.word.size() % 2 == 0;
        LabelCounts& c = expect[static_cast<int>(w.word.size())];
        (w.label ? c.accepted : c.rejected) += 1;
        (w.label ? c.accepted_right : c.rejected_right) += says == w.label;
    }
    CHECK(r.per_length_labels == expect);
    // By hand: at n = 6, 1 accepted word (right) and 63 rejected (all wrong); at n = 5, 32 rejected, all right.
    CHECK(r.per_length_labels.at(6) == LabelCounts{1, 1, 0, 63});
    CHECK(r.per_length_labels.at(5) == LabelCounts{0, 0, 32, 32});
    CHECK(r.per_length_accuracy.at(6) == Approx(1.0 / 64));
    const LabelSummary s = summarize_labels(r.per_length_labels, 4);
    CHECK(s.lengths == 4);
    CHECK(s.lengths_both == 2);
    CHECK(s.lengths_only_rejected == 2);
    CHECK(s.lengths_only_accepted == 0);
    CHECK(s.lengths_scarce_accepted == 2);  // 1 accepted word < half of the quota 4
    CHECK(*s.accepted_accuracy == 1.0);
    CHECK(*s.rejected_accuracy == Approx((32.0 + 128.0) / (32 + 63 + 128 + 255)));
    CHECK(*s.balanced_accuracy == Approx(0.5));  // (1 + 0) / 2 at both even lengths
    CHECK(r.mean_accuracy == Approx((1.0 + 1.0 / 64 + 1.0 + 1.0 / 256) / 4));
}

TEST_CASE("the sampled test counts each label, and a length with one label is named", "[neural][eval]") {
    const auto dfa = regex_dfa("(ab)*", "a,b");
    auto sampler = automata::Sampler::create(dfa, 20);
    REQUIRE(sampler.ok());
    auto dist = TrainingDistribution::from_sampler(*sampler, 1, 6);
    REQUIRE(dist.ok());
    RunResult r;
    r.config.evaluation.test_min = 9;
    r.config.evaluation.test_max = 14;
    r.config.evaluation.per_length = 8;
    r.config.evaluation.fit_words = 40;
    REQUIRE(evaluate_model(r, kEvenLength, &*sampler, *dist, {}).ok());
    for (int n = 9; n <= 14; ++n) {
        const LabelCounts& c = r.per_length_labels.at(n);
        CHECK(c.accepted == (n % 2 == 0 ? 1 : 0));  // the one accepted word, enumerated
        CHECK(c.rejected == (n % 2 == 0 ? 4 : 8));
        CHECK(c.accepted_right == c.accepted);
        CHECK(c.rejected_right == (n % 2 == 0 ? 0 : 8));
    }
    const LabelSummary s = summarize_labels(r.per_length_labels, 4);
    CHECK(s.lengths_only_rejected == 3);
    CHECK(s.lengths_scarce_accepted == 3);
    CHECK(*s.balanced_accuracy == Approx(0.5));
}

TEST_CASE("the fit sample covers every training length evenly, half of each label", "[neural][eval]") {
    const auto dfa = regex_dfa(".*a", "a,b");
    auto sampler = automata::Sampler::create(dfa, 12);
    REQUIRE(sampler.ok());
    auto dist = TrainingDistribution::from_sampler(*sampler, 1, 10);
    REQUIRE(dist.ok());
    automata::Rng rng(3);
    std::vector<automata::Word> words;
    std::vector<std::uint8_t> labels;
    dist->draw_spread(4001, rng, words, labels);
    REQUIRE(words.size() == 4001);
    std::map<std::size_t, std::array<int, 2>> per;
    for (std::size_t i = 0; i < words.size(); ++i) {
        CHECK(dfa.accepts(words[i]) == (labels[i] != 0));
        ++per[words[i].size()][labels[i]];
    }
    REQUIRE(per.size() == 10);
    for (const auto& [n, c] : per) {
        CHECK(c[0] + c[1] >= 400);
        CHECK(c[0] + c[1] <= 401);
        CHECK(std::abs(c[0] - c[1]) <= 1);
    }
}

TEST_CASE("LC25's test words: near misses, one occurrence for Σ*fΣ*, no length without accepted words",
          "[neural][eval][lc25]") {
    SECTION("LT-2 = Σ*abΣ* over {a,b,c}: accepted words contain ab exactly once") {
        const auto dfa = regex_dfa(".*ab.*", "a,b,c");
        auto s = automata::Lc25TestSampler::create(dfa, 30);
        REQUIRE(s.ok());
        REQUIRE(s->factor());
        CHECK(*s->factor() == automata::Word{0, 1});
        automata::Rng rng(5);
        for (std::size_t n : {2u, 7u, 30u}) {
            const auto ex = s->sample(n, 20, rng);
            REQUIRE(ex.size() == 20);
            for (const auto& e : ex) {
                REQUIRE(e.word.size() == n);
                CHECK(dfa.accepts(e.word) == e.label);
                if (e.label) {
                    CHECK(occurrences(e.word, {0, 1}) == 1);
                } else {
                    // One substitution away from an accepted word with exactly one ab.
                    bool near = false;
                    for (std::size_t i = 0; i < n && !near; ++i)
                        for (automata::Symbol b = 0; b < 3 && !near; ++b) {
                            auto w = e.word;
                            w[i] = b;
                            near = occurrences(w, {0, 1}) == 1;
                        }
                    CHECK(near);
                }
            }
        }
    }
    SECTION("LT-1 = Σ*aΣ*: the factor is a; (ab)* and Σ*a are not of that form") {
        auto lt1 = automata::Lc25TestSampler::create(regex_dfa(".*a.*", "a,b"), 10);
        REQUIRE(lt1.ok());
        REQUIRE(lt1->factor());
        CHECK(*lt1->factor() == automata::Word{0});
        CHECK_FALSE(automata::Lc25TestSampler::create(regex_dfa("(ab)*", "a,b"), 10)->factor());
        CHECK_FALSE(automata::Lc25TestSampler::create(regex_dfa(".*a", "a,b"), 10)->factor());
    }
    SECTION("Dyck: odd lengths untested; every rejected word differs from an accepted one in one symbol") {
        const auto dfa = regex_dfa("(a(ab)*b)*", "a,b");
        auto s = automata::Lc25TestSampler::create(dfa, 16);
        REQUIRE(s.ok());
        CHECK_FALSE(s->factor());
        automata::Rng rng(7);
        CHECK(s->sample(9, 10, rng).empty());
        // Brute force: the accepted words of length 10, and their one-substitution neighbours outside L.
        std::set<automata::Word> accepted, near_misses;
        for (auto& w : all_words(10, 2))
            if (dfa.accepts(w)) accepted.insert(w);
        for (const auto& w : accepted)
            for (std::size_t i = 0; i < w.size(); ++i) {
                auto v = w;
                v[i] = 1 - v[i];
                if (!dfa.accepts(v)) near_misses.insert(v);
            }
        const auto ex = s->sample(10, 40, rng);
        REQUIRE(ex.size() == 40);
        for (const auto& e : ex) CHECK((e.label ? accepted.count(e.word) : near_misses.count(e.word)) == 1);
    }
}

TEST_CASE("result.json keeps the per-label counts and the pair counts, and older files load without them",
          "[neural][eval]") {
    RunResult r;
    r.per_length_accuracy = {{41, 0.5}, {42, 1.0}};
    r.per_length_labels = {{41, {1, 2, 1, 2}}, {42, {0, 0, 3, 3}}};
    r.adversarial_accuracy = 0.5;
    r.adversarial_pairs = 2;
    r.adversarial_same_answer = 2;
    r.identity = run_identity(regex_dfa(".*a", "a,b"), r.config, {});
    summarize_lengths(r);
    const std::string text = result_to_json(r);
    auto back = result_from_json(text);
    REQUIRE(back.ok());
    CHECK(back->per_length_labels == r.per_length_labels);
    CHECK(back->adversarial_pairs == 2);
    CHECK(back->adversarial_same_answer == 2);
    auto j = nlohmann::json::parse(text);
    CHECK(j.at("balanced_accuracy").get<double>() == Approx(0.5));  // only length 41 has both labels
    CHECK(j.at("label_lengths").at("only_rejected").get<int>() == 1);
    // An older result.json: no per-label fields, no pair counts.
    for (const char* key : {"per_length_labels", "accepted_accuracy", "rejected_accuracy", "balanced_accuracy",
                            "label_lengths", "adversarial_pairs", "adversarial_same_answer"})
        j.erase(key);
    auto old = result_from_json(json_with_checksum(j.dump(), 2));
    REQUIRE(old.ok());
    CHECK(old->per_length_labels.empty());
    CHECK_FALSE(old->adversarial_pairs);
    // More right answers than words is refused.
    auto bad = nlohmann::json::parse(text);
    bad["per_length_labels"]["41"]["accepted"] = {3, 2};
    CHECK_FALSE(result_from_json(json_with_checksum(bad.dump(), 2)).ok());
}

TEST_CASE("adversarial pairs: both words, labels and logits per pair, and the pairs answered alike",
          "[neural][eval]") {
    const std::vector<LabelledWord> set = {
        {{0, 1}, true, 0}, {{0, 1, 0}, false, 0}, {{1}, false, 1}, {{1, 1}, true, 1}};
    RunResult r;
    evaluate_pairs(r, set, kEvenLength);
    CHECK(*r.adversarial_accuracy == 1.0);
    CHECK(*r.adversarial_pairs == 2);
    CHECK(*r.adversarial_same_answer == 0);
    const Predictor constant = [](const std::vector<const automata::Word*>& ws) {
        return std::vector<float>(ws.size(), 1.0f);
    };
    evaluate_pairs(r, set, constant);
    CHECK(*r.adversarial_accuracy == 0.5);
    CHECK(*r.adversarial_same_answer == 2);  // a constant answer shows as every pair
    REQUIRE(r.adversarial_outputs.size() == 2);
    CHECK(r.adversarial_outputs[1].words[1] == automata::Word{1, 1});
    const std::string tsv = pairs_tsv(r, {"a", "b"});
    CHECK(tsv.find("kind\tpair\tlength1\tword1\tlabel1\tlogit1\tlength2\tword2\tlabel2\tlogit2\tcorrect\n") == 0);
    CHECK(tsv.find("adversarial\t0\t2\tab\t1\t1\t3\taba\t0\t1\t0\n") != std::string::npos);
}

TEST_CASE("adversarial sets are marked forced or informative from the certificate's real pairs",
          "[neural][eval][ceiling]") {
    // Σ*a: local-2 is predicted to fail with the witness (ab)^r vs (ab)^r·a; local-1 recognizes it.
    const auto dfa = regex_dfa(".*a", "a,b");
    auto cls = automata::algebra::classify(dfa, {});
    REQUIRE(cls.ok());
    const auto pred = automata::algebra::predict(*cls, *parse_architecture("local-2"));
    REQUIRE(pred.witness);
    std::vector<LabelledWord> set;
    for (std::size_t r = 20; r < 30; ++r) {
        const auto [u, v] = pred.witness->at(r);
        REQUIRE(dfa.accepts(u) != dfa.accepts(v));
        set.push_back({u, dfa.accepts(u), static_cast<long>(r)});
        set.push_back({v, dfa.accepts(v), static_cast<long>(r)});
    }
    ModelConfig two_layers;
    two_layers.layers = 2;
    auto local2 = verify::mark_adversarial(dfa, *parse_architecture("local-2"), two_layers, set);
    CHECK(local2.pairs == 10);
    CHECK(local2.forced == 10);
    CHECK(local2.kind == "forced");
    // local-1 tells the last two symbols (ab vs ba) apart: none forced; global, hybrid, LSTM: informative.
    CHECK(verify::mark_adversarial(dfa, *parse_architecture("local-1"), two_layers, set).kind == "informative");
    for (const char* arch : {"global", "hybrid-2", "lstm"}) {
        const auto m = verify::mark_adversarial(dfa, *parse_architecture(arch), two_layers, set);
        CHECK(m.kind == "informative");
        CHECK(m.forced == 0);
    }
    // One pair that local-2 tells apart (b·a vs a·b·b: different last symbols) makes the set mixed.
    set.push_back({{1, 0}, true, 99});
    set.push_back({{0, 1, 1}, false, 99});
    const auto mixed = verify::mark_adversarial(dfa, *parse_architecture("local-2"), two_layers, set);
    CHECK(mixed.kind == "mixed");
    CHECK(mixed.forced == 10);
    CHECK(mixed.pairs == 11);
}

TEST_CASE("the report's ceiling cache answers a reopened file without computing, with the same numbers",
          "[neural][ceiling]") {
    const auto dfa = regex_dfa(".*ab", "a,b");
    const auto dir = std::filesystem::temp_directory_path() /
                     ("ltlkit-test-ceiling-cache-" + std::to_string(std::random_device{}()));
    std::filesystem::create_directories(dir);
    const std::string path = (dir / "ceilings.json").string();
    automata::CeilingQuery q;
    q.arch = "local-2";
    q.layers = 2;
    q.lengths = {1, 12};
    automata::CeilingQuery deeper = q, starved = q, global = q;
    deeper.layers = 3;
    starved.max_states = 1;  // over budget at once: bounds and a reason
    global.arch = "global";  // no ceiling: an error, cached as one

    const auto direct = automata::receptive_field_ceiling(dfa, q);
    REQUIRE(direct.ok());
    REQUIRE(direct->exact);
    verify::CeilingCache first(path);
    const auto r1 = first.ceiling(dfa, q);
    const auto s1 = first.ceiling(dfa, starved);
    const auto g1 = first.ceiling(dfa, global);
    REQUIRE(r1.ok());
    REQUIRE(s1.ok());
    REQUIRE(!s1->exact);
    REQUIRE(!g1.ok());
    CHECK(first.computed() == 3);
    CHECK(r1->value == direct->value);
    REQUIRE(first.save().ok());

    verify::CeilingCache again(path);
    const auto r2 = again.ceiling(dfa, q);
    const auto s2 = again.ceiling(dfa, starved);
    const auto g2 = again.ceiling(dfa, global);
    CHECK(again.hits() == 3);
    CHECK(again.computed() == 0);
    REQUIRE(r2.ok());
    CHECK(r2->exact);
    CHECK(r2->value == r1->value);  // bit for bit: the file keeps every digit
    REQUIRE(s2.ok());
    CHECK(!s2->exact);
    CHECK(s2->upper == s1->upper);
    CHECK(s2->lower == s1->lower);
    CHECK(s2->reason == s1->reason);
    REQUIRE(!g2.ok());
    CHECK(g2.error().message == g1.error().message);
    CHECK(*again.save() == false);  // nothing new: not rewritten
    // The same DFA read from text spelled otherwise (verify's plan in memory against the
    // plan.json that report reads) is the same key.
    const auto reread = automata::dfa_from_json(nlohmann::json::parse(automata::to_json(dfa)).dump(4));
    REQUIRE(reread.ok());
    CHECK(again.ceiling(*reread, q).ok());
    CHECK(again.hits() == 4);
    CHECK(again.computed() == 0);
    CHECK(again.ceiling(dfa, deeper).ok());  // another depth is another key
    CHECK(again.computed() == 1);

    // Another language with the same query is another key too.
    const auto other = regex_dfa(".*a", "a,b");
    CHECK(again.ceiling(other, q).ok());
    CHECK(again.computed() == 2);

    // A damaged file is not used: everything is computed again.
    std::string text = *read_file(path);
    text[text.size() / 2] = text[text.size() / 2] == '1' ? '2' : '1';
    REQUIRE(write_file_atomic(path, text).ok());
    verify::CeilingCache damaged(path);
    const auto r3 = damaged.ceiling(dfa, q);
    CHECK(damaged.computed() == 1);
    CHECK(damaged.hits() == 0);
    REQUIRE(r3.ok());
    CHECK(r3->value == direct->value);
    std::filesystem::remove_all(dir);
}
