// Parser for the past-LTL syntax of docs/SYNTAX.md §2: a lexer, then operator precedence with explicit
// stacks (shunting-yard), one precedence level per row of the table. Columns are counted in
// characters (UTF-8 code points), 1-based.
#include "ltl/parser.hh"

#include <cctype>

#include <cstdint>
#include <string>
#include <vector>

namespace ltlkit::ltl {

namespace {

enum class Tok {
    Atom, True, False, Not, And, Or, Implies, Iff, Since, Past, Yesterday, BoundedYesterday,
    Historically, LParen, RParen, End
};

struct Token {
    Tok kind = Tok::End;
    std::string text;  // as written, for messages
    int line = 1;
    int column = 1;
    unsigned k = 0;  // BoundedYesterday
};

std::string describe(const Token& t) {
    switch (t.kind) {
        case Tok::End: return "end of input";
        case Tok::Atom: return "symbol '" + t.text + "'";
        default: return "'" + t.text + "'";
    }
}

// Operators of other temporal logics (Spot, NuSMV, LTLf) that users type: what ltlkit writes
// instead, or that the operator looks at the future, which ltlkit's past-time formulas never do.
const char* foreign_operator(char c) {
    switch (c) {
        case 'O': return "ltlkit writes 'once' as P (strict: 'P a' holds when a held at an earlier position; 'O a' is 'a | P a')";
        case 'Z': return "ltlkit writes weak yesterday 'Z a' as '!Y !a'";
        case 'T': return "ltlkit has no trigger operator: write 'a T b' as 'b & (a | !(!a S !b))'";
        case 'X': return "a future-time operator (next) that ltlkit does not have: formulas are evaluated at the end of the word and look back; the past counterpart is Y (yesterday)";
        case 'F': return "a future-time operator (eventually) that ltlkit does not have: formulas are evaluated at the end of the word and look back; the past counterpart is P (once)";
        case 'G': return "a future-time operator (globally) that ltlkit does not have: formulas are evaluated at the end of the word and look back; the past counterpart is H (historically)";
        case 'U': return "a future-time operator (until) that ltlkit does not have: formulas are evaluated at the end of the word and look back; the past counterpart is S (since)";
        case 'W': return "a future-time operator (weak until) that ltlkit does not have; the past counterpart, weak since, is '(a S b) | H a'";
        case 'R': return "a future-time operator (release) that ltlkit does not have";
        case 'M': return "a future-time operator (strong release) that ltlkit does not have";
        default: return nullptr;
    }
}

class Parser {
public:
    explicit Parser(std::string_view text) : src_(text) {}

    Result<Formula> run() {
        if (!lex()) return error_;
        if (tokens_.front().kind == Tok::End)
            return err(tokens_.front(), "expected a formula, found an empty input");
        Formula f = parse();
        if (failed_) return error_;
        return f;
    }

private:
    std::string_view src_;
    std::size_t pos_ = 0;  // byte offset while lexing
    int line_ = 1, col_ = 1;
    std::vector<Token> tokens_;
    bool failed_ = false;
    Error error_;

    // --- errors

    std::string line_text(int line) const {
        int l = 1;
        std::size_t start = 0;
        for (std::size_t i = 0; i < src_.size() && l < line; ++i)
            if (src_[i] == '\n') ++l, start = i + 1;
        if (l < line) return "";
        std::size_t end = src_.find('\n', start);
        std::string s(src_.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
        if (!s.empty() && s.back() == '\r') s.pop_back();
        return s;
    }

    Error make(int line, int column, std::string message) {
        Error e;
        e.message = std::move(message);
        e.line = line;
        e.column = column;
        e.source_line = line_text(line);
        return e;
    }

    Error err(const Token& t, std::string message) {
        if (!failed_) {
            failed_ = true;
            error_ = make(t.line, t.column, std::move(message));
        }
        return error_;
    }

    // --- lexer

    // Length in bytes of the UTF-8 sequence starting at byte i (1 for invalid bytes).
    std::size_t utf8_len(std::size_t i) const {
        unsigned char c = static_cast<unsigned char>(src_[i]);
        std::size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 1;
        if (i + n > src_.size()) return 1;
        for (std::size_t j = 1; j < n; ++j)
            if ((static_cast<unsigned char>(src_[i + j]) & 0xC0) != 0x80) return 1;
        return n;
    }

    bool starts(std::string_view s) const { return src_.substr(pos_, s.size()) == s; }

    // Advances over n bytes that form `chars` characters on the current line.
    void advance(std::size_t bytes, int chars = 1) {
        pos_ += bytes;
        col_ += chars;
    }

    void skip_space_and_comments() {
        while (pos_ < src_.size()) {
            char c = src_[pos_];
            if (c == '\n') {
                ++pos_, ++line_, col_ = 1;
            } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
                advance(1);
            } else if (c == '#') {
                while (pos_ < src_.size() && src_[pos_] != '\n') advance(utf8_len(pos_));
            } else {
                break;
            }
        }
    }

