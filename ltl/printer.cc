// Printer with the minimal parentheses of SPEC §2's precedence table, so that parsing the output
// yields the same hash-consed node (associativity included: a -> b -> c, (a -> b) -> c).
#include "ltl/printer.hh"

namespace ltlkit::ltl {

namespace {

// Precedence levels of SPEC §2 (higher binds tighter).
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

void print(Formula f, const Spelling& s, std::string& out);

void print_operand(Formula f, int min_level, const Spelling& s, std::string& out) {
    if (level(f.op()) < min_level) {
        out += '(';
        print(f, s, out);
        out += ')';
    } else {
        print(f, s, out);
    }
}

void print(Formula f, const Spelling& s, std::string& out) {
    const Op op = f.op();
    const int lv = level(op);
    switch (op) {
        case Op::True: out += s.tt; return;
        case Op::False: out += s.ff; return;
        case Op::Atom: out += f.name(); return;
        case Op::Not: case Op::Past: case Op::Yesterday: case Op::BoundedYesterday:
        case Op::Historically: {
            if (op == Op::Not) out += s.neg;
            else if (op == Op::Past) out += "P ";
            else if (op == Op::Yesterday) out += "Y ";
            else if (op == Op::Historically) out += "H ";
            else out += s.yleq + std::to_string(f.k()) + " ";
            print_operand(f.child(0), lv, s, out);  // prefix operand: another prefix or an atom
            return;
        }
        default: break;
    }
    // Binary: left-assoc (<->, |, &, S) keeps a same-level left child bare; right-assoc (->) keeps
    // a same-level right child bare.
    const bool right_assoc = op == Op::Implies;
    const char* sym = op == Op::Iff ? s.iff : op == Op::Implies ? s.impl : op == Op::Or ? s.disj
                    : op == Op::And ? s.conj : " S ";
    print_operand(f.child(0), right_assoc ? lv + 1 : lv, s, out);
    out += sym;
    print_operand(f.child(1), right_assoc ? lv : lv + 1, s, out);
}

}  // namespace

std::string to_string(Formula f) {
    std::string out;
    if (!f.is_null()) print(f, kAscii, out);
    return out;
}

std::string to_unicode(Formula f) {
    std::string out;
    if (!f.is_null()) print(f, kUnicode, out);
    return out;
}

}  // namespace ltlkit::ltl
