// Fuzz target: extended regex parser and derivative construction; small cases are checked
// against the backtracking reference matcher.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "automata/regex.hh"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace ltlkit;
    if (size > 512) return 0;
    std::string text(reinterpret_cast<const char*>(data), size);
    const std::vector<std::string> alphabet{"a", "b"};
    auto dfa = automata::compile_regex(text, alphabet, 5000);
    (void)automata::compile_regex(text, {}, 5000);
    if (!dfa.ok() || size > 24) return 0;
    automata::Word w;
    for (std::size_t len = 0; len <= 3; ++len) {
        for (std::size_t code = 0; code < (std::size_t{1} << len); ++code) {
            w.assign(len, 0);
            for (std::size_t i = 0; i < len; ++i) w[i] = (code >> i) & 1;
            auto ref = automata::regex_matches_reference(text, alphabet, w);
            if (ref.ok() && ref.value() != dfa->accepts(w)) std::abort();
        }
    }
    return 0;
}
