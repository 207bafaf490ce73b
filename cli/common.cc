#include "cli/common.hh"

#include <fcntl.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <limits>
#include <sstream>

#include "automata/dfa.hh"
#include "base/file.hh"
#include "base/text.hh"
#include "automata/sampler.hh"
#include "cli/command.hh"

namespace ltlkit::cli {

namespace {

// std::cout's buffer: 64 KiB, flushed with checked write(2) calls to descriptor 1; the first
// failure is kept (errno) and every later write fails too.
class CheckedStdout : public std::streambuf {
public:
    bool closed_at_start = false;
    int error = 0;  // errno of the first failed write, 0 while none failed

protected:
    int_type overflow(int_type c) override {
        if (!drain()) return traits_type::eof();
        if (!traits_type::eq_int_type(c, traits_type::eof())) {
            buffer_.push_back(traits_type::to_char_type(c));
            if (buffer_.size() >= kCapacity && !drain()) return traits_type::eof();
        }
        return traits_type::not_eof(c);
    }
    std::streamsize xsputn(const char* s, std::streamsize n) override {
        if (error) return 0;
        buffer_.append(s, static_cast<std::size_t>(n));
        if (buffer_.size() >= kCapacity && !drain()) return 0;
        return n;
    }
    int sync() override { return drain() ? 0 : -1; }

private:
    static constexpr std::size_t kCapacity = 1 << 16;
    std::string buffer_;

