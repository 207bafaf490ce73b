// The parser of extended regular expressions (automata/regex_syntax.hh), split from regex.cc, which
// compiles the tree it builds.
#include "automata/regex_syntax.hh"

#include <algorithm>
#include <map>
#include <set>

namespace ltlkit::automata::regex_syntax {

namespace {

AstPtr leaf(Kind k, Symbol s = 0) {
    auto a = std::make_unique<Ast>();
    a->kind = k;
    a->sym = s;
    return a;
}
AstPtr node(Kind k, AstPtr x, AstPtr y = nullptr) {
    auto a = std::make_unique<Ast>();
    a->kind = k;
    a->kids.push_back(std::move(x));
    if (y) a->kids.push_back(std::move(y));
    return a;
}

class RegexParser {
public:
    RegexParser(const std::string& text, const std::vector<std::string>& alphabet)
        : src_(text), given_(alphabet) {}

    Result<Parsed> run() {
        if (!given_.empty()) {
            std::set<std::string> seen;
            for (const auto& s : given_) {
                if (s.empty()) return plain_error("the alphabet contains an empty symbol");
                if (!seen.insert(s).second) return plain_error("the alphabet repeats the symbol '" + s + "'");
            }
        }
        skip_space();
        if (at_end()) return error_here("expected a regular expression, found an empty input");
        AstPtr ast = parse_or();
        if (failed_) return error_;
        if (!at_end()) {
            if (src_[pos_] == ')') return error_here("unbalanced ')': no '(' to close");
            return error_here("expected an operator or end of regular expression, found '" + current_char() + "'");
        }
        Parsed p;
        if (!given_.empty()) {
            p.alphabet = given_;
        } else {
            if (letters_.empty())
                return plain_error(
                    "the regular expression uses no symbol: give the alphabet with --alphabet (e.g. --alphabet a,b)");
            p.alphabet.assign(letters_.begin(), letters_.end());
            // letters were numbered provisionally by their character; renumber to sorted order
            std::map<char, Symbol> index;
            for (Symbol i = 0; i < p.alphabet.size(); ++i) index[p.alphabet[i][0]] = i;
            renumber(*ast, index);
        }
        if (uses_any_) expand_any(*ast, static_cast<Symbol>(p.alphabet.size()));
        p.ast = std::move(ast);
        return p;
    }

private:
    const std::string& src_;
    const std::vector<std::string>& given_;
    std::size_t pos_ = 0;
    int line_ = 1, col_ = 1;
    std::set<std::string> letters_;
    bool uses_any_ = false;
    bool failed_ = false;
    int depth_ = 0;
    Error error_;

    static constexpr int kMaxNesting = 500;  // parentheses and ! nest recursively
    static constexpr long kMaxCount = 1000;  // the largest n of r{n}, r{m,n}, r{m,}
    // The syntax tree's nodes at most once the counts are expanded (r{1000}{1000} would be a million).
    static constexpr std::size_t kMaxNodes = 200000;
    std::size_t nodes_ = 0;  // nodes the counts copied so far (clone())

    bool at_end() const { return pos_ >= src_.size(); }
    bool starts(std::string_view s) const { return std::string_view(src_).substr(pos_, s.size()) == s; }

    std::size_t utf8_len(std::size_t i) const {
        unsigned char c = static_cast<unsigned char>(src_[i]);
        std::size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 1;
        return i + n > src_.size() ? 1 : n;
    }
    std::string current_char() const { return src_.substr(pos_, utf8_len(pos_)); }

    // Moves over `bytes` bytes (whole characters, no newline inside).
    void advance(std::size_t bytes) {
        for (std::size_t end = pos_ + bytes; pos_ < end;) {
            pos_ += utf8_len(pos_);
            ++col_;
        }
    }

    void skip_space() {
        while (!at_end()) {
            char c = src_[pos_];
            if (c == '\n') {
                ++pos_, ++line_, col_ = 1;
            } else if (c == ' ' || c == '\t' || c == '\r') {
                ++pos_, ++col_;
            } else {
                break;
            }
        }
    }

    std::string line_text(int line) const {
        int l = 1;
        std::size_t start = 0;
        for (std::size_t i = 0; i < src_.size() && l < line; ++i)
            if (src_[i] == '\n') ++l, start = i + 1;
        std::size_t end = src_.find('\n', start);
        std::string s = src_.substr(start, end == std::string::npos ? std::string::npos : end - start);
        if (!s.empty() && s.back() == '\r') s.pop_back();
        return s;
    }

