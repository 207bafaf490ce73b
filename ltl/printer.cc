// Printer with the minimal parentheses of docs/SYNTAX.md §2's precedence table, so that parsing the output
// yields the same hash-consed node (associativity included: a -> b -> c, (a -> b) -> c).
// Iterative (explicit stack), so long operator chains cannot overflow the call stack.
#include "ltl/printer.hh"

#include <variant>
#include <vector>

namespace ltlkit::ltl {

namespace {

// Precedence levels of docs/SYNTAX.md §2 (higher binds tighter).
int level(Op op) {
    switch (op) {
        case Op::Iff: return 1;
        case Op::Implies: return 2;
        case Op::Or: return 3;
        case Op::And: return 4;
        case Op::Since: return 5;
        case Op::Not: case Op::Past: case Op::Yesterday: case Op::BoundedYesterday:
        case Op::Historically: return 6;
        default: return 7;  // atoms, true, false
    }
}

struct Spelling {
    const char *tt, *ff, *neg, *conj, *disj, *impl, *iff, *yleq;
};
constexpr Spelling kAscii{"true", "false", "!", " & ", " | ", " -> ", " <-> ", "Y<="};
constexpr Spelling kUnicode{"\u22A4", "\u22A5", "\u00AC", " \u2227 ", " \u2228 ", " \u2192 ", " \u2194 ", "Y\u2264"};

struct Operand {
    Formula f;
    int min_level;  // parenthesize when f binds looser than this
};
using Task = std::variant<Operand, const char*, std::string>;

std::string print(Formula root, const Spelling& s) {
    std::string out;
    std::vector<Task> stack;
    stack.emplace_back(Operand{root, 0});
    while (!stack.empty()) {
        Task task = std::move(stack.back());
        stack.pop_back();
        if (auto* text = std::get_if<const char*>(&task)) {
            out += *text;
            continue;
        }
        if (auto* str = std::get_if<std::string>(&task)) {
            out += *str;
            continue;
        }
        const auto [f, min_level] = std::get<Operand>(task);
        const Op op = f.op();
        const int lv = level(op);
        // Tasks are pushed in reverse order of output.
        const bool parens = lv < min_level;
        if (parens) stack.emplace_back(")");
        switch (op) {
            case Op::True: stack.emplace_back(s.tt); break;
            case Op::False: stack.emplace_back(s.ff); break;
            case Op::Atom: stack.emplace_back(f.name()); break;
            case Op::Not: case Op::Past: case Op::Yesterday: case Op::BoundedYesterday:
            case Op::Historically:
                stack.emplace_back(Operand{f.child(0), lv});  // another prefix or an atom stays bare
                if (op == Op::Not) stack.emplace_back(s.neg);
                else if (op == Op::Past) stack.emplace_back("P ");
                else if (op == Op::Yesterday) stack.emplace_back("Y ");
                else if (op == Op::Historically) stack.emplace_back("H ");
                else stack.emplace_back(std::string(s.yleq) + std::to_string(f.k()) + " ");
                break;
            default: {
                // Left-assoc (<->, |, &, S) keeps a same-level left child bare; right-assoc (->)
                // keeps a same-level right child bare.
                const bool right_assoc = op == Op::Implies;
                const char* sym = op == Op::Iff ? s.iff : op == Op::Implies ? s.impl : op == Op::Or ? s.disj
                                : op == Op::And ? s.conj : " S ";
                stack.emplace_back(Operand{f.child(1), right_assoc ? lv : lv + 1});
                stack.emplace_back(sym);
                stack.emplace_back(Operand{f.child(0), right_assoc ? lv + 1 : lv});
                break;
            }
        }
        if (parens) stack.emplace_back("(");
    }
    return out;
}

}  // namespace

std::string to_string(Formula f) { return f.is_null() ? std::string() : print(f, kAscii); }

std::string to_unicode(Formula f) { return f.is_null() ? std::string() : print(f, kUnicode); }

}  // namespace ltlkit::ltl
