// Corpora (word, char and byte tokenizers) and results of language-model runs. Torch-free.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "base/checksum.hh"
#include "base/file.hh"
#include "neural/lm/lm.hh"
#include "neural/run.hh"

namespace ltlkit::neural::lm {

using nlohmann::json;

namespace {

// Length of the UTF-8 sequence starting at s[i] (1..4), or 0 when it is malformed.
std::size_t utf8_length(const std::string& s, std::size_t i) {
    const auto b = static_cast<unsigned char>(s[i]);
    std::size_t n = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xE ? 3 : (b >> 3) == 0x1E ? 4 : 0;
    if (n == 0 || i + n > s.size()) return 0;
    for (std::size_t k = 1; k < n; ++k)
        if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return 0;
    return n;
}

// Splits UTF-8 text into code points (each as its bytes); Error FILE:LINE on malformed input.
Result<std::vector<std::string>> code_points(const std::string& path, const std::string& text) {
    std::vector<std::string> out;
    out.reserve(text.size());
    int line = 1;
    for (std::size_t i = 0; i < text.size();) {
        const std::size_t n = utf8_length(text, i);
        if (n == 0) {
            Error e = make_error("invalid UTF-8 (byte " + std::to_string(i) +
                                 "): use --tokenizer byte for binary or non-UTF-8 text");
            e.origin = path;
            e.line = line;
            return e;
        }
        if (text[i] == '\n') ++line;
        out.push_back(text.substr(i, n));
        i += n;
    }
    return out;
}

struct RawSplit {
    std::vector<std::string> tokens;
    std::vector<std::uint16_t> chars;
};

bool is_space(char ch) { return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\f' || ch == '\v'; }

// The word tokenizer: per line, its whitespace-separated words, then <eos>.
Result<RawSplit> word_tokens(const std::string& path, const std::string& text) {
    auto cps = code_points(path, text);  // validates UTF-8
    if (!cps.ok()) return cps.error();
    RawSplit r;
    std::size_t i = 0;
    while (i < text.size()) {
        std::size_t end = text.find('\n', i);
        if (end == std::string::npos) end = text.size();
        bool any = false;
        for (std::size_t j = i; j < end;) {
            while (j < end && is_space(text[j])) ++j;
            if (j == end) break;
            std::size_t k = j;
            while (k < end && !is_space(text[k])) ++k;
            std::string w = text.substr(j, k - j);
            long n = 0;
            for (char ch : w) n += (static_cast<unsigned char>(ch) & 0xC0) != 0x80;
            r.tokens.push_back(std::move(w));
            r.chars.push_back(static_cast<std::uint16_t>(std::min<long>(65535, n + 1)));
            any = true;
            j = k;
        }
        r.tokens.emplace_back("<eos>");
        r.chars.push_back(any ? 0 : 1);
        i = end + 1;
    }
    return r;
}

std::string byte_name(int b) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "<0x%02X>", b);
    return buf;
}

const char* const kUnk = "<unk>";

}  // namespace

CorpusFiles wikitext_files(const std::string& dir) {
    CorpusFiles f;
    const std::string d = dir.empty() || dir.back() == '/' ? dir : dir + "/";
    f.train = d + "wiki.train.tokens";
    f.valid = d + "wiki.valid.tokens";
    f.test = d + "wiki.test.tokens";
    f.tokenizer = "word";
    return f;
}

Result<Corpus> read_corpus(const CorpusFiles& files) {
    Corpus c;
    c.tokenizer = files.tokenizer;
    if (c.tokenizer != "word" && c.tokenizer != "char" && c.tokenizer != "byte")
        return make_error("unknown tokenizer '" + c.tokenizer + "' (expected word, char or byte)");
    const std::pair<const std::string*, Split*> parts[] = {
        {&files.train, &c.train}, {&files.valid, &c.valid}, {&files.test, &c.test}};
    std::vector<RawSplit> raw(3);
    for (int s = 0; s < 3; ++s) {
        const std::string& path = *parts[s].first;
        const char* names[] = {"training", "validation", "test"};
        if (path.empty()) return make_error(std::string("no ") + names[s] + " file given");
        auto text = read_file(path);
        if (!text.ok()) return text.error();
        parts[s].second->path = path;
        parts[s].second->sha256 = sha256_hex(*text);
        if (c.tokenizer == "word") {
            auto w = word_tokens(path, *text);
            if (!w.ok()) return w.error();
            // A file of blank lines has only <eos> tokens: nothing to model.
            const bool words = std::any_of(w->tokens.begin(), w->tokens.end(),
                                           [](const std::string& t) { return t != "<eos>"; });
            if (!words) return make_error(path + ": empty corpus (no words)");
            raw[s] = std::move(w).value();
        } else if (c.tokenizer == "char") {
            auto cps = code_points(path, *text);
            if (!cps.ok()) return cps.error();
            raw[s].tokens = std::move(cps).value();
            raw[s].chars.assign(raw[s].tokens.size(), 1);
        } else {
            for (char ch : *text) {
                raw[s].tokens.push_back(byte_name(static_cast<unsigned char>(ch)));
                raw[s].chars.push_back((static_cast<unsigned char>(ch) & 0xC0) != 0x80);
            }
        }
        if (raw[s].tokens.size() < 2)
            return make_error(path + ": empty corpus (" + std::to_string(raw[s].tokens.size()) +
                              " tokens; at least 2 are needed)");
    }
    // Vocabulary: byte -> all 256 values; otherwise <unk> (and <eos>), then the training split's
    // distinct tokens in byte order.
    if (c.tokenizer == "byte") {
        for (int b = 0; b < 256; ++b) c.vocab.push_back(byte_name(b));
    } else {
        c.vocab.emplace_back(kUnk);
        if (c.tokenizer == "word") c.vocab.emplace_back("<eos>");
        std::set<std::string> seen(raw[0].tokens.begin(), raw[0].tokens.end());
        for (const auto& t : c.vocab) seen.erase(t);
        c.vocab.insert(c.vocab.end(), seen.begin(), seen.end());
    }
    std::unordered_map<std::string, std::int32_t> id;
    std::string listing;
    for (std::size_t i = 0; i < c.vocab.size(); ++i) {
        id.emplace(c.vocab[i], static_cast<std::int32_t>(i));
        listing += c.vocab[i] + "\n";
    }
    c.vocab_sha256 = sha256_hex(c.tokenizer + "\n" + listing);
    for (int s = 0; s < 3; ++s) {
        Split& sp = *parts[s].second;
        sp.tokens.reserve(raw[s].tokens.size());
        for (const auto& t : raw[s].tokens) {
            auto it = id.find(t);
            if (it == id.end()) {
                sp.tokens.push_back(0);  // <unk>
                ++sp.unknown;
            } else {
                sp.tokens.push_back(it->second);
            }
        }
        sp.chars = std::move(raw[s].chars);
    }
    return c;
}