    Error error_here(std::string message) {
        if (!failed_) {
            failed_ = true;
            error_.message = std::move(message);
            error_.line = line_;
            error_.column = col_;
            error_.source_line = line_text(line_);
        }
        return error_;
    }
    Error plain_error(std::string message) {
        Error e;
        e.message = std::move(message);
        return e;
    }

    bool starts_atom() const {
        if (at_end()) return false;
        char c = src_[pos_];
        if (c == '|' || c == '&' || c == ')' || c == '*' || c == '+' || c == '?' || c == '{') return false;
        return true;  // symbols, '(', '[', '.', '!', ε, ∅, and anything else (reported by parse_atom)
    }

    // A copy of a syntax tree (a count repeats its operand).
    AstPtr clone(const Ast& a) {
        ++nodes_;
        auto c = std::make_unique<Ast>();
        c->kind = a.kind;
        c->sym = a.sym;
        for (const auto& k : a.kids) c->kids.push_back(clone(*k));
        return c;
    }
    static std::size_t size_of(const Ast& a) {
        std::size_t n = 1;
        for (const auto& k : a.kids) n += size_of(*k);
        return n;
    }

    // A decimal count at pos_ (spaces skipped after it); -1 when no digit is there, kMaxCount + 1
    // beyond the bound.
    long parse_number() {
        if (at_end() || src_[pos_] < '0' || src_[pos_] > '9') return -1;
        long n = 0;
        while (!at_end() && src_[pos_] >= '0' && src_[pos_] <= '9') {
            n = std::min(kMaxCount + 1, n * 10 + (src_[pos_] - '0'));
            advance(1);
        }
        skip_space();
        return n;
    }

    // r{n}, r{m,n}, r{m,} after the operand `a`, pos_ at '{': r repeated (r{m,n} = r^m (r?)^(n-m),
    // r{m,} = r^m r*).
    AstPtr parse_count(AstPtr a) {
        const int open_line = line_, open_col = col_;
        const std::string at = std::to_string(open_line) + ":" + std::to_string(open_col);
        advance(1), skip_space();
        auto fail = [&](std::string message) -> AstPtr {
            error_here(std::move(message));
            return nullptr;
        };
        const long lo = parse_number();
        if (lo < 0)
            return fail("expected a count after '{' (r{n}, r{m,n} or r{m,}), found " +
                        (at_end() ? std::string("end of input") : "'" + current_char() + "'"));
        long hi = lo;
        bool unbounded = false;
        if (!at_end() && src_[pos_] == ',') {
            advance(1), skip_space();
            hi = parse_number();
            if (hi < 0) unbounded = true;
        }
        if (at_end() || src_[pos_] != '}')
            return fail("expected '}' to close the count '{' at " + at + " (r{n}, r{m,n} or r{m,}), found " +
                        (at_end() ? std::string("end of input") : "'" + current_char() + "'"));
        if (lo > kMaxCount || hi > kMaxCount)
            return fail("the count '{' at " + at + " is over " + std::to_string(kMaxCount) +
                        " (write the repetition another way, e.g. with *)");
        if (!unbounded && lo > hi)
            return fail("the count {" + std::to_string(lo) + "," + std::to_string(hi) + "} at " + at +
                        " has its minimum above its maximum");
        const std::size_t copies = static_cast<std::size_t>(unbounded ? lo + 1 : hi);
        if (nodes_ + copies * (size_of(*a) + 1) > kMaxNodes)
            return fail("the count '{' at " + at + " makes the regular expression over " + std::to_string(kMaxNodes) +
                        " nodes once expanded");
        advance(1), skip_space();
        std::vector<AstPtr> kids;
        for (long i = 0; i < lo; ++i) kids.push_back(clone(*a));
        if (unbounded)
            kids.push_back(node(Kind::Star, clone(*a)));
        else
            for (long i = lo; i < hi; ++i) kids.push_back(node(Kind::Opt, clone(*a)));
        if (kids.empty()) return leaf(Kind::Eps);
        return nary(Kind::Concat, std::move(kids));
    }

