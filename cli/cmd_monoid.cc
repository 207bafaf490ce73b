// `ltlkit monoid FORMULA | --regex R | --dfa FILE`: the syntactic monoid (transition monoid of the
// minimal DFA): its elements by shortest word, idempotents, Green's classes and egg-box diagrams.
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "automata/algebra/green.hh"
#include "automata/algebra/semigroup.hh"
#include "cli/command.hh"
#include "cli/common.hh"

namespace ltlkit::cli {
namespace {

using namespace automata::algebra;

struct MonoidArgs {
    LanguageArgs lang;
    std::size_t max_elements = 1'000'000;
    bool eggbox = false;
    bool json = false;
};

LTLKIT_COMMAND(CommandDef{
    "monoid",
    "Print the syntactic monoid of a language: elements, idempotents, Green's classes, egg-box diagrams",
    [](CLI::App& app) -> Runner {
        auto a = std::make_shared<MonoidArgs>();
        add_language_options(app, a->lang);
        app.add_option("--max-elements", a->max_elements, "Stop with exit code 3 above this many elements");
        app.add_flag("--eggbox", a->eggbox, "Print the egg-box diagram of every D-class");
        app.add_flag("--json", a->json, "Print one JSON object");
        app.footer("Examples:\n  ltlkit monoid 'P(b & Y a)' --eggbox\n  ltlkit monoid --regex '(ab)*' --json");
        return [a] {
            automata::Language L = load_language_or_fail(a->lang);
            SemigroupOptions o;
            o.max_elements = a->max_elements;
            o.monoid = true;
            TransitionSemigroup m = take(TransitionSemigroup::of_dfa(L.dfa, o));
            GreenClasses g = green_classes(m);
            const auto& A = L.dfa.alphabet;
            if (a->json) {
                nlohmann::ordered_json j;
                j["alphabet"] = A;
                j["states"] = L.dfa.num_states();
                j["size"] = m.size();
                auto elems = nlohmann::ordered_json::array();
                for (Element e = 0; e < m.size(); ++e) {
                    nlohmann::ordered_json x;
                    x["word"] = automata::format_word(A, m.word(e));
                    x["transformation"] = m.transformation(e);
                    x["idempotent"] = m.is_idempotent(e);
                    x["r"] = g.r[e];
                    x["l"] = g.l[e];
                    x["j"] = g.j[e];
                    x["h"] = g.h[e];
                    elems.push_back(x);
                }
                j["elements"] = elems;
                j["idempotents"] = m.idempotents().size();
                j["r_classes"] = g.num_r;
                j["l_classes"] = g.num_l;
                j["j_classes"] = g.num_j;
                j["h_classes"] = g.num_h;
                if (a->eggbox) j["eggbox"] = egg_box(m, g, A);
                std::cout << j.dump(2) << "\n";
                return 0;
            }
            std::cout << "syntactic monoid of " << L.spec.name << ": " << m.size() << " elements, "
                      << m.idempotents().size() << " idempotents; " << g.num_r << " R-, " << g.num_l << " L-, " << g.num_j
                      << " J-, " << g.num_h << " H-classes\n";
            for (Element e = 0; e < m.size(); ++e) {
                std::cout << "  " << element_name(m, e, A) << (m.is_idempotent(e) ? " *" : "  ") << "  [";
                for (std::size_t q = 0; q < m.degree(); ++q) std::cout << (q ? " " : "") << m.image(e, automata::State(q));
                std::cout << "]\n";
            }
            if (a->eggbox) std::cout << "\n" << egg_box(m, g, A);
            return 0;
        };
    }});

}  // namespace
}  // namespace ltlkit::cli
