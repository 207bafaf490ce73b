// Language models: the corpus readers (WikiText-2's word level, char, byte), training below the
// unigram baseline, bit-identical resume, and the attention masks an LM relies on.
#include <torch/torch.h>  // before Catch2: glog defines CHECK

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

#include "base/file.hh"
#include "automata/random.hh"
#include "neural/lm/lm.hh"
#include "neural/lm/model.hh"
#include "tests/neural/fixtures.hh"

namespace {

using namespace ltlkit::neural;
using namespace ltlkit::neural::lm;
namespace fs = std::filesystem;

void write(const fs::path& p, const std::string& text) {
    std::ofstream(p, std::ios::binary) << text;
}

// Lines in WikiText-2's layout: a leading space, words separated by single spaces, headings as
// " = Title = ", blank lines " ".
const char* const kWikiTrain =
    " \n"
    " = Valkyria Chronicles III = \n"
    " \n"
    " Senjō no Valkyria 3 : <unk> Chronicles ( Japanese : 戦場のヴァルキュリア3 , lit . Valkyria of the Battlefield 3 ) , \n"
    " commonly referred to as Valkyria Chronicles III outside Japan , is a tactical role @-@ playing video game . \n"
    " \n"
    " = = Gameplay = = \n";
const char* const kWikiValid = " \n = Tower Building = \n The tower is a tactical building of the Battlefield . \n";
const char* const kWikiTest = " \n = Robert Boulter = \n Robert Boulter is an English film actor . \n";

// The word-level reading by another route: istringstream words per line, then <eos>.
std::vector<std::string> words_by_stream(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream lines(text);
    std::string line;
    while (std::getline(lines, line)) {
        std::istringstream ws(line);
        std::string w;
        while (ws >> w) out.push_back(w);
        out.emplace_back("<eos>");
    }
    return out;
}

long code_points(const std::string& s) {
    long n = 0;
    for (char ch : s) n += (static_cast<unsigned char>(ch) & 0xC0) != 0x80;
    return n;
}

long sum_chars(const Split& s) {
    long n = 0;
    for (auto c : s.chars) n += c;
    return n;
}

CorpusFiles three_files(const fs::path& dir, const std::string& train, const std::string& valid,
                        const std::string& test, const std::string& tokenizer) {
    fs::create_directories(dir);
    write(dir / "train.txt", train);
    write(dir / "valid.txt", valid);
    write(dir / "test.txt", test);
    CorpusFiles f;
    f.train = (dir / "train.txt").string();
    f.valid = (dir / "valid.txt").string();
    f.test = (dir / "test.txt").string();
    f.tokenizer = tokenizer;
    return f;
}

// A text with structure a model can learn beyond unigram frequencies: sentences from a small
// grammar, so that the next character depends on the previous ones.
std::string grammar_text(std::uint64_t seed, int sentences) {
    const char* subj[] = {"the cat", "a dog", "my friend", "the old man"};
    const char* verb[] = {"sees", "likes", "finds", "takes"};
    const char* obj[] = {"the ball.", "a red hat.", "some bread.", "the green door."};
    ltlkit::automata::Rng rng(seed);
    std::string s;
    for (int i = 0; i < sentences; ++i) {
        s += subj[rng.below(4)];
        s += ' ';
        s += verb[rng.below(4)];
        s += ' ';
        s += obj[rng.below(4)];
        s += '\n';
    }
    return s;
}

LmConfig tiny(const std::string& arch, const std::string& pe) {
    LmConfig c;
    c.model.arch = *parse_architecture(arch);
    c.model.pe = *parse_positional_encoding(pe);
    c.model.layers = 1;
    c.model.d_model = 32;
    c.model.heads = 2;
    c.model.d_ff = 64;
    c.model.context = 32;
    c.training.batch = 8;
    c.training.steps = 150;
    c.training.lr = 3e-3;
    c.training.warmup = 10;
    c.runtime.device = Device::Cpu;
    c.runtime.log_every = 0;
    c.runtime.checkpoint_every = 50;
    return c;
}

}  // namespace

