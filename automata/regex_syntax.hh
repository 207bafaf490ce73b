// The syntax of ltlkit's extended regular expressions (the grammar is in automata/regex.cc's header
// comment and docs/SYNTAX.md): the tree the parser builds, shared by the derivative compiler, the
// compositional compiler and the reference matcher of regex.cc. Internal to automata/.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "automata/dfa.hh"
#include "base/error.hh"

namespace ltlkit::automata::regex_syntax {

enum class Kind : std::uint8_t { Empty, Eps, Sym, Any, Concat, Or, And, Not, Star, Plus, Opt };

struct Ast {
    Kind kind;
    Symbol sym = 0;
    std::vector<std::unique_ptr<Ast>> kids;
};
using AstPtr = std::unique_ptr<Ast>;

struct Parsed {
    AstPtr ast;
    std::vector<std::string> alphabet;
};

// The tree of `regex` and its alphabet (the given one, or the sorted letters used when it is empty);
// errors are one line naming the position.
Result<Parsed> parse_regex(const std::string& regex, const std::vector<std::string>& alphabet);

}  // namespace ltlkit::automata::regex_syntax
