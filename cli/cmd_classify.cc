// `ltlkit classify FORMULA | --regex R | --dfa FILE`: the classes of SPEC §4 with one line of
// evidence each, the window answers, the predictions per architecture (SPEC §7), and optionally
// every certificate (SPEC §6) as a file.
#include <filesystem>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "automata/algebra/classes.hh"
#include "automata/algebra/classify.hh"
#include "automata/io.hh"
#include "cli/command.hh"
#include "cli/common.hh"

namespace ltlkit::cli {
namespace {

using namespace automata::algebra;

struct ClassifyArgs {
    LanguageArgs lang;
    unsigned max_k = 4;
    std::size_t max_elements = 1'000'000;
    std::size_t formula_cap = 200'000;
    std::size_t window_budget = 200'000;
    unsigned probe_depth = 8;
    std::size_t probe_states = 500'000;
    double window_time = 4;
    std::size_t window_memory_mb = 400;
    bool json = false;
    std::string certificates;
};

std::vector<std::string> archs(unsigned max_k) {
    std::vector<std::string> a{"global"};
    for (unsigned k = 1; k <= max_k; ++k) a.push_back("local-" + std::to_string(k));
    for (unsigned k = 1; k <= max_k; ++k) a.push_back("hybrid-" + std::to_string(k));
    return a;
}

std::string file_name(const std::string& id) {
    std::string s = id;
    for (char& c : s)
        if (c == ':') c = '-';
    return s + ".json";
}

LTLKIT_COMMAND(CommandDef{
    "classify",
    "Decide the classes of SPEC §4 (with certificates) and predict which attention architectures recognize the language",
    [](CLI::App& app) -> Runner {
        auto a = std::make_shared<ClassifyArgs>();
        add_language_options(app, a->lang);
        app.add_option("--max-k", a->max_k, "Largest window k for local_k / hybrid_k and the predictions (default 4)")
            ->check(CLI::Range(1u, 64u));
        app.add_option("--max-elements", a->max_elements,
                       "Largest syntactic semigroup enumerated (classes decided only through it are null above)");
        app.add_option("--formula-cap", a->formula_cap, "Member formulas of larger tree size are omitted from certificates");
        app.add_option("--window-budget", a->window_budget,
                       "Search steps per local_k / hybrid_k question before the depth probe (default 200000)");
        app.add_option("--probe-depth", a->probe_depth,
                       "Depths 1..D of the exact depth probe behind an unknown window answer (docs/WINDOWS.md §4; default 8)")
            ->check(CLI::Range(0u, 64u));
        app.add_option("--probe-states", a->probe_states,
                       "Product states the depth probe explores per depth (default 500000)");
        app.add_option("--window-time", a->window_time,
                       "Wall seconds shared by the local_k / hybrid_k questions, each an equal share of what is left; a "
                       "question out of time answers unknown and says so (default 4; 0 = no limit)")
            ->check(CLI::Range(0.0, 1e6));
        app.add_option("--window-memory", a->window_memory_mb,
                       "Resident memory (MiB) of the process beyond which a local_k / hybrid_k question stops and answers "
                       "unknown (default 400; 0 = no limit)")
            ->check(CLI::Range(std::size_t(0), std::size_t(1) << 30));
        app.add_flag("--json", a->json, "Print one JSON object (SPEC §4 keys)");
        app.add_option("--certificates", a->certificates, "Write one certificate file per class into DIR");
        app.footer("Examples:\n  ltlkit classify 'P(b & Y a)'\n  ltlkit classify --regex '(ab)*' --json\n"
                   "  ltlkit classify --dfa lang.json --certificates certs/");
        return [a] {
            automata::Language L = load_language_or_fail(a->lang);
            ClassifyOptions o;
            o.max_k = a->max_k;
            o.max_elements = a->max_elements;
            o.formula_cap = a->formula_cap;
            o.window_budget = a->window_budget;
            o.probe_depth = a->probe_depth;
            o.probe_states = a->probe_states;
            o.window_time_s = a->window_time;
            o.window_memory_bytes = a->window_memory_mb << 20;
            if (L.formula) o.source = *L.formula;
            o.progress = [](const std::string& question, double seconds, std::size_t rss) {
                std::cerr << "ltlkit: classify: " << question << ": still searching after " << int(seconds) << " s, "
                          << (rss >> 20) << " MiB resident\n";
            };
            Classification c = take(classify(L.dfa, o));
            if (!a->certificates.empty()) {
                std::error_code ec;
                std::filesystem::create_directories(a->certificates, ec);
                if (ec) fail(a->certificates + ": cannot create folder: " + ec.message(), 4);
                for (const auto& [id, cert] : c.certificates) {
                    auto path = (std::filesystem::path(a->certificates) / file_name(id)).string();
                    take(automata::write_file_atomic(path, certificate_to_json(cert, L.dfa) + "\n"));
                }
            }
            if (a->json) {
                nlohmann::ordered_json j;
                j["alphabet"] = c.alphabet;
                j["fragment"] = L.fragment ? nlohmann::ordered_json(*L.fragment) : nlohmann::ordered_json(nullptr);
                j["states"] = c.states;
                nlohmann::ordered_json cls;
                for (const auto& row : class_table()) {
                    auto v = c.classes.at(row.id);
                    cls[row.id] = v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json(nullptr);
                }
                j["classes"] = cls;
                if (!c.null_reasons.empty()) {
                    // reasons for null classes ride along inside "certificates" (no extra top-level key)
                }
                j["definite_degree"] = c.definite_degree ? nlohmann::ordered_json(*c.definite_degree) : nlohmann::ordered_json(nullptr);
                nlohmann::ordered_json lk = nlohmann::ordered_json::object(), hk = nlohmann::ordered_json::object();
                for (const auto& [k, v] : c.local_k) lk[std::to_string(k)] = to_string(v);
                for (const auto& [k, v] : c.hybrid_k) hk[std::to_string(k)] = to_string(v);
                j["local_k"] = lk;
                j["hybrid_k"] = hk;
                nlohmann::ordered_json pred;
                for (const auto& arch : archs(a->max_k)) pred[arch] = to_string(predict(c, arch).prediction);
                j["predictions"] = pred;
                nlohmann::ordered_json certs = nlohmann::ordered_json::object();
                for (const auto& [id, cert] : c.certificates) certs[id] = nlohmann::ordered_json::parse(certificate_to_json(cert, L.dfa));
                for (const auto& [id, why] : c.null_reasons) certs[id] = {{"class", id}, {"member", nullptr}, {"reason", why}};
                j["certificates"] = certs;
                std::cout << j.dump(2) << "\n";
                return 0;
            }
            std::cout << "language: " << L.spec.name << "\n";
            std::cout << "alphabet: ";
            for (std::size_t i = 0; i < c.alphabet.size(); ++i) std::cout << (i ? "," : "") << c.alphabet[i];
            std::cout << "   fragment: " << (L.fragment ? *L.fragment : std::string("-")) << "   minimal DFA: " << c.states
                      << " states\n\n";
            for (const auto& row : class_table()) {
                auto v = c.classes.at(row.id);
                std::string mark = !v ? "?" : *v ? "✓" : "✗";
                std::string evidence;
                if (!v) evidence = c.null_reasons.at(row.id);
                else evidence = c.certificates.at(row.id).fact;
                std::string label = row.id;
                if (row.id == "definite" && c.definite_degree) label += " (degree " + std::to_string(*c.definite_degree) + ")";
                std::cout << "  " << mark << " " << label << std::string(label.size() < 30 ? 30 - label.size() : 1, ' ')
                          << evidence << "\n";
            }
            for (const auto& [k, v] : c.local_k)
                std::cout << "  " << (v == Answer::Yes ? "✓" : v == Answer::No ? "✗" : "?") << " local_k:" << k
                          << std::string(22, ' ') << c.certificates.at("local_k:" + std::to_string(k)).fact << "\n";
            for (const auto& [k, v] : c.hybrid_k)
                std::cout << "  " << (v == Answer::Yes ? "✓" : v == Answer::No ? "✗" : "?") << " hybrid_k:" << k
                          << std::string(21, ' ') << c.certificates.at("hybrid_k:" + std::to_string(k)).fact << "\n";
            std::cout << "\npredictions:\n";
            for (const auto& arch : archs(a->max_k)) {
                auto p = predict(c, arch);
                std::cout << "  " << arch << std::string(arch.size() < 12 ? 12 - arch.size() : 1, ' ') << to_string(p.prediction);
                if (p.witness) {
                    auto [u, v] = p.witness->at(std::max<std::size_t>(p.witness->r_min, 2));
                    std::cout << "   witness: " << automata::format_word(c.alphabet, u) << " / "
                              << automata::format_word(c.alphabet, v);
                }
                std::cout << "\n";
            }
            return 0;
        };
    }});

}  // namespace
}  // namespace ltlkit::cli
