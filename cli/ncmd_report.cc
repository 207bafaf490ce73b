// `ltlkit report DIR...`: merge verification folders (shards) into one report.
#ifdef LTLKIT_HAVE_ALGEBRA
#include <iostream>

#include "base/file.hh"
#include "cli/command.hh"
#include "neural/verify/report.hh"
#include "neural/verify/verdict.hh"

namespace ltlkit::cli {
namespace {

namespace nv = ltlkit::neural::verify;

struct ReportArgs {
    std::vector<std::string> dirs;
    std::string out;
    std::string published;
    bool json = false;
    bool legend = false, markdown = false;  // --legend [--markdown]: the summary's marks
};

LTLKIT_COMMAND(CommandDef{
    "report",
    "Merge verification output folders (shards) into one report; exit 1 when shards are missing (the report\n"
    "is written and names them).\n"
    "Example: ltlkit report results/shard-0 results/shard-1 --out results/all",
    [](CLI::App& app) -> Runner {
        auto a = std::make_shared<ReportArgs>();
        app.add_option("DIR", a->dirs, "Folders written by `ltlkit verify` (the same plan, e.g. its shards)");
        app.add_option("--out", a->out, "Where to write the merged report (default: the first DIR)");
        app.add_option("--published", a->published,
                       "Published numbers to show beside ours (TSV; default: those the verify run was given)");
        app.add_flag("--json", a->json, "Print verdicts.json on stdout");
        app.add_flag("--legend", a->legend,
                     "Print the summary table's marks and what each means (MARK<TAB>evidence<TAB>legend), then exit "
                     "(docs/PROTOCOL.md \"Verdict\" lists them)");
        app.add_flag("--markdown", a->markdown, "With --legend: as a Markdown table");
        return [a] {
            if (a->legend) {
                std::cout << nv::evidence_legend(a->markdown);
                return 0;
            }
            if (a->markdown) fail("--markdown goes with --legend");
            if (a->dirs.empty()) fail("DIR is required");
            const std::string out = a->out.empty() ? a->dirs.front() : a->out;
            std::optional<nv::Published> published;
            if (!a->published.empty()) published = take(nv::read_published(a->published));
            auto r = take(nv::merge_report(a->dirs, out, published));
            if (a->json) {
                std::cout << take(read_file(r.verdicts));
            } else {
                std::cout << r.summary << "(prediction→verdict successes/fitted runs; " << r.runs_found << " of "
                          << r.runs_planned << " runs finished)\n";
            }
            (a->json ? std::cerr : std::cout) << "Report: " << r.html << "\nTables: " << r.csv << ", " << r.tex << "\n"
                                              << r.evidence << "\n";
            // An incomplete merge is written (and names what is missing) but is not a success.
            for (const auto& m : r.missing) std::cerr << "ltlkit: missing: " << m << "\n";
            return r.missing.empty() ? 0 : 1;
        };
    }});

}  // namespace
}  // namespace ltlkit::cli
#endif
