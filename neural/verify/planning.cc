// The planning stage of verify (stages.hh): from a language's classification and its evaluation
// sets to its LanguagePlan, and the run list with seeds, identities and folders. No I/O: every
// input comes from the caller (verify.cc's prepare, migrate.cc).
#include <algorithm>
#include <cstdio>
#include <optional>

#include "automata/random.hh"
#include "automata/sampler.hh"
#include "neural/verify/ceilings.hh"
#include "neural/verify/stages.hh"

namespace ltlkit::neural::verify {

using automata::Word;

namespace {

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

}  // namespace

// The settings of one run: the profile's, with the run's architecture, learning rate and seed.
Config run_config(const Plan& plan, const RunPlan& r, Device device) {
    Config c = plan.base;
    c.model.arch = r.arch;
    c.training.lr = r.lr;
    c.training.seed = r.seed;
    c.runtime.threads = 1;  // one torch thread per run: results do not depend on --threads
    c.runtime.device = device;
    return c;
}

bool needs_local1_control(const std::vector<std::pair<Prediction, bool>>& archs) {
    const bool any_fails = std::any_of(archs.begin(), archs.end(), [](const auto& a) {
        return a.first == Prediction::Fails && a.second;
    });
    const bool any_control = std::any_of(archs.begin(), archs.end(), [](const auto& a) {
        return a.first != Prediction::Fails;
    });
    return !any_fails && any_control;
}

Predictions predict_archs(const automata::algebra::Classification& cls, const std::vector<Architecture>& archs) {
    Predictions p;
    std::vector<std::pair<Prediction, bool>> marks;
    for (const auto& arch : archs) {
        p.archs.push_back(automata::algebra::predict(cls, arch));
        marks.emplace_back(p.archs.back().prediction, p.archs.back().witness.has_value());
    }
    if (needs_local1_control(marks)) p.controls.push_back(automata::algebra::predict(cls, kLocal1Control));
    return p;
}

LanguagePlan describe_language(const automata::Language& language,
                               const automata::algebra::Classification& classification) {
    const automata::LanguageSpec& spec = language.spec;
    LanguagePlan lp;
    lp.name = language_name(spec);
    lp.dir = language_dir_name(lp.name);
    lp.kind = spec.kind == automata::InputKind::Formula ? "formula"
              : spec.kind == automata::InputKind::Regex ? "regex"
                                                        : "dfa";
    lp.text = spec.text;
    lp.alphabet = language.dfa.alphabet;
    lp.dfa = language.dfa;
    lp.states = language.dfa.num_states();
    lp.fragment = language.fragment;
    for (const auto& [id, m] : classification.classes) lp.classes[to_string(id)] = m;
    for (bool hybrid : {false, true})
        for (const auto& [k, a] : hybrid ? classification.hybrid_k : classification.local_k)
            lp.classes[to_string(automata::window_class_id(hybrid, k))] =
                a == automata::Answer::Unknown ? std::nullopt : std::optional<bool>(a == automata::Answer::Yes);
    return lp;
}

ArchPlan arch_plan(const Architecture& arch, const automata::algebra::ArchPrediction& pred, const LanguagePlan& lp,
                   const LanguageContext& ctx, const Profile& prof) {
    ArchPlan ap;
    ap.arch = arch;
    ap.prediction = pred.prediction;
    ap.reason = pred.reason;
    if (pred.witness) {
        const auto& f = *pred.witness;
        ap.witness = "x=" + word_text(lp.alphabet, f.x) + " p=" + word_text(lp.alphabet, f.p) +
                     " y=" + word_text(lp.alphabet, f.y) + " z=" + word_text(lp.alphabet, f.z) +
                     " r≥" + std::to_string(f.r_min);
        if (f.x2) ap.witness += " (second word starts with x2=" + word_text(lp.alphabet, *f.x2) + ")";
        if (!f.e.empty()) ap.witness += " e=" + word_text(lp.alphabet, f.e);
    }
    if (auto it = ctx.adversarial.find(to_string(ap.arch)); it != ctx.adversarial.end()) {
        ap.adversarial_words = it->second.size();
        const AdversarialMarking m = mark_adversarial(ctx.dfa, arch, prof.base.model, it->second);
        ap.adversarial_pairs = m.pairs;
        ap.adversarial_forced_pairs = m.forced;
        ap.adversarial_kind = m.kind;
        if (pred.prediction != Prediction::Fails)
            ap.adversarial_note = "control: the pairs of the language's failing architectures";
        else if (pred.witness && m.pairs < static_cast<std::size_t>(prof.adversarial_pairs))
            ap.adversarial_note = witness_shortfall(*pred.witness, m.pairs, prof);
    }
    ap.ceiling_test_sample = sample_ceiling(ctx.dfa, arch, prof.base.model, ctx.test);
    return ap;
}

void plan_runs(Plan& plan, const std::vector<LanguageContext>& contexts,
               const std::set<std::pair<std::string, std::string>>& cells) {
    // The run list: language-major, then arch, lr, seed. Seeds derive from (language, arch, seed
    // index, lr); the folder name ends in the run's identity (run.hh), so a run made for another
    // language, configuration or data set never sits in the folder of this one.
    for (std::size_t li = 0; li < plan.languages.size(); ++li)
        for (const auto& arch : plan.archs) {
            if (!cells.empty() && !cells.count({plan.languages[li].name, to_string(arch)})) continue;
            // The evaluation sets (and their hash) are the same for every seed and lr of this arch.
            const EvalSets sets = eval_sets(contexts[li], arch);
            const std::string data = data_identity(sets);
            const std::string name = to_string(arch);  // in seeds and folder names
            for (double lr : plan.lrs)
                for (int i = 0; i < plan.seeds; ++i) {
                    const LanguagePlan& lp = plan.languages[li];
                    RunPlan r;
                    r.index = plan.runs.size();
                    r.language = lp.dir;
                    r.arch = arch;
                    r.seed_index = static_cast<int>(plan.base_seed) + i;
                    r.lr = lr;
                    r.seed = automata::derive_seed({lp.name, name, std::to_string(r.seed_index), format_lr(lr)});
                    r.identity = run_identity(contexts[li].dfa, run_config(plan, r, Device::Auto), sets, data).evaluation;
                    r.rundir = "runs/" + lp.dir + "/" + name + "/" + r.label() + "-" + r.identity.substr(0, 8);
                    plan.runs.push_back(std::move(r));
                }
        }
}

automata::algebra::ClassifyOptions classify_options(const std::vector<Architecture>& archs) {
    automata::algebra::ClassifyOptions copts;
    unsigned max_k = 1;
    for (const auto& a : archs) max_k = std::max(max_k, static_cast<unsigned>(a.k));  // k = 0 without a window
    copts.max_k = std::max(2u, max_k);
    // No wall-time or memory budget: a plan's predictions must not depend on the machine's load.
    copts.window_time_s = 0;
    copts.window_memory_bytes = 0;
    copts.window_work = 0;  // (nor a work budget: verify has always run the searches to their own bounds)
    return copts;
}

Result<std::set<std::pair<std::string, std::string>>> chosen_cells(const VerifyOptions& o) {
    std::set<std::pair<std::string, std::string>> out;
    for (const auto& text : o.cells) {
        auto cell = parse_cell(text);
        if (!cell.ok()) return cell.error();
        const auto& [lang, arch] = *cell;
        if (std::none_of(o.languages.begin(), o.languages.end(),
                         [&](const automata::Language& l) { return language_name(l.spec) == lang; }))
            return make_error("cell '" + text + "': no language named '" + lang + "' in the suite");
        if (std::find(o.archs.begin(), o.archs.end(), arch) == o.archs.end())
            return make_error("cell '" + text + "': " + to_string(arch) + " is not among --archs");
        out.insert({lang, to_string(arch)});
    }
    return out;
}

// The languages were compiled, and their errors refused, by whoever filled o.languages.
Result<bool> check_options(const VerifyOptions& o) {
    if (o.shard_count < 1 || o.shard_index < 0 || o.shard_index >= o.shard_count)
        return make_error("--shard expects i/n with 0 <= i < n");
    if (o.seeds && *o.seeds < 1) return make_error("--seeds must be at least 1");
    if (o.archs.empty()) return make_error("no architecture given (--archs)");
    if (o.languages.empty()) return make_error("no language given");
    if (auto cells = chosen_cells(o); !cells.ok()) return cells.error();
    return true;
}

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
    // Plain decimal digits on both sides (no sign, space or other base), at most 9 of them.
    auto number = [](const std::string& t) -> std::optional<int> {
        if (t.empty() || t.size() > 9 || t.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
        return std::stoi(t);
    };
    const auto i = number(text.substr(0, slash)), n = number(text.substr(slash + 1));
    if (!i || !n || *n < 1 || *i >= *n) return bad;
    return std::pair{*i, *n};
}

std::string language_name(const automata::LanguageSpec& spec) { return spec.name.empty() ? spec.text : spec.name; }

}  // namespace ltlkit::neural::verify