    bool lex_error(int line, int column, std::string message) {
        failed_ = true;
        error_ = make(line, column, std::move(message));
        return false;
    }

    bool lex() {
        for (;;) {
            skip_space_and_comments();
            Token t;
            t.line = line_;
            t.column = col_;
            if (pos_ >= src_.size()) {
                t.kind = Tok::End;
                tokens_.push_back(t);
                return true;
            }
            auto simple = [&](Tok kind, std::string_view spelling, std::string shown) {
                t.kind = kind;
                t.text = std::move(shown);
                advance(spelling.size());
            };
            char c = src_[pos_];
            if (c >= 'a' && c <= 'z') {
                std::size_t start = pos_;
                while (pos_ < src_.size() &&
                       ((src_[pos_] >= 'a' && src_[pos_] <= 'z') || (src_[pos_] >= '0' && src_[pos_] <= '9') ||
                        src_[pos_] == '_'))
                    advance(1);
                t.text = std::string(src_.substr(start, pos_ - start));
                t.kind = t.text == "true" ? Tok::True : t.text == "false" ? Tok::False : Tok::Atom;
            } else if (starts("&&")) {
                return lex_error(line_, col_, "expected '&' for conjunction; '&&' is not an operator");
            } else if (starts("||")) {
                return lex_error(line_, col_, "expected '|' for disjunction; '||' is not an operator");
            } else if (starts("=>")) {
                return lex_error(line_, col_, "expected '->' for implication; '=>' is not an operator");
            } else if (starts("<=>")) {
                return lex_error(line_, col_, "expected '<->' for equivalence; '<=>' is not an operator");
            } else if (c == '&') {
                simple(Tok::And, "&", "&");
            } else if (c == '|') {
                simple(Tok::Or, "|", "|");
            } else if (c == '!') {
                simple(Tok::Not, "!", "!");
            } else if (c == '(') {
                simple(Tok::LParen, "(", "(");
            } else if (c == ')') {
                simple(Tok::RParen, ")", ")");
            } else if (starts("->")) {
                t.kind = Tok::Implies, t.text = "->", advance(2, 2);
            } else if (starts("<->")) {
                t.kind = Tok::Iff, t.text = "<->", advance(3, 3);
            } else if (starts("\u00AC")) {
                simple(Tok::Not, "\u00AC", "\u00AC");
            } else if (starts("\u2227")) {
                simple(Tok::And, "\u2227", "\u2227");
            } else if (starts("\u2228")) {
                simple(Tok::Or, "\u2228", "\u2228");
            } else if (starts("\u2192")) {
                simple(Tok::Implies, "\u2192", "\u2192");
            } else if (starts("\u2194")) {
                simple(Tok::Iff, "\u2194", "\u2194");
            } else if (starts("\u22A4")) {
                simple(Tok::True, "\u22A4", "\u22A4");
            } else if (starts("\u22A5")) {
                simple(Tok::False, "\u22A5", "\u22A5");
            } else if (c == 'S') {
                simple(Tok::Since, "S", "S");
            } else if (c == 'P') {
                simple(Tok::Past, "P", "P");
            } else if (c == 'H') {
                simple(Tok::Historically, "H", "H");
            } else if (c == 'Y') {
                advance(1);
                t.kind = Tok::Yesterday;
                t.text = "Y";
                // Y<=k / Y≤k, with free whitespace around "<=" (but not "<->", which is an operator).
                std::size_t save_pos = pos_;
                int save_line = line_, save_col = col_;
                skip_space_and_comments();
                bool window = false;
                if (starts("<=") && !starts("<=>")) {
                    advance(2, 2), window = true;
                } else if (starts("\u2264")) {
                    advance(3, 1), window = true;
                }
                if (!window) {
                    pos_ = save_pos, line_ = save_line, col_ = save_col;
                } else {
                    skip_space_and_comments();
                    int kl = line_, kc = col_;
                    if (pos_ >= src_.size() || src_[pos_] < '0' || src_[pos_] > '9')
                        return lex_error(kl, kc, "expected a window k >= 1 (decimal) after 'Y<='");
                    std::uint64_t k = 0;
                    std::size_t start = pos_;
                    while (pos_ < src_.size() && src_[pos_] >= '0' && src_[pos_] <= '9') {
                        k = k * 10 + static_cast<unsigned>(src_[pos_] - '0');
                        if (k > kMaxWindow)
                            return lex_error(kl, kc, "expected a window k >= 1 after 'Y<=' that fits in 31 bits");
                        advance(1);
                    }
                    // "Y<=0x10", "Y<=3a": the number is the whole run of letters and digits
                    if (pos_ < src_.size() && (std::isalnum(static_cast<unsigned char>(src_[pos_])) || src_[pos_] == '_')) {
                        std::size_t end = pos_;
                        while (end < src_.size() && (std::isalnum(static_cast<unsigned char>(src_[end])) || src_[end] == '_')) ++end;
                        return lex_error(kl, kc, "expected a window k >= 1 (decimal) after 'Y<=', found '" +
                                                     std::string(src_.substr(start, end - start)) + "'");
                    }
                    if (k == 0) return lex_error(kl, kc, "expected a window k >= 1 after 'Y<=', found 0");
                    t.kind = Tok::BoundedYesterday;
                    t.k = static_cast<unsigned>(k);
                    t.text = "Y<=" + std::string(src_.substr(start, pos_ - start));
                }
            } else if (const char* advice = foreign_operator(c)) {
                return lex_error(line_, col_, "found '" + std::string(1, c) + "': " + advice + " (docs/SYNTAX.md)");
            } else if (c == '~') {
                return lex_error(line_, col_, "expected '!' for negation; '~' is not an operator");
            } else {
                std::size_t n = utf8_len(pos_);
                std::string ch(src_.substr(pos_, n));
                std::string hint;
                if (c >= 'A' && c <= 'Z')
                    hint = " (operators are !, &, |, ->, <->, S, P, Y, Y<=k, H; symbols are lowercase)";
                else if (c == '=' || c == '<' || c == '-' || c == '~' || c == '^')
                    hint = " (operators are !, &, |, ->, <->, S, P, Y, Y<=k, H)";
                else if (c >= '0' && c <= '9')
                    hint = " (symbols start with a lowercase letter)";
                else if (c == '*' || c == '+' || c == '?' || c == '.' || c == '[')
                    hint = " (a regular expression? formulas have no '" + ch +
                           "': give a regular expression with --regex, docs/SYNTAX.md §7)";
                return lex_error(line_, col_, "expected a formula or an operator, found unknown character '" + ch + "'" + hint);
            }
            tokens_.push_back(std::move(t));
        }
    }

