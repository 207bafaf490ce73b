// Recursive-descent parser for the past-LTL syntax of SPEC §2 (precedence climbing, one level per
// row of the table). Columns are counted in characters (UTF-8 code points), 1-based.
#include "ltl/parser.hh"

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

constexpr int kMaxNesting = 2000;  // parentheses only (operator chains are loops), far from the stack limit

std::string describe(const Token& t) {
    switch (t.kind) {
        case Tok::End: return "end of input";
        case Tok::Atom: return "symbol '" + t.text + "'";
        default: return "'" + t.text + "'";
    }
}

class Parser {
public:
    explicit Parser(std::string_view text) : src_(text) {}

    Result<Formula> run() {
        if (!lex()) return error_;
        if (tokens_.front().kind == Tok::End)
            return err(tokens_.front(), "expected a formula, found an empty input");
        Formula f = parse_iff();
        if (failed_) return error_;
        if (peek().kind != Tok::End) {
            const Token& t = peek();
            if (t.kind == Tok::RParen) return err(t, "unbalanced ')': no '(' to close");
            return err(t, "expected an operator or end of formula, found " + describe(t));
        }
        return f;
    }

private:
    std::string_view src_;
    std::size_t pos_ = 0;  // byte offset while lexing
    int line_ = 1, col_ = 1;
    std::vector<Token> tokens_;
    std::size_t next_ = 0;
    int depth_ = 0;
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
                        if (k > 0x7fffffffULL)
                            return lex_error(kl, kc, "expected a window k >= 1 after 'Y<=' that fits in 31 bits");
                        advance(1);
                    }
                    if (k == 0) return lex_error(kl, kc, "expected a window k >= 1 after 'Y<=', found 0");
                    t.kind = Tok::BoundedYesterday;
                    t.k = static_cast<unsigned>(k);
                    t.text = "Y<=" + std::string(src_.substr(start, pos_ - start));
                }
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
                return lex_error(line_, col_, "expected a formula or an operator, found unknown character '" + ch + "'" + hint);
            }
            tokens_.push_back(std::move(t));
        }
    }

    // --- parser

    const Token& peek() const { return tokens_[next_]; }
    const Token& take() { return tokens_[next_ < tokens_.size() - 1 ? next_++ : next_]; }

    Formula parse_iff() {  // level 1, left-assoc
        Formula left = parse_implies();
        while (!failed_ && peek().kind == Tok::Iff) {
            take();
            Formula right = parse_implies();
            if (failed_) return {};
            left = Formula::iff(left, right);
        }
        return left;
    }

    Formula parse_implies() {  // level 2, right-assoc: a -> b -> c = a -> (b -> c)
        std::vector<Formula> operands = {parse_or()};
        while (!failed_ && peek().kind == Tok::Implies) {
            take();
            operands.push_back(parse_or());
        }
        if (failed_) return {};
        Formula f = operands.back();
        for (std::size_t i = operands.size() - 1; i-- > 0;) f = Formula::implies(operands[i], f);
        return f;
    }

    Formula parse_or() {  // level 3, left-assoc
        Formula left = parse_and();
        while (!failed_ && peek().kind == Tok::Or) {
            take();
            Formula right = parse_and();
            if (failed_) return {};
            left = Formula::disj(left, right);
        }
        return left;
    }

    Formula parse_and() {  // level 4, left-assoc
        Formula left = parse_since();
        while (!failed_ && peek().kind == Tok::And) {
            take();
            Formula right = parse_since();
            if (failed_) return {};
            left = Formula::conj(left, right);
        }
        return left;
    }

    Formula parse_since() {  // level 5, left-assoc
        Formula left = parse_prefix();
        while (!failed_ && peek().kind == Tok::Since) {
            take();
            Formula right = parse_prefix();
            if (failed_) return {};
            left = Formula::since(left, right);
        }
        return left;
    }

    Formula fail_depth() {
        err(peek(), "formula nested too deeply (more than " + std::to_string(kMaxNesting) + " nested parentheses)");
        return {};
    }

    Formula parse_prefix() {  // level 6: a run of prefix operators, applied innermost first
        std::vector<Token> ops;
        for (;;) {
            Tok k = peek().kind;
            if (k != Tok::Not && k != Tok::Past && k != Tok::Yesterday && k != Tok::BoundedYesterday &&
                k != Tok::Historically)
                break;
            ops.push_back(take());
        }
        Formula f = parse_atom();
        if (failed_) return {};
        for (std::size_t i = ops.size(); i-- > 0;) {
            switch (ops[i].kind) {
                case Tok::Not: f = Formula::neg(f); break;
                case Tok::Past: f = Formula::past(f); break;
                case Tok::Yesterday: f = Formula::yesterday(f); break;
                case Tok::BoundedYesterday: f = Formula::bounded_yesterday(f, ops[i].k); break;
                default: f = Formula::historically(f); break;
            }
        }
        return f;
    }

    Formula parse_atom() {
        const Token& t = peek();
        switch (t.kind) {
            case Tok::Atom: return Formula::atom(take().text);
            case Tok::True: take(); return Formula::tt();
            case Tok::False: take(); return Formula::ff();
            case Tok::LParen: {
                Token open = take();
                if (++depth_ > kMaxNesting) return fail_depth();
                if (peek().kind == Tok::RParen) {
                    err(peek(), "expected a formula inside '()', found ')'");
                    return {};
                }
                Formula f = parse_iff();
                --depth_;
                if (failed_) return {};
                if (peek().kind != Tok::RParen) {
                    err(peek(), "expected ')' to close the '(' at " + std::to_string(open.line) + ":" +
                                    std::to_string(open.column) + ", found " + describe(peek()));
                    return {};
                }
                take();
                return f;
            }
            case Tok::End:
                err(t, "expected a formula (symbol, true, false, '(' or a prefix operator), found end of input");
                return {};
            case Tok::RParen:
                err(t, "expected a formula (symbol, true, false, '(' or a prefix operator), found ')'");
                return {};
            default:
                err(t, "expected a formula (symbol, true, false, '(' or a prefix operator), found " + describe(t));
                return {};
        }
    }
};

}  // namespace

Result<Formula> parse_formula(std::string_view text) { return Parser(text).run(); }

}  // namespace ltlkit::ltl
