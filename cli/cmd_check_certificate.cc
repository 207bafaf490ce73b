// `ltlkit check-certificate FILE`: re-verifies a certificate (SPEC §6) independently of how it was
// found. Exit 0 when it holds, 1 when it does not, 2 on bad input.
#include <iostream>
#include <memory>

#include "automata/algebra/classify.hh"
#include "automata/io.hh"
#include "cli/command.hh"

namespace ltlkit::cli {
namespace {

struct CheckArgs {
    std::string file;
};

LTLKIT_COMMAND(CommandDef{
    "check-certificate",
    "Re-verify a class certificate (exit 0 holds, 1 does not hold, 2 bad input)",
    [](CLI::App& app) -> Runner {
        auto a = std::make_shared<CheckArgs>();
        app.add_option("FILE", a->file, "Certificate JSON written by `ltlkit classify --certificates`")->required();
        app.footer("Example:\n  ltlkit classify 'Y a' --certificates c/ && ltlkit check-certificate c/definite.json");
        return [a] {
            std::string text = take(automata::read_file(a->file));
            std::string why;
            auto r = automata::algebra::check_certificate_json(text, &why);
            if (!r) {
                Error e = r.error();
                if (e.origin.empty()) e.origin = a->file;
                fail(e);
            }
            std::cout << (*r ? "holds: " : "does not hold: ") << why << "\n";
            return *r ? 0 : 1;
        };
    }});

}  // namespace
}  // namespace ltlkit::cli