    bool drain() {
        if (error) return false;
        if (buffer_.empty()) return true;
        if (closed_at_start) {
            error = EBADF;
            return false;
        }
        const char* p = buffer_.data();
        std::size_t left = buffer_.size();
        while (left > 0) {
            const ssize_t w = ::write(1, p, left);
            if (w < 0) {
                if (errno == EINTR) continue;
                error = errno;
                return false;
            }
            p += w;
            left -= static_cast<std::size_t>(w);
        }
        buffer_.clear();
        return true;
    }
};

CheckedStdout& checked_stdout() {
    static auto* buf = new CheckedStdout;  // never destroyed: std::cout flushes it at exit
    return *buf;
}

}  // namespace

void init_stdout() {
    // Descriptors 0-2 closed by the caller are held open on /dev/null, so that no file opened
    // later becomes "standard output"; output to a closed stdout is an error below.
    for (int fd = 0; fd <= 2; ++fd)
        if (::fcntl(fd, F_GETFD) == -1 && errno == EBADF) {
            if (fd == 1) checked_stdout().closed_at_start = true;
            const int n = ::open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
            if (n >= 0 && n != fd) {
                ::dup2(n, fd);
                ::close(n);
            }
        }
    std::cout.rdbuf(&checked_stdout());
}

std::optional<Error> stdout_error() {
    std::cout.flush();
    const int err = checked_stdout().error;
    if (!err && std::fflush(stdout) == 0 && !std::ferror(stdout)) return std::nullopt;
    const std::string why = checked_stdout().closed_at_start ? "it is closed" : std::strerror(err ? err : EIO);
    return io_error("cannot write to standard output: " + why + "; the output is incomplete");
}

std::string format(const char* fmt, ...) {
    va_list args;
    va_start(args, fmt);
    va_list again;
    va_copy(again, args);
    const int n = std::vsnprintf(nullptr, 0, fmt, args);
    va_end(args);
    std::string out(n > 0 ? static_cast<std::size_t>(n) : 0, '\0');
    if (n > 0) std::vsnprintf(out.data(), out.size() + 1, fmt, again);
    va_end(again);
    return out;
}

void write_stdout(const std::string& text) {
    std::cout << text;
    if (auto e = stdout_error()) fail(*e);
}

void add_language_options(CLI::App& app, LanguageArgs& args, bool positional_formula) {
    if (positional_formula)
        app.add_option("FORMULA", args.formula, "Past-LTL formula (syntax: docs/SYNTAX.md), e.g. 'P(b & Y a)'");
    app.add_option("--regex", args.regex, "Extended regular expression instead of a formula");
    app.add_option("--dfa", args.dfa_file, "DFA JSON file instead of a formula");
    app.add_option("--alphabet", args.alphabet,
                   "Alphabet, comma-separated, in this order (a,b,c); without it, the symbols the formula or "
                   "regex mentions (said on stderr; a single inferred symbol is refused)")
        ->check(nonempty_alphabet());
    app.add_option("--max-states", args.max_states,
                   "Stop when a construction exceeds this many states (default 1000000)");
    app.add_option("--max-work", args.max_work,
                   "Stop when building the DFA of a formula or regex takes more than this many steps (which bounds its time "
                   "and memory; default " + std::to_string(automata::kDefaultMaxWork) + ", at most about 10 s of CPU; 0 = no limit)");
}

void add_table_cells_option(CLI::App& app) {
    app.add_option_function<std::size_t>(
        "--max-table-cells", [](const std::size_t& cells) { automata::set_default_max_table_cells(cells); },
        "Stop when the sampler's count tables (2 labels x lengths x states x symbols) exceed this many "
        "8-byte cells (default " + std::to_string(automata::kDefaultMaxTableCells) + ")");
}

automata::LanguageSpec language_spec(const LanguageArgs& args) {
    int given = !args.formula.empty() + !args.regex.empty() + !args.dfa_file.empty();
    if (given != 1)
        fail(given == 0 ? "no language given: pass a FORMULA, --regex R or --dfa FILE"
                        : "give exactly one of FORMULA, --regex and --dfa");
    automata::LanguageSpec spec;
    if (!args.formula.empty()) {
        spec.kind = automata::InputKind::Formula;
        spec.text = args.formula;
    } else if (!args.regex.empty()) {
        spec.kind = automata::InputKind::Regex;
        spec.text = args.regex;
    } else {
        spec.kind = automata::InputKind::DfaFile;
        spec.text = args.dfa_file;
    }
    spec.name = spec.text;
    spec.alphabet = take(automata::parse_alphabet(args.alphabet));
    spec.max_states = args.max_states;
    spec.max_work = args.max_work;
    return spec;
}

automata::Language load_language_or_fail(const LanguageArgs& args) {
    return take(load_language_checked(language_spec(args)));
}

namespace {
std::vector<std::string>& pending_notes() {
    static std::vector<std::string> notes;
    return notes;
}
}  // namespace

void note_inferred_alphabet(const std::vector<std::string>& alphabet, const std::string& from) {
    pending_notes().push_back("ltlkit: note: alphabet inferred from " + from + ": " +
                              automata::braced_alphabet(alphabet) + "; pass --alphabet to set it");
}

void flush_notes() {
    for (const auto& line : pending_notes()) std::cerr << line << "\n";
    std::cerr << std::flush;
    pending_notes().clear();
}

std::optional<Error> check_inferred_alphabet(const std::vector<std::string>& alphabet, const std::string& from) {
    if (auto e = automata::inferred_alphabet_error(alphabet, from)) return e;
    note_inferred_alphabet(alphabet, from);
    return std::nullopt;
}

Result<automata::Language> load_language_checked(const automata::LanguageSpec& spec, const std::string& where) {
    auto r = automata::load_language(spec);
    if (!r.ok() || !alphabet_inferred(*r)) return r;
    const std::string what = spec.kind == automata::InputKind::Regex ? "the regex" : "the formula";
    if (auto e = check_inferred_alphabet(r->dfa.alphabet, what + where)) return *e;
    return r;
}

std::vector<automata::Language> load_languages(const LanguageArgs& args, const std::string& input, bool minimize) {
    std::vector<automata::Language> langs;
    if (input.empty()) {
        automata::LanguageSpec spec = language_spec(args);
        spec.minimize = minimize;
        langs.push_back(take(load_language_checked(spec)));
        return langs;
    }
    if (!args.formula.empty() || !args.regex.empty() || !args.dfa_file.empty())
        fail("give either a language (FORMULA, --regex, --dfa) or --input, not both");
    const std::string origin = input == "-" ? "<stdin>" : input;
    for (const NumberedLine& line : read_numbered_lines(input)) {
        LanguageArgs one = args;
        one.formula = line.text;
        automata::LanguageSpec spec = language_spec(one);
        spec.minimize = minimize;
        auto r = load_language_checked(spec, " on line " + std::to_string(line.number));
        if (!r.ok()) {
            Error e = r.error();
            if (e.origin.empty()) e.origin = origin;
            e.line = e.line ? e.line + line.number - 1 : line.number;
            fail(e);
        }
        langs.push_back(std::move(r.value()));
    }
    return langs;
}

CLI::Validator nonempty_alphabet() {
    return CLI::Validator(
        [](std::string& text) -> std::string {
            if (text.find_first_not_of(" \t") != std::string::npos) return {};
            return "empty alphabet: list its symbols separated by commas (e.g. --alphabet a,b), or leave "
                   "--alphabet out to use the symbols the language mentions";
        },
        "", "");
}

std::vector<NumberedLine> read_numbered_lines(const std::string& path, bool skip_blank) {
    std::string text;
    if (path == "-") {
        std::ostringstream all;
        all << std::cin.rdbuf();
        text = all.str();
    } else {
        text = take(read_file(path));
    }
    if (auto bom = check_no_byte_order_mark(text); !bom.ok()) {
        Error e = bom.error();
        e.origin = path == "-" ? "<stdin>" : path;
        fail(e);
    }
    std::vector<NumberedLine> lines;
    std::istringstream in(text);
    std::string line;
    int number = 0;
    while (std::getline(in, line)) {
        ++number;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        auto first = line.find_first_not_of(" \t");
        if (skip_blank && (first == std::string::npos || line[first] == '#')) continue;
        lines.push_back({line, number});
    }
    return lines;
}

std::size_t terminal_width() {
    if (const char* env = std::getenv("COLUMNS")) {
        char* end = nullptr;
        const long n = std::strtol(env, &end, 10);
        if (end != env && *end == '\0' && n > 0) return static_cast<std::size_t>(std::max(n, 20L));
    }
    winsize ws{};
    if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
        return std::max<std::size_t>(ws.ws_col, 20);
    return 80;
}

std::size_t display_width(const std::string& text) {
    std::size_t n = 0;
    for (unsigned char ch : text) n += (ch & 0xC0) != 0x80;
    return n;
}

std::string pad_right(const std::string& text, std::size_t width) {
    const std::size_t w = display_width(text);
    return w >= width ? text : text + std::string(width - w, ' ');
}

std::string wrap_text(const std::string& text, std::size_t width, std::size_t indent) {
    std::string out, line;
    std::size_t line_width = 0, pos = 0;
    // Leading spaces of the first line are part of its layout: keep them with the first word.
    const std::size_t lead = text.find_first_not_of(' ');
    if (lead == std::string::npos) return text + "\n";
    line = text.substr(0, lead);
    line_width = lead;
    pos = lead;
    bool line_has_word = false;
    while (pos < text.size()) {
        std::size_t end = text.find(' ', pos);
        if (end == std::string::npos) end = text.size();
        const std::string word = text.substr(pos, end - pos);
        std::size_t spaces = 0;
        pos = end;
        while (pos < text.size() && text[pos] == ' ') ++pos, ++spaces;
        const std::size_t w = display_width(word);
        if (line_has_word && line_width + w > width) {
            while (!line.empty() && line.back() == ' ') line.pop_back();
            out += line + "\n";
            line = std::string(indent, ' ');
            line_width = indent;
        }
        line += word;
        line_width += w;
        line_has_word = true;
        line += std::string(spaces, ' ');  // a run of spaces (column padding) is kept as written
        line_width += spaces;
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    return out + line + "\n";
}

std::vector<std::string> word_to_symbols(const std::vector<std::string>& alphabet,
                                         const automata::Word& w) {
    return automata::word_symbols(alphabet, w);
}

namespace {

// Empty when `s` is a plain decimal integer that fits 64 bits (signed: a leading '-' allowed);
// the reason otherwise.
std::string check_integer(const std::string& s, bool is_signed) {
    const bool negative = is_signed && !s.empty() && s[0] == '-';
    const std::string digits = negative ? s.substr(1) : s;
    if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos)
        return std::string("expected a whole number") + (is_signed ? "" : " >= 0") + ", not '" + s + "'";
    const char* end = s.data() + s.size();
    std::errc ec;
    if (is_signed) {
        std::int64_t v = 0;
        ec = std::from_chars(s.data(), end, v).ec;
    } else {
        std::uint64_t v = 0;
        ec = std::from_chars(s.data(), end, v).ec;
    }
    if (ec != std::errc{})
        return "'" + s + "' is out of range (" +
               (is_signed ? "from " + std::to_string(std::numeric_limits<std::int64_t>::min()) + " to " +
                                std::to_string(std::numeric_limits<std::int64_t>::max())
                          : "at most " + std::to_string(std::numeric_limits<std::uint64_t>::max())) +
               ")";
    return "";
}

// Empty when `s` is a finite decimal real (value in `out`); the reason otherwise.
std::string check_real(const std::string& s, double& out) {
    const char* end = s.data() + s.size();
    const auto [p, ec] = std::from_chars(s.data(), end, out, std::chars_format::general);
    if (ec == std::errc::result_out_of_range)
        return "'" + s + "' is out of range (" + (s.find_first_of("eE") != std::string::npos && s.find("e-") != std::string::npos
                                                      ? "too small: it rounds to 0"
                                                      : "too large") + ")";
    if (s.empty() || ec != std::errc{} || p != end) return "expected a number, not '" + s + "'";
    if (!std::isfinite(out)) return "expected a finite number, not '" + s + "'";
    return "";
}

}  // namespace

void strict_option_values(CLI::App& app) {
    for (CLI::Option* opt : app.get_options()) {
        // "FLOAT", or "FLOAT:<a validator's description>" when the option has bounds
        const std::string full_type = opt->get_type_name();
        const std::string type = full_type.substr(0, full_type.find(':'));
        if (type == "TEXT" && opt->nonpositional()) {
            opt->check(CLI::Validator(
                [](std::string& s) { return s.empty() ? std::string("expected a value, not an empty string") : ""; },
                ""));
        } else if (type == "INT" || type == "UINT") {
            const bool is_signed = type == "INT";
            // transform() puts a validator before the others: the bounds' checks (CLI11's Range,
            // at_least) see only a plain number of 64 bits, and the refusal is in our words.
            // (A negative number of an unsigned option is left to the bounds' own message, "must
            // be at least 1, not '-1'"; the last check below refuses it where there is none.)
            opt->transform(CLI::Validator(
                [is_signed](std::string& s) {
                    if (!is_signed && s.size() > 1 && s[0] == '-' && s.find_first_not_of("0123456789", 1) == std::string::npos)
                        return std::string();
                    return check_integer(s, is_signed);
                },
                ""));
            // First of all: leading zeros dropped, so that every check and CLI11's own conversion
            // read the number as decimal.
            opt->transform(CLI::Validator(
                [](std::string& s) {
                    const bool negative = !s.empty() && s[0] == '-';
                    const std::size_t start = negative ? 1 : 0;
                    if (s.size() > start + 1 && s.find_first_not_of("0123456789", start) == std::string::npos) {
                        s.erase(start, std::min(s.find_first_not_of('0', start), s.size() - 1) - start);
                        if (s == "-0") s = "0";
                    }
                    return std::string();
                },
                ""));
            opt->check(CLI::Validator([is_signed](std::string& s) { return check_integer(s, is_signed); }, ""));
        } else if (type == "FLOAT") {
            // decimal only (no hex float, nan or inf), and neither overflow nor underflow
            opt->transform(CLI::Validator(
                [](std::string& s) {
                    double v = 0;
                    return check_real(s, v);
                },
                ""));
        }
    }
    for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) strict_option_values(*sub);
}

