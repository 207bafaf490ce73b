#include "neural/verify/verify.hh"

#include <fcntl.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <csignal>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "automata/algebra/classify.hh"
#if __has_include("automata/dataset.hh")
#include "automata/dataset.hh"
#endif
#include "automata/io.hh"
#include "automata/random.hh"
#include "automata/sampler.hh"

extern char** environ;

namespace ltlkit::neural::verify {

namespace fs = std::filesystem;
using automata::Dfa;
using automata::Word;

namespace {

// What a run needs beyond the plan: the DFA and the evaluation sets per architecture.
struct LanguageContext {
    Dfa dfa;
    std::vector<LabelledWord> test, boundary;
    std::map<std::string, std::vector<LabelledWord>> adversarial;  // arch -> set
    std::string dataset_repaired;  // a dataset file that failed its checksum and was regenerated
};

void emit(const VerifyOptions& o, const std::string& line) {
    if (o.log)
        o.log(line);
    else
        std::cout << line << std::endl;
}

std::string fmt(const char* f, double x) {
    char buf[64];
    std::snprintf(buf, sizeof buf, f, x);
    return buf;
}

std::string duration(double s) {
    if (s < 0 || !std::isfinite(s)) return "?";
    const long t = std::lround(s);
    if (t < 60) return std::to_string(t) + "s";
    if (t < 3600) return std::to_string(t / 60) + "m" + (t % 60 < 10 ? "0" : "") + std::to_string(t % 60) + "s";
    return std::to_string(t / 3600) + "h" + (t / 60 % 60 < 10 ? "0" : "") + std::to_string(t / 60 % 60) + "m";
}

// A word of a witness family for people: ε when empty, "<e^r>" for the loop marker of extended
// families (WordFamily::kLoopMarker), symbols space-separated unless all are one character.
std::string word_text(const std::vector<std::string>& alphabet, const Word& w) {
    if (w.empty()) return "ε";
    const bool single = automata::single_char_alphabet(alphabet);
    std::string s;
    for (std::size_t i = 0; i < w.size(); ++i) {
        if (i && !single) s += ' ';
        s += w[i] < alphabet.size() ? alphabet[w[i]] : std::string("<e^r>");
    }
    return s;
}

Expectation to_expectation(automata::algebra::Prediction p) {
    switch (p) {
        case automata::algebra::Prediction::Recognizes: return Expectation::Recognizes;
        case automata::algebra::Prediction::Fails: return Expectation::Fails;
        default: return Expectation::Unknown;
    }
}

// ---- datasets (SPEC §8 TSV: word<TAB>label[<TAB>pair])

[[maybe_unused]] std::string tsv(const std::vector<std::string>& alphabet, const std::vector<LabelledWord>& words) {
    std::string s;
    for (const auto& w : words) {
        s += automata::format_word(alphabet, w.word);
        s += '\t';
        s += w.label ? '1' : '0';
        if (w.pair >= 0) s += '\t' + std::to_string(w.pair);
        s += '\n';
    }
    return s;
}

[[maybe_unused]] Result<std::vector<LabelledWord>> read_tsv(const std::vector<std::string>& alphabet, const std::string& path) {
    auto text = automata::read_file(path);
    if (!text.ok()) return text.error();
    std::vector<LabelledWord> out;
    std::istringstream in(*text);
    std::string line;
    int lineno = 0;
    while (std::getline(in, line)) {
        ++lineno;
        if (line.empty() || line[0] == '#') continue;
        std::vector<std::string> cols;
        std::size_t start = 0;
        for (;;) {
            const auto tab = line.find('\t', start);
            cols.push_back(line.substr(start, tab == std::string::npos ? std::string::npos : tab - start));
            if (tab == std::string::npos) break;
            start = tab + 1;
        }
        Error bad = make_error("expected word<TAB>label[<TAB>pair]");
        bad.origin = path;
        bad.line = lineno;
        if (cols.size() < 2 || (cols[1] != "0" && cols[1] != "1")) {
            if (lineno == 1 && cols.size() >= 2 && cols[1] == "label") continue;  // a header line
            return bad;
        }
        auto w = automata::parse_word(alphabet, cols[0]);
        if (!w.ok()) {
            Error e = w.error();
            e.origin = path;
            e.line = lineno;
            return e;
        }
        LabelledWord lw;
        lw.word = std::move(w).value();
        lw.label = cols[1] == "1";
        if (cols.size() >= 3 && !cols[2].empty()) {
            try {
                lw.pair = std::stol(cols[2]);
            } catch (...) {
                return bad;
            }
        }
        out.push_back(std::move(lw));
    }
    return out;
}

// The random test set: at each length of [test_min, test_max], a balanced uniform sample (exact
// sampling from the DFA's count tables), fewer words where fewer exist.
[[maybe_unused]] Result<std::vector<LabelledWord>> sample_test_set(const Dfa& dfa, const Config& c, std::uint64_t seed) {
    auto sampler = automata::Sampler::create(dfa, static_cast<std::size_t>(std::max(c.test_max, 0)));
    if (!sampler.ok()) return sampler.error();
    automata::Rng rng(seed);
    std::vector<LabelledWord> out;
    for (int n = c.test_min; n <= c.test_max; ++n) {
        const auto len = static_cast<std::size_t>(n);
        const bool has1 = sampler->has_words(len, true), has0 = sampler->has_words(len, false);
        const int want1 = !has1 ? 0 : !has0 ? c.per_length : (c.per_length + 1) / 2;
        const int want0 = !has0 ? 0 : !has1 ? c.per_length : c.per_length / 2;
        for (const auto& [label, want] : {std::pair{true, want1}, std::pair{false, want0}}) {
            if (want <= 0) continue;
            const auto w = static_cast<std::uint64_t>(want);
            if (sampler->has_at_least(len, label, 4 * w)) {
                for (int i = 0; i < want; ++i) out.push_back({sampler->sample(len, label, rng), label, -1});
            } else {  // few words: all of them, or a random subset without repetition
                auto all = sampler->enumerate(len, label, static_cast<std::size_t>(4 * w));
                rng.shuffle(all);
                if (all.size() > w) all.resize(w);
                for (auto& word : all) out.push_back({std::move(word), label, -1});
            }
        }
    }
    return out;
}

// The adversarial set of an architecture predicted to fail: pairs x·p^r·y / x·p^r·z of the
// classifier's witness family (SPEC §6), at `pairs` values of r spread over the test lengths.
[[maybe_unused]] std::vector<LabelledWord> adversarial_set(const Dfa& dfa, const automata::algebra::WordFamily& f, const Config& c,
                                          int pairs) {
    std::vector<LabelledWord> out;
    const long lx = static_cast<long>(f.x.size()), lp = static_cast<long>(f.p.size());
    const long lmin = static_cast<long>(std::min(f.y.size(), f.z.size()));
    const long lmax = static_cast<long>(std::max(f.y.size(), f.z.size()));
    if (lp == 0 || pairs <= 0) return out;
    long rlo = std::max<long>(static_cast<long>(f.r_min), (c.test_min - lx - lmin + lp - 1) / lp);
    long rhi = (c.test_max - lx - lmax) / lp;
    if (rhi < rlo) rhi = rlo;
    const long count = std::min<long>(pairs, rhi - rlo + 1);
    long last = -1, id = 0;
    for (long k = 0; k < count; ++k) {
        const long r = count == 1 ? rlo : rlo + std::lround(static_cast<double>(k) * (rhi - rlo) / (count - 1));
        if (r == last) continue;
        last = r;
        auto [u, v] = f.at(static_cast<std::size_t>(r));
        const bool lu = dfa.accepts(u), lv = dfa.accepts(v);
        if (lu == lv) continue;  // not a separating pair at this r (should not happen for r >= r_min)
        out.push_back({std::move(u), lu, id});
        out.push_back({std::move(v), lv, id});
        ++id;
    }
    return out;
}

struct Prepared {
    Plan plan;
    std::vector<LanguageContext> contexts;  // parallel to plan.languages
};

[[maybe_unused]] Result<bool> write_if_missing(const fs::path& path, const std::string& content) {
    std::error_code ec;
    if (fs::exists(path, ec)) return true;
    return automata::write_file_atomic(path.string(), content);
}

#if __has_include("automata/dataset.hh")
std::vector<LabelledWord> to_labelled(const automata::Split* split) {
    std::vector<LabelledWord> out;
    if (!split) return out;
    out.reserve(split->examples.size());
    for (const auto& e : split->examples) out.push_back({e.word, e.label, e.pair});
    return out;
}
#endif

// The evaluation sets of a language in DATA (SPEC §8 layout): generated by the dataset generator
// (automata/dataset.hh: test, boundary, adversarial-<arch> for each arch predicted to fail) unless
// only reading (worker processes), then read back. The training words are sampled from the DFA
// during training (PROTOCOL.md), not taken from the train split.
Result<bool> language_dataset(LanguageContext& ctx, const LanguagePlan& lp,
                              const std::vector<automata::algebra::ArchPrediction>& preds, const Profile& prof,
                              const fs::path& data, bool write_files) {
    std::error_code ec;
#if __has_include("automata/dataset.hh")
    if (write_files) {
        automata::DatasetOptions d;
        d.train = {static_cast<std::size_t>(prof.base.train_min), static_cast<std::size_t>(prof.base.train_max)};
        d.test = {static_cast<std::size_t>(prof.base.test_min), static_cast<std::size_t>(prof.base.test_max)};
        d.per_length = static_cast<std::size_t>(prof.base.per_length);
        d.boundary_per_length = std::max<std::size_t>(1, d.per_length / 8);
        d.adversarial_per_family = static_cast<std::size_t>(prof.adversarial_pairs);
        d.seed = automata::derive_seed({"verify-data", lp.name});
        d.force = true;  // another --archs changes the adversarial sets; the other splits stay identical
        d.language_name = lp.name;
        d.language_kind = lp.kind;
        d.language_text = lp.text;
        for (const auto& pred : preds) {
            if (pred.prediction != automata::algebra::Prediction::Fails || !pred.witness) continue;
            const auto f = *pred.witness;
            automata::PairFamily pf;
            pf.x = f.x;
            pf.p = f.p;
            pf.y = f.y;
            pf.z = f.z;
            pf.r_min = f.r_min;
            pf.note = pred.reason;
            if (f.x2 || !f.e.empty()) {  // an extended family: only WordFamily::at knows the words
                pf.at = [f](std::size_t r) { return f.at(r); };
                pf.extra = "x2=" + (f.x2 ? word_text(lp.alphabet, *f.x2) : std::string("x")) +
                           " e=" + word_text(lp.alphabet, f.e);
            }
            d.adversarial.push_back({pred.arch, {pf}});
        }
        auto g = automata::generate_dataset(ctx.dfa, data.string(), d);
        if (!g.ok()) return g.error();
        if (!g->repaired.empty()) ctx.dataset_repaired = (data / g->repaired).string();
    }
    auto ds = automata::read_dataset(data.string(), false);
    if (!ds.ok()) return ds.error();
    if (!(ds->dfa == ctx.dfa)) return make_error(data.string() + " holds the dataset of another language");
    ctx.test = to_labelled(ds->find("test"));
    ctx.boundary = to_labelled(ds->find("boundary"));
    for (const auto& pred : preds) {
        auto set = to_labelled(ds->find("adversarial-" + pred.arch));
        if (!set.empty()) ctx.adversarial[pred.arch] = std::move(set);
    }
    return true;
#else
    if (write_files) {
        fs::create_directories(data, ec);
        if (ec) return io_error("cannot create " + data.string() + ": " + ec.message());
    }
    const fs::path test_path = data / "test.tsv";
    if (!fs::exists(test_path, ec)) {
        if (!write_files) return io_error(test_path.string() + " is missing");
        auto test = sample_test_set(ctx.dfa, prof.base, automata::derive_seed({"verify-test", lp.name}));
        if (!test.ok()) return test.error();
        auto w = automata::write_file_atomic(test_path.string(), tsv(lp.alphabet, *test));
        if (!w.ok()) return w.error();
    }
    auto test = read_tsv(lp.alphabet, test_path.string());
    if (!test.ok()) return test.error();
    ctx.test = std::move(test).value();
    if (fs::exists(data / "boundary.tsv", ec)) {
        auto b = read_tsv(lp.alphabet, (data / "boundary.tsv").string());
        if (!b.ok()) return b.error();
        ctx.boundary = std::move(b).value();
    }
    for (const auto& pred : preds) {
        const fs::path adv_path = data / ("adversarial-" + pred.arch + ".tsv");
        if (!fs::exists(adv_path, ec) && write_files && pred.prediction == automata::algebra::Prediction::Fails &&
            pred.witness) {
            auto set = adversarial_set(ctx.dfa, *pred.witness, prof.base, prof.adversarial_pairs);
            auto w = automata::write_file_atomic(adv_path.string(), tsv(lp.alphabet, set));
            if (!w.ok()) return w.error();
        }
        if (fs::exists(adv_path, ec)) {
            auto set = read_tsv(lp.alphabet, adv_path.string());
            if (!set.ok()) return set.error();
            if (!set->empty()) ctx.adversarial[pred.arch] = std::move(set).value();
        }
    }
    if (write_files) {
        nlohmann::json meta = {{"language", lp.name},
                               {"alphabet", lp.alphabet},
                               {"dfa", nlohmann::json::parse(lp.dfa_json)},
                               {"generator", "ltlkit verify (exact uniform sampling per length)"},
                               {"seed", automata::derive_seed({"verify-test", lp.name})},
                               {"test", std::to_string(prof.base.test_min) + ":" + std::to_string(prof.base.test_max)},
                               {"per_length", prof.base.per_length}};
        auto w = write_if_missing(data / "meta.json", meta.dump(1) + "\n");
        if (!w.ok()) return w.error();
    }
    return true;
#endif
}

Result<Prepared> prepare_impl(const VerifyOptions& o, bool write_files) {
    Prepared pr;
    Plan& plan = pr.plan;
    const Profile& prof = o.profile;
    plan.profile = prof.name;
    plan.profile_note = prof.note;
    plan.base = prof.base;
    plan.archs = o.archs;
    plan.seeds = o.seeds.value_or(prof.seeds);
    plan.base_seed = o.base_seed;
    plan.lrs = prof.lrs;
    if (plan.seeds < 1) return make_error("--seeds must be at least 1");
    if (o.archs.empty()) return make_error("no architecture given (--archs)");
    if (o.languages.empty()) return make_error("no language given");

    automata::algebra::ClassifyOptions copts;
    unsigned max_k = 1;
    for (const auto& a : o.archs) {
        auto spec = parse_arch(a);
        if (!spec.ok()) return spec.error();
        if (spec->kind == ArchSpec::Local || spec->kind == ArchSpec::Hybrid)
            max_k = std::max(max_k, static_cast<unsigned>(spec->k));
    }
    copts.max_k = std::max(2u, max_k);

    std::map<std::string, std::string> dirs_seen;
    for (const auto& spec : o.languages) {
        auto lang = automata::load_language(spec);
        if (!lang.ok()) return lang.error();
        auto cls = automata::algebra::classify(lang->dfa, copts);
        if (!cls.ok()) return cls.error();
        LanguagePlan lp;
        lp.name = spec.name.empty() ? spec.text : spec.name;
        lp.dir = language_dir_name(lp.name);
        if (dirs_seen.count(lp.dir)) return make_error("the language name '" + lp.name + "' appears twice");
        dirs_seen[lp.dir] = lp.name;
        lp.kind = spec.kind == automata::InputKind::Formula ? "formula"
                  : spec.kind == automata::InputKind::Regex ? "regex"
                                                            : "dfa";
        lp.text = spec.text;
        lp.alphabet = lang->dfa.alphabet;
        lp.dfa_json = automata::to_json(lang->dfa);
        lp.states = lang->dfa.num_states();
        lp.fragment = lang->fragment;
        lp.classes = cls->classes;
        for (const auto& [k, a] : cls->local_k)
            lp.classes["local_k:" + std::to_string(k)] =
                a == automata::algebra::Answer::Unknown ? std::nullopt
                                                        : std::optional<bool>(a == automata::algebra::Answer::Yes);
        for (const auto& [k, a] : cls->hybrid_k)
            lp.classes["hybrid_k:" + std::to_string(k)] =
                a == automata::algebra::Answer::Unknown ? std::nullopt
                                                        : std::optional<bool>(a == automata::algebra::Answer::Yes);

        LanguageContext ctx;
        ctx.dfa = lang->dfa;
        const fs::path data = fs::path(o.out) / "data" / lp.dir;
        std::vector<automata::algebra::ArchPrediction> preds;
        for (const auto& arch : o.archs) preds.push_back(automata::algebra::predict(*cls, arch));
        auto dataset = language_dataset(ctx, lp, preds, prof, data, write_files);
        if (!dataset.ok()) return dataset.error();
        if (!ctx.dataset_repaired.empty())
            emit(o, "warning: " + ctx.dataset_repaired +
                        ": checksum mismatch (truncated or corrupted); the dataset was generated again");
        lp.test_words = ctx.test.size();
        for (std::size_t i = 0; i < o.archs.size(); ++i) {
            const auto& pred = preds[i];
            ArchPlan ap;
            ap.arch = o.archs[i];
            ap.prediction = to_expectation(pred.prediction);
            ap.reason = pred.reason;
            if (pred.witness) {
                const auto& f = *pred.witness;
                ap.witness = "x=" + word_text(lp.alphabet, f.x) + " p=" + word_text(lp.alphabet, f.p) +
                             " y=" + word_text(lp.alphabet, f.y) + " z=" + word_text(lp.alphabet, f.z) +
                             " r≥" + std::to_string(f.r_min);
                if (f.x2) ap.witness += " (second word starts with x2=" + word_text(lp.alphabet, *f.x2) + ")";
                if (!f.e.empty()) ap.witness += " e=" + word_text(lp.alphabet, f.e);
            }
            if (auto it = ctx.adversarial.find(ap.arch); it != ctx.adversarial.end())
                ap.adversarial_words = it->second.size();
            lp.archs.push_back(std::move(ap));
        }
        plan.languages.push_back(std::move(lp));
        pr.contexts.push_back(std::move(ctx));
    }

    // The run list: language-major, then arch, lr, seed. Seeds derive from the run's identity.
    for (const auto& lp : plan.languages)
        for (const auto& arch : plan.archs)
            for (double lr : plan.lrs)
                for (int i = 0; i < plan.seeds; ++i) {
                    RunPlan r;
                    r.index = plan.runs.size();
                    r.language = lp.dir;
                    r.arch = arch;
                    r.seed_index = static_cast<int>(plan.base_seed) + i;
                    r.lr = lr;
                    r.seed = automata::derive_seed({lp.name, arch, std::to_string(r.seed_index), format_lr(lr)});
                    r.rundir = "runs/" + lp.dir + "/" + arch + "/" + r.label();
                    plan.runs.push_back(std::move(r));
                }
    if (write_files) {
        auto w = automata::write_file_atomic((fs::path(o.out) / "plan.json").string(), plan_to_json(plan));
        if (!w.ok()) return w.error();
    }
    return pr;
}

Config run_config(const Plan& plan, const RunPlan& r, const VerifyOptions& o) {
    Config c = plan.base;
    c.arch = r.arch;
    c.lr = r.lr;
    c.seed = r.seed;
    c.threads = 1;  // one torch thread per run: results do not depend on --threads
    c.device = o.device;
    return c;
}

// A finished run is reused only when it was made with the same settings.
std::optional<std::string> config_mismatch(const Config& want, const Config& got) {
    auto diff = [](const char* what, auto a, auto b) -> std::optional<std::string> {
        if (a == b) return std::nullopt;
        std::ostringstream s;
        s << what << " " << b << " (now " << a << ")";
        return s.str();
    };
    for (auto d : {diff("arch", want.arch, got.arch), diff("seed", want.seed, got.seed),
                   diff("steps", want.steps, got.steps), diff("layers", want.layers, got.layers),
                   diff("d_model", want.d_model, got.d_model), diff("heads", want.heads, got.heads),
                   diff("batch", want.batch, got.batch), diff("test_max", want.test_max, got.test_max),
                   diff("per_length", want.per_length, got.per_length)})
        if (d) return d;
    if (std::fabs(want.lr - got.lr) > 1e-12 * std::max(1.0, want.lr)) return "lr " + format_lr(got.lr);
    return std::nullopt;
}

std::string run_name(const Plan& plan, const RunPlan& r) {
    std::string lang = r.language;
    for (const auto& l : plan.languages)
        if (l.dir == r.language) lang = l.name;
    return "[" + std::to_string(r.index + 1) + "/" + std::to_string(plan.runs.size()) + "] " + lang + " " +
           r.arch + " " + r.label();
}

// Trains (or resumes) one run. Returns true when it trained, false when result.json was there.
Result<bool> execute_run(const Prepared& pr, const RunPlan& r, const VerifyOptions& o) {
    const Plan& plan = pr.plan;
    const fs::path rundir = fs::path(o.out) / r.rundir;
    const fs::path result_path = rundir / "result.json";
    const Config cfg = run_config(plan, r, o);
    std::error_code ec;
    if (fs::exists(result_path, ec)) {
        auto text = automata::read_file(result_path.string());
        if (!text.ok()) return text.error();
        auto res = result_from_json(*text);
        if (!res.ok()) {
            Error e = res.error();
            e.origin = result_path.string();
            return e;
        }
        if (auto m = config_mismatch(cfg, res->config))
            return make_error(result_path.string() + " was made with other settings (" + *m +
                              "); use another --out or remove that folder");
        return false;
    }
    std::size_t li = 0;
    while (li < plan.languages.size() && plan.languages[li].dir != r.language) ++li;
    if (li == plan.languages.size()) return make_error("internal: run of an unknown language " + r.language);
    const LanguageContext& ctx = pr.contexts[li];
    EvalSets sets;
    sets.test = ctx.test;
    sets.boundary = ctx.boundary;
    if (auto it = ctx.adversarial.find(r.arch); it != ctx.adversarial.end()) sets.adversarial = it->second;
    fs::create_directories(rundir, ec);
    const std::string name = run_name(plan, r);
    const bool resuming = fs::exists(rundir / "checkpoint.pt", ec);
    emit(o, name + (resuming ? ": resuming from its checkpoint" : ": training") + " (" + std::to_string(cfg.steps) +
                " steps)");
    const std::string rundir_s = rundir.string();
    ProgressFn progress = [&](const Progress& p) {
        emit(o, name + "  step " + std::to_string(p.step) + "/" + std::to_string(p.total) + "  loss " +
                    fmt("%.4f", p.loss) + "  train acc " + fmt("%.1f", 100 * p.train_accuracy) + "%  " +
                    fmt("%.0f", p.tokens_per_second) + " tok/s  eta " + duration(p.eta_seconds));
        if (o.on_progress) o.on_progress(r, rundir_s, p);
    };
    auto res = train_and_evaluate(ctx.dfa, cfg, rundir_s, sets, plan.languages[li].name, progress);
    if (!res.ok()) {
        Error e = res.error();
        e.message = name + ": " + e.message;
        return e;
    }
    const RunResult& rr = *res;
    emit(o, name + "  done in " + duration(rr.wall_seconds) + ": " +
                (rr.failed_to_fit ? "FAILED TO FIT" : rr.success ? "success" : "no success") + ", mean acc " +
                fmt("%.1f", 100 * rr.mean_accuracy) + "%, min bin " + fmt("%.1f", 100 * rr.min_bin_accuracy) +
                "%, N* " + std::to_string(rr.n_star) +
                (rr.adversarial_accuracy ? ", adversarial " + fmt("%.1f", 100 * *rr.adversarial_accuracy) + "%" : "") +
                ", train acc " + fmt("%.1f", 100 * rr.train_accuracy) + "%");
    return true;
}

// O_EXCL file creation: exactly one worker of a session gets each run.
bool claim(const fs::path& dir, std::size_t index) {
    const std::string path = (dir / std::to_string(index)).string();
    const int fd = ::open(path.c_str(), O_CREAT | O_EXCL | O_WRONLY, 0644);
    if (fd < 0) return false;
    ::close(fd);
    return true;
}

}  // namespace

std::string language_dir_name(const std::string& name) {
    std::string s;
    bool changed = false;
    for (unsigned char c : name) {
        if (std::isalnum(c) || c == '.' || c == '-' || c == '_') {
            s += static_cast<char>(c);
        } else {
            changed = true;
            if (s.empty() || s.back() != '_') s += '_';
        }
    }
    if (s.size() > 48) s.resize(48), changed = true;
    if (s.empty() || s == "." || s == "..") changed = true, s = "lang";
    if (changed) {
        char buf[16];
        std::snprintf(buf, sizeof buf, "-%08llx",
                      static_cast<unsigned long long>(automata::derive_seed({name}) & 0xffffffffULL));
        s += buf;
    }
    return s;
}

Result<std::pair<int, int>> parse_shard(const std::string& text) {
    const auto slash = text.find('/');
    Error bad = make_error("--shard expects i/n with 0 <= i < n, got '" + text + "'");
    if (slash == std::string::npos) return bad;
    try {
        std::size_t p1 = 0, p2 = 0;
        const int i = std::stoi(text.substr(0, slash), &p1);
        const int n = std::stoi(text.substr(slash + 1), &p2);
        if (p1 != slash || p2 != text.size() - slash - 1 || n < 1 || i < 0 || i >= n) return bad;
        return std::pair{i, n};
    } catch (...) {
        return bad;
    }
}

Result<Plan> prepare(const VerifyOptions& options) {
    auto pr = prepare_impl(options, true);
    if (!pr.ok()) return pr.error();
    return std::move(pr->plan);
}

Result<VerifySummary> run_verify(const VerifyOptions& o) {
    const bool worker = o.worker_index >= 0;
#ifdef __linux__
    // A worker dies with its parent: a killed verify leaves no orphan writing into OUT.
    if (worker) {
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    }
#endif
    if (o.shard_count < 1 || o.shard_index < 0 || o.shard_index >= o.shard_count)
        return make_error("--shard expects i/n with 0 <= i < n");
    std::error_code ec;
    fs::create_directories(o.out, ec);
    if (ec) return io_error("cannot create " + o.out + ": " + ec.message());
    auto pr = prepare_impl(o, !worker);
    if (!pr.ok()) return pr.error();
    VerifySummary summary;
    summary.plan = pr->plan;
    const Plan& plan = pr->plan;

    std::vector<const RunPlan*> mine, pending;
    for (const auto& r : plan.runs)
        if (static_cast<int>(r.index % static_cast<std::size_t>(o.shard_count)) == o.shard_index) mine.push_back(&r);
    if (!worker)
        for (const auto* r : mine) {
            // A finished run whose result.json fails its checksum is run again (DURABILITY.md):
            // evaluated from its checkpoint, or trained again when that is gone.
            const fs::path result = fs::path(o.out) / r->rundir / "result.json";
            if (!fs::exists(result, ec)) continue;
            auto text = automata::read_file(result.string());
            if (text.ok() && automata::json_checksum_state(*text) != automata::ChecksumState::Mismatch) continue;
            emit(o, "warning: " + result.string() +
                        ": checksum mismatch (truncated or corrupted); removed, the run is evaluated again");
            fs::remove(result, ec);
        }
    for (const auto* r : mine)
        if (!fs::exists(fs::path(o.out) / r->rundir / "result.json", ec)) pending.push_back(r);
    summary.runs_in_shard = mine.size();

    if (!worker) {
        for (std::size_t i = 0; i < plan.languages.size(); ++i) {
            const auto& l = plan.languages[i];
            std::string preds;
            for (const auto& a : l.archs) preds += (preds.empty() ? "" : ", ") + a.arch + " " + to_string(a.prediction);
            emit(o, l.name + ": " + std::to_string(l.states) + "-state minimal DFA; predictions: " + preds);
        }
        emit(o, "profile " + plan.profile + ": " + std::to_string(plan.runs.size()) + " runs" +
                    (o.shard_count > 1 ? ", shard " + std::to_string(o.shard_index) + "/" +
                                             std::to_string(o.shard_count) + " has " + std::to_string(mine.size())
                                       : "") +
                    ", " + std::to_string(mine.size() - pending.size()) + " already finished, " +
                    std::to_string(pending.size()) + " to train");
    }

    Result<bool> failure = true;
    const int jobs = worker ? 1 : std::min<int>(std::max(1, o.threads), static_cast<int>(pending.size()));
    if (!worker && jobs > 1 && !o.worker_command.empty()) {
        // Worker processes, each claiming runs from the shared list (one torch thread each).
        const std::string session = std::to_string(::getpid()) + "-" +
                                    std::to_string(std::chrono::steady_clock::now().time_since_epoch().count());
        const fs::path claims = fs::path(o.out) / ".claims" / session;
        fs::create_directories(claims, ec);
        if (ec) return io_error("cannot create " + claims.string() + ": " + ec.message());
        emit(o, "training with " + std::to_string(jobs) + " worker processes");
        std::vector<pid_t> pids;
        for (int j = 0; j < jobs; ++j) {
            std::vector<std::string> args = o.worker_command;
            args.insert(args.end(), {"--worker", std::to_string(j) + "/" + std::to_string(jobs), "--worker-session",
                                     session});
            std::vector<char*> argv;
            for (auto& a : args) argv.push_back(a.data());
            argv.push_back(nullptr);
            pid_t pid = 0;
            if (::posix_spawn(&pid, argv[0], nullptr, nullptr, argv.data(), environ) != 0) {
                failure = io_error("cannot start a worker process " + args[0]);
                break;
            }
            pids.push_back(pid);
        }
        for (pid_t pid : pids) {
            int status = 0;
            while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
            }
            if (!(WIFEXITED(status) && WEXITSTATUS(status) == 0) && failure.ok()) {
                Error e = make_error("a worker process failed (" +
                        (WIFEXITED(status) ? "exit code " + std::to_string(WEXITSTATUS(status))
                                           : "signal " + std::to_string(WTERMSIG(status))) +
                        "); rerun the same command to resume");
                e.exit_code = WIFEXITED(status) ? std::max(2, WEXITSTATUS(status)) : 4;
                failure = e;
            }
        }
        fs::remove_all(claims, ec);
        for (const auto* r : pending)
            if (fs::exists(fs::path(o.out) / r->rundir / "result.json", ec)) ++summary.runs_trained;
        summary.runs_skipped = mine.size() - pending.size();
    } else {
        const fs::path claims = fs::path(o.out) / ".claims" / o.worker_session;
        for (const auto* r : mine) {
            if (summary.runs_trained >= o.max_runs) break;
            if (worker && fs::exists(fs::path(o.out) / r->rundir / "result.json", ec)) continue;
            if (worker && !claim(claims, r->index)) continue;
            auto done = execute_run(*pr, *r, o);
            if (!done.ok()) {
                failure = done.error();
                break;
            }
            if (*done)
                ++summary.runs_trained;
            else
                ++summary.runs_skipped;
        }
    }

    if (!worker && o.write_report) {
        auto runs = load_runs(plan, o.out);
        if (!runs.ok()) return runs.error();
        auto rep = write_report(plan, *runs, o.out);
        if (!rep.ok()) return rep.error();
        summary.report = std::move(rep).value();
    }
    if (!failure.ok()) return failure.error();
    return summary;
}

}  // namespace ltlkit::neural::verify
