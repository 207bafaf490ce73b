// The migration of an older plan.json (migrate.hh): the stages of verify run again on a plan's
// languages, datasets into a scratch folder. Called by `report` (report.cc), never by verify.
#include "neural/verify/migrate.hh"

#include <algorithm>
#include <optional>

#include "automata/algebra/classify.hh"
#include "automata/language.hh"
#include "neural/verify/stages.hh"

namespace ltlkit::neural::verify {

namespace fs = std::filesystem;

Result<std::size_t> mark_plan_adversarial(Plan& plan, const std::string& scratch) {
    std::size_t marked = 0;
    auto prof = profile_by_name(plan.profile);
    if (!prof.ok()) return marked;  // a plan of no known profile: its datasets cannot be regenerated
    prof->base = plan.base;
    const auto copts = classify_options(plan.archs);
    for (auto& lp : plan.languages) {
        const bool needed = std::any_of(lp.archs.begin(), lp.archs.end(),
                                        [](const ArchPlan& a) { return a.adversarial_words > 0 && a.adversarial_kind.empty(); });
        if (!needed) continue;
        // The language as verify loaded it (a DFA file's path may no longer resolve: the plan's DFA).
        automata::Dfa dfa;
        std::optional<ltl::Formula> formula_source;
        if (lp.kind == "formula" || lp.kind == "regex") {
            automata::LanguageSpec spec;
            spec.kind = lp.kind == "formula" ? automata::InputKind::Formula : automata::InputKind::Regex;
            spec.text = lp.text;
            spec.alphabet = lp.alphabet;
            spec.name = lp.name;
            auto lang = automata::load_language(spec);
            if (!lang.ok()) continue;  // best effort: its sets stay unmarked ("not recorded")
            dfa = lang->dfa;
            if (lang->formula) formula_source = *lang->formula;
        } else {
            if (!lp.dfa) continue;
            dfa = *lp.dfa;
        }
        automata::algebra::ClassifyOptions lopts = copts;
        if (formula_source) lopts.source = *formula_source;
        auto cls = automata::algebra::classify(dfa, lopts);
        if (!cls.ok()) continue;
        LanguageContext ctx;
        ctx.dfa = dfa;
        std::vector<automata::algebra::ArchPrediction> preds;
        for (const auto& arch : plan.archs) preds.push_back(automata::algebra::predict(*cls, arch));
        auto ds = language_dataset(ctx, lp, preds, {}, *prof, fs::path(scratch) / lp.dir, true, false);
        if (!ds.ok()) continue;
        for (std::size_t i = 0; i < lp.archs.size() && i < preds.size(); ++i) {
            ArchPlan& ap = lp.archs[i];
            if (ap.adversarial_words == 0 || !ap.adversarial_kind.empty()) continue;
            // Only when the regenerated sets are those the runs used: a run's identity covers them.
            const EvalSets sets = eval_sets(ctx, ap.arch);
            bool same = false;
            for (const auto& r : plan.runs)
                if (r.language == lp.dir && r.arch == ap.arch) {
                    Config c = plan.base;
                    c.model.arch = r.arch;
                    c.training.lr = r.lr;
                    c.training.seed = r.seed;
                    same = run_identity(ctx.dfa, c, sets).evaluation == r.identity;
                    break;
                }
            if (!same) continue;
            const ArchPlan fresh = arch_plan(ap.arch, preds[i], lp, ctx, *prof);
            ap.adversarial_pairs = fresh.adversarial_pairs;
            ap.adversarial_forced_pairs = fresh.adversarial_forced_pairs;
            ap.adversarial_kind = fresh.adversarial_kind;
            ap.adversarial_note = fresh.adversarial_note;
            ap.ceiling_test_sample = fresh.ceiling_test_sample;
            ++marked;
        }
    }
    return marked;
}

}  // namespace ltlkit::neural::verify
