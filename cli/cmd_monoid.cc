// `ltlkit monoid FORMULA | --regex R | --dfa FILE`: the syntactic monoid (transition monoid of the
// minimal DFA): its elements by shortest word, idempotents, Green's classes and egg-box diagrams.
#include <iostream>
#include <sstream>
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
    std::string input;
};

// The monoid of one language, as text or (one) JSON object.
std::string render(const automata::Language& L, const MonoidArgs& args) {
    SemigroupOptions o;
    o.max_elements = args.max_elements;
    o.monoid = true;
    TransitionSemigroup m = take(TransitionSemigroup::of_dfa(L.dfa, o));
    GreenClasses g = green_classes(m);
    const auto& A = L.dfa.alphabet;
    if (args.json) {
        nlohmann::ordered_json j;
        j["alphabet"] = A;
        j["alphabet_inferred"] = alphabet_inferred(L);
        if (!args.input.empty()) j["input"] = L.spec.text;
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
        if (args.eggbox) j["eggbox"] = egg_box(m, g, A);
        return j.dump(args.input.empty() ? 2 : -1) + "\n";
    }
    std::ostringstream out;
    out << "syntactic monoid of " << L.spec.name << ": " << m.size() << " elements, " << m.idempotents().size()
        << " idempotents; " << g.num_r << " R-, " << g.num_l << " L-, " << g.num_j << " J-, " << g.num_h << " H-classes\n";
    for (Element e = 0; e < m.size(); ++e) {
        out << "  " << element_name(m, e, A) << (m.is_idempotent(e) ? " *" : "  ") << "  [";
        for (std::size_t q = 0; q < m.degree(); ++q) out << (q ? " " : "") << m.image(e, automata::State(q));
        out << "]\n";
    }
    if (args.eggbox) out << "\n" << egg_box(m, g, A);
    return out.str();
}

LTLKIT_COMMAND(CommandDef{
    "monoid",
    "Print the syntactic monoid of a language: elements, idempotents, Green's classes, egg-box diagrams",
    [](CLI::App& app) -> Runner {
        auto a = std::make_shared<MonoidArgs>();
        add_language_options(app, a->lang);
        app.add_option("--max-elements", a->max_elements, "Stop with exit code 3 above this many elements");
        app.add_flag("--eggbox", a->eggbox, "Print the egg-box diagram of every D-class");
        app.add_flag("--json", a->json,
                     "Print one JSON object (alphabet, alphabet_inferred, states, size, elements, ...); with "
                     "--input, one object per line");
        app.add_option("--input", a->input,
                       "Read formulas from FILE ('-' = stdin), one per line ('#' and blank lines skipped); the "
                       "monoids follow in order");
        app.footer("Examples:\n  ltlkit monoid 'P(b & Y a)' --alphabet a,b --eggbox\n"
                   "  ltlkit monoid --regex '(ab)*' --alphabet a,b --json\n"
                   "  printf 'Y a\\nH a\\n' | ltlkit monoid --input - --alphabet a,b");
        return [a] {
            std::string out;
            const std::vector<automata::Language> langs = load_languages(a->lang, a->input);
            for (std::size_t i = 0; i < langs.size(); ++i) {
                if (i && !a->json) out += "\n";
                out += render(langs[i], *a);
            }
            write_stdout(out);
            return 0;
        };
    }});


}  // namespace
}  // namespace ltlkit::cli
