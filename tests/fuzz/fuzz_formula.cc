// Fuzz target: formula parser, printer round-trip, fragment, and (for small formulas) the monitor
// construction against the direct semantics on a few short words.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "automata/monitor.hh"
#include "ltl/fragment.hh"
#include "ltl/parser.hh"
#include "ltl/printer.hh"
#include "ltl/semantics.hh"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace ltlkit;
    if (size > 4096) return 0;
    std::string text(reinterpret_cast<const char*>(data), size);
    auto parsed = ltl::parse_formula(text);
    if (!parsed.ok()) {
        (void)parsed.error().render();
        return 0;
    }
    ltl::Formula f = parsed.value();
    auto again = ltl::parse_formula(ltl::to_string(f));
    if (!again.ok() || !(again.value() == f)) std::abort();  // printer must round-trip
    auto uni = ltl::parse_formula(ltl::to_unicode(f));
    if (!uni.ok() || !(uni.value() == f)) std::abort();
    (void)ltl::fragment_of(f).name();
    if (ltl::dag_size(f) > 40) return 0;
    auto alphabet = automata::formula_alphabet(f, {"a", "b"});
    if (!alphabet.ok()) alphabet = automata::formula_alphabet(f, {});
    if (!alphabet.ok() || alphabet->size() > 3) return 0;
    automata::CompileOptions options;
    options.max_states = 20000;
    auto dfa = automata::compile(f, *alphabet, options);
    if (!dfa.ok()) return 0;
    // DFA vs semantics on all words up to length 4.
    const auto& sigma = *alphabet;
    automata::Word w;
    for (std::size_t len = 0; len <= 4; ++len) {
        std::size_t total = 1;
        for (std::size_t i = 0; i < len; ++i) total *= sigma.size();
        for (std::size_t code = 0; code < total; ++code) {
            w.assign(len, 0);
            std::size_t c = code;
            for (std::size_t i = 0; i < len; ++i, c /= sigma.size()) w[i] = c % sigma.size();
            if (dfa->accepts(w) != ltl::holds_at_eos(f, automata::word_symbols(sigma, w))) std::abort();
        }
    }
    return 0;
}
