#include "base/json.hh"

#include "base/text.hh"

#include <cctype>
#include <cstring>
#include <iterator>
#include <unordered_set>
#include <vector>

namespace ltlkit {

namespace {

Error error_at(const std::string& text, std::size_t offset, std::string message) {
    Error e = make_error(std::move(message));
    auto p = text_position(text, offset);
    e.line = p.line;
    e.column = p.column;
    e.source_line = std::move(p.line_text);
    return e;
}

// A pointer over the text that publishes how far the parser has read, so that the key check
// knows where the key it is given ends.
class TrackingIterator {
public:
    using iterator_category = std::input_iterator_tag;
    using value_type = char;
    using difference_type = std::ptrdiff_t;
    using pointer = const char*;
    using reference = const char&;

    TrackingIterator(const char* p, const char** read_to) : p_(p), read_to_(read_to) {}
    reference operator*() const { return *p_; }
    TrackingIterator& operator++() {
        *read_to_ = ++p_;
        return *this;
    }
    TrackingIterator operator++(int) {
        TrackingIterator old = *this;
        ++*this;
        return old;
    }
    bool operator==(const TrackingIterator& o) const { return p_ == o.p_; }
    bool operator!=(const TrackingIterator& o) const { return p_ != o.p_; }

private:
    const char* p_;
    const char** read_to_;
};

// The keys of one open object (or the element count of one open array).
struct Frame {
    bool object = true;
    std::size_t index = 0;  // arrays: the element being read
    std::string key;        // objects: the member being read
    std::vector<std::string> few;
    std::unordered_set<std::string> many;

    bool insert(const std::string& k) {
        if (many.empty() && few.size() < 16) {
            for (const auto& x : few)
                if (x == k) return false;
            few.push_back(k);
            return true;
        }
        if (many.empty()) many.insert(few.begin(), few.end());
        return many.insert(k).second;
    }
};

std::string escape_pointer_token(const std::string& s) {
    std::string out;
    for (char c : s) out += c == '~' ? std::string("~0") : c == '/' ? std::string("~1") : std::string(1, c);
    return out;
}

struct TooDeep {
    std::size_t offset = 0;  // of the opening bracket
};

struct DuplicateKey {
    std::string key;
    std::string pointer;  // of the object holding it
    std::size_t offset = 0;  // of the key's opening quote
};

// Offset of the opening quote of the string literal whose closing quote is at `close`.
std::size_t opening_quote(const std::string& text, std::size_t close) {
    for (std::size_t i = close; i-- > 0;) {
        if (text[i] != '"') continue;
        std::size_t backslashes = 0;
        while (backslashes < i && text[i - 1 - backslashes] == '\\') ++backslashes;
        if (backslashes % 2 == 0) return i;
    }
    return close;
}

// nlohmann's DOM builder (the one json::parse uses), with each object's keys checked on the way.
// (nlohmann's parse callbacks would do the check too, but their parser rescans the enclosing
// array after every object, which is quadratic in the length of an array of objects.)
template <class Json>
class StrictSax {
public:
    using number_integer_t = typename Json::number_integer_t;
    using number_unsigned_t = typename Json::number_unsigned_t;
    using number_float_t = typename Json::number_float_t;
    using string_t = typename Json::string_t;
    using binary_t = typename Json::binary_t;

    StrictSax(Json& result, const std::string& text, const char* const& read_to)
        : dom_(result, true), text_(text), read_to_(read_to) {}

    bool null() { return element_done(dom_.null()); }
    bool boolean(bool v) { return element_done(dom_.boolean(v)); }
    bool number_integer(number_integer_t v) { return element_done(dom_.number_integer(v)); }
    bool number_unsigned(number_unsigned_t v) { return element_done(dom_.number_unsigned(v)); }
    bool number_float(number_float_t v, const string_t& s) { return element_done(dom_.number_float(v, s)); }
    bool string(string_t& v) { return element_done(dom_.string(v)); }
    bool binary(binary_t& v) { return element_done(dom_.binary(v)); }
    bool start_object(std::size_t n) {
        check_depth();
        frames_.emplace_back();
        return dom_.start_object(n);
    }
    bool start_array(std::size_t n) {
        check_depth();
        frames_.emplace_back();
        frames_.back().object = false;
        return dom_.start_array(n);
    }
    bool end_object() {
        frames_.pop_back();
        return element_done(dom_.end_object());
    }
    bool end_array() {
        frames_.pop_back();
        return element_done(dom_.end_array());
    }
    bool key(string_t& k) {
        Frame& f = frames_.back();
        f.key = k;
        if (!f.insert(k)) {
            std::string pointer;
            for (std::size_t i = 0; i + 1 < frames_.size(); ++i) {
                pointer += '/';
                pointer += frames_[i].object ? escape_pointer_token(frames_[i].key) : std::to_string(frames_[i].index);
            }
            // The parser has just read the key's closing quote.
            const auto close = static_cast<std::size_t>(read_to_ - text_.data()) - 1;
            throw DuplicateKey{k, pointer, opening_quote(text_, close)};
        }
        return dom_.key(k);
    }
    template <class Exception>
    bool parse_error(std::size_t position, const std::string& token, const Exception& e) {
        return dom_.parse_error(position, token, e);
    }

private:
    // The parser has just read the opening bracket of a value one level deeper.
    void check_depth() const {
        if (frames_.size() >= kMaxJsonDepth)
            throw TooDeep{static_cast<std::size_t>(read_to_ - text_.data()) - 1};
    }