    // [ab] or [^ab], pos_ at '[': the symbols listed, or the alphabet's symbols not listed.
    AstPtr parse_class() {
        const int open_line = line_, open_col = col_;
        const std::string at = std::to_string(open_line) + ":" + std::to_string(open_col);
        advance(1), skip_space();
        bool negated = false;
        if (!at_end() && src_[pos_] == '^') {
            if (given_.empty()) {
                error_here("'[^...]' is the complement relative to the alphabet, which is not given: pass the alphabet "
                           "(--alphabet a,b,...)");
                return nullptr;
            }
            negated = true;
            advance(1), skip_space();
        }
        std::set<Symbol> members;
        std::vector<std::string> letters;
        while (!at_end() && src_[pos_] != ']') {
            if (!given_.empty()) {
                Symbol which = 0;
                const std::size_t len = match_symbol(which);
                if (len == 0) {
                    error_here("expected a symbol of the alphabet or ']' in the class '[' at " + at + ", found '" +
                               current_char() + "'" +
                               (src_[pos_] == '-' ? " (ranges such as a-c are not supported: list the symbols)" : ""));
                    return nullptr;
                }
                members.insert(which);
                advance(len);
            } else {
                const char c = src_[pos_];
                if (c < 'a' || c > 'z') {
                    error_here("expected a lowercase letter or ']' in the class '[' at " + at + ", found '" +
                               current_char() + "'" +
                               (c == '-' ? " (ranges such as a-c are not supported: list the letters)"
                                         : " (give --alphabet for other symbols)"));
                    return nullptr;
                }
                letters_.insert(std::string(1, c));
                members.insert(static_cast<Symbol>(c));  // renumbered at the end, as other symbols
                advance(1);
            }
            skip_space();
        }
        if (at_end()) {
            error_here("expected ']' to close the class '[' at " + at + ", found end of input");
            return nullptr;
        }
        if (members.empty()) {
            error_here("the class '[' at " + at + " lists no symbol");
            return nullptr;
        }
        advance(1), skip_space();
        std::vector<AstPtr> kids;
        if (negated) {
            for (Symbol i = 0; i < given_.size(); ++i)
                if (!members.count(i)) kids.push_back(leaf(Kind::Sym, i));
        } else {
            for (Symbol m : members) kids.push_back(leaf(Kind::Sym, m));
        }
        if (kids.empty()) return leaf(Kind::Empty);  // [^ab] over {a, b}
        return nary(Kind::Or, std::move(kids));
    }

    // | & and concatenation are n-ary nodes, so long chains never nest (no deep recursion).
    AstPtr nary(Kind k, std::vector<AstPtr> kids) {
        if (kids.size() == 1) return std::move(kids[0]);
        auto a = std::make_unique<Ast>();
        a->kind = k;
        a->kids = std::move(kids);
        return a;
    }

    // kids separated by `op` (one parser per precedence level), as one n-ary node.
    AstPtr parse_infix(char op, Kind kind, AstPtr (RegexParser::*next)()) {
        std::vector<AstPtr> kids;
        kids.push_back((this->*next)());
        while (!failed_ && !at_end() && src_[pos_] == op) {
            advance(1), skip_space();
            kids.push_back((this->*next)());
        }
        if (failed_) return nullptr;
        return nary(kind, std::move(kids));
    }
    AstPtr parse_or() { return parse_infix('|', Kind::Or, &RegexParser::parse_and); }
    AstPtr parse_and() { return parse_infix('&', Kind::And, &RegexParser::parse_concat); }

    AstPtr parse_concat() {
        std::vector<AstPtr> kids;
        kids.push_back(parse_not());
        while (!failed_ && starts_atom()) kids.push_back(parse_not());
        if (failed_) return nullptr;
        return nary(Kind::Concat, std::move(kids));
    }

    AstPtr parse_not() {
        if (!at_end() && src_[pos_] == '!') {
            advance(1), skip_space();
            if (++depth_ > kMaxNesting) {
                error_here("regular expression nested too deeply");
                return nullptr;
            }
            AstPtr inner = parse_not();
            --depth_;
            if (failed_) return nullptr;
            return node(Kind::Not, std::move(inner));
        }
        return parse_postfix();
    }

