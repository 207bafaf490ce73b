// plan.json (write and read): the plan of a verify run (plan.hh).
#include "neural/verify/plan.hh"

#include <nlohmann/json.hpp>

#include "automata/dfa_json.hh"
#include "base/checksum.hh"
#include "neural/verify/profiles.hh"

namespace ltlkit::neural::verify {

using nlohmann::json;

std::string RunPlan::label() const { return "seed" + std::to_string(seed_index) + "-lr" + format_lr(lr); }

std::string plan_to_json(const Plan& p) {
    json langs = json::array();
    for (const auto& l : p.languages) {
        json classes = json::object();
        for (const auto& [id, m] : l.classes) classes[id] = m ? json(*m) : json(nullptr);
        json archs = json::array();
        for (const auto& a : l.archs)
            archs.push_back({{"arch", to_string(a.arch)},
                             {"prediction", to_string(a.prediction)},
                             {"reason", a.reason},
                             {"witness", a.witness},
                             {"adversarial_words", a.adversarial_words},
                             {"adversarial_pairs", a.adversarial_pairs},
                             {"adversarial_forced_pairs", a.adversarial_forced_pairs},
                             {"adversarial_kind", a.adversarial_kind},
                             {"adversarial_note", a.adversarial_note},
                             {"ceiling_test_sample", a.ceiling_test_sample ? json(*a.ceiling_test_sample) : json(nullptr)}});
        langs.push_back({{"name", l.name},
                         {"dir", l.dir},
                         {"kind", l.kind},
                         {"text", l.text},
                         {"alphabet", l.alphabet},
                         {"dfa", l.dfa ? json::parse(automata::to_json(*l.dfa)) : json(nullptr)},
                         {"states", l.states},
                         {"fragment", l.fragment ? json(*l.fragment) : json(nullptr)},
                         {"classes", classes},
                         {"archs", archs},
                         {"test_words", l.test_words}});
    }
    json runs = json::array();
    for (const auto& r : p.runs)
        runs.push_back({{"index", r.index},
                        {"language", r.language},
                        {"arch", to_string(r.arch)},
                        {"seed_index", r.seed_index},
                        {"lr", r.lr},
                        {"seed", r.seed},
                        {"identity", r.identity},
                        {"rundir", r.rundir}});
    json j = {{"ltlkit_plan", 1},
              {"profile", p.profile},
              {"profile_note", p.profile_note},
              {"config", json::parse(config_to_json(p.base))},
              {"archs", [&] {
                   json names = json::array();
                   for (const auto& a : p.archs) names.push_back(to_string(a));
                   return names;
               }()},
              {"seeds", p.seeds},
              {"base_seed", p.base_seed},
              {"lrs", p.lrs},
              {"published", [&] {
                   if (!p.published) return json(nullptr);
                   json values = json::array();
                   for (const auto& v : p.published->values)
                       values.push_back({{"language", v.language}, {"arch", v.arch}, {"statistic", v.statistic},
                                         {"value", v.value}, {"source", v.source}});
                   return json{{"file", p.published->file},
                               {"test_distribution", p.published->test_distribution},
                               {"values", values}};
               }()},
              {"languages", langs},
              {"runs", runs}};
    if (!p.cells.empty()) j["cells"] = p.cells;
    return json_with_checksum(j.dump(), 1);
}

Result<Plan> plan_from_json(const std::string& text) {
    try {
        const json j = json::parse(text);
        if (!j.is_object() || !j.contains("ltlkit_plan")) return make_error("not a verify plan (plan.json)");
        Plan p;
        p.profile = j.at("profile").get<std::string>();
        p.profile_note = j.value("profile_note", "");
        auto base = config_from_json(j.at("config").dump());
        if (!base.ok()) return make_error("plan.json: " + base.error().message);
        p.base = *base;
        for (const auto& name : j.at("archs").get<std::vector<std::string>>()) {
            auto a = parse_architecture(name);
            if (!a.ok()) return make_error("plan.json: " + a.error().message);
            p.archs.push_back(*a);
        }
        p.seeds = j.at("seeds").get<int>();
        p.base_seed = j.at("base_seed").get<std::uint64_t>();
        p.lrs = j.at("lrs").get<std::vector<double>>();
        if (j.contains("cells")) p.cells = j.at("cells").get<std::vector<std::string>>();
        for (const auto& lj : j.at("languages")) {
            LanguagePlan l;
            l.name = lj.at("name").get<std::string>();
            l.dir = lj.at("dir").get<std::string>();
            l.kind = lj.value("kind", "");
            l.text = lj.value("text", "");
            l.alphabet = lj.at("alphabet").get<std::vector<std::string>>();
            if (!lj.at("dfa").is_null()) {
                auto dfa = automata::dfa_from_json(lj.at("dfa").dump());
                if (!dfa.ok()) return make_error("plan.json: language '" + l.name + "': " + dfa.error().message);
                l.dfa = std::move(dfa).value();
            }
            l.states = lj.value("states", std::size_t{0});
            if (lj.contains("fragment") && !lj.at("fragment").is_null())
                l.fragment = lj.at("fragment").get<std::string>();
            for (const auto& [id, m] : lj.at("classes").items())
                l.classes[id] = m.is_null() ? std::nullopt : std::optional<bool>(m.get<bool>());
            for (const auto& aj : lj.at("archs")) {
                ArchPlan a;
                auto arch = parse_architecture(aj.at("arch").get<std::string>());
                if (!arch.ok()) return make_error("plan.json: " + arch.error().message);
                a.arch = *arch;
                auto e = parse_prediction(aj.at("prediction").get<std::string>());
                if (!e.ok()) return e.error();
                a.prediction = *e;
                a.reason = aj.value("reason", "");
                a.witness = aj.value("witness", "");
                a.adversarial_words = aj.value("adversarial_words", std::size_t{0});
                a.adversarial_pairs = aj.value("adversarial_pairs", std::size_t{0});
                a.adversarial_forced_pairs = aj.value("adversarial_forced_pairs", std::size_t{0});
                a.adversarial_kind = aj.value("adversarial_kind", "");
                a.adversarial_note = aj.value("adversarial_note", "");
                if (aj.contains("ceiling_test_sample") && !aj.at("ceiling_test_sample").is_null())
                    a.ceiling_test_sample = aj.at("ceiling_test_sample").get<double>();
                l.archs.push_back(a);
            }
            l.test_words = lj.value("test_words", std::size_t{0});
            p.languages.push_back(std::move(l));
        }
        if (j.contains("published") && !j.at("published").is_null()) {
            Published pub;
            pub.file = j.at("published").at("file").get<std::string>();
            pub.test_distribution = j.at("published").value("test_distribution", "");
            for (const auto& v : j.at("published").at("values"))
                pub.values.push_back({v.at("language").get<std::string>(), v.at("arch").get<std::string>(),
                                      v.at("statistic").get<std::string>(), v.at("source").get<std::string>(),
                                      v.at("value").get<double>()});
            p.published = std::move(pub);
        }
        for (const auto& rj : j.at("runs")) {
            RunPlan r;
            r.index = rj.at("index").get<std::size_t>();
            r.language = rj.at("language").get<std::string>();
            auto arch = parse_architecture(rj.at("arch").get<std::string>());
            if (!arch.ok()) return make_error("plan.json: " + arch.error().message);
            r.arch = *arch;
            r.seed_index = rj.at("seed_index").get<int>();
            r.lr = rj.at("lr").get<double>();
            r.seed = rj.at("seed").get<std::uint64_t>();
            if (!rj.contains("identity"))
                return make_error("plan.json lists a run without its identity (written by an older ltlkit); "
                                  "rerun `ltlkit verify` into a new --out");
            r.identity = rj.at("identity").get<std::string>();
            r.rundir = rj.at("rundir").get<std::string>();
            p.runs.push_back(std::move(r));
        }
        return p;
    } catch (const std::exception& e) {
        return make_error(std::string("malformed plan.json: ") + e.what());
    }
}

}  // namespace ltlkit::neural::verify
