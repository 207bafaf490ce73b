// verify's top stage (stages.hh): the stages in their order, plan.json and the report.
#include "neural/verify/verify.hh"

#include <algorithm>
#include <filesystem>
#include <map>

#include "automata/lock.hh"
#include "base/file.hh"
#include "neural/verify/stages.hh"

namespace ltlkit::neural::verify {

namespace fs = std::filesystem;

namespace {

// What will be done: each language's predictions, the runs of the shard, finished and to train.
void announce(const VerifyOptions& o, const Plan& plan, std::size_t mine, std::size_t pending) {
    for (const auto& l : plan.languages) {
        std::string preds;
        for (const auto& a : l.archs)
            preds += (preds.empty() ? "" : ", ") + to_string(a.arch) + " " + to_string(a.prediction);
        emit(o.log, l.name + ": " + std::to_string(l.states) + "-state minimal DFA; predictions: " + preds);
    }
    emit(o.log, "profile " + plan.profile + ": " + std::to_string(plan.runs.size()) + " runs" +
                (o.shard_count > 1 ? ", shard " + std::to_string(o.shard_index) + "/" + std::to_string(o.shard_count) +
                                         " has " + std::to_string(mine)
                                   : "") +
                ", " + std::to_string(mine - pending) + " already finished, " + std::to_string(pending) +
                " to train");
}

}  // namespace

Result<Plan> prepare(const VerifyOptions& options) {
    auto pr = prepare_plan(options, true);
    if (!pr.ok()) return pr.error();
    return std::move(pr->plan);
}

Result<VerifySummary> run_verify(const VerifyOptions& o) {
    if (auto ok = check_options(o); !ok.ok()) return ok.error();
    std::error_code ec;
    // One verify at a time owns OUT (its worker processes run under the parent's lock). Claims are
    // per session, so any left by a killed verify are stale once the lock is ours.
    auto lock = automata::lock_folder(o.out, "ltlkit verify");
    if (!lock.ok()) return lock.error();
    fs::remove_all(fs::path(o.out) / ".claims", ec);
    // Which shard this folder holds, before planning: `report` names a shard that failed.
    if (o.shard_count > 1)
        if (auto w = write_shard_file(o.out, o.shard_index, o.shard_count); !w.ok()) return w.error();
    auto pr = prepare_plan(o, true);
    if (!pr.ok()) return pr.error();
    VerifySummary summary;
    summary.plan = pr->plan;
    const Plan& plan = pr->plan;

    // The runs of this shard among those of this command's cells (the folder's plan may hold more).
    std::vector<const RunPlan*> mine = shard_runs(plan, o.shard_index, o.shard_count);
    std::erase_if(mine, [&](const RunPlan* r) { return !in_command(o, plan, *r); });
    std::vector<const RunPlan*> pending;
    remove_damaged_results(o.out, o.log, mine);
    for (const auto* r : mine)
        if (!fs::exists(fs::path(o.out) / r->rundir / "result.json", ec)) pending.push_back(r);
    summary.runs_in_shard = mine.size();
    announce(o, plan, mine.size(), pending.size());

    Result<bool> failure = true;
    const int jobs = std::min<int>(std::max(1, o.threads), static_cast<int>(pending.size()));
    if (jobs > 1 && !o.worker_command.empty()) {
        failure = train_in_workers(o, plan, mine, pending, jobs);
        for (const auto* r : pending)
            if (fs::exists(fs::path(o.out) / r->rundir / "result.json", ec)) ++summary.runs_trained;
        summary.runs_skipped = mine.size() - pending.size();
    } else {
        const RunSettings settings{o.out, o.device, o.log, o.on_progress};
        StateTracker tracker(o.on_state, mine.size() - pending.size(), mine.size());
        TrainCounts counts;
        failure = train_here(*pr, mine, settings, tracker, "", o.max_runs, counts);
        summary.runs_trained = counts.trained;
        summary.runs_skipped = counts.skipped;
    }

    // A Ctrl-C that stopped a run at a step (base/stop.hh, exit 130) ends the command at once: the
    // rerun writes the report.
    const bool stopped = !failure.ok() && failure.error().exit_code == 130;
    // Runs that pass both tests of a predicted failure are asked about their family past the test
    // lengths before the report judges them (docs/PROTOCOL.md "Verdict", rule 5).
    if (!stopped) {
        auto probed = probe_runs(plan, o.out, mine, o.device, o.log);
        if (!probed.ok()) return probed.error();
    }
    if (o.write_report && !stopped) {
        auto runs = load_runs(plan, o.out);
        if (!runs.ok()) return runs.error();
        auto rep = write_report(plan, *runs, o.out);
        if (!rep.ok()) return rep.error();
        summary.report = std::move(rep).value();
    }
    if (!failure.ok()) return failure.error();
    return summary;
}

Result<bool> check_verify_options(const VerifyOptions& options) {
    return check_options(options);
}

Result<std::vector<automata::Language>> load_languages(const std::vector<automata::LanguageSpec>& specs) {
    std::vector<automata::Language> out;
    out.reserve(specs.size());
    for (const auto& spec : specs) {
        auto lang = automata::load_language(spec);
        if (!lang.ok()) return lang.error();
        out.push_back(std::move(lang).value());
    }
    return out;
}

}  // namespace ltlkit::neural::verify
