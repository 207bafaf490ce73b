// The probe past the test lengths (neural/verify/probe.hh, docs/PROTOCOL.md "Verdict" rule 5): its
// r values against a scan of every r, probe.json's reading, and the stage on a trained run against
// the DFA's labels and `score`'s logits, through the report's verdict.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <random>

#include "automata/algebra/classify.hh"
#include "base/checksum.hh"
#include "base/file.hh"
#include "neural/score.hh"
#include "neural/verify/probe.hh"
#include "neural/verify/report.hh"
#include "neural/verify/stages.hh"
#include "neural/verify/verdict.hh"
#include "neural/verify/verify.hh"

using namespace ltlkit;
using namespace ltlkit::neural;
using namespace ltlkit::neural::verify;
namespace fs = std::filesystem;

namespace {

automata::Word word_of(const std::string& s) {
    automata::Word w;
    for (char c : s) w.push_back(c == 'a' ? 0u : c == 'b' ? 1u : 2u);
    return w;
}

// The r values a scan of every r from r_min gives: the first whose two words are both longer than
// `above`, the last whose longer word is within `cap` (none past a bound on r).
std::pair<std::size_t, std::size_t> scan(const automata::WordFamily& f, std::size_t above, std::size_t cap) {
    std::size_t lo = 0, hi = 0;
    for (std::size_t r = std::max<std::size_t>(f.r_min, 1); r <= cap + 1; ++r) {
        const auto [u, v] = f.at(r);
        if (std::max(u.size(), v.size()) > cap) break;
        if (std::min(u.size(), v.size()) > above) {
            if (lo == 0) lo = r;
            hi = r;
        }
    }
    return {lo, hi};
}

}  // namespace

TEST_CASE("probe r values: past the test lengths, within the cap, first and last as a scan of every r finds them",
          "[probe]") {
    std::mt19937 rng(11);
    auto random_word = [&](std::size_t max_len) {
        std::string s;
        const std::size_t n = rng() % (max_len + 1);
        for (std::size_t i = 0; i < n; ++i) s += "ab"[rng() % 2];
        return word_of(s);
    };
    int checked = 0, empty = 0;
    for (int trial = 0; trial < 300; ++trial) {
        automata::WordFamily f;
        f.x = random_word(4);
        f.p = random_word(3);
        if (f.p.empty()) f.p = word_of("a");
        f.y = random_word(3);
        f.z = random_word(3);
        f.r_min = 1 + rng() % 3;
        switch (trial % 4) {  // plain, a loop e (quadratic lengths), an alternating q, a second prefix
            case 1:
                f.e = word_of(trial % 8 == 1 ? "ab" : "c");
                f.p.push_back(automata::WordFamily::kLoopMarker);
                f.y.insert(f.y.begin(), automata::WordFamily::kLoopMarker);
                break;
            case 2: f.q = word_of("b"); break;
            case 3: f.x2 = random_word(3); break;
            default: break;
        }
        const std::size_t above = 5 + rng() % 60, cap = above + rng() % 400;
        const auto rs = probe_rs(f, above, cap);
        const auto [lo, hi] = scan(f, above, cap);
        if (lo == 0) {
            CHECK(rs.empty());
            ++empty;
            continue;
        }
        REQUIRE_FALSE(rs.empty());
        CHECK(rs.front() == lo);
        CHECK(rs.back() == hi);
        CHECK(rs.size() <= kProbePairs);
        for (std::size_t i = 0; i < rs.size(); ++i) {
            if (i > 0) CHECK(rs[i] > rs[i - 1]);
            const auto [u, v] = f.at(rs[i]);
            CHECK(std::min(u.size(), v.size()) > above);
            CHECK(std::max(u.size(), v.size()) <= cap);
        }
        if (hi - lo + 1 >= kProbePairs) CHECK(rs.size() >= kProbePairs / 2);  // spread, not bunched
        ++checked;
    }
    CHECK(checked > 150);
    CHECK(empty > 0);
    CHECK(probe_cap(200) == 4000);
    CHECK(probe_cap(60) == 1200);
    CHECK(probe_cap(500) == kProbeMaxLength);
}