TEST_CASE("the WikiText-2 reader: words per line plus <eos>, <unk> kept, unseen words to <unk>", "[lm]") {
    const auto dir = testing::scratch("lm-wikitext");
    fs::create_directories(dir);
    write(dir / "wiki.train.tokens", kWikiTrain);
    write(dir / "wiki.valid.tokens", kWikiValid);
    write(dir / "wiki.test.tokens", kWikiTest);
    auto c = read_corpus(wikitext_files(dir.string()));
    REQUIRE(c.ok());
    CHECK(c->tokenizer == "word");
    const auto expected = words_by_stream(kWikiTrain);
    REQUIRE(c->train.tokens.size() == expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) CHECK(c->vocab[static_cast<std::size_t>(c->train.tokens[i])] == expected[i]);
    CHECK(c->train.unknown == 0);
    // <unk> is the word of the file and the id of unseen words: "Tower", "Building", "building" are
    // absent from the training file.
    const auto valid_words = words_by_stream(kWikiValid);
    long unseen = 0;
    for (std::size_t i = 0; i < valid_words.size(); ++i) {
        const bool known = std::find(expected.begin(), expected.end(), valid_words[i]) != expected.end();
        unseen += !known;
        CHECK(c->vocab[static_cast<std::size_t>(c->valid.tokens[i])] == (known ? valid_words[i] : "<unk>"));
    }
    CHECK(unseen == 5);  // Tower, Building, tower, building, The
    CHECK(c->valid.unknown == unseen);
    // Characters: the text with words joined by single spaces and each line ended by a newline.
    for (const auto& [text, split] : {std::pair{std::string(kWikiTrain), &c->train}, std::pair{std::string(kWikiValid), &c->valid}}) {
        std::string normal;
        std::istringstream lines(text);
        std::string line;
        while (std::getline(lines, line)) {
            std::istringstream ws(line);
            std::string w, joined;
            while (ws >> w) joined += (joined.empty() ? "" : " ") + w;
            normal += joined + "\n";
        }
        CHECK(sum_chars(*split) == code_points(normal));
    }
    // The corpus identity changes with the files.
    const std::string id = c->identity_json();
    write(dir / "wiki.train.tokens", std::string(kWikiTrain) + " more words \n");
    auto c2 = read_corpus(wikitext_files(dir.string()));
    REQUIRE(c2.ok());
    CHECK(c2->vocab_sha256 != c->vocab_sha256);
    CHECK(c2->identity_json() != id);
    fs::remove_all(dir);
}

TEST_CASE("char and byte tokenizers count the same characters, and bad corpora are one-line errors", "[lm]") {
    const auto dir = testing::scratch("lm-char");
    const std::string text = "naïve café — déjà vu\nplain ascii line\n";
    auto chars = read_corpus(three_files(dir, text, text, text, "char"));
    auto bytes = read_corpus(three_files(dir, text, text, text, "byte"));
    REQUIRE(chars.ok());
    REQUIRE(bytes.ok());
    CHECK(static_cast<long>(chars->train.tokens.size()) == code_points(text));
    CHECK(sum_chars(chars->train) == code_points(text));
    CHECK(sum_chars(bytes->train) == static_cast<long>(chars->train.tokens.size()));
    CHECK(bytes->train.tokens.size() == text.size());
    CHECK(detokenize(*chars, chars->train.tokens) == text);
    CHECK(detokenize(*bytes, bytes->train.tokens) == text);

    auto empty = read_corpus(three_files(dir, text, "", text, "char"));
    REQUIRE_FALSE(empty.ok());
    CHECK_THAT(empty.error().one_line(), Catch::Contains("valid.txt") && Catch::Contains("empty corpus"));
    auto blank = read_corpus(three_files(dir, " \n \n", text, text, "word"));
    REQUIRE_FALSE(blank.ok());
    CHECK_THAT(blank.error().one_line(), Catch::Contains("empty corpus"));
    auto bad = read_corpus(three_files(dir, "line one\nline \xff two\n", text, text, "char"));
    REQUIRE_FALSE(bad.ok());
    CHECK_THAT(bad.error().one_line(), Catch::Contains("train.txt:2") && Catch::Contains("invalid UTF-8"));
    CorpusFiles missing = three_files(dir, text, text, text, "char");
    missing.test = (dir / "nope.txt").string();
    auto m = read_corpus(missing);
    REQUIRE_FALSE(m.ok());
    CHECK_THAT(m.error().one_line(), Catch::Contains("nope.txt"));
    fs::remove_all(dir);
}

