// Dataset generator and reader: balance, labels, disjointness, reproducibility, boundary and
// adversarial pairs, reruns, formats, reader errors.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "automata/dataset.hh"
#include "base/checksum.hh"
#include "automata/sampler.hh"
#include "support/dfa_builders.hh"

using namespace ltlkit::automata;
using ltlkit::json_with_checksum;
using ltlkit::sha256_hex;
namespace fs = std::filesystem;

namespace {

using ltlkit::testing::make_dfa;

// Σ*ab over {a, b}: states 0 (start), 1 (after a), 2 (after ab).
Dfa contains_suffix_ab() { return make_dfa({"a", "b"}, 0, {0, 0, 1}, {1, 0, 1, 2, 1, 0}); }
// Σ*a over {a, b, c}.
Dfa ends_with_a() { return make_dfa({"a", "b", "c"}, 0, {0, 1}, {1, 0, 0, 1, 0, 0}); }
// Words with an even number of b0 over multi-character symbols {b0, b1}.
Dfa even_b0() { return make_dfa({"b0", "b1"}, 0, {1, 0}, {1, 0, 0, 1}); }

bool run(const Dfa& d, const Word& w) {
    State q = d.initial;
    for (Symbol a : w) q = d.delta[q * d.alphabet.size() + a];
    return d.accepting[q] != 0;
}

// Words of length n with the label, by a plain per-state count (independent of the sampler).
std::uint64_t brute_count(const Dfa& d, std::size_t n, bool label) {
    const std::size_t k = d.alphabet.size(), S = d.accepting.size();
    std::vector<std::uint64_t> c(S), next(S);
    for (std::size_t q = 0; q < S; ++q) c[q] = (d.accepting[q] != 0) == label;
    for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t q = 0; q < S; ++q) {
            next[q] = 0;
            for (std::size_t a = 0; a < k; ++a) next[q] += c[d.delta[q * k + a]];
        }
        std::swap(c, next);
    }
    return c[d.initial];
}

std::size_t edit_distance(const Word& a, const Word& b) {
    std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        cur[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j)
            cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1])});
        std::swap(prev, cur);
    }
    return prev[b.size()];
}

struct TempDir {
    fs::path path;
    explicit TempDir(const std::string& name) {
        std::string leaf = "ltlkit-test-dataset-";
        leaf += std::to_string(getpid());
        leaf += '-';
        leaf += name;
        path = fs::temp_directory_path() / leaf;
        fs::remove_all(path);
    }
    ~TempDir() { fs::remove_all(path); }
    std::string str() const { return path.string(); }
};

std::string slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream os;
    os << in.rdbuf();
    return os.str();
}

std::map<std::string, std::string> all_files(const fs::path& dir) {
    std::map<std::string, std::string> out;
    for (const auto& e : fs::recursive_directory_iterator(dir))
        if (e.is_regular_file()) out[fs::relative(e.path(), dir).string()] = slurp(e.path());
    return out;
}

// A plain family x·p^r·y / x·p^r·z with its note.
AdversarialFamily plain_family(Word x, Word p, Word y, Word z, std::size_t r_min, std::string note) {
    AdversarialFamily f;
    f.family.x = std::move(x);
    f.family.p = std::move(p);
    f.family.y = std::move(y);
    f.family.z = std::move(z);
    f.family.r_min = r_min;
    f.note = std::move(note);
    return f;
}

DatasetOptions small_options() {
    DatasetOptions o;
    o.train = {1, 8};
    o.test = {9, 16};
    o.per_length = 16;
    o.boundary_per_length = 4;
    o.seed = 3;
    o.language_name = "test";
    o.language_kind = "dfa";
    o.language_text = "hand-made";
    return o;
}

std::set<Word> words_of(const Split& s) {
    std::set<Word> out;
    for (const auto& e : s.examples) out.insert(e.word);
    return out;
}

}  // namespace

TEST_CASE("length ranges and formats parse, bad ranges are errors", "[dataset]") {
    CHECK(parse_length_range("1:40").ok());
    CHECK(parse_length_range("1:40")->hi == 40);
    CHECK(parse_length_range("7")->lo == 7);
    CHECK_FALSE(parse_length_range("5:3").ok());
    CHECK_FALSE(parse_length_range("a:b").ok());
    CHECK_FALSE(parse_length_range("1:").ok());
    CHECK_FALSE(parse_length_range("-1:4").ok());
    CHECK(to_string(LengthRange{41, 500}) == "41:500");
    CHECK(parse_dataset_format("flare").ok());
    CHECK_FALSE(parse_dataset_format("csv").ok());
}