std::string Corpus::identity_json() const {
    json j{{"tokenizer", tokenizer}, {"vocab_size", vocab.size()}, {"vocab_sha256", vocab_sha256}};
    for (const auto* s : {&train, &valid, &test}) {
        const char* name = s == &train ? "train" : s == &valid ? "valid" : "test";
        j[name] = {{"path", s->path}, {"sha256", s->sha256}, {"tokens", s->tokens.size()},
                   {"unknown", s->unknown}};
    }
    return j.dump();
}

std::string detokenize(const Corpus& c, const std::vector<std::int32_t>& tokens) {
    std::string out;
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        const std::string& t = c.vocab.at(static_cast<std::size_t>(tokens[i]));
        if (c.tokenizer == "byte") {
            out += static_cast<char>(std::stoi(t.substr(3, 2), nullptr, 16));
        } else if (c.tokenizer == "word") {
            if (t == "<eos>") {
                out += '\n';
            } else {
                if (!out.empty() && out.back() != '\n') out += ' ';
                out += t;
            }
        } else {
            out += t;
        }
    }
    return out;
}

// ---- scores and results

double SplitScore::ppl_token() const { return tokens > 0 ? std::exp(nll / static_cast<double>(tokens)) : NAN; }
double SplitScore::ppl_char() const { return chars > 0 ? std::exp(nll / static_cast<double>(chars)) : NAN; }
double SplitScore::bits_per_char() const {
    return chars > 0 ? nll / (static_cast<double>(chars) * std::log(2.0)) : NAN;
}

std::string score_to_json(const SplitScore& s) {
    json j{{"tokens", s.tokens}, {"chars", s.chars}, {"nll", s.nll}, {"ppl_token", s.ppl_token()},
           {"ppl_char", s.ppl_char()}, {"bits_per_char", s.bits_per_char()}};
    return j.dump();
}

std::string lm_result_to_json(const LmResult& r) {
    json j{{"config", json::parse(lm_config_to_json(r.config))},
           {"corpus", json::parse(r.corpus_json.empty() ? "{}" : r.corpus_json)},
           {"parameters", r.parameters},
           {"steps_done", r.steps_done},
           {"train_seconds", r.train_seconds},
           {"tokens_per_second", r.tokens_per_second},
           {"wall_seconds", r.wall_seconds},
           {"final_loss", r.final_loss},
           {"valid", json::parse(score_to_json(r.valid))},
           {"test", json::parse(score_to_json(r.test))},
           {"unigram_valid_ppl", r.unigram_valid_ppl},
           {"eval_context", r.eval_context > 0 ? r.eval_context : r.config.model.context},
           {"device", r.device}};
    return json_with_checksum(j.dump(), 2);
}

Result<LmResult> lm_result_from_json(const std::string& text) {
    LmResult r;
    try {
        auto j = json::parse(text);
        auto c = lm_config_from_json(j.at("config").dump());
        if (!c.ok()) return c.error();
        r.config = *c;
        r.corpus_json = j.at("corpus").dump();
        r.parameters = j.at("parameters").get<long>();
        r.steps_done = j.at("steps_done").get<int>();
        r.train_seconds = j.at("train_seconds").get<double>();
        r.tokens_per_second = j.at("tokens_per_second").get<double>();
        r.wall_seconds = j.at("wall_seconds").get<double>();
        r.final_loss = j.at("final_loss").get<double>();
        for (auto [name, s] : {std::pair{"valid", &r.valid}, std::pair{"test", &r.test}}) {
            const auto& o = j.at(name);
            s->tokens = o.at("tokens").get<long>();
            s->chars = o.at("chars").get<long>();
            s->nll = o.at("nll").get<double>();
        }
        r.unigram_valid_ppl = j.at("unigram_valid_ppl").get<double>();
        r.eval_context = j.value("eval_context", r.config.model.context);
        r.device = j.at("device").get<std::string>();
    } catch (const std::exception& e) {
        return make_error(std::string("language-model result: ") + e.what());
    }
    return r;
}

}  // namespace ltlkit::neural::lm