    // A value is complete: the enclosing array moves to its next element.
    bool element_done(bool ok) {
        if (!frames_.empty() && !frames_.back().object) ++frames_.back().index;
        return ok;
    }

    nlohmann::detail::json_sax_dom_parser<Json> dom_;
    std::vector<Frame> frames_;
    const std::string& text_;
    const char* const& read_to_;
};

}  // namespace

template <class Json>
Result<Json> parse_json(const std::string& text) {
    if (auto bom = check_no_byte_order_mark(text); !bom.ok()) return bom.error();
    const char* read_to = text.data();
    try {
        const char* begin = text.data();
        Json result;
        StrictSax<Json> sax(result, text, read_to);
        Json::sax_parse(TrackingIterator(begin, &read_to), TrackingIterator(begin + text.size(), &read_to), &sax);
        return result;
    } catch (const TooDeep& d) {
        return error_at(text, d.offset,
                        "JSON nested deeper than " + std::to_string(kMaxJsonDepth) +
                            " levels (ltlkit's JSON files nest a few levels; is this the right file?)");
    } catch (const DuplicateKey& d) {
        return error_at(text, d.offset,
                        "duplicate key " + nlohmann::json(d.key).dump() +
                            (d.pointer.empty() ? "" : " in the object at " + d.pointer) +
                            " (a key may appear only once in an object)");
    } catch (const nlohmann::json::parse_error& e) {
        // "[json.exception.parse_error.101] parse error at line 1, column 5: syntax error ..."
        const std::string what = e.what();
        const auto colon = what.find(": ", what.find("parse error"));
        return error_at(text, e.byte ? e.byte - 1 : 0,
                        "malformed JSON: " + (colon == std::string::npos ? what : what.substr(colon + 2)));
    } catch (const nlohmann::json::exception& e) {  // out_of_range.406: a number literal too large (1E99999)
        const std::string what = e.what();
        const auto bracket = what.find("] ");
        // The parser has just read the number's last character: its position is LINE:COL.
        std::size_t at = static_cast<std::size_t>(read_to - text.data());
        auto number_char = [&](std::size_t i) { return std::isdigit(static_cast<unsigned char>(text[i])) || std::strchr("+-.eE", text[i]); };
        if (at > 0 && !number_char(at - 1)) --at;  // the character the lexer read past the number
        while (at > 0 && number_char(at - 1)) --at;
        return error_at(text, at, "malformed JSON: " + (bracket == std::string::npos ? what : what.substr(bracket + 2)));
    }
}

template Result<nlohmann::json> parse_json(const std::string& text);
template Result<nlohmann::ordered_json> parse_json(const std::string& text);

template <class Json>
std::string json_excerpt(const Json& v, std::size_t max_chars) {
    // Depth-first over an explicit stack of (container, next child); stops once the text is long.
    struct Open {
        const Json* value;
        typename Json::const_iterator next;
    };
    std::string out;
    std::vector<Open> stack;
    auto emit = [&](const Json& x) {
        if (x.is_array() || x.is_object()) {
            out += x.is_array() ? '[' : '{';
            stack.push_back({&x, x.cbegin()});
        } else if (x.is_string()) {
            const auto& s = x.template get_ref<const typename Json::string_t&>();
            out += Json(s.size() > max_chars ? s.substr(0, max_chars) : s).dump(-1, ' ', false,
                                                                                 Json::error_handler_t::replace);
        } else {
            out += x.dump();
        }
    };
    emit(v);
    while (!stack.empty() && out.size() <= max_chars) {
        Open& top = stack.back();
        if (top.next == top.value->cend()) {
            out += top.value->is_array() ? ']' : '}';
            stack.pop_back();
            continue;
        }
        if (top.next != top.value->cbegin()) out += ',';
        const auto it = top.next++;
        if (top.value->is_object()) out += Json(it.key()).dump(-1, ' ', false, Json::error_handler_t::replace) + ':';
        emit(*it);
    }
    if (out.size() > max_chars || !stack.empty()) {
        std::size_t cut = std::min(out.size(), max_chars);
        while (cut > 0 && (static_cast<unsigned char>(out[cut]) & 0xC0) == 0x80) --cut;  // whole characters
        out = out.substr(0, cut) + "…";
    }
    return out;
}

template std::string json_excerpt(const nlohmann::json& v, std::size_t max_chars);
template std::string json_excerpt(const nlohmann::ordered_json& v, std::size_t max_chars);

}  // namespace ltlkit