TEST_CASE("a tiny language model trains below the unigram baseline on validation text", "[lm][train]") {
    const auto dir = testing::scratch("lm-learn");
    auto corpus = read_corpus(three_files(dir, grammar_text(1, 1500), grammar_text(2, 60), grammar_text(3, 60), "char"));
    REQUIRE(corpus.ok());
    // The unigram baseline by another route: add-one character frequencies of the training text.
    std::map<std::int32_t, double> count;
    for (auto t : corpus->train.tokens) count[t] += 1;
    const double V = static_cast<double>(corpus->vocab.size());
    const double total = static_cast<double>(corpus->train.tokens.size()) + V;
    double nll = 0;
    for (std::size_t i = 1; i < corpus->valid.tokens.size(); ++i) nll -= std::log((count[corpus->valid.tokens[i]] + 1) / total);
    const double unigram = std::exp(nll / static_cast<double>(corpus->valid.tokens.size() - 1));
    for (const char* arch : {"global", "hybrid-1"}) {
        auto r = train_lm(tiny(arch, "rope"), *corpus, (dir / arch).string());
        REQUIRE(r.ok());
        CHECK(r->unigram_valid_ppl == Approx(unigram).epsilon(1e-9));
        CHECK(r->valid.tokens == static_cast<long>(corpus->valid.tokens.size()) - 1);
        CHECK(r->valid.chars == r->valid.tokens);
        CHECK(r->valid.ppl_token() == Approx(r->valid.ppl_char()));
        CHECK(r->valid.bits_per_char() == Approx(std::log2(r->valid.ppl_char())));
        INFO(arch << ": valid perplexity " << r->valid.ppl_token() << ", unigram " << unigram);
        CHECK(r->valid.ppl_token() < 0.7 * unigram);
        CHECK(fs::exists(dir / arch / "run.json"));
        CHECK(fs::exists(dir / arch / "metrics.jsonl"));
    }
    fs::remove_all(dir);
}

TEST_CASE("a language-model run resumed from its checkpoint equals the uninterrupted run bit for bit", "[lm][train]") {
    const auto dir = testing::scratch("lm-resume");
    auto corpus = read_corpus(three_files(dir, grammar_text(4, 300), grammar_text(5, 20), grammar_text(6, 20), "char"));
    REQUIRE(corpus.ok());
    for (const char* pe : {"learned", "rope"}) {
        LmConfig c = tiny("hybrid-2", pe);
        c.training.steps = 24;
        c.runtime.checkpoint_every = 8;
        c.runtime.log_every = 4;
        const auto a = dir / (std::string("straight-") + pe), b = dir / (std::string("killed-") + pe);
        auto ra = train_lm(c, *corpus, a.string());
        REQUIRE(ra.ok());
        // Interrupted at step 12 (after the checkpoint of step 8), then resumed.
        auto stop = [](const LmProgress& p) {
            if (p.step == 12) throw std::runtime_error("interrupted");
        };
        REQUIRE_THROWS_AS(train_lm(c, *corpus, b.string(), stop), std::runtime_error);
        auto rb = train_lm(c, *corpus, b.string());
        REQUIRE(rb.ok());
        CHECK(rb->steps_done == 24);
        CHECK(rb->valid.nll == ra->valid.nll);
        CHECK(rb->test.nll == ra->test.nll);
        CHECK(*ltlkit::read_file((a / "metrics.jsonl").string()) ==
              *ltlkit::read_file((b / "metrics.jsonl").string()));
        // Another configuration does not resume from that checkpoint.
        LmConfig other = c;
        other.training.lr *= 2;
        auto ro = train_lm(other, *corpus, b.string());
        REQUIRE_FALSE(ro.ok());
        CHECK_THAT(ro.error().message, Catch::Contains("another configuration"));
    }
    fs::remove_all(dir);
}

TEST_CASE("standard local-k attention is strict local-(k+1) attention one position later", "[lm][attention]") {
    torch::manual_seed(7);
    const long n = 9;
    auto q = torch::randn({2, 3, n, 4}), k = torch::randn({2, 3, n, 4}), v = torch::randn({2, 3, n, 4});
    // Row i of a standard mask sees keys max(1, i-k)..i; row i+1 of a strict (k+1)-local mask sees
    // max(1, i-k)..i: the same keys, so with the query of i moved to i+1 the outputs agree.
    auto shifted_q = torch::nn::functional::pad(q, torch::nn::functional::PadFuncOptions({0, 0, 1, 0}));
    auto pad_kv = [](const torch::Tensor& t) {  // an extra last key that no compared row sees
        return torch::cat({t, torch::zeros_like(t.narrow(2, 0, 1))}, 2);
    };
    for (int window : {0, 1, 2, 4}) {
        auto standard = window == 0 ? global_attention(q, k, v, false) : local_attention(q, k, v, window, false);
        auto strict = window == 0 ? global_attention(shifted_q, pad_kv(k), pad_kv(v), true)
                                  : local_attention(shifted_q, pad_kv(k), pad_kv(v), window + 1, true);
        INFO("window " << window);
        CHECK(torch::allclose(standard, strict.narrow(2, 1, n), 1e-5, 1e-6));
        // Position 1 under a strict mask attends to nothing: the zero vector.
        CHECK(strict.narrow(2, 0, 1).abs().max().item<float>() == 0.0f);
    }
}

