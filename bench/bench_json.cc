// The strict JSON reader (base/json.hh: duplicate keys refused) against nlohmann's own
// json::parse on the two shapes ltlkit reads: many one-line objects (a jsonl dataset split) and
// one large document holding a long array of objects (plan.json, results). Prints the time of
// each route and the ratio strict / nlohmann (median of 5 runs).
// Usage: bench_json [LINES] [ARRAY_OBJECTS]   (defaults 200000 and 100000)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "base/json.hh"

namespace {

template <class F>
double median_seconds(F f) {
    std::vector<double> t;
    for (int rep = 0; rep < 5; ++rep) {
        const auto t0 = std::chrono::steady_clock::now();
        f();
        t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
    using ltlkit::parse_json;
    using ojson = nlohmann::ordered_json;
    const int n_lines = argc > 1 ? std::atoi(argv[1]) : 200000;
    const int n_objects = argc > 2 ? std::atoi(argv[2]) : 100000;
    std::vector<std::string> lines;
    for (int i = 0; i < n_lines; ++i)
        lines.push_back("{\"word\": \"abababbabab" + std::to_string(i) + "\", \"label\": 1, \"pair\": " +
                        std::to_string(i) + "}");
    std::string doc = "{\"runs\": [";
    for (int i = 0; i < n_objects; ++i) {
        if (i) doc += ",";
        doc += "{\"arch\": \"local-1\", \"seed\": " + std::to_string(i) +
               ", \"accuracy\": [0.5, 0.75, 1.0], \"name\": \"r" + std::to_string(i) + "\"}";
    }
    doc += "]}";
    std::size_t sink = 0;
    const double lines_plain = median_seconds([&] {
        for (const auto& l : lines) sink += ojson::parse(l).size();
    });
    const double lines_strict = median_seconds([&] {
        for (const auto& l : lines) sink += parse_json<ojson>(l)->size();
    });
    const double doc_plain = median_seconds([&] { sink += nlohmann::json::parse(doc).size(); });
    const double doc_strict = median_seconds([&] { sink += parse_json<nlohmann::json>(doc)->size(); });
    std::printf("%d one-line objects: nlohmann %.3f s, strict %.3f s, ratio %.2f\n", n_lines, lines_plain,
                lines_strict, lines_strict / lines_plain);
    std::printf("one document of %zu bytes (%d objects in an array): nlohmann %.3f s, strict %.3f s, ratio %.2f\n",
                doc.size(), n_objects, doc_plain, doc_strict, doc_strict / doc_plain);
    return sink == 0;
}