TEST_CASE("probe.json round-trips, and a damaged or inconsistent one is refused in one line", "[probe]") {
    const std::vector<std::string> ab = {"a", "b"};
    Probe p;
    p.arch = "hybrid-2";
    p.family = "x=a p=aab y=ε z=a";
    p.test_max = 200;
    p.cap = 4000;
    for (std::size_t r : {70, 80, 90}) {
        ProbePair q;
        q.r = r;
        q.words[0] = word_of("a" + std::string(r, 'b'));
        q.words[1] = word_of("a" + std::string(r, 'b') + "a");
        q.labels[0] = true;
        q.labels[1] = false;
        q.logits[0] = r < 85 ? 1.5f : -0.25f;
        q.logits[1] = -2.0f;
        p.pairs.push_back(q);
    }
    const std::string text = probe_to_json(p, ab);
    auto back = probe_from_json(text, ab);
    REQUIRE(back.ok());
    CHECK(probe_to_json(*back, ab) == text);
    const ProbeOutcome o = back->outcome();
    CHECK(o.pairs == 3);
    CHECK(o.min_length == 71);
    CHECK(o.max_length == 92);
    REQUIRE(o.first_wrong_r);
    CHECK(*o.first_wrong_r == 90);
    CHECK(*o.first_wrong_length == 92);
    // A flipped logit breaks the checksum.
    std::string edited = text;
    edited.replace(edited.find("-0.25"), 5, "+0.25");
    auto bad = probe_from_json(edited, ab);
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.error().message.find("checksum") != std::string::npos);
    // A "right" that its logits contradict is refused even under a valid checksum.
    auto j = nlohmann::json::parse(text);
    j.erase("sha256");
    j["pairs"][0]["right"] = false;
    auto wrong = probe_from_json(json_with_checksum(j.dump()), ab);
    REQUIRE_FALSE(wrong.ok());
    CHECK(wrong.error().message.find("\"right\" disagrees") != std::string::npos);
}

TEST_CASE("the probe stage scores a run that passes both tests on its witness family, as `score` does, and the "
          "verdict uses it",
          "[probe][pipeline]") {
    const fs::path dir = fs::temp_directory_path() / ("ltlkit-test-probe-" + std::to_string(std::random_device{}()));
    fs::remove_all(dir);
    VerifyOptions o;
    automata::LanguageSpec spec;
    spec.kind = automata::InputKind::Formula;
    spec.text = "Y a";  // Σ*a: not R-trivial, so global attention is predicted to fail
    spec.alphabet = {"a", "b"};
    spec.name = "last-a";
    o.languages = {*automata::load_language(spec)};
    o.archs = {*parse_architecture("global")};
    o.profile = tiny_profile();
    o.seeds = 1;
    o.out = dir.string();
    o.threads = 1;
    std::vector<std::string> lines;
    o.log = [&](const std::string& l) { lines.push_back(l); };
    auto first = run_verify(o);
    REQUIRE(first.ok());
    REQUIRE(first->plan.runs.size() == 1);
    const RunPlan& r = first->plan.runs[0];
    const fs::path rundir = dir / r.rundir;
    REQUIRE(fs::exists(rundir / "checkpoint.pt"));
    // Whatever the tiny run did, make it one that passes both tests (the probe reads nothing else
    // of result.json), as a run that found a counting shortcut would.
    auto text = read_file((rundir / "result.json").string());
    REQUIRE(text.ok());
    auto res = result_from_json(*text);
    REQUIRE(res.ok());
    res->failed_to_fit = false;
    res->success = true;
    res->adversarial_accuracy = 1.0;
    REQUIRE(write_file_atomic((rundir / "result.json").string(), result_to_json(*res)).ok());
    fs::remove(rundir / kProbeFile);
    // The verdict before the probe: contradicted, "not probed".
    {
        auto runs = load_runs(first->plan, dir.string());
        REQUIRE(runs.ok());
        REQUIRE(runs->size() == 1);
        const RunResult& before = runs->begin()->second.result;
        CHECK_FALSE(before.probe);
        const Verdict v = judge("last-a", o.archs[0], Prediction::Fails, {before}, {r.label()});
        CHECK(v.verdict == VerdictKind::Contradicted);
        CHECK(v.reason.find("not probed") != std::string::npos);
    }
    lines.clear();
    auto probed = probe_runs(first->plan, dir.string(), {&r}, Device::Cpu, o.log);
    REQUIRE(probed.ok());
    CHECK(*probed == 1);
    REQUIRE(fs::exists(rundir / kProbeFile));
    auto ptext = read_file((rundir / kProbeFile).string());
    REQUIRE(ptext.ok());
    auto probe = probe_from_json(*ptext, spec.alphabet);
    REQUIRE(probe.ok());
    CHECK(probe->arch == "global");
    CHECK(probe->test_max == 16);
    CHECK(probe->cap == probe_cap(16));
    REQUIRE_FALSE(probe->pairs.empty());
    // The words are the witness family's at those r, the labels the DFA's, the logits `score`'s.
    auto cls = automata::algebra::classify(*first->plan.languages[0].dfa, classify_options(o.archs));
    REQUIRE(cls.ok());
    const auto pred = automata::algebra::predict(*cls, o.archs[0]);
    REQUIRE(pred.witness);
    std::vector<automata::Word> words;
    for (const auto& q : probe->pairs) {
        const auto [u, v] = pred.witness->at(q.r);
        CHECK(q.words[0] == u);
        CHECK(q.words[1] == v);
        CHECK(std::min(u.size(), v.size()) > 16);
        CHECK(std::max(u.size(), v.size()) <= probe->cap);
        for (int k = 0; k < 2; ++k) {
            CHECK(q.labels[k] == first->plan.languages[0].dfa->accepts(q.words[k]));
            words.push_back(q.words[k]);
        }
        CHECK(q.labels[0] != q.labels[1]);
    }
    auto logits = score_run(rundir.string(), words, Device::Cpu, 1);
    REQUIRE(logits.ok());
    for (std::size_t i = 0; i < probe->pairs.size(); ++i)
        for (int k = 0; k < 2; ++k) CHECK(probe->pairs[i].logits[k] == (*logits)[2 * i + static_cast<std::size_t>(k)]);
    // A second stage probes nothing again.
    auto again = probe_runs(first->plan, dir.string(), {&r}, Device::Cpu, o.log);
    REQUIRE(again.ok());
    CHECK(*again == 0);
    // The report reads it: the cell is confirmed by the probe when a pair was answered wrong,
    // contradicted with the probed lengths otherwise.
    auto runs = load_runs(first->plan, dir.string());
    REQUIRE(runs.ok());
    const RunResult& loaded = runs->begin()->second.result;
    REQUIRE(loaded.probe);
    const ProbeOutcome out = probe->outcome();
    CHECK(loaded.probe->first_wrong_r == out.first_wrong_r);
    const Verdict v = judge("last-a", o.archs[0], Prediction::Fails, {loaded}, {r.label()});
    if (out.first_wrong_r) {
        CHECK(v.verdict == VerdictKind::Confirmed);
        CHECK(v.evidence == EvidenceKind::ProbeFailure);
        CHECK(v.reason.find("length " + std::to_string(*out.first_wrong_length)) != std::string::npos);
    } else {
        CHECK(v.verdict == VerdictKind::Contradicted);
        CHECK(v.reason.find("every probed length") != std::string::npos);
    }
    // A probe copied to a run that does not pass both tests is refused by the report.
    res->success = false;
    REQUIRE(write_file_atomic((rundir / "result.json").string(), result_to_json(*res)).ok());
    auto refused = load_runs(first->plan, dir.string());
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().message.find("is not a probe of this run") != std::string::npos);
    fs::remove_all(dir);
}

