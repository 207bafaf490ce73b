// The preparation stage of verify (stages.hh): the plan of a command, made fresh in an empty
// output folder (classify, predict, datasets, run list), or, in a folder that already holds a
// plan.json, that plan reused or extended (languages, cells, seeds), or the command refused (docs/DURABILITY.md "verify into
// an existing folder"). A folder's plan never loses a language, a cell or a run: its finished
// cells stay in the report whatever is verified into it next.
#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "base/checksum.hh"
#include "base/file.hh"
#include "neural/verify/stages.hh"

namespace ltlkit::neural::verify {

namespace fs = std::filesystem;

namespace {

using CellSet = std::set<std::pair<std::string, std::string>>;  // (language name, architecture name)

// The plan's settings from the command, without a language.
Plan plan_settings(const VerifyOptions& o, const CellSet& cells) {
    Plan plan;
    const Profile& prof = o.profile;
    plan.profile = prof.name;
    plan.profile_note = prof.note;
    plan.base = prof.base;
    plan.archs = o.archs;
    plan.seeds = o.seeds.value_or(prof.seeds);
    plan.base_seed = o.base_seed;
    plan.lrs = prof.lrs;
    plan.published = o.published;
    for (const auto& [lang, arch] : cells) plan.cells.push_back(lang + ":" + arch);
    return plan;
}

// One language classified for the architectures `archs`, its datasets generated into OUT/data
// (when write_files) and read back, its plan and context appended to pr.
Result<bool> plan_language(Prepared& pr, const VerifyOptions& o, const automata::Language& lang,
                           const std::vector<Architecture>& archs, bool write_files) {
    automata::algebra::ClassifyOptions lopts = classify_options(archs);
    if (lang.formula) lopts.source = *lang.formula;  // as `classify` does
    auto cls = automata::algebra::classify(lang.dfa, lopts);
    if (!cls.ok()) return cls.error();
    LanguagePlan lp = describe_language(lang, *cls);
    for (const auto& other : pr.plan.languages)
        if (other.dir == lp.dir) return make_error("the language name '" + lp.name + "' appears twice");
    LanguageContext ctx;
    ctx.dfa = lang.dfa;
    const fs::path data = fs::path(o.out) / "data" / lp.dir;
    const Predictions preds = predict_archs(*cls, archs);
    auto dataset = language_dataset(ctx, lp, preds.archs, preds.controls, o.profile, data, write_files);
    if (!dataset.ok()) return dataset.error();
    if (!ctx.dataset_repaired.empty())
        emit(o.log, "warning: " + ctx.dataset_repaired +
                    ": checksum mismatch (truncated or corrupted); the dataset was generated again");
    lp.test_words = ctx.test.size();
    for (std::size_t i = 0; i < archs.size(); ++i)
        lp.archs.push_back(arch_plan(archs[i], preds.archs[i], lp, ctx, o.profile));
    pr.plan.languages.push_back(std::move(lp));
    pr.contexts.push_back(std::move(ctx));
    return true;
}

bool chosen(const CellSet& cells, const std::string& language) {
    return cells.empty() ||
           std::any_of(cells.begin(), cells.end(), [&](const auto& c) { return c.first == language; });
}

Result<Prepared> fresh_plan(const VerifyOptions& o, const CellSet& cells, bool write_files) {
    Prepared pr;
    pr.plan = plan_settings(o, cells);
    for (const automata::Language& lang : o.languages)
        if (chosen(cells, language_name(lang.spec)))  // no chosen cell: not planned at all
            if (auto p = plan_language(pr, o, lang, o.archs, write_files); !p.ok()) return p.error();
    plan_runs(pr.plan, pr.contexts, cells);
    return pr;
}

// OUT/plan.json when it is a plan with a valid checksum; nullopt when there is none, or when it is
// damaged (a fresh plan replaces it, as the checksum error of `report` tells to do).
std::optional<Plan> folder_plan(const std::string& out) {
    const std::string path = (fs::path(out) / "plan.json").string();
    std::error_code ec;
    if (!fs::exists(path, ec)) return std::nullopt;
    auto text = read_file(path);
    if (!text.ok() || json_checksum_state(*text) != ChecksumState::Valid) return std::nullopt;
    auto plan = plan_from_json(*text);
    if (!plan.ok()) return std::nullopt;
    return std::move(plan).value();
}

// The first setting in which the command's plan differs from the folder's, as "what: old (now
// new)"; nullopt when they agree. Languages and cells may differ (they are merged), architectures
// may be fewer.
std::optional<std::string> settings_difference(const Plan& old, const Plan& now) {
    if (old.profile != now.profile) return "profile " + old.profile + " (now " + now.profile + ")";
    if (config_to_json(old.base) != config_to_json(now.base)) {
        const std::string d = config_differences(now.base, old.base);
        return d.empty() ? std::string("profile settings") : d;
    }
    // More seeds extend the folder (seed i's run does not depend on how many there are); fewer would
    // leave its finished runs of the later seeds out of the plan.
    if (now.seeds < old.seeds)
        return "seeds " + std::to_string(old.seeds) + " (now " + std::to_string(now.seeds) +
               "; more seeds extend a folder, fewer do not)";
    if (old.base_seed != now.base_seed)
        return "seed " + std::to_string(old.base_seed) + " (now " + std::to_string(now.base_seed) + ")";
    auto lrs = [](const std::vector<double>& v) {
        std::string s;
        for (double lr : v) {  // piece by piece (a "," + chain trips GCC 12's -Wrestrict)
            if (!s.empty()) s += ",";
            s += format_lr(lr);
        }
        return s;
    };
    if (old.lrs != now.lrs) return "learning rates " + lrs(old.lrs) + " (now " + lrs(now.lrs) + ")";
    for (const auto& a : now.archs)
        if (std::find(old.archs.begin(), old.archs.end(), a) == old.archs.end()) {
            std::string names;
            for (const auto& b : old.archs) names += (names.empty() ? "" : ",") + to_string(b);
            return "architectures " + names + " (now also " + to_string(a) + ")";
        }
    return std::nullopt;
}

// The cells of a plan: its recorded ones, or every language × architecture.
CellSet plan_cells(const Plan& plan) {
    CellSet out;
    if (!plan.cells.empty()) {
        for (const auto& text : plan.cells)
            if (auto c = parse_cell(text); c.ok()) out.insert({c->first, to_string(c->second)});
        return out;
    }
    for (const auto& l : plan.languages)
        for (const auto& a : plan.archs) out.insert({l.name, to_string(a)});
    return out;
}

// The folder's plan extended by the command's languages, cells and seeds; every run of the old plan
// kept with its identity, or the command refused.
Result<Prepared> extend_plan(const VerifyOptions& o, const CellSet& cells, Plan old, bool write_files) {
    const std::string todo = "; verify into another --out, or delete " + o.out + " to start over";
    const Plan now = plan_settings(o, cells);
    if (auto d = settings_difference(old, now))
        return make_error(o.out + " holds a verification with other settings: " + *d + todo);
    // The command's cells: those given, or each of its languages × its architectures.
    CellSet wanted = cells;
    if (cells.empty())
        for (const auto& lang : o.languages)
            for (const auto& a : o.archs) wanted.insert({language_name(lang.spec), to_string(a)});
    const CellSet had = plan_cells(old);
    std::vector<const automata::Language*> added;  // languages the folder's plan does not hold
    for (const auto& lang : o.languages) {
        const std::string name = language_name(lang.spec);
        if (!chosen(cells, name)) continue;
        const auto it = std::find_if(old.languages.begin(), old.languages.end(),
                                     [&](const LanguagePlan& l) { return l.name == name; });
        if (it == old.languages.end())
            added.push_back(&lang);
        else if (!it->dfa || !(*it->dfa == lang.dfa))
            return make_error(o.out + " holds a verification in which the language '" + name +
                              "' has another minimal DFA (" + it->kind + " " + it->text + ")" + todo);
    }
    CellSet merged = had;
    merged.insert(wanted.begin(), wanted.end());
    bool sharded = o.shard_count > 1;
    if (auto s = read_shard_file(o.out); !s.ok() || *s) sharded = true;
    if (merged != had && sharded) {
        const auto& [l, a] = *std::find_if(wanted.begin(), wanted.end(), [&](const auto& c) { return !had.count(c); });
        return make_error(o.out + " holds a shard of a verification without the cell " + l + ":" + a +
                          " (the shards of one verification share one plan)" + todo);
    }
    if (now.seeds > old.seeds && sharded)
        return make_error(o.out + " holds a shard of a verification of " + std::to_string(old.seeds) +
                          " seed(s), not " + std::to_string(now.seeds) +
                          " (the shards of one verification share one plan)" + todo);
    Prepared pr;
    pr.plan = std::move(old);
    pr.plan.seeds = now.seeds;  // as many or more (settings_difference)
    if (o.published) pr.plan.published = o.published;
    // The folder's languages from their datasets; one of this command whose datasets cannot be read
    // (damaged) is planned again, its datasets generated again.
    std::vector<LanguagePlan> languages = std::move(pr.plan.languages);
    pr.plan.languages.clear();
    for (auto& lp : languages) {
        auto ctx = read_language_context(pr.plan, lp, fs::path(o.out) / "data" / lp.dir);
        if (ctx.ok()) {
            pr.plan.languages.push_back(std::move(lp));
            pr.contexts.push_back(std::move(ctx).value());
            continue;
        }
        const auto lang = std::find_if(o.languages.begin(), o.languages.end(), [&](const automata::Language& l) {
            return language_name(l.spec) == lp.name;
        });
        if (lang == o.languages.end()) return ctx.error();
        if (auto p = plan_language(pr, o, *lang, pr.plan.archs, write_files); !p.ok()) return p.error();
    }
    for (const auto* lang : added)
        if (auto p = plan_language(pr, o, *lang, pr.plan.archs, write_files); !p.ok()) return p.error();
    // The cells: none recorded when they are every language × architecture (as a fresh plan).
    CellSet all;
    for (const auto& l : pr.plan.languages)
        for (const auto& a : pr.plan.archs) all.insert({l.name, to_string(a)});
    pr.plan.cells.clear();
    if (merged != all)
        for (const auto& [l, a] : merged) pr.plan.cells.push_back(l + ":" + a);
    const std::vector<RunPlan> before = std::move(pr.plan.runs);
    pr.plan.runs.clear();
    plan_runs(pr.plan, pr.contexts, merged == all ? CellSet{} : merged);
    for (const auto& r : before)
        if (std::none_of(pr.plan.runs.begin(), pr.plan.runs.end(),
                         [&](const RunPlan& n) { return n.rundir == r.rundir && n.identity == r.identity; }))
            return make_error(o.out + " holds the run " + r.rundir +
                              ", which this ltlkit plans with another identity (its datasets or settings changed)" +
                              todo);
    return pr;
}

}  // namespace

Result<Prepared> prepare_plan(const VerifyOptions& o, bool write_files) {
    auto cells = chosen_cells(o);
    if (!cells.ok()) return cells.error();
    if (o.seeds && *o.seeds < 1) return make_error("--seeds must be at least 1");
    if (o.archs.empty()) return make_error("no architecture given (--archs)");
    if (o.languages.empty()) return make_error("no language given");
    std::optional<Plan> old = write_files ? folder_plan(o.out) : std::nullopt;
    auto pr = old ? extend_plan(o, *cells, std::move(*old), write_files) : fresh_plan(o, *cells, write_files);
    if (!pr.ok()) return pr.error();
    if (write_files)
        if (auto w = write_file_atomic((fs::path(o.out) / "plan.json").string(), plan_to_json(pr->plan)); !w.ok())
            return w.error();
    return pr;
}

bool in_command(const VerifyOptions& o, const Plan& plan, const RunPlan& r) {
    std::string language;
    for (const auto& l : plan.languages)
        if (l.dir == r.language) language = l.name;
    const std::string arch = to_string(r.arch);
    if (!o.cells.empty())
        return std::any_of(o.cells.begin(), o.cells.end(), [&](const std::string& text) {
            auto c = parse_cell(text);
            return c.ok() && c->first == language && to_string(c->second) == arch;
        });
    return std::find(o.archs.begin(), o.archs.end(), r.arch) != o.archs.end() &&
           std::any_of(o.languages.begin(), o.languages.end(),
                       [&](const automata::Language& l) { return language_name(l.spec) == language; });
}

}  // namespace ltlkit::neural::verify
