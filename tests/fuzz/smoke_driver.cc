// A tiny stand-in for libFuzzer's driver, so that every fuzz target also runs under GCC in ctest
// (a smoke run of seconds): each corpus file, then random mutations of them (byte flips,
// insertions, deletions, splices, and a value wrapped in thousands of brackets: the deep nesting of
// the hostile-input family, docs/FUZZING.md) from a fixed seed for the given number of seconds.
// Usage: smoke CORPUS_DIR SECONDS
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: %s CORPUS_DIR SECONDS\n", argv[0]);
        return 2;
    }
    std::vector<std::string> corpus;
    for (const auto& entry : std::filesystem::directory_iterator(argv[1])) {
        std::ifstream in(entry.path(), std::ios::binary);
        corpus.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    if (corpus.empty()) corpus.emplace_back("");
    auto run = [](const std::string& s) {
        LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(s.data()), s.size());
    };
    for (const auto& s : corpus) run(s);
    std::mt19937_64 rng(20261129);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(std::atoi(argv[2]));
    std::size_t runs = corpus.size();
    const char dictionary[] = "aby()|&!-><=PYHS#*+?.~,:\"[]{}0123456789 \t\n";
    while (std::chrono::steady_clock::now() < deadline) {
        std::string s = corpus[rng() % corpus.size()];
        int edits = 1 + static_cast<int>(rng() % 4);
        for (int e = 0; e < edits; ++e) {
            std::size_t pos = s.empty() ? 0 : rng() % (s.size() + 1);
            switch (rng() % 6) {
                case 0: if (!s.empty() && pos < s.size()) s[pos] = static_cast<char>(rng()); break;
                case 1: s.insert(pos, 1, dictionary[rng() % (sizeof dictionary - 1)]); break;
                case 2: if (pos < s.size()) s.erase(pos, 1 + rng() % 3); break;
                case 3: {
                    const std::string& o = corpus[rng() % corpus.size()];
                    if (!o.empty()) s.insert(pos, o.substr(rng() % o.size(), 1 + rng() % 8));
                    break;
                }
                case 4: {  // wrap what starts at pos in n brackets (or braces with a key)
                    const std::size_t n = 1 + rng() % 30000;
                    const bool object = rng() % 4 == 0;
                    const std::size_t end = pos + std::min<std::size_t>(s.size() - pos, rng() % 16);
                    std::string open, close;
                    for (std::size_t i = 0; i < n; ++i) open += object ? "{\"k\":" : "[", close += object ? "}" : "]";
                    s = s.substr(0, pos) + open + s.substr(pos, end - pos) + close + s.substr(end);
                    break;
                }
                default: if (pos < s.size()) s.resize(pos); break;
            }
        }
        run(s);
        ++runs;
    }
    std::printf("%zu inputs ran without a crash\n", runs);
    return 0;
}
