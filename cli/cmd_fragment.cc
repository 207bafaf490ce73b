// `ltlkit fragment FORMULA`: the syntactic fragment of a formula (docs/SYNTAX.md §2).
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "cli/command.hh"
#include "cli/common.hh"
#include "ltl/fragment.hh"
#include "ltl/parser.hh"
#include "ltl/printer.hh"

namespace ltlkit::cli {
namespace {

struct FragmentArgs {
    std::string formula;
    std::string input;
    bool json = false;
};


std::string output_line(ltl::Formula f, bool json) {
    const std::string name = ltl::fragment_of(f).name();
    if (!json) return name;
    nlohmann::json j = {{"formula", ltl::to_string(f)}, {"fragment", name}};
    return j.dump();
}

LTLKIT_COMMAND(CommandDef{
    "fragment",
    "Print the syntactic fragment of a formula (LTL[P], LTL[Y], LTL[Y<=k], LTL[P,Y], LTL[P,Y<=k], "
    "LTL[S] or none)",
    [](CLI::App& app) -> Runner {
        auto a = std::make_shared<FragmentArgs>();
        app.add_option("FORMULA", a->formula, "Past-LTL formula (syntax: docs/SYNTAX.md), e.g. 'P(b & Y<=3 a)'");
        app.add_option("--input", a->input,
                       "Read formulas from FILE ('-' = stdin), one per line; '#' lines and blank lines "
                       "are skipped; one output line per formula");
        app.add_flag("--json", a->json, "Print {\"formula\": ..., \"fragment\": ...} (one object per line)");
        app.footer(
            "Examples:\n"
            "  ltlkit fragment 'P(b & Y<=3 a)'          # LTL[P,Y<=3]\n"
            "  ltlkit fragment --json 'a S b'           # {\"formula\":\"a S b\",\"fragment\":\"LTL[S]\"}\n"
            "  printf 'Y a\\nH a\\n' | ltlkit fragment --input -");
        return [a] {
            if (!a->formula.empty() && !a->input.empty()) fail("give either FORMULA or --input, not both");
            if (a->input.empty()) {
                if (a->formula.empty()) fail("no formula given: pass a FORMULA or --input FILE");
                ltl::Formula f = take(ltl::parse_formula(a->formula));
                std::cout << output_line(f, a->json) << "\n";
                return 0;
            }
            // Parse everything first, so that a bad line leaves no partial output.
            std::vector<ltl::Formula> formulas;
            const std::string origin = a->input == "-" ? "<stdin>" : a->input;
            for (const NumberedLine& line : read_numbered_lines(a->input)) {
                auto r = ltl::parse_formula(line.text);
                if (!r.ok()) {
                    Error e = r.error();
                    e.origin = origin;
                    e.line += line.number - 1;
                    fail(e);
                }
                formulas.push_back(r.value());
            }
            std::string out;
            for (ltl::Formula f : formulas) out += output_line(f, a->json) + "\n";
            std::cout << out;
            return 0;
        };
    }});

}  // namespace
}  // namespace ltlkit::cli