    // --- parser: operator precedence with explicit stacks (Dijkstra's shunting-yard), so neither
    // operator chains nor nested parentheses use the call stack.

    static int precedence(Tok k) {  // docs/SYNTAX.md §2, low to high; prefix operators bind tightest
        switch (k) {
            case Tok::Iff: return 1;
            case Tok::Implies: return 2;
            case Tok::Or: return 3;
            case Tok::And: return 4;
            case Tok::Since: return 5;
            case Tok::Not: case Tok::Past: case Tok::Yesterday: case Tok::BoundedYesterday:
            case Tok::Historically: return 6;
            default: return 0;  // '(' (never reduced by an operator)
        }
    }
    static bool is_prefix(Tok k) {
        return k == Tok::Not || k == Tok::Past || k == Tok::Yesterday || k == Tok::BoundedYesterday ||
               k == Tok::Historically;
    }
    static bool is_binary(Tok k) {
        return k == Tok::Iff || k == Tok::Implies || k == Tok::Or || k == Tok::And || k == Tok::Since;
    }

    std::vector<Formula> operands_;
    std::vector<Token> operators_;  // operators and '(' waiting for their right operand / ')'

    // Applies the operator on top of the stack to its operands.
    void reduce() {
        Token op = operators_.back();
        operators_.pop_back();
        Formula right = operands_.back();
        operands_.pop_back();
        if (is_prefix(op.kind)) {
            switch (op.kind) {
                case Tok::Not: operands_.push_back(Formula::neg(right)); break;
                case Tok::Past: operands_.push_back(Formula::past(right)); break;
                case Tok::Yesterday: operands_.push_back(Formula::yesterday(right)); break;
                case Tok::BoundedYesterday: operands_.push_back(Formula::bounded_yesterday(right, op.k)); break;
                default: operands_.push_back(Formula::historically(right)); break;
            }
            return;
        }
        Formula left = operands_.back();
        operands_.pop_back();
        switch (op.kind) {
            case Tok::Iff: operands_.push_back(Formula::iff(left, right)); break;
            case Tok::Implies: operands_.push_back(Formula::implies(left, right)); break;
            case Tok::Or: operands_.push_back(Formula::disj(left, right)); break;
            case Tok::And: operands_.push_back(Formula::conj(left, right)); break;
            default: operands_.push_back(Formula::since(left, right)); break;
        }
    }