TEST_CASE("sha256 matches the FIPS 180-4 test vectors", "[dataset]") {
    CHECK(sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    CHECK(sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    CHECK(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
          "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    CHECK(sha256_hex(std::string(1000000, 'a')) ==
          "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST_CASE("splits are balanced per length, labels agree with the DFA, shortfalls are recorded",
          "[dataset]") {
    for (const Dfa& d : {contains_suffix_ab(), ends_with_a(), even_b0()}) {
        TempDir dir("balance");
        DatasetOptions o = small_options();
        auto rep = generate_dataset(d, dir.str(), o);
        REQUIRE(rep.ok());
        auto ds = read_dataset(dir.str(), false);
        REQUIRE(ds.ok());
        REQUIRE(ds->find("train"));
        REQUIRE(ds->find("validation"));
        REQUIRE(ds->find("test"));
        auto meta = nlohmann::json::parse(ds->meta_json);
        std::size_t shortfalls_expected = 0;
        for (const char* name : {"train", "validation", "test"}) {
            const Split& s = *ds->find(name);
            std::map<std::size_t, std::array<std::uint64_t, 2>> counts;
            std::set<Word> distinct;
            for (const auto& e : s.examples) {
                CHECK(run(d, e.word) == e.label);
                ++counts[e.word.size()][e.label];
                distinct.insert(e.word);
            }
            CHECK(distinct.size() == s.examples.size());  // no repeated word in a split
            const LengthRange r = std::string(name) == "test" ? o.test : o.train;
            for (std::size_t n = r.lo; n <= r.hi; ++n) {
                for (int label = 0; label < 2; ++label) {
                    std::uint64_t exist = brute_count(d, n, label);
                    std::uint64_t q = 8;
                    // validation comes after train in the pool of its length
                    std::uint64_t avail = std::string(name) == "validation" ? exist - std::min(exist, q) : exist;
                    std::uint64_t expect = std::min(q, avail);
                    INFO(name << " n=" << n << " label=" << label << " exist=" << exist);
                    CHECK(counts[n][label] == expect);
                    if (counts[n][0] + counts[n][1] > 0)
                        CHECK(meta["splits"][name]["counts"][std::to_string(n)][std::to_string(label)] ==
                              counts[n][label]);
                    if (expect < q) ++shortfalls_expected;
                }
            }
        }
        std::size_t recorded = 0;
        for (const auto& s : meta["shortfalls"])
            if (s["split"] != "boundary") ++recorded;
        CHECK(recorded == shortfalls_expected);
        CHECK(meta["count_method"] == "log-double");
        CHECK(meta["splits"]["train"]["lengths"] == "1:8");
        CHECK(meta["seed"] == 3);
        // The DFA in meta.json is the one we gave.
        CHECK(ds->dfa == d);
    }
}

TEST_CASE("no word in both train and test, nor in train and validation, even with overlapping ranges",
          "[dataset]") {
    TempDir dir("overlap");
    DatasetOptions o = small_options();
    o.train = {1, 10};
    o.test = {6, 14};
    auto rep = generate_dataset(contains_suffix_ab(), dir.str(), o);
    REQUIRE(rep.ok());
    auto ds = read_dataset(dir.str());
    REQUIRE(ds.ok());
    auto train = words_of(*ds->find("train")), val = words_of(*ds->find("validation")),
         test = words_of(*ds->find("test")), boundary = words_of(*ds->find("boundary"));
    for (const auto& w : train) {
        CHECK(val.count(w) == 0);
        CHECK(test.count(w) == 0);
        CHECK(boundary.count(w) == 0);
    }
    for (const auto& w : val) CHECK(test.count(w) == 0);
    CHECK(test.size() > 0);
}

TEST_CASE("the same seed gives the same bytes, another seed other words", "[dataset]") {
    TempDir a("repro-a"), b("repro-b"), c("repro-c");
    DatasetOptions o = small_options();
    o.adversarial = {{"local-2", {plain_family({}, {1, 0}, {0}, {1}, 1, "hand-made")}}};
    REQUIRE(generate_dataset(ends_with_a(), a.str(), o).ok());
    REQUIRE(generate_dataset(ends_with_a(), b.str(), o).ok());
    auto fa = all_files(a.path), fb = all_files(b.path);
    CHECK(fa.size() >= 6);
    CHECK(fa == fb);
    o.seed = 4;
    REQUIRE(generate_dataset(ends_with_a(), c.str(), o).ok());
    auto fc = all_files(c.path);
    CHECK(fc["test.tsv"] != fa["test.tsv"]);
    CHECK(fc["train.tsv"] != fa["train.tsv"]);
}

TEST_CASE("boundary pairs are at edit distance 1 with different labels", "[dataset]") {
    for (const Dfa& d : {contains_suffix_ab(), ends_with_a(), even_b0()}) {
        TempDir dir("boundary");
        DatasetOptions o = small_options();
        o.boundary_per_length = 10;
        REQUIRE(generate_dataset(d, dir.str(), o).ok());
        auto ds = read_dataset(dir.str(), false);
        REQUIRE(ds.ok());
        const Split& s = *ds->find("boundary");
        std::map<long, std::vector<Example>> pairs;
        for (const auto& e : s.examples) {
            CHECK(run(d, e.word) == e.label);
            pairs[e.pair].push_back(e);
        }
        CHECK(pairs.size() == 10 * o.test.size());  // every length found its pairs
        for (const auto& [id, p] : pairs) {
            REQUIRE(p.size() == 2);
            CHECK(p[0].label != p[1].label);
            CHECK(edit_distance(p[0].word, p[1].word) == 1);
            CHECK(o.test.contains(p[0].word.size()));
        }
    }
}

TEST_CASE("every split's words lie in the length range meta.json states for it", "[dataset]") {
    for (const Dfa& d : {contains_suffix_ab(), ends_with_a(), even_b0()}) {
        TempDir dir("lengths");
        DatasetOptions o = small_options();
        o.boundary_per_length = 10;
        REQUIRE(generate_dataset(d, dir.str(), o).ok());
        auto ds = read_dataset(dir.str(), false);
        REQUIRE(ds.ok());
        std::ifstream in(dir.path / "meta.json");
        const auto meta = nlohmann::json::parse(in, nullptr, true, true);
        for (const auto& [name, split] : meta["splits"].items()) {
            const auto range = parse_length_range(split["lengths"].get<std::string>());
            REQUIRE(range.ok());
            std::size_t lo = SIZE_MAX, hi = 0;
            for (const auto& e : ds->find(name)->examples) {
                lo = std::min(lo, e.word.size());
                hi = std::max(hi, e.word.size());
            }
            INFO(name << " stated " << split["lengths"] << ", holds " << lo << ":" << hi);
            CHECK(range->lo <= lo);
            CHECK(hi <= range->hi);
            if (name == "boundary") CHECK((range->lo == lo && range->hi == hi));  // the words' own range
        }
    }
}

TEST_CASE("TSV files start with their column names, and files without them read the same", "[dataset]") {
    TempDir dir("header");
    DatasetOptions o = small_options();
    REQUIRE(generate_dataset(contains_suffix_ab(), dir.str(), o).ok());
    auto first_line = [&](const std::string& file) {
        std::ifstream in(dir.path / file);
        std::string line;
        std::getline(in, line);
        return line;
    };
    CHECK(first_line("train.tsv") == "word\tlabel");
    CHECK(first_line("test.tsv") == "word\tlabel");
    CHECK(first_line("boundary.tsv") == "word\tlabel\tpair");
    auto with = read_dataset(dir.str());
    REQUIRE(with.ok());
    // Drop the header of every TSV file (as earlier versions wrote them) and fix the hashes.
    std::ifstream in(dir.path / "meta.json");
    auto meta = nlohmann::json::parse(in, nullptr, true, true);
    meta.erase("sha256");
    for (auto& [file, hash] : meta["files"].items()) {
        if (file.size() < 4 || file.substr(file.size() - 4) != ".tsv") continue;
        std::ifstream f(dir.path / file);
        std::stringstream text;
        text << f.rdbuf();
        std::string body = text.str();
        body.erase(0, body.find('\n') + 1);
        std::ofstream(dir.path / file, std::ios::trunc) << body;
        hash = sha256_hex(body);
    }
    std::ofstream(dir.path / "meta.json", std::ios::trunc) << json_with_checksum(meta.dump(), 2);
    auto without = read_dataset(dir.str());
    REQUIRE(without.ok());
    REQUIRE(without->splits.size() == with->splits.size());
    for (const auto& [name, split] : with->splits) {
        const auto& a = split.examples;
        const auto& b = without->splits.at(name).examples;
        REQUIRE(a.size() == b.size());
        for (std::size_t j = 0; j < a.size(); ++j) CHECK((a[j].word == b[j].word && a[j].label == b[j].label && a[j].pair == b[j].pair));
    }
}

TEST_CASE("adversarial pairs really differ in membership, families that do not fit are recorded",
          "[dataset]") {
    TempDir dir("adversarial");
    DatasetOptions o = small_options();
    o.test = {20, 60};
    o.adversarial_per_family = 8;
    // Σ*a: (ab)^r a vs (ab)^r b differ; c (b c)^r a / c (b c)^r c differ; a family whose r_min is
    // too large for the test range is skipped.
    AdversarialFamily f1 = plain_family({}, {0, 1}, {0}, {1}, 1, "ends in a");
    AdversarialFamily f2 = plain_family({2}, {1, 2}, {0}, {2}, 3, "ends in a after c(bc)^r");
    AdversarialFamily too_long = plain_family({}, {0}, {0}, {1}, 100, "does not fit");
    AdversarialFamily no_difference = plain_family({}, {0}, {1}, {2}, 1, "both rejected");
    // An extended family: p = e^r with e = b, so b^(r²) a / b^(r²) c (quadratic lengths).
    AdversarialFamily custom = plain_family({}, {WordFamily::kLoopMarker}, {0}, {2}, 2, "quadratic");
    custom.family.e = {1};
    custom.extra = "p repeated r² times";
    o.adversarial = {{"local-2", {f1, f2, too_long}}, {"global", {no_difference}}, {"hybrid-1", {custom}}};
    auto rep = generate_dataset(ends_with_a(), dir.str(), o);
    REQUIRE(rep.ok());
    auto ds = read_dataset(dir.str());
    REQUIRE(ds.ok());
    const Split* s = ds->find("adversarial-local-2");
    REQUIRE(s);
    std::map<long, std::vector<Example>> pairs;
    std::set<std::size_t> lengths;
    for (const auto& e : s->examples) {
        CHECK(run(ends_with_a(), e.word) == e.label);
        CHECK(o.test.contains(e.word.size()));
        pairs[e.pair].push_back(e);
        lengths.insert(e.word.size());
    }
    CHECK(pairs.size() == 16);
    for (const auto& [id, p] : pairs) {
        REQUIRE(p.size() == 2);
        CHECK(p[0].label != p[1].label);
    }
    CHECK(*lengths.begin() <= 22);  // spread over the test range
    CHECK(*lengths.rbegin() >= 56);
    auto meta = nlohmann::json::parse(ds->meta_json);
    CHECK(meta["adversarial"]["local-2"]["families"][2].contains("skipped"));
    CHECK(meta["adversarial"]["global"]["pairs"] == 0);
    CHECK(ds->find("adversarial-global")->examples.empty());
    CHECK(rep->skipped_families.size() == 2);
    const Split* h = ds->find("adversarial-hybrid-1");
    REQUIRE(h);
    std::set<std::size_t> hl;
    for (const auto& e : h->examples) {
        CHECK(run(ends_with_a(), e.word) == e.label);
        hl.insert(e.word.size());
    }
    // r with 20 <= r² + 1 <= 60: r = 5, 6, 7.
    CHECK(hl == std::set<std::size_t>{26, 37, 50});
    CHECK(meta["adversarial"]["hybrid-1"]["families"][0]["extra"] == "p repeated r² times");
}

TEST_CASE("rerun with the same arguments verifies and writes nothing, other arguments need force",
          "[dataset]") {
    TempDir dir("rerun");
    DatasetOptions o = small_options();
    auto first = generate_dataset(contains_suffix_ab(), dir.str(), o);
    REQUIRE(first.ok());
    CHECK_FALSE(first->unchanged);
    auto before = fs::last_write_time(dir.path / "test.tsv");
    auto ino = [](const fs::path& p) {
        struct stat st{};
        ::stat(p.c_str(), &st);
        return st.st_ino;
    };
    auto ino_before = ino(dir.path / "test.tsv");
    auto meta_ino = ino(dir.path / "meta.json");
    auto again = generate_dataset(contains_suffix_ab(), dir.str(), o);
    REQUIRE(again.ok());
    CHECK(again->unchanged);
    CHECK(fs::last_write_time(dir.path / "test.tsv") == before);
    CHECK(ino(dir.path / "test.tsv") == ino_before);
    CHECK(ino(dir.path / "meta.json") == meta_ino);

    DatasetOptions other = o;
    other.per_length = 8;
    auto refused = generate_dataset(contains_suffix_ab(), dir.str(), other);
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().message.find("--force") != std::string::npos);
    other.force = true;
    auto forced = generate_dataset(contains_suffix_ab(), dir.str(), other);
    REQUIRE(forced.ok());
    CHECK_FALSE(forced->unchanged);

    // A tampered file is detected on a rerun with the same arguments.
    {
        std::ofstream out(dir.path / "train.tsv", std::ios::app);
        out << "ab\t1\n";
    }
    other.force = false;
    auto tampered = generate_dataset(contains_suffix_ab(), dir.str(), other);
    REQUIRE_FALSE(tampered.ok());
    CHECK(tampered.error().message.find("train.tsv") != std::string::npos);
    other.force = true;
    REQUIRE(generate_dataset(contains_suffix_ab(), dir.str(), other).ok());
    other.force = false;
    auto repaired = generate_dataset(contains_suffix_ab(), dir.str(), other);
    REQUIRE(repaired.ok());
    CHECK(repaired->unchanged);

    // A non-empty folder that holds no dataset needs force too.
    TempDir foreign("foreign");
    fs::create_directories(foreign.path);
    std::ofstream(foreign.path / "notes.txt") << "mine\n";
    CHECK_FALSE(generate_dataset(contains_suffix_ab(), foreign.str(), o).ok());
}

TEST_CASE("tsv, jsonl and flare hold the same examples", "[dataset]") {
    for (const Dfa& d : {ends_with_a(), even_b0()}) {
        TempDir t("fmt-tsv"), j("fmt-jsonl"), f("fmt-flare");
        DatasetOptions o = small_options();
        o.adversarial = {{"local-1", {plain_family({}, {1}, {0}, {1}, 1, "")}}};
        if (d.alphabet.size() == 2) o.adversarial[0].families[0] = plain_family({}, {1}, {0}, {1}, 1, "");
        REQUIRE(generate_dataset(d, t.str(), o).ok());
        o.format = DatasetFormat::Jsonl;
        REQUIRE(generate_dataset(d, j.str(), o).ok());
        o.format = DatasetFormat::Flare;
        REQUIRE(generate_dataset(d, f.str(), o).ok());
        CHECK(fs::exists(f.path / "train" / "main.tok"));
        CHECK(fs::exists(f.path / "test" / "labels.txt"));
        CHECK(fs::exists(f.path / "boundary" / "pairs.txt"));
        CHECK(fs::exists(j.path / "validation.jsonl"));
        auto a = read_dataset(t.str()), b = read_dataset(j.str()), c = read_dataset(f.str());
        REQUIRE(a.ok());
        REQUIRE(b.ok());
        REQUIRE(c.ok());
        REQUIRE(a->splits.size() == b->splits.size());
        REQUIRE(a->splits.size() == c->splits.size());
        for (const auto& [name, split] : a->splits) {
            INFO(name);
            const auto& sb = b->splits.at(name).examples;
            const auto& sc = c->splits.at(name).examples;
            REQUIRE(split.examples.size() == sb.size());
            REQUIRE(split.examples.size() == sc.size());
            for (std::size_t i = 0; i < sb.size(); ++i) {
                CHECK(split.examples[i].word == sb[i].word);
                CHECK(split.examples[i].word == sc[i].word);
                CHECK(split.examples[i].label == sc[i].label);
                CHECK(split.examples[i].pair == sc[i].pair);
            }
        }
        // Words are written as in docs/SYNTAX.md (section 8), after the header line.
        const std::string train = slurp(t.path / "train.tsv");
        const std::string second_line = train.substr(train.find('\n') + 1);
        std::string first = second_line.substr(0, second_line.find('\t'));
        CHECK(first == format_word(d.alphabet, a->splits.at("train").examples[0].word));
    }
}

TEST_CASE("the reader reports malformed files with file:line", "[dataset]") {
    TempDir dir("malformed");
    DatasetOptions o = small_options();
    REQUIRE(generate_dataset(ends_with_a(), dir.str(), o).ok());
    auto rewrite_line = [&](const std::string& file, std::size_t line_no, const std::string& text) {
        std::string content = slurp(dir.path / file);
        std::vector<std::string> lines;
        std::istringstream in(content);
        std::string l;
        while (std::getline(in, l)) lines.push_back(l);
        lines[line_no - 1] = text;
        std::ofstream out(dir.path / file, std::ios::trunc);
        for (const auto& x : lines) out << x << "\n";
    };
    std::string original = slurp(dir.path / "train.tsv");
    auto expect_error = [&](const std::string& where, const std::string& what) {
        auto r = read_dataset(dir.str());
        REQUIRE_FALSE(r.ok());
        std::string msg = r.error().one_line();
        INFO(msg);
        CHECK(msg.find(where) != std::string::npos);
        CHECK(msg.find(what) != std::string::npos);
        std::ofstream(dir.path / "train.tsv", std::ios::trunc) << original;
    };
    rewrite_line("train.tsv", 3, "abx\t1");
    expect_error("train.tsv:3", "'x'");
    rewrite_line("train.tsv", 5, "ab\t2");
    expect_error("train.tsv:5", "label must be 0 or 1");
    rewrite_line("train.tsv", 2, "ab");
    expect_error("train.tsv:2", "2 columns");
    rewrite_line("train.tsv", 4, "ba\t0");  // Σ*a accepts "ba"
    expect_error("train.tsv:4", "disagrees with the DFA");
    CHECK(read_dataset(dir.str()).ok());
    fs::remove(dir.path / "meta.json");
    auto none = read_dataset(dir.str());
    REQUIRE_FALSE(none.ok());
    CHECK(none.error().one_line().find("meta.json") != std::string::npos);
}

TEST_CASE("meta.json of the wrong shape is an error, not an exception", "[dataset]") {
    TempDir dir("meta-shape");
    fs::create_directories(dir.path);
    std::ofstream(dir.path / "train.tsv") << "a\t1\nab\t0\n";
    const std::string dfa = R"("dfa":{"alphabet":["a","b"],"initial":0,"accepting":[1],"transitions":[[1,0],[1,0]]})";
    auto read_with = [&](const std::string& rest) {
        // Under a valid checksum, so that the shape checks (not the checksum) refuse it.
        std::ofstream(dir.path / "meta.json", std::ios::trunc) << json_with_checksum("{" + dfa + "," + rest + "}");
        return read_dataset(dir.str());
    };
    REQUIRE(read_with(R"("splits":{"train":{"files":["train.tsv"]}})").ok());
    for (const char* rest : {R"("splits":{"train":5})", R"("splits":{"train":{"files":[1]}})",
                             R"("splits":{"train":{"files":"train.tsv"}})",
                             R"("splits":{"train":{"files":["train.tsv"],"pairs":"x"}})",
                             R"("format":3,"splits":{"train":{"files":["train.tsv"]}})",
                             R"("splits":{"train":{"files":["/dev/zero"]}})",
                             R"("splits":{"train":{"files":["../train.tsv"]}})",
                             R"("format":"flare","splits":{"..":{"files":["x"]}})"}) {
        INFO(rest);
        auto r = read_with(rest);
        REQUIRE_FALSE(r.ok());
        CHECK(r.error().one_line().find("meta.json") != std::string::npos);
    }
}

TEST_CASE("default splits of a small language: 64 M symbols-sized job stays exact", "[dataset][long]") {
    TempDir dir("default");
    DatasetOptions o;
    o.language_name = "Σ*ab";
    auto rep = generate_dataset(contains_suffix_ab(), dir.str(), o);
    REQUIRE(rep.ok());
    auto ds = read_dataset(dir.str());
    REQUIRE(ds.ok());
    const Split& test = *ds->find("test");
    std::map<std::size_t, std::array<std::size_t, 2>> counts;
    for (const auto& e : test.examples) ++counts[e.word.size()][e.label];
    CHECK(counts.size() == 460);
    for (const auto& [n, c] : counts) {
        CHECK(c[0] == 256);
        CHECK(c[1] == 256);
    }
}