TEST_CASE("LM logits: banded heads equal dense masks, and no position sees a later token", "[lm][attention]") {
    const int V = 11;
    for (const char* arch : {"global", "local-1", "local-3", "hybrid-1", "hybrid-3"})
        for (bool strict : {false, true})
            for (const char* pe : {"none", "learned", "sinusoidal", "rope"}) {
                LmConfig c = tiny(arch, pe);
                c.model.strict = strict;
                c.model.layers = 2;
                c.model.context = 16;
                torch::manual_seed(3);
                LanguageModel m(c, V);
                m->eval();
                torch::NoGradGuard ng;
                auto tokens = torch::randint(V, {3, 16}, torch::kLong);
                auto banded = m->forward(tokens);
                m->set_reference(true);
                auto dense = m->forward(tokens);
                m->set_reference(false);
                INFO(arch << " strict=" << strict << " pe=" << pe);
                CHECK(torch::allclose(banded, dense, 1e-4, 1e-5));
                // Changing the tokens after position 8 leaves the logits of positions 1..8 unchanged.
                auto changed = tokens.clone();
                changed.narrow(1, 8, 8).random_(V);
                CHECK(torch::allclose(m->forward(changed).narrow(1, 0, 8), banded.narrow(1, 0, 8), 1e-5, 1e-6));
            }
    LmConfig c = tiny("global", "learned");
    LanguageModel m(c, V);
    CHECK_THROWS_AS(m->forward(torch::zeros({1, c.model.context + 1}, torch::kLong)), std::length_error);
}

TEST_CASE("sweep tables: mean, sample sd and differences to global per encoding", "[lm]") {
    const Architecture global{}, hybrid1{Architecture::Kind::Hybrid, 1};
    std::vector<SweepCell> cells = {{global, PositionalEncoding::Rope, {10, 12}, {10, 14}, {1, 1}},
                                    {hybrid1, PositionalEncoding::Rope, {8, 8}, {9, 11}, {1, 1}},
                                    {global, PositionalEncoding::Learned, {20, 20}, {20, 20}, {1, 1}}};
    const std::string md = sweep_markdown(cells);
    CHECK_THAT(md, Catch::Contains("| global | 12.00 ± 2.83 (n=2) | – |"));
    CHECK_THAT(md, Catch::Contains("| hybrid-1 | 10.00 ± 1.41 (n=2) | −2.00 |"));
    CHECK_THAT(sweep_svg(cells), Catch::StartsWith("<svg") && Catch::Contains("hybrid-1 rope: 10.00 ± 1.41"));
    std::vector<std::string> names;
    for (const auto& a : sweep_archs({Architecture::Kind::Global, Architecture::Kind::Local, Architecture::Kind::Hybrid}, {1, 4}))
        names.push_back(to_string(a));
    CHECK(names == std::vector<std::string>{"global", "local-1", "local-4", "hybrid-1", "hybrid-4"});
}

TEST_CASE("LM configs: JSON round trip per part, the resume key ignores the runtime, bad names are errors", "[lm]") {
    for (const char* profile : {"cpu", "gpu"}) {
        LmConfig c = *lm_profile(profile);
        c.model.arch = {Architecture::Kind::Hybrid, 3};
        c.model.pe = PositionalEncoding::Rope;
        c.training.seed = 9;
        c.runtime.eval_tokens = 77;
        auto back = lm_config_from_json(lm_config_to_json(c));
        REQUIRE(back.ok());
        CHECK(*back == c);
        LmConfig other = c;
        other.runtime = LmRuntime{};
        CHECK(lm_training_key(other) == lm_training_key(c));
        other.training.seed = 10;
        CHECK(lm_training_key(other) != lm_training_key(c));
        other = c;
        other.model.arch = {Architecture::Kind::Local, 3};
        CHECK(lm_training_key(other) != lm_training_key(c));
    }
    CHECK(lm_config_from_json(R"({"pe":"alibi"})").error().message ==
          "unknown positional encoding 'alibi' (expected none, learned, sinusoidal or rope)");
    CHECK(lm_config_from_json(R"({"arch":"lstm"})").error().message ==
          "--arch lstm is not a language-model pattern (expected global, local-K or hybrid-K)");
    CHECK(lm_config_from_json(R"({"device":"gpu"})").error().message == "unknown device 'gpu' (expected auto, cpu or cuda)");
}