    // "y a", "a s b": a lower-case operator letter read as a symbol, where the parser then finds an
    // operand after an operand (tokens_[i] follows the symbol y, p or h, or is the symbol s).
    std::string lowercase_operator_hint(std::size_t i) const {
        auto single = [](const Token& t, std::string_view letters) {
            return t.kind == Tok::Atom && t.text.size() == 1 && letters.find(t.text[0]) != std::string_view::npos;
        };
        const Token* lower = nullptr;
        if (single(tokens_[i], "s"))
            lower = &tokens_[i];
        else if (i > 0 && single(tokens_[i - 1], "yph"))
            lower = &tokens_[i - 1];
        if (!lower) return {};
        const char upper = static_cast<char>(lower->text[0] - 'a' + 'A');
        return " (operators are upper-case: '" + lower->text + "' is a symbol; did you mean '" + std::string(1, upper) +
               "'?)";
    }

    const Token* innermost_paren() const {
        for (std::size_t i = operators_.size(); i-- > 0;)
            if (operators_[i].kind == Tok::LParen) return &operators_[i];
        return nullptr;
    }

    Formula parse() {
        bool expect_operand = true;
        for (std::size_t i = 0;; ++i) {
            const Token& t = tokens_[i];
            if (expect_operand) {
                if (is_prefix(t.kind) || t.kind == Tok::LParen) {
                    operators_.push_back(t);
                } else if (t.kind == Tok::Atom) {
                    operands_.push_back(Formula::atom(t.text)), expect_operand = false;
                } else if (t.kind == Tok::True) {
                    operands_.push_back(Formula::tt()), expect_operand = false;
                } else if (t.kind == Tok::False) {
                    operands_.push_back(Formula::ff()), expect_operand = false;
                } else if (t.kind == Tok::RParen && i > 0 && tokens_[i - 1].kind == Tok::LParen) {
                    err(t, "expected a formula inside '()', found ')'");
                    return {};
                } else {
                    err(t, "expected a formula (symbol, true, false, '(' or a prefix operator), found " +
                               describe(t));
                    return {};
                }
                continue;
            }
            if (t.kind == Tok::End) {
                if (const Token* open = innermost_paren()) {
                    err(t, "expected ')' to close the '(' at " + std::to_string(open->line) + ":" +
                               std::to_string(open->column) + ", found end of input");
                    return {};
                }
                break;
            }
            if (is_binary(t.kind)) {
                const int p = precedence(t.kind);
                const bool right_assoc = t.kind == Tok::Implies;
                while (!operators_.empty() && operators_.back().kind != Tok::LParen &&
                       (precedence(operators_.back().kind) > p ||
                        (precedence(operators_.back().kind) == p && !right_assoc)))
                    reduce();
                operators_.push_back(t);
                expect_operand = true;
            } else if (t.kind == Tok::RParen) {
                while (!operators_.empty() && operators_.back().kind != Tok::LParen) reduce();
                if (operators_.empty()) {
                    err(t, "unbalanced ')': no '(' to close");
                    return {};
                }
                operators_.pop_back();
            } else {
                const Token* open = innermost_paren();
                err(t, (open ? "expected an operator or ')' to close the '(' at " + std::to_string(open->line) +
                                   ":" + std::to_string(open->column)
                             : std::string("expected an operator or end of formula")) +
                           ", found " + describe(t) + lowercase_operator_hint(i));
                return {};
            }
        }
        while (!operators_.empty()) reduce();
        return operands_.back();
    }
};

}  // namespace

Result<Formula> parse_formula(std::string_view text) { return Parser(text).run(); }

bool is_atom_name(std::string_view name) {
    if (name.empty() || name[0] < 'a' || name[0] > 'z' || name == "true" || name == "false") return false;
    for (char c : name)
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
    return true;
}

}  // namespace ltlkit::ltl