TEST_CASE("rule 5 with a probe: an error past the test lengths confirms the failure, a clean probe stays contradicted",
          "[verdict][probe]") {
    RunResult r;
    r.success = true;
    r.mean_accuracy = 1.0;
    r.train_accuracy = 1.0;
    r.adversarial_accuracy = 1.0;
    const auto global = *parse_architecture("global");
    Verdict v = judge("L", global, Prediction::Fails, {r}, {"seed1"});
    CHECK(v.verdict == VerdictKind::Contradicted);
    CHECK(v.reason.find("not probed") != std::string::npos);
    r.probe = ProbeOutcome{12, 241, 4000, std::nullopt, std::nullopt};
    v = judge("L", global, Prediction::Fails, {r}, {"seed1"});
    CHECK(v.verdict == VerdictKind::Contradicted);
    CHECK(v.evidence == EvidenceKind::PassesAdversarial);
    CHECK(v.reason.find("241 to 4000") != std::string::npos);
    r.probe->first_wrong_r = 80;
    r.probe->first_wrong_length = 242;
    v = judge("L", global, Prediction::Fails, {r}, {"seed1"});
    CHECK(v.verdict == VerdictKind::Confirmed);
    CHECK(v.rule == 6);
    CHECK(v.evidence == EvidenceKind::ProbeFailure);
    CHECK(v.real_evidence());
    CHECK(evidence_info(v.evidence).group == EvidenceGroup::Observed);
    CHECK(v.reason.find("r = 80 (length 242") != std::string::npos);
    // Another run that passes its probe too keeps the cell contradicted (rule 5 comes first).
    RunResult clean = r;
    clean.probe->first_wrong_r.reset();
    clean.probe->first_wrong_length.reset();
    CHECK(judge("L", global, Prediction::Fails, {r, clean}).verdict == VerdictKind::Contradicted);
    // A run that fails informative pairs outranks the probe (rule 6's order).
    RunResult informative = r;
    informative.probe.reset();
    informative.adversarial_accuracy = 0.5;
    CHECK(judge("L", global, Prediction::Fails, {r, informative}, {}, {}, PairSetKind::Informative).evidence ==
          EvidenceKind::InformativePairs);
}
