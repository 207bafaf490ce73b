// `ltlkit check-certificate FILE`: re-verifies a certificate (docs/SYNTAX.md §12) independently of how it was
// found. Exit 0 when it holds, 1 when it does not, 2 on bad input.
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "automata/algebra/classify.hh"
#include "base/file.hh"
#include "cli/command.hh"

namespace ltlkit::cli {
namespace {

struct CheckArgs {
    std::string file;
    bool json = false;
};

LTLKIT_COMMAND(CommandDef{
    "check-certificate",
    "Re-verify a class certificate (exit 0 holds, 1 does not hold, 2 bad input)",
    [](CLI::App& app) -> Runner {
        auto a = std::make_shared<CheckArgs>();
        app.add_option("FILE", a->file, "Certificate JSON written by `ltlkit classify --certificates`")->required();
        app.add_flag("--json", a->json, "Print one JSON object: file, class, member, holds, explanation");
        app.footer("Examples:\n  ltlkit classify 'Y a' --alphabet a,b --certificates c/ && ltlkit check-certificate c/definite.json\n"
                   "  ltlkit check-certificate c/r_trivial.json --json");
        return [a] {
            std::string text = take(read_file(a->file));
            std::string why;
            auto r = automata::algebra::check_certificate_json(text, &why);
            if (!r) {
                Error e = r.error();
                if (e.origin.empty()) e.origin = a->file;
                fail(e);
            }
            if (a->json) {
                // The certificate already parsed, so its class and claim are there to echo.
                const auto cert = nlohmann::json::parse(text, nullptr, false);
                nlohmann::ordered_json j;
                j["file"] = a->file;
                j["class"] = cert.is_object() && cert.contains("class") ? cert["class"] : nlohmann::json(nullptr);
                j["member"] = cert.is_object() && cert.contains("member") ? cert["member"] : nlohmann::json(nullptr);
                j["holds"] = *r;
                j["explanation"] = why;
                std::cout << j.dump() << "\n";
            } else {
                std::cout << (*r ? "holds: " : "does not hold: ") << why << "\n";
            }
            return *r ? 0 : 1;
        };
    }});

}  // namespace
}  // namespace ltlkit::cli