    AstPtr parse_postfix() {
        AstPtr a = parse_atom();
        while (!failed_ && !at_end() && (src_[pos_] == '*' || src_[pos_] == '+' || src_[pos_] == '?' || src_[pos_] == '{')) {
            if (src_[pos_] == '{') {
                a = parse_count(std::move(a));
                if (failed_) return nullptr;
                continue;
            }
            Kind k = src_[pos_] == '*' ? Kind::Star : src_[pos_] == '+' ? Kind::Plus : Kind::Opt;
            advance(1), skip_space();
            // A chain of postfix operators is one node ((r*)+ = (r+)* = (r+)? = (r?)+ = r*, (r+)+ = r+,
            // (r?)? = r?), so that "a***..." does not nest a node per operator (deep recursion).
            if (a->kind == Kind::Star || a->kind == Kind::Plus || a->kind == Kind::Opt) {
                if (a->kind != k) a->kind = Kind::Star;
                continue;
            }
            a = node(k, std::move(a));
        }
        return a;
    }

    // Longest alphabet symbol at pos_, or npos.
    std::size_t match_symbol(Symbol& which) const {
        std::size_t best = 0;
        for (Symbol i = 0; i < given_.size(); ++i)
            if (given_[i].size() > best && starts(given_[i])) best = given_[i].size(), which = i;
        return best;
    }

    AstPtr parse_atom() {
        if (at_end()) {
            error_here("expected a symbol, '(', '[', '.', 'ε', '∅' or '!', found end of input");
            return nullptr;
        }
        const char c = src_[pos_];
        auto done = [&](AstPtr a, std::size_t bytes) {
            advance(bytes);
            skip_space();
            return a;
        };
        if (c == '(') {
            int open_line = line_, open_col = col_;
            advance(1), skip_space();
            if (!at_end() && src_[pos_] == ')') return done(leaf(Kind::Eps), 1);
            if (++depth_ > kMaxNesting) {
                error_here("regular expression nested too deeply");
                return nullptr;
            }
            AstPtr inner = parse_or();
            --depth_;
            if (failed_) return nullptr;
            if (at_end() || src_[pos_] != ')') {
                error_here("expected ')' to close the '(' at " + std::to_string(open_line) + ":" +
                           std::to_string(open_col) + ", found " +
                           (at_end() ? std::string("end of input") : "'" + current_char() + "'"));
                return nullptr;
            }
            return done(std::move(inner), 1);
        }
        if (c == '.') {
            uses_any_ = true;
            return done(leaf(Kind::Any), 1);
        }
        if (c == '[') return parse_class();
        if (starts("\u03B5")) return done(leaf(Kind::Eps), 2);
        if (starts("\u2205")) return done(leaf(Kind::Empty), 3);
        if (c == ']' || c == '}') {
            error_here(std::string("unbalanced '") + c + "': no '" + (c == ']' ? '[' : '{') + "' to close");
            return nullptr;
        }
        if (c == '{') {
            error_here("a count '{' needs something before it to repeat (r{n})");
            return nullptr;
        }
        if (c == '|' || c == '&' || c == ')' || c == '*' || c == '+' || c == '?') {
            error_here("expected a symbol, '(', '[', '.', 'ε', '∅' or '!', found '" + std::string(1, c) + "'");
            return nullptr;
        }
        if (!given_.empty()) {
            Symbol which = 0;
            std::size_t len = match_symbol(which);
            if (len == 0) {
                std::string list;
                for (std::size_t i = 0; i < given_.size() && i < 12; ++i) list += (i ? ", " : "") + given_[i];
                if (given_.size() > 12) list += ", ...";
                error_here("expected a symbol of the alphabet (" + list + ") or an operator, found '" +
                           current_char() + "'");
                return nullptr;
            }
            return done(leaf(Kind::Sym, which), len);
        }
        if (c >= 'a' && c <= 'z') {
            letters_.insert(std::string(1, c));
            return done(leaf(Kind::Sym, static_cast<Symbol>(c)), 1);  // renumbered at the end
        }
        error_here("expected a lowercase letter or an operator, found '" + current_char() +
                   "' (give --alphabet for other symbols)");
        return nullptr;
    }

    static void renumber(Ast& a, const std::map<char, Symbol>& index) {
        if (a.kind == Kind::Sym) a.sym = index.at(static_cast<char>(a.sym));
        for (auto& k : a.kids) renumber(*k, index);
    }
    static void expand_any(Ast& a, Symbol n) {
        if (a.kind == Kind::Any) a.sym = n;  // number of symbols, for the matcher and compiler
        for (auto& k : a.kids) expand_any(*k, n);
    }
};

}  // namespace

Result<Parsed> parse_regex(const std::string& regex, const std::vector<std::string>& alphabet) {
    return RegexParser(regex, alphabet).run();
}

}  // namespace ltlkit::automata::regex_syntax