CLI::Validator at_least(long long min) {
    return CLI::Validator(
        [min](std::string& s) -> std::string {
            const std::string must = "must be at least " + std::to_string(min) + ", not '" + s + "'";
            if (s.size() > 1 && s[0] == '-' && s.find_first_not_of("0123456789", 1) == std::string::npos)
                return must;
            if (auto why = check_integer(s, false); !why.empty()) return why;
            std::uint64_t v = 0;
            std::from_chars(s.data(), s.data() + s.size(), v);
            return v < static_cast<std::uint64_t>(min) ? must : "";
        },
        "");
}

CLI::Validator positive_real() {
    return CLI::Validator(
        [](std::string& s) -> std::string {
            double v = 0;
            if (auto why = check_real(s, v); !why.empty()) return why;
            return v > 0 ? "" : "must be a positive number, not '" + s + "'";
        },
        "");
}

CLI::Validator one_of(std::vector<std::string> names) {
    return CLI::Validator(
        [names](std::string& s) -> std::string {
            for (const auto& n : names)
                if (s == n) return "";
            std::string list;
            for (std::size_t i = 0; i < names.size(); ++i)
                list += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
            return "unknown value '" + s + "' (expected " + list + ")";
        },
        "");
}

}  // namespace ltlkit::cli
